// TimingPanel: painting the time-split bars, formatting the numbers, feeding the history chart.
#include "TimingPanel.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QGridLayout>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QPainter>
#include <QTextDocument>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace fwb {

namespace {

struct Segment
{
    const char *name;
    QColor colour;
};
// Fixed colours: the legend, the bar and the help text all speak of the same four phases.
const Segment kSegments[] = {{"build", QColor(150, 150, 150)},
                             {"upload", QColor(66, 133, 244)},
                             {"kernel", QColor(234, 88, 12)},
                             {"download", QColor(52, 168, 83)}};

QString ms(double value)
{
    if (value < 0)
        return QObject::tr("not measured");
    if (value < 10)
        return QObject::tr("%1 ms").arg(value, 0, 'f', 3);
    return QObject::tr("%1 ms").arg(value, 0, 'f', 1);
}

// Chart labels must stay short: "pthread-haswell-AMD EPYC 7B13 64-Core" -> "pthread-haswell-AMD E…".
QString shortDevice(const QString &name)
{
    return name.size() <= 22 ? name : name.left(21) + QStringLiteral("…");
}

} // namespace

TimingBar::TimingBar(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

QSize TimingBar::sizeHint() const
{
    return QSize(420, 4 * fontMetrics().height() + 26);
}

QSize TimingBar::minimumSizeHint() const
{
    return QSize(240, sizeHint().height());
}

void TimingBar::setTimes(double buildMs, double uploadMs, double kernelMs, double downloadMs)
{
    m_valid = true;
    m_build = std::max(0.0, buildMs);
    m_upload = std::max(0.0, uploadMs);
    m_kernel = std::max(0.0, kernelMs);
    m_download = std::max(0.0, downloadMs);
    update();
}

void TimingBar::clear()
{
    m_valid = false;
    update();
}

void TimingBar::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics metrics = fontMetrics();
    const int line = metrics.height();
    const int labelWidth = metrics.horizontalAdvance(tr("One repeat")) + 10;
    const int barLeft = labelWidth;
    const int barWidth = std::max(10, width() - barLeft - 4);
    const double values[4] = {m_build, m_upload, m_kernel, m_download};

    // Two bars: the first includes the build (often dominant), the second shows one repeat alone,
    // so the transfers and the kernel stay visible when the compile took a second.
    auto drawBar = [&](int y, const QString &label, int first) {
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(QRect(0, y, labelWidth - 6, line + 6), Qt::AlignRight | Qt::AlignVCenter, label);
        double total = 0;
        for (int i = first; i < 4; ++i)
            total += values[i];
        QRectF frame(barLeft, y, barWidth, line + 6);
        painter.setPen(Qt::NoPen);
        painter.setBrush(palette().color(QPalette::AlternateBase));
        painter.drawRect(frame);
        if (!m_valid || total <= 0)
            return;
        double x = barLeft;
        for (int i = first; i < 4; ++i) {
            const double w = values[i] / total * barWidth;
            if (w <= 0)
                continue;
            QRectF part(x, y, std::max(1.0, w), line + 6);
            painter.setBrush(kSegments[i].colour);
            painter.drawRect(part);
            const QString text = QStringLiteral("%1 %2").arg(tr(kSegments[i].name), ms(values[i]));
            if (metrics.horizontalAdvance(text) + 8 < w) {
                painter.setPen(Qt::white);
                painter.drawText(part, Qt::AlignCenter, text);
                painter.setPen(Qt::NoPen);
            }
            x += w;
        }
    };
    drawBar(2, tr("This run"), 0);
    drawBar(line + 12, tr("One repeat"), 1);

    // Legend: always printed with numbers, so nothing depends on a segment being wide enough.
    int x = barLeft;
    const int y = 2 * line + 24;
    for (int i = 0; i < 4; ++i) {
        const QString text = m_valid ? QStringLiteral("%1 %2").arg(tr(kSegments[i].name), ms(values[i]))
                                     : tr(kSegments[i].name);
        painter.setPen(Qt::NoPen);
        painter.setBrush(kSegments[i].colour);
        painter.drawRect(QRectF(x, y + line / 2.0 - 5, 10, 10));
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(QPoint(x + 14, y + metrics.ascent()), text);
        x += 14 + metrics.horizontalAdvance(text) + 14;
        if (x > width() - 60 && i < 3) {
            // wrap is rare at the panel's width; keep the rest on the same line, clipped
        }
    }
}

