// DuelPage: one variant on two devices, side by side (see DuelPage.h).
#include "DuelPage.h"
#include "ChartViews.h"
#include "ComboBoxes.h"
#include "UiText.h"

#include "Report.h"

#include <QAction>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QValueAxis>
#include <QVBoxLayout>

namespace fwb {

namespace {

// What a side's bar measures: kernel-only and end-to-end (the CPU reference has no copies).
double kernelOf(const ComputeResult &r) { return r.run.kernelMs.median; }
double endToEndOf(const ComputeResult &r)
{
    return r.engine.isCpu() ? r.run.kernelMs.median : r.run.endToEndMs > 0 ? r.run.endToEndMs : r.run.totalMs;
}

} // namespace

DuelPage::DuelPage(QWidget *parent) : JobPage(parent), m_devices(listDevices())
{
    setObjectName("duelPage");
    createJobControls({tr("Device Duel"), "duelAction",
                       tr("Run the current variant on two devices and show both results side by side"), tr("Duel"),
                       "duelButton", "duelCancel", "duelProgress", tr("%v of %m devices")});
    m_progress->setRange(0, 2);
    m_progress->setValue(0);
    m_summary = new QLabel(tr("Pick two devices (or one twice) and press Duel."), this);
    m_summary->setObjectName("duelSummary");
    m_summary->setWordWrap(true);
    QFont big = m_summary->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    m_summary->setFont(big);

    auto *grid = new QGridLayout;
    const int defaultDevice = defaultDeviceIndex(m_devices);
    for (int side = 0; side < 2; ++side) {
        auto *combo = new QComboBox(this);
        combo->setObjectName(side == 0 ? "duelLeft" : "duelRight");
        for (const DeviceInfo &d : m_devices)
            combo->addItem(q(deviceLabel(d, m_devices)), q(d.spec()));
        combo->addItem(tr("CPU reference (single thread)"), QStringLiteral("cpu-single"));
        combo->addItem(tr("CPU reference (multi-thread)"), QStringLiteral("cpu-multi"));
        // Left: the default device; right: another device when there is one, else the same one again
        // (two sessions, one after the other: how steady the timing is), else the CPU.
        int index = defaultDevice >= 0 ? defaultDevice : combo->count() - 1;
        if (side == 1 && m_devices.size() > 1)
            index = defaultDevice == 0 ? 1 : 0;
        combo->setCurrentIndex(index);
        connect(combo, &QComboBox::currentIndexChanged, this, [this] { updateActions(); });
        m_sides[side] = combo;
        auto *image = new QLabel(this);
        image->setObjectName(side == 0 ? "duelLeftImage" : "duelRightImage");
        image->setAlignment(Qt::AlignCenter);
        image->setMinimumSize(160, 80);
        image->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
        image->setFrameShape(QFrame::StyledPanel);
        image->installEventFilter(this); // rescale the picture when the frame changes size
        m_images[side] = image;
        auto *text = new QLabel(this);
        text->setWordWrap(true);
        text->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_texts[side] = text;
        grid->addWidget(combo, 0, side);
        grid->addWidget(image, 1, side);
        grid->addWidget(text, 2, side);
        grid->setColumnStretch(side, 1);

        auto *worker = new ComputeWorker(this);
        connect(worker, &ComputeWorker::runFinished, this,
                [this, side](const ComputeResult &result) { onFinished(side, result); });
        m_workers[side] = worker;
    }
    grid->setRowStretch(1, 3);

    m_chart = new QChart;
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    // two sides' bars with their labels, the axis and its title
    m_view = createChartView(m_chart, "duelChart", 175, this);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(createJobBar());
    layout->addWidget(m_summary);
    layout->addLayout(grid, 3);
    layout->addWidget(m_view, 2);
    updateChart();
    updateActions();
}

DuelPage::~DuelPage()
{
    // Each worker's destructor aborts its run and waits; cancel first so it is quick.
    for (ComputeWorker *worker : m_workers)
        worker->cancel();
}

bool DuelPage::setSideSpec(int side, const QString &spec)
{
    return selectByData(m_sides[side], spec);
}

QString DuelPage::sideSpec(int side) const
{
    return m_sides[side]->currentData().toString();
}

ComputeEngine DuelPage::engineFor(int side) const
{
    ComputeEngine engine;
    const QString spec = sideSpec(side);
    if (spec == QLatin1String("cpu-single"))
        engine.kind = ComputeEngine::CpuSingle;
    else if (spec == QLatin1String("cpu-multi"))
        engine.kind = ComputeEngine::CpuMulti;
    else
        for (const DeviceInfo &d : m_devices)
            if (q(d.spec()) == spec)
                engine.device = d;
    return engine;
}

bool DuelPage::canStart() const
{
    return m_request.input && !m_request.run.filter.empty() && !m_request.run.variant.empty();
}

void DuelPage::updateActions()
{
    JobPage::updateActions();
    for (QComboBox *combo : m_sides)
        combo->setEnabled(!isBusy());
}

bool DuelPage::startJob()
{
    if (isBusy() || !canStart())
        return false;
    raiseTab();
    m_has = {false, false};
    m_results = {};
    m_cancelled = false;
    for (int side = 0; side < 2; ++side) {
        m_images[side]->clear();
        m_texts[side]->setText(tr("<i>waiting…</i>"));
    }
    m_progress->setFormat(tr("%v of %m devices"));
    m_progress->setValue(0);
    m_summary->setText(tr("<b>%1 / %2</b>: %3 against %4…")
                           .arg(q(m_request.run.filter), q(m_request.run.variant), engineFor(0).label(),
                                engineFor(1).label()));
    updateChart();
    runSide(0);
    updateActions();
    return true;
}

void DuelPage::runSide(int side)
{
    // One side at a time: two runs at once would share the processor (PoCL) or the bus and each
    // would look slower than it is.
    m_running = side;
    ComputeRequest request = m_request;
    request.engine = engineFor(side);
    request.id = m_ids[side] = ++m_nextId;
    request.run.keepOutput = true;
    if (side == 1 && engineFor(0).device.spec() != request.engine.device.spec())
        request.run.local = LocalSize{}; // a shape picked for the left device may not suit the right one
    m_texts[side]->setText(tr("<i>running on %1…</i>").arg(request.engine.label().toHtmlEscaped()));
    m_workers[side]->submit(request);
}

void DuelPage::cancelJob()
{
    if (!isBusy())
        return;
    m_cancelled = true;
    m_workers[m_running]->cancel();
}

void DuelPage::onFinished(int side, const ComputeResult &result)
{
    if (result.superseded || result.id != m_ids[side] || m_running != side)
        return;
    m_results[side] = result;
    m_has[side] = result.run.ok() && !result.run.cancelled;
    m_progress->setValue(side + 1);
    showSide(side);
    updateChart();
    if (side == 0 && !m_cancelled && !result.run.cancelled) {
        runSide(1);
        return;
    }
    m_running = -1;
    if (m_cancelled || result.run.cancelled) {
        m_progress->setFormat(tr("cancelled after %v of %m devices"));
        m_summary->setText(tr("Cancelled."));
    } else if (m_has[0] && m_has[1]) {
        const double a = endToEndOf(m_results[0]), b = endToEndOf(m_results[1]);
        const int fast = a <= b ? 0 : 1;
        const double ratio = std::max(a, b) / std::max(1e-9, std::min(a, b));
        const bool sameDevice = sideSpec(0) == sideSpec(1);
        if (sameDevice)
            m_summary->setText(tr("<b>The same device twice</b>: %1 and %2 end to end, %3% apart: how much two "
                                  "runs of the same work differ here.")
                                   .arg(msText(a), msText(b))
                                   .arg((ratio - 1) * 100, 0, 'f', 0));
        else
            m_summary->setText(ratio < 1.05
                               ? tr("<b>A tie</b>: %1 and %2 end to end.").arg(msText(a), msText(b))
                               : tr("<b>%1 wins</b>: %2× as fast end to end (%3 against %4).")
                                     .arg(m_results[fast].engine.label().toHtmlEscaped())
                                     .arg(ratio, 0, 'f', ratio < 10 ? 1 : 0)
                                     .arg(msText(std::min(a, b)), msText(std::max(a, b))));
    } else {
        m_summary->setText(tr("One side did not finish: see its error below."));
    }
    finishJob();
}

// The side's result scaled into its frame as it is now (again whenever the frame changes size: the
// text below it grows when a result arrives), never larger than the frame, so nothing is cut off.
void DuelPage::scalePicture(int side)
{
    const ComputeResult &r = m_results[side];
    const QSize box = m_images[side]->contentsRect().size();
    if (r.output.isNull() || box.isEmpty())
        return;
    m_images[side]->setPixmap(
        QPixmap::fromImage(r.output.scaled(box, Qt::KeepAspectRatio, Qt::SmoothTransformation)));
}

bool DuelPage::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Resize)
        for (int side = 0; side < 2; ++side)
            if (watched == m_images[side])
                scalePicture(side);
    return WorkbenchPage::eventFilter(watched, event);
}

