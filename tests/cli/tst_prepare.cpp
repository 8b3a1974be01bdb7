// filter-bench prepare: fills an empty program cache (every program built, slowest first in the list), a
// second prepare builds nothing, a corrupt entry is rebuilt, and usage errors exit 2. One cheap family
// (box3x3_interior, gray8: three programs on PoCL) keeps the cold builds short.
#include "BenchProcess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

class TestPrepare : public QObject
{
    Q_OBJECT

private slots:
    void fillsThenBuildsNothing();
    void rebuildsCorruptEntry();
    void driverCacheOnPocl();
    void recordForCacheAndList();
    void usageErrors();

private:
    struct Outcome : fwb::test::BenchOutcome
    {
        QJsonObject json;
    };
    Outcome prepare(const QStringList &extra, const QString &cacheBinaries = QStringLiteral("always"),
                    const QString &cacheDir = QStringLiteral("cache"));
    QTemporaryDir m_dir;
};

// cacheBinaries: FWB_CACHE_BINARIES for the run ("always" by default: these tests are of the disk entries,
// which the default skips on PoCL, whose own kernel cache holds the programs).
TestPrepare::Outcome TestPrepare::prepare(const QStringList &extra, const QString &cacheBinaries,
                                          const QString &cacheDir)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("FWB_CACHE_BINARIES", cacheBinaries);
    process.setProcessEnvironment(env);
    Outcome o;
    static_cast<fwb::test::BenchOutcome &>(o)
        = fwb::test::runBench(process, QStringList{"prepare", "--filter", "box3x3_interior", "--format", "gray8",
                                                   "--cache-dir", m_dir.filePath(cacheDir), "--jobs", "2"}
                                           + extra);
    if (extra.contains("--json"))
        o.json = QJsonDocument::fromJson(o.out).object();
    return o;
}

void TestPrepare::fillsThenBuildsNothing()
{
    const Outcome first = prepare({"--json"});
    QVERIFY2(first.code == 0, first.out + first.err);
    const int programs = first.json["programs"].toInt();
    QVERIFY2(programs >= 3, first.out.constData()); // uniform_padded, exact_cl12, strips (+ nonuniform on CL 2.0)
    QCOMPARE(first.json["built"].toInt(), programs);
    QCOMPARE(first.json["already_cached"].toInt(), 0);
    QCOMPARE(first.json["failed"].toInt(), 0);
    const QJsonArray results = first.json["results"].toArray();
    QCOMPARE(results.size(), programs);
    for (int i = 1; i < results.size(); ++i) // slowest first
        QVERIFY(results[i - 1].toObject()["build_ms"].toDouble() >= results[i].toObject()["build_ms"].toDouble());
    for (const QJsonValue &r : results) {
        QCOMPARE(r.toObject()["origin"].toString(), QString("compiled"));
        QVERIFY(r.toObject()["build_ms"].toDouble() > 0);
    }

    const Outcome second = prepare({"--json"});
    QVERIFY2(second.code == 0, second.out + second.err);
    QCOMPARE(second.json["programs"].toInt(), programs);
    QCOMPARE(second.json["built"].toInt(), 0);
    QCOMPARE(second.json["already_cached"].toInt(), programs);
    // Found in the record and the cache: no child ran for any of them (a child costs seconds of start on a
    // GPU even when its program is cached), and the record's cold build time is still given.
    for (const QJsonValue &r : second.json["results"].toArray()) {
        QCOMPARE(r.toObject()["origin"].toString(), QString("prepared"));
        QVERIFY(r.toObject()["build_ms"].toDouble() > 0);
    }

    const Outcome table = prepare({});
    QCOMPARE(table.code, 0);
    QVERIFY2(table.out.contains("prepared " + QByteArray::number(programs) + " programs for ")
                 && table.out.contains(": 0 built") && table.out.contains("strips"),
             table.out.constData());
}

void TestPrepare::rebuildsCorruptEntry()
{
    QVERIFY(prepare({"--json"}).code == 0); // filled (or already full from the test above)
    std::size_t entries = 0;
    for (const auto &e : std::filesystem::directory_iterator(m_dir.filePath("cache").toStdString()))
        if (e.path().extension() == ".bin" && entries++ == 0) {
            std::ofstream(e.path(), std::ios::binary | std::ios::trunc) << "not a program binary";
        }
    QVERIFY(entries >= 3);
    const Outcome o = prepare({"--json"});
    QVERIFY2(o.code == 0, o.out + o.err);
    QCOMPARE(o.json["built"].toInt(), 1);
    QCOMPARE(o.json["failed"].toInt(), 0);
}

