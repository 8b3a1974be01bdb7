#include "TransferComparePage.h"
#include "UiText.h"

#include <QAction>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

namespace fwb {

namespace {


QString ms(double value)
{
    return value >= 100 ? QString::number(value, 'f', 0)
           : value >= 10 ? QString::number(value, 'f', 1)
           : value >= 1  ? QString::number(value, 'f', 2)
                         : QString::number(value, 'f', 3);
}

// The stages in the order they are stacked, with their colours (the timing panel's hues).
struct Stage
{
    const char *name;
    QColor colour;
    double TransferBar::*value;
};
const Stage kStages[] = {
    {QT_TRANSLATE_NOOP("fwb::TransferChart", "staging memcpy"), QColor(150, 150, 150), &TransferBar::stagingMs},
    {QT_TRANSLATE_NOOP("fwb::TransferChart", "upload"), QColor(66, 133, 244), &TransferBar::uploadMs},
    {QT_TRANSLATE_NOOP("fwb::TransferChart", "kernel"), QColor(244, 160, 0), &TransferBar::kernelMs},
    {QT_TRANSLATE_NOOP("fwb::TransferChart", "download"), QColor(52, 168, 83), &TransferBar::downloadMs},
};

TransferBar barOf(const RunResult &r)
{
    TransferBar bar;
    bar.mode = q(r.transfer);
    bar.ok = r.ok();
    bar.unavailable = r.unavailable;
    bar.note = q(r.ok() ? r.transferNote : r.error);
    bar.stagingMs = r.stagingMs;
    bar.uploadMs = r.uploadMs;
    bar.kernelMs = r.kernelMs.median;
    bar.downloadMs = r.downloadMs;
    bar.endToEndMs = r.endToEndMs;
    bar.uploadGBps = r.uploadGBps;
    bar.downloadGBps = r.downloadGBps;
    bar.tiles = r.tiles;
    return bar;
}

constexpr int kRowHeight = 34;
constexpr int kLabelWidth = 120;

} // namespace

// ---- TransferChart ----

TransferChart::TransferChart(QWidget *parent) : QWidget(parent)
{
    setObjectName("transferChart");
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void TransferChart::clear()
{
    m_bars.clear();
    updateGeometry();
    update();
}

void TransferChart::addBar(const TransferBar &bar)
{
    m_bars.append(bar);
    updateGeometry();
    update();
}

QSize TransferChart::sizeHint() const
{
    return {720, 60 + kRowHeight * int(std::max<qsizetype>(5, m_bars.size()))};
}

QSize TransferChart::minimumSizeHint() const
{
    return {360, 60 + kRowHeight * int(std::max<qsizetype>(1, m_bars.size()))};
}

void TransferChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    const QFontMetrics fm(font());
    if (m_bars.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("Press Compare Transfer Modes: the current variant runs once per way of moving the picture "
                      "(pageable, pinned, zero copy, output mapped, SVM), and each run's staging, upload, kernel "
                      "and download appear here as one stacked bar."));
        return;
    }
    double scale = 0;
    for (const TransferBar &bar : m_bars)
        if (bar.ok)
            scale = std::max(scale, bar.endToEndMs > 0 ? bar.stackMs() * std::max(1.0, bar.highMs / bar.endToEndMs)
                                                       : bar.stackMs());
    if (scale <= 0)
        scale = 1;
    const int left = kLabelWidth, right = width() - 110, top = 34;
    const int barWidth = std::max(40, right - left);

    // Legend across the top.
    int x = left;
    for (const Stage &stage : kStages) {
        p.fillRect(QRect(x, 10, 12, 12), stage.colour);
        p.setPen(palette().color(QPalette::Text));
        const QString name = tr(stage.name);
        p.drawText(x + 16, 21, name);
        x += 16 + fm.horizontalAdvance(name) + 18;
    }

