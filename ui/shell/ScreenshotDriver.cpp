// ScreenshotDriver: the --screenshot sequence (see the header).
#include "ScreenshotDriver.h"

#include "ControlPanel.h"
#include "DuelPage.h"
#include "KernelEditorDock.h"
#include "LabPage.h"
#include "LabViews.h"
#include "NBodyDemo.h"
#include "RacePresentation.h"
#include "MainWindow.h"
#include "RacePage.h"
#include "ReportExport.h"
#include "SweepPage.h"
#include "TuneHeatMap.h"
#include "TunerPage.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>

namespace fwb {

namespace {

int fail(const QString &message)
{
    return WorkbenchCommandLine::fail(message);
}

} // namespace

ScreenshotDriver::ScreenshotDriver(MainWindow &window, const WorkbenchCommandLine &commandLine)
    : m_window(window),
      m_plan(commandLine.screenshotPlan()),
      m_loaded(commandLine.imageLoaded()),
      m_racePage(commandLine.racePage()),
      m_labPage(commandLine.labPage())
{
}

// Let layouts and the chart settle, then save the window (or present mode).
void ScreenshotDriver::grabAndExit(int code)
{
    QTimer::singleShot(400, this, [this, code] {
        QString reportError;
        if (m_plan.reportFile && !writeWorkbenchReport(m_window, *m_plan.reportFile, false, &reportError)) {
            m_exitCode = fail(reportError);
            QCoreApplication::exit(m_exitCode);
            return;
        }
        QWidget *shown = m_racePage && m_racePage->presentation() && m_racePage->presentation()->isVisible()
                             ? m_racePage->presentation()
                             : static_cast<QWidget *>(&m_window);
        if (!shown->grab().save(m_plan.file, "PNG")) {
            m_exitCode = fail(QStringLiteral("cannot write %1").arg(m_plan.file));
        } else {
            std::printf("%s\n", qPrintable(QFileInfo(m_plan.file).absoluteFilePath()));
            m_exitCode = code;
        }
        QCoreApplication::exit(m_exitCode);
    });
}

int ScreenshotDriver::exec()
{
    if (!m_loaded) {
        fail(m_window.statusText()); // "Cannot load PATH: why"
        grabAndExit(2);
        QCoreApplication::exec();
        return m_exitCode;
    }
    if (m_labPage)
        return execLab();
    if (m_plan.presentNBody)
        return execPresentNBody();
    if (const int code = preparePageJob())
        return code;
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
    connect(&m_window, &MainWindow::resultShown, this, [this] { finishOne(true, {}); });
    connect(&m_window, &MainWindow::runFailed, this,
            [this](const ComputeResult &r) { finishOne(false, QString::fromStdString(r.run.error)); });
    QTimer::singleShot(m_shotPage ? 590000 : 300000, this, [this] {
        m_exitCode = fail(QStringLiteral("timed out waiting for the run"));
        QCoreApplication::exit(m_exitCode);
    });
    QTimer::singleShot(0, this, [this] { runNext(); });
    const int rc = QCoreApplication::exec();
    return rc != 0 ? rc : m_exitCode;
}

// Compute Lab screenshots: the ladder once every rung is in; the animation once both sides have a rate
// and have run a few seconds.
int ScreenshotDriver::execLab()
{
    auto grabOnce = [this](int code) {
        if (!m_grabbing) {
            m_grabbing = true;
            grabAndExit(code);
        }
    };
    connect(m_labPage, &LabPage::ladderFinished, this, [grabOnce] { grabOnce(0); });
    connect(m_labPage, &LabPage::labFailed, this, [grabOnce](const QString &message) {
        fail(message);
        grabOnce(1);
    });
    QElapsedTimer clock;
    clock.start();
    QTimer poll;
    connect(&poll, &QTimer::timeout, this, [this, &clock, grabOnce] {
        const bool rates = m_labPage->cpuView()->stepsPerSecond() > 0 && m_labPage->deviceView()->stepsPerSecond() > 0;
        if ((rates && clock.elapsed() > 5000) || clock.elapsed() > 30000)
            grabOnce(rates ? 0 : 1);
    });
    if (m_labPage->workload() == LabPage::Workload::NBody)
        poll.start(200);
    QTimer::singleShot(600000, this,
                       [] { QCoreApplication::exit(fail(QStringLiteral("timed out waiting for the Compute Lab"))); });
    QTimer::singleShot(0, m_labPage, [lab = m_labPage] { lab->start(); });
    const int rc = QCoreApplication::exec();
    return rc != 0 ? rc : m_exitCode;
}

// --present --lab nbody: present mode's N-body demo, taken once both sides have a rate and the stars have
// moved a few seconds (as the Compute Lab's animation).
int ScreenshotDriver::execPresentNBody()
{
    auto *present = m_racePage ? qobject_cast<RacePresentation *>(m_racePage->presentation()) : nullptr;
    NBodyDemo *demo = present ? present->nbodyDemo() : nullptr;
    if (!demo)
        return fail(QStringLiteral("present mode is not available"));
    connect(demo, &NBodyDemo::failed, this, [this](const QString &message) {
        fail(message);
        if (!m_grabbing) {
            m_grabbing = true;
            grabAndExit(1);
        }
    });
    QElapsedTimer clock;
    clock.start();
    QTimer poll;
    connect(&poll, &QTimer::timeout, this, [this, demo, &clock] {
        const bool rates = demo->cpuView()->stepsPerSecond() > 0 && demo->deviceView()->stepsPerSecond() > 0;
        if (!m_grabbing && ((rates && clock.elapsed() > 5000) || clock.elapsed() > 30000)) {
            m_grabbing = true;
            grabAndExit(rates ? 0 : 1);
        }
    });
    poll.start(200);
    const int rc = QCoreApplication::exec();
    return rc != 0 ? rc : m_exitCode;
}

// Race, tuner, sweep and duel screenshots: after the ordinary run, the page's own job; the picture is
// taken when it has finished, and a job that cannot start or ends with nothing to show exits non-zero
// (with the picture of what went wrong). Returns 0, or the exit code of a refusal.
int ScreenshotDriver::preparePageJob()
{
    auto jobEnded = [this] {
        const QString problem = m_pageJobProblem();
        if (!problem.isEmpty())
            fail(problem);
        grabAndExit(problem.isEmpty() ? 0 : 1);
    };
    for (WorkbenchPage *page : m_window.pages()) {
        if (auto *race = qobject_cast<RacePage *>(page); race && m_plan.race) {
            m_shotPage = race;
            m_startPageJob = [race] { return race->startRace(); };
            m_pageJobProblem = [race] {
                return race->race().winner(RaceMetric::EndToEnd) < 0 ? QStringLiteral("no variant finished the race")
                                                                     : QString();
            };
            connect(race, &RacePage::raceFinished, this, jobEnded);
        } else if (auto *tuner = qobject_cast<TunerPage *>(page); tuner && m_plan.tune) {
            m_shotPage = tuner;
            m_startPageJob = [tuner] { return tuner->startTune(); };
            m_pageJobProblem = [tuner] {
                return tuner->heatMap()->tune().best < 0 ? QStringLiteral("no work-group shape ran") : QString();
            };
            connect(tuner, &TunerPage::tuneFinished, this, jobEnded);
        } else if (auto *sweep = qobject_cast<SweepPage *>(page); sweep && m_plan.sweep) {
            m_shotPage = sweep;
            m_startPageJob = [sweep] { return sweep->startSweep(); };
            m_pageJobProblem = [sweep] {
                return sweep->pointCount() == 0 ? QStringLiteral("no run of the sweep produced a time") : QString();
            };
            connect(sweep, &SweepPage::sweepFinished, this, jobEnded);
        } else if (auto *duel = qobject_cast<DuelPage *>(page); duel && m_plan.duel) {
            m_shotPage = duel;
            if (m_plan.duelWith && !duel->setSideSpec(1, *m_plan.duelWith))
                return fail(QStringLiteral("unknown --duel-with device '%1'").arg(*m_plan.duelWith));
            duel->setSideSpec(0, m_window.controls()->deviceSpec());
            m_startPageJob = [duel] { return duel->startDuel(); };
            m_pageJobProblem = [duel] {
                return duel->hasResult(0) && duel->hasResult(1) ? QString() : QStringLiteral("a side of the duel failed");
            };
            connect(duel, &DuelPage::duelFinished, this, jobEnded);
        }
    }
    if (m_shotPage && (int(m_plan.race) + int(m_plan.tune) + int(m_plan.sweep) + int(m_plan.duel)) > 1)
        return fail(QStringLiteral("--race, --tune, --sweep and --duel capture one page each: pick one"));
    return 0;
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
    if (ok && m_shotPage) {
        if (!m_startPageJob()) {
            fail(QStringLiteral("cannot start the %1 page's job (no OpenCL device, or nothing to run?)")
                     .arg(m_shotPage->title()));
            grabAndExit(2);
        }
        return;
    }
    grabAndExit(ok ? 0 : 1);
}

} // namespace fwb
