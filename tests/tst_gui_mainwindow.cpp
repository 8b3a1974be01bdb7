// The real workbench window, driven offscreen: open, every filter/variant vs the CPU reference,
// timing panel, work-group validation, cancel, save rules, run log, responsiveness, quitting.
#include "TestSupport.h"

#include "Catalogue.h"
#include "ComputeWorker.h"
#include "ControlPanel.h"
#include "ErrorBanner.h"
#include "ImageFileIo.h"
#include "ImageView.h"
#include "MainWindow.h"
#include "TimingPanel.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace fwb;

class TestGuiMainWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;

    // Runs the current controls once; returns the result (ok, expected failure or error).
    bool runOnce(MainWindow &window, ComputeResult *out, int timeoutMs = 120000)
    {
        QSignalSpy shown(&window, &MainWindow::resultShown);
        QSignalSpy failed(&window, &MainWindow::runFailed);
        if (!window.startRun())
            return false;
        QElapsedTimer timer;
        timer.start();
        while (shown.isEmpty() && failed.isEmpty() && timer.elapsed() < timeoutMs)
            QTest::qWait(20);
        if (shown.isEmpty() && failed.isEmpty())
            return false;
        const QSignalSpy &spy = shown.isEmpty() ? failed : shown;
        *out = spy.last().at(0).value<ComputeResult>();
        return true;
    }

    static double loadAverage()
    {
        QFile file("/proc/loadavg");
        if (!file.open(QIODevice::ReadOnly))
            return 0;
        return file.readAll().split(' ').value(0).toDouble();
    }

    QString writeImage(const QString &name, int w, int h)
    {
        QImage image(w, h, QImage::Format_RGB32);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                image.setPixel(x, y, qRgb((x * 7) & 255, (y * 5) & 255, (x * y) & 255));
        const QString path = m_dir.filePath(name);
        if (!image.save(path))
            return {};
        return path;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.filePath("settings"));
        QCoreApplication::setOrganizationName("fwb-gui-test");
        QCoreApplication::setApplicationName("tst_gui_mainwindow");
        m_window = std::make_unique<MainWindow>(false);
        m_window->controls()->setAutoRun(false);
        m_window->controls()->setRepeat(2);
        m_window->resize(1400, 900);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanupTestCase() { m_window.reset(); }

    void opensFilesAndTheTestCard()
    {
        MainWindow &w = *m_window;
        const QString path = writeImage("input.png", 97, 61);
        QVERIFY(!path.isEmpty());
        QVERIFY(w.loadFile(path));
        QCOMPARE(w.currentFile(), QFileInfo(path).absoluteFilePath());
        QCOMPARE(w.inputImage()->width(), 97);
        QCOMPARE(w.originalView()->image().size(), QSize(97, 61));
        QVERIFY(w.recentFiles().contains(QFileInfo(path).absoluteFilePath()));

        // A file that cannot be read: clear message, current image stays.
        QFile bad(m_dir.filePath("corrupted.png"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("\x89PNG\r\n\x1a\n not really a png");
        bad.close();
        QVERIFY(!w.loadFile(bad.fileName()));
        QVERIFY2(w.banner()->text().contains("Cannot load"), qPrintable(w.banner()->text()));
        QCOMPARE(w.inputImage()->width(), 97);
        w.banner()->dismiss();

        w.openTestCard(259, 194);
        QVERIFY(w.currentFile().isEmpty());
        QCOMPARE(w.originalView()->image().size(), QSize(259, 194));
    }

    void everyVariantMatchesReference_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QString>("variant");
        QTest::addColumn<int>("format");
        for (const FilterSpec &f : catalogue())
            for (const VariantSpec &v : f.variants) {
                const std::string row = f.name + "/" + v.name;
                QTest::newRow(row.c_str()) << QString::fromStdString(f.name)
                                           << QString::fromStdString(v.name) << int(PixelFormat::Gray8);
            }
        // One colour row: four channels go through the same path.
        QTest::newRow("gaussian5x5/unrolled_constant/rgba") << "gaussian5x5" << "unrolled_constant"
                                                            << int(PixelFormat::Rgba8888);
    }

    void everyVariantMatchesReference()
    {
        FWB_REQUIRE_DEVICE(device);
        QFETCH(QString, filter);
        QFETCH(QString, variant);
        QFETCH(int, format);
        MainWindow &w = *m_window;
        if (!w.inputImage() || w.inputImage()->width() != 259)
            w.openTestCard(259, 194);
        ControlPanel *c = w.controls();
        QVERIFY(c->setDeviceSpec(QString::fromStdString(device.spec())));
        QVERIFY(c->setLocalSizeText("auto"));
        QVERIFY(c->setPixelFormat(PixelFormat(format)));
        QVERIFY(c->setFilterName(filter));
        const FilterSpec *spec = findFilter(filter.toStdString());
        const VariantSpec *v = spec->variant(variant.toStdString());
        if (!variantUnavailableReason(*v, device, PixelFormat(format)).empty()) {
            QVERIFY(!c->availableVariants().contains(variant)); // shown disabled, with the reason
            QSKIP("variant unavailable on this device/format (shown disabled)");
        }
        QVERIFY(c->setVariantName(variant));
        const int before = w.timingPanel()->historyCount();
        ComputeResult result;
        QVERIFY(runOnce(w, &result));
        if (!result.run.ok()) {
            // Only an explained, expected failure is acceptable here.
            QVERIFY2(result.run.expectedFailure, result.run.error.c_str());
            QVERIFY(!w.banner()->text().isEmpty());
            return;
        }
        QCOMPARE(QString::fromStdString(result.run.variant), variant);
        // Independent oracle: the filter's own CPU reference on the same input.
        const Image src = w.inputImage()->convertedTo(PixelFormat(format));
        Image expected = spec->transposesOutput ? Image(src.height(), src.width(), src.format())
                                                : Image(src.width(), src.height(), src.format());
        if (spec->copySourceToDst)
            expected = src;
        spec->cpuReference(src, expected, c->params(), 1);
        const int diff = maxAbsDiff(*result.outputImage, expected);
        QVERIFY2(diff >= 0 && diff <= spec->tolerance,
                 qPrintable(QString("max diff %1 > tolerance %2").arg(diff).arg(spec->tolerance)));
        QCOMPARE(w.resultView()->image().size(), QSize(expected.width(), expected.height()));
        QVERIFY(w.timingPanel()->historyCount() > before
                || w.timingPanel()->historyCount() == TimingPanel::kHistoryLength);
        QVERIFY(w.timingPanel()->numbersText().contains("Kernel time"));
        QVERIFY(w.statusText().contains("Ran on"));
    }

    void viewModesShowTheRightImages()
    {
        MainWindow &w = *m_window;
        QVERIFY(w.hasResult());
        w.setViewMode(MainWindow::ViewMode::Split);
        QVERIFY(!w.originalView()->wipeImage().isNull());
        QVERIFY(w.resultView()->isHidden());
        w.setViewMode(MainWindow::ViewMode::Difference);
        QCOMPARE(w.resultView()->image().size(), w.lastResult().heatMap.size());
        w.setViewMode(MainWindow::ViewMode::SideBySide);
        // Synchronised zoom: zooming one view moves the other.
        w.originalView()->zoomBy(2.0);
        QCOMPARE(w.resultView()->zoom(), w.originalView()->zoom());
        QCOMPARE(w.resultView()->center(), w.originalView()->center());
        // Pixel readout for both images.
        QTest::mouseMove(w.originalView(), w.originalView()->rect().center());
        QTRY_VERIFY(w.pixelText().contains("original") && w.pixelText().contains("result"));
        w.originalView()->fitToWindow();
    }

    void invalidShapeShowsReasonAndLaunchesNothing()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow &w = *m_window;
        ControlPanel *c = w.controls();
        QVERIFY(c->setDeviceSpec(QString::fromStdString(device.spec())));
        QVERIFY(c->setFilterName("gaussian5x5"));
        QVERIFY(c->setVariantName("unrolled_constant"));
        QVERIFY(c->setLocalSizeText("4096x4096"));
        QVERIFY(!c->shapeProblem().isEmpty());
        auto *label = c->findChild<QLabel *>("shapeStatus");
        QVERIFY(label->text().contains(c->shapeProblem().toHtmlEscaped()));
        const int started = w.worker()->startedCount();
        QVERIFY(!w.startRun());
        QVERIFY2(w.statusText().contains("Not launched"), qPrintable(w.statusText()));
        QTest::qWait(300);
        QCOMPARE(w.worker()->startedCount(), started);

        // A shape within the device limits is checked against the kernel by the worker.
        QVERIFY(c->setLocalSizeText("8x8"));
        QTRY_VERIFY_WITH_TIMEOUT(label->text().contains("can launch"), 60000);
        QVERIFY(c->setLocalSizeText("auto"));
    }

    void cancelKeepsThePreviousResult()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow &w = *m_window;
        ControlPanel *c = w.controls();
        w.openTestCard(259, 194);
        ComputeResult first;
        QVERIFY(runOnce(w, &first));
        QVERIFY(first.run.ok());
        w.openTestCard(2400, 1600);
        c->setRepeat(1000);
        QSignalSpy started(w.worker(), &ComputeWorker::runStarted);
        QSignalSpy failed(&w, &MainWindow::runFailed);
        QVERIFY(w.startRun());
        QTRY_VERIFY_WITH_TIMEOUT(!started.isEmpty(), 60000);
        QTest::qWait(200);
        QElapsedTimer timer;
        timer.start();
        w.cancelRun();
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 30000);
        QVERIFY(failed.last().at(0).value<ComputeResult>().run.cancelled);
        QVERIFY(timer.elapsed() < 15000);
        QVERIFY(!w.isRunning());
        QVERIFY(w.statusText().contains("Cancelled"));
        c->setRepeat(2);
    }

    void saveIsAtomicAndNeverClobbersTheOriginal()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow &w = *m_window;
        const QString original = writeImage("original.png", 120, 80);
        QFile f(original);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray originalBytes = f.readAll();
        f.close();
        QVERIFY(w.loadFile(original));
        ComputeResult result;
        QVERIFY(runOnce(w, &result));
        QVERIFY(result.run.ok());

        QString error;
        QVERIFY(!w.saveResult(original, true, &error)); // never the opened original
        QVERIFY(error.contains("original"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), originalBytes);
        f.close();

        const QString out = m_dir.filePath("out/result.png");
        QDir().mkpath(QFileInfo(out).absolutePath());
        QVERIFY2(w.saveResult(out, false, &error), qPrintable(error));
        QImage saved(out);
        QCOMPARE(saved.size(), QSize(120, 80));
        QVERIFY(!w.saveResult(out, false, &error)); // exists: needs the user's confirmation
        QVERIFY(w.saveResult(out, true, &error));
        // QSaveFile: only the final file, no temporary left behind.
        QCOMPARE(QDir(QFileInfo(out).absolutePath()).entryList(QDir::Files), QStringList{"result.png"});
    }

    void exportsRunLog()
    {
        MainWindow &w = *m_window;
        QVERIFY(w.runLogSize() > 0);
        const QString csv = m_dir.filePath("runs.csv");
        const QString json = m_dir.filePath("runs.json");
        QString error;
        QVERIFY2(w.exportRunLog(csv, &error), qPrintable(error));
        QVERIFY2(w.exportRunLog(json, &error), qPrintable(error));
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csvFile.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), w.runLogSize() + 1);
        QVERIFY(lines.front().startsWith("run,filter,variant"));
        QFile jsonFile(json);
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(jsonFile.readAll(), &parseError);
        QVERIFY2(!doc.isNull(), qPrintable(parseError.errorString()));
        QCOMPARE(doc.object().value("runs").toArray().size(), w.runLogSize());
    }

    void eventLoopAnswersDuringLongRun()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow &w = *m_window;
        ControlPanel *c = w.controls();
        QVERIFY(c->setFilterName("gaussian5x5"));
        QVERIFY(c->setVariantName("unrolled_constant"));
        w.openTestCard(4000, 3000);
        c->setRepeat(20);
        QSignalSpy started(w.worker(), &ComputeWorker::runStarted);
        QSignalSpy shown(&w, &MainWindow::resultShown);
        QSignalSpy failed(&w, &MainWindow::runFailed);
        QVERIFY(w.startRun());
        QTRY_VERIFY_WITH_TIMEOUT(!started.isEmpty(), 60000);
        // A 10 ms timer: the largest gap between ticks is the worst GUI-thread stall.
        QElapsedTimer clock;
        clock.start();
        qint64 last = clock.elapsed(), worst = 0, worstAt = 0;
        int ticks = 0;
        QTimer timer;
        timer.setInterval(10);
        connect(&timer, &QTimer::timeout, this, [&] {
            const qint64 now = clock.elapsed();
            if (now - last > worst) {
                worst = now - last;
                worstAt = now;
            }
            last = now;
            ++ticks;
        });
        timer.start();
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() || !failed.isEmpty(), 240000);
        timer.stop();
        qInfo("GUI thread: %d ticks over %lld ms of run, worst stall %lld ms (ending at %lld ms)",
              ticks, static_cast<long long>(clock.elapsed()), static_cast<long long>(worst),
              static_cast<long long>(worstAt));
        QVERIFY(!shown.isEmpty());
        QVERIFY(ticks > 10);
        // 50 ms is the bar. Other processes saturating the cores (a shared CI box) delay any
        // thread, ours included; then only a gross stall (real blocking work) may fail the test.
        const double load = loadAverage();
        const int cores = QThread::idealThreadCount();
        const qint64 limit = load > cores ? 150 : 50;
        QVERIFY2(worst < limit, qPrintable(QString("worst stall %1 ms (limit %2 ms, load %3 on %4 cores)")
                                               .arg(worst).arg(limit).arg(load).arg(cores)));
        c->setRepeat(2);
    }

    void settingsPersist()
    {
        FWB_REQUIRE_DEVICE(device);
        {
            MainWindow w(true);
            w.controls()->setAutoRun(false);
            QVERIFY(w.controls()->setFilterName("gaussian5x5"));
            QVERIFY(w.controls()->setVariantName("constant_memory"));
            QVERIFY(w.controls()->setLocalSizeText("32x8"));
            w.setViewMode(MainWindow::ViewMode::Difference);
            w.close();
        }
        MainWindow w(true);
        QCOMPARE(w.controls()->variantName(), QString("constant_memory"));
        QCOMPARE(w.controls()->localSizeText(), QString("32x8"));
        QCOMPARE(w.viewMode(), MainWindow::ViewMode::Difference);
    }

    void quittingMidRunIsClean()
    {
        FWB_REQUIRE_DEVICE(device);
        auto w = std::make_unique<MainWindow>(false);
        w->controls()->setAutoRun(false);
        w->controls()->setRepeat(1000);
        w->show();
        w->openTestCard(2400, 1600);
        QSignalSpy started(w->worker(), &ComputeWorker::runStarted);
        QVERIFY(w->startRun());
        QTRY_VERIFY_WITH_TIMEOUT(!started.isEmpty(), 60000);
        QTest::qWait(200);
        QElapsedTimer timer;
        timer.start();
        w->close();
        w.reset(); // abort, wake, wait: must not hang or crash
        QVERIFY2(timer.elapsed() < 15000, qPrintable(QString::number(timer.elapsed())));
    }
};

QTEST_MAIN(TestGuiMainWindow)
#include "tst_gui_mainwindow.moc"
