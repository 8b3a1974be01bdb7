// RaceChart: the race as horizontal bars, fastest first, each bar's length proportional to the time
// printed beside it (a linear millisecond axis with ticks underneath), the winner in green with a bold
// name, OpenCV and CPU rows in grey. Kernel only (the default, issue 24): the device's versions alone, by
// their filtering time, each labelled "N× as long as the fastest", with the memory-limit line; the copies
// every version pays alike and the end-to-end comparison with the CPU are RaceVerdict's. End to end: every
// row by its whole time, labelled "N× faster than <the CPU to beat, named>". The single-threaded checking reference is not in the race: it
// is drawn apart below the racers (a broken bar where it is off the scale), or not at all
// (setShowReference(false), presentation mode). Click a bar to pick it.
#pragma once

#include "Race.h"

#include <QWidget>

#include <optional>

namespace fwb {

// A linear millisecond axis for bars: a round step (1, 2 or 5 times a power of ten) giving 4 to 8 ticks,
// and the axis end on the first tick at or beyond hi. Shared by the race chart and its verdict bars.
struct RoundAxis
{
    double step = 1;
    double max = 1;
};
RoundAxis roundAxis(double hi);

class RaceChart : public QWidget
{
    Q_OBJECT

public:
    explicit RaceChart(QWidget *parent = nullptr);

    void setRace(const RaceResult &race); // redraws; keeps the metric
    void setMetric(RaceMetric metric);
    RaceMetric metric() const { return m_metric; }
    void setSelected(int entry);
    int selected() const { return m_selected; }
    // Presentation mode: larger type and bars.
    void setLarge(bool large);
    // What the chart says before the first bar (default: press Race All Variants).
    void setEmptyText(const QString &text);
    // Whether the checking reference (cpu_single) has a bar, apart below the racers (default true).
    void setShowReference(bool show);
    // The version the race is compiling (or running) now: until its result arrives its row is drawn
    // after the bars with its name and "compiling…" (or "running…") where its bar will be, not left
    // empty through a build's silent stall (issue 25). A result of that name, or clearPending(), ends it.
    void setPending(const RaceEntry &upcoming, bool compiling);
    void clearPending();
    // The placeholder's words where a row shows one now ("compiling…"), else empty (tests read it).
    QString pendingText() const;
    QRect pendingRect() const; // its row, empty when none is shown
    // Length in pixels of an entry's bar and the milliseconds one pixel stands for (tests check bar
    // length / time is the same for every bar); broken: the bar is cut short (off the scale) and says so.
    double barLength(int entry, bool *broken = nullptr) const;
    double msPerPixel() const;
    // The words beside a bar: "1.23 ms, 4.5× faster than OpenCV on 2 CPU threads".
    QString barLabel(int entry) const;
    // Where the words beside a bar are drawn (tests check they stay inside the chart).
    QRect labelRect(int entry) const;
private:
    QString labelText(int entry, double axisMax) const;
public:
    // Entry index of the bar at a point (-1: none). Tests click bars through this.
    int entryAt(const QPoint &point) const;
    QRect barRect(int entry) const;
    int barCount() const;

    // One bar's row, in pixels (the page leaves room for the bars a running race has still to add).
    int rowHeight() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void entryClicked(int entry);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    std::vector<int> rows() const; // entry indices that ran, fastest first, the reference last
    struct Layout;
    Layout layout() const;         // the scale, shared by painting and barLength()
    struct LabelPlace
    {
        QString text;
        QRectF rect;
        QFont font;
        int flags = 0;
        bool inside = false; // inside a cut bar, on its colour
    };
    LabelPlace labelPlace(const Layout &layout, int entry, int rowTop) const;
    double drawnLength(const Layout &layout, int entry) const; // a bar's length in pixels (barLength)


    RaceResult m_race;
    RaceMetric m_metric = RaceMetric::KernelOnly;
    int m_selected = -1;
    bool m_large = false;
    bool m_showReference = true;
    QString m_emptyText;
    std::optional<RaceEntry> m_pending;
    bool m_pendingCompiles = false;
};

} // namespace fwb
