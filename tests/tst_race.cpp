// Race: every variant plus the CPU and OpenCV rows, ranked; cancel midway; the race verb's JSON rows.
#include "TestSupport.h"

#include "Race.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

using namespace fwb;

class TestRace : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!test::testDevice(m_device))
            QSKIP("no OpenCL platform");
        m_session = std::make_unique<Session>(m_device);
    }
    void cleanupTestCase() { m_session.reset(); }

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
            bool seenFailed = false;
            for (int i : order) {
                const double t = race.entries[i].timeMs(metric);
                if (t <= 0) {
                    seenFailed = true;
                    continue;
                }
                QVERIFY2(!seenFailed, "a failed entry ranked before one that ran");
                QVERIFY(t >= last);
                last = t;
            }
            // The winner is the fastest that ran, the checking reference aside (it is not in the race).
            int expectedWinner = -1;
            for (int i : order)
                if (race.entries[i].timeMs(metric) > 0 && !race.entries[i].isCheckingReference()) {
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

        QProcess text;
        text.start(QStringLiteral(FWB_FILTER_BENCH), {"race", "--filter", "box3x3_interior", "--synthetic", "64x48",
                                                      "--repeat", "1", "--no-baselines", "--cache-dir", cache.path()});
        QVERIFY(text.waitForFinished(300000));
        QCOMPARE(text.exitCode(), 0);
        const QString out = QString::fromUtf8(text.readAllStandardOutput());
        QVERIFY2(out.contains("winner:"), qPrintable(out));
        QVERIFY2(out.contains("faster than our C++ code") || out.contains("slower than our C++ code"), qPrintable(out));
        QVERIFY2(!out.contains("than the CPU"), qPrintable(out));
    }

private:
    DeviceInfo m_device;
    std::unique_ptr<Session> m_session;
};

QTEST_GUILESS_MAIN(TestRace)
#include "tst_race.moc"
