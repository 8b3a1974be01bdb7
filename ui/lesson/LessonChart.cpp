#include "LessonChart.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace fwb {

namespace {

QColor partColour(const std::string &label, bool highlight)
{
    if (label == "copy in")
        return QColor(0xe6, 0x9f, 0x00);
    if (label == "computing")
        return QColor(0x00, 0x72, 0xb2);
    if (label == "copy out")
        return QColor(0xcc, 0x79, 0xa7);
    if (label == "preparing the copies")
        return QColor(0x99, 0x99, 0x99);
    return highlight ? QColor(0x1f, 0x4e, 0x8c) : QColor(0x8a, 0x9b, 0xae);
}

bool stacked(const LessonStepView &v)
{
    return std::any_of(v.bars.begin(), v.bars.end(), [](const LessonBar &b) { return b.parts.size() > 1; });
}

double largest(const LessonStepView &v)
{
    double m = 0;
    for (const LessonBar &b : v.bars)
        m = std::max(m, b.total());
    return m;
}

} // namespace

LessonChart::LessonChart(QWidget *parent) : QWidget(parent)
{
    setObjectName("lessonChart");
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void LessonChart::setView(const LessonStepView &view)
{
    m_view = view;
    updateGeometry();
    update();
}

QString LessonChart::valueText(int i) const
{
    if (i < 0 || i >= int(m_view.bars.size()))
        return {};
    const double t = m_view.bars[std::size_t(i)].total();
    return m_view.higherIsBetter ? QString::number(t, 'f', t >= 10 ? 0 : 1) + tr(" frames per second")
                                 : QString::fromStdString(lessonMs(t)) + tr(" ms");
}

LessonChart::Layout LessonChart::layout() const
{
    const QFontMetrics fm(font());
    Layout l;
    l.labelTop = 0;
    l.barHeight = fm.height() * 2;
    l.rowHeight = fm.height() + l.barHeight + fm.height() / 2;
    l.left = 4;
    // Room on the right for the longest number.
    int textWidth = 0;
    for (int i = 0; i < int(m_view.bars.size()); ++i)
        textWidth = std::max(textWidth, fm.horizontalAdvance(valueText(i)));
    l.width = std::max(40, width() - l.left - textWidth - 16);
    l.legendTop = int(m_view.bars.size()) * l.rowHeight + fm.height() / 2;
    return l;
}

int LessonChart::barLength(int i) const
{
    if (i < 0 || i >= int(m_view.bars.size()))
        return -1;
    const double top = largest(m_view);
    if (top <= 0)
        return 0;
    return int(std::lround(layout().width * m_view.bars[std::size_t(i)].total() / top));
}

QSize LessonChart::sizeHint() const
{
    const QFontMetrics fm(font());
    const Layout l = layout();
    return {600, l.legendTop + (stacked(m_view) ? fm.height() * 2 : fm.height()) + fm.height()};
}

QSize LessonChart::minimumSizeHint() const
{
    return {240, sizeHint().height()};
}

void LessonChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm(font());
    const Layout l = layout();
    const double top = largest(m_view);
    if (m_view.bars.empty() || top <= 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("No chart yet"));
        return;
    }
    for (int i = 0; i < int(m_view.bars.size()); ++i) {
        const LessonBar &b = m_view.bars[std::size_t(i)];
        const int y = i * l.rowHeight;
        QFont labelFont = font();
        labelFont.setBold(b.highlight);
        p.setFont(labelFont);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(l.left, y, width() - l.left, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(QString::fromStdString(b.label), Qt::ElideRight, width() - l.left));
        const int barY = y + fm.height() + 2;
        // Linear from zero: the bar's length is its number's share of the largest.
        double x = l.left;
        for (const LessonBarPart &part : b.parts) {
            const double w = l.width * std::max(0.0, part.value) / top;
            const QRectF r(x, barY, w, l.barHeight);
            if (b.isLimit) {
                p.setPen(QPen(QColor(0x55, 0x55, 0x55), 1));
                p.setBrush(QBrush(QColor(0x55, 0x55, 0x55), Qt::BDiagPattern));
            } else {
                p.setPen(Qt::NoPen);
                p.setBrush(partColour(part.label, b.highlight));
            }
            p.drawRect(r);
            x += w;
        }
        p.setFont(font());
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(int(x) + 8, barY, width() - int(x) - 8, l.barHeight), Qt::AlignLeft | Qt::AlignVCenter,
                   valueText(i));
    }
    // The scale: where zero is, and that it is linear.
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.drawLine(l.left, 0, l.left, l.legendTop - fm.height() / 2);
    p.setFont(font());
    int legendX = l.left;
    const int legendY = l.legendTop;
    if (stacked(m_view)) {
        std::vector<std::string> seen;
        for (const LessonBar &b : m_view.bars)
            for (const LessonBarPart &part : b.parts)
                if (std::find(seen.begin(), seen.end(), part.label) == seen.end())
                    seen.push_back(part.label);
        for (const std::string &label : seen) {
            p.setPen(Qt::NoPen);
            p.setBrush(partColour(label, false));
            p.drawRect(legendX, legendY + 2, fm.height() - 4, fm.height() - 4);
            legendX += fm.height();
            p.setPen(palette().color(QPalette::WindowText));
            const QString text = QString::fromStdString(label);
            p.drawText(legendX, legendY + fm.ascent(), text);
            legendX += fm.horizontalAdvance(text) + fm.height();
        }
    }
    p.setPen(palette().color(QPalette::PlaceholderText));
    const QString scale = m_view.higherIsBetter ? tr("Longer bar = more frames per second; bars start at zero.")
                                                : tr("Shorter bar = faster; bar length is proportional to the time.");
    p.drawText(QRect(l.left, legendY + (stacked(m_view) ? fm.height() + 2 : 0), width() - l.left, fm.height()),
               Qt::AlignLeft, scale);
}

} // namespace fwb