    double best = -1;
    for (const TransferBar &bar : m_bars)
        if (bar.ok && (best < 0 || bar.endToEndMs < best))
            best = bar.endToEndMs;
    for (int i = 0; i < m_bars.size(); ++i) {
        const TransferBar &bar = m_bars[i];
        const int y = top + i * kRowHeight;
        p.setPen(palette().color(QPalette::Text));
        QFont label = font();
        label.setBold(bar.ok && bar.endToEndMs == best);
        p.setFont(label);
        p.drawText(QRect(4, y, left - 10, kRowHeight - 8), Qt::AlignVCenter | Qt::AlignRight, bar.mode);
        p.setFont(font());
        if (!bar.ok) {
            p.setPen(palette().color(QPalette::PlaceholderText));
            const QString why = (bar.unavailable ? tr("unavailable: ") : tr("failed: ")) + bar.note;
            p.drawText(QRect(left, y, width() - left - 8, kRowHeight - 8), Qt::AlignVCenter | Qt::AlignLeft,
                       fm.elidedText(why, Qt::ElideRight, width() - left - 8));
            continue;
        }
        double at = 0;
        for (const Stage &stage : kStages) {
            const double value = bar.*(stage.value);
            if (value <= 0)
                continue;
            const double x0 = left + barWidth * at / scale, x1 = left + barWidth * (at + value) / scale;
            p.fillRect(QRectF(x0, y + 4, std::max(1.0, x1 - x0), kRowHeight - 16), stage.colour);
            at += value;
        }
        p.setPen(palette().color(QPalette::Text));
        // The rounds' spread on the end-to-end time (drawn at the stack's scale: the stack is the middle
        // round's stages, its end its end-to-end time less what the stages do not cover).
        if (bar.rounds > 1 && bar.highMs > bar.lowMs && bar.endToEndMs > 0) {
            const double perMs = at / bar.endToEndMs; // stack ms per end-to-end ms, so the whisker meets the bar
            const double xLo = left + barWidth * bar.lowMs * perMs / scale, xHi = left + barWidth * bar.highMs * perMs / scale;
            const double yMid = y + (kRowHeight - 8) / 2.0;
            p.drawLine(QPointF(xLo, yMid), QPointF(xHi, yMid));
            p.drawLine(QPointF(xLo, yMid - 5), QPointF(xLo, yMid + 5));
            p.drawLine(QPointF(xHi, yMid - 5), QPointF(xHi, yMid + 5));
            at = std::max(at, bar.highMs * perMs);
        }
        const QString total = tr("%1 ms").arg(ms(bar.endToEndMs));
        p.drawText(QRect(int(left + barWidth * at / scale) + 6, y, 104, kRowHeight - 8), Qt::AlignVCenter | Qt::AlignLeft,
                   total);
    }
}

// ---- TransferCompareWorker ----

TransferCompareWorker::TransferCompareWorker(QObject *parent) : SessionWorker(QThread::InheritPriority, false, parent)
{
    qRegisterMetaType<fwb::TransferBar>();
}

TransferCompareWorker::~TransferCompareWorker()
{
    stopThread();
}

bool TransferCompareWorker::start(const DeviceInfo &device, std::shared_ptr<const Image> input, const RunRequest &request)
{
    if (!input)
        return false;
    return startJobIfIdle([this, device, input, request] {
        try {
            compare(device, *input, request);
        } catch (const std::exception &e) {
            onGuiThread([this, m = QString::fromStdString(e.what())] { emit failed(m); });
        }
        closeSession();
        endJob();
        onGuiThread([this] { emit comparisonDone(); });
    });
}