// By default (FWB_CACHE_BINARIES=auto) a driver with its own kernel cache (PoCL) gets no binaries in ours:
// fetching them makes PoCL compile every kernel a second time. Every program is still built and run once.
void TestPrepare::driverCacheOnPocl()
{
    const Outcome o = prepare({"--json"}, "auto", "auto-cache");
    QVERIFY2(o.code == 0, o.out + o.err);
    QVERIFY2(o.json.contains("driver_cache"), o.out.constData());
    const bool driverCache = o.json["driver_cache"].toBool();
    const bool pocl = o.json["platform"].toString() == "Portable Computing Language";
    const int programs = o.json["programs"].toInt();
    QVERIFY(programs >= 3);
    QCOMPARE(o.json["failed"].toInt(), 0);
    int entries = 0;
    const std::filesystem::path dir = m_dir.filePath("auto-cache").toStdString();
    if (std::filesystem::exists(dir))
        for (const auto &e : std::filesystem::directory_iterator(dir))
            entries += e.path().extension() == ".bin" ? 1 : 0;
    QCOMPARE(driverCache, pocl && qgetenv("POCL_KERNEL_CACHE") != "0");
    QCOMPARE(entries, driverCache ? 0 : programs);
    const Outcome table = prepare({}, "auto", "auto-cache");
    QCOMPARE(table.code, 0);
    QCOMPARE(table.out.contains("keeps these programs in its own kernel cache"), driverCache);
}

// prepare records what it built beside the cache (prepared.json): `cache` names the prepared device,
// `list --build-times` each program's cold build time (kept when a later prepare finds it cached);
// never a record in a folder that is not a program cache.
void TestPrepare::recordForCacheAndList()
{
    auto bench = [this](const QStringList &args) {
        QProcess process;
        process.start(QStringLiteral(FWB_FILTER_BENCH), args);
        Outcome o;
        if (process.waitForFinished(300000))
            o.code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
        o.out = process.readAllStandardOutput();
        o.err = process.readAllStandardError();
        o.json = QJsonDocument::fromJson(o.out).object();
        return o;
    };
    const QString dir = m_dir.filePath("record-cache");
    const Outcome none = bench({"list", "--build-times", "--cache-dir", dir});
    QCOMPARE(none.code, 2);
    QVERIFY2(none.err.contains("run 'filter-bench prepare --device"), none.err.constData());
    const Outcome untouched = bench({"cache", "--cache-dir", dir});
    QVERIFY2(untouched.out.contains("prepared devices: none"), untouched.out.constData());

    const Outcome first = prepare({"--json"}, QStringLiteral("always"), QStringLiteral("record-cache"));
    QVERIFY2(first.code == 0, first.out + first.err);
    const int programs = first.json["programs"].toInt();
    const Outcome cache = bench({"cache", "--cache-dir", dir, "--json"});
    QCOMPARE(cache.code, 0);
    const QJsonArray prepared = cache.json["prepared"].toArray();
    QCOMPARE(prepared.size(), 1);
    QCOMPARE(prepared[0].toObject()["device"].toString(), first.json["device"].toString());
    QCOMPARE(prepared[0].toObject()["programs"].toInt(), programs);
    QCOMPARE(prepared[0].toObject()["failed"].toInt(), 0);
    QVERIFY(prepared[0].toObject()["slowest"].toObject()["build_ms"].toDouble() > 0);
    const Outcome text = bench({"cache", "--cache-dir", dir});
    QVERIFY2(text.out.contains("prepared: " + first.json["device"].toString().toUtf8()), text.out.constData());

    QVERIFY(prepare({"--json"}, QStringLiteral("always"), QStringLiteral("record-cache")).code == 0); // all cached now
    const Outcome times = bench({"list", "--build-times", "--cache-dir", dir, "--json"});
    QVERIFY2(times.code == 0, times.out + times.err);
    const QJsonArray builds = times.json["builds"].toArray();
    QCOMPARE(builds.size(), programs);
    for (const QJsonValue &b : builds) { // the cold times of the first prepare, not the second's loads
        QCOMPARE(b.toObject()["origin"].toString(), QString("compiled"));
        QVERIFY(b.toObject()["cold_build_ms"].toDouble() > 0);
    }
    const Outcome table = bench({"list", "--build-times", "--cache-dir", dir});
    QVERIFY2(table.code == 0 && table.out.contains("box3x3_interior") && table.out.contains(" ms"), table.out.constData());

    // Someone's own folder: the builds run, and no record is written into it.
    const QString own = m_dir.filePath("own-folder");
    QVERIFY(QDir().mkpath(own));
    {
        QFile note(own + "/notes.txt");
        QVERIFY(note.open(QIODevice::WriteOnly));
        note.write("mine");
    }
    const Outcome mine = prepare({}, QStringLiteral("always"), QStringLiteral("own-folder"));
    QVERIFY(!QFile::exists(own + "/prepared.json"));
    QVERIFY(QFile::exists(own + "/notes.txt"));
    QVERIFY2(mine.err.contains("record was not written"), mine.err.constData());
}

void TestPrepare::usageErrors()
{
    for (const QStringList &args : {QStringList{"--filter", "nosuch"}, QStringList{"--format", "gray7"},
                                    QStringList{"--jobs", "0"}, QStringList{"--bogus"}}) {
        QProcess process;
        process.start(QStringLiteral(FWB_FILTER_BENCH), QStringList{"prepare"} + args);
        QVERIFY(process.waitForFinished(60000));
        QVERIFY2(process.exitCode() == 2, qPrintable(args.join(' ') + ": " + process.readAllStandardError()));
        QVERIFY(process.readAllStandardOutput().isEmpty());
    }
}

QTEST_GUILESS_MAIN(TestPrepare)
#include "tst_prepare.moc"
