// ComputeWorker on its own: results as values, coalescing, cancel, CPU engines, abort on destruction.
#include "TestSupport.h"

#include "Catalogue.h"
#include "ComputeWorker.h"
#include "TimingPanel.h"

#include <QElapsedTimer>
#include <QSignalSpy>

#include <algorithm>

using namespace fwb;

// The worker emits from its own thread; a QSignalSpy on it (Qt 6.4) appends there without a lock
// while the test reads it here (ThreadSanitizer: data race in QSignalSpy::appendArgs). The relay
// lives on the test's thread and re-emits what arrives through queued connections, so the spies
// are only ever touched here.
class WorkerRelay : public QObject
{
    Q_OBJECT
public:
    explicit WorkerRelay(ComputeWorker *worker)
    {
        connect(worker, &ComputeWorker::runStarted, this, &WorkerRelay::runStarted, Qt::QueuedConnection);
        connect(worker, &ComputeWorker::runFinished, this, &WorkerRelay::runFinished, Qt::QueuedConnection);
        connect(worker, &ComputeWorker::firstPicture, this, &WorkerRelay::firstPicture, Qt::QueuedConnection);
        connect(worker, &ComputeWorker::copyBandwidthMeasured, this, &WorkerRelay::copyBandwidthMeasured,
                Qt::QueuedConnection);
    }
signals:
    void copyBandwidthMeasured(quint64 id, double gbps);
    void runStarted(quint64 id);
    void firstPicture(const fwb::ComputeResult &preview);
    void runFinished(const fwb::ComputeResult &result);
};

// A worker with its signals watched (queued, as the window receives them).
struct WatchedWorker
{
    ComputeWorker worker;
    WorkerRelay relay{&worker};
    QSignalSpy started{&relay, &WorkerRelay::runStarted};
    QSignalSpy finished{&relay, &WorkerRelay::runFinished};
    QSignalSpy early{&relay, &WorkerRelay::firstPicture};

    // Submits one request and waits for its result (an empty result after 60 s).
    ComputeResult runAndWait(const ComputeRequest &r)
    {
        const int before = finished.count();
        worker.submit(r);
        return QTest::qWaitFor([&] { return finished.count() > before; }, 60000)
                   ? finished.last().at(0).value<ComputeResult>()
                   : ComputeResult();
    }
};

// ... and a large test card, for a run long enough to interrupt.
struct LongRun : WatchedWorker
{
    std::shared_ptr<const Image> image = std::make_shared<const Image>(makeTestCard(2000, 1500, PixelFormat::Gray8));
};

class TestGuiWorker : public QObject
{
    Q_OBJECT

private:
    // Submits 1000 repeats (id 1) and returns once they have run a moment; false if they never started.
    bool startLongRun(LongRun &run, const DeviceInfo &device)
    {
        ComputeRequest r = request(device, run.image, 1000);
        r.id = 1;
        run.worker.submit(r);
        if (!QTest::qWaitFor([&] { return !run.started.isEmpty(); }, 30000))
            return false;
        QTest::qWait(200);
        return true;
    }

    ComputeRequest request(const DeviceInfo &device, std::shared_ptr<const Image> image, int repeat = 2)
    {
        ComputeRequest r;
        r.engine.device = device;
        r.input = std::move(image);
        r.run.filter = "gaussian5x5";
        r.run.variant = "unrolled_constant";
        r.run.repeat = repeat;
        r.run.params.format = PixelFormat::Gray8;
        return r;
    }

    static ComputeResult lastOf(const QSignalSpy &spy)
    {
        return spy.last().at(0).value<ComputeResult>();
    }

