// RaceChart: the race as horizontal bars, fastest first (log scale: a race spans 1000x), each bar
// labelled with its time and "N× faster than the CPU" in words, the winner in green with a bold name,
// OpenCV and CPU rows in grey, and the memory-limit line in kernel-only mode. Click a bar to pick it.
#pragma once

#include "Race.h"

#include <QWidget>

namespace fwb {

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
    // Entry index of the bar at a point (-1: none). Tests click bars through this.
    int entryAt(const QPoint &point) const;
    QRect barRect(int entry) const;
    int barCount() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void entryClicked(int entry);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    int rowHeight() const;
    std::vector<int> rows() const; // entry indices that ran, fastest first

    RaceResult m_race;
    RaceMetric m_metric = RaceMetric::EndToEnd;
    int m_selected = -1;
    bool m_large = false;
};

} // namespace fwb
