// ScreenshotJob: what a --screenshot run asks of the window (ScreenshotPlan, read from filter-workbench's
// options by WorkbenchCommandLine) and a page's answer to it (ScreenshotJob): the job whose end the
// picture waits for. ScreenshotDriver (ui/shell) asks every page in turn; it knows no page by its type.
#pragma once

#include <QString>

#include <functional>
#include <optional>

class QObject;
class QWidget;

namespace fwb {

// What a --screenshot run does after the window is set up (ScreenshotDriver).
struct ScreenshotPlan
{
    QString file;                      // --screenshot FILE (PNG)
    std::optional<QString> reportFile; // --report FILE: File > Export Report's HTML too
    bool allVariants = false;          // every available variant first (the history chart)
    bool race = false, tune = false, sweep = false, duel = false; // the page whose job is captured
    std::optional<QString> duelWith;   // the duel's second device
    std::optional<QString> editorFile; // --editor FILE: built (or raced, editorRun) in the Kernel source dock
    bool editorRun = false;
    std::optional<double> editorLimitS; // --editor-limit S
    bool lab = false;                   // --lab without --present: the Compute Lab page's ladder or animation
    bool presentNBody = false;          // --present --lab nbody: present mode's N-body demo, animated a while
    std::optional<int> lessonStep;      // --lesson [STEP]: the lesson window at this step (1-6)
};

// A page's (or the lesson's) job for the picture.
struct ScreenshotJob
{
    // Called once the picture may be taken: an empty problem means the job has something to show; else
    // the reason, printed, and the picture of what went wrong is taken with exit code 1.
    using Done = std::function<void(const QString &problem)>;

    // Starts the job; it calls `done` once, later (never from inside start). False: the job could not
    // start (exit 2).
    std::function<bool(Done done)> start;
    // After the window's ordinary run (race, tune, sweep, duel), or instead of it, at once (the Compute
    // Lab, present mode's N-body demo, the lesson).
    bool afterRun = true;
    // What the job waits for, for the timeout's message ("the run" when empty).
    QString waitingFor;
    // How long the whole sequence may take before it gives up.
    int timeoutMs = 590000;
    // Not empty: the plan cannot be carried out as asked (an unknown device, ...); printed, exit 2
    // before anything runs.
    QString refusal;
    // The window to capture instead of the main window (null: the pages' screenshotWidget(), else the
    // main window).
    QWidget *shown = nullptr;
};

// For animations: calls done("") once `hasRates` has held and the animation has run 5 s, or done(problem)
// after 30 s without rates; polled on a timer that `owner` owns (gone with it).
void whenAnimated(QObject *owner, std::function<bool()> hasRates, ScreenshotJob::Done done, const QString &problem);

} // namespace fwb
