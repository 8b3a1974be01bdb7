// LabPage: the Compute Lab in the window: choose a workload (matmul ladder or N-body), a device, a
// size and variants; the ladder as GFLOPS bars against the FP32 peak with the seeds' figures as ghosts;
// the N-body cloud animated on the CPU and on the device side by side with live steps/s. Its OpenCL
// work runs on its own LabWorker threads: the window never waits for it.
#pragma once

#include "Devices.h"
#include "LabViews.h"
#include "LabWorker.h"
#include "NBodyDemo.h"
#include "WorkbenchPage.h"

#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace fwb {

class LabPage : public WorkbenchPage
{
    Q_OBJECT

public:
    explicit LabPage(QWidget *parent = nullptr);
    ~LabPage() override;

    QString title() const override { return tr("Compute Lab"); }
    // --lab (set up by the command line): the ladder to its end, or N-body animated a few seconds.
    std::optional<ScreenshotJob> screenshotJob(const ScreenshotPlan &plan) override;

    enum class Workload { Matmul, NBody };
    void setWorkload(Workload workload);
    Workload workload() const;
    // Matrix size n (matmul) or bodies (N-body).
    void setSize(int size);
    int size() const;
    // Ladder rungs to run (matmul); unknown names are ignored. False when none is known.
    bool setVariants(const QStringList &names);
    QStringList checkedVariants() const;
    bool setDeviceSpec(const QString &spec);
    void setNBodyVariant(const QString &name);

    // Matmul: runs the checked rungs. N-body: starts (or restarts) both animations.
    void start();
    void stop();
    bool isRunning() const { return m_running; }

    LadderChart *ladderChart() const { return m_ladder; }
    NBodyView *cpuView() const { return m_nbody->cpuView(); }
    NBodyView *deviceView() const { return m_nbody->deviceView(); }
    NBodyDemo *nbodyDemo() const { return m_nbody; }
    QString statusText() const;

signals:
    void ladderFinished();
    void framePainted(bool cpu); // an animation frame reached the screen
    void labFailed(const QString &message);

private:
    void buildUi();
    void workloadChanged();
    void deviceChanged();
    void fillVariantList();
    void setStatus(const QString &text);
    // The device's ladder stopped (done or failed): the page is idle again, `status` says how it ended.
    void ladderEnded(const QString &status);
    LabWorker *deviceWorker();

    std::vector<DeviceInfo> m_devices;
    QComboBox *m_workloadBox = nullptr;
    QComboBox *m_deviceBox = nullptr;
    QSpinBox *m_sizeBox = nullptr;
    QLabel *m_sizeLabel = nullptr;
    QComboBox *m_nbodyVariantBox = nullptr;
    QCheckBox *m_fastMath = nullptr;
    QPushButton *m_runButton = nullptr;
    QListWidget *m_variantList = nullptr;
    QStackedWidget *m_stack = nullptr;
    LadderChart *m_ladder = nullptr;
    NBodyDemo *m_nbody = nullptr; // the N-body pane, with its own two workers
    QLabel *m_status = nullptr;
    LabWorker *m_deviceWorker = nullptr; // the ladder's, for the chosen device; replaced when the device changes
    bool m_running = false;
    int m_matmulSize = 512, m_bodies = 4096;
};

} // namespace fwb