void DuelPage::showSide(int side)
{
    const ComputeResult &r = m_results[side];
    scalePicture(side);
    QString text = QStringLiteral("<b>%1</b><br/>").arg(r.engine.label().toHtmlEscaped());
    if (r.run.cancelled) {
        text += tr("cancelled");
    } else if (!r.run.ok()) {
        text += tr("failed: %1").arg(q(r.run.error).toHtmlEscaped());
    } else {
        text += tr("kernel %1, end to end %2").arg(msText(kernelOf(r)), msText(endToEndOf(r)));
        if (!r.engine.isCpu())
            text += tr(", work-group %1").arg(q(launchShapeLabel(r.run.local, r.run.localSource)));
        if (r.maxDiff >= 0)
            text += QStringLiteral("<br/>")
                    + (r.maxDiff == 0 ? tr("identical to the CPU reference")
                                      : tr("largest difference from the CPU reference: %1 of 255").arg(r.maxDiff));
    }
    m_texts[side]->setText(text);
}

int DuelPage::barCount() const
{
    int n = 0;
    for (QAbstractSeries *series : m_chart->series())
        if (auto *bars = qobject_cast<QHorizontalBarSeries *>(series))
            for (QBarSet *set : bars->barSets())
                for (int i = 0; i < set->count(); ++i)
                    n += set->at(i) > 0 ? 1 : 0;
    return n;
}

