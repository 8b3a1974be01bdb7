// The Race page's present mode (View ▸ Present, F11) in the real window, offscreen on PoCL: its bars keep
// a useful width in large type, filter-workbench --help tells of it, and after a real race it tells the
// end-to-end story. The page itself, and a race started from present mode: tst_gui_race. One window for
// the suite, as in the app: PoCL aborts when contexts are made again after OpenCV's T-API has used one
// ("still have references to IRs - can't release LLVM context").
#include "TestSupport.h"
#include "GuiTestSupport.h"

#include "MainWindow.h"
#include "RaceChart.h"
#include "RacePage.h"
#include "UiText.h"
#include "RaceVerdict.h"
#include "RacePresentation.h"
#include "LabViews.h"
#include "NBodyDemo.h"
#include "WorkbenchCommandLine.h"

#include <QFileInfo>
#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>

#include <algorithm>
#include <cmath>
#include <memory>

using namespace fwb;

namespace {

// A race whose entries take `times` ms (kernel and whole run alike): the first our C++ code on 2 threads (the
// CPU to beat), the others "<title>N", the last the checking reference where `lastIsReference`.
RaceResult syntheticRace(const char *filter, const std::vector<double> &times, const std::string &title,
                         bool lastIsReference)
{
    RaceResult r;
    r.filter = filter;
    r.cpuReferenceName = "cpu_multi";
    r.cpuReferenceTitle = "our C++ code on 2 CPU threads";
    const int last = int(times.size()) - 1;
    for (int i = 0; i <= last; ++i) {
        RaceEntry e;
        const bool reference = lastIsReference && i == last;
        e.name = i == 0 ? "cpu_multi" : reference ? "cpu_single" : "v" + std::to_string(i);
        e.title = i == 0 ? "Our C++ code, 2 threads" : reference ? "Checking reference" : title + std::to_string(i);
        e.baseline = e.onHost = i == 0 || reference;
        e.result.kernelMs = Stats{times[std::size_t(i)], times[std::size_t(i)], times[std::size_t(i)]};
        e.result.totalMs = times[std::size_t(i)];
        r.entries.push_back(e);
    }
    r.cpuReferenceMs = times.front();
    return r;
}

} // namespace

class TestGuiRacePresent : public test::PageWindowSuite<RacePage>
{
    Q_OBJECT

private slots:
    void initTestCase() { openSuiteWindow(); }
    void cleanupTestCase() { m_window.reset(); }

    // Issue 24: in present mode (large type) the long sentences beside the bars ("0.512 ms, 12× faster than
    // our C++ code on 2 CPU threads") left the bars about 100 px wide: the bars keep most of the width and
    // the sentences wrap.
    // Honest without a GPU (issue 24): on a CPU device present mode shows what a real device measured for
    // this filter from the kept record, marked as recorded and not measured here; never on a GPU.
    void presentShowsTheRecordWithoutAGpu()
    {
        qputenv("FWB_MEASUREMENTS_DIR", FWB_TEST_DATA_DIR "/measurements-pocl-sample");
        RacePresentation present(RaceMetric::KernelOnly, QKeySequence());
        const FilterSpec *filter = findFilter("gaussian5x5");
        QVERIFY(filter);
        RaceResult race;
        race.filter = "gaussian5x5";
        race.format = "gray8";
        race.deviceName = "some processor";
        race.deviceKind = DeviceKind::Cpu;
        present.setTitles(filter, race, ComputeRequest{});
        const QString text = present.recordedText();
        QVERIFY2(text.startsWith("Recorded on ") && text.contains("not measured on this computer")
                     && text.contains(" ms") && text.contains("page-locked"),
                 qPrintable(text));
        race.deviceKind = DeviceKind::Gpu; // a GPU here: its own numbers, no record
        present.setTitles(filter, race, ComputeRequest{});
        QVERIFY(present.recordedText().isEmpty());
        race.deviceKind = DeviceKind::Cpu; // a filter nobody recorded: nothing
        race.filter = "transpose";
        present.setTitles(findFilter("transpose"), race, ComputeRequest{});
        QVERIFY(present.recordedText().isEmpty());
    }

