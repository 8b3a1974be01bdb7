// Race: every variant plus the CPU and OpenCV rows, ranked; cancel midway; the race verb's JSON rows.
#include "SessionSuite.h"
#include "TestSupport.h"

#include "CpuReference.h"
#include "CpuTimings.h"
#include "ResultJson.h"
#include "Race.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <cmath>

using namespace fwb;

class TestRace : public fwb::test::SessionSuite
{
    Q_OBJECT

private slots:
    // The race and the presentation mode speak to people who never programmed: every variant has its
    // one-liner, and it uses none of the engineers' words.
    void everyVariantHasPlainWords()
    {
        for (const FilterSpec &filter : catalogue())
            for (const VariantSpec &v : filter.variants) {
                const std::string where = filter.name + "/" + v.name;
                QVERIFY2(!v.plainWords.empty(), where.c_str());
                std::string lower = v.plainWords;
                for (char &ch : lower)
                    ch = char(std::tolower(static_cast<unsigned char>(ch)));
                for (const char *jargon : {"work-item", "work item", "vload", "gb/s", "spill", "kernel", "register",
                                           "coalesc", "warp", "ndrange", "__local"})
                    QVERIFY2(lower.find(jargon) == std::string::npos, (where + ": " + jargon).c_str());
            }
    }

    void ranksEveryVariantFastestFirst()
    {
        const FilterSpec *filter = findFilter("gaussian5x5");
        QVERIFY(filter);
        const Image image = makeTestCard(131, 97, PixelFormat::Gray8);
        RunRequest request = test::oneShotRequest("gaussian5x5", "");
        request.repeat = 2;
        int calls = 0;
        const RaceOptions options;
        const int expected = raceEntryCount(*filter, request.params, options);
        const RaceResult race = runRace(*m_session, image, request, options, nullptr,
                                        [&](const RaceEntry &, int done, int total) {
                                            ++calls;
                                            QCOMPARE(done, calls);
                                            QCOMPARE(total, expected);
                                        });
        QCOMPARE(calls, expected);
        QCOMPARE(int(race.entries.size()), expected);
        QVERIFY(!race.cancelled);
        QCOMPARE(race.entries[0].name, std::string("cpu_single"));
        QCOMPARE(race.entries[1].name, std::string("cpu_multi"));
        int variants = 0;
        for (const RaceEntry &e : race.entries) {
            if (e.baseline)
                continue;
            ++variants;
            if (e.ok()) {
                QVERIFY2(e.result.matches, e.name.c_str());
                QVERIFY(e.timeMs(RaceMetric::EndToEnd) >= e.timeMs(RaceMetric::KernelOnly));
                QVERIFY(!raceWhy(race.filter, e).empty());
            }
        }
        QCOMPARE(variants, int(filter->variants.size()));
        for (RaceMetric metric : {RaceMetric::EndToEnd, RaceMetric::KernelOnly}) {
            const std::vector<int> order = race.ranking(metric);
            QCOMPARE(order.size(), race.entries.size());
            double last = 0;
            bool seenFailed = false, seenCpu = false;
            for (int i : order) {
                const double t = race.entries[i].timeMs(metric);
                if (t <= 0) {
                    seenFailed = true;
                    continue;
                }
                QVERIFY2(!seenFailed, "a failed entry ranked before one that ran");
                // Kernel only: the device's versions by their kernels, then the CPU rows by their times.
                if (metric == RaceMetric::KernelOnly && race.entries[i].onHost && !seenCpu) {
                    seenCpu = true;
                    last = 0;
                }
                QVERIFY2(!(seenCpu && race.entries[i].onDevice()), "a device entry ranked after a CPU row");
                QVERIFY(t >= last);
                last = t;
            }
            // The winner is the fastest that ran, the checking reference aside (it is not in the race).
            int expectedWinner = -1;
            for (int i : order)
                if (race.entries[i].timeMs(metric) > 0 && !race.entries[i].isCheckingReference()
                    && (metric == RaceMetric::EndToEnd || race.entries[i].onDevice())) {
                    expectedWinner = i;
                    break;
                }
            QCOMPARE(race.winner(metric), expectedWinner);
        }
        QVERIFY(race.cpuReferenceMs > 0);
        // The CPU to beat is a real CPU row, named in every sentence; never the checking reference.
        QVERIFY2(race.cpuReferenceName == "cpu_multi" || race.cpuReferenceName == "opencv_cpu",
                 race.cpuReferenceName.c_str());
        QVERIFY2(race.cpuReferenceTitle.rfind(race.cpuReferenceName == "cpu_multi" ? "our C++ code on " : "OpenCV on ", 0) == 0,
                 race.cpuReferenceTitle.c_str());
        QCOMPARE(race.entries[0].title, std::string("Reference: plain C++, 1 thread"));
        QVERIFY(race.speedupSentence(race.entries[0], RaceMetric::EndToEnd).empty());
        for (const RaceEntry &e : race.entries)
            if (const std::string s = race.speedupSentence(e, RaceMetric::EndToEnd); !s.empty())
                QVERIFY2(s.find(race.cpuReferenceTitle) != std::string::npos, s.c_str());
        QCOMPARE(race.sameProcessorNote().empty(), m_device.kind != DeviceKind::Cpu);
        QVERIFY(race.memoryFloorMs > 0);

        const Json j = raceJson(race, RaceMetric::EndToEnd);
        int cpuRows = 0;
        for (const Json &row : j["results"]) {
            const std::string name = row["variant"].get<std::string>();
            if (name == "cpu_single" || name == "cpu_multi" || name.rfind("opencv_", 0) == 0) {
                QVERIFY2(row["baseline"].get<bool>(), name.c_str());
                cpuRows += name.rfind("cpu_", 0) == 0;
            } else {
                QVERIFY(!row["baseline"].get<bool>());
            }
        }
        QCOMPARE(cpuRows, 2);
    }

