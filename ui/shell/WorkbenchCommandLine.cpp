// WorkbenchCommandLine: filter-workbench's options and the window they set up (see the header).
#include "WorkbenchCommandLine.h"

#include "BenchWorker.h"
#include "ComputeWorker.h"
#include "ControlPanel.h"
#include "LabPage.h"
#include "MainWindow.h"
#include "RacePage.h"
#include "RacePresentation.h"
#include "PrepareAhead.h"
#include "StartupTrace.h"
#include "lesson/LessonSteps.h"
#include "lesson/LessonWindow.h"

#include <QComboBox>
#include <QFile>
#include <QCoreApplication>
#include <QRegularExpression>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <ctime>
#include <optional>
#include <unistd.h>

namespace fwb {

namespace {

QCommandLineOption option(const char *name, const char *description, const char *valueName = nullptr,
                          const char *defaultValue = nullptr)
{
    return QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(description),
                              valueName ? QString::fromLatin1(valueName) : QString(),
                              defaultValue ? QString::fromLatin1(defaultValue) : QString());
}

// The value of a whole-number option if it is one and at least `minimum`.
std::optional<int> wholeNumberAtLeast(const QString &text, int minimum)
{
    bool ok = false;
    const int n = text.toInt(&ok);
    return ok && n >= minimum ? std::optional<int>(n) : std::nullopt;
}

} // namespace

WorkbenchCommandLine::WorkbenchCommandLine()
    : m_screenshot(option("screenshot",
                          "Run once, save the window to FILE (PNG), exit. "
                          "A failed load or run is captured too (exit 1 or 2).",
                          "FILE")),
      m_image(option("image", "Image to open.", "PATH")),
      m_filter(option("filter", "Filter name (filter-bench list).", "F")),
      m_variant(option("variant", "Variant name.", "V")),
      m_param(option("param", "Filter parameter, e.g. sigma=2.5 (repeatable).", "KEY=VALUE")),
      m_view(option("view", "side, split or diff.", "MODE")),
      m_device(option("device", "P:D, cpu-single or cpu-multi.", "SPEC")),
      m_shape(option("work-group", "auto or WxH.", "WxH")),
      m_format(option("format", "gray8, rgb888 or rgba8888.", "FORMAT")),
      m_repeat(option("repeat", "Timed repeats per run.", "N")),
      m_transfer(option("transfer",
                        "pageable, pinned, zero_copy, output_mapped or svm (the Run "
                        "box's Transfers choice).",
                        "MODE")),
      m_allVariants(option("all-variants", "With --screenshot: run every available variant "
                                           "first, so the history chart is filled.")),
      m_size(option("size", "Window size for screenshots.", "WxH", "1600x1000")),
      m_race(option("race", "With --screenshot: race every variant and capture the Race page.")),
      m_tune(option("tune", "With --screenshot: tune the work-group of the variant and "
                            "capture the Tuner page.")),
      m_sweep(option("sweep", "With --screenshot: sweep the filter's main parameter (sigma, "
                              "radius) and capture the Sweep page.")),
      m_duel(option("duel", "With --screenshot: run the variant on two devices (--duel-with "
                            "names the second; default another device, else the same one) "
                            "and capture the Duel page.")),
      m_duelWith(option("duel-with", "The duel's second device: P:D, cpu-single or cpu-multi.", "SPEC")),
      m_report(option("report",
                      "With --screenshot: also write File > Export Report's HTML to FILE "
                      "when the run (and --race/--tune/--sweep/--duel) ends; an "
                      "existing FILE is not replaced.",
                      "FILE")),
      m_present(option("present", "Open in present mode (View > Present, F11): the race full "
                                  "screen, started with its button, Space or Enter; Esc or F11 "
                                  "leaves. With --lab nbody: open it on the N-body demo, the stars "
                                  "already moving. With --race --screenshot: capture present mode "
                                  "when the race ends.")),
      m_lab(option("lab",
                   "Open the Compute Lab page on this workload (with --present: nbody only, "
                   "present mode's N-body demo); with --screenshot, run the ladder to the "
                   "end or animate N-body for a few seconds.",
                   "matmul|nbody")),
      m_labSize(option("lab-size", "Compute Lab size: matrix n or bodies (not with --present).", "N")),
      m_editor(option("editor",
                      "With --screenshot: after the run, put FILE (OpenCL C) in the "
                      "Kernel source dock, build it (or --editor-run: race it against "
                      "the unedited variant) and capture the window.",
                      "FILE")),
      m_editorRun(option("editor-run", "With --editor: run, not just build.")),
      m_editorLimit(option("editor-limit", "With --editor: the kernel's time limit in seconds.", "S")),
      m_lesson(option("lesson",
                      "Open Help > Show the Lesson at STEP (1-6; STEP may be left out: 1). With "
                      "--screenshot: let it measure here, go to STEP (the live step 6 for a few "
                      "seconds) and capture the lesson window.",
                      "STEP"))
{
    m_parser.setApplicationDescription(QStringLiteral(
        "Compare OpenCL image-filter kernel variants.\n\n"
        "Present mode (View > Present, F11, or --present): the race full screen for a class. A large\n"
        "\"Start the race\" button (or Space, Enter) races every way of running the filter on the\n"
        "picture; it shows the device in plain words, the picture before and after, the winner and\n"
        "why it wins. N switches to the N-body demo (stars moved by the CPU and by the device side by\n"
        "side, each with its steps per second) and back; --present --lab nbody opens it there. Esc or\n"
        "F11 leaves it."));
    m_parser.addHelpOption();
    m_parser.addVersionOption();
    m_parser.addPositionalArgument(QStringLiteral("image"), QStringLiteral("Image to open (default: test card)."));
    m_parser.addOptions({m_race, m_tune, m_sweep, m_duel, m_duelWith, m_report, m_transfer, m_present});
    m_parser.addOptions({m_screenshot, m_image, m_filter, m_variant, m_param, m_view, m_device, m_shape, m_format,
                         m_repeat, m_allVariants, m_size});
    m_parser.addOptions({m_lab, m_labSize});
    m_parser.addOptions({m_editor, m_editorRun, m_editorLimit});
    m_parser.addOption(m_lesson);
}

