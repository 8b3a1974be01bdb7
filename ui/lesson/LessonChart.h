// LessonChart: one step's bars, drawn on a linear scale from zero, so that a bar twice as long is twice
// the number printed beside it (issue 24: never an unlabelled log scale). Stacked bars show their parts
// (copy in, computing, copy out) with a legend; a limit no run can beat is drawn hatched.
#pragma once

#include "LessonSteps.h"

#include <QWidget>

namespace fwb {

class LessonChart : public QWidget
{
    Q_OBJECT

public:
    explicit LessonChart(QWidget *parent = nullptr);

    void setView(const LessonStepView &view);
    const LessonStepView &view() const { return m_view; }
    // The drawn length of bar i in pixels (tests: proportional to its number); -1 when out of range.
    int barLength(int i) const;
    QString valueText(int i) const; // the number printed beside bar i, with its unit

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    struct Layout
    {
        int labelTop = 0, rowHeight = 0, barHeight = 0, left = 0, width = 0, legendTop = 0;
    };
    Layout layout() const;

    LessonStepView m_view;
};

} // namespace fwb
