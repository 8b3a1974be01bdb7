// RaceVerdict: the end-to-end story as stacked bars (see RaceVerdict.h).
#include "RaceVerdict.h"
#include "UiText.h"
#include "RaceChart.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace fwb {

namespace {


QString verdictMs(double t)
{
    if (t < 0.0005) // "0.000 ms" would read as nothing at all
        return RaceVerdict::tr("under 0.001 ms");
    return msText(t); // as the bars and the timing panel print a time: one CPU time reads the same everywhere
}

QColor partColour(RaceVerdict::Part part)
{
    switch (part) {
    case RaceVerdict::CopyIn: return QColor(230, 145, 56);   // orange: moving the picture
    case RaceVerdict::Filter: return QColor(46, 157, 68);    // green: the work itself
    case RaceVerdict::CopyOut: return QColor(241, 194, 50);  // yellow: moving it back
    default: return QColor(170, 170, 170);                   // grey: the rest
    }
}

double partMs(const EndToEndParts &p, RaceVerdict::Part part)
{
    switch (part) {
    case RaceVerdict::CopyIn: return p.copyInMs;
    case RaceVerdict::Filter: return p.filterMs;
    case RaceVerdict::CopyOut: return p.copyOutMs;
    default: return p.otherMs;
    }
}

constexpr int kMargin = 6;

// Where each part's words go under a stacked bar: a swatch and "filtering 0.164 ms", left to right from
// x0, wrapping onto the next line where the width ends.
struct PartPlace
{
    RaceVerdict::Part part;
    double x;
    int line;
    QString words;
};

std::vector<PartPlace> placeParts(const EndToEndParts &parts, const QFontMetrics &fm, double x0, int width)
{
    std::vector<PartPlace> out;
    double x = x0;
    int line = 0;
    const double swatch = fm.height() * 0.7;
    for (RaceVerdict::Part part : {RaceVerdict::CopyIn, RaceVerdict::Filter, RaceVerdict::CopyOut, RaceVerdict::Other}) {
        const double ms = partMs(parts, part);
        if (part == RaceVerdict::Other && ms <= 0)
            continue;
        const QString words = RaceVerdict::tr("%1 %2").arg(RaceVerdict::partName(part), verdictMs(ms));
        const double w = swatch + fm.horizontalAdvance(words);
        if (x > x0 && x + w > width - kMargin) {
            x = x0;
            ++line;
        }
        out.push_back({part, x, line, words});
        x += w + fm.height();
    }
    return out;
}

} // namespace

struct RaceVerdict::Geometry
{
    QFont font, bold;
    int lineH = 16;
    int rowH = 24;
    struct Text { QString text; bool bold = false; int top = 0, height = 0; };
    std::vector<Text> texts; // above the bars: the shared copies, the heading, the verdicts; the legend below
    std::vector<int> rowTop; // per row: top of its bar line
    int axisY = 0;
    int height = 0;
    double left = 0, plotWidth = 1, axisMax = 1, step = 1;
    double length(double ms) const { return plotWidth * ms / axisMax; }
};