    // Both runs' pictures: the same size and the same bytes.
    static bool samePixels(const ComputeResult &a, const ComputeResult &b)
    {
        return a.outputImage && b.outputImage && a.outputImage->sizeBytes() == b.outputImage->sizeBytes()
               && std::equal(a.outputImage->data(), a.outputImage->data() + a.outputImage->sizeBytes(),
                             b.outputImage->data());
    }

private slots:
    // First (the copy speed is measured once per process): the first result does not wait for the copy
    // probe (2 s on PoCL, issue 25): it comes marked pending, without a figure, and the figure follows for
    // its id; the timing panel says "measuring…" and no % of it until then. A later result has it at once.
    void copyProbeAfterTheFirstResult()
    {
        FWB_REQUIRE_DEVICE(device);
        WatchedWorker watched;
        QSignalSpy measured(&watched.relay, &WorkerRelay::copyBandwidthMeasured);
        auto image = std::make_shared<const Image>(makeTestCard(64, 48, PixelFormat::Gray8));
        ComputeRequest r = request(device, image);
        r.id = 3;
        const ComputeResult first = watched.runAndWait(r);
        QVERIFY2(first.run.ok(), first.run.error.c_str());
        QVERIFY(first.copyBandwidthPending);
        QCOMPARE(first.copyBandwidthGBps, 0.0);
        QVERIFY(measured.isEmpty() || measured.count() == 1); // it may have come with the result's signal
        TimingPanel panel;
        panel.setResult(first);
        QVERIFY2(panel.numbersText().contains("copy speed: measuring…"), qPrintable(panel.numbersText()));
        QVERIFY(!panel.numbersText().contains("% of the device's copy speed"));
        QTRY_VERIFY_WITH_TIMEOUT(measured.count() == 1, 60000);
        QCOMPARE(measured.first().at(0).value<quint64>(), quint64(3));
        const double gbps = measured.first().at(1).toDouble();
        QVERIFY(gbps > 0);
        panel.setCopyBandwidth(gbps);
        QVERIFY2(panel.numbersText().contains("% of the device's copy speed"), qPrintable(panel.numbersText()));
        QVERIFY(!panel.numbersText().contains("measuring"));

        r.id = 4;
        const ComputeResult second = watched.runAndWait(r);
        QVERIFY(second.run.ok() && !second.copyBandwidthPending);
        QCOMPARE(second.copyBandwidthGBps, gbps);
        QTest::qWait(100);
        QCOMPARE(measured.count(), 1); // measured once
    }

    void resultMatchesReference()
    {
        FWB_REQUIRE_DEVICE(device);
        WatchedWorker watched;
        auto image = std::make_shared<const Image>(makeTestCard(259, 194, PixelFormat::Rgba8888));
        ComputeRequest r = request(device, image);
        r.id = 7;
        watched.worker.submit(r);
        QTRY_VERIFY_WITH_TIMEOUT(!watched.finished.isEmpty(), 60000);
        const ComputeResult result = lastOf(watched.finished);
        QCOMPARE(result.id, quint64(7));
        QVERIFY2(result.run.ok(), result.run.error.c_str());
        QVERIFY(result.run.matches);
        QCOMPARE(result.output.size(), QSize(259, 194));
        QVERIFY(!result.heatMap.isNull());
        QVERIFY(result.maxDiff >= 0 && result.maxDiff <= findFilter("gaussian5x5")->tolerance);
        QVERIFY(result.run.kernelMs.median > 0);
    }

    // earlyPicture: the first launch's picture, checked, arrives while the repeats still run, and is the picture
    // the whole result brings; without it (the duel, the lesson) nothing comes early.
    void firstPictureBeforeTheRepeats()
    {
        FWB_REQUIRE_DEVICE(device);
        WatchedWorker watched;
        ComputeWorker &worker = watched.worker;
        QSignalSpy &early = watched.early;
        QSignalSpy &finished = watched.finished;
        auto image = std::make_shared<const Image>(makeTestCard(259, 194, PixelFormat::Rgba8888));
        ComputeRequest r = request(device, image, 4000); // repeats that take far longer than one launch
        r.id = 11;
        r.earlyPicture = true;
        worker.submit(r);
        QTRY_VERIFY_WITH_TIMEOUT(!early.isEmpty() || !finished.isEmpty(), 60000);
        QVERIFY2(finished.isEmpty(), "the picture waited for the repeats");
        QVERIFY(worker.isBusy());
        const ComputeResult preview = lastOf(early);
        QCOMPARE(preview.id, quint64(11));
        QVERIFY(preview.timingPending);
        QVERIFY(preview.run.checked && preview.run.matches);
        QCOMPARE(preview.run.kernelMs.median, 0.0); // no timing claimed before it is measured
        QCOMPARE(preview.run.cpuSingleMs, -1.0);
        QCOMPARE(preview.output.size(), QSize(259, 194));
        QVERIFY(!preview.heatMap.isNull());
        QVERIFY(!preview.convertedInput.isNull()); // an rgba8888 card shown as the gray8 the kernel read
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 240000);
        const ComputeResult result = lastOf(finished);
        QVERIFY2(result.run.ok(), result.run.error.c_str());
        QVERIFY(!result.timingPending);
        QCOMPARE(early.count(), 1);
        QCOMPARE(preview.output, result.output);
        QCOMPARE(preview.maxDiff, result.maxDiff);
        QCOMPARE(preview.run.maxAbsDiff, result.run.maxAbsDiff);
        QVERIFY(result.run.kernelMs.median > 0);