TimingPanel::TimingPanel(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    m_title = new QLabel(tr("<b>No run yet.</b>"), this);
    m_title->setObjectName("timingTitle");
    m_title->setWordWrap(true);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setVisible(false);
    m_bar = new TimingBar(this);
    m_numbers = new QLabel(this);
    m_numbers->setObjectName("timingNumbers");
    m_numbers->setTextFormat(Qt::RichText);
    m_numbers->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_numbers->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    m_series = new QHorizontalBarSeries;
    auto *set = new QBarSet(tr("kernel time (ms, median)"));
    set->setColor(kSegments[2].colour);
    m_series->append(set);
    // No value labels on the bars: short bars clip them; the axis and the numbers table carry them.
    m_chart = new QChart;
    m_chart->addSeries(m_series);
    m_chart->setTitle(tr("Kernel time, last runs (newest at the top)"));
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_categories = new QBarCategoryAxis;
    m_valueAxis = new QValueAxis;
    m_valueAxis->setTitleText(tr("ms"));
    m_valueAxis->setLabelFormat(QStringLiteral("%.3g"));
    m_chart->addAxis(m_categories, Qt::AlignLeft);
    m_chart->addAxis(m_valueAxis, Qt::AlignBottom);
    m_series->attachAxis(m_categories);
    m_series->attachAxis(m_valueAxis);
    m_chartView = new QChartView(m_chart, this);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumHeight(220);
    m_chartView->setObjectName("historyChart");

    auto *top = new QHBoxLayout;
    auto *left = new QVBoxLayout;
    left->addWidget(m_title);
    left->addWidget(m_note);
    left->addWidget(m_bar);
    left->addWidget(m_numbers, 1);
    top->addLayout(left, 5);
    top->addWidget(m_chartView, 6);
    layout->addLayout(top);
    updateChart();
}

void TimingPanel::setNote(const QString &text)
{
    m_note->setText(text);
    m_note->setVisible(!text.isEmpty());
}

