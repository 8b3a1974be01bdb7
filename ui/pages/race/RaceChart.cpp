// RaceChart: painted horizontal bars for a race (see RaceChart.h).
#include "RaceChart.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace fwb {

RoundAxis roundAxis(double hi)
{
    if (hi <= 0)
        hi = 1;
    const double magnitude = std::pow(10, std::floor(std::log10(hi)));
    RoundAxis axis;
    axis.step = magnitude;
    for (double m : {0.1, 0.2, 0.5, 1.0, 2.0, 5.0})
        if (hi / (magnitude * m) <= 8) {
            axis.step = magnitude * m;
            break;
        }
    axis.max = std::ceil(hi / axis.step - 1e-9) * axis.step;
    return axis;
}

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
    if (m_pending && std::any_of(m_race.entries.begin(), m_race.entries.end(),
                                 [&](const RaceEntry &e) { return e.name == m_pending->name; }))
        m_pending.reset(); // its result arrived: its bar takes the row
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

void RaceChart::setEmptyText(const QString &text)
{
    m_emptyText = text;
    update();
}

void RaceChart::setShowReference(bool show)
{
    m_showReference = show;
    updateGeometry();
    update();
}

void RaceChart::setPending(const RaceEntry &upcoming, bool compiling)
{
    m_pending = upcoming;
    m_pendingCompiles = compiling;
    updateGeometry();
    update();
}

void RaceChart::clearPending()
{
    if (!m_pending)
        return;
    m_pending.reset();
    updateGeometry();
    update();
}

QString RaceChart::pendingText() const
{
    // Only a row that will get a bar here: kernel only draws the device's versions, and the checking
    // reference is not in the race.
    if (!m_pending || m_pending->isCheckingReference() || (m_metric == RaceMetric::KernelOnly && !m_pending->onDevice()))
        return {};
    return m_pendingCompiles ? tr("compiling…") : tr("running…");
}

int RaceChart::rowHeight() const
{
    return fontMetrics().height() * (m_large ? 2 : 1) + (m_large ? 18 : 10);
}

std::vector<int> RaceChart::rows() const
{
    std::vector<int> out;
    int reference = -1;
    for (int i : m_race.ranking(m_metric)) {
        if (m_race.entries[i].timeMs(m_metric) <= 0)
            continue;
        if (m_metric == RaceMetric::KernelOnly && !m_race.entries[i].onDevice())
            continue; // kernel only: the device's versions; the CPU rows are RaceVerdict's, end to end
        if (m_race.entries[i].isCheckingReference())
            reference = i; // not in the race: apart, after the racers
        else
            out.push_back(i);
    }
    if (reference >= 0 && m_showReference)
        out.push_back(reference);
    return out;
}

int RaceChart::barCount() const
{
    return int(rows().size());
}

namespace {

constexpr int kTop = 8;

// "12.5 ms" with as many decimals as the axis step needs.
QString tickText(double ms, double step)
{
    const int decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3;
    return QStringLiteral("%1 ms").arg(ms, 0, 'f', decimals);
}

QString timeText(double t)
{
    return t >= 100 ? QStringLiteral("%1 ms").arg(t, 0, 'f', 0)
           : t >= 1 ? QStringLiteral("%1 ms").arg(t, 0, 'f', 2)
                    : QStringLiteral("%1 ms").arg(t, 0, 'f', 3);
}

// The narrowest width (in pixels) that holds the text in at most two lines of the font, broken at spaces
// only (greedy, as Qt's word wrap: a width that breaks inside a word, "C+" / "+", does not count).
int twoLineWidth(const QFont &font, const QString &text)
{
    const QFontMetrics fm(font);
    const QStringList words = text.split(QLatin1Char(' '));
    auto lines = [&](int width) {
        int count = 1;
        QString line;
        for (const QString &word : words) {
            const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (line.isEmpty() || fm.horizontalAdvance(longer) <= width) {
                line = longer;
                if (fm.horizontalAdvance(line) > width)
                    return 99; // one word wider than the line
            } else {
                ++count;
                line = word;
            }
        }
        return count;
    };
    const int oneLine = fm.horizontalAdvance(text);
    int lo = oneLine / 2 - 1, hi = oneLine; // hi fits
    while (hi - lo > 2) {
        const int mid = (lo + hi) / 2;
        (lines(mid) <= 2 ? hi : lo) = mid;
    }
    return hi + 4;
}

} // namespace