void DuelPage::updateChart()
{
    m_chart->removeAllSeries();
    for (QAbstractAxis *axis : m_chart->axes())
        m_chart->removeAxis(axis);
    auto *kernel = new QBarSet(tr("kernel"));
    auto *total = new QBarSet(tr("end to end (copies included)"));
    QStringList names;
    double top = 0;
    // Right side first: a horizontal bar chart draws its first category at the bottom.
    for (int side = 1; side >= 0; --side) {
        const ComputeResult &r = m_results[side];
        const bool ok = m_has[side];
        // The panes above name the devices; beside the bars a short word fits where a device name
        // shrank to "…" at 1366x768.
        names << (side == 0 ? tr("left") : tr("right"));
        *kernel << (ok ? kernelOf(r) : 0.0);
        *total << (ok ? endToEndOf(r) : 0.0);
        if (ok)
            top = std::max(top, endToEndOf(r));
    }
    kernel->setLabelColor(palette().color(QPalette::WindowText)); // outside the bars: the page's text colour
    total->setLabelColor(palette().color(QPalette::WindowText));
    auto *series = new QHorizontalBarSeries;
    series->append(total);
    series->append(kernel);
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsFormat(QStringLiteral("@value ms"));
    series->setLabelsPrecision(3);
    m_chart->addSeries(series);
    auto *axisY = new QBarCategoryAxis;
    axisY->append(names);
    auto *axisX = new QValueAxis;
    const double axisMax = top > 0 ? top * 1.25 : 1;
    axisX->setRange(0, axisMax);
    // Whole milliseconds where the scale allows: "40" fits between ticks where "41.1111" did not.
    axisX->setLabelFormat(axisMax >= 10 ? QStringLiteral("%.0f") : axisMax >= 1 ? QStringLiteral("%.1f")
                                                                                 : QStringLiteral("%.2f"));
    axisX->setTickCount(5);
    axisX->applyNiceNumbers(); // ticks at round values (0, 20, 40, ...)
    axisX->setTitleText(tr("milliseconds (shorter is faster)"));
    m_chart->addAxis(axisY, Qt::AlignLeft);
    m_chart->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisY);
    series->attachAxis(axisX);
}

void DuelPage::addToReport(ReportData &data) const
{
    if (!hasResult(0) || !hasResult(1))
        return;
    for (int side = 0; side < 2; ++side) {
        const ComputeResult &r = result(side);
        const std::string label = r.engine.label().toStdString();
        data.duel.push_back(ReportRun{label, r.run});
        addReportImage(data, std::string(side == 0 ? "Duel, left: " : "Duel, right: ") + label, r.output);
    }
}

std::optional<ScreenshotJob> DuelPage::screenshotJob(const ScreenshotPlan &plan)
{
    if (!plan.duel)
        return std::nullopt;
    ScreenshotJob job = jobScreenshot(
        [this] { return hasResult(0) && hasResult(1) ? QString() : QStringLiteral("a side of the duel failed"); });
    if (plan.duelWith && !setSideSpec(1, *plan.duelWith)) {
        job.refusal = QStringLiteral("unknown --duel-with device '%1'").arg(*plan.duelWith);
        return job;
    }
    // The left side is the window's device (the shell's latest request).
    const ComputeEngine &engine = m_request.engine;
    setSideSpec(0, engine.kind == ComputeEngine::CpuSingle ? QStringLiteral("cpu-single")
                   : engine.kind == ComputeEngine::CpuMulti ? QStringLiteral("cpu-multi")
                                                            : QString::fromStdString(engine.device.spec()));
    return job;
}

} // namespace fwb