        r.id = 12;
        r.earlyPicture = false;
        r.run.repeat = 2;
        QVERIFY(watched.runAndWait(r).run.ok());
        QCOMPARE(early.count(), 1);
    }

    void coalescesRequests()
    {
        FWB_REQUIRE_DEVICE(device);
        WatchedWorker watched;
        auto image = std::make_shared<const Image>(makeTestCard(640, 480, PixelFormat::Gray8));
        for (int i = 1; i <= 20; ++i) {
            ComputeRequest r = request(device, image);
            r.id = quint64(i);
            r.run.params.values["sigma"] = 0.5 + i * 0.05;
            watched.worker.submit(r);
        }
        QTRY_VERIFY_WITH_TIMEOUT(!watched.finished.isEmpty() && lastOf(watched.finished).id == 20, 60000);
        // Far fewer than 20 runs started: requests waiting in line were replaced, not queued.
        QVERIFY2(watched.worker.startedCount() <= 3, qPrintable(QString::number(watched.worker.startedCount())));
        int fresh = 0;
        for (const QList<QVariant> &args : watched.finished)
            fresh += args.at(0).value<ComputeResult>().superseded ? 0 : 1;
        QCOMPARE(fresh, 1);
        QVERIFY(lastOf(watched.finished).run.ok());
    }

    void cancelStopsLongRun()
    {
        FWB_REQUIRE_DEVICE(device);
        LongRun run;
        QVERIFY(startLongRun(run, device));
        QElapsedTimer timer;
        timer.start();
        run.worker.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!run.finished.isEmpty(), 30000);
        QVERIFY(lastOf(run.finished).run.cancelled);
        QVERIFY(timer.elapsed() < 10000);
    }

    // Qt's Mandelbrot restart (SessionWorker::replaceJob): a newer request stops the run in progress.
    void newerRequestCancelsRunningOne()
    {
        FWB_REQUIRE_DEVICE(device);
        LongRun run;
        QVERIFY(startLongRun(run, device));
        ComputeRequest next = request(device, run.image);
        next.id = 2;
        run.worker.submit(next);
        QTRY_VERIFY_WITH_TIMEOUT(run.finished.count() == 2, 30000);
        const ComputeResult first = run.finished.at(0).at(0).value<ComputeResult>();
        QCOMPARE(first.id, quint64(1));
        QVERIFY(first.run.cancelled && first.superseded);
        QCOMPARE(lastOf(run.finished).id, quint64(2));
        QVERIFY(lastOf(run.finished).run.ok() && !lastOf(run.finished).superseded);
    }

    void cpuEnginesRunTheReference()
    {
        WatchedWorker watched;
        auto image = std::make_shared<const Image>(makeTestCard(300, 200, PixelFormat::Rgba8888));
        for (auto kind : {ComputeEngine::CpuSingle, ComputeEngine::CpuMulti}) {
            ComputeRequest r;
            r.engine.kind = kind;
            r.input = image;
            r.run.filter = catalogue().front().name;
            r.run.variant = catalogue().front().variants.front().name;
            r.run.params.format = PixelFormat::Rgba8888;
            const int before = watched.finished.count();
            watched.worker.submit(r);
            QTRY_VERIFY_WITH_TIMEOUT(watched.finished.count() > before, 60000);
            const ComputeResult result = lastOf(watched.finished);
            QVERIFY2(result.run.ok(), result.run.error.c_str());
            QCOMPARE(result.output.size(), QSize(300, 200));
            QVERIFY(result.run.kernelMs.median > 0);
        }
    }

    void destructorAbortsRun()
    {
        FWB_REQUIRE_DEVICE(device);
        auto *worker = new ComputeWorker;
        WorkerRelay relay(worker);
        QSignalSpy started(&relay, &WorkerRelay::runStarted);
        auto image = std::make_shared<const Image>(makeTestCard(2000, 1500, PixelFormat::Gray8));
        worker->submit(request(device, image, 1000));
        QTRY_VERIFY_WITH_TIMEOUT(!started.isEmpty(), 30000);
        QTest::qWait(100);
        QElapsedTimer timer;
        timer.start();
        delete worker; // abort, wake, wait
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed())));
    }

    // Pinned: the worker runs the session on a page-locked copy of the image, made once per image,
    // device and format; streamed tiles go straight from it too (staging 0), byte-identical to pageable.
    void pinnedRunsFromPageLockedCopy()
    {
        FWB_REQUIRE_DEVICE(device);
        WatchedWorker watched;
        auto image = std::make_shared<const Image>(makeTestCard(301, 157, PixelFormat::Rgba8888));
        ComputeRequest r = request(device, image, 1);
        r.run.tileWidth = 128;
        r.run.tileHeight = 48;
        const ComputeResult pageable = watched.runAndWait(r);
        QVERIFY2(pageable.run.ok(), pageable.run.error.c_str());
        QVERIFY(pageable.run.tiles > 1 && !pageable.pageLockedInput);
        r.run.transfer = TransferMode::Pinned;
        const ComputeResult first = watched.runAndWait(r);
        QVERIFY2(first.run.ok(), first.run.error.c_str());
        QVERIFY(first.pageLockedInput && first.pageLockedCopyMs >= 0);
        QCOMPARE(first.run.tiles, pageable.run.tiles);
        QCOMPARE(first.run.stagingMs, 0.0);
        QVERIFY(samePixels(first, pageable));
        const ComputeResult again = watched.runAndWait(r);
        QVERIFY(again.pageLockedInput);
        QCOMPARE(again.pageLockedCopyMs, -1.0); // the same image: the copy is reused
        r.input = std::make_shared<const Image>(*image); // same pixels, another image: copied again
        const ComputeResult other = watched.runAndWait(r);
        QVERIFY(other.pageLockedInput && other.pageLockedCopyMs >= 0);
        QCOMPARE(other.run.stagingMs, 0.0);
    }

    // No page-locked memory to be had: the run stages through pinned buffers (same pixels) and the
    // timing panel says why; a later image gets its page-locked copy again.
    void pinnedFallsBackToStaging()
    {
        FWB_REQUIRE_DEVICE(device);
        WatchedWorker watched;
        auto image = std::make_shared<const Image>(makeTestCard(203, 101, PixelFormat::Gray8));
        ComputeRequest r = request(device, image, 1);
        const ComputeResult pageable = watched.runAndWait(r);
        QVERIFY2(pageable.run.ok(), pageable.run.error.c_str());
        r.run.transfer = TransferMode::Pinned;
        qputenv("FWB_TEST_NO_PAGE_LOCKED", "1");
        const ComputeResult staged = watched.runAndWait(r);
        qunsetenv("FWB_TEST_NO_PAGE_LOCKED");
        QVERIFY2(staged.run.ok(), staged.run.error.c_str());
        QVERIFY(!staged.pageLockedInput);
        QVERIFY(staged.run.stagingMs > 0);
        QVERIFY2(QString::fromStdString(staged.run.transferNote).startsWith("no page-locked copy of the image"),
                 staged.run.transferNote.c_str());
        QVERIFY(samePixels(staged, pageable));
        TimingPanel panel;
        panel.setResult(staged);
        QVERIFY2(panel.numbersText().contains("no page-locked copy of the image"), qPrintable(panel.numbersText()));
        r.input = std::make_shared<const Image>(*image);
        const ComputeResult again = watched.runAndWait(r);
        QVERIFY(again.pageLockedInput && again.run.stagingMs == 0);
        panel.setResult(again);
        QVERIFY2(panel.numbersText().contains("staging 0.000 ms (image page-locked"), qPrintable(panel.numbersText()));
    }

    // At 1366x768 the timing dock is about 840 px wide: the history chart, squeezed beside the numbers
    // to a ~60 px sliver, goes below them and takes the panel's width (issue 24).
    void historyChartReadableWhenNarrow()
    {
        TimingPanel panel;
        panel.resize(840, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto *chart = panel.findChild<QWidget *>("historyChart");
        QVERIFY(chart);
        QTRY_VERIFY2(chart->width() >= 600, qPrintable(QString::number(chart->width())));
        QVERIFY(chart->height() >= 200);
        panel.resize(1800, 500); // a wide dock keeps them side by side
        QTRY_VERIFY2(chart->width() < 1200 && chart->width() >= 500, qPrintable(QString::number(chart->width())));
    }

    void heatMapMarksDifferences()
    {
        Image a = makeTestCard(16, 8, PixelFormat::Gray8);
        Image b = a;
        b.row(3)[5] = std::uint8_t(b.row(3)[5] ^ 0x10);
        int maxDiff = -1;
        double mean = 0;
        qint64 count = -1;
        const QImage heat = differenceHeatMap(a, b, &maxDiff, &mean, &count);
        QCOMPARE(maxDiff, 16);
        QVERIFY(mean > 0);
        QCOMPARE(count, qint64(1)); // the caption's "in N of M pixels"
        // Every max-pooled level still shows the one differing pixel at full brightness.
        const std::vector<QImage> levels = maxPooledLevels(heat);
        for (std::size_t i = 0; i < levels.size(); ++i)
            QCOMPARE(levels[i].pixel(5 >> (i + 1), 3 >> (i + 1)), qRgb(255, 255, 255));
        QCOMPARE(heat.pixel(5, 3), qRgb(255, 255, 255));
        QCOMPARE(heat.pixel(0, 0), qRgb(0, 0, 0));
    }
};

QTEST_MAIN(TestGuiWorker)
#include "tst_gui_worker.moc"
