// The guided lesson (ui/lesson): it opens from Help and from present mode, every step renders with live
// numbers (PoCL, a small picture) and with recorded ones (the PoCL sample record of tests/data, loaded
// as the window loads data/measurements), the arrow keys move, the bars are proportional to their
// numbers, the sentences follow the numbers (a device slower than the CPU is never called faster) and a
// CPU device is always said to be the same processor.
//
// filter-workbench --lesson [STEP] --screenshot F.png (the real binary, offscreen, on the suite's device):
// the lesson measures, goes to STEP (the live step until both sides have a rate) and is captured at the
// screenshot's size; a step out of range, or another page's job beside it, is refused (exit 2).
//
// FWB_LESSON_SHOTS=DIR (optional): each step of the live lesson is saved as DIR/<tag>-step<N>.png at
// the window's size (FWB_LESSON_SHOTS_SIZE=WxH, default 1366x768), for looking at;
// FWB_LESSON_SHOTS_IMAGE=PATH: that picture instead of the small test card.
#include "TestSupport.h"
#include "GuiTestSupport.h"

#include "MainWindow.h"
#include "RacePage.h"
#include "lesson/LessonChart.h"
#include "lesson/LessonSteps.h"
#include "lesson/LessonWindow.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>

#include <cmath>

using namespace fwb;

namespace {

// FWB_LESSON_SHOTS_RECORDS: another records folder for screenshot runs (e.g. the repository's data/measurements).
const QString kRecords = qEnvironmentVariableIsSet("FWB_LESSON_SHOTS_RECORDS")
                             ? qEnvironmentVariable("FWB_LESSON_SHOTS_RECORDS")
                             : QStringLiteral(FWB_TEST_DATA_DIR "/measurements-pocl-sample");

RunResult run(const std::string &variant, double kernelMs, double upload, double download, double endToEnd,
              double bytes = 0)
{
    RunResult r;
    r.filter = "gaussian5x5";
    r.variant = variant;
    r.kernelMs.median = kernelMs;
    r.uploadMs = upload;
    r.downloadMs = download;
    r.endToEndMs = endToEnd;
    r.totalMs = endToEnd;
    r.bytesMoved = bytes;
    return r;
}

// Numbers of a device slower than the CPU at everything.
LessonFigures slowDevice(DeviceKind kind)
{
    LessonFigures f;
    f.deviceName = "Slow device";
    f.deviceKind = kind;
    f.cpuMs = 2.0;
    f.cpuTitle = "OpenCV on 16 CPU threads";
    f.copyGBps = 10;
    f.pageable = {run("private_array", 10.5, 4, 4, 19), run("unrolled_constant", 10, 4, 4, 18.5, 2e6),
                  run("constant_memory", 12, 4, 4, 20.5), run("strips", 8, 4, 4, 16.5, 2e6)};
    f.pinned = {run("strips", 8, 5, 5, 18.5, 2e6)};
    return f;
}

bool mentions(const std::string &text, const char *word)
{
    return text.find(word) != std::string::npos;
}

// Bar i's drawn length against its number: proportional within a pixel of rounding.
void checkProportional(const LessonChart *chart)
{
    const LessonStepView &v = chart->view();
    double top = 0;
    int longest = 0;
    for (int i = 0; i < int(v.bars.size()); ++i)
        if (v.bars[std::size_t(i)].total() > top) {
            top = v.bars[std::size_t(i)].total();
            longest = chart->barLength(i);
        }
    QVERIFY(longest > 20);
    for (int i = 0; i < int(v.bars.size()); ++i) {
        const double expected = longest * v.bars[std::size_t(i)].total() / top;
        QVERIFY2(std::abs(chart->barLength(i) - expected) <= 1.0,
                 qPrintable(QString("bar %1: %2 px for %3, expected %4").arg(i).arg(chart->barLength(i))
                                .arg(v.bars[std::size_t(i)].total()).arg(expected)));
    }
}

void maybeShoot(LessonWindow &lesson, const QString &tag)
{
    const QString dir = qEnvironmentVariable("FWB_LESSON_SHOTS");
    if (dir.isEmpty())
        return;
    QDir().mkpath(dir);
    QTest::qWait(300); // a few live frames, the labels refreshed
    lesson.grab().save(QString("%1/%2-step%3.png").arg(dir, tag).arg(lesson.step() + 1));
}

QSize shotSize()
{
    const QStringList wh = qEnvironmentVariable("FWB_LESSON_SHOTS_SIZE", "1366x768").split('x');
    return wh.size() == 2 ? QSize(wh[0].toInt(), wh[1].toInt()) : QSize(1366, 768);
}

// The window on the device under test with the catalogue's lesson filter and a small test card.
bool setUpLessonWindow(MainWindow &window, const DeviceInfo &device)
{
    test::PageWindowSetup setup;
    setup.filter = QString::fromStdString(lessonFilter()->name);
    return test::setUpPageWindow(window, device, 160, 96, setup);
}

} // namespace

