// TunerPage: the work-group heat map and "apply best" (see TunerPage.h).
#include "TunerPage.h"

#include "Report.h"
#include "TuneHeatMap.h"

#include <QAction>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace fwb {

TunerPage::TunerPage(QWidget *parent) : JobPage(parent)
{
    setObjectName("tunerPage");
    createJobControls({tr("Tune Work-Group"), "tuneAction",
                       tr("Time every valid work-group shape for the current variant"), tr("Tune Work-Group"),
                       "", "", "", tr("%v of %m shapes")});
    m_apply = new QPushButton(tr("Apply Best"), this);
    m_apply->setObjectName("applyBest");
    m_apply->setToolTip(tr("Save the best shape to the tuning database: auto launches of this variant, format "
                           "and image size on this device use it from now on"));
    connect(m_apply, &QPushButton::clicked, this, &TunerPage::applyBest);
    m_blocks = new QCheckBox(tr("Tune output block too"), this);
    m_blocks->setObjectName("tuneBlocks");
    m_blocks->setToolTip(tr("Block variants: first time each output block per work-item at the default shape, "
                            "then every shape at the fastest block"));
    m_summary = new QLabel(this);
    m_summary->setObjectName("tuneSummary");
    m_summary->setWordWrap(true);
    m_map = new TuneHeatMap(this);
    QHBoxLayout *top = createJobBar();
    top->addWidget(m_blocks);
    top->addWidget(m_apply);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_summary);
    layout->addWidget(m_map, 1);

    createBenchWorker();
    updateActions();
}

void TunerPage::benchProgress(const BenchProgress &progress)
{
    const TuneCell &cell = std::get<TuneCell>(progress.what);
    TuneResult partial = m_map->tune();
    partial.cells.push_back(cell);
    if (cell.ok() && (partial.best < 0 || cell.kernelMs < partial.cells[partial.best].kernelMs))
        partial.best = int(partial.cells.size()) - 1;
    m_map->setTune(partial);
    m_progress->setMaximum(progress.total);
    m_progress->setValue(progress.done);
}

void TunerPage::benchFinished(const BenchResult &result)
{
    const TuneResult &tune = std::get<TuneResult>(result.what);
    m_map->setTune(tune);
    QString text;
    if (tune.defaultIsBest()) {
        // No tried shape beat the default: calling one of them "best" would be untrue.
        const TuneCell &fastest = tune.cells[tune.best];
        const QString tried = tune.tunedBlocks()
                                  ? tr("%1 with output block <b>%2</b>")
                                        .arg(QString::fromStdString(fastest.local.toString()),
                                             QString::fromStdString(fastest.block.toString()))
                                  : QString::fromStdString(fastest.local.toString());
        text = tr("<b>%1 / %2</b>: the default launch <b>%3</b> is best, %4 ms; no shape tried beat it "
                  "(the fastest, %5, took %6 ms)")
                   .arg(QString::fromStdString(tune.filter), QString::fromStdString(tune.variant),
                        QString::fromStdString(launchShapeLabel(tune.defaultRun.local, tune.defaultRun.localSource)))
                   .arg(tune.defaultRun.kernelMs.median, 0, 'g', 4)
                   .arg(tried)
                   .arg(fastest.kernelMs, 0, 'g', 4);
    } else if (tune.best >= 0) {
        const TuneCell &best = tune.cells[tune.best];
        text = tr("<b>%1 / %2</b>: best shape <b>%3</b>, %4 ms")
                   .arg(QString::fromStdString(tune.filter), QString::fromStdString(tune.variant),
                        QString::fromStdString(best.local.toString()))
                   .arg(best.kernelMs, 0, 'g', 4);
        if (tune.tunedBlocks())
            text += tr(" with output block <b>%1</b>").arg(QString::fromStdString(best.block.toString()));
        if (tune.defaultRun.ok())
            text += tr("; the default launch %1 took %2 ms (best is %3× faster)")
                        .arg(QString::fromStdString(launchShapeLabel(tune.defaultRun.local, tune.defaultRun.localSource)))
                        .arg(tune.defaultRun.kernelMs.median, 0, 'g', 4)
                        .arg(tune.speedupOverDefault(), 0, 'f', 2);
    } else {
        text = tr("No shape ran.");
    }
    if (tune.cancelled)
        text += tr(" (cancelled)");
    m_summary->setText(text);
    finishJob();
}

