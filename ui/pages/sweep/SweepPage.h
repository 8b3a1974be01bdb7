// SweepPage: Run ▸ Sweep. One numeric parameter (sigma, radius, ...) over a range, every variant of the
// current filter (and, optionally, of a second filter with the same parameter) as a line of kernel
// time; log axes where the range spans a factor of ten, so the point where the recursive Gaussian
// (cost flat in sigma) overtakes the separable one (cost growing with it) is visible. Runs on a
// BenchWorker with progress and Cancel; each point appears as its run ends.
#pragma once

#include "BenchWorker.h"
#include "JobPage.h"

class QAction;
class QChart;
class QChartView;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace fwb {

class SweepPage : public JobPage
{
    Q_OBJECT

public:
    explicit SweepPage(QWidget *parent = nullptr);

    QString title() const override { return tr("Sweep"); }
    void setRequest(const ComputeRequest &request) override;
    QList<QAction *> runMenuActions() const override { return {m_startAct}; }
    void addToReport(ReportData &data) const override; // the sweep's chart
    std::optional<ScreenshotJob> screenshotJob(const ScreenshotPlan &plan) override; // --sweep

    const SweepResult &sweep() const { return m_sweep; }
    bool isSweeping() const { return isBusy(); }
    // Points on the chart (one per finished run that produced a time) and lines (one per variant).
    int pointCount() const;
    int seriesCount() const;
    QChartView *chartView() const { return m_view; }
    // The values the next sweep uses (from the range boxes).
    std::vector<double> values() const;
    QString param() const;
    // Setup for tests and --screenshot: parameter, range, step count; the second filter ("" for none).
    bool setParam(const QString &key);
    void setRange(double from, double to, int steps);
    bool setCompareFilter(const QString &filter);
    // Where the first series of the compare filter becomes faster than the best of the main filter
    // (empty: it never does, or no compare filter) -- also shown under the chart.
    QString crossoverText() const;

public slots:
    bool startJob() override;

protected:
    bool canStart() const override;
    void updateActions() override;
    void showFailure(const QString &message) override;
    void benchProgress(const BenchProgress &progress) override; // the points so far on the chart
    void benchFinished(const BenchResult &result) override;

private:
    void rebuildParams();
    void showSweep(const SweepResult &sweep);

    SweepResult m_sweep;
    QString m_filter; // the filter the param list was built for
    QComboBox *m_param;
    QDoubleSpinBox *m_from;
    QDoubleSpinBox *m_to;
    QSpinBox *m_steps;
    QComboBox *m_compare;
    QLabel *m_summary;
    QChart *m_chart;
    QChartView *m_view;
};

} // namespace fwb