class TestGuiLesson : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void sentencesFollowTheNumbers();
    void recordedFiguresComeFromTheRecord();
    void opensFromHelpAndMeasuresEveryStep();
    void withoutADeviceShowsTheRecord();
    void presentModeOpensTheLesson();
    void screenshotOptionCapturesTheStep_data();
    void screenshotOptionCapturesTheStep();
};

void TestGuiLesson::initTestCase()
{
    qputenv("FWB_MEASUREMENTS_DIR", kRecords.toUtf8()); // the lesson reads the sample as the real records
}

void TestGuiLesson::sentencesFollowTheNumbers()
{
    const LessonPlan plan = lessonPlan();
    QCOMPARE(plan.port, std::string("unrolled_constant")); // the catalogue's baseline
    // The spill pair comes from the catalogue's lesson roles (ui/ names no variant).
    const FilterSpec *family = findFilter(plan.filter); // the catalogue's flagged family (ui/ names none)
    QVERIFY(family && family->lessonFilter && family == lessonFilter());
    QVERIFY(family->variant(plan.spill) && family->variant(plan.spill)->lessonRole == LessonRole::Spill);
    QVERIFY(family->variant(plan.spillFix) && family->variant(plan.spillFix)->lessonRole == LessonRole::SpillFix);
    QVERIFY(!plan.rungs.empty());
    QVERIFY(std::find(plan.rungs.begin(), plan.rungs.end(), "strips") != plan.rungs.end());

    for (DeviceKind kind : {DeviceKind::Gpu, DeviceKind::Cpu}) {
        const LessonFigures slow = slowDevice(kind);
        for (LessonStep step : {LessonStep::Port, LessonStep::Verdict}) {
            const LessonStepView v = lessonStep(step, slow, plan);
            QVERIFY2(!mentions(v.sentence, "faster"), v.sentence.c_str());
            QVERIFY2(mentions(v.sentence, "times slower than"), v.sentence.c_str());
        }
        // The private list did not cost here (10.5 against 10 ms): never "slower than the plain way".
        const LessonStepView spill = lessonStep(LessonStep::Spill, slow, plan);
        QVERIFY2(mentions(spill.sentence, "costs nothing") && !mentions(spill.sentence, "slower than the plain"),
                 spill.sentence.c_str());
        // 8 ms against a 0.2 ms floor: far from the memory limit, so never "only waits".
        const LessonStepView limit = lessonStep(LessonStep::MemoryLimit, slow, plan);
        QVERIFY2(!mentions(limit.sentence, "only waits") && mentions(limit.sentence, "40 times"), limit.sentence.c_str());
        // Page-locked memory was slower here: it did not shorten the trip.
        const LessonStepView copies = lessonStep(LessonStep::Copies, slow, plan);
        QVERIFY2(mentions(copies.sentence, "did not shorten"), copies.sentence.c_str());
        QVERIFY2(mentions(copies.sentence, "8.50 milliseconds"), copies.sentence.c_str()); // 16.5 - 8 computing
        const LessonStepView live = lessonStep(LessonStep::Live, slow, plan);
        QVERIFY(live.higherIsBetter && live.bars.size() == 2 && live.bars[0].total() > live.bars[1].total());
        // The same processor, said on every step of a CPU device; a GPU is "the graphics card".
        for (int s = 0; s < kLessonStepCount; ++s) {
            const LessonStepView v = lessonStep(LessonStep(s), slow, plan);
            if (kind == DeviceKind::Cpu) {
                QVERIFY2(mentions(v.note, "same chip"), v.title.c_str());
                QVERIFY(!mentions(v.sentence, "graphics card"));
            } else {
                QVERIFY(!mentions(v.note, "same chip"));
            }
        }
    }

    // The other way round: a fast device, a spill that costs, a rung at the memory limit.
    LessonFigures fast = slowDevice(DeviceKind::Gpu);
    fast.cpuMs = 20;
    fast.pageable = {run("private_array", 14.36, 4, 4, 22), run("unrolled_constant", 2.605, 4, 4, 11, 6e7),
                     run("constant_memory", 3.48, 4, 4, 12), run("strips", 0.05, 4, 4, 8.1, 6e7)};
    fast.pinned = {run("strips", 0.05, 1, 1, 2.1, 6e7)};
    fast.copyGBps = 2000; // 6e7 bytes: a 0.03 ms floor
    QVERIFY(mentions(lessonStep(LessonStep::Port, fast, plan).sentence, "7.7 times faster than"));
    const std::string spill = lessonStep(LessonStep::Spill, fast, plan).sentence;
    QVERIFY2(mentions(spill, "5.5 times slower than the plain way") && mentions(spill, "brings it down to 3.48"),
             spill.c_str());
    const std::string limit = lessonStep(LessonStep::MemoryLimit, fast, plan).sentence;
    QVERIFY2(mentions(limit, "only waits for the picture to move"), limit.c_str());
    const std::string verdict = lessonStep(LessonStep::Verdict, fast, plan).sentence;
    QVERIFY2(mentions(verdict, "2.10 milliseconds (from page-locked memory)") && mentions(verdict, "9.5 times faster"),
             verdict.c_str());
    const std::string copies = lessonStep(LessonStep::Copies, fast, plan).sentence;
    QVERIFY2(mentions(copies, "161 times as long as computing") && mentions(copies, "takes 2.10 milliseconds instead of 8.10"),
             copies.c_str());
    // About as fast: neither word.
    LessonFigures even = fast;
    even.cpuMs = 2.7;
    QVERIFY(mentions(lessonStep(LessonStep::Port, even, plan).sentence, "about as fast as"));
    QCOMPARE(lessonCompare(1.0, 1.05), std::string("about as fast as"));
    QCOMPARE(lessonCompare(2.0, 1.0), std::string("2.0 times slower than"));

    // Nothing measured: the step says so instead of inventing a number.
    QVERIFY(lessonStep(LessonStep::Port, LessonFigures{}, plan).missing);
}