    // Issue 24: on an H100 every version's end-to-end time was 27.7-33.3 ms of copies around a 0.16-0.68 ms
    // kernel, so the ranking was copy noise and the CPU "won". The device's versions are ranked by their
    // kernels, the copies they all pay are said once (the median, with the spread), and the end-to-end
    // verdict compares the fastest version's whole time with the CPU's, its ratio true to the times printed.
    void kernelRankingLeavesCopyNoiseOut()
    {
        RaceResult r;
        r.filter = "gaussian5x5";
        auto add = [&](const std::string &name, bool onHost, double kernel, double up, double down, double total) {
            RaceEntry e;
            e.name = name;
            e.title = name;
            e.result.variant = name;
            e.onHost = onHost;
            e.baseline = onHost;
            e.result.kernelMs = Stats{kernel, kernel, kernel};
            e.result.uploadMs = up;
            e.result.downloadMs = down;
            e.result.totalMs = total;
            e.result.cpuThreads = onHost ? 2 : 0;
            r.entries.push_back(e);
        };
        add("cpu_single", true, 900, 0, 0, 900);
        add("cpu_multi", true, 21, 0, 0, 21);
        add("slow_kernel", false, 0.68, 14.0, 13.5, 28.3);   // copies 27.5 ms
        add("fast_kernel", false, 0.164, 16.0, 16.9, 33.3);  // copies 32.9 ms: the noisiest
        add("middle", false, 0.30, 14.5, 14.0, 29.0);        // copies 28.5 ms
        add("opencv_cpu", true, 2.1, 0, 0, 2.1);
        r.pickCpuToBeat();
        r.measureSharedCopy();
        QCOMPARE(r.cpuReferenceName, std::string("opencv_cpu"));
        // End to end, every version lost to copy noise; by kernels the fastest kernel wins.
        QCOMPARE(r.entries[r.winner(RaceMetric::EndToEnd)].name, std::string("opencv_cpu"));
        QCOMPARE(r.entries[r.winner(RaceMetric::KernelOnly)].name, std::string("fast_kernel"));
        QCOMPARE(r.deviceWinner(), r.winner(RaceMetric::KernelOnly));
        const std::vector<int> order = r.ranking(RaceMetric::KernelOnly);
        QStringList names;
        for (int i : order)
            names << QString::fromStdString(r.entries[i].name);
        QCOMPARE(names, QStringList({"fast_kernel", "middle", "slow_kernel", "opencv_cpu", "cpu_multi", "cpu_single"}));
        // The copies, once: the median of the versions' uploads + downloads, and the spread.
        QCOMPARE(r.sharedCopyRuns, 3);
        QVERIFY(std::abs(r.sharedCopyMs - 28.5) < 1e-9);
        QVERIFY(std::abs(r.sharedCopyMinMs - 27.5) < 1e-9);
        QVERIFY(std::abs(r.sharedCopyMaxMs - 32.9) < 1e-9);
        QCOMPARE(r.sharedCopySentence(),
                 std::string("Moving the picture to the device and back takes about 28.5 ms, the same for every version"));
        // Kernel only, a device version is never compared with a CPU's whole time; with the fastest instead.
        const RaceEntry &slow = r.entries[2];
        QVERIFY(r.speedupSentence(slow, RaceMetric::KernelOnly).empty());
        QCOMPARE(r.versusFastestWords(slow), std::string("4.1\u00d7 as long as the fastest")); // 0.68 / 0.164
        QVERIFY(r.versusFastestWords(r.entries[3]).empty());
        // The end-to-end verdict: the fastest version's whole time (its own copies), against the CPU to beat.
        QVERIFY(std::abs(r.bestEndToEndMs() - 33.3) < 1e-9);
        QCOMPARE(r.endToEndSentence(), std::string("End to end, copies included, the fastest version takes 33.3 ms: "
                                                   "16\u00d7 slower than OpenCV on 2 CPU threads (2.10 ms)."));
        QVERIFY(r.pinnedSentence().empty());
        r.pinnedWinner.transfer = "pinned";
        r.pinnedWinner.kernelMs = Stats{0.164, 0.164, 0.164};
        r.pinnedWinner.uploadMs = 5.0;
        r.pinnedWinner.downloadMs = 5.0;
        r.pinnedWinner.totalMs = 10.4;
        r.pinnedWinner.stagingMs = 1.0; // the host copies into page-locked memory count too
        const EndToEndParts parts = endToEndParts(r.pinnedWinner);
        QVERIFY(std::abs(parts.total() - 11.4) < 1e-9);
        QVERIFY(std::abs(parts.otherMs - (11.4 - 10.164)) < 1e-9);
        QCOMPARE(r.pinnedSentence(), std::string("With page-locked memory it takes 11.4 ms: "
                                                 "5.4\u00d7 slower than OpenCV on 2 CPU threads (2.10 ms)."));
        // Copies that differ between versions are not called the same.
        r.entries[3].result.uploadMs = 28.0;
        r.entries[3].result.totalMs = 46.0;
        r.measureSharedCopy();
        QVERIFY2(r.sharedCopySentence().find("depending on the version") != std::string::npos, r.sharedCopySentence().c_str());
        // JSON: the same figures.
        const Json j = raceJson(r, RaceMetric::KernelOnly);
        QCOMPARE(j["metric"].get<std::string>(), std::string("kernel"));
        QCOMPARE(j["results"][0]["variant"].get<std::string>(), std::string("fast_kernel"));
        QVERIFY(j["results"][0]["speedup_vs_cpu_race"].is_null());
        QVERIFY(std::abs(j["results"][2]["times_fastest"].get<double>() - 0.68 / 0.164) < 1e-4);
        QVERIFY(std::abs(j["end_to_end"]["ms"].get<double>() - 46.0) < 1e-4);
        QVERIFY(std::abs(j["end_to_end"]["pinned"]["ms"].get<double>() - 11.4) < 1e-4);
        // Every version writing the 8-bit picture: nothing said of the output.
        QVERIFY(r.outputSentence().empty());
        QVERIFY(!j.contains("output_sentence"));
        // A device version writing 16-bit numbers (Sobel's gx): the CPU bars are said to end with the 8-bit
        // picture; a CPU row's note alone does not say it.
        r.entries[1].result.outputNote = "16-bit output";
        QVERIFY(r.outputSentence().empty());
        r.entries[3].result.outputNote = "16-bit output (0.12 MB written), every value checked exactly";
        QCOMPARE(r.outputSentence(), std::string("The versions on the device write 16-bit numbers, 2 bytes a pixel (what "
                                                 "NPP and OpenCV give); the CPU rows end with the 8-bit picture, 1 byte a "
                                                 "pixel, the picture every row shows"));
        QCOMPARE(raceJson(r, RaceMetric::KernelOnly)["output_sentence"].get<std::string>(), r.outputSentence());
        r.entries[1].result.outputNote.clear();
        r.entries[3].result.outputNote.clear();

        // A CPU row faster than every kernel (OpenCV on PoCL's own processor): still no device version's
        // rival by kernels; it is the CPU to beat, end to end.
        RaceEntry &openCv = r.entries[5];
        openCv.result.kernelMs = Stats{0.1, 0.1, 0.1};
        openCv.result.totalMs = 0.1;
        r.pickCpuToBeat();
        QCOMPARE(r.entries[r.winner(RaceMetric::KernelOnly)].name, std::string("fast_kernel"));
        QCOMPARE(r.entries[r.ranking(RaceMetric::KernelOnly).front()].name, std::string("fast_kernel"));
        QCOMPARE(r.entries[r.winner(RaceMetric::EndToEnd)].name, std::string("opencv_cpu"));
    }

