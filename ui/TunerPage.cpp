// TunerPage: the work-group heat map and "apply best" (see TunerPage.h).
#include "TunerPage.h"

#include "TuneHeatMap.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

namespace fwb {

TunerPage::TunerPage(QWidget *parent) : WorkbenchPage(parent), m_worker(new BenchWorker(this))
{
    setObjectName("tunerPage");
    m_tuneAct = new QAction(tr("Tune Work-Group"), this);
    m_tuneAct->setObjectName("tuneAction");
    m_tuneAct->setToolTip(tr("Time every valid work-group shape for the current variant"));
    connect(m_tuneAct, &QAction::triggered, this, [this] { startTune(); });
    m_tuneButton = new QPushButton(tr("Tune Work-Group"), this);
    connect(m_tuneButton, &QPushButton::clicked, this, [this] { startTune(); });
    m_cancel = new QPushButton(tr("Cancel"), this);
    connect(m_cancel, &QPushButton::clicked, this, &TunerPage::cancelTune);
    m_apply = new QPushButton(tr("Apply Best"), this);
    m_apply->setObjectName("applyBest");
    m_apply->setToolTip(tr("Save the best shape to the tuning database: auto launches of this variant, format "
                           "and image size on this device use it from now on"));
    connect(m_apply, &QPushButton::clicked, this, &TunerPage::applyBest);
    m_progress = new QProgressBar(this);
    m_progress->setFormat(tr("%v of %m shapes"));
    m_summary = new QLabel(this);
    m_summary->setObjectName("tuneSummary");
    m_summary->setWordWrap(true);
    m_map = new TuneHeatMap(this);
    auto *top = new QHBoxLayout;
    top->addWidget(m_tuneButton);
    top->addWidget(m_cancel);
    top->addWidget(m_progress, 1);
    top->addWidget(m_apply);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_summary);
    layout->addWidget(m_map, 1);

    connect(m_worker, &BenchWorker::tuneProgress, this, [this](const TuneCell &cell, int done, int total) {
        TuneResult partial = m_map->tune();
        partial.cells.push_back(cell);
        if (cell.ok() && (partial.best < 0 || cell.kernelMs < partial.cells[partial.best].kernelMs))
            partial.best = int(partial.cells.size()) - 1;
        m_map->setTune(partial);
        m_progress->setMaximum(total);
        m_progress->setValue(done);
    });
    connect(m_worker, &BenchWorker::tuneFinished, this, [this](const TuneResult &tune) {
        m_map->setTune(tune);
        QString text;
        if (tune.best >= 0) {
            const TuneCell &best = tune.cells[tune.best];
            text = tr("<b>%1 / %2</b>: best shape <b>%3</b>, %4 ms")
                       .arg(QString::fromStdString(tune.filter), QString::fromStdString(tune.variant),
                            QString::fromStdString(best.local.toString()))
                       .arg(best.kernelMs, 0, 'g', 4);
            if (tune.defaultRun.ok())
                text += tr("; the default launch %1 took %2 ms (best is %3× as fast)")
                            .arg(QString::fromStdString(launchShapeLabel(tune.defaultRun.local, tune.defaultRun.localSource)))
                            .arg(tune.defaultRun.kernelMs.median, 0, 'g', 4)
                            .arg(tune.speedupOverDefault(), 0, 'f', 2);
        } else {
            text = tr("No shape ran.");
        }
        if (tune.cancelled)
            text += tr(" (cancelled)");
        m_summary->setText(text);
        updateActions();
        emit tuneFinished();
    });
    connect(m_worker, &BenchWorker::failed, this, [this](const QString &message) {
        m_summary->setText(tr("Tuning could not start: %1").arg(message));
        updateActions();
        emit tuneFinished();
    });
    updateActions();
}

void TunerPage::setInput(const std::shared_ptr<const Image> &image, const QString &)
{
    m_request.input = image; // the shell's next request carries it too; until then this one does
    updateActions();
}

void TunerPage::setRequest(const ComputeRequest &request)
{
    m_request = request;
    updateActions();
}

void TunerPage::updateActions()
{
    const bool busy = m_worker->isBusy();
    const bool can = !busy && m_request.input && !m_request.engine.isCpu() && !m_request.run.variant.empty();
    m_tuneAct->setEnabled(can);
    m_tuneButton->setEnabled(can);
    m_cancel->setEnabled(busy);
    m_apply->setEnabled(!busy && m_map->tune().best >= 0);
}

bool TunerPage::startTune()
{
    if (m_worker->isBusy() || !m_request.input || m_request.engine.isCpu() || m_request.run.variant.empty())
        return false;
    for (QWidget *w = parentWidget(); w; w = w->parentWidget())
        if (auto *tabs = qobject_cast<QTabWidget *>(w)) {
            tabs->setCurrentWidget(this);
            break;
        }
    BenchJob job;
    job.kind = BenchJob::Tune;
    job.device = m_request.engine.device;
    job.input = m_request.input;
    job.run = m_request.run;
    job.run.keepOutput = false;
    job.run.repeat = std::min(job.run.repeat, 3);
    const FilterSpec *filter = findFilter(job.run.filter);
    const VariantSpec *variant = filter ? filter->variant(job.run.variant) : nullptr;
    if (!variant)
        return false;
    const std::vector<LocalSize> shapes = tuneShapes(job.device, *variant, job.tune);
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
    m_progress->setRange(0, int(shapes.size()));
    m_progress->setValue(0);
    m_summary->setText(tr("Tuning %1 / %2 on %3…")
                           .arg(QString::fromStdString(job.run.filter), QString::fromStdString(job.run.variant),
                                QString::fromStdString(job.device.name)));
    m_tunedDevice = job.device;
    m_tunedFormat = job.run.params.format;
    if (!m_worker->start(job))
        return false;
    updateActions();
    return true;
}

void TunerPage::cancelTune()
{
    m_worker->cancel();
}

bool TunerPage::applyBest()
{
    const auto entry = tuningEntry(m_tunedDevice, m_map->tune(), m_tunedFormat);
    if (!entry)
        return false;
    TuningDb &db = *workbenchTuningDb();
    db.put(*entry);
    std::string error;
    const QString shape = QString::fromStdString(entry->local.toString());
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

} // namespace fwb
