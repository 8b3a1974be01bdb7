// A newcomer's path, by keys only (issue 24): from the window at launch, F11 opens present mode, Space
// starts the race, L opens the lesson, the arrow keys step through it, Esc leaves both. At each stop the
// test reads what a viewer would read: the filter's own words in the title, the device in plain words
// (on a CPU device, that it is the same processor), as many bars as the status line counts, and every
// "× as long as the fastest" equal to the times beside it; each lesson step has a title and a sentence,
// and on a CPU device says the device is the same chip. The only set-up that is not a key: a small
// test card and the Sobel filter (a race of a few versions), so that the walk stays short on PoCL.
#include "TestSupport.h"
#include "GuiTestSupport.h"

#include "MainWindow.h"
#include "RaceChart.h"
#include "RacePage.h"
#include "lesson/LessonWindow.h"

#include <QLabel>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

using namespace fwb;

namespace {

QString q(const std::string &s) { return QString::fromStdString(s); }

// Every "N× as long as the fastest" in the bars' labels against the times printed in them, as a
// viewer would check it: the ratio of the printed milliseconds.
void checkRatiosAgainstTimes(const RaceChart &chart, int entries)
{
    const QRegularExpression msRe(QStringLiteral("([0-9]+(?:\\.[0-9]+)?) ms"));
    const QRegularExpression ratioRe(QStringLiteral("([0-9]+(?:\\.[0-9]+)?)× as long as the fastest"));
    double fastest = 0;
    std::vector<std::pair<double, double>> said; // printed ms, printed ratio
    for (int i = 0; i < entries; ++i) {
        const QString label = chart.barLabel(i);
        const QRegularExpressionMatch ms = msRe.match(label);
        if (label.isEmpty() || !ms.hasMatch())
            continue;
        const QRegularExpressionMatch ratio = ratioRe.match(label);
        if (ratio.hasMatch())
            said.push_back({ms.captured(1).toDouble(), ratio.captured(1).toDouble()});
        else if (label.contains("ms, the fastest")) // not "about as fast as the fastest" (within 5%)
            fastest = ms.captured(1).toDouble();
    }
    QVERIFY2(fastest > 0, "no bar says it is the fastest");
    QVERIFY(!said.empty());
    for (const auto &[ms, ratio] : said) {
        const double actual = ms / fastest;
        QVERIFY2(std::abs(ratio - actual) <= 0.06 * actual + 0.06,
                 qPrintable(QStringLiteral("%1 ms said to be %2x as long as %3 ms").arg(ms).arg(ratio).arg(fastest)));
    }
}

} // namespace

class TestGuiNewcomer : public QObject
{
    Q_OBJECT

private slots:
    void keysOnlyFromLaunchToTheLesson()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow window(false);
        window.show();
        test::PageWindowSetup setup;
        setup.filter = "sobel";
        QVERIFY(test::setUpPageWindow(window, device, 160, 96, setup));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        auto *race = test::findPage<RacePage>(window);
        QVERIFY(race);

        // F11: present mode.
        QTest::keyClick(&window, Qt::Key_F11);
        QTRY_VERIFY(race->presentation() && race->presentation()->isVisible());
        QWidget *present = race->presentation();
        present->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(present));
        QVERIFY(present->findChild<QLabel *>("presentTitle"));
        const QString title = present->findChild<QLabel *>("presentTitle")->text();
        const FilterSpec *sobel = findFilter("sobel");
        QVERIFY(sobel);
        // the filter's own words, never "blurring" for edges
        QVERIFY2(title.contains(q(sobel->plainVerb)) && !title.contains("blurring"), qPrintable(title));

        // Space: the race runs to its end.
        QSignalSpy finished(race, &JobPage::jobFinished);
        QTest::keyClick(present, Qt::Key_Space);
        QVERIFY(race->isRacing());
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 240000);
        const RaceResult &result = race->race();
        const QString deviceLine = present->findChild<QLabel *>("presentDevice")->text();
        QVERIFY2(deviceLine.contains(q(device.name)), qPrintable(deviceLine));
        if (device.kind == DeviceKind::Cpu)
            QVERIFY2(deviceLine.contains("same processor"), qPrintable(deviceLine));
        const QString winner = present->findChild<QLabel *>("presentWinner")->text();
        QVERIFY2(!winner.isEmpty(), "no winner line");
        // What the status line counts is what is drawn: "N versions on the device and M on the CPU".
        QVERIFY(present->findChild<QLabel *>("presentStatus"));
        const QString status = present->findChild<QLabel *>("presentStatus")->text();
        const QRegularExpressionMatch counts =
            QRegularExpression(QStringLiteral("(\\d+) versions? on the device")).match(status);
        QVERIFY2(counts.hasMatch(), qPrintable(status));
        auto *chart = present->findChild<RaceChart *>("presentChart");
        QVERIFY(chart);
        QCOMPARE(counts.captured(1).toInt(), chart->barCount());
        checkRatiosAgainstTimes(*chart, int(result.entries.size()));
        if (QTest::currentTestFailed())
            return;

        // L: the lesson, measured on this device; the arrow keys walk its steps.
        QTest::keyClick(present, Qt::Key_L);
        LessonWindow *lesson = window.lessonWindow();
        QVERIFY(lesson);
        QTRY_VERIFY(lesson->isVisible());
        lesson->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(lesson));
        if (lesson->isMeasuring()) {
            QSignalSpy measured(lesson, &LessonWindow::measured);
            QTRY_VERIFY_WITH_TIMEOUT(!measured.isEmpty() || !lesson->isMeasuring(), 240000);
        }
        QCOMPARE(lesson->step(), 0);
        QStringList titles;
        for (int s = 0; s < lesson->stepCount(); ++s) {
            QCOMPARE(lesson->step(), s);
            QVERIFY2(!lesson->stepTitle().isEmpty() && !lesson->liveSentence().isEmpty(), qPrintable(lesson->stepTitle()));
            QVERIFY2(!titles.contains(lesson->stepTitle()), qPrintable(lesson->stepTitle()));
            // live numbers, measured on this computer, in the step's sentence (the live step: once both
            // sides have shown frames)
            if (s + 1 == lesson->stepCount())
                QTRY_VERIFY_WITH_TIMEOUT(lesson->cpuFrames() > 1 && lesson->deviceFrames() > 1
                                             && lesson->liveSentence().contains("frames per second"),
                                         120000);
            QVERIFY2(lesson->liveSentence().contains("milliseconds") || lesson->liveSentence().contains("frames per second"),
                     qPrintable(lesson->liveSentence()));
            titles << lesson->stepTitle();
            if (device.kind == DeviceKind::Cpu)
                QVERIFY2(lesson->liveNote().contains("same chip"), qPrintable(lesson->liveNote()));
            if (s + 1 < lesson->stepCount())
                QTest::keyClick(lesson, Qt::Key_Right);
        }
        QTest::keyClick(lesson, Qt::Key_Left);
        QCOMPARE(lesson->step(), lesson->stepCount() - 2);

        // Esc leaves the lesson, then present mode.
        QTest::keyClick(lesson, Qt::Key_Escape);
        QTRY_VERIFY(!lesson->isVisible());
        present->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(present));
        QTest::keyClick(present, Qt::Key_Escape);
        QTRY_VERIFY(!race->presentation() || !race->presentation()->isVisible());
    }
};

QTEST_MAIN(TestGuiNewcomer)
#include "tst_gui_newcomer.moc"
