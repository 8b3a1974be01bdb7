// ScreenshotDriver: filter-workbench --screenshot for the docs and the tests. After the window is set up
// (WorkbenchCommandLine) it asks every page for its ScreenshotJob (WorkbenchPage::screenshotJob: a page's
// race, tune, sweep or duel, the Compute Lab's ladder or animation, present mode's N-body demo) and the
// lesson for its own (--lesson), runs the chosen variant once (with --all-variants every available one
// first) unless the job replaces that run, then the job or the Kernel source dock's build or race, waits
// for it, lets the layout settle and saves the window (or present mode, or the lesson) as PNG, with the
// report when asked. Error states are worth a picture too: a failed load or run is captured and the exit
// code says so (1 a run or job failed, 2 it could not start).
#pragma once

#include "WorkbenchCommandLine.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

#include <functional>
#include <optional>

namespace fwb {

class MainWindow;
class WorkbenchPage;

class ScreenshotDriver : public QObject
{
    Q_OBJECT

public:
    ScreenshotDriver(MainWindow &window, const WorkbenchCommandLine &commandLine);

    // Runs the sequence in the application's event loop; the process's exit code.
    int exec();

private:
    int prepareJob();       // the pages' (or the lesson's) job the plan asks for; 0 or a refusal's code
    int prepareEditorJob();
    int runLoop();          // the event loop until the picture is saved; the exit code
    void jobEnded(const QString &problem);
    void grabAndExit(int code);
    void runNext();
    void finishOne(bool ok, const QString &error);

    MainWindow &m_window;
    ScreenshotPlan m_plan;
    bool m_loaded = true;
    int m_exitCode = 0;
    bool m_grabbing = false; // the picture is taken once
    bool m_waitingForCopySpeed = false; // a shown result whose copy speed comes after it (its timing panel)
    QStringList m_queue;     // variants still to run
    std::optional<ScreenshotJob> m_job;
    QString m_jobOwner; // the page's title, for "cannot start the Race page's job"
    QPointer<QWidget> m_shown; // the job's own window to capture (the lesson), else null
    std::function<bool()> m_startEditorJob;
};

} // namespace fwb
