// The Tuner page in the real window, offscreen on PoCL: one heat-map cell per shape run, the best one
// applied goes into the tuning database and the next auto launch of the window uses it ("tuned"),
// Cancel stops midway, block variants can tune their output block too. A private cache folder: the tuned
// shape must not leak into other suites.
#include "TestSupport.h"
#include "GuiTestSupport.h"

#include "ControlPanel.h"
#include "MainWindow.h"
#include "TuneHeatMap.h"
#include "TunerPage.h"

#include <QMenu>
#include <QMenuBar>
#include <QCheckBox>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace fwb;

class TestGuiTuner : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_cache;

    static TunerPage *tunerPage(MainWindow &window) { return test::findPage<TunerPage>(window); }
    static bool setUp(MainWindow &window, const DeviceInfo &device, int w, int h)
    {
        test::PageWindowSetup setup;
        setup.variant = "separable";
        setup.autoLocal = true;
        return test::setUpPageWindow(window, device, w, h, setup);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid());
        // Before the first window: the workbench's tuning database is read once, from this folder.
        qputenv("FWB_CACHE_DIR", m_cache.path().toLocal8Bit());
    }

    // The bug behind `--screenshot --tune` exiting 0 without tuning: the page never heard of the image.
    void startsRightAfterTheImageOpens()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow window(false);
        ControlPanel *c = window.controls();
        c->setAutoRun(false);
        QVERIFY(c->setDeviceSpec(QString::fromStdString(device.spec())));
        window.openTestCard(64, 48);
        TunerPage *tuner = tunerPage(window);
        QVERIFY(tuner->startAction()->isEnabled());
        QSignalSpy finished(tuner, &JobPage::jobFinished);
        QVERIFY(tuner->startJob());
        tuner->cancelJob();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
    }

    void oneCellPerShapeAndTheTunedShapeIsUsed()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow window(false);
        window.show();
        QVERIFY(setUp(window, device, 160, 120));
        TunerPage *tuner = tunerPage(window);
        int progress = 0;
        connect(tuner->findChild<BenchWorker *>(), &BenchWorker::progress, this,
                [&](const BenchProgress &) { ++progress; });
        QSignalSpy finished(tuner, &JobPage::jobFinished);
        QVERIFY(tuner->startJob());
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        const TuneResult &tune = tuner->heatMap()->tune();
        QVERIFY(!tune.cancelled);
        QCOMPARE(int(tune.cells.size()), progress); // one cell per shape run (refused ones included)
        QVERIFY(tune.best >= 0);
        QVERIFY(tuner->applyButton()->isEnabled());
        // When no shape beat the default, the summary says the default is best and Apply keeps it.
        const LocalSize best = tune.defaultIsBest() ? tune.defaultRun.local : tune.cells[tune.best].local;
        const QString summary = tuner->findChild<QLabel *>("tuneSummary")->text();
        QVERIFY2(summary.contains("default launch") && (tune.defaultIsBest() == summary.contains("is best")),
                 qPrintable(summary));
        QVERIFY2(!summary.contains("as fast"), qPrintable(summary));

        // Issue 24: a shape chosen by hand hid the applied one, and nothing ran again. Apply Best sets the
        // controls back to auto and reruns by itself.
        QVERIFY(window.controls()->setLocalSizeText("8x8"));
        QSignalSpy applied(tuner, &TunerPage::bestApplied);
        QSignalSpy shown(&window, &MainWindow::resultShown);
        QVERIFY(tuner->applyBest());
        QCOMPARE(applied.count(), 1);
        QVERIFY(QFileInfo::exists(m_cache.filePath("tuning.json")));
        QVERIFY(!window.controls()->localSize().isConcrete());

        // The rerun (an auto launch of this variant, format and size class) uses the tuned shape.
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 60000);
        const RunResult &r = window.lastResult().run;
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(QString::fromLatin1(localSourceName(r.localSource)), QStringLiteral("tuned"));
        QCOMPARE(r.local.width, best.width);
        QCOMPARE(r.local.height, best.height);
    }

    // "Tune output block too", offered for block variants only: the blocks come first (each at the
    // default shape), and the summary names the fastest one. Cancelled after two blocks.
    void tunesTheOutputBlock()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow window(false);
        window.show();
        test::PageWindowSetup setup;
        setup.variant = "naive";
        setup.autoLocal = true;
        QVERIFY(test::setUpPageWindow(window, device, 67, 45, setup));
        TunerPage *tuner = tunerPage(window);
        QVERIFY(!tuner->blocksOption()->isEnabled()); // one output per work-item
        QVERIFY(window.controls()->setVariantName("strips"));
        QTRY_VERIFY(tuner->blocksOption()->isEnabled());
        tuner->blocksOption()->setChecked(true);
        QSignalSpy finished(tuner, &JobPage::jobFinished);
        connect(tuner->findChild<BenchWorker *>(), &BenchWorker::progress, this, [&](const BenchProgress &p) {
            QVERIFY(std::get<TuneCell>(p.what).blockStage);
            if (p.done == 2)
                tuner->cancelJob();
        });
        QVERIFY(tuner->startJob());
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        const TuneResult &tune = tuner->heatMap()->tune();
        QVERIFY(tune.tunedBlocks());
        QVERIFY(tune.cells.size() >= 2);
        QVERIFY(tune.best >= 0);
        const QString summary = tuner->findChild<QLabel *>("tuneSummary")->text();
        QVERIFY2(summary.contains(QStringLiteral("with output block <b>%1</b>")
                                      .arg(QString::fromStdString(tune.cells[tune.best].block.toString()))),
                 qPrintable(summary));
    }

    void cancelMidway()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow window(false);
        window.show();
        QVERIFY(setUp(window, device, 800, 600));
        window.controls()->setRepeat(3);
        TunerPage *tuner = tunerPage(window);
        QSignalSpy finished(tuner, &JobPage::jobFinished);
        int total = 0, done = 0;
        // The worker waits after its first cell until the page has cancelled.
        test::WorkerGate gate;
        connect(tuner->findChild<BenchWorker *>(), &BenchWorker::progress, this, [&](const BenchProgress &p) {
            done = p.done;
            total = p.total;
            if (p.done == 1)
                tuner->cancelJob();
            gate.release();
        });
        QVERIFY(gate.attach(tuner->findChild<BenchWorker *>(), &BenchWorker::progress)); // after the slot above
        QVERIFY(tuner->startJob());
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        QVERIFY(tuner->heatMap()->tune().cancelled);
        QVERIFY2(done < total, qPrintable(QStringLiteral("%1 of %2").arg(done).arg(total)));
        QVERIFY(!tuner->isTuning());
        QVERIFY(tuner->startAction()->isEnabled());
    }
};

QTEST_MAIN(TestGuiTuner)
#include "tst_gui_tuner.moc"