    // Issue 24: the single-threaded checking reference is computed once per picture and parameters in a
    // session: a second race on the same picture reuses it (and still checks every result); another
    // picture computes it again.
    void secondRaceReusesTheReference()
    {
        const Image image = makeTestCard(67, 41, PixelFormat::Gray8);
        RunRequest request = test::oneShotRequest("box3x3_interior", "");
        request.cpuSingle = true; // the runs check against the single-threaded reference
        RaceOptions options;
        options.baselines = false;
        options.variants = {findFilter("box3x3_interior")->variants.front().name};
        const int before = cpuReferenceComputations(1);
        const RaceResult first = runRace(*m_session, image, request, options);
        QCOMPARE(cpuReferenceComputations(1), before + 1);
        QVERIFY(!first.referenceReused);
        const RaceResult second = runRace(*m_session, image, request, options);
        QCOMPARE(cpuReferenceComputations(1), before + 1);
        QVERIFY(second.referenceReused);
        int checked = 0;
        for (const RaceEntry &e : second.entries)
            if (e.onDevice() && e.ok()) {
                QVERIFY2(e.result.checked && e.result.matches, e.name.c_str());
                ++checked;
            }
        QVERIFY(checked >= 1);
        // The pinned rerun of the winner is checked too, and reuses the reference.
        if (second.pinnedWinner.ok()) {
            QCOMPARE(second.pinnedWinner.transfer, std::string("pinned"));
            QVERIFY(second.pinnedWinner.checked && second.pinnedWinner.matches);
        }
        Image other = image;
        other.row(3)[3] ^= 0x40;
        const RaceResult third = runRace(*m_session, other, request, options);
        QCOMPARE(cpuReferenceComputations(1), before + 2);
        QVERIFY(!third.referenceReused);
    }

