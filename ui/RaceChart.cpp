// RaceChart: painted horizontal bars for a race (see RaceChart.h).
#include "RaceChart.h"

#include <QMouseEvent>
#include <QPainter>

#include <cmath>

namespace fwb {

RaceChart::RaceChart(QWidget *parent) : QWidget(parent)
{
    setObjectName("raceChart");
    setMouseTracking(false);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void RaceChart::setRace(const RaceResult &race)
{
    m_race = race;
    if (m_selected >= int(m_race.entries.size()))
        m_selected = -1;
    updateGeometry();
    update();
}

void RaceChart::setMetric(RaceMetric metric)
{
    m_metric = metric;
    update();
}

void RaceChart::setSelected(int entry)
{
    m_selected = entry;
    update();
}

void RaceChart::setLarge(bool large)
{
    m_large = large;
    updateGeometry();
    update();
}

int RaceChart::rowHeight() const
{
    return fontMetrics().height() * (m_large ? 2 : 1) + (m_large ? 18 : 10);
}

std::vector<int> RaceChart::rows() const
{
    std::vector<int> out;
    for (int i : m_race.ranking(m_metric))
        if (m_race.entries[i].timeMs(m_metric) > 0)
            out.push_back(i);
    return out;
}

int RaceChart::barCount() const
{
    return int(rows().size());
}

QSize RaceChart::sizeHint() const
{
    return {700, 30 + rowHeight() * std::max(3, barCount())};
}

QSize RaceChart::minimumSizeHint() const
{
    return {300, 30 + rowHeight() * std::max(1, std::min(4, barCount()))};
}

namespace {

struct Scale
{
    double lo = 1, hi = 10;
    double left = 0, width = 1;
    double x(double v) const
    {
        return left + width * (std::log10(std::max(v, lo)) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
    }
};

} // namespace

QRect RaceChart::barRect(int entry) const
{
    const std::vector<int> order = rows();
    const auto it = std::find(order.begin(), order.end(), entry);
    if (it == order.end())
        return {};
    const int row = int(it - order.begin());
    const int rh = rowHeight();
    return QRect(0, 8 + row * rh, width(), rh);
}

int RaceChart::entryAt(const QPoint &point) const
{
    const std::vector<int> order = rows();
    const int row = (point.y() - 8) / std::max(1, rowHeight());
    if (point.y() < 8 || row < 0 || row >= int(order.size()))
        return -1;
    return order[row];
}

void RaceChart::mousePressEvent(QMouseEvent *event)
{
    const int entry = entryAt(event->position().toPoint());
    if (entry >= 0) {
        setSelected(entry);
        emit entryClicked(entry);
    }
}

void RaceChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    QFont font = p.font();
    if (m_large)
        font.setPointSizeF(font.pointSizeF() * 1.8);
    p.setFont(font);
    QFont bold = font;
    bold.setBold(true);
    const QFontMetrics fm(font);
    const std::vector<int> order = rows();
    if (order.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter,
                   tr("Press Race All Variants: every variant of this filter, the CPU and OpenCV\n"
                      "run on this picture, and the bars line up fastest first."));
        return;
    }
    int nameWidth = 0;
    for (int i : order)
        nameWidth = std::max(nameWidth, QFontMetrics(bold).horizontalAdvance(QString::fromStdString(m_race.entries[i].title)));
    const int labelRoom = fm.horizontalAdvance(QStringLiteral("0000.00 ms, 0000× slower than the CPU")) + 10;
    Scale s;
    s.left = nameWidth + 16;
    s.width = std::max(50.0, width() - s.left - labelRoom);
    double lo = 1e30, hi = 0;
    for (int i : order) {
        lo = std::min(lo, m_race.entries[i].timeMs(m_metric));
        hi = std::max(hi, m_race.entries[i].timeMs(m_metric));
    }
    const bool floorShown = m_metric == RaceMetric::KernelOnly && m_race.memoryFloorMs > 0;
    if (floorShown)
        lo = std::min(lo, m_race.memoryFloorMs);
    s.lo = std::pow(10, std::floor(std::log10(lo))) / 2;
    s.hi = hi * 1.05;
    const int rh = rowHeight();
    const int winner = m_race.winner(m_metric);
    for (std::size_t row = 0; row < order.size(); ++row) {
        const int i = order[row];
        const RaceEntry &e = m_race.entries[i];
        const double t = e.timeMs(m_metric);
        const int y = 8 + int(row) * rh;
        if (i == m_selected)
            p.fillRect(QRect(0, y, width(), rh), palette().highlight().color().lighter(170));
        p.setFont(i == winner ? bold : font);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(4, y, nameWidth + 4, rh), Qt::AlignRight | Qt::AlignVCenter, QString::fromStdString(e.title));
        const QColor colour = i == winner ? QColor(46, 157, 68) : e.baseline ? QColor(150, 150, 150) : QColor(59, 120, 194);
        const QRectF bar(s.left, y + rh * 0.18, std::max(2.0, s.x(t) - s.left), rh * 0.64);
        p.fillRect(bar, colour);
        QString label = t >= 100 ? QStringLiteral("%1 ms").arg(t, 0, 'f', 0)
                        : t >= 1 ? QStringLiteral("%1 ms").arg(t, 0, 'f', 2)
                                 : QStringLiteral("%1 ms").arg(t, 0, 'f', 3);
        const std::string words = speedupWords(m_race.speedup(e, m_metric));
        if (!words.empty() && e.name != m_race.cpuReferenceName)
            label += QStringLiteral(", ") + QString::fromStdString(words);
        else if (e.name == m_race.cpuReferenceName)
            label += tr(", the CPU to beat");
        p.setFont(font);
        p.drawText(QRectF(bar.right() + 6, y, width() - bar.right() - 6, rh), Qt::AlignLeft | Qt::AlignVCenter, label);
    }
    if (floorShown) {
        const double fx = s.x(m_race.memoryFloorMs);
        p.setPen(QPen(QColor(192, 57, 43), 2, Qt::DashLine));
        const int bottom = 8 + int(order.size()) * rh;
        p.drawLine(QPointF(fx, 4), QPointF(fx, bottom));
        p.drawText(QPointF(fx + 4, bottom + fm.ascent() + 2),
                   tr("memory limit %1 ms").arg(m_race.memoryFloorMs, 0, 'f', m_race.memoryFloorMs >= 1 ? 2 : 3));
    }
}

} // namespace fwb