bool WorkbenchCommandLine::wantsTextOnly(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        for (const char *option : {"-h", "--help", "-?", "--help-all", "-v", "--version"})
            if (std::strcmp(argv[i], option) == 0)
                return true;
    }
    return false;
}

void WorkbenchCommandLine::process(const QCoreApplication &app)
{
    Q_UNUSED(app); // QCoreApplication::arguments() is static, but needs the application to exist
    process(QCoreApplication::arguments());
}

void WorkbenchCommandLine::process(const QStringList &arguments)
{
    // --lesson's STEP may be left out, which QCommandLineParser has no way to say: a bare --lesson (not
    // followed by a whole number) is read as --lesson=1.
    static const QRegularExpression number(QStringLiteral("^[0-9]+$"));
    QStringList args = arguments;
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--"))
            break;
        if (args[i] == QLatin1String("--lesson") && (i + 1 >= args.size() || !number.match(args[i + 1]).hasMatch()))
            args[i] = QStringLiteral("--lesson=1");
    }
    m_parser.process(args);
}

std::optional<int> WorkbenchCommandLine::lessonStep() const
{
    if (!m_parser.isSet(m_lesson))
        return std::nullopt;
    const std::optional<int> step = wholeNumberAtLeast(m_parser.value(m_lesson), 1);
    return step && *step <= kLessonStepCount ? step : std::optional<int>(0);
}

int WorkbenchCommandLine::fail(const QString &message)
{
    std::fprintf(stderr, "filter-workbench: %s\n", qPrintable(message));
    return 2;
}

ScreenshotPlan WorkbenchCommandLine::screenshotPlan() const
{
    auto given = [this](const QCommandLineOption &o) {
        return m_parser.isSet(o) ? std::optional<QString>(m_parser.value(o)) : std::nullopt;
    };
    ScreenshotPlan plan;
    plan.file = m_parser.value(m_screenshot);
    plan.reportFile = given(m_report);
    plan.allVariants = m_parser.isSet(m_allVariants);
    plan.race = m_parser.isSet(m_race);
    plan.tune = m_parser.isSet(m_tune);
    plan.sweep = m_parser.isSet(m_sweep);
    plan.duel = m_parser.isSet(m_duel);
    plan.duelWith = given(m_duelWith);
    plan.editorFile = given(m_editor);
    plan.editorRun = m_parser.isSet(m_editorRun);
    plan.presentNBody = presentNBody();
    plan.lab = m_parser.isSet(m_lab) && !m_parser.isSet(m_present);
    plan.lessonStep = lessonStep();
    if (m_parser.isSet(m_editorLimit))
        plan.editorLimitS = m_parser.value(m_editorLimit).toDouble();
    return plan;
}

