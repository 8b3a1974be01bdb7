// LadderChart and NBodyView painting (see LabViews.h).
#include "LabViews.h"

#include <QFontMetrics>
#include <QLocale>
#include <QPaintEvent>
#include <QPainter>
#include <QPolygonF>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace fwb {

namespace {

QString gflopsText(double gflops)
{
    if (gflops >= 1000)
        return QLocale(QLocale::English).toString(gflops, 'f', 0);
    return QString::number(gflops, 'f', gflops >= 100 ? 0 : gflops >= 10 ? 1 : 2);
}

} // namespace

double seedGflopsFromNote(const QString &seedNote)
{
    // Seed 003: "... 1.73 GFLOPS on a CPU, 1.26 on a Radeon HD 4870." or "... 2.78 GFLOPS CPU, 1.23 GPU."
    static const QRegularExpression gpu(QStringLiteral("([0-9]+(?:\\.[0-9]+)?) (?:GFLOPS )?(?:GPU|on a Radeon)"));
    // Seed 002's tiled figure: "(about 43 and 126 GOPS)": the tiled one is the second.
    static const QRegularExpression gops(QStringLiteral("and ([0-9]+(?:\\.[0-9]+)?) GOPS"));
    if (const auto m = gpu.match(seedNote); m.hasMatch())
        return m.captured(1).toDouble();
    if (const auto m = gops.match(seedNote); m.hasMatch())
        return m.captured(1).toDouble();
    return 0;
}

LadderChart::LadderChart(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("ladderChart"));
    setMinimumSize(560, 320);
}

void LadderChart::setRungs(const QVector<Rung> &rungs)
{
    m_rungs = rungs;
    update();
}

void LadderChart::setResult(const LabRow &row)
{
    for (Rung &rung : m_rungs)
        if (rung.variant == row.variant) {
            rung.row = row;
            rung.hasResult = true;
        }
    update();
}

void LadderChart::setPeak(double gflops, const QString &device)
{
    m_peak = gflops;
    m_device = device;
    update();
}

void LadderChart::setRunning(bool running)
{
    m_running = running;
    update();
}

void LadderChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    const QFontMetrics fm(font());
    const int line = fm.height();
    const int labelWidth = 200, textWidth = 300, margin = 10;
    const int top = margin + 3 * line + 8, bottom = height() - margin - line - 6;
    const QRect plot(margin + labelWidth, top, std::max(50, width() - 2 * margin - labelWidth - textWidth),
                     std::max(20, bottom - top));

    // Header: what the bars mean and the ceiling.
    p.setPen(palette().text().color());
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(margin, margin + fm.ascent(),
               tr("Matrix multiplication ladder: GFLOPS (log scale)%1")
                   .arg(m_rungs.isEmpty() || !m_rungs.front().hasResult ? QString()
                                                                         : tr(", n = %1").arg(m_rungs.front().row.n)));
    p.setFont(font());
    const QString peakText = m_peak > 0 ? tr("FP32 peak on %1 (FMA probe): %2 GFLOPS").arg(m_device, gflopsText(m_peak))
                                        : tr("FP32 peak: measuring when the ladder runs");
    p.drawText(margin, margin + line + fm.ascent(), peakText);
    p.setPen(palette().mid().color().darker(160));
    p.drawText(margin, margin + 2 * line + fm.ascent(), m_seedLegend);

    // The axis: decades covering every bar, ghost and the peak.
    double lo = 1e300, hi = 0;
    auto include = [&](double v) {
        if (v > 0) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    };
    for (const Rung &r : m_rungs) {
        include(r.seedGflops);
        if (r.hasResult && r.row.ok)
            include(r.row.gflops);
    }
    include(m_peak);
    if (hi <= 0) {
        lo = 1;
        hi = 100;
    }
    const double decadeLo = std::floor(std::log10(lo)), decadeHi = std::max(decadeLo + 1, std::ceil(std::log10(hi)));
    auto xOf = [&](double v) {
        const double t = (std::log10(std::max(v, std::pow(10.0, decadeLo))) - decadeLo) / (decadeHi - decadeLo);
        return plot.left() + t * plot.width();
    };
    p.setPen(QPen(palette().mid().color(), 1));
    for (double d = decadeLo; d <= decadeHi; d += 1) {
        const double x = xOf(std::pow(10.0, d));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        const QString label = gflopsText(std::pow(10.0, d));
        p.drawText(QPointF(x - fm.horizontalAdvance(label) / 2.0, plot.bottom() + fm.ascent() + 4), label);
    }
    if (m_peak > 0) {
        const double x = xOf(m_peak);
        p.setPen(QPen(QColor(200, 60, 40), 1.5, Qt::DashLine));
        p.drawLine(QPointF(x, plot.top() - 4), QPointF(x, plot.bottom()));
        p.setPen(QColor(200, 60, 40));
        p.drawText(QPointF(std::min(x + 4, double(width() - fm.horizontalAdvance(tr("FP32 peak")) - 2)), plot.bottom() - 4),
                   tr("FP32 peak"));
    }

    if (m_rungs.isEmpty())
        return;
    const double rowHeight = std::min(34.0, double(plot.height()) / m_rungs.size());
    const QColor barColour(52, 118, 190), baselineColour(120, 90, 170), badColour(200, 60, 40);
    for (int i = 0; i < m_rungs.size(); ++i) {
        const Rung &rung = m_rungs[i];
        const double y = plot.top() + i * rowHeight;
        const QRectF rowRect(plot.left(), y + 2, plot.width(), rowHeight - 4);
        p.setPen(palette().text().color());
        p.drawText(QRectF(margin, y, labelWidth - 8, rowHeight), Qt::AlignVCenter | Qt::AlignRight,
                   fm.elidedText(rung.variant, Qt::ElideRight, labelWidth - 8));
        if (rung.seedGflops > 0) { // the seed's figure: a ghost behind the bar
            const QRectF ghost(rowRect.left(), rowRect.top(), xOf(rung.seedGflops) - rowRect.left(), rowRect.height());
            p.setPen(QPen(QColor(120, 120, 120, 200), 1, Qt::DashLine));
            p.setBrush(QColor(150, 150, 150, 60));
            p.drawRect(ghost);
        }
        QString text;
        if (!rung.hasResult) {
            text = m_running ? tr("waiting…") : QString();
        } else if (!rung.row.ok) {
            text = rung.row.unavailable ? tr("unavailable: %1").arg(rung.row.error) : tr("error: %1").arg(rung.row.error);
        } else {
            const QRectF bar(rowRect.left(), rowRect.top() + rowRect.height() * 0.2,
                             std::max(1.0, xOf(rung.row.gflops) - rowRect.left()), rowRect.height() * 0.6);
            p.setPen(Qt::NoPen);
            p.setBrush(!rung.row.matches ? badColour : rung.row.baseline ? baselineColour : barColour);
            p.drawRect(bar);
            text = tr("%1 GFLOPS").arg(gflopsText(rung.row.gflops));
            if (rung.row.pctOfPeak >= 0)
                text += tr(" · %1% of peak").arg(rung.row.pctOfPeak, 0, 'f', rung.row.pctOfPeak < 1 ? 2 : 1);
            if (!rung.row.matches)
                text += tr(" · WRONG");
        }
        if (rung.seedGflops > 0 && rung.hasResult)
            text += tr(" · seed %1").arg(gflopsText(rung.seedGflops));
        p.setPen(rung.hasResult && !rung.row.ok ? palette().mid().color().darker(150) : palette().text().color());
        p.drawText(QRectF(plot.right() + 8, y, textWidth - 10, rowHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(text, Qt::ElideRight, textWidth - 10));
    }
}

