// The Race page in the real window, offscreen on PoCL: it is in the Run menu; the chart holds one bar
// per finished run (variants, CPU and OpenCV rows), every bar as its run ends; Cancel stops midway and
// keeps the bars already in; clicking a bar shows that run's picture. One window for the suite, as in
// the app: PoCL aborts when contexts are made again after OpenCV's T-API has used one
// ("still have references to IRs - can't release LLVM context").
#include "TestSupport.h"
#include "GuiTestSupport.h"

#include "ControlPanel.h"
#include "MainWindow.h"
#include "RaceChart.h"
#include "RacePage.h"

#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>

#include <memory>

using namespace fwb;

class TestGuiRace : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<MainWindow> m_window;

    static RacePage *racePage(MainWindow &window) { return test::findPage<RacePage>(window); }
    static bool setUp(MainWindow &window, const DeviceInfo &device, int w, int h)
    {
        return test::setUpPageWindow(window, device, w, h);
    }

private slots:
    void initTestCase()
    {
        m_window = std::make_unique<MainWindow>(false);
        m_window->show();
    }
    void cleanupTestCase() { m_window.reset(); }

    void raceIsInTheRunMenu()
    {
        MainWindow &window = *m_window;
        RacePage *race = racePage(window);
        QVERIFY(race);
        QMenu *runMenu = nullptr;
        for (QAction *action : window.menuBar()->actions())
            if (action->text() == QLatin1String("&Run"))
                runMenu = action->menu();
        QVERIFY(runMenu);
        QVERIFY(runMenu->actions().contains(race->raceAction()));
    }

    void oneBarPerRun()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow &window = *m_window;
        QVERIFY(setUp(window, device, 192, 128));
        RacePage *race = racePage(window);
        QVERIFY(race->raceAction()->isEnabled());
        QSignalSpy finished(race, &RacePage::raceFinished);
        QVERIFY(race->startRace());
        QVERIFY(!race->startRace()); // one race at a time
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        const RaceResult &result = race->race();
        QVERIFY(!result.cancelled);
        const FilterSpec *filter = findFilter("sobel");
        QVERIFY(int(result.entries.size()) >= int(filter->variants.size()));
        int ran = 0;
        for (const RaceEntry &e : result.entries)
            ran += e.ok() ? 1 : 0;
        QCOMPARE(race->chart()->barCount(), ran);
        QVERIFY(result.winner(RaceMetric::EndToEnd) >= 0);
        // The winner's picture is on show; a click on another bar shows that one.
        auto *output = race->findChild<QLabel *>("raceOutput");
        QVERIFY(output && !output->pixmap().isNull());
        const int last = result.ranking(RaceMetric::EndToEnd).back();
        const QRect bar = race->chart()->barRect(last);
        if (bar.isValid()) {
            QCOMPARE(race->chart()->entryAt(bar.center()), last);
            QTest::mouseClick(race->chart(), Qt::LeftButton, {}, bar.center());
            QCOMPARE(race->chart()->selected(), last);
        }
    }

    void barsArriveOneByOne()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow &window = *m_window;
        QVERIFY(setUp(window, device, 96, 64));
        RacePage *race = racePage(window);
        QSignalSpy finished(race, &RacePage::raceFinished);
        // Connected after the page: this slot sees the chart right after the page drew the k-th run.
        std::vector<int> bars, ok;
        int okSoFar = 0;
        const QMetaObject::Connection watch = connect(race->findChild<BenchWorker *>(), &BenchWorker::raceProgress, this,
                [&](const RaceEntry &entry, int, int) {
                    okSoFar += entry.ok() ? 1 : 0;
                    bars.push_back(race->chart()->barCount());
                    ok.push_back(okSoFar);
                });
        QVERIFY(race->startRace());
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        disconnect(watch); // the window outlives this test
        QVERIFY(bars.size() >= 3);
        QCOMPARE(bars, ok); // one bar per finished run, as it finishes
        QCOMPARE(race->chart()->barCount(), bars.back());
    }

    void cancelMidway()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow &window = *m_window;
        QVERIFY(setUp(window, device, 640, 480));
        window.controls()->setRepeat(5);
        RacePage *race = racePage(window);
        QSignalSpy finished(race, &RacePage::raceFinished);
        // The worker waits after its first run until the page has cancelled.
        test::WorkerGate gate;
        QVERIFY(gate.attach(race->findChild<BenchWorker *>(), &BenchWorker::raceProgress)); // after the page's
        QVERIFY(race->startRace());
        QTRY_VERIFY_WITH_TIMEOUT(race->chart()->barCount() >= 1, 120000);
        race->cancelRace();
        gate.release();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        QVERIFY(race->race().cancelled);
        const FilterSpec *filter = findFilter("sobel");
        QVERIFY(int(race->race().entries.size()) < int(filter->variants.size()) + 2);
        QVERIFY(race->chart()->barCount() >= 1);
        QVERIFY(!race->isRacing());
        QVERIFY(race->raceAction()->isEnabled()); // ready for the next race
    }
};

QTEST_MAIN(TestGuiRace)
#include "tst_gui_race.moc"