// The scale: linear milliseconds from 0 at `left` to axisMax at left + plotWidth, so a bar's length is
// proportional to its time. The racers (and the memory limit) set the axis; the reference, much slower,
// is cut short with a break where it is off the scale.
struct RaceChart::Layout
{
    std::vector<int> order;
    int referenceRow = -1; // row of the checking reference (drawn after a gap), -1: none
    int rowH = 20;
    int gap = 0;           // space above the reference row
    double left = 0, plotWidth = 1, axisMax = 1, step = 1;
    double room = 1;       // from `left` to the right edge, less a margin: the longest a bar may be
    int nameWidth = 0;
    QFont font, bold;
    QFont wrapped;   // large type: names or labels too long for one line go over two lines in this type
    QFont nameFont;  // the names' type (bold for the winner): font, or wrapped when one would not fit
    QFont labelFont; // the labels' type: font, or wrapped (and wrapping) when the bars would be too short
    bool namesWrap = false, labelsWrap = false;

    int pendingRow = -1;   // the row of the version being compiled (after the racers, before the reference)

    // A placeholder row moves the rows at and after it (the reference) down by one.
    int rowTop(int row) const
    {
        return kTop + row * rowH + (pendingRow >= 0 && row >= pendingRow ? rowH : 0)
               + (referenceRow >= 0 && row >= referenceRow ? gap : 0);
    }
    int pendingTop() const { return kTop + pendingRow * rowH; }
    int barsBottom() const { return rowTop(int(order.size())); }
    double length(double ms) const { return plotWidth * ms / axisMax; }
    bool cut(double ms) const { return ms > axisMax * 1.0001; }
};

// A cut bar's label inside it needs this much more than the text: the space before it and the zigzag after it.
constexpr double kCutLabelPad = 30;