    // The window's race (a BenchWorker's Session) and its run a moment later (a ComputeWorker's Session)
    // measure the CPU apart, on a shared machine: both read the process's CPU timing store (CpuTimings.h),
    // so the race's CPU to beat and the run's fastest CPU code are one figure, counted alike, and the
    // speed-ups are that figure over each one's own time. Our multi-threaded time is one figure too.
    void raceThenRunShowOneCpuTime()
    {
        cpuTimings().clear();
        const Image image = makeTestCard(160, 120, PixelFormat::Gray8);
        RunRequest request = test::oneShotRequest("median3x3", "");
        request.repeat = 2;
        RaceOptions options;
        options.pinnedAlternative = false;
        options.variants = {findFilter("median3x3")->variants.front().name};
        RaceResult race = runRace(*m_session, image, request, options);
        QVERIFY(race.cpuReferenceMs > 0);
        QVERIFY(race.cpuReferenceMeasurements >= 1);
        QVERIFY(race.cpuReferenceName != "cpu_single"); // never the checking reference

        Session other(m_device); // the run's own session: it measures our CPU code again
        RunRequest runRequest = request;
        runRequest.variant = options.variants.front();
        RunResult run = other.run(image, runRequest);
        QVERIFY2(run.ok(), run.error.c_str());
        QVERIFY(run.cpuBestMs > 0);
        QVERIFY(!run.cpuWork.empty());

        // What the race page does when the store changes (RacePage, CpuTimingsWatch); the run's figures
        // came from the store as it finished.
        race.refreshCpuFigures();
        QVERIFY(!refreshCpuFigures(run)); // nothing measured since the run
        QCOMPARE(race.cpuReferenceMs, run.cpuBestMs);
        QCOMPARE(race.cpuReferenceMeasurements, run.cpuMeasurements);
        const bool openCv = run.cpuBestLabel.rfind("OpenCV", 0) == 0;
        QCOMPARE(race.cpuReferenceName, std::string(openCv ? "opencv_cpu" : "cpu_multi"));
        const int toBeat = race.cpuToBeat();
        QVERIFY(toBeat >= 0);
        QCOMPARE(race.entries[toBeat].timeMs(RaceMetric::EndToEnd), run.cpuBestMs);
        for (const RaceEntry &e : race.entries)
            if (e.name == "cpu_multi")
                QCOMPARE(e.result.kernelMs.median, run.cpuMultiMs);
        // Our multi-threaded code was measured twice (the race's session, the run's), OpenCV once where built.
        QVERIFY(cpuTimings().find(run.cpuWork, run.cpuThreads, CpuCode::Ours).measurements >= 2);
        QCOMPARE(run.speedupVsCpu, run.cpuBestMs / run.kernelMs.median);
        // The JSON says the same: the race's cpu_reference_ms and the run's cpu_ms.best, and how many.
        const Json raceJ = raceJson(race, RaceMetric::KernelOnly);
        const Json runJ = runResultJson(run);
        QCOMPARE(raceJ["cpu_reference_ms"].get<double>(), runJ["cpu_ms"]["best"].get<double>());
        QCOMPARE(raceJ["cpu_reference_measurements"].get<int>(), runJ["cpu_ms"]["best_of"].get<int>());
        if (!raceJ["end_to_end"].is_null())
            QCOMPARE(raceJ["end_to_end"]["cpu_ms"].get<double>(), runJ["cpu_ms"]["best"].get<double>());

        // A second run in the race's session measures nothing new of ours (its reference is cached there):
        // the figure stands, and a race row read again keeps it.
        const double before = run.cpuBestMs;
        const RunResult again = m_session->run(image, runRequest);
        QVERIFY(again.ok());
        QCOMPARE(again.cpuBestMs, before);
        QVERIFY(!race.refreshCpuFigures());
    }

