// The real workbench window, driven offscreen: opening files, work-group validation, cancel, save rules,
// run log, responsiveness, settings, quitting. What a run shows (every filter/variant against the CPU
// reference, the views, the timing panel, the variant list): tst_gui_results.
#include "TestSupport.h"
#include "GuiTestSupport.h"

#include "ComputeWorker.h"
#include "ControlPanel.h"
#include "ElidedLabel.h"
#include "ErrorBanner.h"
#include "HeadlessImageIo.h"
#include "ImageFileIo.h"
#include "ImageView.h"
#include "JobPage.h"
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
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>

using namespace fwb;

// ComputeWorker::runStarted comes from the worker's thread. A QSignalSpy on the worker (Qt 6.4)
// appends there without a lock while the test reads it here (ThreadSanitizer: data race in
// QSignalSpy::appendArgs); this counts the signal on the test's thread through a queued connection.
class StartedCount : public QObject
{
public:
    explicit StartedCount(ComputeWorker *worker)
    {
        connect(worker, &ComputeWorker::runStarted, this, [this] { ++m_count; }, Qt::QueuedConnection);
    }
    bool isEmpty() const { return m_count == 0; }

private:
    int m_count = 0;
};

class TestGuiMainWindow : public test::WindowSuite
{
    Q_OBJECT

private:
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

    // A file in the test folder with these bytes; its path (empty: it could not be written).
    QString writeBytes(const QString &name, const QByteArray &bytes)
    {
        QFile file(m_dir.filePath(name));
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
            return {};
        return file.fileName();
    }

private slots:
    void initTestCase() { openSuiteWindow("tst_gui_mainwindow"); }

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
        const QString bad = writeBytes("corrupted.png", "\x89PNG\r\n\x1a\n not really a png");
        QVERIFY(!bad.isEmpty());
        QVERIFY(!w.loadFile(bad));
        QVERIFY2(w.banner()->text().contains("Cannot load"), qPrintable(w.banner()->text()));
        QCOMPARE(w.inputImage()->width(), 97);
        w.banner()->dismiss();