RaceChart::Layout RaceChart::layout() const
{
    Layout l;
    l.order = rows();
    l.rowH = rowHeight();
    l.font = font();
    if (m_large)
        l.font.setPointSizeF(l.font.pointSizeF() * 1.8);
    l.bold = l.font;
    l.bold.setBold(true);
    l.wrapped = font();
    if (m_large) // two lines of it fit a large row (rowHeight(): two lines of the widget's type and more)
        l.wrapped.setPointSizeF(l.wrapped.pointSizeF() * 1.3);
    double hi = 0;
    for (std::size_t row = 0; row < l.order.size(); ++row) {
        const RaceEntry &e = m_race.entries[l.order[row]];
        if (e.isCheckingReference()) {
            l.referenceRow = int(row);
            l.gap = QFontMetrics(l.font).height() + 6;
        } else {
            hi = std::max(hi, e.timeMs(m_metric));
        }
        l.nameWidth = std::max(l.nameWidth, QFontMetrics(l.bold).horizontalAdvance(QString::fromStdString(e.title)));
    }
    const QString pendingWords = pendingText();
    if (!pendingWords.isEmpty()) {
        l.pendingRow = l.referenceRow >= 0 ? l.referenceRow : int(l.order.size());
        l.nameWidth = std::max(l.nameWidth, QFontMetrics(l.bold).horizontalAdvance(QString::fromStdString(m_pending->title)));
    }
    if (hi <= 0 && l.referenceRow >= 0) // only the reference ran
        hi = m_race.entries[l.order[l.referenceRow]].timeMs(m_metric);
    // The comparison that matters, the winner against the CPU to beat, is shown to scale: the axis ends
    // at twice the slower of the two (or at the slowest racer, if sooner). A slower row's bar is cut at
    // the end of the axis and says so beside its time; every bar not cut is exactly proportional.
    const int win = m_race.winner(m_metric);
    double focus = 0; // kernel only: the winner and most versions to scale (no CPU row is drawn)
    if (m_metric == RaceMetric::EndToEnd)
        for (const RaceEntry &e : m_race.entries)
            if (e.name == m_race.cpuReferenceName && e.timeMs(m_metric) > 0)
                focus = e.timeMs(m_metric);
    if (win >= 0)
        focus = std::max(focus, m_race.entries[win].timeMs(m_metric));
    // ... and at least two thirds of the racers to scale, so that cut bars stay the exception.
    std::vector<double> racers;
    for (int i : l.order)
        if (!m_race.entries[i].isCheckingReference())
            racers.push_back(m_race.entries[i].timeMs(m_metric));
    std::sort(racers.begin(), racers.end());
    if (!racers.empty())
        focus = std::max(focus, racers[(2 * racers.size() + 2) / 3 - 1] / 2);
    if (focus > 0)
        hi = std::min(hi, 2 * focus);
    if (m_metric == RaceMetric::KernelOnly && m_race.memoryFloorMs > 0)
        hi = std::max(hi, m_race.memoryFloorMs);
    if (hi <= 0)
        hi = 1;
    // A round step giving 4 to 8 ticks, the axis ending on a tick at or beyond the slowest racer.
    const RoundAxis axis = roundAxis(hi);
    l.step = axis.step;
    l.axisMax = axis.max;
    // Large type (presentation): names wider than 28% of the chart wrap over two lines of the smaller
    // type, all of them alike, so the bars keep their room.
    l.nameFont = l.font;
    if (m_large && l.nameWidth > std::max(120, width() * 28 / 100)) {
        l.namesWrap = true;
        l.nameFont = l.wrapped;
        QFont boldWrapped = l.wrapped;
        boldWrapped.setBold(true);
        const QFontMetrics bfm(boldWrapped);
        int oneLine = 0, twoLines = 0; // widest name on one line, and on two
        for (int i : l.order) {
            const QString title = QString::fromStdString(m_race.entries[i].title);
            oneLine = std::max(oneLine, bfm.horizontalAdvance(title) + 2);
            twoLines = std::max(twoLines, twoLineWidth(boldWrapped, title));
        }
        const int cap = std::max(120, width() * 28 / 100);
        l.nameWidth = oneLine <= cap ? oneLine : std::min(cap, twoLines);
    }
    l.left = l.nameWidth + 16;
    const double room = double(width()) - l.left - 8;
    l.room = room;
    // The widest plot that leaves every uncut bar's label room after its bar (a short bar's long label
    // may reach past the axis's end); a cut bar carries its label inside.
    auto widestPlot = [&](const QFont &labelFont, bool wrap) {
        const QFontMetrics fm(labelFont);
        auto labelWidth = [&](int i) {
            const QString text = labelText(i, l.axisMax);
            return double(wrap ? twoLineWidth(labelFont, text) : fm.horizontalAdvance(text));
        };
        double plot = room - 20;
        for (int i : l.order) {
            const double t = m_race.entries[i].timeMs(m_metric);
            if (t > l.axisMax * 1.0001)
                continue;
            plot = std::min(plot, (room - labelWidth(i) - 6) / std::max(1e-9, t / l.axisMax));
        }
        for (int i : l.order) { // a cut bar whose label fits in no bar it may have: the label goes after the bar
            const double t = m_race.entries[i].timeMs(m_metric);
            if (t <= l.axisMax * 1.0001)
                continue;
            if (fm.horizontalAdvance(labelText(i, l.axisMax)) + kCutLabelPad > std::min(room, plot * t / l.axisMax))
                plot = std::min(plot, room - 18 - labelWidth(i));
        }
        return plot;
    };
    l.labelFont = l.font;
    l.plotWidth = widestPlot(l.font, false);
    // Large type: long sentences beside the bars wrap over two lines of the smaller type instead of
    // squeezing every bar to ~100 px (issue 24); the bars keep at least 40% of the room.
    if (m_large && l.plotWidth < 0.55 * room) {
        l.labelsWrap = true;
        l.labelFont = l.wrapped;
        l.plotWidth = std::max(widestPlot(l.wrapped, true), 0.4 * room);
    } else if (!m_large && l.plotWidth < 80) {
        // A narrow window (1366x768 with the dock open): labels too long for one line after the bars would run
        // past the right edge; they wrap over two lines of a smaller type, which a row holds.
        l.labelsWrap = true;
        l.wrapped.setPointSizeF(l.wrapped.pointSizeF() * 0.75);
        l.labelFont = l.wrapped;
        l.plotWidth = widestPlot(l.wrapped, true);
    }
    l.plotWidth = std::max(80.0, l.plotWidth);
    return l;
}

