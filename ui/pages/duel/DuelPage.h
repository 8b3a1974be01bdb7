// DuelPage: Run ▸ Device Duel. The current filter, variant and parameters on two devices (two OpenCL
// devices, the same one twice, or a device against the CPU reference), one after the other so they
// never share the processor, with both result images and their kernel and end-to-end bars side by
// side. Each side has its own ComputeWorker (its own Session); Cancel stops between launches.
#pragma once

#include "ComputeWorker.h"
#include "Devices.h"
#include "JobPage.h"

#include <array>
#include <vector>

class QAction;
class QChart;
class QChartView;
class QComboBox;
class QLabel;

namespace fwb {

class DuelPage : public JobPage
{
    Q_OBJECT

public:
    explicit DuelPage(QWidget *parent = nullptr);
    ~DuelPage() override;

    QString title() const override { return tr("Duel"); }
    QList<QAction *> runMenuActions() const override { return {m_startAct}; }
    void addToReport(ReportData &data) const override; // both sides' runs and pictures
    // --duel: the window's device against --duel-with's (default: as the page chose).
    std::optional<ScreenshotJob> screenshotJob(const ScreenshotPlan &plan) override;

    // "P:D", "cpu-single" or "cpu-multi" for each side (0 left, 1 right).
    bool setSideSpec(int side, const QString &spec);
    QString sideSpec(int side) const;
    bool isBusy() const override { return m_running >= 0; }
    bool isDueling() const { return isBusy(); }
    // The finished sides of the last duel (false: not run yet, cancelled or failed).
    bool hasResult(int side) const { return m_has[side]; }
    const ComputeResult &result(int side) const { return m_results[side]; }
    int barCount() const; // bars on the chart: two (kernel, end to end) per finished side
    QChartView *chartView() const { return m_view; }

public slots:
    bool startJob() override;
    void cancelJob() override;

protected:
    bool canStart() const override;
    void updateActions() override;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void runSide(int side);
    void onFinished(int side, const ComputeResult &result);
    void showSide(int side);
    void updateChart();
    ComputeEngine engineFor(int side) const;

    std::vector<DeviceInfo> m_devices;
    std::array<ComputeWorker *, 2> m_workers{};
    std::array<QComboBox *, 2> m_sides{};
    void scalePicture(int side);
    std::array<QLabel *, 2> m_images{};
    std::array<QLabel *, 2> m_texts{};
    std::array<ComputeResult, 2> m_results;
    std::array<bool, 2> m_has{false, false};
    std::array<quint64, 2> m_ids{0, 0};
    quint64 m_nextId = 0;
    int m_running = -1; // the side running now, -1 when idle
    bool m_cancelled = false;
    QLabel *m_summary;
    QChart *m_chart;
    QChartView *m_view;
};

} // namespace fwb