void TimingPanel::setResult(const ComputeResult &result)
{
    const RunResult &r = result.run;
    setNote({});
    const QString shape = QString::fromStdString(r.local.toString());
    const QString engine = result.engine.label();
    m_title->setText(tr("<b>%1 / %2</b> on %3, work-group %4")
                         .arg(QString::fromStdString(r.filter).toHtmlEscaped(),
                              QString::fromStdString(r.variant).toHtmlEscaped(),
                              engine.toHtmlEscaped(), shape));
    const bool cpu = result.engine.isCpu();
    if (cpu)
        m_bar->setTimes(0, 0, r.kernelMs.median, 0);
    else
        m_bar->setTimes(r.buildOrigin == "compiled" ? r.buildMs : 0.0, r.uploadMs, r.kernelMs.median,
                        r.downloadMs);

    auto row = [](const QString &name, const QString &value, const QString &note = {}) {
        return QStringLiteral("<tr><td style='padding-right:10px'>%1</td><td align='right'><b>%2</b></td>"
                              "<td style='padding-left:10px; color:gray'>%3</td></tr>")
            .arg(name, value, note);
    };
    QString rows;
    rows += row(cpu ? tr("Filter time") : tr("Kernel time"), ms(r.kernelMs.median),
                tr("median; min %1, max %2").arg(ms(r.kernelMs.min), ms(r.kernelMs.max)));
    if (!cpu) {
        rows += row(tr("Upload / download"), QStringLiteral("%1 / %2").arg(ms(r.uploadMs), ms(r.downloadMs)),
                    r.reuploaded ? tr("image sent every repeat") : tr("image already on the device"));
        rows += row(tr("Whole repeat (host clock)"), ms(r.totalMs), tr("upload + kernel + download"));
        const QString origin = QString::fromStdString(r.buildOrigin);
        rows += row(tr("Program"), origin == "compiled" ? tr("built in %1").arg(ms(r.buildMs))
                                                         : tr("from %1 cache").arg(origin),
                    origin == "compiled" ? tr("first use of these build options") : QString());
    }
    rows += row(tr("Throughput"), tr("%1 Mpix/s").arg(r.mpixPerS, 0, 'f', 1));
    QString bandwidthNote;
    if (result.copyBandwidthGBps > 0)
        bandwidthNote = tr("%1% of the device's copy speed (%2 GB/s)")
                            .arg(100.0 * r.gbps / result.copyBandwidthGBps, 0, 'f',
                                 r.gbps < 0.1 * result.copyBandwidthGBps ? 1 : 0)
                            .arg(result.copyBandwidthGBps, 0, 'f', 1);
    rows += row(tr("Memory traffic"), tr("%1 GB/s").arg(r.gbps, 0, 'f', 2), bandwidthNote);
    auto speedup = [&](double cpuMs) {
        if (cpuMs <= 0 || r.kernelMs.median <= 0)
            return tr("—");
        return tr("%1×").arg(cpuMs / r.kernelMs.median, 0, 'f', cpuMs / r.kernelMs.median < 10 ? 2 : 1);
    };
    if (!cpu) {
        rows += row(tr("Speed-up vs CPU, 1 thread"), speedup(r.cpuSingleMs),
                    tr("CPU took %1").arg(ms(r.cpuSingleMs)));
        rows += row(tr("Speed-up vs CPU, %1 threads").arg(r.cpuThreads), speedup(r.cpuMultiMs),
                    tr("CPU took %1").arg(ms(r.cpuMultiMs)));
    }
    if (r.checked && !cpu) {
        rows += row(tr("Matches CPU reference"),
                    r.matches ? tr("yes") : tr("<span style='color:#c62828'>NO</span>"),
                    tr("max diff %1, tolerance %2").arg(r.maxAbsDiff).arg(r.tolerance));
    }
    m_numbers->setText(QStringLiteral("<table cellspacing='1'>%1</table>").arg(rows));

    // History: newest at the top of the horizontal bar chart.
    ++m_runNumber;
    HistoryEntry entry;
    entry.label = QStringLiteral("#%1 %2 · %3 · %4")
                      .arg(m_runNumber)
                      .arg(QString::fromStdString(r.variant), cpu ? engine : shortDevice(QString::fromStdString(r.device)),
                           shape);
    entry.kernelMs = r.kernelMs.median;
    m_history.push_back(entry);
    if (int(m_history.size()) > kHistoryLength)
        m_history.erase(m_history.begin());
    updateChart();
}

void TimingPanel::clearHistory()
{
    m_history.clear();
    updateChart();
}

void TimingPanel::updateChart()
{
    QBarSet *set = m_series->barSets().front();
    QStringList labels;
    QList<qreal> values;
    double maximum = 0;
    // Bar charts draw category 0 at the bottom: append oldest first so the newest is on top.
    for (const HistoryEntry &entry : m_history) {
        labels << entry.label;
        values << std::round(entry.kernelMs * 1000.0) / 1000.0;
        maximum = std::max(maximum, entry.kernelMs);
    }
    set->remove(0, set->count());
    set->append(values);
    m_categories->clear();
    if (labels.isEmpty())
        labels << tr("(no runs yet)");
    m_categories->append(labels);
    m_valueAxis->setRange(0, maximum > 0 ? maximum * 1.3 : 1.0);
}

QString TimingPanel::numbersText() const
{
    QTextDocument doc;
    doc.setHtml(m_title->text() + QStringLiteral("<br>") + m_numbers->text());
    return doc.toPlainText();
}

} // namespace fwb