// Where an entry's label goes in its row (top y, height rh) and in which type: inside a cut bar when it
// fits there, else after the bar; in large type, a label longer than the room after its bar wraps over
// two lines of the smaller type.
RaceChart::LabelPlace RaceChart::labelPlace(const Layout &l, int i, int y) const
{
    LabelPlace place;
    place.text = labelText(i, l.axisMax);
    place.font = l.labelFont;
    const int rh = l.rowH;
    const double t = m_race.entries[i].timeMs(m_metric);
    const bool broken = l.cut(t);
    const double length = drawnLength(l, i);
    const double barRight = l.left + std::max(2.0, length);
    const QFontMetrics fm(l.labelFont);
    place.flags = Qt::AlignLeft | Qt::AlignVCenter;
    if (broken && fm.horizontalAdvance(place.text) + kCutLabelPad <= length) {
        place.inside = true;
        place.rect = QRectF(l.left + 6, y, width() - l.left - 6, rh);
    } else {
        place.rect = QRectF(barRight + 6, y, std::max(1.0, width() - barRight - 10), rh);
        if (l.labelsWrap)
            place.flags |= Qt::TextWordWrap;
    }
    return place;
}

QRect RaceChart::labelRect(int entry) const
{
    const Layout l = layout();
    const auto it = std::find(l.order.begin(), l.order.end(), entry);
    if (it == l.order.end())
        return {};
    const LabelPlace place = labelPlace(l, entry, l.rowTop(int(it - l.order.begin())));
    return QFontMetrics(place.font).boundingRect(place.rect.toRect(), place.flags, place.text);
}

QString RaceChart::barLabel(int entry) const
{
    return labelText(entry, layout().axisMax);
}

QString RaceChart::labelText(int i, double axisMax) const
{
    const RaceEntry &e = m_race.entries[i];
    const double t = e.timeMs(m_metric);
    QString label = timeText(t);
    if (t > axisMax * 1.0001)
        label += tr(" (bar cut short)");
    if (e.isCheckingReference())
        return label + tr(", used to check every result");
    if (e.name == m_race.cpuReferenceName)
        return label + (m_race.cpuReferenceMeasurements > 0
                            ? tr(", the CPU code to beat (%1)")
                                  .arg(QString::fromStdString(cpuTimingWords(m_race.cpuReferenceMeasurements)))
                            : tr(", the CPU code to beat"));
    if (m_metric == RaceMetric::KernelOnly && e.onDevice()) // the versions against each other
        return i == m_race.deviceWinner() ? label + tr(", the fastest")
                                          : label + QStringLiteral(", ") + QString::fromStdString(m_race.versusFastestWords(e));
    const std::string words = m_race.speedupSentence(e, m_metric);
    return words.empty() ? label : label + QStringLiteral(", ") + QString::fromStdString(words);
}

double RaceChart::barLength(int entry, bool *broken) const
{
    const Layout l = layout();
    if (std::find(l.order.begin(), l.order.end(), entry) == l.order.end())
        return 0;
    if (broken)
        *broken = l.cut(m_race.entries[entry].timeMs(m_metric));
    return drawnLength(l, entry);
}

// An uncut bar: exactly proportional. A cut bar: past the axis's end by 12 px, or as long as its label needs to
// sit inside it (so that a long label is never pushed past the right edge), but never as long as its time
// would make it nor past the room: it is always shorter than the scale says, and says so.
double RaceChart::drawnLength(const Layout &l, int entry) const
{
    const double t = m_race.entries[entry].timeMs(m_metric);
    if (!l.cut(t))
        return l.length(t);
    const double text = QFontMetrics(l.labelFont).horizontalAdvance(labelText(entry, l.axisMax)) + kCutLabelPad;
    const double longest = std::min(l.room, l.length(t) - 1);
    return std::max(l.plotWidth + 12, std::min(text, longest));
}

double RaceChart::msPerPixel() const
{
    const Layout l = layout();
    return l.axisMax / l.plotWidth;
}

QSize RaceChart::sizeHint() const
{
    const int n = barCount();
    return {700, minimumSizeHint().height() + rowHeight() * std::max(0, std::max(3, n) - n)};
}