void TransferCompareWorker::compare(const DeviceInfo &device, const Image &input, RunRequest request)
{
    Session &session = openSession(device);
    request.repeat = std::clamp(request.repeat, 3, 5);
    request.warmup = 1;
    request.reuseUpload = false;  // every mode shows its own upload
    request.keepOutput = false;
    request.cpuSingle = false;    // the comparison is about the copies; the check stays on
    request.openCvCpuBaseline = false;
    const std::vector<TransferMode> &modes = allTransferModes();
    // Round after round over every mode (issue 24: one run per mode showed noise as a mode's
    // difference); a mode that cannot run is asked once.
    std::vector<std::vector<RunResult>> runs(modes.size());
    const int total = int(modes.size()) * kTransferRounds;
    int done = 0, barsDone = 0;
    for (int round = 0; round < kTransferRounds && !m_cancel; ++round) {
        for (std::size_t m = 0; m < modes.size() && !m_cancel; ++m) {
            if (!runs[m].empty() && !runs[m].front().ok()) {
                ++done;
                continue;
            }
            request.transfer = modes[m];
            RunResult r = session.run(input, request, &m_cancel);
            if (r.cancelled)
                return;
            runs[m].push_back(std::move(r));
            onGuiThread([this, d = ++done, total] { emit progress(d, total); });
        }
    }
    if (m_cancel)
        return;
    for (std::vector<RunResult> &mode : runs) {
        std::sort(mode.begin(), mode.end(),
                  [](const RunResult &a, const RunResult &b) { return a.endToEndMs < b.endToEndMs; });
        TransferBar bar = barOf(mode[mode.size() / 2]);
        bar.rounds = int(mode.size());
        bar.lowMs = mode.front().endToEndMs;
        bar.highMs = mode.back().endToEndMs;
        onGuiThread([this, bar, d = ++barsDone, n = int(modes.size())] { emit barReady(bar, d, n); });
    }
}

QString transferSummary(const QVector<TransferBar> &bars)
{
    const TransferBar *best = nullptr;
    for (const TransferBar &bar : bars)
        if (bar.ok && (!best || bar.endToEndMs < best->endToEndMs))
            best = &bar;
    if (!best)
        return {};
    QString text = QObject::tr("Fastest end to end: <b>%1</b>, %2 ms (%3). ").arg(best->mode, ms(best->endToEndMs), best->note);
    QStringList same;
    for (const TransferBar &bar : bars) {
        if (!bar.ok || &bar == best)
            continue;
        if (bar.lowMs <= best->highMs) // the rounds overlap: no difference the noise could not make
            same << bar.mode;
        else
            text += QObject::tr("%1 %2 ms (%3× as long); ").arg(bar.mode, ms(bar.endToEndMs))
                        .arg(best->endToEndMs > 0 ? bar.endToEndMs / best->endToEndMs : 0.0, 0, 'f', 1);
    }
    if (!same.isEmpty())
        text += QObject::tr("%1 about as fast: within the spread of %2 rounds, not a difference of the modes; ")
                    .arg(same.join(QStringLiteral(", ")))
                    .arg(best->rounds);
    return text + QObject::tr("staging is the host memcpy into and out of page-locked memory, apart from the copies.");
}

// ---- TransferComparePage ----

