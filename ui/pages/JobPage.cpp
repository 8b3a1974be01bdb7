// JobPage: the start/cancel controls, busy state and BenchWorker hand-off of the job pages (see JobPage.h).
#include "JobPage.h"

#include <QAction>
#include <QHBoxLayout>
#include <QProgressBar>
#include <QPushButton>

namespace fwb {

void JobPage::setInput(const std::shared_ptr<const Image> &image, const QString &)
{
    m_request.input = image;
    updateActions();
}

void JobPage::setRequest(const ComputeRequest &request)
{
    m_request = request;
    updateActions();
}

bool JobPage::isBusy() const
{
    return m_benchWorker && m_benchWorker->isBusy();
}

void JobPage::cancelJob()
{
    if (m_benchWorker)
        m_benchWorker->cancel();
}

void JobPage::createJobControls(const JobControls &controls)
{
    auto named = [](QObject *object, const QString &name) {
        if (!name.isEmpty())
            object->setObjectName(name);
    };
    m_startAct = new QAction(controls.actionText, this);
    named(m_startAct, controls.actionName);
    m_startAct->setToolTip(controls.actionToolTip);
    connect(m_startAct, &QAction::triggered, this, [this] { startJob(); });
    m_cancelAct = new QAction(tr("Cancel"), this);
    connect(m_cancelAct, &QAction::triggered, this, &JobPage::cancelJob);
    m_startButton = new QPushButton(controls.buttonText, this);
    named(m_startButton, controls.buttonName);
    connect(m_startButton, &QPushButton::clicked, this, [this] { startJob(); });
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    named(m_cancelButton, controls.cancelName);
    connect(m_cancelButton, &QPushButton::clicked, this, &JobPage::cancelJob);
    m_progress = new QProgressBar(this);
    named(m_progress, controls.progressName);
    m_progress->setFormat(controls.progressFormat);
}

QHBoxLayout *JobPage::createJobBar()
{
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_startButton);
    bar->addWidget(m_cancelButton);
    bar->addWidget(m_progress, 1);
    return bar;
}

void JobPage::updateActions()
{
    const bool busy = isBusy();
    const bool can = !busy && canStart();
    m_startAct->setEnabled(can);
    m_startButton->setEnabled(can);
    m_cancelAct->setEnabled(busy);
    m_cancelButton->setEnabled(busy);
}

void JobPage::finishJob()
{
    updateActions();
    emit jobFinished();
}

BenchWorker *JobPage::createBenchWorker()
{
    m_benchWorker = new BenchWorker(this);
    connect(m_benchWorker, &BenchWorker::progress, this, &JobPage::benchProgress);
    connect(m_benchWorker, &BenchWorker::finished, this, &JobPage::benchFinished);
    connect(m_benchWorker, &BenchWorker::failed, this, [this](const QString &message) {
        showFailure(message);
        finishJob();
    });
    return m_benchWorker;
}

BenchJob JobPage::benchJob() const
{
    BenchJob job;
    job.device = m_request.engine.device;
    job.input = m_request.input;
    job.run = m_request.run;
    return job;
}

bool JobPage::startBenchJob(const BenchJob &job, BenchWorker::Work work)
{
    if (!m_benchWorker || !m_benchWorker->start(job, work))
        return false;
    updateActions();
    return true;
}

ScreenshotJob JobPage::jobScreenshot(std::function<QString()> problem)
{
    ScreenshotJob job;
    job.start = [this, problem = std::move(problem)](ScreenshotJob::Done done) {
        connect(
            this, &JobPage::jobFinished, this, [problem, done] { done(problem()); }, Qt::SingleShotConnection);
        return startJob();
    };
    return job;
}

} // namespace fwb