void TestGuiLesson::recordedFiguresComeFromTheRecord()
{
    std::vector<std::string> errors;
    const std::vector<MeasurementRecord> records = loadMeasurementRecords(kRecords.toStdString(), &errors);
    QVERIFY(errors.empty());
    const RecordPair pair = pickRecords(records, "gaussian5x5", "gray8");
    QVERIFY(pair.pageable && pair.pinned);
    const LessonFigures f = lessonFiguresFromRecords(pair);
    QVERIFY(f.recorded);
    QCOMPARE(f.deviceName, pair.pageable->deviceName);
    QVERIFY(f.provenance.find(pair.pageable->date) != std::string::npos);
    // The CPU to beat is the record's fastest CPU figure.
    double best = -1;
    for (const RunResult &r : pair.pageable->results)
        if (r.cpuBestMs > 0 && (best < 0 || r.cpuBestMs < best))
            best = r.cpuBestMs;
    for (const RunResult &r : pair.pinned->results)
        if (r.cpuBestMs > 0 && (best < 0 || r.cpuBestMs < best))
            best = r.cpuBestMs;
    QCOMPARE(f.cpuMs, best);
    const RunResult *port = pair.pageable->result("unrolled_constant");
    QVERIFY(port);
    const std::string sentence = lessonStep(LessonStep::Port, f).sentence;
    QVERIFY2(mentions(sentence, (lessonMs(port->kernelMs.median) + " milliseconds").c_str()), sentence.c_str());
    QCOMPARE(lessonCpuTitle("OpenCV 4.6.0, 16 threads"), std::string("OpenCV on 16 CPU threads"));
    QCOMPARE(lessonCpuTitle("ours, 1 thread"), std::string("our C++ code on 1 CPU thread"));
}

