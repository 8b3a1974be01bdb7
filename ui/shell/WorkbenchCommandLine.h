// WorkbenchCommandLine: filter-workbench's options (QCommandLineParser) and how they set up the
// window: the run's controls (device, format, filter, variant, parameters, repeats, transfers, work-group
// shape), the view, present mode (on the race or its N-body demo), the Compute Lab and the lesson. The
// screenshot options are read into a ScreenshotPlan (ui/pages/ScreenshotJob.h) for ScreenshotDriver. Every refusal is "filter-workbench:
// <reason>" on stderr and exit 2.
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>

#include "ScreenshotJob.h"

#include <optional>

class QCoreApplication;

namespace fwb {

class LabPage;
class MainWindow;
class RacePage;

class WorkbenchCommandLine
{
public:
    WorkbenchCommandLine(); // declares every option

    // --help and --version print text and exit: they must work over ssh and in CI, where creating a
    // QApplication without a display aborts before the parser ever sees the option.
    static bool wantsTextOnly(int argc, char *argv[]);
    // Parses the application's arguments; --help, --version and unknown options print and exit.
    void process(const QCoreApplication &app);
    void process(const QStringList &arguments); // the same from a list, the program's name first (tests)

    bool screenshot() const { return m_parser.isSet(m_screenshot); }
    bool editorScreenshot() const { return screenshot() && m_parser.isSet(m_editor); }
    // --present --lab nbody: the window opens in present mode on the N-body demo, the stars moving.
    bool presentNBody() const { return m_parser.isSet(m_present) && m_parser.value(m_lab) == QLatin1String("nbody"); }
    ScreenshotPlan screenshotPlan() const;
    // --lesson [STEP]: the lesson's step (1-6; the value may be left out: 1), nullopt without --lesson.
    std::optional<int> lessonStep() const;

    // Sets the window up as the options say, shows it and opens the image (or the test card); with
    // --screenshot it also sizes it and turns auto-run off. Returns 0, or 2 after printing the reason.
    // imageLoaded() then says whether the image opened (a failed load still shows the window).
    int setUp(MainWindow &window);
    bool imageLoaded() const { return m_loaded; }
    RacePage *racePage() const { return m_racePage; }
    LabPage *labPage() const { return m_labPage; } // only with --lab, not with --present

    // "filter-workbench: MESSAGE" on stderr; returns 2.
    static int fail(const QString &message);

private:
    int setUpControls(MainWindow &window);
    int setUpPages(MainWindow &window);

    QCommandLineParser m_parser;
    QCommandLineOption m_screenshot, m_image, m_filter, m_variant, m_param, m_view, m_device, m_shape, m_format,
        m_repeat, m_transfer, m_allVariants, m_size, m_race, m_tune, m_sweep, m_duel, m_duelWith, m_report,
        m_present, m_lab, m_labSize, m_editor, m_editorRun, m_editorLimit, m_lesson;
    bool m_loaded = true;
    RacePage *m_racePage = nullptr;
    LabPage *m_labPage = nullptr;
};

// Test hook (tests/gui/tst_gui_close_exit.cpp): FWB_TEST_CLOSE_DURING_RUN_MS=N closes the window N ms after
// the first run starts, as a user closing it mid-run; one line on stderr marks the moment (and whether
// the run was still going), so the test can time the process's exit from there.
void installCloseDuringRunHook(MainWindow &window);
// Measurement hooks (scripts/window-first-use.sh): with FWB_TRACE set, each line of the status bar's
// "Preparing kernels" goes to the trace (ui/widgets/StartupTrace.h); FWB_TEST_RACE_AFTER_MS=N starts the Race
// page's race N ms after the process started, as a user would, and traces each thing it says and, when it
// ends, each entry's build time and origin, so a script can tell which bars waited on a build.
void installMeasurementHooks(MainWindow &window);

} // namespace fwb