int WorkbenchCommandLine::setUp(MainWindow &window)
{
    if (const int code = setUpControls(window))
        return code;
    // The picture before the window is shown: with it the window asks its worker whether the run would launch,
    // which opens the device and builds the first program there, while the window is laid out and drawn.
    QString imagePath = m_parser.value(m_image);
    if (imagePath.isEmpty() && !m_parser.positionalArguments().isEmpty())
        imagePath = m_parser.positionalArguments().front();
    if (imagePath.isEmpty())
        window.openTestCard(); // first start and the README's main job: the built-in test card
    else
        m_loaded = window.loadFile(imagePath);
    window.show();
    return setUpPages(window);
}

int WorkbenchCommandLine::setUpControls(MainWindow &window)
{
    ControlPanel *controls = window.controls();
    if (screenshot()) {
        controls->setAutoRun(false); // the screenshot sequence decides what runs
        const QStringList wh = m_parser.value(m_size).split(QLatin1Char('x'));
        bool okW = false, okH = false;
        const int w = wh.value(0).toInt(&okW), h = wh.value(1).toInt(&okH);
        if (wh.size() != 2 || !okW || !okH || w < 200 || h < 200)
            return fail(QStringLiteral("bad --size '%1' (use WxH, e.g. 1600x1000)").arg(m_parser.value(m_size)));
        window.resize(w, h);
    }
    if (m_parser.isSet(m_device) && !controls->setDeviceSpec(m_parser.value(m_device)))
        return fail(QStringLiteral("unknown device '%1' (use P:D, cpu-single or cpu-multi)").arg(m_parser.value(m_device)));
    if (m_parser.isSet(m_format)) {
        const auto parsed = parsePixelFormat(m_parser.value(m_format).toStdString());
        if (!parsed || !controls->setPixelFormat(*parsed))
            return fail(QStringLiteral("unknown pixel format '%1'").arg(m_parser.value(m_format)));
    }
    if (m_parser.isSet(m_filter) && !controls->setFilterName(m_parser.value(m_filter)))
        return fail(QStringLiteral("unknown filter '%1' (filter-bench list shows them)").arg(m_parser.value(m_filter)));
    if (m_parser.isSet(m_variant) && !controls->setVariantName(m_parser.value(m_variant))) {
        const QString variant = m_parser.value(m_variant), why = controls->unavailableReason(variant);
        return fail(why.isEmpty() ? QStringLiteral("filter '%1' has no variant '%2' (available: %3)")
                                        .arg(controls->filterName(), variant,
                                             controls->availableVariants().join(QStringLiteral(", ")))
                                  : QStringLiteral("variant '%1' cannot run here: %2").arg(variant, why));
    }
    for (const QString &assignment : m_parser.values(m_param)) {
        const int eq = assignment.indexOf(QLatin1Char('='));
        bool ok = false;
        const double value = eq > 0 ? assignment.mid(eq + 1).toDouble(&ok) : 0.0;
        if (!ok || !controls->setParamValue(assignment.left(eq), value))
            return fail(QStringLiteral("bad --param '%1' (KEY=NUMBER; filter-bench list shows the keys of '%2')")
                            .arg(assignment, controls->filterName()));
    }
    if (m_parser.isSet(m_repeat)) {
        const std::optional<int> n = wholeNumberAtLeast(m_parser.value(m_repeat), 1);
        if (!n)
            return fail(QStringLiteral("bad --repeat '%1'").arg(m_parser.value(m_repeat)));
        controls->setRepeat(*n);
    }
    if (m_parser.isSet(m_transfer)) {
        if (!controls->setTransfer(m_parser.value(m_transfer)))
            return fail(QStringLiteral("unknown transfer mode '%1' (pageable, pinned, zero_copy, output_mapped or svm)")
                            .arg(m_parser.value(m_transfer)));
    }
    if (m_parser.isSet(m_shape) && !controls->setLocalSizeText(m_parser.value(m_shape)))
        return fail(QStringLiteral("bad work-group shape '%1' (auto or WxH)").arg(m_parser.value(m_shape)));
    if (m_parser.isSet(m_view)) {
        MainWindow::ViewMode mode;
        if (!MainWindow::parseViewMode(m_parser.value(m_view), &mode))
            return fail(QStringLiteral("unknown view '%1' (side, split or diff)").arg(m_parser.value(m_view)));
        window.setViewMode(mode);
    }
    return 0;
}

