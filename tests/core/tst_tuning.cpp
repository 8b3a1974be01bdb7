// Work-group tuner and tuning database: shapes, refusals, the best shape, the JSON file (damaged files
// ignored and rewritten, files from before output blocks), the tuned shape (and block) used by auto
// afterwards, and the tune verb / --no-tuned / --blocks.
#include "TestSupport.h"

#include "ResultJson.h"
#include "Tuner.h"
#include "TuningDb.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

using namespace fwb;

namespace {

// tuneVariant with its progress checked: `done` counts 1, 2, ... of `total` (= `cells`).
TuneResult tuneWithProgress(Session &session, const Image &image, const RunRequest &request,
                            const TuneOptions &options, int cells)
{
    int calls = 0;
    return tuneVariant(session, image, request, options, nullptr, [&](const TuneCell &, int done, int total) {
        QCOMPARE(done, ++calls);
        QCOMPARE(total, cells);
    });
}

} // namespace

class TestTuning : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!test::testDevice(m_device))
            QSKIP("no OpenCL platform");
    }

    void sizeClasses()
    {
        QCOMPARE(imageSizeClass(259, 194), std::string("tiny"));
        QCOMPARE(imageSizeClass(800, 600), std::string("small"));
        QCOMPARE(imageSizeClass(1920, 1080), std::string("hd"));
        QCOMPARE(imageSizeClass(3840, 2160), std::string("large"));
        QCOMPARE(imageSizeClass(6720, 4480), std::string("huge"));
    }

    void shapesArePowersOfTwoAndMultiples()
    {
        DeviceInfo gpu;
        gpu.kind = DeviceKind::Gpu;
        gpu.vendor = "NVIDIA Corporation";
        gpu.maxWorkGroupSize = 1024;
        const VariantSpec *plain = findFilter("gaussian5x5")->variant("constant_memory");
        QVERIFY(plain);
        TuneOptions options;
        const std::vector<LocalSize> shapes = tuneShapes(gpu, *plain, options);
        auto has = [&](int w, int h) {
            return std::find(shapes.begin(), shapes.end(), LocalSize{w, h}) != shapes.end();
        };
        QVERIFY(has(1, 1) && has(32, 8) && has(16, 16) && has(1024, 1) && has(1, 1024) && has(96, 2));
        QVERIFY(!has(64, 32)); // 2048 items
        for (const LocalSize &s : shapes)
            QVERIFY(s.items() <= 1024);
        options.maxItems = 256;
        options.minItems = 32;
        for (const LocalSize &s : tuneShapes(gpu, *plain, options))
            QVERIFY(s.items() >= 32 && s.items() <= 256);
        // Per-column variants: one row of work-items.
        const FilterSpec *recursive = findFilter("recursive_gaussian");
        for (const VariantSpec &v : recursive->variants) {
            if (std::all_of(v.passes.begin(), v.passes.end(), [](const PassSpec &p) { return p.geometry == Geometry::Columns; }))
                for (const LocalSize &s : tuneShapes(gpu, v, TuneOptions{}))
                    QCOMPARE(s.height, 1);
        }
    }

    void databaseRoundTripAndDamage()
    {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/tuning.json").toStdString();
        TuningDb db(path);
        std::string warning;
        QVERIFY(db.load(&warning)); // missing: empty, fine
        QVERIFY(db.entries().empty());
        TuningEntry e;
        e.key = TuningKey::of(m_device, "gaussian5x5", "constant_memory", PixelFormat::Gray8, 259, 194);
        e.local = LocalSize{16, 4};
        e.kernelMs = 0.5;
        e.defaultMs = 0.7;
        db.put(e);
        e.local = LocalSize{8, 8}; // same key: replaced
        db.put(e);
        QCOMPARE(db.entries().size(), std::size_t(1));
        std::string error;
        QVERIFY2(db.save(&error), error.c_str());
        {
            // A fresh machine: the cache folder does not exist yet; the first save makes it.
            TuningDb fresh((dir.path() + "/not/yet/made/tuning.json").toStdString());
            fresh.put(e);
            std::string freshError;
            QVERIFY2(fresh.save(&freshError), freshError.c_str());
            TuningDb back((dir.path() + "/not/yet/made/tuning.json").toStdString());
            QVERIFY(back.load(&warning));
            QCOMPARE(back.entries().size(), std::size_t(1));
        }

        TuningDb again(path);
        QVERIFY(again.load(&warning));
        const auto found = again.find(e.key);
        QVERIFY(found);
        QCOMPARE(found->local, (LocalSize{8, 8}));
        QVERIFY(!found->when.empty());
        QVERIFY(!again.find(TuningKey::of(m_device, "gaussian5x5", "constant_memory", PixelFormat::Gray8, 1920, 1080)));

        // Damaged: ignored with a warning naming the file, then rewritten by the next save.
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{\"entries\": [ {\"platform\": ");
        f.close();
        TuningDb damaged(path);
        warning.clear();
        QVERIFY(!damaged.load(&warning));
        QVERIFY2(warning.find("damaged") != std::string::npos && warning.find(path) != std::string::npos, warning.c_str());
        QVERIFY(damaged.entries().empty());
        damaged.put(e);
        QVERIFY(damaged.save(&error));
        TuningDb rewritten(path);
        QVERIFY(rewritten.load(&warning));
        QCOMPARE(rewritten.entries().size(), std::size_t(1));

        // A malformed entry is skipped, the others kept.
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{\"version\":1,\"entries\":[{\"platform\":\"p\"},"
                "{\"platform\":\"p\",\"device\":\"d\",\"driver\":\"1\",\"filter\":\"box\",\"variant\":\"naive\","
                "\"format\":\"gray8\",\"size_class\":\"tiny\",\"local\":\"32x8\"}]}");
        f.close();
        TuningDb partial(path);
        QVERIFY(!partial.load(&warning));
        QCOMPARE(partial.entries().size(), std::size_t(1));
        QVERIFY(!partial.entries().front().block.isConcrete()); // a file from before output blocks

        // Blocks round-trip; a malformed one is skipped like any malformed entry.
        e.block = LocalSize{4, 8};
        TuningDb blocks(path);
        blocks.put(e);
        QVERIFY2(blocks.save(&error), error.c_str());
        TuningDb blocksAgain(path);
        QVERIFY(blocksAgain.load(&warning));
        QCOMPARE(blocksAgain.find(e.key)->block, (LocalSize{4, 8}));
        const QByteArray entry = "{\"platform\":\"p\",\"device\":\"d\",\"driver\":\"1\",\"filter\":\"sobel\","
                                 "\"variant\":\"roofline\",\"format\":\"gray8\",\"size_class\":\"tiny\",\"local\":\"8x8\"";
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{\"version\":1,\"entries\":[" + entry + ",\"block\":\"4x0\"}," + entry + ",\"block\":7}," + entry
                + ",\"block\":\"999x8\"}," + entry + ",\"block\":\"16x2\"}]}");
        f.close();
        TuningDb someBlocks(path);
        warning.clear();
        QVERIFY(!someBlocks.load(&warning));
        QVERIFY2(warning.find("skipped 3 malformed entries") != std::string::npos, warning.c_str());
        QCOMPARE(someBlocks.entries().size(), std::size_t(1));
        QCOMPARE(someBlocks.entries().front().block, (LocalSize{16, 2}));
        QCOMPARE(someBlocks.entries().front().key.variant, std::string("strips")); // kept under sobel's former name
    }

    // A block tune (median3x3's sorted_columns rung, byte strips: BLOCK_W a multiple of 4): each block at the
    // default shape, a block the kernel cannot make refused with the kernel's reason, then the shapes at
    // the best block; every run matched the reference; the entry carries the block and auto uses it.
    void blockTuneAndAutoUsesTheTunedBlock()
    {
        QTemporaryDir dir;
        auto db = std::make_shared<TuningDb>((dir.path() + "/tuning.json").toStdString());
        SessionOptions sessionOptions;
        sessionOptions.tunedLocal = TuningDb::lookup(db);
        Session session(m_device, sessionOptions);
        const Image image = makeTestCard(67, 45, PixelFormat::Gray8);
        RunRequest request = test::oneShotRequest("median3x3", "sorted_columns");
        TuneOptions options;
        options.tuneBlocks = true;
        options.blocks = {LocalSize{4, 8}, LocalSize{8, 2}, LocalSize{6, 2}};
        options.shapes = {LocalSize{8, 8}, LocalSize{16, 4}};
        const TuneResult tune = tuneWithProgress(session, image, request, options, 5);
        QCOMPARE(int(tune.cells.size()), 5);
        QVERIFY(tune.tunedBlocks());
        for (const TuneCell &c : tune.cells)
            if (c.refusal.empty()) {
                QVERIFY(c.ok());
                QVERIFY(c.result.checked && c.result.matches);
                QCOMPARE(c.result.block, c.block);
                QCOMPARE(c.result.blockSource, LocalSource::User);
            }
        QVERIFY(tune.cells[0].blockStage && tune.cells[0].ok() && tune.cells[0].local.isConcrete());
        QVERIFY(tune.cells[1].blockStage && tune.cells[1].ok());
        QVERIFY(tune.cells[2].blockStage && !tune.cells[2].ok());
        QVERIFY2(tune.cells[2].refusal.find("BLOCK_W must be a multiple of 4") != std::string::npos,
                 tune.cells[2].refusal.c_str());
        const LocalSize bestBlock = tune.cells[0].kernelMs <= tune.cells[1].kernelMs ? LocalSize{4, 8} : LocalSize{8, 2};
        for (int i = 3; i < 5; ++i) {
            QVERIFY(!tune.cells[i].blockStage && tune.cells[i].ok());
            QCOMPARE(tune.cells[i].block, bestBlock);
        }
        QVERIFY(tune.cell(16, 4) == &tune.cells[4]);
        QVERIFY(tune.best >= 0);
        const Json j = tuneJson(tune);
        QCOMPARE(j["best_block"].get<std::string>(), tune.cells[tune.best].block.toString());
        QCOMPARE(j["cells"][2]["stage"].get<std::string>(), std::string("block"));
        QVERIFY(j["cells"][2]["ms"].is_null() && j["cells"][2]["refusal"].is_string());
        const auto entry = tuningEntry(m_device, tune, PixelFormat::Gray8);
        QVERIFY(entry);
        QCOMPARE(entry->block, tune.cells[tune.best].block);
        QCOMPARE(entry->local, tune.cells[tune.best].local);
        db->put(*entry);

        // Auto: the tuned block and shape, matching the reference.
        RunResult r = session.run(image, request);
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(r.matches);
        QCOMPARE(r.blockSource, LocalSource::Tuned);
        QCOMPARE(r.block, entry->block);
        QCOMPARE(r.localSource, LocalSource::Tuned);
        QCOMPARE(r.local, entry->local);
        QVERIFY(r.buildOptions.find("-DBLOCK_W=" + std::to_string(entry->block.width) + " -DBLOCK_H="
                                    + std::to_string(entry->block.height))
                != std::string::npos);
        QCOMPARE(runResultJson(r)["block_source"].get<std::string>(), std::string("tuned"));
        // Ignored (--no-tuned): the variant's own block.
        db->setEnabled(false);
        r = session.run(image, request);
        QCOMPARE(r.blockSource, LocalSource::Default);
        const VariantSpec *own = findFilter("median3x3")->variant("sorted_columns");
        QCOMPARE(r.block, (LocalSize{own->blockWidthFor(PixelFormat::Gray8, m_device.kind == DeviceKind::Cpu),
                                     own->blockHeight}));
        db->setEnabled(true);
        // The user's block wins, and a shape tuned with another block is not used with it.
        RunRequest user = request;
        user.block = entry->block == LocalSize{4, 8} ? LocalSize{8, 2} : LocalSize{4, 8};
        r = session.run(image, user);
        QVERIFY2(r.ok() && r.matches, r.error.c_str());
        QCOMPARE(r.blockSource, LocalSource::User);
        QCOMPARE(r.block, user.block);
        QCOMPARE(r.localSource, LocalSource::Default);
        // A one-output-per-work-item variant takes no block.
        RunRequest plain = test::oneShotRequest("median3x3", "naive_sort");
        plain.block = LocalSize{4, 8};
        r = session.run(image, plain);
        QVERIFY(!r.ok() && r.error.find("only block variants") != std::string::npos);
        QVERIFY(runResultJson(session.run(image, test::oneShotRequest("median3x3", "naive_sort")))["block"].is_null());
    }

    void tunerFindsBestAndRefusesInvalidShapes()
    {
        Session session(m_device);
        const Image image = makeTestCard(96, 64, PixelFormat::Gray8);
        RunRequest request = test::oneShotRequest("gaussian5x5", "constant_memory");
        TuneOptions options;
        const int tooBig = int(m_device.maxWorkGroupSize) * 2;
        options.shapes = {LocalSize{8, 8}, LocalSize{16, 4}, LocalSize{tooBig, 1}};
        const TuneResult tune = tuneWithProgress(session, image, request, options, 3);
        QCOMPARE(int(tune.cells.size()), 3);
        QVERIFY(tune.cells[0].ok());
        QVERIFY(tune.cells[1].ok());
        QVERIFY(!tune.cells[2].ok());
        QVERIFY(!tune.cells[2].refusal.empty());
        QVERIFY(tune.best == 0 || tune.best == 1);
        QVERIFY(tune.defaultRun.ok());
        QVERIFY(tune.speedupOverDefault() > 0);
        QCOMPARE(tune.widths, (std::vector<int>{8, 16, tooBig}));
        QCOMPARE(tune.heights, (std::vector<int>{1, 4, 8}));
        QVERIFY(tune.cell(16, 4) == &tune.cells[1]);
        const auto entry = tuningEntry(m_device, tune, PixelFormat::Gray8);
        QVERIFY(entry);
        QCOMPARE(entry->local, tune.cells[tune.best].local);
        const Json j = tuneJson(tune);
        QCOMPARE(j["cells"].size(), std::size_t(3));
        QVERIFY(j["cells"][2]["ms"].is_null());

        // Cancel midway.
        std::atomic<bool> cancel{false};
        const TuneResult cut = tuneVariant(session, image, request, options, &cancel,
                                           [&](const TuneCell &, int done, int) { cancel = done == 1; });
        QVERIFY(cut.cancelled);
        QCOMPARE(int(cut.cells.size()), 1);
    }

    void autoUsesTheTunedShape()
    {
        QTemporaryDir dir;
        auto db = std::make_shared<TuningDb>((dir.path() + "/tuning.json").toStdString());
        const Image image = makeTestCard(96, 64, PixelFormat::Gray8);
        TuningEntry e;
        e.key = TuningKey::of(m_device, "gaussian5x5", "constant_memory", PixelFormat::Gray8, image.width(), image.height());
        e.local = LocalSize{8, 4};
        db->put(e);
        SessionOptions options;
        options.tunedLocal = TuningDb::lookup(db);
        Session session(m_device, options);
        const RunRequest request = test::oneShotRequest("gaussian5x5", "constant_memory");
        RunResult r = session.run(image, request);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.localSource, LocalSource::Tuned);
        QCOMPARE(r.local, (LocalSize{8, 4}));
        QCOMPARE(launchShapeLabel(r.local, r.localSource), std::string("auto (8x4, tuned)"));
        db->setEnabled(false);
        r = session.run(image, request);
        QCOMPARE(r.localSource, LocalSource::Default);
        db->setEnabled(true);
        RunRequest user = request;
        user.local = LocalSize{16, 16};
        r = session.run(image, user);
        QCOMPARE(r.localSource, LocalSource::User);
    }

    void tuneVerbFillsTheDatabase()
    {
        QTemporaryDir cache;
        QProcess tune;
        tune.start(QStringLiteral(FWB_FILTER_BENCH),
                   {"tune", "--filter", "gaussian5x5", "--variant", "constant_memory", "--synthetic", "96x64", "--shapes",
                    "8x8,16x4", "--repeat", "1", "--json", "--cache-dir", cache.path()});
        QVERIFY(tune.waitForFinished(300000));
        QCOMPARE(tune.exitCode(), 0);
        const QJsonObject doc = QJsonDocument::fromJson(tune.readAllStandardOutput()).object();
        QVERIFY(doc.value("saved").toBool());
        const QString best = doc.value("tunes").toArray().first().toObject().value("best").toString();
        QVERIFY(best == "8x8" || best == "16x4");
        QVERIFY(QFile::exists(cache.path() + "/tuning.json"));

        auto runJson = [&](const QStringList &extra) {
            QProcess run;
            run.start(QStringLiteral(FWB_FILTER_BENCH),
                      QStringList{"run", "--filter", "gaussian5x5", "--variant", "constant_memory", "--synthetic", "96x64",
                                  "--repeat", "1", "--json", "--cache-dir", cache.path()}
                          + extra);
            run.waitForFinished(300000);
            return QJsonDocument::fromJson(run.readAllStandardOutput())
                .object()
                .value("results")
                .toArray()
                .first()
                .toObject();
        };
        QJsonObject row = runJson({});
        QCOMPARE(row.value("local_source").toString(), QString("tuned"));
        row = runJson({"--no-tuned"});
        QCOMPARE(row.value("local_source").toString(), QString("default"));

        // A damaged database: a warning, the run still succeeds.
        QFile f(cache.path() + "/tuning.json");
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("not json");
        f.close();
        QProcess run;
        run.start(QStringLiteral(FWB_FILTER_BENCH), {"run", "--filter", "gaussian5x5", "--variant", "constant_memory",
                                                     "--synthetic", "96x64", "--repeat", "1", "--cache-dir", cache.path()});
        QVERIFY(run.waitForFinished(300000));
        QCOMPARE(run.exitCode(), 0);
        QVERIFY(run.readAllStandardError().contains("damaged"));
    }

    // tune --blocks LIST then run: the saved entry has the block, auto uses it (JSON block_source tuned),
    // --block is the user's, --no-tuned the variant's own.
    void tuneVerbTunesBlocks()
    {
        QTemporaryDir cache;
        const QStringList image{"--synthetic", "67x45", "--repeat", "1", "--cache-dir", cache.path(), "--json"};
        QProcess tune;
        tune.start(QStringLiteral(FWB_FILTER_BENCH), QStringList{"tune", "--filter", "sobel", "--variant", "strips",
                                                                 "--blocks", "4x8,8x4,2x2", "--shapes", "8x8"}
                                                         + image);
        QVERIFY(tune.waitForFinished(300000));
        QCOMPARE(tune.exitCode(), 0);
        const QJsonObject t = QJsonDocument::fromJson(tune.readAllStandardOutput())
                                  .object()
                                  .value("tunes")
                                  .toArray()
                                  .first()
                                  .toObject();
        const QString bestBlock = t.value("best_block").toString();
        QVERIFY2(bestBlock == "4x8" || bestBlock == "8x4", qPrintable(bestBlock));
        const QJsonArray cells = t.value("cells").toArray();
        QCOMPARE(cells.size(), 4); // three blocks, then one shape at the best block
        for (const QJsonValue &each : cells) {
            const QJsonObject c = each.toObject();
            QVERIFY(c.value("ms").isDouble() != c.value("refusal").isString());
        }
        QCOMPARE(cells[2].toObject().value("block").toString(), QString("2x2"));
        QVERIFY(cells[2].toObject().value("refusal").isString()); // sobel's strips need 4-byte multiples
        QCOMPARE(cells[3].toObject().value("stage").toString(), QString("local"));
        QCOMPARE(cells[3].toObject().value("block").toString(), bestBlock);
        QFile db(cache.path() + "/tuning.json");
        QVERIFY(db.open(QIODevice::ReadOnly));
        const QJsonObject entry = QJsonDocument::fromJson(db.readAll()).object().value("entries").toArray().first().toObject();
        QCOMPARE(entry.value("block").toString(), bestBlock);
        QCOMPARE(entry.value("local").toString(), t.value("best").toString());

        auto runJson = [&](const QStringList &extra) {
            QProcess run;
            run.start(QStringLiteral(FWB_FILTER_BENCH),
                      QStringList{"run", "--filter", "sobel", "--variant", "strips", "--check", "--no-baselines"}
                          + image + extra);
            run.waitForFinished(300000);
            return QJsonDocument::fromJson(run.readAllStandardOutput()).object().value("results").toArray().first().toObject();
        };
        QJsonObject row = runJson({});
        QCOMPARE(row.value("block_source").toString(), QString("tuned"));
        QCOMPARE(row.value("block").toString(), bestBlock);
        QCOMPARE(row.value("local").toString(), t.value("best").toString());
        QVERIFY(row.value("matches").toBool());
        row = runJson({"--timeout", "120"}); // the same run in the helper process reports its block too
        QCOMPARE(row.value("block_source").toString(), QString("tuned"));
        QCOMPARE(row.value("block").toString(), bestBlock);
        QVERIFY(row.value("matches").toBool());
        for (const QStringList &extra : {QStringList{}, QStringList{"--timeout", "120"}}) {
            row = runJson(QStringList{"--block", "4x4"} + extra);
            QCOMPARE(row.value("block_source").toString(), QString("user"));
            QCOMPARE(row.value("block").toString(), QString("4x4"));
            QVERIFY(row.value("matches").toBool());
        }
        row = runJson({"--no-tuned"});
        QCOMPARE(row.value("block_source").toString(), QString("default"));
        QVERIFY(row.value("matches").toBool());
    }

private:
    DeviceInfo m_device;
};

QTEST_GUILESS_MAIN(TestTuning)
#include "tst_tuning.moc"
