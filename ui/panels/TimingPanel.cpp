// TimingPanel: painting the time-split bars, formatting the numbers, feeding the history chart.
#include "TimingPanel.h"

#include "ChartViews.h"
#include "CpuTimingsWatch.h"
#include "UiText.h"
#include "ProgramCache.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QGridLayout>
#include <QHorizontalBarSeries>
#include <QBoxLayout>
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

// "compiled in 2.3 s (first use on this device)" (issue 25): where the run built its program. A driver that
// keeps its own kernel cache (PoCL) compiled it for this window (quickly when its cache held it); elsewhere
// the disk cache did not hold it.
QString compiledText(const ComputeResult &result)
{
    const double buildMs = result.run.buildMs;
    const QString took = buildMs >= 1000 ? QObject::tr("%1 s").arg(buildMs / 1000.0, 0, 'f', 1)
                                         : QObject::tr("%1 ms").arg(std::max(0.0, buildMs), 0, 'f', 0);
    // Without a disk cache (FWB_CACHE_DIR=-) every window compiles again.
    return ProgramCache::keepsBinaries(result.engine.device) && !ProgramCache::defaultDiskDir().empty()
               ? QObject::tr("compiled in %1 (first use on this device)").arg(took)
               : QObject::tr("compiled in %1 (first use in this window)").arg(took);
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

void TimingBar::setTimes(double buildMs, double uploadMs, double kernelMs, double downloadMs,
                         const QString &buildOrigin)
{
    m_valid = true;
    m_cpu = false;
    m_buildOrigin = buildOrigin;
    // A program taken from a cache cost (almost) nothing in this run: no build segment.
    m_build = buildOrigin == QLatin1String("compiled") ? std::max(0.0, buildMs) : 0.0;
    m_upload = std::max(0.0, uploadMs);
    m_kernel = std::max(0.0, kernelMs);
    m_download = std::max(0.0, downloadMs);
    update();
}

void TimingBar::setCpuTime(double filterMs)
{
    m_valid = true;
    m_cpu = true;
    m_buildOrigin.clear();
    m_build = m_upload = m_download = 0;
    m_kernel = std::max(0.0, filterMs);
    update();
}

void TimingBar::clear()
{
    m_valid = false;
    update();
}

QString TimingBar::segmentText(int segment) const
{
    if (m_cpu && segment == 2)
        return tr("CPU filter %1").arg(ms(m_kernel));
    const QString name = tr(kSegments[segment].name);
    if (!m_valid)
        return name;
    if (m_cpu)
        return tr("%1: none").arg(name); // the reference runs in place, on the host
    if (segment == 0 && m_buildOrigin != QLatin1String("compiled"))
        // "build 0.000 ms" read as a free compile; it was a cache hit.
        return tr("build: from %1 cache").arg(m_buildOrigin.isEmpty() ? tr("a") : m_buildOrigin);
    const double values[4] = {m_build, m_upload, m_kernel, m_download};
    return QStringLiteral("%1 %2").arg(name, ms(values[segment]));
}

QString TimingBar::legendText() const
{
    QStringList parts;
    for (int i = 0; i < 4; ++i)
        if (!m_cpu || i == 2 || !m_valid)
            parts << segmentText(i);
    return parts.join(QStringLiteral(" · "));
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
            const QString text = segmentText(i);
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
    // The CPU reference has one phase only; the others would read as measured zeros.
    int x = barLeft;
    const int y = 2 * line + 24;
    for (int i = 0; i < 4; ++i) {
        if (m_valid && m_cpu && i != 2)
            continue;
        const QString text = segmentText(i);
        painter.setPen(Qt::NoPen);
        painter.setBrush(kSegments[i].colour);
        painter.drawRect(QRectF(x, y + line / 2.0 - 5, 10, 10));
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(QPoint(x + 14, y + metrics.ascent()), text);
        x += 14 + metrics.horizontalAdvance(text) + 14;
    }
}

TimingPanel::TimingPanel(QWidget *parent) : QWidget(parent)
{
    // A later measurement of the same CPU work (a race, another run) changes the figures on display.
    connect(CpuTimingsWatch::instance(), &CpuTimingsWatch::changed, this, [this] {
        if (m_hasNumbers && refreshCpuFigures(m_shown.run))
            showNumbers(m_shown);
    });
    auto *layout = new QVBoxLayout(this);
    m_title = new QLabel(tr("<b>No run yet.</b>"), this);
    m_title->setObjectName("timingTitle");
    m_title->setWordWrap(true);
    m_note = new QLabel(this);
    m_note->setObjectName("timingNote");
    m_note->setWordWrap(true);
    m_note->setVisible(false);
    m_bar = new TimingBar(this);
    m_numbers = new QLabel(this);
    m_numbers->setObjectName("timingNumbers");
    m_numbers->setTextFormat(Qt::RichText);
    m_numbers->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_numbers->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    m_series = new QHorizontalBarSeries;
    auto *set = new QBarSet(tr("kernel or CPU filter time (ms, median)"));
    set->setColor(kSegments[2].colour);
    set->setLabelColor(palette().color(QPalette::WindowText)); // the theme's default is white
    m_series->append(set);
    // The time next to each bar, outside its end: beside a 400 ms bar, 20 and 35 ms are both
    // slivers, and a label inside a short bar would be clipped.
    m_series->setLabelsVisible(true);
    m_series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    m_series->setLabelsFormat(QStringLiteral("@value ms"));
    m_series->setLabelsPrecision(3);
    m_chart = new QChart;
    m_chart->addSeries(m_series);

    m_chart->legend()->hide();
    m_categories = new QBarCategoryAxis;
    m_valueAxis = new QValueAxis;
    m_valueAxis->setTitleText(tr("median kernel time (ms)"));
    m_valueAxis->setLabelFormat(QStringLiteral("%.4g"));
    m_chart->addAxis(m_categories, Qt::AlignLeft);
    m_chart->addAxis(m_valueAxis, Qt::AlignBottom);
    m_series->attachAxis(m_categories);
    m_series->attachAxis(m_valueAxis);
    m_chartView = createChartView(m_chart, "historyChart", 220, this);

    auto *top = new QBoxLayout(QBoxLayout::LeftToRight);
    m_top = top;
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

// Beside the numbers when the dock is wide; below them, at the dock's width, when it is not (at
// 1366x768 the dock is about 840 px wide and the chart was squeezed to a sliver beside the numbers).
void TimingPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    const auto direction = width() < kSideBySideWidth ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight;
    if (m_top && m_top->direction() != direction)
        m_top->setDirection(direction);
}

void TimingPanel::setNote(const QString &text)
{
    m_note->setText(text);
    m_note->setVisible(!text.isEmpty());
}

QString TimingPanel::summaryLine(const ComputeResult &result)
{
    const RunResult &r = result.run;
    auto q = [](const std::string &text) { return QString::fromStdString(text); };
    // What a user must read first, first: a narrow status line ends in "…" (issue 24, 1366x768).
    QStringList parts;
    parts << (result.engine.isCpu() ? tr("CPU filter %1 ms") : tr("Kernel %1 ms")).arg(r.kernelMs.median, 0, 'f', 3);
    if (!result.engine.isCpu())
        parts << (r.matches ? tr("matches the CPU reference (max diff %1)").arg(r.maxAbsDiff)
                            : tr("DIFFERS from the CPU reference (max diff %1 > %2)")
                                  .arg(r.maxAbsDiff)
                                  .arg(r.tolerance));
    parts << tr("ran on %1").arg(q(r.device));
    if (!result.engine.isCpu()) {
        if (r.buildOrigin == "compiled")
            parts << compiledText(result);
        else
            parts << tr("program from %1 cache").arg(q(r.buildOrigin));
        parts << (r.reuploaded ? tr("image uploaded each repeat") : tr("upload skipped: image resident"));
    }
    return parts.join(QStringLiteral(" · "));
}

void TimingPanel::setFailedRun(const QString &error)
{
    m_pending = false; // its timings will not come
    // Only claim "the numbers below" when there are some: a first run that fails has none.
    setNote(m_hasNumbers ? tr("<span style='color:#c62828'>Last run: %1</span> — the numbers below "
                              "are from the previous successful run.")
                               .arg(error.toHtmlEscaped())
                         : tr("<span style='color:#c62828'>Last run: %1</span>").arg(error.toHtmlEscaped()));
}

void TimingPanel::setTitle(const ComputeResult &result)
{
    const RunResult &r = result.run;
    const QString engine = result.engine.label();
    const QString format = QString::fromLatin1(formatName(result.request.params.format));
    if (result.engine.isCpu()) // the CPU reference has no launch shape, and ignores the variant too
        m_title->setText(tr("<b>%1</b> on the %2, %3")
                             .arg(QString::fromStdString(r.filter).toHtmlEscaped(), engine.toHtmlEscaped(),
                                  format));
    else
        m_title->setText(tr("<b>%1 / %2</b> on %3, %4, work-group %5")
                             .arg(QString::fromStdString(r.filter).toHtmlEscaped(),
                                  QString::fromStdString(r.variant).toHtmlEscaped(), engine.toHtmlEscaped(),
                                  format, QString::fromStdString(launchShapeLabel(r.local, r.localSource))));
}

void TimingPanel::setTimingPending(const ComputeResult &preview)
{
    const RunResult &r = preview.run;
    setTitle(preview);
    setNote(tr("<i>timing…</i> The picture is this run's first launch; its timed repeats and the CPU "
               "timings follow."));
    m_bar->clear();
    QString rows;
    auto row = [&rows](const QString &name, const QString &value, const QString &note) {
        rows += QStringLiteral("<tr><td style='padding-right:10px'>%1</td><td align='right'><b>%2</b></td>"
                               "<td style='padding-left:10px; color:gray'>%3</td></tr>")
                    .arg(name, value, note);
    };
    const QString origin = QString::fromStdString(r.buildOrigin);
    row(tr("Program"), origin == "compiled" ? compiledText(preview) : tr("from %1 cache").arg(origin), QString());
    if (r.checked)
        row(tr("Matches CPU reference"), r.matches ? tr("yes") : tr("<span style='color:#c62828'>NO</span>"),
            tr("first launch: max diff %1, tolerance %2").arg(r.maxAbsDiff).arg(r.tolerance));
    m_numbers->setText(QStringLiteral("<table cellspacing='1'>%1</table>").arg(rows));
    m_hasNumbers = false; // no earlier run's numbers are on display now
    m_shown = ComputeResult();
    m_pending = true;
}

void TimingPanel::setResult(const ComputeResult &arrived)
{
    // Its CPU figures as the store has them now (a race may have measured the same work since the run).
    ComputeResult result = arrived;
    refreshCpuFigures(result.run);
    const RunResult &r = result.run;
    setNote({});
    m_pending = false;
    showNumbers(result);
    const bool cpu = result.engine.isCpu();
    // The launched shape; the CPU reference has none, and ignores the variant too.
    const QString shape = cpu ? QString() : QString::fromStdString(launchShapeLabel(r.local, r.localSource));
    const QString format = QString::fromLatin1(formatName(result.request.params.format));
    ++m_runNumber;
    HistoryEntry entry;
    entry.number = m_runNumber;
    entry.filter = QString::fromStdString(r.filter);
    // The CPU engines ignore the variant: the label names the engine instead.
    if (!cpu)
        entry.variant = QString::fromStdString(r.variant);
    else if (result.engine.kind == ComputeEngine::CpuSingle)
        entry.variant = tr("CPU, 1 thread");
    else
        entry.variant = tr("CPU, %1 threads").arg(r.cpuThreads);
    entry.device = cpu ? tr("CPU reference") : QString::fromStdString(r.device);
    entry.format = format;
    entry.shape = shape;
    entry.kernelMs = r.kernelMs.median;
    m_history.push_back(entry);
    if (int(m_history.size()) > kHistoryLength)
        m_history.erase(m_history.begin());
    updateChart();
}

void TimingPanel::setCopyBandwidth(double gbps)
{
    if (!m_hasNumbers || !m_shown.copyBandwidthPending)
        return; // no result waits for it (another run's numbers, or a pending one)
    m_shown.copyBandwidthGBps = gbps;
    m_shown.copyBandwidthPending = false;
    showNumbers(m_shown);
}

void TimingPanel::showNumbers(const ComputeResult &result)
{
    const RunResult &r = result.run;
    const bool cpu = result.engine.isCpu();
    setTitle(result);
    if (cpu)
        m_bar->setCpuTime(r.kernelMs.median);
    else
        m_bar->setTimes(r.buildMs, r.uploadMs, r.kernelMs.median, r.downloadMs,
                        QString::fromStdString(r.buildOrigin));

    auto row = [](const QString &name, const QString &value, const QString &note = {}) {
        return QStringLiteral("<tr><td style='padding-right:10px'>%1</td><td align='right'><b>%2</b></td>"
                              "<td style='padding-left:10px; color:gray'>%3</td></tr>")
            .arg(name, value, note);
    };
    // The CPU engines time at most 3 repeats (ComputeWorker::executeOnCpu).
    const int timed = cpu ? std::clamp(result.request.repeat, 1, 3) : std::max(1, result.request.repeat);
    const QString repeats = timed == 1 ? tr("1 timed repeat") : tr("median of %1 timed repeats").arg(timed);
    QString rows;
    rows += row(cpu ? tr("CPU filter time") : tr("Kernel time"), ms(r.kernelMs.median),
                tr("%1; min %2, max %3").arg(repeats, ms(r.kernelMs.min), ms(r.kernelMs.max)));
    if (!cpu) {
        rows += row(tr("Upload / download"), QStringLiteral("%1 / %2").arg(ms(r.uploadMs), ms(r.downloadMs)),
                    (r.reuploaded ? tr("image sent every repeat") : tr("upload skipped: image resident"))
                        + (r.transfer == "pinned" && result.pageLockedInput
                               // the worker gave the session a page-locked copy: the copies DMA straight from it
                               ? tr(", pinned memory: staging %1 (image page-locked%2)")
                                     .arg(ms(r.stagingMs), result.pageLockedCopyMs >= 0
                                                               ? tr(" once, %1").arg(ms(result.pageLockedCopyMs))
                                                               : QString())
                           : r.transfer == "pinned" && r.tiles > 1
                               ? tr(", through pinned memory tile by tile (staging copies %1, overlapped with the device)")
                                     .arg(ms(r.stagingMs))
                           : r.transfer == "pinned"
                               ? tr(", through pinned memory (staging copy %1 once)").arg(ms(r.stagingMs))
                           : r.transfer == "pageable" ? tr(", from ordinary (pageable) memory")
                                                      : tr(", %1: %2").arg(QString::fromStdString(r.transfer),
                                                                           QString::fromStdString(r.transferNote)))
                        // the worker could not have page-locked memory for the image: say why it staged
                        + (r.transfer == "pinned" && r.transferNote.starts_with("no page-locked")
                               ? QStringLiteral("; ") + QString::fromStdString(r.transferNote).toHtmlEscaped()
                               : QString()));
        if (r.uploadGBps > 0 || r.downloadGBps > 0)
            rows += row(tr("Copy rates"), tr("%1 / %2 GB/s").arg(r.uploadGBps, 0, 'f', 1).arg(r.downloadGBps, 0, 'f', 1),
                        r.tiles > 1 ? tr("%1 tiles of %2x%3, overlap %4%").arg(r.tiles).arg(r.tileWidth)
                                          .arg(r.tileHeight).arg(r.overlapPct, 0, 'f', 0)
                                    : tr("upload / download"));
        if (!r.outputNote.empty()) // Sobel's 16-bit gx: what the kernel wrote is not the picture shown
            rows += row(tr("Output"), tr("16-bit numbers"), QString::fromStdString(r.outputNote).toHtmlEscaped());
        rows += row(tr("Whole repeat (host clock)"), ms(r.totalMs), tr("upload + kernel + download"));
        const QString origin = QString::fromStdString(r.buildOrigin);
        rows += row(tr("Program"), origin == "compiled" ? compiledText(result) : tr("from %1 cache").arg(origin),
                    origin == "compiled" ? tr("its first use with these build options")
                                         : tr("no compile in this run"));
    }
    rows += row(tr("Throughput"), tr("%1 Mpix/s").arg(r.mpixPerS, 0, 'f', 1),
                tr("million pixels filtered per second"));
    QString bandwidthNote = tr("input + output bytes / time");
    if (result.copyBandwidthPending) // the worker measures it after this result (ComputeWorker): no % before it
        bandwidthNote = tr("input + output bytes / time; the device's copy speed: measuring…");
    else if (result.copyBandwidthGBps > 0)
        bandwidthNote = tr("%1% of the device's copy speed (%2 GB/s)")
                            .arg(100.0 * r.gbps / result.copyBandwidthGBps, 0, 'f',
                                 r.gbps < 0.1 * result.copyBandwidthGBps ? 1 : 0)
                            .arg(result.copyBandwidthGBps, 0, 'f', 1);
    rows += row(tr("Memory traffic"), tr("%1 GB/s").arg(r.gbps, 0, 'f', 2), bandwidthNote);
    // A ratio as read aloud: one decimal from 10, two from 0.1, below that two significant digits (a kernel
    // 207x slower than the CPU is "0.0048×", not "0.00×").
    auto times = [&](double x) {
        return x < 0.1 ? tr("%1×").arg(x, 0, 'g', 2) : tr("%1×").arg(x, 0, 'f', x < 10 ? 2 : 1);
    };
    auto speedup = [&](double cpuMs) {
        if (cpuMs <= 0 || r.kernelMs.median <= 0)
            return tr("—");
        return times(cpuMs / r.kernelMs.median);
    };
    // Every CPU time is the process's CPU timing store's (CpuTimings.h): the best median of the measurements
    // of that code on this work so far, the same figure the race page shows, printed as it prints it
    // (msText); said as what it is.
    auto measuredWords = [&](int measurements) {
        return measurements > 0 ? QStringLiteral(" (%1)").arg(QString::fromStdString(cpuTimingWords(measurements)))
                                : QString();
    };
    auto measurementsOf = [&](CpuCode code) {
        return r.cpuWork.empty() ? 0
                                 : cpuTimings().find(r.cpuWork, code == CpuCode::Reference ? 1 : r.cpuThreads, code)
                                       .measurements;
    };
    auto cpuNote = [&](double cpuMs, int measurements) {
        if (cpuMs <= 0)
            return tr("not measured");
        // "0.30x" alone reads like a speed-up; say plainly when the device lost.
        if (r.kernelMs.median > 1.05 * cpuMs) // "1.0x slower" would be noise, not news
            return tr("CPU took %1%2: the kernel is %3× slower")
                .arg(msText(cpuMs), measuredWords(measurements))
                .arg(r.kernelMs.median / cpuMs, 0, 'f', 1);
        return tr("CPU took %1%2").arg(msText(cpuMs), measuredWords(measurements));
    };
    if (!cpu) {
        // On a CPU device (PoCL) every speed-up below is the same chip against itself: say so first.
        if (const std::string note = sameProcessorNote(result.engine.device); !note.empty())
            rows += QStringLiteral("<tr><td colspan='3' style='color:#b35c00'><b>%1</b></td></tr>")
                        .arg(QString::fromStdString(note).toHtmlEscaped());
        // Against the fastest CPU code we have (ours or OpenCV's), kernel only and end to end; named.
        const QString best = QString::fromStdString(r.cpuBestLabel);
        rows += row(best.isEmpty() ? tr("Speed-up vs fastest CPU code")
                                   : tr("Speed-up vs fastest CPU code (%1)").arg(best.toHtmlEscaped()),
                    speedup(r.cpuBestMs), cpuNote(r.cpuBestMs, r.cpuMeasurements));
        if (r.cpuBestMs > 0 && r.totalMs > 0) {
            const double x = r.cpuBestMs / r.totalMs;
            rows += row(tr("… with the copies"), times(x),
                        x < 1 ? tr("upload + kernel + download: slower than that CPU code")
                              : tr("upload + kernel + download against the same CPU code's time"));
        }
        if (r.openCvCpuMs > 0)
            rows += row(tr("OpenCV on the CPU"), msText(r.openCvCpuMs),
                        tr("%1 threads%2").arg(r.cpuThreads).arg(measuredWords(measurementsOf(CpuCode::OpenCv))));
        rows += row(tr("Speed-up vs our CPU code, %1 threads").arg(r.cpuThreads), speedup(r.cpuMultiMs),
                    cpuNote(r.cpuMultiMs, measurementsOf(CpuCode::Ours)));
        // The single-threaded reference only checks results: its time, never a "speed-up vs the CPU"
        // (issue 24: "Speed-up vs CPU, 1 thread 40.9×" read as the processor's speed).
        if (r.cpuSingleMs > 0)
            rows += row(tr("Checking reference (plain C++, 1 thread)"), msText(r.cpuSingleMs),
                        tr("used to check every result; not the processor's speed%1")
                            .arg(measuredWords(measurementsOf(CpuCode::Reference))));
    }
    if (r.checked && !cpu) {
        rows += row(tr("Matches CPU reference"),
                    r.matches ? tr("yes") : tr("<span style='color:#c62828'>NO</span>"),
                    tr("max diff %1, tolerance %2").arg(r.maxAbsDiff).arg(r.tolerance));
    }
    m_numbers->setText(QStringLiteral("<table cellspacing='1'>%1</table>").arg(rows));
    m_hasNumbers = true;
    // What setCopyBandwidth redraws them from: the numbers' inputs, not the pictures.
    m_shown = result;
    m_shown.output = m_shown.convertedInput = m_shown.heatMap = QImage();
    m_shown.heatMapLevels.clear();
    m_shown.outputImage.reset();
}

void TimingPanel::clearHistory()
{
    m_history.clear();
    updateChart();
}

QStringList TimingPanel::historyLabels() const
{
    return m_categories->categories();
}

QString TimingPanel::chartTitle() const
{
    return m_chart->title();
}

void TimingPanel::updateChart()
{
    QBarSet *set = m_series->barSets().front();
    QStringList labels;
    QList<qreal> values;
    double maximum = 0;
    // What all the runs share goes into the title once; each bar is labelled with what differs.
    // Repeating a 40-character device name on every bar got it cut to "pthread-haswell-AMD E…".
    auto shared = [this](QString HistoryEntry::*field) {
        for (const HistoryEntry &entry : m_history)
            if (entry.*field != m_history.front().*field)
                return false;
        return !m_history.empty();
    };
    const bool sameFilter = shared(&HistoryEntry::filter);
    const bool sameDevice = shared(&HistoryEntry::device);
    const bool sameFormat = shared(&HistoryEntry::format);
    const bool sameShape = shared(&HistoryEntry::shape);
    QStringList common;
    if (sameFilter)
        common << m_history.front().filter;
    if (sameFormat)
        common << m_history.front().format;
    if (sameShape && !m_history.front().shape.isEmpty())
        common << tr("work-group %1").arg(m_history.front().shape);
    // A shared device is left out of the title: the panel's heading names it, and its 40-character
    // name only pushed the rest off the chart.
    // Bar charts draw category 0 at the bottom: append oldest first so the newest is on top.
    for (const HistoryEntry &entry : m_history) {
        QStringList parts;
        parts << (sameFilter ? entry.variant : entry.filter + QLatin1Char('/') + entry.variant);
        if (!sameFormat)
            parts << entry.format;
        if (!entry.shape.isEmpty() && !sameShape)
            parts << entry.shape;
        if (!sameDevice)
            parts << shortDevice(entry.device);
        labels << QStringLiteral("#%1 %2").arg(entry.number).arg(parts.join(QStringLiteral(" · ")));
        values << std::round(entry.kernelMs * 1000.0) / 1000.0;
        maximum = std::max(maximum, entry.kernelMs);
    }
    set->remove(0, set->count());
    set->append(values);
    m_categories->clear();
    if (labels.isEmpty())
        labels << tr("(no runs yet)");
    m_categories->append(labels);
    m_chart->setTitle(common.isEmpty() ? tr("Kernel time, newest run on top")
                                       : tr("Kernel time, newest run on top: %1")
                                             .arg(common.join(QStringLiteral(" · "))));
    // Round tick values (0, 5, 10, ...) instead of max * 1.3 cut into four (9.18, 18.4, 27.5).
    // Head room right of the longest bar for its value label.
    m_valueAxis->setRange(0, maximum > 0 ? maximum * 1.3 : 1.0);
    m_valueAxis->applyNiceNumbers();
}

QString TimingPanel::numbersText() const
{
    QTextDocument doc;
    doc.setHtml(m_title->text() + QStringLiteral("<br>") + m_numbers->text());
    return doc.toPlainText();
}

} // namespace fwb