int WorkbenchCommandLine::setUpPages(MainWindow &window)
{
    if (const std::optional<int> step = lessonStep()) {
        if (*step == 0)
            return fail(QStringLiteral("bad --lesson '%1' (a step from 1 to %2)")
                            .arg(m_parser.value(m_lesson))
                            .arg(kLessonStepCount));
        for (const QCommandLineOption *other : {&m_race, &m_tune, &m_sweep, &m_duel, &m_present, &m_lab, &m_editor})
            if (m_parser.isSet(*other))
                return fail(QStringLiteral("--lesson opens the lesson window: it takes no --race, --tune, --sweep, "
                                           "--duel, --present, --lab or --editor"));
        if (!screenshot()) // a screenshot goes to the step once the lesson has measured (ScreenshotDriver)
            window.showLesson()->setStep(*step - 1);
        return 0;
    }
    for (WorkbenchPage *page : window.pages())
        if (auto *found = qobject_cast<RacePage *>(page))
            m_racePage = found;
    if (m_parser.isSet(m_present) && m_racePage) {
        m_racePage->setPresenting(true);
        if (screenshot()) { // the screenshot's --size, not whatever screen this runs on
            m_racePage->presentation()->showNormal();
            m_racePage->presentation()->resize(window.size());
        }
    }
    if (!m_parser.isSet(m_lab))
        return 0;
    const QString which = m_parser.value(m_lab);
    if (m_parser.isSet(m_present)) {
        // Present mode shows one Compute Lab workload, the N-body demo, in its own size for the device.
        if (which != QLatin1String("nbody") || m_parser.isSet(m_labSize))
            return fail(QStringLiteral("present mode shows the N-body demo only: --present --lab nbody, without --lab-size"));
        if (m_parser.isSet(m_race) || m_parser.isSet(m_duel) || m_parser.isSet(m_tune) || m_parser.isSet(m_sweep))
            return fail(QStringLiteral("--present --lab nbody opens the N-body demo: it takes no --race, --duel, "
                                       "--tune or --sweep (present mode's race: --present --race)"));
        auto *present = m_racePage ? qobject_cast<RacePresentation *>(m_racePage->presentation()) : nullptr;
        if (!present)
            return fail(QStringLiteral("present mode is not available"));
        present->showNBody(true);
        return 0;
    }
    for (WorkbenchPage *page : window.pages())
        if (auto *found = qobject_cast<LabPage *>(page))
            m_labPage = found;
    if (!m_labPage || (which != QLatin1String("matmul") && which != QLatin1String("nbody")))
        return fail(QStringLiteral("bad --lab '%1' (matmul or nbody)").arg(which));
    m_labPage->raiseTab();
    m_labPage->setWorkload(which == QLatin1String("nbody") ? LabPage::Workload::NBody : LabPage::Workload::Matmul);
    if (m_parser.isSet(m_labSize)) {
        const std::optional<int> n = wholeNumberAtLeast(m_parser.value(m_labSize), 16);
        if (!n)
            return fail(QStringLiteral("bad --lab-size '%1' (a whole number >= 16)").arg(m_parser.value(m_labSize)));
        m_labPage->setSize(*n);
    }
    return 0;
}