        w.openTestCard(259, 194);
        QVERIFY(w.currentFile().isEmpty());
        QCOMPARE(w.originalView()->image().size(), QSize(259, 194));
    }

    // Every page that runs one long job (Race, Tuner, Sweep, Duel) is started from the Run menu too.
    void everyJobPageIsInTheRunMenu()
    {
        MainWindow &w = *m_window;
        QStringList titles;
        for (WorkbenchPage *page : w.pages())
            if (auto *job = qobject_cast<JobPage *>(page)) {
                titles << job->title();
                QVERIFY2(test::inRunMenu(w, job->startAction()), qPrintable(job->title()));
            }
        titles.sort();
        QCOMPARE(titles, (QStringList{"Duel", "Race", "Sweep", "Tuner"}));
    }

    // Issue 24: at 1366x768 under a window manager (about 1366x700 for the window) a long status line was
    // cut off mid-word at the edge of its label. The window still fits the screen; the line takes the width
    // it is given, what it draws fits there and ends in "…" where its text is longer, and its tooltip holds
    // the whole text.
    void longStatusFitsALaptopScreen()
    {
        MainWindow &w = *m_window;
        const QSize before = w.size();
        const auto restore = qScopeGuard([&] {
            w.setStatus(QStringLiteral("Ready"));
            w.resize(before);
        });
        const QString text = QStringLiteral(
            "Ran on cpu-haswell-AMD EPYC 7B13 64-Core Processor · program from disk cache · upload skipped: image "
            "resident · matches the CPU reference (max diff 0) · kernel 0.412 ms — automatic runs paused: one run "
            "takes 2.4 s on this picture (tick \"Run automatically\" to keep them)");
        w.setStatus(text);
        const QSize available(1366, 700);
        const QSize minimum = w.minimumSizeHint().expandedTo(w.minimumSize());
        QVERIFY2(minimum.width() <= available.width(), qPrintable(QString("minimum width %1").arg(minimum.width())));
        w.resize(available);
        QTest::qWait(50);
        QCOMPARE(w.size(), available);
        auto *line = w.statusBar()->findChild<ElidedLabel *>(QStringLiteral("runStatus"));
        QVERIFY(line && line->isVisible());
        const QRect inWindow(line->mapTo(&w, QPoint(0, 0)), line->size());
        QVERIFY2(w.rect().contains(inWindow), qPrintable(QString("status line at %1,%2 %3x%4")
                                                            .arg(inWindow.x()).arg(inWindow.y())
                                                            .arg(inWindow.width()).arg(inWindow.height())));
        QCOMPARE(w.statusText(), text);
        QCOMPARE(line->toolTip(), text);
        QVERIFY2(line->fontMetrics().horizontalAdvance(line->text()) > line->width(), "the test's text fits anyway");
        const QString shown = line->shownText();
        QVERIFY2(shown.endsWith(QChar(0x2026)) && text.startsWith(shown.chopped(1)), qPrintable(shown));
        QVERIFY(line->fontMetrics().horizontalAdvance(shown) <= line->contentsRect().width());
        w.setStatus(QStringLiteral("Ready")); // a short one shows whole
        QCOMPARE(line->shownText(), QStringLiteral("Ready"));
    }

    void unreadableFileSaysWhy()
    {
        MainWindow &w = *m_window;
        const QString text = writeBytes("notes.png", "these are notes, not a picture\n");
        QVERIFY(!text.isEmpty());
        QVERIFY(!w.loadFile(text));
        QVERIFY2(w.banner()->text().contains("not PNG image data"), qPrintable(w.banner()->text()));
        w.banner()->dismiss();
    }

    void invalidShapeShowsReasonAndLaunchesNothing()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow &w = *m_window;
        ControlPanel *c = w.controls();
        QVERIFY(selectVariant(c, device, "gaussian5x5", "unrolled_constant"));
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
        StartedCount started(w.worker());
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

    // The first result after launch waited seconds for its timed repeats and CPU timings (issue 25): the
    // picture now comes with the first launch, checked, beside "timing…" and never beside an earlier run's
    // numbers; the numbers follow. Fails when the picture waits for the repeats.
    void firstPictureShowsBeforeTheTimings()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow &w = *m_window;
        ControlPanel *c = w.controls();
        TimingPanel *t = w.timingPanel();
        QVERIFY(selectVariant(c, device, "gaussian5x5", "unrolled_constant"));
        w.openTestCard(259, 194);
        ComputeResult earlier;
        QVERIFY(runOnce(w, &earlier));
        QVERIFY(earlier.run.ok() && t->hasNumbers()); // an earlier run's numbers on display
        w.openTestCard(300, 200); // a new picture: no result on screen to hold the first picture back
        c->setRepeat(4000);       // repeats that take far longer than one launch
        QSignalSpy first(&w, &MainWindow::firstPictureShown);
        QSignalSpy shown(&w, &MainWindow::resultShown);
        QSignalSpy failed(&w, &MainWindow::runFailed);
        QVERIFY(w.startRun());
        QTRY_VERIFY_WITH_TIMEOUT(!first.isEmpty() || !shown.isEmpty() || !failed.isEmpty(), 60000);
        QVERIFY2(!first.isEmpty() && shown.isEmpty() && failed.isEmpty(), "the picture waited for the repeats");
        QVERIFY(w.isRunning());
        QCOMPARE(w.resultView()->image().size(), QSize(300, 200));
        QVERIFY(t->isTimingPending() && !t->hasNumbers());
        const QString numbers = t->numbersText();
        QVERIFY2(!numbers.contains("Kernel time") && !numbers.contains("Speed-up"), qPrintable(numbers));
        QVERIFY2(numbers.contains("Matches CPU reference"), qPrintable(numbers));
        QVERIFY(t->findChild<QLabel *>("timingNote")->text().contains("timing…"));
        QVERIFY2(w.statusText().contains("first launch shown"), qPrintable(w.statusText()));
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() || !failed.isEmpty(), 240000);
        QVERIFY(failed.isEmpty());
        QVERIFY(!t->isTimingPending() && t->hasNumbers());
        QVERIFY(t->numbersText().contains("Kernel time"));
        QCOMPARE(w.resultView()->image(), first.last().at(0).value<ComputeResult>().output);
        QCOMPARE(first.count(), 1);

        // Cancelled while timing (a result on screen: the first picture comes after the short hold): the
        // status says the picture is the run's first launch, not the previous result.
        QVERIFY(w.startRun());
        QTRY_VERIFY_WITH_TIMEOUT(first.count() == 2 || shown.count() == 2, 60000);
        QCOMPARE(first.count(), 2);
        w.cancelRun();
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 30000);
        QVERIFY(w.statusText().contains("first launch"));
        QVERIFY(!t->isTimingPending() && !t->numbersText().contains("Kernel time"));
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

        // Issue 24: Save Result As opened in the photo's own folder, next to the photo. It proposes the
        // folder of the last save, else Pictures; never the opened picture.
        const QString proposed = w.saveSuggestion();
        QVERIFY2(QFileInfo(proposed).absolutePath() != QFileInfo(original).absolutePath(), qPrintable(proposed));
        QVERIFY(QFileInfo(proposed).fileName().startsWith("original-"));
        QString error;
        QVERIFY(!w.saveResult(original, true, &error)); // never the opened original
        QVERIFY(error.contains("original"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), originalBytes);
        f.close();

        const QString out = m_dir.filePath("out/result.png");
        QDir().mkpath(QFileInfo(out).absolutePath());
        QVERIFY2(w.saveResult(out, false, &error), qPrintable(error));
        QCOMPARE(QFileInfo(w.saveSuggestion()).absolutePath(), QFileInfo(out).absolutePath()); // the last save's
        QImage saved(out);
        QCOMPARE(saved.size(), QSize(120, 80));
        // PNG and JPEG go through the headless writer (filter-bench's very bytes), and decode to the
        // pixels shown (the kernel's output).
        QVERIFY(result.outputImage);
        const Image &shown = *result.outputImage;
        for (const QString &name : {QString("out/shown.png"), QString("out/shown.jpg")}) {
            const QString path = m_dir.filePath(name);
            QVERIFY2(w.saveResult(path, false, &error), qPrintable(error));
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            std::string expected, reason;
            QVERIFY(name.endsWith(".png") ? encodePng(shown, expected, reason)
                                          : encodeJpeg(shown, kJpegSaveQuality, expected, reason));
            QVERIFY2(file.readAll() == QByteArray::fromStdString(expected), qPrintable(name));
            if (name.endsWith(".png")) {
                Image decoded;
                QVERIFY(HeadlessImageIo().load(path.toStdString(), decoded, reason));
                QCOMPARE(maxAbsDiff(decoded, shown.convertedTo(decoded.format())), 0);
            }
        }
        QVERIFY(QFile::remove(m_dir.filePath("out/shown.png")) && QFile::remove(m_dir.filePath("out/shown.jpg")));
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
        // The columns: the log's own (run, engine) and the run schema's fields, named after their keys.
        QCOMPARE(lines.front(), QByteArray("run,filter,variant,engine,device,local,format,repeat,build_ms,build_origin,"
                                           "upload_ms,kernel_ms_median,kernel_ms_min,kernel_ms_max,download_ms,"
                                           "total_ms,mpix_per_s,gbps,cpu_ms_single,cpu_ms_multi,max_abs_diff,"
                                           "matches,error_code,error"));
        const QList<QByteArray> first = lines.at(1).split(',');
        QVERIFY2(first.size() >= 24, lines.at(1).constData());
        QCOMPARE(first.at(0), QByteArray("1"));
        QVERIFY2(first.at(21) == "yes" || first.at(21) == "no", lines.at(1).constData()); // matches
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
        StartedCount started(w.worker());
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
#if defined(__SANITIZE_THREAD__)
        // Under ThreadSanitizer every instrumented line runs several times slower: the run still has
        // the worker and the GUI thread at work together (what that stage checks), but a stall limit
        // would measure the instrumentation.
        qInfo("ThreadSanitizer build: the stall limit is not checked");
        c->setRepeat(2);
        return;
#endif
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
        StartedCount started(w->worker());
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
