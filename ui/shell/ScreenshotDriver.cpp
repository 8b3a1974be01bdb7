// ScreenshotDriver: the --screenshot sequence (see the header).
#include "ScreenshotDriver.h"

#include "ControlPanel.h"
#include "KernelEditorDock.h"
#include "MainWindow.h"
#include "ReportExport.h"
#include "lesson/LessonScreenshot.h"
#include "lesson/LessonWindow.h"

#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>
#include <utility>

namespace fwb {

namespace {

int fail(const QString &message)
{
    return WorkbenchCommandLine::fail(message);
}

} // namespace

ScreenshotDriver::ScreenshotDriver(MainWindow &window, const WorkbenchCommandLine &commandLine)
    : m_window(window), m_plan(commandLine.screenshotPlan()), m_loaded(commandLine.imageLoaded())
{
}

// Let layouts and the chart settle, then save the window (or what the job or a page shows instead).
void ScreenshotDriver::grabAndExit(int code)
{
    QTimer::singleShot(400, this, [this, code] {
        QString reportError;
        if (m_plan.reportFile && !writeWorkbenchReport(m_window, *m_plan.reportFile, false, &reportError)) {
            m_exitCode = fail(reportError);
            QCoreApplication::exit(m_exitCode);
            return;
        }
        QWidget *shown = m_shown;
        for (WorkbenchPage *page : m_window.pages())
            if (!shown)
                shown = page->screenshotWidget();
        if (!shown)
            shown = &m_window;
        if (!shown->grab().save(m_plan.file, "PNG")) {
            m_exitCode = fail(QStringLiteral("cannot write %1").arg(m_plan.file));
        } else {
            std::printf("%s\n", qPrintable(QFileInfo(m_plan.file).absoluteFilePath()));
            m_exitCode = code;
        }
        QCoreApplication::exit(m_exitCode);
    });
}

int ScreenshotDriver::runLoop()
{
    const int rc = QCoreApplication::exec();
    return rc != 0 ? rc : m_exitCode;
}

int ScreenshotDriver::exec()
{
    if (!m_loaded) {
        fail(m_window.statusText()); // "Cannot load PATH: why"
        grabAndExit(2);
        QCoreApplication::exec();
        return m_exitCode;
    }
    if (const int code = prepareJob())
        return code;
    const QString waitingFor = m_job && !m_job->waitingFor.isEmpty() ? m_job->waitingFor : QStringLiteral("the run");
    QTimer::singleShot(m_job ? m_job->timeoutMs : 300000, this, [this, waitingFor] {
        m_exitCode = fail(QStringLiteral("timed out waiting for %1").arg(waitingFor));
        QCoreApplication::exit(m_exitCode);
    });
    if (m_job && !m_job->afterRun) { // the job instead of the window's run
        if (!m_job->start([this](const QString &problem) { jobEnded(problem); }))
            return fail(QStringLiteral("cannot start the %1's job").arg(m_jobOwner));
        return runLoop();
    }
    if (const int code = prepareEditorJob())
        return code;

    // Optionally every available variant (history), then the chosen one.
    ControlPanel *controls = m_window.controls();
    const QString chosen = controls->variantName();
    if (m_plan.allVariants)
        for (const QString &name : controls->availableVariants())
            if (name != chosen)
                m_queue << name;
    m_queue << chosen;
    // A first run in this process measures the device's copy speed after its result: the picture waits for
    // it, so that the timing panel's "% of the device's copy speed" is in it, not "measuring...".
    connect(&m_window, &MainWindow::resultShown, this, [this](const ComputeResult &result) {
        m_waitingForCopySpeed = result.copyBandwidthPending;
        if (!m_waitingForCopySpeed)
            finishOne(true, {});
    });
    connect(&m_window, &MainWindow::copyBandwidthShown, this, [this] {
        if (std::exchange(m_waitingForCopySpeed, false))
            finishOne(true, {});
    });
    connect(&m_window, &MainWindow::runFailed, this,
            [this](const ComputeResult &r) { finishOne(false, QString::fromStdString(r.run.error)); });
    QTimer::singleShot(0, this, [this] { runNext(); });
    return runLoop();
}

// The job the plan asks for: the lesson's (--lesson), or the one a page answers with. A job that replaces
// the window's run (the Compute Lab, present mode's N-body demo) is taken at once; the jobs after the run
// (race, tune, sweep, duel) capture one page each. Returns 0, or the exit code of a refusal.
int ScreenshotDriver::prepareJob()
{
    if (m_plan.lessonStep) {
        LessonWindow *lesson = m_window.showLesson();
        lesson->resize(m_window.size()); // the screenshot's --size, not whatever screen this runs on
        m_job = lessonScreenshotJob(*lesson, *m_plan.lessonStep);
        m_jobOwner = QStringLiteral("lesson");
        m_shown = m_job->shown;
        return 0;
    }
    int afterRun = 0;
    for (WorkbenchPage *page : m_window.pages()) {
        std::optional<ScreenshotJob> job = page->screenshotJob(m_plan);
        if (!job)
            continue;
        if (!job->refusal.isEmpty())
            return fail(job->refusal);
        m_job = std::move(job);
        m_jobOwner = QStringLiteral("%1 page").arg(page->title());
        m_shown = m_job->shown;
        if (!m_job->afterRun)
            return 0;
        ++afterRun;
    }
    if (afterRun > 1)
        return fail(QStringLiteral("--race, --tune, --sweep and --duel capture one page each: pick one"));
    return 0;
}

void ScreenshotDriver::jobEnded(const QString &problem)
{
    if (m_grabbing)
        return;
    m_grabbing = true;
    if (!problem.isEmpty())
        fail(problem);
    grabAndExit(problem.isEmpty() ? 0 : 1);
}

// Kernel editor screenshots: after the run, the file in the "Kernel source" dock, built or raced; the
// picture is taken when the dock's job has finished (a failed build is what some pictures show).
int ScreenshotDriver::prepareEditorJob()
{
    if (!m_plan.editorFile)
        return 0;
    auto *dock = m_window.findChild<KernelEditorDock *>();
    QFile kernel(*m_plan.editorFile);
    if (!dock || !kernel.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read --editor %1: %2").arg(kernel.fileName(), kernel.errorString()));
    const QString text = QString::fromUtf8(kernel.readAll());
    if (m_plan.editorLimitS)
        dock->setTimeoutS(*m_plan.editorLimitS);
    m_startEditorJob = [window = &m_window, dock, text, runIt = m_plan.editorRun] {
        dock->show();
        dock->raise();
        window->resizeDocks({dock}, {window->height() * 11 / 20}, Qt::Vertical);
        const QStringList before = dock->source().split(QLatin1Char('\n')), after = text.split(QLatin1Char('\n'));
        dock->setSource(text);
        int changed = 0; // the first edited line, in view
        while (changed < after.size() && changed < before.size() && before[changed] == after[changed])
            ++changed;
        dock->goToLine(changed + 1);
        runIt ? dock->run() : dock->build();
        return dock->isBusy();
    };
    auto ended = [this, dock](bool) {
        std::fprintf(stderr, "filter-workbench: editor: %s\n", qPrintable(dock->statusText()));
        grabAndExit(0);
    };
    connect(dock, &KernelEditorDock::buildFinished, this, ended);
    connect(dock, &KernelEditorDock::runFinished, this, ended);
    return 0;
}

void ScreenshotDriver::runNext()
{
    m_window.controls()->setVariantName(m_queue.takeFirst());
    if (!m_window.startRun()) {
        fail(QStringLiteral("cannot run: %1").arg(m_window.statusText()));
        m_queue.clear();
        grabAndExit(2);
    }
}

void ScreenshotDriver::finishOne(bool ok, const QString &error)
{
    if (!m_queue.isEmpty()) {
        runNext();
        return;
    }
    if (!ok)
        std::fprintf(stderr, "filter-workbench: last run failed: %s\n", qPrintable(error));
    if (ok && m_startEditorJob) {
        if (!m_startEditorJob()) {
            fail(QStringLiteral("the kernel editor did not start its job"));
            grabAndExit(2);
        }
        return;
    }
    if (ok && m_job) {
        if (!m_job->start([this](const QString &problem) { jobEnded(problem); })) {
            fail(QStringLiteral("cannot start the %1's job (no OpenCL device, or nothing to run?)").arg(m_jobOwner));
            grabAndExit(2);
        }
        return;
    }
    grabAndExit(ok ? 0 : 1);
}

} // namespace fwb