NBodyView::NBodyView(const QString &engine, const QColor &colour, QWidget *parent)
    : QWidget(parent), m_engine(engine), m_colour(colour)
{
    setMinimumSize(260, 260);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void NBodyView::setFrame(const LabFrame &frame)
{
    m_frame = frame;
    m_message.clear();
    ++m_framesShown;
    if (!m_rateClock.isValid())
        m_rateClock.start();
    else if (++m_rateFrames; m_rateClock.elapsed() >= 1000) {
        m_framesPerSecond = m_rateFrames * 1000.0 / double(m_rateClock.restart());
        m_rateFrames = 0;
    }
    update();
}

void NBodyView::clear()
{
    m_frame = LabFrame{};
    m_framesShown = 0;
    m_rateClock.invalidate();
    m_rateFrames = 0;
    m_framesPerSecond = 0;
    update();
}

void NBodyView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), QColor(12, 16, 24));
    // The cloud seen from slightly above its plane of rotation (a tilt about x) so it reads as 3-D.
    const double tilt = 0.45, c = std::cos(tilt), s = std::sin(tilt);
    const double scale = 0.42 * std::min(width(), height()), cx = width() / 2.0, cy = height() / 2.0 + 10;
    const int n = m_frame.xyz.size() / 3;
    QPolygonF points;
    points.reserve(n);
    for (int i = 0; i < n; ++i) {
        const float x = m_frame.xyz[3 * i], y = m_frame.xyz[3 * i + 1], z = m_frame.xyz[3 * i + 2];
        points.append(QPointF(cx + scale * x, cy - scale * (y * c + z * s) * 0.9));
    }
    QColor dot = m_colour;
    dot.setAlpha(n > 20000 ? 110 : 190);
    p.setPen(QPen(dot, n > 20000 ? 1.0 : 1.8));
    p.drawPoints(points);

    // Present mode: everything larger, for a class at the back of the room.
    const double textScale = m_large ? 1.6 : 1.0;
    QFont caption = font();
    caption.setPointSizeF(font().pointSizeF() * textScale);
    p.setFont(caption);
    p.setPen(Qt::white);
    const double captionH = QFontMetricsF(caption).height() + 4;
    p.drawText(QRectF(10, 6, width() - 20, captionH), Qt::AlignLeft | Qt::AlignVCenter, m_engine);
    QFont big = font();
    big.setPointSizeF(font().pointSizeF() * 1.9 * textScale);
    big.setBold(true);
    p.setFont(big);
    const double rateH = QFontMetricsF(big).height() + 4;
    const QString rate = m_frame.stepsPerSecond > 0
                             ? tr("%1 steps/s").arg(m_frame.stepsPerSecond, 0, 'f', m_frame.stepsPerSecond < 10 ? 2 : 0)
                             : (m_framesShown > 0 ? tr("starting…") : QString());
    p.setPen(m_colour.lighter(130));
    p.drawText(QRectF(10, 6 + captionH, width() - 20, rateH), Qt::AlignLeft | Qt::AlignVCenter, rate);
    if (m_framesPerSecond > 0) {
        p.setFont(caption);
        p.drawText(QRectF(10, 6 + captionH + rateH, width() - 20, captionH), Qt::AlignLeft | Qt::AlignVCenter,
                   tr("%1 frames/s on screen").arg(m_framesPerSecond, 0, 'f', m_framesPerSecond < 10 ? 1 : 0));
    }
    p.setFont(font());
    p.setPen(QColor(190, 190, 190));
    if (m_frame.bodies > 0)
        p.drawText(QRectF(10, height() - 26, width() - 20, 20), Qt::AlignLeft | Qt::AlignVCenter,
                   tr("step %1 · %2 bodies").arg(m_frame.steps).arg(m_frame.bodies));
    if (!m_message.isEmpty())
        p.drawText(rect().adjusted(20, 80, -20, -40), Qt::AlignCenter | Qt::TextWordWrap, m_message);
}

} // namespace fwb
