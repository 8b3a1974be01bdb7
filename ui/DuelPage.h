// DuelPage: Run ▸ Device Duel. The current filter, variant and parameters on two devices (two OpenCL
// devices, the same one twice, or a device against the CPU reference), one after the other so they
// never share the processor, with both result images and their kernel and end-to-end bars side by
// side. Each side has its own ComputeWorker (its own Session); Cancel stops between launches.
#pragma once

#include "ComputeWorker.h"
#include "Devices.h"
#include "WorkbenchPage.h"

#include <array>
#include <vector>

class QAction;
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace fwb {

class DuelPage : public WorkbenchPage
{
    Q_OBJECT

public:
    explicit DuelPage(QWidget *parent = nullptr);
    ~DuelPage() override;

    QString title() const override { return tr("Duel"); }
    void setInput(const std::shared_ptr<const Image> &image, const QString &description) override;
    void setRequest(const ComputeRequest &request) override;
    QList<QAction *> runMenuActions() const override { return {m_duelAct}; }

    QAction *duelAction() const { return m_duelAct; }
    // "P:D", "cpu-single" or "cpu-multi" for each side (0 left, 1 right).
    bool setSideSpec(int side, const QString &spec);
    QString sideSpec(int side) const;
    bool isDueling() const { return m_running >= 0; }
    // The finished sides of the last duel (false: not run yet, cancelled or failed).
    bool hasResult(int side) const { return m_has[side]; }
    const ComputeResult &result(int side) const { return m_results[side]; }
    int barCount() const; // bars on the chart: two (kernel, end to end) per finished side
    QChartView *chartView() const { return m_view; }

public slots:
    bool startDuel();
    void cancelDuel();

signals:
    void duelFinished();

private:
    void runSide(int side);
    void onFinished(int side, const ComputeResult &result);
    void showSide(int side);
    void updateChart();
    void updateActions();
    ComputeEngine engineFor(int side) const;

    std::vector<DeviceInfo> m_devices;
    ComputeRequest m_request;
    std::array<ComputeWorker *, 2> m_workers{};
    std::array<QComboBox *, 2> m_sides{};
    std::array<QLabel *, 2> m_images{};
    std::array<QLabel *, 2> m_texts{};
    std::array<ComputeResult, 2> m_results;
    std::array<bool, 2> m_has{false, false};
    std::array<quint64, 2> m_ids{0, 0};
    quint64 m_nextId = 0;
    int m_running = -1; // the side running now, -1 when idle
    bool m_cancelled = false;
    QAction *m_duelAct;
    QPushButton *m_duelButton;
    QPushButton *m_cancel;
    QProgressBar *m_progress;
    QLabel *m_summary;
    QChart *m_chart;
    QChartView *m_view;
};

} // namespace fwb
