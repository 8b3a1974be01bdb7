// filter-workbench: thin main of the GUI; the window lives in the fwb_ui library. Also takes
// screenshots (--screenshot) for the docs: run once, wait for the result, save the window as PNG.
#include "BuildVersion.h"
#include "ComputeWorker.h"
#include "ControlPanel.h"
#include "KernelEditorDock.h"
#include "LabPage.h"
#include "MainWindow.h"
#include "DuelPage.h"
#include "RacePage.h"
#include "ReportExport.h"
#include "SweepPage.h"
#include "TuneHeatMap.h"
#include "TunerPage.h"

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QIcon>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <cstring>
#include <functional>

namespace {

int fail(const QString &message)
{
    std::fprintf(stderr, "filter-workbench: %s\n", qPrintable(message));
    return 2;
}

// --help and --version print text and exit: they must work over ssh and in CI, where creating a
// QApplication without a display aborts before the parser ever sees the option.
bool wantsTextOnly(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        for (const char *option : {"-h", "--help", "-?", "--help-all", "-v", "--version"})
            if (std::strcmp(argv[i], option) == 0)
                return true;
    }
    return false;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication::setOrganizationName(QStringLiteral("OpenCLFilterWorkbench"));
    QCoreApplication::setApplicationName(QStringLiteral("filter-workbench"));
    QCoreApplication::setApplicationVersion(QStringLiteral(FWB_VERSION_LINE)); // "0.2.0 (commit 1a2b3c4)"

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Compare OpenCL image-filter kernel variants.\n\n"
        "Present mode (View > Present, F11, or --present): the race full screen for a class. A large\n"
        "\"Start the race\" button (or Space, Enter) races every way of running the filter on the\n"
        "picture; it shows the device in plain words, the picture before and after, the winner and\n"
        "why it wins. Esc or F11 leaves it."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("image"), QStringLiteral("Image to open (default: test card)."));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Run once, save the window to FILE (PNG), exit. "
                                                       "A failed load or run is captured too (exit 1 or 2)."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption image(QStringLiteral("image"), QStringLiteral("Image to open."), QStringLiteral("PATH"));
    const QCommandLineOption filter(QStringLiteral("filter"), QStringLiteral("Filter name (filter-bench list)."),
                                    QStringLiteral("F"));
    const QCommandLineOption variant(QStringLiteral("variant"), QStringLiteral("Variant name."), QStringLiteral("V"));
    const QCommandLineOption param(QStringLiteral("param"),
                                   QStringLiteral("Filter parameter, e.g. sigma=2.5 (repeatable)."),
                                   QStringLiteral("KEY=VALUE"));
    const QCommandLineOption view(QStringLiteral("view"), QStringLiteral("side, split or diff."), QStringLiteral("MODE"));
    const QCommandLineOption device(QStringLiteral("device"),
                                    QStringLiteral("P:D, cpu-single or cpu-multi."), QStringLiteral("SPEC"));
    const QCommandLineOption shape(QStringLiteral("work-group"), QStringLiteral("auto or WxH."), QStringLiteral("WxH"));
    const QCommandLineOption format(QStringLiteral("format"), QStringLiteral("gray8, rgb888 or rgba8888."),
                                    QStringLiteral("FORMAT"));
    const QCommandLineOption repeat(QStringLiteral("repeat"), QStringLiteral("Timed repeats per run."),
                                    QStringLiteral("N"));
    const QCommandLineOption transfer(QStringLiteral("transfer"),
                                      QStringLiteral("pageable, pinned, zero_copy, output_mapped or svm (the Run "
                                                     "box's Transfers choice)."),
                                      QStringLiteral("MODE"));
    const QCommandLineOption allVariants(QStringLiteral("all-variants"),
                                         QStringLiteral("With --screenshot: run every available variant "
                                                        "first, so the history chart is filled."));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Window size for screenshots."),
                                  QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    const QCommandLineOption raceShot(QStringLiteral("race"),
                                      QStringLiteral("With --screenshot: race every variant and capture the Race page."));
    const QCommandLineOption tuneShot(QStringLiteral("tune"),
                                      QStringLiteral("With --screenshot: tune the work-group of the variant and "
                                                     "capture the Tuner page."));
    const QCommandLineOption sweepShot(QStringLiteral("sweep"),
                                       QStringLiteral("With --screenshot: sweep the filter's main parameter (sigma, "
                                                      "radius) and capture the Sweep page."));
    const QCommandLineOption duelShot(QStringLiteral("duel"),
                                      QStringLiteral("With --screenshot: run the variant on two devices (--duel-with "
                                                     "names the second; default another device, else the same one) "
                                                     "and capture the Duel page."));
    const QCommandLineOption duelWith(QStringLiteral("duel-with"),
                                      QStringLiteral("The duel's second device: P:D, cpu-single or cpu-multi."),
                                      QStringLiteral("SPEC"));
    const QCommandLineOption reportOut(QStringLiteral("report"),
                                       QStringLiteral("With --screenshot: also write File > Export Report's HTML to FILE "
                                                      "when the run (and --race/--tune/--sweep/--duel) ends; an "
                                                      "existing FILE is not replaced."),
                                       QStringLiteral("FILE"));
    const QCommandLineOption present(QStringLiteral("present"),
                                     QStringLiteral("Open in present mode (View > Present, F11): the race full "
                                                    "screen, started with its button, Space or Enter; Esc or F11 "
                                                    "leaves. With --race --screenshot: capture present mode when "
                                                    "the race ends."));
    parser.addOptions({raceShot, tuneShot, sweepShot, duelShot, duelWith, reportOut, transfer, present});
    parser.addOptions({screenshot, image, filter, variant, param, view, device, shape, format, repeat,
                       allVariants, size});
    const QCommandLineOption lab(QStringLiteral("lab"),
                                 QStringLiteral("Open the Compute Lab page on this workload; with --screenshot, run "
                                                "the ladder to the end or animate N-body for a few seconds."),
                                 QStringLiteral("matmul|nbody"));
    const QCommandLineOption labSize(QStringLiteral("lab-size"),
                                     QStringLiteral("Compute Lab size: matrix n or bodies."), QStringLiteral("N"));
    parser.addOptions({lab, labSize});
    const QCommandLineOption editorShot(QStringLiteral("editor"),
                                        QStringLiteral("With --screenshot: after the run, put FILE (OpenCL C) in the "
                                                       "Kernel source dock, build it (or --editor-run: race it against "
                                                       "the unedited variant) and capture the window."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption editorRun(QStringLiteral("editor-run"), QStringLiteral("With --editor: run, not just build."));
    const QCommandLineOption editorLimit(QStringLiteral("editor-limit"),
                                         QStringLiteral("With --editor: the kernel's time limit in seconds."),
                                         QStringLiteral("S"));
    parser.addOptions({editorShot, editorRun, editorLimit});

    if (wantsTextOnly(argc, argv)) {
        QCoreApplication core(argc, argv);
        parser.process(core); // prints and exits
        return 0;
    }

    QApplication app(argc, argv);
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/filter-workbench.svg")));
    parser.process(app);

    const bool shot = parser.isSet(screenshot);
    QTemporaryDir shotDir; // editor screenshots keep their recovery file to themselves
    if (shot && parser.isSet(editorShot) && qEnvironmentVariableIsEmpty("FWB_EDITOR_RECOVERY"))
        qputenv("FWB_EDITOR_RECOVERY", shotDir.filePath(QStringLiteral("recovery.json")).toLocal8Bit());
    fwb::MainWindow window(!shot); // screenshots neither read nor write the user's settings
    fwb::ControlPanel *controls = window.controls();
    if (shot) {
        controls->setAutoRun(false); // the screenshot sequence below decides what runs
        const QStringList wh = parser.value(size).split(QLatin1Char('x'));
        bool okW = false, okH = false;
        const int w = wh.value(0).toInt(&okW), h = wh.value(1).toInt(&okH);
        if (wh.size() != 2 || !okW || !okH || w < 200 || h < 200)
            return fail(QStringLiteral("bad --size '%1' (use WxH, e.g. 1600x1000)").arg(parser.value(size)));
        window.resize(w, h);
    }
    QString imagePath = parser.value(image);
    if (imagePath.isEmpty() && !parser.positionalArguments().isEmpty())
        imagePath = parser.positionalArguments().front();
    if (parser.isSet(device) && !controls->setDeviceSpec(parser.value(device)))
        return fail(QStringLiteral("unknown device '%1' (use P:D, cpu-single or cpu-multi)").arg(parser.value(device)));
    if (parser.isSet(format)) {
        const auto parsed = fwb::parsePixelFormat(parser.value(format).toStdString());
        if (!parsed || !controls->setPixelFormat(*parsed))
            return fail(QStringLiteral("unknown pixel format '%1'").arg(parser.value(format)));
    }
    if (parser.isSet(filter) && !controls->setFilterName(parser.value(filter)))
        return fail(QStringLiteral("unknown filter '%1' (filter-bench list shows them)")
                        .arg(parser.value(filter)));
    if (parser.isSet(variant) && !controls->setVariantName(parser.value(variant))) {
        const QString why = controls->unavailableReason(parser.value(variant));
        return fail(why.isEmpty() ? QStringLiteral("filter '%1' has no variant '%2' (available: %3)")
                                        .arg(controls->filterName(), parser.value(variant),
                                             controls->availableVariants().join(QStringLiteral(", ")))
                                  : QStringLiteral("variant '%1' cannot run here: %2")
                                        .arg(parser.value(variant), why));
    }
    for (const QString &assignment : parser.values(param)) {
        const int eq = assignment.indexOf(QLatin1Char('='));
        bool ok = false;
        const double value = eq > 0 ? assignment.mid(eq + 1).toDouble(&ok) : 0.0;
        if (!ok || !controls->setParamValue(assignment.left(eq), value))
            return fail(QStringLiteral("bad --param '%1' (KEY=NUMBER; filter-bench list shows the keys of '%2')")
                            .arg(assignment, controls->filterName()));
    }
    if (parser.isSet(repeat)) {
        bool ok = false;
        const int n = parser.value(repeat).toInt(&ok);
        if (!ok || n < 1)
            return fail(QStringLiteral("bad --repeat '%1'").arg(parser.value(repeat)));
        controls->setRepeat(n);
    }
    if (parser.isSet(transfer)) {
        auto *combo = controls->findChild<QComboBox *>(QStringLiteral("transferCombo"));
        const int index = combo ? combo->findData(parser.value(transfer)) : -1;
        if (index < 0)
            return fail(QStringLiteral("unknown transfer mode '%1' (pageable, pinned, zero_copy, output_mapped or svm)")
                            .arg(parser.value(transfer)));
        combo->setCurrentIndex(index);
    }
    if (parser.isSet(shape) && !controls->setLocalSizeText(parser.value(shape)))
        return fail(QStringLiteral("bad work-group shape '%1' (auto or WxH)").arg(parser.value(shape)));
    if (parser.isSet(view)) {
        fwb::MainWindow::ViewMode mode;
        if (!fwb::MainWindow::parseViewMode(parser.value(view), &mode))
            return fail(QStringLiteral("unknown view '%1' (side, split or diff)").arg(parser.value(view)));
        window.setViewMode(mode);
    }
    window.show();
    bool loaded = true;
    if (imagePath.isEmpty())
        window.openTestCard(); // first start and the README's main job: the built-in test card
    else
        loaded = window.loadFile(imagePath);

    fwb::RacePage *racePage = nullptr;
    for (fwb::WorkbenchPage *page : window.pages())
        if (auto *found = qobject_cast<fwb::RacePage *>(page))
            racePage = found;
    if (parser.isSet(present) && racePage) {
        racePage->setPresenting(true);
        if (shot) { // the screenshot's --size, not whatever screen this runs on
            racePage->presentation()->showNormal();
            racePage->presentation()->resize(window.size());
        }
    }

    fwb::LabPage *labPage = nullptr;
    if (parser.isSet(lab)) {
        for (fwb::WorkbenchPage *page : window.pages())
            if (auto *found = qobject_cast<fwb::LabPage *>(page))
                labPage = found;
        const QString which = parser.value(lab);
        if (!labPage || (which != QLatin1String("matmul") && which != QLatin1String("nbody")))
            return fail(QStringLiteral("bad --lab '%1' (matmul or nbody)").arg(which));
        labPage->activate();
        labPage->setWorkload(which == QLatin1String("nbody") ? fwb::LabPage::Workload::NBody
                                                             : fwb::LabPage::Workload::Matmul);
        if (parser.isSet(labSize)) {
            bool ok = false;
            const int n = parser.value(labSize).toInt(&ok);
            if (!ok || n < 16)
                return fail(QStringLiteral("bad --lab-size '%1' (a whole number >= 16)").arg(parser.value(labSize)));
            labPage->setSize(n);
        }
    }

    if (!shot) {
        // Test hook (tests/tst_gui_close_exit.cpp): FWB_TEST_CLOSE_DURING_RUN_MS=N closes the window N ms
        // after the first run starts, as a user closing it mid-run; one line on stderr marks the moment
        // (and whether the run was still going), so the test can time the process's exit from there.
        if (const int closeMs = qEnvironmentVariableIntValue("FWB_TEST_CLOSE_DURING_RUN_MS"); closeMs > 0)
            QObject::connect(
                window.worker(), &fwb::ComputeWorker::runStarted, &window,
                [&window, closeMs] {
                    QTimer::singleShot(closeMs, &window, [&window] {
                        std::fprintf(stderr, "filter-workbench: test hook: closing the window (%s)\n",
                                     window.isRunning() ? "run in progress" : "run already over");
                        std::fflush(stderr);
                        window.close();
                    });
                },
                Qt::ConnectionType(Qt::QueuedConnection | Qt::SingleShotConnection));
        return app.exec();
    }

    const QString file = parser.value(screenshot);
    int exitCode = 0;
    // Let layouts and the chart settle, then save the window; error states are worth a picture too.
    auto grabAndExit = [&](int code) {
        QTimer::singleShot(400, &app, [&, code] {
            QString reportError;
            if (parser.isSet(reportOut) && !fwb::writeWorkbenchReport(window, parser.value(reportOut), false, &reportError)) {
                exitCode = fail(reportError);
                app.exit(exitCode);
                return;
            }
            QWidget *shown = racePage && racePage->presentation() && racePage->presentation()->isVisible()
                                 ? racePage->presentation()
                                 : static_cast<QWidget *>(&window);
            if (!shown->grab().save(file, "PNG")) {
                exitCode = fail(QStringLiteral("cannot write %1").arg(file));
            } else {
                std::printf("%s\n", qPrintable(QFileInfo(file).absoluteFilePath()));
                exitCode = code;
            }
            app.exit(exitCode);
        });
    };
    if (!loaded) {
        fail(window.statusText()); // "Cannot load PATH: why"
        grabAndExit(2);
        app.exec();
        return exitCode;
    }

    // Compute Lab screenshots: the ladder once every rung is in; the animation once both sides have a
    // rate and have run a few seconds.
    if (labPage) {
        bool grabbing = false;
        auto grabOnce = [&](int code) {
            if (!grabbing) {
                grabbing = true;
                grabAndExit(code);
            }
        };
        QObject::connect(labPage, &fwb::LabPage::ladderFinished, &app, [&] { grabOnce(0); });
        QObject::connect(labPage, &fwb::LabPage::labFailed, &app, [&](const QString &message) {
            fail(message);
            grabOnce(1);
        });
        QElapsedTimer clock;
        clock.start();
        QTimer poll;
        QObject::connect(&poll, &QTimer::timeout, &app, [&] {
            const bool rates = labPage->cpuView()->stepsPerSecond() > 0 && labPage->deviceView()->stepsPerSecond() > 0;
            if ((rates && clock.elapsed() > 5000) || clock.elapsed() > 30000)
                grabOnce(rates ? 0 : 1);
        });
        if (labPage->workload() == fwb::LabPage::Workload::NBody)
            poll.start(200);
        QTimer::singleShot(600000, &app, [&] { app.exit(fail(QStringLiteral("timed out waiting for the Compute Lab"))); });
        QTimer::singleShot(0, labPage, [labPage] { labPage->start(); });
        const int rc = app.exec();
        return rc != 0 ? rc : exitCode;
    }

    // Race, tuner, sweep and duel screenshots: after the ordinary run below, the page's own job; the
    // picture is taken when it has finished, and a job that cannot start or ends with nothing to show
    // exits non-zero (with the picture of what went wrong).
    fwb::WorkbenchPage *shotPage = nullptr;
    std::function<void()> pageJobEnded;
    std::function<bool()> startPageJob;
    std::function<QString()> pageJobProblem; // empty: the finished job has something to show
    for (fwb::WorkbenchPage *page : window.pages()) {
        if (auto *race = qobject_cast<fwb::RacePage *>(page); race && parser.isSet(raceShot)) {
            shotPage = race;
            startPageJob = [race] { return race->startRace(); };
            pageJobProblem = [race] {
                return race->race().winner(fwb::RaceMetric::EndToEnd) < 0 ? QStringLiteral("no variant finished the race")
                                                                         : QString();
            };
            QObject::connect(race, &fwb::RacePage::raceFinished, &app, [&] { pageJobEnded(); });
        } else if (auto *tuner = qobject_cast<fwb::TunerPage *>(page); tuner && parser.isSet(tuneShot)) {
            shotPage = tuner;
            startPageJob = [tuner] { return tuner->startTune(); };
            pageJobProblem = [tuner] {
                return tuner->heatMap()->tune().best < 0 ? QStringLiteral("no work-group shape ran") : QString();
            };
            QObject::connect(tuner, &fwb::TunerPage::tuneFinished, &app, [&] { pageJobEnded(); });
        } else if (auto *sweep = qobject_cast<fwb::SweepPage *>(page); sweep && parser.isSet(sweepShot)) {
            shotPage = sweep;
            startPageJob = [sweep] { return sweep->startSweep(); };
            pageJobProblem = [sweep] {
                return sweep->pointCount() == 0 ? QStringLiteral("no run of the sweep produced a time") : QString();
            };
            QObject::connect(sweep, &fwb::SweepPage::sweepFinished, &app, [&] { pageJobEnded(); });
        } else if (auto *duel = qobject_cast<fwb::DuelPage *>(page); duel && parser.isSet(duelShot)) {
            shotPage = duel;
            if (parser.isSet(duelWith) && !duel->setSideSpec(1, parser.value(duelWith)))
                return fail(QStringLiteral("unknown --duel-with device '%1'").arg(parser.value(duelWith)));
            duel->setSideSpec(0, controls->deviceSpec());
            startPageJob = [duel] { return duel->startDuel(); };
            pageJobProblem = [duel] {
                return duel->hasResult(0) && duel->hasResult(1) ? QString() : QStringLiteral("a side of the duel failed");
            };
            QObject::connect(duel, &fwb::DuelPage::duelFinished, &app, [&] { pageJobEnded(); });
        }
    }
    if (shotPage && (parser.isSet(raceShot) + parser.isSet(tuneShot) + parser.isSet(sweepShot) + parser.isSet(duelShot)) > 1)
        return fail(QStringLiteral("--race, --tune, --sweep and --duel capture one page each: pick one"));
    pageJobEnded = [&] {
        const QString problem = pageJobProblem();
        if (!problem.isEmpty())
            fail(problem);
        grabAndExit(problem.isEmpty() ? 0 : 1);
    };

    // Kernel editor screenshots: after the run, the file in the "Kernel source" dock, built or raced; the
    // picture is taken when the dock's job has finished (a failed build is what some pictures show).
    std::function<bool()> startEditorJob;
    if (parser.isSet(editorShot)) {
        auto *dock = window.findChild<fwb::KernelEditorDock *>();
        QFile kernel(parser.value(editorShot));
        if (!dock || !kernel.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("cannot read --editor %1: %2").arg(kernel.fileName(), kernel.errorString()));
        const QString text = QString::fromUtf8(kernel.readAll());
        if (parser.isSet(editorLimit))
            dock->setTimeoutS(parser.value(editorLimit).toDouble());
        const bool runIt = parser.isSet(editorRun);
        startEditorJob = [&window, dock, text, runIt] {
            dock->show();
            dock->raise();
            window.resizeDocks({dock}, {window.height() * 11 / 20}, Qt::Vertical);
            const QStringList before = dock->source().split(QLatin1Char('\n')), after = text.split(QLatin1Char('\n'));
            dock->setSource(text);
            int changed = 0; // the first edited line, in view
            while (changed < after.size() && changed < before.size() && before[changed] == after[changed])
                ++changed;
            dock->goToLine(changed + 1);
            runIt ? dock->run() : dock->build();
            return dock->isBusy();
        };
        auto ended = [&, dock](bool) {
            std::fprintf(stderr, "filter-workbench: editor: %s\n", qPrintable(dock->statusText()));
            grabAndExit(0);
        };
        QObject::connect(dock, &fwb::KernelEditorDock::buildFinished, &app, ended);
        QObject::connect(dock, &fwb::KernelEditorDock::runFinished, &app, ended);
    }

    // Screenshot sequence: optionally every available variant (history), then the chosen one.
    const QString chosen = controls->variantName();
    QStringList queue;
    if (parser.isSet(allVariants))
        for (const QString &name : controls->availableVariants())
            if (name != chosen)
                queue << name;
    queue << chosen;
    auto next = [&] {
        controls->setVariantName(queue.takeFirst());
        if (!window.startRun()) {
            fail(QStringLiteral("cannot run: %1").arg(window.statusText()));
            queue.clear();
            grabAndExit(2);
        }
    };
    auto finishOne = [&](bool ok, const QString &error) {
        if (!queue.isEmpty()) {
            next();
            return;
        }
        if (!ok)
            std::fprintf(stderr, "filter-workbench: last run failed: %s\n", qPrintable(error));
        if (ok && startEditorJob) {
            if (!startEditorJob()) {
                fail(QStringLiteral("the kernel editor did not start its job"));
                grabAndExit(2);
            }
            return;
        }
        if (ok && shotPage) {
            if (!startPageJob()) {
                fail(QStringLiteral("cannot start the %1 page's job (no OpenCL device, or nothing to run?)")
                         .arg(shotPage->title()));
                grabAndExit(2);
            }
            return;
        }
        grabAndExit(ok ? 0 : 1);
    };
    QObject::connect(&window, &fwb::MainWindow::resultShown, &app, [&] { finishOne(true, {}); });
    QObject::connect(&window, &fwb::MainWindow::runFailed, &app, [&](const fwb::ComputeResult &r) {
        finishOne(false, QString::fromStdString(r.run.error));
    });
    QTimer::singleShot(shotPage ? 590000 : 300000, &app, [&] {
        exitCode = fail(QStringLiteral("timed out waiting for the run"));
        app.exit(exitCode);
    });
    QTimer::singleShot(0, &app, next);
    const int rc = app.exec();
    return rc != 0 ? rc : exitCode;
}