    // End to end is end to end: the window's requests keep the picture on the device between runs
    // (reuseUpload), and a race run that way skipped every upload after the first version's (on PoCL
    // "copying the picture to the device: under 0.001 ms"). Every version of a race, and the pinned rerun,
    // pays its own upload.
    void everyVersionPaysItsUpload()
    {
        const Image image = makeTestCard(80, 60, PixelFormat::Gray8);
        RunRequest request = test::oneShotRequest("box3x3_interior", "");
        request.reuseUpload = true;
        RaceOptions options;
        options.baselines = false;
        options.cpuRows = false;
        const RaceResult race = runRace(*m_session, image, request, options);
        int ran = 0;
        for (const RaceEntry &e : race.entries)
            if (e.onDevice() && e.ok()) {
                QVERIFY2(e.result.reuploaded, e.name.c_str());
                ++ran;
            }
        QVERIFY(ran >= 2);
        if (race.pinnedWinner.ok())
            QVERIFY(race.pinnedWinner.reuploaded);
    }

    void cancelStopsBetweenRuns()
    {
        const Image image = makeTestCard(64, 48, PixelFormat::Gray8);
        RunRequest request = test::oneShotRequest("box3x3_interior", "");
        std::atomic<bool> cancel{false};
        const RaceResult race = runRace(*m_session, image, request, RaceOptions{}, &cancel,
                                        [&](const RaceEntry &, int done, int) {
                                            if (done == 3)
                                                cancel = true;
                                        });
        QVERIFY(race.cancelled);
        QCOMPARE(int(race.entries.size()), 3);
    }

