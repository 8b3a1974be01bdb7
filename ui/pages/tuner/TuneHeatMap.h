// TuneHeatMap: the tuner's shapes as a grid (width across, height down), colour = kernel time (blue
// fast, red slow), refused shapes grey with their reason as the tooltip, the best outlined.
#pragma once

#include "Tuner.h"

#include <QWidget>

namespace fwb {

class TuneHeatMap : public QWidget
{
    Q_OBJECT

public:
    explicit TuneHeatMap(QWidget *parent = nullptr);
    void setTune(const TuneResult &tune);
    const TuneResult &tune() const { return m_tune; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override; // tooltips: the cell's time or refusal

private:
    QRect cellRect(int column, int row) const;
    const TuneCell *cellAt(const QPoint &point) const;

    TuneResult m_tune;
};

} // namespace fwb