TransferComparePage::TransferComparePage(QWidget *parent)
    : WorkbenchPage(parent), m_worker(new TransferCompareWorker(this))
{
    setObjectName("transferComparePage");
    m_compareAct = new QAction(tr("Compare &Transfer Modes"), this);
    m_compareAct->setObjectName("compareTransfersAction");
    m_compareAct->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    m_compareAct->setToolTip(tr("Run this variant once per way of moving the picture to the device and back"));
    connect(m_compareAct, &QAction::triggered, this, [this] { startCompare(); });

    m_compareButton = new QPushButton(tr("Compare Transfer Modes"), this);
    m_compareButton->setObjectName("compareTransfersButton");
    connect(m_compareButton, &QPushButton::clicked, this, [this] { startCompare(); });
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->setObjectName("compareTransfersCancel");
    connect(m_cancelButton, &QPushButton::clicked, this, &TransferComparePage::cancelCompare);
    m_status = new QLabel(this);
    m_status->setObjectName("transferStatus");
    m_heading = new QLabel(this);
    m_heading->setObjectName("transferHeading");
    m_heading->setWordWrap(true);
    m_chart = new TransferChart(this);
    m_summary = new QLabel(this);
    m_summary->setObjectName("transferSummary");
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *top = new QHBoxLayout;
    top->addWidget(m_compareButton);
    top->addWidget(m_cancelButton);
    top->addWidget(m_status, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_heading);
    layout->addWidget(m_chart, 1);
    layout->addWidget(m_summary);

    connect(m_worker, &TransferCompareWorker::barReady, this, &TransferComparePage::onBar);
    connect(m_worker, &TransferCompareWorker::progress, this, [this](int done, int total) {
        m_status->setText(tr("Running %1 of %2 (%3 rounds of every mode)").arg(done).arg(total).arg(kTransferRounds));
    });
    connect(m_worker, &TransferCompareWorker::failed, this, [this](const QString &message) { m_failure = message; });
    connect(m_worker, &TransferCompareWorker::comparisonDone, this, &TransferComparePage::onFinished);
    updateActions();
}

TransferComparePage::~TransferComparePage() = default; // the worker (a child) cancels and waits

void TransferComparePage::setInput(const std::shared_ptr<const Image> &image, const QString &description)
{
    m_input = image;
    m_inputDescription = description;
    updateActions();
}

void TransferComparePage::setRequest(const ComputeRequest &request)
{
    m_request = request;
    updateActions();
}

bool TransferComparePage::startCompare()
{
    if (isComparing())
        return false;
    if (!m_input) {
        m_status->setText(tr("Open a picture first."));
        return false;
    }
    if (m_request.engine.isCpu()) {
        m_status->setText(tr("Pick an OpenCL device: the CPU reference moves no picture anywhere."));
        return false;
    }
    // Show the page the bars appear on.
    for (QWidget *w = parentWidget(); w; w = w->parentWidget())
        if (auto *tabs = qobject_cast<QTabWidget *>(w)) {
            tabs->setCurrentWidget(this);
            break;
        }
    m_chart->clear();
    m_failure.clear();
    m_summary->clear();
    const RunRequest &run = m_request.run;
    m_heading->setText(tr("%1 / %2, %3x%4 %5 on %6: every transfer mode in %7 rounds taken in turn; each bar "
                          "the middle round, stacked to one scale, the whisker from the fastest round to the slowest")
                           .arg(q(run.filter), q(run.variant))
                           .arg(m_input->width())
                           .arg(m_input->height())
                           .arg(q(formatName(run.params.format)), q(m_request.engine.device.name))
                           .arg(kTransferRounds));
    if (!m_worker->start(m_request.engine.device, m_input, run))
        return false;
    m_status->setText(tr("Running %1 modes, %2 rounds…").arg(allTransferModes().size()).arg(kTransferRounds));
    updateActions();
    return true;
}

void TransferComparePage::cancelCompare()
{
    m_worker->cancel();
}

void TransferComparePage::onBar(const TransferBar &bar, int, int)
{
    m_chart->addBar(bar);
}

void TransferComparePage::onFinished()
{
    const QVector<TransferBar> &bars = m_chart->bars();
    if (!m_failure.isEmpty())
        m_status->setText(tr("Failed: %1").arg(m_failure));
    else if (bars.size() < qsizetype(allTransferModes().size()))
        m_status->setText(tr("Cancelled"));
    else
        m_status->setText(tr("Done"));
    m_summary->setText(transferSummary(bars));
    updateActions();
    emit compareFinished();
}

void TransferComparePage::updateActions()
{
    const bool busy = isComparing();
    const bool can = m_input && !m_request.engine.isCpu() && !m_request.run.filter.empty();
    m_compareAct->setEnabled(!busy && can);
    m_compareButton->setEnabled(!busy && can);
    m_cancelButton->setEnabled(busy);
}

} // namespace fwb