void TestGuiLesson::opensFromHelpAndMeasuresEveryStep()
{
    FWB_REQUIRE_DEVICE(device);
    MainWindow window(false);
    QVERIFY(setUpLessonWindow(window, device));
    if (const QString photo = qEnvironmentVariable("FWB_LESSON_SHOTS_IMAGE"); !photo.isEmpty()) // shots only
        QVERIFY(window.loadFile(photo));
    window.resize(1000, 700);
    window.show();
    auto *help = window.findChild<QAction *>("showLessonAction");
    QVERIFY(help);
    help->trigger();
    LessonWindow *lesson = window.lessonWindow();
    QVERIFY(lesson && lesson->isVisible());
    lesson->resize(shotSize());
    QSignalSpy measured(lesson, &LessonWindow::measured);
    QElapsedTimer clock;
    clock.start();
    bool saidWhat = false;
    while (measured.isEmpty() && clock.elapsed() < 600000) {
        QTest::qWait(50);
        saidWhat = saidWhat
                   || QRegularExpression("Running \\d+ of \\d+: |Measuring how fast").match(lesson->statusText()).hasMatch();
    }
    QVERIFY(!measured.isEmpty());
    if (clock.elapsed() > 2000) // some wait was over half a second: it said what it waited for
        QVERIFY(saidWhat);
    const LessonFigures &live = lesson->liveFigures();
    QVERIFY(!live.empty());
    QCOMPARE(live.deviceName, device.name);
    QVERIFY(live.cpuMs > 0);
    QVERIFY(!live.cpuTitle.empty());
    QVERIFY(!live.pinned.empty());

    // The recorded column: the sample record, marked as not measured here.
    QVERIFY(lesson->recordedHeading().contains("not measured on this computer"));
    QVERIFY(lesson->recordedHeading().contains(QString::fromStdString(lesson->recordedFigures().provenance)));

    QCOMPARE(lesson->step(), 0);
    for (int s = 0; s < lesson->stepCount(); ++s) {
        QCOMPARE(lesson->step(), s);
        QVERIFY(!lesson->stepTitle().isEmpty());
        QVERIFY2(!lesson->liveSentence().isEmpty() && !lesson->liveSentence().startsWith("Measuring"),
                 qPrintable(lesson->liveSentence()));
        QVERIFY2(!lessonStep(LessonStep(s), live).missing, qPrintable(lesson->liveSentence()));
        if (LessonStep(s) == LessonStep::Live) {
            QVERIFY(lesson->isAnimating());
            QElapsedTimer frames;
            frames.start();
            while ((lesson->cpuFrames() < 3 || lesson->deviceFrames() < 3) && frames.elapsed() < 60000)
                QTest::qWait(50);
            QVERIFY(lesson->cpuFrames() >= 3 && lesson->deviceFrames() >= 3);
            QVERIFY(lesson->cpuFps() > 0 && lesson->deviceFps() > 0);
            QTest::qWait(400); // the rates' chart refreshes four times a second
            const QString words = lesson->liveFpsSentence();
            QVERIFY2(words.contains("frames per second"), qPrintable(words));
            if (device.kind == DeviceKind::Cpu)
                QVERIFY2(words.contains("this one processor"), qPrintable(words));
            // Faster or slower, as the two rates say.
            if (lesson->deviceFps() < lesson->cpuFps() / 1.1)
                QVERIFY2(!words.contains("faster"), qPrintable(words));
        }
        QVERIFY(!lesson->liveChart()->view().bars.empty());
        checkProportional(lesson->liveChart());
        QVERIFY(lesson->recordedSentence().startsWith("Recorded: "));
        QVERIFY(!lesson->recordedChart()->view().bars.empty());
        checkProportional(lesson->recordedChart());
        if (device.kind == DeviceKind::Cpu)
            QVERIFY2(lesson->liveNote().contains("same chip"), qPrintable(lesson->liveNote()));
        maybeShoot(*lesson, qEnvironmentVariable("FWB_LESSON_SHOTS_TAG", "live"));
        QTest::keyClick(lesson, Qt::Key_Right);
    }
    QCOMPARE(lesson->step(), lesson->stepCount() - 1); // Right on the last step stays there
    QTest::keyClick(lesson, Qt::Key_Left);
    QCOMPARE(lesson->step(), lesson->stepCount() - 2);
    QVERIFY(!lesson->isAnimating()); // the live step's loops stop when it is left
    auto *back = lesson->findChild<QPushButton *>("lessonBack");
    QVERIFY(back);
    back->click();
    QCOMPARE(lesson->step(), lesson->stepCount() - 3);
    lesson->close();
}