RaceVerdict::RaceVerdict(QWidget *parent) : QWidget(parent)
{
    setObjectName("raceVerdict");
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

QString RaceVerdict::partName(Part part)
{
    switch (part) {
    case CopyIn: return tr("copying the picture to the device");
    case Filter: return tr("filtering");
    case CopyOut: return tr("copying it back");
    default: return tr("the rest");
    }
}

void RaceVerdict::setRace(const RaceResult &race)
{
    m_race = race;
    m_rows.clear();
    const int best = race.deviceWinner();
    if (best >= 0) {
        auto stackedRow = [this](const RunResult &run, const QString &name) {
            Row row;
            row.stacked = true;
            row.parts = endToEndParts(run);
            row.ms = row.parts.total();
            row.name = name;
            m_rows.push_back(row);
        };
        stackedRow(race.entries[best].result, tr("Ordinary memory"));
        if (race.pinnedWinner.ok())
            stackedRow(race.pinnedWinner, tr("Page-locked memory"));
    }
    // The CPU rows that race (the checking reference is not one): the CPU to beat first.
    std::vector<int> cpu;
    for (std::size_t i = 0; i < race.entries.size(); ++i) {
        const RaceEntry &e = race.entries[i];
        if (e.onHost && e.ok() && !e.isCheckingReference())
            cpu.push_back(int(i));
    }
    std::stable_sort(cpu.begin(), cpu.end(), [&](int a, int b) {
        return race.entries[a].timeMs(RaceMetric::EndToEnd) < race.entries[b].timeMs(RaceMetric::EndToEnd);
    });
    for (int i : cpu) {
        Row row;
        row.name = q(race.entries[i].title);
        row.ms = race.entries[i].timeMs(RaceMetric::EndToEnd);
        row.cpuToBeat = race.entries[i].name == race.cpuReferenceName;
        m_rows.push_back(row);
    }
    updateGeometry();
    update();
}

void RaceVerdict::setRankedByFiltering(bool on)
{
    m_rankedByFiltering = on;
    updateGeometry();
    update();
}

void RaceVerdict::setLarge(bool large)
{
    m_large = large;
    updateGeometry();
    update();
}

QFont RaceVerdict::baseFont(int width) const
{
    // Presentation: larger type, larger still where the width allows (1920x1080: about 1250 px here).
    QFont f = font();
    if (m_large)
        f.setPointSizeF(f.pointSizeF() * (width >= 1150 ? 1.45 : 1.2));
    return f;
}

QString RaceVerdict::legend() const
{
    for (const Row &r : m_rows)
        if (r.stacked && r.parts.otherMs > 0)
            return tr("The rest: starting the work and waiting for it, and with page-locked memory the copies "
                      "into and out of it on the main processor.");
    return {};
}

QString RaceVerdict::heading() const
{
    const int best = m_race.deviceWinner();
    return best < 0 ? QString()
                    : tr("End to end, what a person waits for: the fastest version, %1, against the CPU")
                          .arg(q(m_race.entries[best].title));
}

QString RaceVerdict::rowLabel(int row) const
{
    if (row < 0 || row >= int(m_rows.size()))
        return {};
    const Row &r = m_rows[row];
    QString text = verdictMs(r.ms);
    if (r.cpuToBeat) // the CPU timing store's figure (CpuTimings.h), the timing panel's too: say what it is
        text += m_race.cpuReferenceMeasurements > 0
                    ? tr(", the CPU to beat (%1)").arg(q(cpuTimingWords(m_race.cpuReferenceMeasurements)))
                    : tr(", the CPU to beat");
    else if (!r.stacked && m_race.cpuReferenceMs > 0 && r.ms > 0)
        text += QStringLiteral(", ") + q(speedupWords(m_race.cpuReferenceMs / r.ms, m_race.cpuReferenceTitle));
    return text;
}

QString RaceVerdict::partsLine(int row) const
{
    if (row < 0 || row >= int(m_rows.size()) || !m_rows[row].stacked)
        return {};
    QStringList parts;
    for (Part p : {CopyIn, Filter, CopyOut, Other}) {
        const double ms = partMs(m_rows[row].parts, p);
        if (p == Other && ms <= 0)
            continue;
        parts << tr("%1 %2").arg(partName(p), verdictMs(ms));
    }
    return parts.join(QStringLiteral(" + "));
}

QStringList RaceVerdict::sentences() const
{
    QStringList out;
    if (const std::string s = m_race.sharedCopySentence(); !s.empty())
        out << q(s) + (m_rankedByFiltering ? tr(": the bars above leave it out and rank the versions by their filtering alone.")
                                           : tr("."));
    if (const std::string s = m_race.pinnedSentence(); !s.empty())
        out << q(s);
    if (const std::string s = m_race.outputSentence(); !s.empty())
        out << q(s) + tr(".");
    return out;
}

RaceVerdict::Geometry RaceVerdict::geometry(int width) const
{
    Geometry g;
    g.font = baseFont(width);
    g.bold = g.font;
    g.bold.setBold(true);
    const QFontMetrics fm(g.font), bfm(g.bold);
    g.lineH = fm.height();
    g.rowH = g.lineH + (m_large ? 14 : 8);
    const int textWidth = std::max(50, width - 2 * kMargin);
    int y = kMargin;
    auto addText = [&](const QString &text, bool bold) {
        if (text.isEmpty())
            return;
        const int h = (bold ? bfm : fm).boundingRect(QRect(0, 0, textWidth, 10000), Qt::TextWordWrap, text).height();
        g.texts.push_back({text, bold, y, h});
        y += h + 4;
    };
    // The copies first, right under the ranking they explain; then what is compared, and the verdicts.
    const QStringList said = sentences();
    if (!said.isEmpty() && said.front().startsWith(QLatin1String("Moving")))
        addText(said.front(), false);
    addText(heading(), true);
    for (const QString &sentence : said)
        if (!sentence.startsWith(QLatin1String("Moving")))
            addText(sentence, false);
    y += 4;
    int nameWidth = 0, labelWidth = 0;
    double hi = 0;
    for (int i = 0; i < int(m_rows.size()); ++i) {
        nameWidth = std::max(nameWidth, (m_rows[i].cpuToBeat ? bfm : fm).horizontalAdvance(m_rows[i].name));
        labelWidth = std::max(labelWidth, (m_rows[i].cpuToBeat ? bfm : fm).horizontalAdvance(rowLabel(i)));
        hi = std::max(hi, m_rows[i].ms);
    }
    nameWidth = std::min(nameWidth, std::max(120, width * 3 / 10));
    g.left = kMargin + nameWidth + 10;
    for (int i = 0; i < int(m_rows.size()); ++i) {
        g.rowTop.push_back(y);
        y += g.rowH;
        if (m_rows[i].stacked) {
            const std::vector<PartPlace> places = placeParts(m_rows[i].parts, fm, g.left, width);
            y += (places.empty() ? 0 : places.back().line + 1) * g.lineH + 6;
        }
    }
    const RoundAxis axis = roundAxis(hi);
    g.step = axis.step;
    g.axisMax = axis.max;
    g.plotWidth = std::max(60.0, double(width) - g.left - labelWidth - 16);
    g.axisY = y + 2;
    y = g.axisY + 6 + 2 * g.lineH + 6; // ticks' labels and the caption
    addText(legend(), false);
    g.height = y + kMargin;
    return g;
}

double RaceVerdict::msPerPixel() const
{
    const Geometry g = geometry(width());
    return g.axisMax / g.plotWidth;
}

double RaceVerdict::barLength(int row) const
{
    if (row < 0 || row >= int(m_rows.size()))
        return 0;
    return geometry(width()).length(m_rows[row].ms);
}

double RaceVerdict::partLength(int row, Part part) const
{
    if (row < 0 || row >= int(m_rows.size()) || !m_rows[row].stacked)
        return 0;
    return geometry(width()).length(partMs(m_rows[row].parts, part));
}

int RaceVerdict::heightForWidth(int width) const
{
    return m_rows.empty() ? 0 : geometry(width).height;
}

QSize RaceVerdict::sizeHint() const
{
    const int w = std::max(width(), 600);
    return {w, heightForWidth(w)};
}

QSize RaceVerdict::minimumSizeHint() const
{
    return {300, heightForWidth(std::max(width(), 300))};
}

void RaceVerdict::paintEvent(QPaintEvent *)
{
    if (m_rows.empty())
        return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    const Geometry g = geometry(width());
    const QColor text = palette().color(QPalette::Text);
    const QFontMetrics fm(g.font);
    p.setPen(text);
    for (const Geometry::Text &t : g.texts) {
        p.setFont(t.bold ? g.bold : g.font);
        p.drawText(QRect(kMargin, t.top, width() - 2 * kMargin, t.height), Qt::TextWordWrap, t.text);
    }
    for (int i = 0; i < int(m_rows.size()); ++i) {
        const Row &r = m_rows[i];
        const int y = g.rowTop[i];
        p.setFont(r.cpuToBeat ? g.bold : g.font);
        p.setPen(text);
        p.drawText(QRectF(kMargin, y, g.left - kMargin - 10, g.rowH), Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(r.name, Qt::ElideMiddle, int(g.left) - kMargin - 10));
        const double barTop = y + g.rowH * 0.15, barH = g.rowH * 0.7;
        double x = g.left;
        if (r.stacked) {
            for (Part part : {CopyIn, Filter, CopyOut, Other}) {
                const double w = g.length(partMs(r.parts, part));
                p.fillRect(QRectF(x, barTop, w, barH), partColour(part));
                x += w;
            }
            // Under the bar, each part in milliseconds, a swatch of its colour before it.
            p.setFont(g.font);
            p.setPen(text);
            for (const PartPlace &place : placeParts(r.parts, fm, g.left, width())) {
                const double ly = y + g.rowH + place.line * g.lineH;
                p.fillRect(QRectF(place.x, ly + g.lineH * 0.25, g.lineH * 0.5, g.lineH * 0.5), partColour(place.part));
                p.drawText(QPointF(place.x + g.lineH * 0.7, ly + fm.ascent()), place.words);
            }
        } else {
            const double w = g.length(r.ms);
            p.fillRect(QRectF(x, barTop, w, barH), r.cpuToBeat ? QColor(110, 110, 110) : QColor(160, 160, 160));
            x += w;
        }
        p.setFont(r.cpuToBeat ? g.bold : g.font);
        p.setPen(text);
        p.drawText(QRectF(x + 6, y, width() - x - 6, g.rowH), Qt::AlignLeft | Qt::AlignVCenter, rowLabel(i));
    }
    // The axis: linear milliseconds from 0, so every bar and segment is as long as its time.
    p.setFont(g.font);
    p.setPen(text);
    p.drawLine(QPointF(g.left, g.axisY), QPointF(g.left + g.plotWidth, g.axisY));
    const int ticks = int(std::floor(g.axisMax / g.step + 1e-6));
    const int decimals = g.step >= 1 ? 0 : g.step >= 0.1 ? 1 : g.step >= 0.01 ? 2 : 3;
    double lastRight = -1e9;
    for (int k = 0; k <= ticks; ++k) {
        const double x = g.left + g.length(k * g.step);
        p.drawLine(QPointF(x, g.axisY), QPointF(x, g.axisY + 5));
        const QString t = QStringLiteral("%1 ms").arg(k * g.step, 0, 'f', decimals);
        const double w = fm.horizontalAdvance(t);
        const double tx = k == 0 ? x : std::min(x - w / 2, width() - w - 2);
        if (tx > lastRight + 6 || k == ticks) {
            if (k == ticks && tx <= lastRight + 6)
                continue;
            p.drawText(QPointF(tx, g.axisY + 6 + fm.ascent()), t);
            lastRight = tx + w;
        }
    }
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(QPointF(g.left, g.axisY + 8 + g.lineH + fm.ascent()),
               tr("time in milliseconds: bar length is proportional to the time, shorter is faster"));
}

} // namespace fwb