    // Issue 24: present mode can show the N-body demo (it was only under Compute Lab ▸ Workload). N (or its
    // button) switches to it: the same stars moved by our C++ code on every CPU thread and by the race's
    // device, each with its steps and frames per second, the device in plain words, and on a CPU device
    // the same-processor note; Space stops and starts it; N goes back to the race and stops the stars.
    void presentShowsTheNBodyDemo()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow &window = *m_window;
        QVERIFY(setUp(window, device, 96, 64));
        RacePage *race = page(window);
        race->setPresenting(true);
        auto *present = qobject_cast<RacePresentation *>(race->presentation());
        QVERIFY(present);
        present->showNormal();
        present->resize(1366, 768);
        present->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(present)); // its keys reach it
        QVERIFY(!present->showingNBody());
        QVERIFY(present->findChild<QLabel *>("presentHint")->text().contains("N shows the N-body demo"));
        QTest::keyClick(present, Qt::Key_N);
        QVERIFY(present->showingNBody());
        NBodyDemo *demo = present->nbodyDemo();
        QVERIFY(demo->isVisible() && demo->isRunning());
        QCOMPARE(QString::fromStdString(demo->device().name), QString::fromStdString(device.name));
        QVERIFY2(present->title().contains("stars"), qPrintable(present->title()));
        const QString deviceLine = present->findChild<QLabel *>("presentDevice")->text();
        QVERIFY2(deviceLine.contains(QString::fromStdString(device.name).toHtmlEscaped()), qPrintable(deviceLine));
        QTRY_VERIFY_WITH_TIMEOUT(demo->cpuView()->stepsPerSecond() > 0 && demo->deviceView()->stepsPerSecond() > 0
                                     && demo->cpuView()->framesPerSecond() > 0
                                     && demo->deviceView()->framesPerSecond() > 0,
                                 120000);
        QTest::qWait(50);
        const QString headline = demo->headline();
        QVERIFY2(headline.contains("our C++ code on") && !headline.contains("than the CPU"), qPrintable(headline));
        QCOMPARE(headline.contains("same processor"), device.kind == DeviceKind::Cpu);
        QVERIFY(present->findChild<QLabel *>("presentHint")->text().contains("N back to the race"));
        const QString shots = qEnvironmentVariable("FWB_SCREENSHOT_DIR");
        if (!shots.isEmpty())
            present->grab().save(shots + "/present-nbody.png");
        // Space stops the stars and starts them again.
        QTest::keyClick(present, Qt::Key_Space);
        QVERIFY(!demo->isRunning());
        QTest::keyClick(present, Qt::Key_Space);
        QVERIFY(demo->isRunning());
        // N: back to the race; the stars stop and no frame comes after.
        QTest::keyClick(present, Qt::Key_N);
        QVERIFY(!present->showingNBody() && !demo->isRunning());
        QVERIFY2(present->title().contains("edges"), qPrintable(present->title())); // sobel's question again
        QTest::qWait(300);
        const qint64 shown = demo->cpuView()->framesShown() + demo->deviceView()->framesShown();
        QTest::qWait(500);
        QCOMPARE(demo->cpuView()->framesShown() + demo->deviceView()->framesShown(), shown);
        race->setPresenting(false);
    }

    // Issue 24: `filter-workbench --present --lab nbody` opens present mode on the N-body demo, the stars
    // already moving on the chosen device (the options as main() reads them, set up on the suite's window);
    // present mode shows no other Compute Lab workload, and says so.
    void presentLabNBodyOpensTheDemo()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow &window = *m_window;
        QVERIFY(setUp(window, device, 96, 64));
        RacePage *race = page(window);
        QVERIFY(!race->presentation() || !race->presentation()->isVisible());
        WorkbenchCommandLine commandLine;
        commandLine.process(QStringList{"filter-workbench", "--present", "--lab", "nbody", "--device",
                                        QString::fromStdString(device.spec())});
        QVERIFY(commandLine.presentNBody());
        QCOMPARE(commandLine.setUp(window), 0);
        QVERIFY(commandLine.labPage() == nullptr); // present mode's demo, not the Compute Lab page
        auto *present = qobject_cast<RacePresentation *>(race->presentation());
        QVERIFY(present && present->isVisible());
        QVERIFY(present->showingNBody());
        NBodyDemo *demo = present->nbodyDemo();
        QVERIFY(demo->isVisible() && demo->isRunning());
        QCOMPARE(QString::fromStdString(demo->device().name), QString::fromStdString(device.name));
        QVERIFY2(present->title().contains("stars"), qPrintable(present->title()));
        QVERIFY(present->findChild<QLabel *>("presentHint")->text().contains("N back to the race"));
        QTRY_VERIFY_WITH_TIMEOUT(demo->cpuView()->stepsPerSecond() > 0 && demo->deviceView()->stepsPerSecond() > 0,
                                 120000);
        race->setPresenting(false);
        QVERIFY(!demo->isRunning());

        WorkbenchCommandLine matmul;
        matmul.process(QStringList{"filter-workbench", "--present", "--lab", "matmul"});
        QVERIFY(!matmul.presentNBody());
        QCOMPARE(matmul.setUp(window), 2); // "present mode shows the N-body demo only"
        race->setPresenting(false);
        WorkbenchCommandLine withRace; // two present screens at once: refused, not one silently dropped
        withRace.process(QStringList{"filter-workbench", "--present", "--lab", "nbody", "--race"});
        QCOMPARE(withRace.setUp(window), 2);
        race->setPresenting(false);
        QVERIFY(setUp(window, device, 96, 64)); // the suite's picture again
    }

    // Issue 24: transparent pictures were drawn on the window's colour (a logo's black text lost); present
    // mode's and the race's previews put them on the image views' checkerboard.
    void previewsPutTransparentPicturesOnACheckerboard()
    {
        QImage clear(64, 64, QImage::Format_RGBA8888);
        clear.fill(Qt::transparent);
        const QImage shown = previewPixmap(clear, 64).toImage();
        QVERIFY(!shown.isNull());
        QSet<QRgb> colours;
        for (int y = 0; y < shown.height(); ++y)
            for (int x = 0; x < shown.width(); ++x) {
                QCOMPARE(qAlpha(shown.pixel(x, y)), 255);
                colours.insert(shown.pixel(x, y));
            }
        QCOMPARE(colours.size(), 2); // the checkerboard's two squares
        QImage opaque(64, 64, QImage::Format_RGB32);
        opaque.fill(Qt::black);
        QCOMPARE(previewPixmap(opaque, 64).toImage().pixelColor(10, 10), QColor(Qt::black));
    }

    // The race page at 1366x768 with the controls docked (a chart about 914 px wide, the names taking half):
    // a bar cut just past the axis has too short an honest length to hold its label, and there was no room
    // for it after the bar either, so "30x as long as the fastest" ran past the right edge. Every label now
    // ends inside the chart and inside its row, and every uncut bar stays proportional.
    void narrowChartKeepsLabelsInside()
    {
        RaceChart chart;
        chart.setShowReference(true);
        const RaceResult r = syntheticRace("median3x3", {0.13, 0.18, 0.59, 0.91, 1.41, 1.43, 1.68, 3.08, 5.35, 8.11, 14.62, 27.5},
                                           "Forgetful selection, two values per 16x2 min/max (PTX), version ", true);
        chart.setRace(r);
        for (RaceMetric metric : {RaceMetric::EndToEnd, RaceMetric::KernelOnly})
            for (int width : {914, 1000, 1250}) {
                chart.setMetric(metric);
                chart.resize(width, chart.minimumSizeHint().height());
                const double msPerPixel = chart.msPerPixel();
                for (std::size_t i = 0; i < r.entries.size(); ++i) {
                    const QRect row = chart.barRect(int(i));
                    if (!row.isValid())
                        continue;
                    const QRect label = chart.labelRect(int(i));
                    const QString what = QString("%1 px, %2: label %3..%4, rows %5..%6")
                                             .arg(width).arg(q(r.entries[i].name)).arg(label.left()).arg(label.right())
                                             .arg(label.top()).arg(label.bottom());
                    QVERIFY2(label.isValid() && label.right() <= width && label.left() >= 0, qPrintable(what));
                    QVERIFY2(label.top() >= row.top() - 1 && label.bottom() <= row.bottom() + 1, qPrintable(what));
                    bool broken = false;
                    const double length = chart.barLength(int(i), &broken);
                    const double t = r.entries[i].timeMs(metric);
                    if (broken) // never longer than its time would make it
                        QVERIFY2(length < t / msPerPixel, qPrintable(what));
                    else
                        QVERIFY2(std::abs(length - t / msPerPixel) <= 1.0, qPrintable(what));
                }
            }
    }

    void presentBarsKeepAUsefulWidth()
    {
        RaceChart chart;
        chart.setLarge(true);
        chart.setShowReference(false);
        const RaceResult r = syntheticRace("sobel", {40.0, 3.1, 3.5, 4.2, 5.0, 7.5, 9.0, 12.0, 30.0},
                                           "Rows of bytes, version ", false);
        chart.setRace(r);
        for (RaceMetric metric : {RaceMetric::EndToEnd, RaceMetric::KernelOnly})
        for (int width : {1366, 1920}) {
            chart.setMetric(metric);
            const int chartWidth = width * 2 / 3; // the presentation's chart beside its pictures
            chart.resize(chartWidth, chart.minimumSizeHint().height());
            double longest = 0;
            for (std::size_t i = 0; i < r.entries.size(); ++i) {
                bool broken = false;
                const double length = chart.barLength(int(i), &broken);
                if (!broken)
                    longest = std::max(longest, length);
            }
            QVERIFY2(longest >= 0.35 * chartWidth,
                     qPrintable(QString("at %1 px the longest bar is %2 px").arg(chartWidth).arg(longest)));
            // Every label inside the chart (wrapped, not cut at the right edge).
            for (std::size_t i = 0; i < r.entries.size(); ++i) {
                if (!chart.barRect(int(i)).isValid())
                    continue; // kernel only: the CPU row is not drawn
                const QRect label = chart.labelRect(int(i));
                QVERIFY2(label.isValid() && label.right() <= chartWidth && label.left() >= 0,
                         qPrintable(QString("%1: label %2..%3 in %4 px").arg(q(r.entries[i].name))
                                        .arg(label.left()).arg(label.right()).arg(chartWidth)));
            }
        }
        const QString shots = qEnvironmentVariable("FWB_SCREENSHOT_DIR");
        if (!shots.isEmpty())
            chart.grab().save(shots + "/race-present-chart.png");
    }

    // Issue 24: present mode was in neither the README nor --help. filter-workbench --help tells how to
    // open it, start a race from it and leave it (and works without a display).
    void helpTellsOfPresentMode()
    {
        const QString app = QFileInfo(QStringLiteral(FWB_FILTER_BENCH)).absolutePath() + "/filter-workbench";
        QVERIFY2(QFileInfo(app).isExecutable(), qPrintable(app + " is not built"));
        QProcess process;
        process.start(app, {"--help"});
        QVERIFY(process.waitForFinished(30000));
        const QString help = QString::fromUtf8(process.readAllStandardOutput());
        QCOMPARE(process.exitCode(), 0);
        for (const char *words : {"--present", "Present mode", "F11", "Start the race", "Space", "Esc", "N-body demo",
                                  "--present --lab nbody"})
            QVERIFY2(help.contains(QLatin1String(words)), qPrintable(QString("no \"%1\" in:\n%2").arg(words, help)));
    }

    // Issue 24, item by item in present mode after a real race: (1) the bars rank the device's versions by
    // their filtering, each "N× as long as the fastest", none compared with the CPU; (3) under them the
    // fastest version end to end as a stacked bar, copying in | filtering | copying back, with the
    // page-locked alternative, each part printed in milliseconds and as long as its time, the CPU rows on
    // the same axis, and the verdict whose ratio is the ratio of the times it prints; (4) the status says
    // as many runs as there are bars (it said "8 runs" beside 7).
    void presentTellsTheEndToEndStory()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow &window = *m_window;
        QVERIFY(setUp(window, device, 96, 64));
        RacePage *race = page(window);
        QCOMPARE(race->chart()->metric(), RaceMetric::KernelOnly); // the default
        race->setPresenting(true);
        QWidget *present = race->presentation();
        QSignalSpy finished(race, &JobPage::jobFinished);
        QVERIFY(race->startJob());
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        present->showNormal();
        present->resize(1366, 768);
        QTest::qWait(50);
        const RaceResult &result = race->race();
        RaceChart *chart = race->presentChart();
        const int best = result.deviceWinner();
        QVERIFY(best >= 0);

        // (1) The ranking: the device's versions by filtering time, labelled against the fastest.
        int onDevice = 0;
        for (std::size_t i = 0; i < result.entries.size(); ++i) {
            const RaceEntry &e = result.entries[i];
            if (!e.ok() || e.isCheckingReference())
                continue;
            QCOMPARE(chart->barRect(int(i)).isValid(), e.onDevice());
            if (!e.onDevice())
                continue;
            ++onDevice;
            const QString label = chart->barLabel(int(i));
            QVERIFY2(!label.contains("faster than") && !label.contains("slower than"), qPrintable(label));
            QVERIFY2(label.contains(int(i) == best ? "the fastest" : "as long as the fastest")
                         || label.contains("as fast as the fastest"), qPrintable(label));
        }

        // (3) The stacked bar and its page-locked alternative, every part to scale and in milliseconds.
        RaceVerdict *verdict = race->presentVerdict();
        QVERIFY(verdict);
        QVERIFY(verdict->isVisible());
        const auto &rows = verdict->rows();
        QVERIFY(rows.size() >= 2);
        QVERIFY(rows[0].stacked);
        QVERIFY2(verdict->heading().contains(q(result.entries[best].title)), qPrintable(verdict->heading()));
        QVERIFY2(rows[0].name.contains("rdinary memory"), qPrintable(rows[0].name));
        const bool pinned = result.pinnedWinner.ok();
        if (pinned) {
            QVERIFY(rows[1].stacked);
            QVERIFY2(rows[1].name.contains("age-locked"), qPrintable(rows[1].name));
        }
        const double msPerPixel = verdict->msPerPixel();
        QVERIFY(msPerPixel > 0);
        int cpuBars = 0;
        for (int row = 0; row < int(rows.size()); ++row) {
            QVERIFY2(std::abs(verdict->barLength(row) - rows[row].ms / msPerPixel) <= 1.0, qPrintable(rows[row].name));
            const double printed = verdict->rowLabel(row).section(' ', 0, 0).toDouble(); // "12.3 ms, ..."
            QVERIFY2(std::abs(printed - rows[row].ms) <= 0.006 * rows[row].ms + 0.0005, qPrintable(verdict->rowLabel(row)));
            if (!rows[row].stacked) {
                ++cpuBars;
                continue;
            }
            double sum = 0;
            const QString line = verdict->partsLine(row);
            for (RaceVerdict::Part part : {RaceVerdict::CopyIn, RaceVerdict::Filter, RaceVerdict::CopyOut}) {
                const double length = verdict->partLength(row, part);
                sum += length;
                QVERIFY2(line.contains(RaceVerdict::partName(part)), qPrintable(line));
            }
            sum += verdict->partLength(row, RaceVerdict::Other);
            QVERIFY2(std::abs(sum - verdict->barLength(row)) <= 1.0, qPrintable(line));
            const EndToEndParts parts = rows[row].parts;
            QVERIFY(std::abs(verdict->partLength(row, RaceVerdict::Filter) - parts.filterMs / msPerPixel) <= 1.0);
            QVERIFY(std::abs(verdict->partLength(row, RaceVerdict::CopyIn) - parts.copyInMs / msPerPixel) <= 1.0);
        }
        QVERIFY(verdict->partsLine(0).contains("copying the picture to the device"));
        // The verdict, on the winner's line at the top (always in view): its ratio is the ratio of the two
        // times it prints (as rounded on screen, within 6%).
        const QString sentences = present->findChild<QLabel *>("presentWinner")->text();
        // The pinned verdict, with the bars, likewise.
        const QRegularExpression verdictWords(QStringLiteral(
            "takes ([0-9.]+) ms: (?:([0-9.]+)× (faster|slower) than|about as fast as) [^(]+\\(([0-9.]+) ms\\)"));
        auto ratioTrue = [&](const QString &text) {
            const auto m = verdictWords.match(text);
            if (!m.hasMatch())
                return false;
            const double a = m.captured(1).toDouble(), b = m.captured(4).toDouble();
            if (m.captured(2).isEmpty()) // "about as fast as": within 15%
                return a / b > 1 / 1.16 && a / b < 1.16;
            const double n = m.captured(2).toDouble();
            const double ratio = m.captured(3) == "faster" ? b / a : a / b;
            return std::abs(ratio - n) <= 0.06 * n + 0.05;
        };
        QVERIFY2(sentences.contains("End to end, copies included") && ratioTrue(sentences), qPrintable(sentences));
        if (pinned) {
            const QString said = verdict->sentences().join(' ');
            QVERIFY2(said.contains("With page-locked memory") && ratioTrue(said.mid(said.indexOf("With page-locked"))),
                     qPrintable(said));
        }

        // (4) What the status says is what is drawn.
        const QString status = present->findChild<QLabel *>("presentStatus")->text();
        const QRegularExpression said(QStringLiteral("(\\d+) versions? on the device(?: and (\\d+) on the CPU)?"));
        const auto counted = said.match(status);
        QVERIFY2(counted.hasMatch(), qPrintable(status));
        QCOMPARE(counted.captured(1).toInt(), chart->barCount());
        QCOMPARE(counted.captured(1).toInt(), onDevice);
        QCOMPARE(counted.captured(2).toInt(), cpuBars);
        const QString shots = qEnvironmentVariable("FWB_SCREENSHOT_DIR");
        if (!shots.isEmpty())
            present->grab().save(shots + "/race-present-story.png");
        race->setPresenting(false);
    }
};

QTEST_MAIN(TestGuiRacePresent)
#include "tst_gui_race_present.moc"
