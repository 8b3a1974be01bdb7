// RaceVerdict: the race's end-to-end story beside the kernel-only ranking (issue 24). The device's fastest
// version as a stacked bar, copying the picture to the device | filtering | copying it back | the rest,
// and the same version with page-locked (pinned) copies where the race measured it, above the CPU rows'
// bars (the CPU has no copies: its bar is its whole time), all on one linear millisecond axis with ticks,
// each segment's milliseconds printed under its bar, and the sentences: the copies every version pays
// alike, and the end-to-end verdict against the CPU to beat (named).
#pragma once

#include "Race.h"

#include <QWidget>

namespace fwb {

class RaceVerdict : public QWidget
{
    Q_OBJECT

public:
    explicit RaceVerdict(QWidget *parent = nullptr);

    void setRace(const RaceResult &race);
    void setLarge(bool large); // presentation mode: larger type
    // Whether the bars above it rank the versions by filtering alone (RaceMetric::KernelOnly, the default).
    void setRankedByFiltering(bool on);

    enum Part { CopyIn, Filter, CopyOut, Other, PartCount };
    struct Row
    {
        QString name;      // "Ordinary memory", "Page-locked memory" (the fastest version), "OpenCV on the CPU, 2 threads"
        bool stacked = false;
        EndToEndParts parts; // stacked rows
        double ms = 0;     // the whole: parts.total() for stacked rows
        bool cpuToBeat = false;
    };
    const std::vector<Row> &rows() const { return m_rows; }
    // Pixels of a row's bar, or of one part of a stacked row, and the milliseconds a pixel stands for
    // (tests: length / time is the same for every bar and segment).
    double barLength(int row) const;
    double partLength(int row, Part part) const;
    double msPerPixel() const;
    // The line above the bars: "End to end, ...: the fastest version, <title>, against the CPU".
    QString heading() const;
    // Under the axis: what "the rest" of a stacked bar is (empty when no bar has any).
    QString legend() const;
    // The words printed beside a row's bar, and under a stacked row (each part in milliseconds).
    QString rowLabel(int row) const;
    QString partsLine(int row) const;
    // The sentences with the bars: the shared copies and the pinned verdict. The end-to-end verdict itself
    // (RaceResult::endToEndSentence) is on the winner's line at the top, always in view; the same-processor
    // note on the page's winner line and the presentation's device line.
    QStringList sentences() const;
    static QString partName(Part part); // "copying the picture to the device", "filtering", ...

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasWidthForHeight() const { return true; }
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    struct Geometry;
    Geometry geometry(int width) const;
    QFont baseFont(int width) const;

    RaceResult m_race;
    std::vector<Row> m_rows;
    bool m_large = false;
    bool m_rankedByFiltering = true;
};

} // namespace fwb