QSize RaceChart::minimumSizeHint() const
{
    // Every bar, the gap before the reference and the axis: the scroll area around the chart then scrolls
    // instead of squeezing rows off the bottom (issue 24: 7 of 13 bars at 1366x768, no scroll bar).
    const Layout l = layout();
    const bool floorLine = m_metric == RaceMetric::KernelOnly && m_race.memoryFloorMs > 0;
    const int axis = QFontMetrics(l.font).height() * (floorLine ? 3 : 2) + 16; // + the memory limit's words
    return {300, l.barsBottom() + axis + 8};
}

QRect RaceChart::barRect(int entry) const
{
    const Layout l = layout();
    const auto it = std::find(l.order.begin(), l.order.end(), entry);
    if (it == l.order.end())
        return {};
    return QRect(0, l.rowTop(int(it - l.order.begin())), width(), l.rowH);
}

QRect RaceChart::pendingRect() const
{
    const Layout l = layout();
    return l.pendingRow < 0 ? QRect() : QRect(0, l.pendingTop(), width(), l.rowH);
}

int RaceChart::entryAt(const QPoint &point) const
{
    const Layout l = layout();
    for (std::size_t row = 0; row < l.order.size(); ++row) {
        const int top = l.rowTop(int(row));
        if (point.y() >= top && point.y() < top + l.rowH)
            return l.order[row];
    }
    return -1;
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
    const Layout l = layout();
    p.setFont(l.font);
    const QFontMetrics fm(l.font);
    if (l.pendingRow >= 0) {
        // The version being compiled: its name, and where its bar will be, a dashed outline saying so.
        const int y = l.pendingTop(), rh = l.rowH;
        p.setFont(l.nameFont);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(4, y, l.nameWidth + 4, rh), Qt::AlignRight | Qt::AlignVCenter | (l.namesWrap ? Qt::TextWordWrap : 0),
                   QString::fromStdString(m_pending->title));
        const QString words = pendingText();
        QFont italic = l.font;
        italic.setItalic(true);
        const QRectF box(l.left, y + rh * 0.18, std::min(l.plotWidth, QFontMetrics(italic).horizontalAdvance(words) + 24.0), rh * 0.64);
        p.setPen(QPen(palette().color(QPalette::PlaceholderText), 1, Qt::DashLine));
        p.drawRect(box);
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.setFont(italic);
        p.drawText(box.adjusted(8, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, words);
        p.setFont(l.font);
        if (l.order.empty())
            return; // no bar yet: no scale to draw
    }
    if (l.order.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(16, 16, -16, -16), Qt::AlignCenter | Qt::TextWordWrap,
                   !m_emptyText.isEmpty() ? m_emptyText
                                          : tr("Press Race All Variants: every variant of this filter, the CPU and OpenCV\n"
                                               "run on this picture, and the bars line up fastest first."));
        return;
    }
    const int rh = l.rowH;
    const int winner = m_race.winner(m_metric);
    const QColor text = palette().color(QPalette::Text);
    for (std::size_t row = 0; row < l.order.size(); ++row) {
        const int i = l.order[row];
        const RaceEntry &e = m_race.entries[i];
        const double t = e.timeMs(m_metric);
        const int y = l.rowTop(int(row));
        if (int(row) == l.referenceRow) {
            p.setPen(palette().color(QPalette::PlaceholderText));
            p.setFont(l.font);
            p.drawLine(QPointF(4, y - l.gap + 1), QPointF(width() - 4, y - l.gap + 1));
            p.drawText(QRectF(4, y - l.gap, width() - 8, l.gap - 2), Qt::AlignLeft | Qt::AlignBottom,
                       tr("Not in the race: the slow, careful code that checks every result"));
        }
        if (i == m_selected)
            p.fillRect(QRect(0, y, width(), rh), palette().highlight().color().lighter(170));
        QFont nameFont = l.nameFont;
        nameFont.setBold(i == winner);
        const int nameFlags = Qt::AlignRight | Qt::AlignVCenter | (l.namesWrap ? Qt::TextWordWrap : 0);
        const QString name = QString::fromStdString(e.title);
        p.setFont(nameFont);
        p.setPen(text);
        p.drawText(QRect(4, y, l.nameWidth + 4, rh), nameFlags, name);
        const QColor colour = i == winner                ? QColor(46, 157, 68)
                              : e.isCheckingReference() ? QColor(200, 200, 200)
                              : e.baseline               ? QColor(150, 150, 150)
                                                         : QColor(59, 120, 194);
        const bool broken = l.cut(t); // as barLength()
        const double length = drawnLength(l, i);
        const QRectF bar(l.left, y + rh * 0.18, std::max(2.0, length), rh * 0.64);
        p.fillRect(bar, colour);
        if (broken) { // off the scale: a white zigzag across the bar says it is cut short
            const double bx = l.left + length - 22; // 10 px before the bar's end, after a label inside it
            p.setPen(QPen(palette().base().color(), 3));
            p.drawLine(QPointF(bx, bar.bottom() + 1), QPointF(bx + 6, bar.top() - 1));
            p.drawLine(QPointF(bx + 6, bar.bottom() + 1), QPointF(bx + 12, bar.top() - 1));
        }
        const LabelPlace place = labelPlace(l, i, y); // inside the cut bar on its colour, or after the bar
        p.setFont(place.font);
        p.setPen(place.inside && !e.isCheckingReference() ? QColor(Qt::white) : text);
        p.drawText(place.rect, place.flags, place.text);
    }
    // The axis: milliseconds from 0, ticks at round steps, and what a bar's length means.
    const int axisY = l.barsBottom() + 4;
    p.setPen(text);
    p.drawLine(QPointF(l.left, axisY), QPointF(l.left + l.plotWidth, axisY));
    // Ticks at round steps. The axis's end is always labelled (with the origin it gives the scale however
    // narrow the plot), 0 and the ticks between only where their labels run into no other.
    const int ticks = int(std::floor(l.axisMax / l.step + 1e-6));
    std::vector<std::pair<double, double>> placed; // [left, right] of labels drawn
    const auto label = [&](int k, bool must) {
        const double x = l.left + l.length(k * l.step);
        const QString t = tickText(k * l.step, l.step);
        const double w = fm.horizontalAdvance(t);
        const double tx = k == 0 ? x : std::min(x - w / 2, width() - w - 2);
        for (const auto &[left, right] : placed)
            if (!must && tx < right + 6 && tx + w + 6 > left)
                return;
        p.drawText(QPointF(tx, axisY + 6 + fm.ascent()), t);
        placed.emplace_back(tx, tx + w);
    };
    for (int k = 0; k <= ticks; ++k)
        p.drawLine(QPointF(l.left + l.length(k * l.step), axisY), QPointF(l.left + l.length(k * l.step), axisY + 5));
    if (ticks > 0)
        label(ticks, true);
    label(0, ticks == 0);
    for (int k = 1; k < ticks; ++k)
        label(k, false);
    p.setPen(palette().color(QPalette::PlaceholderText));
    const QString caption = m_metric == RaceMetric::KernelOnly
                                ? tr("filtering time in milliseconds, copies left out: bar length is proportional to the time")
                                : tr("time in milliseconds: bar length is proportional to the time, shorter is faster");
    // Under the axis, moved left as far as the names' column where it would run past the right edge.
    const double captionX = std::max(4.0, std::min(l.left, width() - 4.0 - fm.horizontalAdvance(caption)));
    p.drawText(QPointF(captionX, axisY + 8 + fm.height() + fm.ascent()),
               fm.elidedText(caption, Qt::ElideRight, int(width() - 4 - captionX)));
    if (m_metric == RaceMetric::KernelOnly && m_race.memoryFloorMs > 0) {
        const double fx = l.left + l.length(m_race.memoryFloorMs);
        p.setPen(QPen(QColor(192, 57, 43), 2, Qt::DashLine));
        p.drawLine(QPointF(fx, 4), QPointF(fx, l.barsBottom()));
        // Its words under the axis's caption, not over a bar (they ran into the last bar's).
        const QString words = tr("red dashes: the memory limit, %1 ms, the time the device needs just to read the "
                                 "picture and write the result")
                                  .arg(m_race.memoryFloorMs, 0, 'f', m_race.memoryFloorMs >= 1 ? 2 : 3);
        const QFontMetrics small(font());
        p.setFont(font());
        p.drawText(QRectF(4, axisY + 10 + 2 * fm.height(), width() - 8, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   small.elidedText(words, Qt::ElideRight, width() - 8));
    }
}

} // namespace fwb