void TestGuiLesson::withoutADeviceShowsTheRecord()
{
    LessonWindow::Setup setup;
    setup.hasDevice = false;
    setup.pictureName = "test card";
    setup.measureOnShow = true; // with no device: times this computer's best CPU code alone
    LessonWindow lesson(setup);
    lesson.resize(shotSize());
    lesson.show();
    QElapsedTimer timing;
    timing.start();
    while (lesson.cpuAloneMs() <= 0 && timing.elapsed() < 60000)
        QTest::qWait(50);
    QVERIFY(lesson.cpuAloneMs() > 0);
    QVERIFY(!lesson.startMeasuring());
    QVERIFY(lesson.liveFigures().empty());
    QVERIFY(!lesson.recordedFigures().empty());
    QVERIFY(lesson.recordedHeading().startsWith("Recorded on "));
    QVERIFY(lesson.recordedHeading().contains("not measured on this computer"));
    for (int s = 0; s < lesson.stepCount(); ++s) {
        lesson.setStep(s);
        const char *expected = LessonStep(s) == LessonStep::Live ? "Only the CPU side"
                               : LessonStep(s) == LessonStep::Port || LessonStep(s) == LessonStep::Verdict
                                   ? "the other side is only the recorded one"
                                   : "Only the recorded figures";
        QVERIFY2(lesson.liveSentence().contains(expected), qPrintable(lesson.liveSentence()));
        if (LessonStep(s) == LessonStep::Port)
            QVERIFY(lesson.liveSentence().contains(QString::fromStdString(lessonMs(lesson.cpuAloneMs()))));
        QVERIFY(lesson.recordedSentence().startsWith("Recorded: "));
        QVERIFY(!lesson.recordedChart()->view().bars.empty());
        // The sample is PoCL's: the record itself says its "device" is a processor.
        QVERIFY(mentions(lessonStep(LessonStep(s), lesson.recordedFigures()).note, "same chip"));
        maybeShoot(lesson, qEnvironmentVariable("FWB_LESSON_SHOTS_TAG", "live") + "-nodevice");
    }
    // The live step runs the CPU side alone.
    QVERIFY(lesson.isAnimating());
    QElapsedTimer frames;
    frames.start();
    while (lesson.cpuFrames() < 2 && frames.elapsed() < 30000)
        QTest::qWait(50);
    QVERIFY(lesson.cpuFrames() >= 2);
    QCOMPARE(lesson.deviceFrames(), 0);
    lesson.close();
    QVERIFY(!lesson.isAnimating());
}

