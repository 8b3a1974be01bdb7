// ScreenshotDriver: filter-workbench --screenshot for the docs and the tests. After the window is set up
// (WorkbenchCommandLine) it runs the chosen variant once (with --all-variants every available one first),
// then the job a plan names (a page's race, tune, sweep or duel, the Kernel source dock's build or race,
// the Compute Lab's ladder or animation, or present mode's N-body demo), waits for it, lets the layout
// settle and saves the window (or present mode) as PNG, with the report when asked. Error states are worth
// a picture too: a failed load or run is captured and the exit code says so (1 a run or job failed, 2 it
// could not start).
#pragma once

#include "WorkbenchCommandLine.h"

#include <QObject>
#include <QStringList>

#include <functional>

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
    int execLab();
    int execPresentNBody();
    int preparePageJob();
    int prepareEditorJob();
    void grabAndExit(int code);
    void runNext();
    void finishOne(bool ok, const QString &error);

    MainWindow &m_window;
    ScreenshotPlan m_plan;
    bool m_loaded = true;
    RacePage *m_racePage = nullptr;
    LabPage *m_labPage = nullptr;
    int m_exitCode = 0;
    bool m_grabbing = false; // the Compute Lab's picture is taken once
    QStringList m_queue;     // variants still to run
    WorkbenchPage *m_shotPage = nullptr;
    std::function<bool()> m_startPageJob;
    std::function<QString()> m_pageJobProblem; // empty: the finished job has something to show
    std::function<bool()> m_startEditorJob;
};

} // namespace fwb