void TunerPage::showFailure(const QString &message)
{
    m_summary->setText(tr("Tuning could not start: %1").arg(message));
}

bool TunerPage::canStart() const
{
    return m_request.input && !m_request.engine.isCpu() && !m_request.run.variant.empty();
}

void TunerPage::updateActions()
{
    JobPage::updateActions();
    m_apply->setEnabled(!isBusy() && m_map->tune().best >= 0);
    const FilterSpec *filter = findFilter(m_request.run.filter);
    const VariantSpec *variant = filter ? filter->variant(m_request.run.variant) : nullptr;
    m_blocks->setEnabled(!isBusy() && variant && makesBlocks(*variant));
}

bool TunerPage::startJob()
{
    if (isBusy() || !canStart())
        return false;
    raiseTab();
    BenchJob job = benchJob();
    job.run.keepOutput = false;
    job.run.repeat = std::min(job.run.repeat, 3);
    const FilterSpec *filter = findFilter(job.run.filter);
    const VariantSpec *variant = filter ? filter->variant(job.run.variant) : nullptr;
    if (!variant)
        return false;
    const std::vector<LocalSize> shapes = tuneShapes(job.device, *variant, job.tune);
    job.tune.tuneBlocks = m_blocks->isChecked() && makesBlocks(*variant);
    const std::size_t blocks = job.tune.tuneBlocks ? tuneBlocks(job.run.params.format).size() : 0;
    TuneResult empty;
    empty.filter = job.run.filter;
    empty.variant = job.run.variant;
    for (const LocalSize &s : shapes) { // the grid's axes from the start: cells fill in as they end
        if (std::find(empty.widths.begin(), empty.widths.end(), s.width) == empty.widths.end())
            empty.widths.push_back(s.width);
        if (std::find(empty.heights.begin(), empty.heights.end(), s.height) == empty.heights.end())
            empty.heights.push_back(s.height);
    }
    std::sort(empty.widths.begin(), empty.widths.end());
    std::sort(empty.heights.begin(), empty.heights.end());
    m_map->setTune(empty);
    m_progress->setRange(0, int(blocks + shapes.size()));
    m_progress->setValue(0);
    m_summary->setText(tr("Tuning %1 / %2 on %3…")
                           .arg(QString::fromStdString(job.run.filter), QString::fromStdString(job.run.variant),
                                QString::fromStdString(job.device.name)));
    m_tunedDevice = job.device;
    m_tunedFormat = job.run.params.format;
    return startBenchJob(job, &BenchWorker::tuneJob);
}

bool TunerPage::applyBest()
{
    const TuneResult &tune = m_map->tune();
    auto entry = tuningEntry(m_tunedDevice, tune, m_tunedFormat);
    if (!entry)
        return false;
    if (tune.defaultIsBest()) { // no tried shape beat the default: keep the default's own launch
        entry->local = tune.defaultRun.local;
        entry->block = tune.defaultRun.block;
        entry->kernelMs = tune.defaultRun.kernelMs.median;
    }
    TuningDb &db = *workbenchTuningDb();
    db.put(*entry);
    std::string error;
    const QString shape = QString::fromStdString(entry->local.toString())
                          + (entry->block.isConcrete() ? tr(", block %1").arg(QString::fromStdString(entry->block.toString()))
                                                       : QString());
    if (!db.save(&error))
        m_summary->setText(m_summary->text() + tr("<br/>Applied %1 for this session; it could not be saved: %2")
                                                   .arg(shape, QString::fromStdString(error)));
    else
        m_summary->setText(m_summary->text() + tr("<br/>Applied: auto now launches %1 for this variant here "
                                                  "(saved to %2).")
                                                   .arg(shape, QString::fromStdString(db.path().string())));
    emit bestApplied(shape);
    return true;
}

void TunerPage::addToReport(ReportData &data) const
{
    if (!m_map->tune().cells.empty())
        data.tune = m_map->tune();
}

std::optional<ScreenshotJob> TunerPage::screenshotJob(const ScreenshotPlan &plan)
{
    if (!plan.tune)
        return std::nullopt;
    return jobScreenshot(
        [this] { return m_map->tune().best < 0 ? QStringLiteral("no work-group shape ran") : QString(); });
}

} // namespace fwb
