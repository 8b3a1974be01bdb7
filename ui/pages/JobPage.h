// JobPage: the base of the window pages that run one long job at a time (Race, Tuner, Sweep, Duel).
// It holds what those pages share: the Run-menu action and its button, Cancel (a button and an
// action), the progress bar, the busy state that enables them, bringing the page's tab to the front,
// the shell's latest request and input (what the next job starts from), and, for the pages whose job
// runs on a BenchWorker, that worker with its failure path. A page keeps what is its own: what its
// job needs before it can start, how it builds the job, and how it shows progress and the result.
#pragma once

#include "BenchWorker.h"
#include "WorkbenchPage.h"

class QAction;
class QHBoxLayout;
class QProgressBar;
class QPushButton;

namespace fwb {

class JobPage : public WorkbenchPage
{
    Q_OBJECT

public:
    explicit JobPage(QWidget *parent = nullptr) : WorkbenchPage(parent) {}

    // Kept for the next job (the shell's next request carries the image too; until then this one
    // does); the start controls follow.
    void setInput(const std::shared_ptr<const Image> &image, const QString &description) override;
    void setRequest(const ComputeRequest &request) override;

    // A job is running (started and not yet finished, failed or cancelled).
    virtual bool isBusy() const;
    // The page's entry in the window's Run menu (it starts the job).
    QAction *startAction() const { return m_startAct; }

public slots:
    // Starts the page's job; false when one runs already or the page lacks what the job needs.
    virtual bool startJob() = 0;
    // Asks the running job to stop; it ends (finished, with what it has so far) soon after.
    virtual void cancelJob();

signals:
    // The job ended: finished, cancelled or failed; the page shows why.
    void jobFinished();

protected:
    // The shared controls' texts and object names ("" leaves an object name unset).
    struct JobControls
    {
        QString actionText;
        QString actionName;
        QString actionToolTip;
        QString buttonText;
        QString buttonName;
        QString cancelName;
        QString progressName;
        QString progressFormat;
    };
    // Makes the start action and button (both call startJob()), Cancel (cancelJob()) and the progress
    // bar. Called where the page made these before, so the focus order stays as it was.
    void createJobControls(const JobControls &controls);
    // The button, Cancel and the progress bar (stretched) in a row; the page adds its own after them.
    QHBoxLayout *createJobBar();

    // What the job needs besides an idle page (an input image, an OpenCL device, ...).
    virtual bool canStart() const = 0;
    // Enables start while idle and able to start, Cancel while busy. A page that has more to enable
    // overrides this and calls it first.
    virtual void updateActions();
    // The job ended: updateActions(), then jobFinished().
    void finishJob();

    // The BenchWorker pages: the worker, a child of the page; its `progress` goes to benchProgress(), its
    // `finished` to benchFinished(), its `failed` shows showFailure() and ends the job.
    BenchWorker *createBenchWorker();
    BenchWorker *benchWorker() const { return m_benchWorker; }
    // A job on the request's device, input, filter, variant and parameters.
    BenchJob benchJob() const;
    // Hands the job and its work (&BenchWorker::raceJob, ...) to the worker; on success updateActions()
    // (busy now). False: refused (busy).
    bool startBenchJob(const BenchJob &job, BenchWorker::Work work);
    // What the page's BenchWorker job reports as it goes, and its result (the kind of job the page starts;
    // benchFinished calls finishJob() when the page has shown it).
    virtual void benchProgress(const BenchProgress &progress) { Q_UNUSED(progress); }
    virtual void benchFinished(const BenchResult &result) { Q_UNUSED(result); }
    // A BenchWorker job could not run: the page says so (its summary line, its winner line, ...).
    virtual void showFailure(const QString &message) { Q_UNUSED(message); }

    // The screenshot job of a job page: startJob() after the window's run; done when jobFinished() comes,
    // with `problem()`'s answer (empty: the finished job has something to show).
    ScreenshotJob jobScreenshot(std::function<QString()> problem);

    ComputeRequest m_request; // the shell's latest: device, filter, variant, parameters, input
    QAction *m_startAct = nullptr;
    QAction *m_cancelAct = nullptr;
    QPushButton *m_startButton = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QProgressBar *m_progress = nullptr;

private:
    BenchWorker *m_benchWorker = nullptr;
};

} // namespace fwb
