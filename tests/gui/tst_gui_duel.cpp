// The Duel page in the real window, offscreen on PoCL: the current variant on two devices (the test
// device twice, since CI has one; and the device against the CPU reference), both pictures and one
// kernel and one end-to-end bar per side; Cancel stops between the sides.
#include "TestSupport.h"
#include "GuiTestSupport.h"

#include "ControlPanel.h"
#include "DuelPage.h"
#include "MainWindow.h"

#include <QBarCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QTabWidget>
#include <QValueAxis>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>

using namespace fwb;

class TestGuiDuel : public QObject
{
    Q_OBJECT

private:
    static DuelPage *duelPage(MainWindow &window) { return test::findPage<DuelPage>(window); }
    static bool setUp(MainWindow &window, const DeviceInfo &device, int w, int h)
    {
        test::PageWindowSetup setup;
        setup.variant = "separable";
        setup.format.reset(); // the format follows the test card
        return test::setUpPageWindow(window, device, w, h, setup);
    }

private slots:
    void duel_data()
    {
        QTest::addColumn<QString>("right");
        QTest::newRow("same device twice") << QString();
        QTest::newRow("against the CPU reference") << QStringLiteral("cpu-multi");
    }

    void duel()
    {
        FWB_REQUIRE_DEVICE(device);
        QFETCH(QString, right);
        MainWindow window(false);
        window.show();
        QVERIFY(setUp(window, device, 200, 150));
        DuelPage *duel = duelPage(window);
        const QString spec = QString::fromStdString(device.spec());
        QVERIFY(duel->setSideSpec(0, spec));
        QVERIFY(duel->setSideSpec(1, right.isEmpty() ? spec : right));
        QSignalSpy finished(duel, &JobPage::jobFinished);
        QVERIFY(duel->startJob());
        QVERIFY(!duel->startJob());
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        for (int side = 0; side < 2; ++side) {
            QVERIFY2(duel->hasResult(side), duel->result(side).run.error.c_str());
            QVERIFY(duel->result(side).run.ok());
            QCOMPARE(duel->result(side).run.variant, std::string("separable"));
            QVERIFY(!duel->result(side).output.isNull());
        }
        QCOMPARE(duel->result(0).engine.isCpu(), false);
        QCOMPARE(duel->result(1).engine.isCpu(), !right.isEmpty());
        // Both pictures on show, one kernel and one end-to-end bar per side.
        for (const char *name : {"duelLeftImage", "duelRightImage"}) {
            auto *label = duel->findChild<QLabel *>(name);
            QVERIFY(label && !label->pixmap().isNull());
        }
        QCOMPARE(duel->barCount(), 4);
        QVERIFY(!duel->isDueling());
    }

    // At 1366x768 (issue 24) the chart's axes read: the side names fit beside the plot instead of
    // shrinking to "…", the millisecond ticks fit their spacing, and the bars get room for their labels.
    void axesReadAtLaptopSize()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow window(false);
        window.resize(1366, 700); // 768 less a window manager's title bar and panel
        window.show();
        QVERIFY(setUp(window, device, 200, 150));
        DuelPage *duel = duelPage(window);
        QVERIFY(duel->setSideSpec(0, QString::fromStdString(device.spec())));
        QVERIFY(duel->setSideSpec(1, QStringLiteral("cpu-multi")));
        if (auto *tabs = window.findChild<QTabWidget *>())
            tabs->setCurrentWidget(duel); // the page on show, laid out at this window size
        QSignalSpy finished(duel, &JobPage::jobFinished);
        QVERIFY(duel->startJob());
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        QCoreApplication::processEvents();
        auto *view = duel->findChild<QChartView *>("duelChart");
        QVERIFY(view);
        QVERIFY2(view->height() >= 170, qPrintable(QString::number(view->height())));
        QChart *chart = view->chart();
        const QRectF plot = chart->plotArea();
        for (QAbstractAxis *axis : chart->axes()) {
            const QFontMetrics fm(axis->labelsFont());
            if (auto *names = qobject_cast<QBarCategoryAxis *>(axis)) {
                for (const QString &name : names->categories())
                    QVERIFY2(fm.horizontalAdvance(name) <= plot.left(),
                             qPrintable(name + QStringLiteral(" is wider than the %1 px beside the plot").arg(plot.left())));
            } else if (auto *ms = qobject_cast<QValueAxis *>(axis)) {
                const QString widest = QString::asprintf(ms->labelFormat().toUtf8().constData(), ms->max());
                const double spacing = plot.width() / std::max(1, ms->tickCount() - 1);
                QVERIFY2(fm.horizontalAdvance(widest) < spacing,
                         qPrintable(widest + QStringLiteral(" in %1 px between ticks").arg(spacing)));
            }
        }
    }

    void cancelMidway()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow window(false);
        window.show();
        QVERIFY(setUp(window, device, 800, 600));
        window.controls()->setRepeat(200);
        DuelPage *duel = duelPage(window);
        const QString spec = QString::fromStdString(device.spec());
        QVERIFY(duel->setSideSpec(0, spec));
        QVERIFY(duel->setSideSpec(1, spec));
        QSignalSpy finished(duel, &JobPage::jobFinished);
        // The left side's worker waits at the start of its run until the page has cancelled.
        const QList<ComputeWorker *> workers = duel->findChildren<ComputeWorker *>();
        QCOMPARE(workers.size(), 2);
        test::WorkerGate gate;
        QVERIFY(gate.attach(workers.front(), &ComputeWorker::runStarted));
        QVERIFY(duel->startJob());
        QTRY_VERIFY_WITH_TIMEOUT(gate.holding(), 60000);
        duel->cancelJob();
        gate.release();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        QVERIFY(!duel->hasResult(1)); // the second side never started
        QVERIFY(!duel->isDueling());
        QCOMPARE(duel->barCount(), duel->hasResult(0) ? 2 : 0);
        QVERIFY(duel->startAction()->isEnabled());
    }
};

QTEST_MAIN(TestGuiDuel)
#include "tst_gui_duel.moc"
