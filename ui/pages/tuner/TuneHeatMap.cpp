// TuneHeatMap: painted grid of tuned shapes (see TuneHeatMap.h).
#include "TuneHeatMap.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <cmath>

namespace fwb {

namespace {
constexpr int kLeft = 56, kTop = 40;

QColor heat(double t)
{
    t = std::clamp(t, 0.0, 1.0);
    return t < 0.5 ? QColor::fromRgbF(0.24 + t * 2 * 0.76, 0.63 + t * 2 * 0.23, 0.9 - t * 2 * 0.67)
                   : QColor::fromRgbF(1.0, 0.86 - (t - 0.5) * 2 * 0.67, 0.23);
}
} // namespace

TuneHeatMap::TuneHeatMap(QWidget *parent) : QWidget(parent)
{
    setObjectName("tuneHeatMap");
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void TuneHeatMap::setTune(const TuneResult &tune)
{
    m_tune = tune;
    updateGeometry();
    update();
}

QSize TuneHeatMap::sizeHint() const
{
    return {kLeft + 60 * std::max<int>(4, int(m_tune.widths.size())) + 10,
            kTop + 28 * std::max<int>(4, int(m_tune.heights.size())) + 30};
}

QRect TuneHeatMap::cellRect(int column, int row) const
{
    const int cols = std::max<int>(1, int(m_tune.widths.size())), rows = std::max<int>(1, int(m_tune.heights.size()));
    const int cw = std::max(24, (width() - kLeft - 10) / cols), ch = std::max(16, std::min(40, (height() - kTop - 30) / rows));
    return QRect(kLeft + column * cw, kTop + row * ch, cw, ch);
}

const TuneCell *TuneHeatMap::cellAt(const QPoint &point) const
{
    for (std::size_t j = 0; j < m_tune.heights.size(); ++j)
        for (std::size_t i = 0; i < m_tune.widths.size(); ++i)
            if (cellRect(int(i), int(j)).contains(point))
                return m_tune.cell(m_tune.widths[i], m_tune.heights[j]);
    return nullptr;
}

bool TuneHeatMap::event(QEvent *e)
{
    if (e->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(e);
        if (const TuneCell *c = cellAt(help->pos()))
            QToolTip::showText(help->globalPos(),
                               QString::fromStdString(c->local.toString()) + QStringLiteral(": ")
                                   + (c->ok() ? QStringLiteral("%1 ms").arg(c->kernelMs, 0, 'g', 4)
                                              : QString::fromStdString(c->refusal)),
                               this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void TuneHeatMap::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (m_tune.widths.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter,
                   tr("Press Tune Work-Group: every valid work-group shape for this variant is timed\n"
                      "and shown here, fastest in blue, slowest in red, refused shapes in grey."));
        return;
    }
    double lo = 0, hi = 0;
    for (const TuneCell &c : m_tune.cells)
        if (c.ok()) {
            lo = lo == 0 ? c.kernelMs : std::min(lo, c.kernelMs);
            hi = std::max(hi, c.kernelMs);
        }
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QPoint(kLeft, 14), tr("work-group width →"));
    p.drawText(QPoint(4, kTop - 6), tr("height ↓"));
    for (std::size_t i = 0; i < m_tune.widths.size(); ++i)
        p.drawText(cellRect(int(i), 0).translated(0, -20).adjusted(0, 0, 0, -cellRect(0, 0).height() + 20),
                   Qt::AlignCenter, QString::number(m_tune.widths[i]));
    const TuneCell *best = m_tune.best >= 0 ? &m_tune.cells[m_tune.best] : nullptr;
    QFont small = p.font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    for (std::size_t j = 0; j < m_tune.heights.size(); ++j) {
        const QRect first = cellRect(0, int(j));
        p.setFont(font());
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(0, first.top(), kLeft - 6, first.height()), Qt::AlignRight | Qt::AlignVCenter,
                   QString::number(m_tune.heights[j]));
        p.setFont(small);
        for (std::size_t i = 0; i < m_tune.widths.size(); ++i) {
            const TuneCell *c = m_tune.cell(m_tune.widths[i], m_tune.heights[j]);
            if (!c)
                continue;
            const QRect r = cellRect(int(i), int(j)).adjusted(1, 1, -1, -1);
            const double t = c->ok() && hi > lo ? std::log(c->kernelMs / lo) / std::log(hi / lo) : 0;
            p.fillRect(r, c->ok() ? heat(t) : QColor(208, 208, 208));
            p.setPen(c->ok() ? Qt::black : QColor(120, 120, 120));
            p.drawText(r, Qt::AlignCenter, c->ok() ? QString::number(c->kernelMs, 'g', 3) : QStringLiteral("—"));
            if (c == best) {
                p.setPen(QPen(Qt::black, 3));
                p.drawRect(r.adjusted(1, 1, -1, -1));
            }
        }
    }
    p.setFont(font());
    p.setPen(palette().color(QPalette::PlaceholderText));
    const QRect last = cellRect(0, int(m_tune.heights.size()) - 1);
    const bool atBlock = m_tune.tunedBlocks() && !m_tune.cells.back().blockStage; // a block tune's shape stage
    p.drawText(QPoint(kLeft, last.bottom() + 20),
               tr("kernel milliseconds per shape%1; grey: refused (hover for the reason); outlined: the best")
                   .arg(atBlock ? tr(" at output block %1").arg(QString::fromStdString(m_tune.cells.back().block.toString()))
                                : QString()));
}

} // namespace fwb