void TestGuiLesson::presentModeOpensTheLesson()
{
    FWB_REQUIRE_DEVICE(device);
    MainWindow window(false);
    QVERIFY(setUpLessonWindow(window, device));
    auto *race = test::findPage<RacePage>(window);
    QVERIFY(race);
    race->setPresenting(true);
    QVERIFY(race->presentation());
    QSignalSpy asked(race, &RacePage::lessonRequested);
    auto *button = race->presentation()->findChild<QPushButton *>("presentLesson");
    QVERIFY(button && button->isVisible());
    button->click();
    QCOMPARE(asked.count(), 1);
    QVERIFY(window.lessonWindow() && window.lessonWindow()->isVisible());
    window.lessonWindow()->close();
    // The L key, as the teacher presses it in present mode.
    race->presentation()->activateWindow();
    if (QTest::qWaitForWindowActive(race->presentation())) {
        QTest::keyClick(race->presentation(), Qt::Key_L);
        QCOMPARE(asked.count(), 2);
        QVERIFY(window.lessonWindow()->isVisible());
        window.lessonWindow()->close();
    }
    race->setPresenting(false);
}

void TestGuiLesson::screenshotOptionCapturesTheStep_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<int>("step"); // the step captured (exit 0), 0 for a refusal
    QTest::addColumn<QString>("refusal");
    QTest::newRow("bare --lesson is step 1") << QStringList{"--lesson"} << 0 << 1 << QString();
    QTest::newRow("--lesson 3") << QStringList{"--lesson", "3"} << 0 << 3 << QString();
    QTest::newRow("--lesson=6, the live step") << QStringList{"--lesson=6"} << 0 << 6 << QString();
    QTest::newRow("--lesson 7") << QStringList{"--lesson", "7"} << 2 << 0
                                << QString("filter-workbench: bad --lesson '7' (a step from 1 to 6)");
    QTest::newRow("--lesson 0") << QStringList{"--lesson", "0"} << 2 << 0
                                << QString("filter-workbench: bad --lesson '0' (a step from 1 to 6)");
    QTest::newRow("--lesson with --race") << QStringList{"--lesson", "2", "--race"} << 2 << 0
                                          << QString("filter-workbench: --lesson opens the lesson window: it takes "
                                                     "no --race, --tune, --sweep, --duel, --present, --lab or --editor");
}

void TestGuiLesson::screenshotOptionCapturesTheStep()
{
    QFETCH(QStringList, options);
    QFETCH(int, exitCode);
    QFETCH(int, step);
    QFETCH(QString, refusal);
    FWB_REQUIRE_DEVICE(device);
    const QString app = QFileInfo(QStringLiteral(FWB_FILTER_BENCH)).absolutePath() + "/filter-workbench";
    QVERIFY2(QFileInfo(app).isExecutable(), qPrintable(app + " is not built"));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString picture = dir.filePath("small.png"), shot = dir.filePath("lesson.png");
    QImage small(160, 96, QImage::Format_Grayscale8);
    for (int y = 0; y < small.height(); ++y)
        for (int x = 0; x < small.width(); ++x)
            small.scanLine(y)[x] = uchar((x * 7 + y * 3) % 256);
    QVERIFY(small.save(picture));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    env.insert("XDG_CONFIG_HOME", dir.filePath("config"));
    env.insert("FWB_MEASUREMENTS_DIR", kRecords);
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(app, QStringList{"--device", QString::fromStdString(device.spec()), "--image", picture, "--size",
                                   "1000x700", "--screenshot", shot}
                           + options);
    QVERIFY2(process.waitForFinished(600000), "filter-workbench did not end within 10 minutes");
    const QString err = QString::fromUtf8(process.readAllStandardError());
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QVERIFY2(process.exitCode() == exitCode, qPrintable(err));
    if (exitCode != 0) {
        QVERIFY2(err.contains(refusal), qPrintable(err));
        QVERIFY(!QFileInfo::exists(shot));
        return;
    }
    // The step's title, as the lesson shows it, and the picture at the screenshot's size.
    const QString said = QString("filter-workbench: lesson: step %1 of 6: ").arg(step);
    QVERIFY2(err.contains(said + QString::fromStdString(lessonStepTitle(LessonStep(step - 1)))), qPrintable(err));
    QCOMPARE(QString::fromUtf8(process.readAllStandardOutput()).trimmed(), QFileInfo(shot).absoluteFilePath());
    const QImage captured(shot);
    QCOMPARE(captured.size(), QSize(1000, 700));
}

QTEST_MAIN(TestGuiLesson)
#include "tst_gui_lesson.moc"