    void speedupInWords()
    {
        QCOMPARE(speedupWords(12.4), std::string("12\u00d7 faster than the CPU"));
        QCOMPARE(speedupWords(2.5), std::string("2.5\u00d7 faster than the CPU"));
        QCOMPARE(speedupWords(1.0), std::string("about as fast as the CPU"));
        QCOMPARE(speedupWords(0.25), std::string("4.0\u00d7 slower than the CPU"));
        QCOMPARE(speedupWords(0), std::string());
        QCOMPARE(speedupWords(12.4, "OpenCV on 2 CPU threads"), std::string("12\u00d7 faster than OpenCV on 2 CPU threads"));
    }

    void raceVerbJsonRows()
    {
        QTemporaryDir cache;
        QProcess p;
        p.start(QStringLiteral(FWB_FILTER_BENCH),
                {"race", "--filter", "box3x3_interior", "--synthetic", "64x48", "--repeat", "1", "--json",
                 "--cache-dir", cache.path()});
        QVERIFY(p.waitForFinished(300000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject doc = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QVERIFY(doc.value("ok").toBool());
        const QJsonArray rows = doc.value("race").toObject().value("results").toArray();
        QVERIFY(rows.size() >= 4);
        QStringList names;
        for (const QJsonValue &row : rows) {
            const QString name = row.toObject().value("variant").toString();
            names << name;
            if (name.startsWith("cpu_") || name.startsWith("opencv_"))
                QVERIFY2(row.toObject().value("baseline").toBool(), qPrintable(name));
        }
        QVERIFY(names.contains("cpu_single"));
        QVERIFY(names.contains("cpu_multi"));
        QCOMPARE(rows.first().toObject().value("rank").toInt(), 1);
        // Issue 24: by default the device's versions race by their filtering, the copies said once, and
        // the end-to-end verdict against the CPU beside it, its parts adding up to its time.
        const QJsonObject raceObject = doc.value("race").toObject();
        QCOMPARE(raceObject.value("metric").toString(), QString("kernel"));
        QVERIFY(!rows.first().toObject().value("baseline").toBool());
        QVERIFY(raceObject.value("copies").toObject().value("median_ms").toDouble() > 0);
        const QJsonObject verdict = raceObject.value("end_to_end").toObject();
        const double whole = verdict.value("ms").toDouble();
        QVERIFY(whole > 0);
        QVERIFY(std::abs(verdict.value("copy_in_ms").toDouble() + verdict.value("filter_ms").toDouble()
                         + verdict.value("copy_out_ms").toDouble() + verdict.value("other_ms").toDouble() - whole)
                <= 1e-5 * std::max(1.0, whole) + 4e-6);
        QVERIFY(std::abs(verdict.value("speedup_vs_cpu").toDouble() - verdict.value("cpu_ms").toDouble() / whole)
                <= 1e-3 * verdict.value("speedup_vs_cpu").toDouble());
        QVERIFY(verdict.value("sentence").toString().startsWith("End to end, copies included"));

        QProcess text;
        text.start(QStringLiteral(FWB_FILTER_BENCH), {"race", "--filter", "box3x3_interior", "--synthetic", "64x48",
                                                      "--repeat", "1", "--no-baselines", "--cache-dir", cache.path()});
        QVERIFY(text.waitForFinished(300000));
        QCOMPARE(text.exitCode(), 0);
        const QString out = QString::fromUtf8(text.readAllStandardOutput());
        QVERIFY2(out.contains("winner:"), qPrintable(out));
        QVERIFY2(out.contains("Moving the picture to the device and back takes"), qPrintable(out));
        QVERIFY2(out.contains("End to end, copies included, the fastest version takes"), qPrintable(out));
        // The verdict names the CPU code it compares with; within 15% it says "about as fast as" (a busy
        // 2-core machine lands there now and then).
        QVERIFY2(out.contains("faster than our C++ code") || out.contains("slower than our C++ code")
                     || out.contains("about as fast as our C++ code"),
                 qPrintable(out));
        QVERIFY2(!out.contains("than the CPU"), qPrintable(out));
    }
};

QTEST_GUILESS_MAIN(TestRace)
#include "tst_race.moc"
