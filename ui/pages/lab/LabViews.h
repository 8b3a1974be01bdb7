// The Compute Lab page's two pictures: LadderChart (the matmul ladder as bars of GFLOPS on a log
// axis, % of the FP32 peak, the seeds' figures as ghost bars) and NBodyView (one engine's N-body cloud
// projected to 2-D with its live steps and frames per second).
#pragma once

#include "LabWorker.h"

#include <QColor>
#include <QElapsedTimer>
#include <QWidget>

namespace fwb {

class LadderChart : public QWidget
{
    Q_OBJECT

public:
    struct Rung
    {
        QString variant;
        QString title;
        double seedGflops = 0; // ghost bar, 0: none
        bool hasResult = false;
        LabRow row;
    };

    explicit LadderChart(QWidget *parent = nullptr);

    void setRungs(const QVector<Rung> &rungs);
    void setResult(const LabRow &row);
    void setPeak(double gflops, const QString &device);
    void setRunning(bool running);
    void setSeedLegend(const QString &text) { m_seedLegend = text; update(); }
    const QVector<Rung> &rungs() const { return m_rungs; }
    double peak() const { return m_peak; }
    QSize sizeHint() const override { return {900, 560}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QVector<Rung> m_rungs;
    double m_peak = 0;
    QString m_device;
    QString m_seedLegend;
    bool m_running = false;
};

class NBodyView : public QWidget
{
    Q_OBJECT

public:
    explicit NBodyView(const QString &engine, const QColor &colour, QWidget *parent = nullptr);

    void setEngine(const QString &engine) { m_engine = engine; update(); }
    void setFrame(const LabFrame &frame);
    void setMessage(const QString &message) { m_message = message; update(); }
    void clear();
    // Present mode: the caption and the rates in large type.
    void setLarge(bool large) { m_large = large; update(); }
    double stepsPerSecond() const { return m_frame.stepsPerSecond; }
    // Frames shown per second over the last second or so (0 before the first second).
    double framesPerSecond() const { return m_framesPerSecond; }
    qint64 framesShown() const { return m_framesShown; }
    QSize sizeHint() const override { return {440, 440}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString m_engine;
    QColor m_colour;
    LabFrame m_frame;
    QString m_message;
    qint64 m_framesShown = 0;
    bool m_large = false;
    QElapsedTimer m_rateClock; // since the frame counted last for framesPerSecond
    int m_rateFrames = 0;
    double m_framesPerSecond = 0;
};

// Seed 003's (or seed 002's) GPU figure for a rung, read from the variant's seed note; 0 when none.
double seedGflopsFromNote(const QString &seedNote);

} // namespace fwb
