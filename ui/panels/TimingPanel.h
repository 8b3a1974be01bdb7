// TimingPanel: the last run's time split (stacked bars to scale), its numbers, and a Qt Charts
// history of kernel time over the recent runs, each bar labelled variant / device / shape; also
// the run's one-line summary for the status bar.
#pragma once

#include "ComputeWorker.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QLabel;
class QChart;
class QChartView;
class QBoxLayout;
class QBarSeries;
class QHorizontalBarSeries;
class QBarCategoryAxis;
class QValueAxis;

namespace fwb {

// Stacked horizontal bars: one including the build, one for a single repeat.
class TimingBar : public QWidget
{
    Q_OBJECT

public:
    explicit TimingBar(QWidget *parent = nullptr);
    // buildOrigin: "compiled" (buildMs is a compile), anything else names the cache it came from.
    void setTimes(double buildMs, double uploadMs, double kernelMs, double downloadMs,
                  const QString &buildOrigin = QStringLiteral("compiled"));
    // The CPU reference: no build, no transfers, and the "kernel" is the C++ filter.
    void setCpuTime(double filterMs);
    void clear();
    QString legendText() const; // the legend as painted (tests)
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString segmentText(int segment) const;

    bool m_valid = false;
    bool m_cpu = false;
    QString m_buildOrigin;
    double m_build = 0, m_upload = 0, m_kernel = 0, m_download = 0;
};

class TimingPanel : public QWidget
{
    Q_OBJECT

public:
    explicit TimingPanel(QWidget *parent = nullptr);

    // Its CPU figures are read from core's CPU timing store (CpuTimings.h) as it is shown, and again
    // whenever the store changes (CpuTimingsWatch): the race page and this panel show one CPU time.
    void setResult(const ComputeResult &result);
    // A run whose picture is shown before its timings (ComputeWorker::firstPicture): its title, what is known
    // (the program, the first launch's check) and "timing…"; the bars and the numbers of any earlier run go,
    // so none stands beside the new picture. setResult() then brings the timings.
    void setTimingPending(const ComputeResult &preview);
    // The device's copy speed, measured after the result on display (ComputeResult::copyBandwidthPending):
    // its "% of the device's copy speed" replaces "measuring…". Nothing when another run's numbers show.
    void setCopyBandwidth(double gbps);
    bool isTimingPending() const { return m_pending; }
    // The run in one line for the status bar: time, check, device, program origin, transfers.
    static QString summaryLine(const ComputeResult &result);
    // An error or cancelled run: the numbers of the previous run stay, with this note above them.
    void setNote(const QString &text);
    // A failed run: its error in the note, saying whether the numbers shown are an earlier run's.
    void setFailedRun(const QString &error);
    void clearHistory();
    int historyCount() const { return int(m_history.size()); }
    // Whether the numbers of an earlier successful run are on display.
    bool hasNumbers() const { return m_hasNumbers; }
    QString numbersText() const; // plain text of the numbers grid (tests, run-log preview)
    QStringList historyLabels() const; // the chart's category labels, oldest first (tests)
    QString chartTitle() const;
    TimingBar *bar() const { return m_bar; }

    static constexpr int kHistoryLength = 12;
    static constexpr int kSideBySideWidth = 1100; // narrower: the history chart goes below the numbers

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void updateChart();
    void setTitle(const ComputeResult &result);
    void showNumbers(const ComputeResult &result); // the title, the bar and the numbers (not the history)

    struct HistoryEntry
    {
        int number = 0;
        QString filter;
        QString variant; // for the CPU engines: which one
        QString device;
        QString format;
        QString shape;   // empty for the CPU engines
        double kernelMs = 0;
    };
    std::vector<HistoryEntry> m_history;
    int m_runNumber = 0;
    bool m_hasNumbers = false;
    bool m_pending = false;
    ComputeResult m_shown; // the numbers on display came from it (without its pictures)
    QLabel *m_title = nullptr;
    QLabel *m_note = nullptr;
    TimingBar *m_bar = nullptr;
    QLabel *m_numbers = nullptr;
    QChartView *m_chartView = nullptr;
    QBoxLayout *m_top = nullptr;
    QChart *m_chart = nullptr;
    QHorizontalBarSeries *m_series = nullptr;
    QBarCategoryAxis *m_categories = nullptr;
    QValueAxis *m_valueAxis = nullptr;
};

} // namespace fwb