void installCloseDuringRunHook(MainWindow &window)
{
    const int closeMs = qEnvironmentVariableIntValue("FWB_TEST_CLOSE_DURING_RUN_MS");
    if (closeMs <= 0)
        return;
    QObject::connect(
        window.worker(), &ComputeWorker::runStarted, &window,
        [&window, closeMs] {
            QTimer::singleShot(closeMs, &window, [&window] {
                std::fprintf(stderr, "filter-workbench: test hook: closing the window (%s)\n",
                             window.isRunning() ? "run in progress" : "run already over");
                std::fflush(stderr);
                window.close();
            });
        },
        Qt::ConnectionType(Qt::QueuedConnection | Qt::SingleShotConnection));
}

namespace {

// Milliseconds since this process started (/proc/self/stat's start time, in clock ticks since boot).
double msSinceProcessStart()
{
    QFile stat(QStringLiteral("/proc/self/stat"));
    if (!stat.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray text = stat.readAll();
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' '); // after "pid (name) "
    if (fields.size() < 20)
        return 0;
    timespec now{};
    clock_gettime(CLOCK_BOOTTIME, &now);
    const double startMs = fields[19].toDouble() * 1000.0 / double(sysconf(_SC_CLK_TCK)); // field 22: starttime
    return now.tv_sec * 1000.0 + now.tv_nsec / 1e6 - startMs;
}

void trace(const QString &text)
{
    traceStartup(text.toUtf8().constData());
}

} // namespace

void installMeasurementHooks(MainWindow &window)
{
    QObject::connect(window.prepareAhead(), &PrepareAhead::statusChanged, &window,
                     [](const QString &text) { trace("prepare: " + text); });
    const int afterMs = qEnvironmentVariableIntValue("FWB_TEST_RACE_AFTER_MS");
    if (afterMs <= 0)
        return;
    RacePage *race = nullptr;
    for (WorkbenchPage *page : window.pages())
        if (auto *found = qobject_cast<RacePage *>(page))
            race = found;
    if (!race)
        return;
    // Every distinct line once (traceStartup keeps the first occurrence): each step and bar says its own.
    QObject::connect(race, &WorkbenchPage::statusMessage, &window, [](const QString &text) { trace("race: said " + text); });
    auto *worker = race->findChild<BenchWorker *>();
    // Entry name: when its first step came (a wait's start), on the steady clock.
    auto steps = std::make_shared<std::map<std::string, std::chrono::steady_clock::time_point>>();
    auto bars = std::make_shared<int>(0);
    if (worker)
        QObject::connect(worker, &BenchWorker::progress, &window, [steps, bars](const BenchProgress &progress) {
            if (const auto *step = std::get_if<BenchProgress::RaceStep>(&progress.what)) {
                steps->emplace(step->upcoming.name, std::chrono::steady_clock::now());
            } else if (const auto *e = std::get_if<RaceEntry>(&progress.what)) {
                const auto since = steps->find(e->name);
                const double stepToBar = since == steps->end() ? -1
                    : std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since->second).count();
                trace(QStringLiteral("race: bar %1 %2 step_to_bar_ms %3 build_ms %4 origin %5 title %6")
                          .arg(++*bars)
                          .arg(QString::fromStdString(e->name))
                          .arg(stepToBar, 0, 'f', 0)
                          .arg(e->result.buildMs, 0, 'f', 1)
                          .arg(e->result.buildOrigin.empty() ? QStringLiteral("-") : QString::fromStdString(e->result.buildOrigin))
                          .arg(QString::fromStdString(e->title)));
            }
        });
    QObject::connect(race, &JobPage::jobFinished, &window, [] { trace(QStringLiteral("race: finished")); });
    // Asked again every 250 ms while refused (no picture yet, the window's run still going), for a minute.
    auto *ask = new QTimer(&window);
    ask->setInterval(250);
    auto tries = std::make_shared<int>(0);
    const auto tryStart = [race, ask, tries] {
        trace(QStringLiteral("race: start asked"));
        if (race->startJob() || ++*tries > 240) {
            trace(race->isRacing() ? QStringLiteral("race: started") : QStringLiteral("race: refused"));
            ask->stop();
        } else if (!ask->isActive()) {
            ask->start();
        }
    };
    QObject::connect(ask, &QTimer::timeout, &window, tryStart);
    QTimer::singleShot(std::max(0, int(afterMs - msSinceProcessStart())), Qt::PreciseTimer, ask, tryStart);
}

} // namespace fwb
