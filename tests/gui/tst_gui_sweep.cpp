// The Sweep page in the real window, offscreen on PoCL: sigma over a range for the separable Gaussian
// and the recursive one on the same chart, one point per run (every variant at every value), log
// axes when the range spans a factor of ten, Cancel stops midway with the points so far.
#include "TestSupport.h"
#include "GuiTestSupport.h"

#include "ControlPanel.h"
#include "MainWindow.h"
#include "Report.h"
#include "SweepPage.h"
#include "VariantLimits.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMenu>
#include <QPen>
#include <QSet>
#include <QMenuBar>
#include <QSignalSpy>

using namespace fwb;

class TestGuiSweep : public QObject
{
    Q_OBJECT

private:
    static SweepPage *sweepPage(MainWindow &window) { return test::findPage<SweepPage>(window); }
    static bool setUp(MainWindow &window, const DeviceInfo &device, const QString &filter, int w, int h)
    {
        test::PageWindowSetup setup;
        setup.filter = filter;
        setup.repeat = 1;
        return test::setUpPageWindow(window, device, w, h, setup);
    }
    static int runnableVariants(const std::string &filter, const DeviceInfo &device)
    {
        int n = 0;
        for (const VariantSpec &v : findFilter(filter)->variants)
            n += variantUnavailableReason(v, device, PixelFormat::Gray8).empty() ? 1 : 0;
        return n;
    }

    // Runs a sweep makes: the runnable variants at the values their parameters allow (gaussian strips
    // stops at radius 8, sigma 2.66).
    static int runnablePoints(const std::string &filter, const DeviceInfo &device, std::initializer_list<double> sigmas)
    {
        const FilterSpec *spec = findFilter(filter);
        int n = 0;
        for (const VariantSpec &v : spec->variants) {
            if (!variantUnavailableReason(v, device, PixelFormat::Gray8).empty())
                continue;
            for (double sigma : sigmas) {
                FilterParams params;
                if (!applyParam(*spec, params, "sigma=" + std::to_string(sigma)).empty())
                    return -1;
                n += paramsUnavailableReason(*spec, v, params).empty() ? 1 : 0;
            }
        }
        return n;
    }

private slots:
    void defaultsFollowTheFilter()
    {
        MainWindow window(false);
        window.controls()->setAutoRun(false);
        SweepPage *sweep = sweepPage(window);
        QVERIFY(window.controls()->setFilterName("gaussian"));
        QCOMPARE(sweep->param(), QStringLiteral("sigma"));
        QVERIFY(sweep->values().size() >= 2);
        QVERIFY(window.controls()->setFilterName("box"));
        QCOMPARE(sweep->param(), QStringLiteral("radius"));
        for (double v : sweep->values())
            QCOMPARE(v, std::round(v)); // an integer parameter sweeps whole numbers
    }

    void onePointPerRunOnTwoFilters()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow window(false);
        window.show();
        QVERIFY(setUp(window, device, "gaussian", 96, 64));
        SweepPage *sweep = sweepPage(window);
        QVERIFY(sweep->setParam("sigma"));
        sweep->setRange(1, 16, 3); // 1, 4, 16: a factor of 16, so the x axis is logarithmic
        QVERIFY(sweep->setCompareFilter("recursive_gaussian"));
        const int lines = runnableVariants("gaussian", device) + runnableVariants("recursive_gaussian", device);
        QSignalSpy finished(sweep, &JobPage::jobFinished);
        std::vector<int> points;
        connect(sweep->findChild<BenchWorker *>(), &BenchWorker::progress, this,
                [&](const BenchProgress &progress) { points.push_back(progress.done); });
        QVERIFY(sweep->startJob());
        QVERIFY(!sweep->startJob());
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        QVERIFY(!sweep->sweep().cancelled);
        QCOMPARE(int(sweep->sweep().values.size()), 3);
        QCOMPARE(sweep->seriesCount(), lines);
        QVERIFY2(points.size() >= 3, "the chart did not fill in value by value");
        // One point per run: every runnable variant of both filters at every value its parameters allow.
        const int runs = runnablePoints("gaussian", device, {1, 4, 16}) + runnablePoints("recursive_gaussian", device, {1, 4, 16});
        QVERIFY(runs > lines && runs <= lines * 3);
        QCOMPARE(sweep->pointCount(), runs);
        int drawn = 0;
        for (QAbstractSeries *series : sweep->chartView()->chart()->series())
            drawn += int(qobject_cast<QLineSeries *>(series)->count());
        QCOMPARE(drawn, runs);
        // Issue 24: the theme's five colours came round again, so lines looked alike in pairs. The first twenty
        // lines each have a colour of their own, and no two lines share both colour and dash.
        QSet<QRgb> colours;
        QSet<QPair<QRgb, int>> looks;
        const QList<QAbstractSeries *> all = sweep->chartView()->chart()->series();
        for (QAbstractSeries *series : all) {
            const QPen pen = qobject_cast<QLineSeries *>(series)->pen();
            if (colours.size() < qsizetype(kSeriesColourCount))
                QVERIFY2(!colours.contains(pen.color().rgb()), qPrintable(series->name() + " repeats a colour"));
            colours.insert(pen.color().rgb());
            looks.insert({pen.color().rgb(), int(pen.style())});
        }
        QCOMPARE(looks.size(), all.size());
        bool logX = false;
        for (QAbstractAxis *axis : sweep->chartView()->chart()->axes(Qt::Horizontal))
            logX = logX || qobject_cast<QLogValueAxis *>(axis);
        QVERIFY(logX);
        // Series of the compare filter are named filter/variant.
        int compare = 0;
        for (const SweepSeries &s : sweep->sweep().series)
            compare += s.variant.rfind("recursive_gaussian/", 0) == 0 ? 1 : 0;
        QCOMPARE(compare, runnableVariants("recursive_gaussian", device));
    }

    void cancelMidway()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow window(false);
        window.show();
        QVERIFY(setUp(window, device, "gaussian", 320, 240));
        SweepPage *sweep = sweepPage(window);
        sweep->setRange(0.5, 16, 8);
        sweep->setCompareFilter(QString());
        QSignalSpy finished(sweep, &JobPage::jobFinished);
        int total = 0, done = 0;
        // The worker waits after its first point until the page has cancelled.
        test::WorkerGate gate;
        connect(sweep->findChild<BenchWorker *>(), &BenchWorker::progress, this,
                [&](const BenchProgress &progress) {
                    done = progress.done;
                    total = progress.total;
                    sweep->cancelJob();
                    gate.release();
                });
        QVERIFY(gate.attach(sweep->findChild<BenchWorker *>(), &BenchWorker::progress)); // after the slot above
        QVERIFY(sweep->startJob());
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        QVERIFY(sweep->sweep().cancelled);
        QVERIFY2(done < total, qPrintable(QStringLiteral("%1 of %2").arg(done).arg(total)));
        QVERIFY(sweep->pointCount() >= 1);
        QVERIFY(!sweep->isSweeping());
        QVERIFY(sweep->startAction()->isEnabled());
    }
};

QTEST_MAIN(TestGuiSweep)
#include "tst_gui_sweep.moc"
