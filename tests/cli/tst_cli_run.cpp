// filter-bench run end to end: its JSON (every variant, OpenCV's rows), files in and out, sweeps over
// filters and parameters, every transfer mode, tiles and the pretend allocation limit, and --block; each
// result checked against the CPU reference.
#include "SessionSuite.h"
#include "OpenCvBaseline.h"
#include "TestSupport.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

class TestCliRun : public fwb::test::BenchSuite
{
    Q_OBJECT

private slots:
    void runJson();
    void runFileInOut();
    void runSweep();
    void runPinned();
    void runTransferAll();
    void runTransferAllImages();
    void runTiled_data();
    void runTiled();
    void runTiledRefusals();
    void runPinnedImageOutputs();
    void runBlock();
    void runFormerVariantNames();
    void runFlushCache();
};

// Issue 23 renamed the `roofline` rungs; their former names stay accepted for a release (core's
// variantAliases). --variant roofline runs today's variant, with the same picture, under today's name in
// the JSON, and says so once on stderr; with several filters each runs its own renamed rung.
void TestCliRun::runFormerVariantNames()
{
    const QStringList base{"run", "--filter", "sobel", "--synthetic", "64x48", "--repeat", "1", "--warmup", "0",
                           "--no-cpu-single", "--no-baselines", "--check", "--json", "--overwrite", "--output"};
    const QString formerOut = m_dir.filePath("former.png"), nowOut = m_dir.filePath("now.png");
    const Outcome former = bench(base + QStringList{formerOut, "--variant", "roofline"});
    const Outcome now = bench(base + QStringList{nowOut, "--variant", "strips"});
    QVERIFY2(former.code == 0 && now.code == 0, (former.err + now.err).constData());
    const auto variantsOf = [](const Outcome &o) {
        QStringList names;
        for (const QJsonValue &each : QJsonDocument::fromJson(o.out).object()["results"].toArray()) {
            names << each.toObject()["variant"].toString();
            if (!each.toObject()["matches"].toBool())
                names << "(does not match)";
        }
        return names;
    };
    QCOMPARE(variantsOf(former), QStringList{"strips"});
    QCOMPARE(variantsOf(now), QStringList{"strips"});
    QVERIFY(!QImage(nowOut).isNull());
    QCOMPARE(QImage(formerOut), QImage(nowOut));
    QVERIFY2(former.err.contains("note: 'roofline' is a former variant name, accepted for this release; sobel's is "
                                 "now 'strips'\n"),
             former.err.constData());
    QVERIFY2(!now.err.contains("former"), now.err.constData());

    const Outcome several = bench({"run", "--filter", "sobel,transpose,median3x3", "--variant", "roofline",
                                   "--synthetic", "40x24", "--repeat", "1", "--warmup", "0", "--no-cpu-single",
                                   "--no-baselines", "--check", "--json"});
    QVERIFY2(several.code == 0, several.err.constData());
    QCOMPARE(variantsOf(several), (QStringList{"strips", "register_blocks", "sorted_columns"}));
    QCOMPARE(several.err.count("former variant name"), 1);

    // race and tune take the former names too, and answer with today's.
    const Outcome race = bench({"race", "--filter", "median3x3", "--synthetic", "32x24", "--variant",
                                "naive_sort,roofline", "--kernel-only", "--no-cpu", "--no-baselines", "--json"});
    QVERIFY2(race.code == 0, race.err.constData());
    QVERIFY2(race.out.contains("\"sorted_columns\"") && !race.out.contains("\"roofline\""), race.out.constData());
    const Outcome tune = bench({"tune", "--filter", "sobel", "--variant", "roofline", "--shapes", "8x4", "--dry-run",
                                "--synthetic", "32x24", "--json"});
    QVERIFY2(tune.code == 0, tune.err.constData());
    QVERIFY2(tune.out.contains("\"strips\"") && !tune.out.contains("\"roofline\""), tune.out.constData());
}

// --block WxH: the block variants build and launch with that output block per work-item and still match
// the reference (median's packed rung at the GPU's 16-byte block, on whatever device runs the tests); with
// --variant all only the block variants run.
void TestCliRun::runBlock()
{
    const Outcome o = bench({"run", "--filter", "median3x3,median5x5", "--variant", "forgetful_u16x2_ptx", "--block",
                             "16x8", "--synthetic", "37x21", "--repeat", "1", "--warmup", "0", "--no-cpu-single",
                             "--border", "replicate", "--check", "--json"});
    if (o.code != 0)
        qWarning("stderr: %s", o.err.constData());
    QCOMPARE(o.code, 0);
    QJsonArray results = QJsonDocument::fromJson(o.out).object()["results"].toArray();
    QCOMPARE(results.size(), 2);
    for (const QJsonValue &each : results) {
        const QJsonObject r = each.toObject();
        QVERIFY2(r["build_options"].toString().contains("-DBLOCK_W=16 -DBLOCK_H=8"),
                 qPrintable(r["build_options"].toString()));
        QVERIFY(r["matches"].toBool());
    }
    const Outcome all = bench({"run", "--filter", "sobel", "--block", "8x4", "--synthetic", "37x21", "--repeat", "1",
                               "--warmup", "0", "--no-cpu-single", "--check", "--json"});
    if (all.code != 0)
        qWarning("stderr: %s", all.err.constData());
    QCOMPARE(all.code, 0);
    results = QJsonDocument::fromJson(all.out).object()["results"].toArray();
    QStringList variants;
    for (const QJsonValue &each : results)
        if (!each.toObject()["baseline"].toBool())
            variants << each.toObject()["variant"].toString();
    QCOMPARE(variants, (QStringList{"strips", "stream"})); // stream takes 16 bytes across: 8x4 leaves items idle

    // Sobel's strips and stream rungs are built for their output (paramDefines): -DFWB_PARAM_OUTPUT=<output>,
    // each output its own program and still matching; the other rungs take the output at run time (no such define).
    for (const char *output : {"1", "2"}) {
        const Outcome o2 = bench({"run", "--filter", "sobel", "--variant", "all", "--param",
                                  QString("output=") + output, "--synthetic", "37x21", "--repeat", "1", "--warmup", "0",
                                  "--no-cpu-single", "--no-baselines", "--check", "--json"});
        QCOMPARE(o2.code, 0);
        for (const QJsonValue &each : QJsonDocument::fromJson(o2.out).object()["results"].toArray()) {
            const QJsonObject r = each.toObject();
            if (r["baseline"].toBool())
                continue;
            const bool built = r["build_options"].toString().contains(QString("-DFWB_PARAM_OUTPUT=") + output);
            const QString variant = r["variant"].toString();
            QVERIFY2(built == (variant == "strips" || variant == "stream"), qPrintable(r["build_options"].toString()));
            QVERIFY(r["matches"].toBool());
        }
    }
}

void TestCliRun::runJson()
{
    const Outcome o = bench({"run", "--filter", "gaussian5x5", "--variant", "all", "--synthetic", "259x194", "--format",
                             "rgba8888", "--repeat", "2", "--warmup", "1", "--check", "--json", "--param", "sigma=1.2"});
    if (o.code != 0)
        qWarning("stderr: %s", o.err.constData());
    QCOMPARE(o.code, 0);
    const QJsonObject root = QJsonDocument::fromJson(o.out).object();
    QCOMPARE(root["image"].toObject()["width"].toInt(), 259);
    QCOMPARE(root["image"].toObject()["height"].toInt(), 194);
    QCOMPARE(root["image"].toObject()["format"].toString(), QStringLiteral("rgba8888"));
    QVERIFY(root["device"].toObject().contains("name"));
    const QJsonArray results = root["results"].toArray();
    const int variants = int(fwb::findFilter("gaussian5x5")->variants.size());
    QCOMPARE(results.size(), variants + 3); // every variant, then OpenCV's two rows and NPP's
    for (int i = 0; i < results.size(); ++i) {
        const QJsonObject r = results[i].toObject();
        if (i >= variants) { // opencv_cpu, opencv_tapi, npp: marked, and checked like a variant or unavailable with why
            const char *names[] = {"opencv_cpu", "opencv_tapi", "npp"};
            QCOMPARE(r["variant"].toString(), QString(names[i - variants]));
            QVERIFY(r["baseline"].toBool());
            QVERIFY(r["error"].isNull() ? r["matches"].toBool() : r["unavailable"].toBool());
            continue;
        }
        QCOMPARE(r["local_source"].toString(), QStringLiteral("default"));
        QVERIFY(r["local_label"].toString().startsWith("auto ("));
        QVERIFY(!r.contains("baseline"));
        QVERIFY(r["cpu_ms"].toObject()["best"].toDouble() > 0);
        QVERIFY(!r["cpu_ms"].toObject()["best_label"].toString().isEmpty());
        QVERIFY(r["cpu_ms"].toObject()["best_of"].toInt() >= 1); // the best of so many measurements (CpuTimings.h)
        for (const char *key : {"filter", "variant", "local", "global", "build_ms", "build_cached", "upload_ms",
                                "kernel_ms", "download_ms", "total_ms", "mpix_per_s", "gbps", "cpu_ms",
                                "speedup_vs_cpu", "max_abs_diff", "matches", "error"})
            QVERIFY2(r.contains(key), key);
        const QJsonObject k = r["kernel_ms"].toObject();
        if (!r["error"].isNull())
            QFAIL(qPrintable(r["variant"].toString() + ": " + r["error"].toString()));
        QVERIFY(k["min"].toDouble() > 0 && k["min"].toDouble() <= k["median"].toDouble()
                && k["median"].toDouble() <= k["max"].toDouble());
        QVERIFY(r["matches"].toBool());
        QVERIFY(r["cpu_ms"].toObject()["single"].toDouble() > 0);
        QVERIFY(r["cpu_ms"].toObject()["multi"].toDouble() > 0);
        QVERIFY(r["gbps"].toDouble() > 0);
    }
}

void TestCliRun::runFileInOut()
{
    const QString in = m_dir.filePath("in.png"), out = m_dir.filePath("out.png");
    QImage image(37, 23, QImage::Format_RGB32);
    for (int y = 0; y < 23; ++y)
        for (int x = 0; x < 37; ++x)
            image.setPixel(x, y, qRgb(x * 7, y * 11, (x * y) & 255));
    QVERIFY(image.save(in));
    const Outcome o = bench({"run", "--filter", "gaussian5x5", "--variant", "unrolled_constant", "--input", in,
                             "--format", "rgba8888", "--output", out, "--repeat", "1", "--check"});
    QVERIFY2(o.code == 0, o.err.constData());
    QImage result(out);
    QCOMPARE(result.size(), QSize(37, 23));
    QVERIFY(result != image.convertToFormat(result.format())); // it really is the filtered image
    QVERIFY(QDir(m_dir.path()).entryList(QDir::Files).size() == 2); // no temp file left behind
}

// Several filters and a swept parameter in one run: every combination runs, in order, each checked;
// the table ends with the sweep matrix and --json-file holds the same runs with their parameters.
void TestCliRun::runSweep()
{
    const QString json = m_dir.filePath("sweep.json");
    const Outcome o = bench({"run", "--filter", "recursive_gaussian,gaussian", "--param", "sigma=1,3", "--synthetic",
                             "67x45", "--repeat", "1", "--warmup", "0", "--no-cpu-single", "--check", "--json-file",
                             json});
    QVERIFY2(o.code == 0, o.err.constData());
    QVERIFY2(o.out.contains("Kernel median ms over the sweep"), o.out.constData());
    QVERIFY(o.out.contains("sigma=1") && o.out.contains("sigma=3"));
    QFile f(json);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonArray results = QJsonDocument::fromJson(f.readAll()).object()["results"].toArray();
    const int recursive = int(fwb::findFilter("recursive_gaussian")->variants.size());
    const int separable = int(fwb::findFilter("gaussian")->variants.size());
    const int baselines = 3; // gaussian has OpenCV's two rows and NPP's (unavailable, with why, where not built); the IIR none
    QCOMPARE(results.size(), 2 * (recursive + separable + baselines));
    QStringList seen;
    for (const QJsonValue &value : results) {
        const QJsonObject r = value.toObject();
        if (r["baseline"].toBool()) {
            QVERIFY(r["error"].isNull() ? r["matches"].toBool() : r["unavailable"].toBool());
            continue;
        }
        seen << QString("%1/%2").arg(r["filter"].toString()).arg(r["params"].toObject()["sigma"].toDouble());
        if (r["unavailable"].toBool()) { // gaussian/strips stops at radius 8, strips_half2, tiled_half2 and tensor_f16
                                          // at 6 (sigma 3 reaches 9)
            const QString variant = r["variant"].toString(), error = r["error"].toString();
            QVERIFY2((variant == "strips" && error.contains("radius up to 8"))
                         || ((variant == "strips_half2" || variant == "tiled_half2" || variant == "tensor_f16")
                             && error.contains("radius up to 6")),
                     qPrintable(variant + ": " + error));
            continue;
        }
        QVERIFY2(r["error"].isNull() && r["matches"].toBool(), qPrintable(r["variant"].toString()));
        QCOMPARE(r["format"].toString(), QStringLiteral("gray8"));
    }
    QCOMPARE(seen.first(), QStringLiteral("recursive_gaussian/1"));
    QCOMPARE(seen.at(recursive), QStringLiteral("gaussian/1"));
    QCOMPARE(seen.last(), QStringLiteral("gaussian/3"));
    // The JSON file is a result too: never replaced without --overwrite.
    const Outcome again = bench({"run", "--filter", "transpose", "--synthetic", "8x8", "--repeat", "1",
                                 "--json-file", json});
    QCOMPARE(again.code, 2);
    QVERIFY2(again.err.contains("--overwrite"), again.err.constData());
}

// Pinned (page-locked) staging buffers change where the copies start and end, never the result.
void TestCliRun::runPinned()
{
    const Outcome o = bench({"run", "--filter", "gaussian5x5", "--synthetic", "131x67", "--format", "rgba8888",
                             "--repeat", "2", "--warmup", "1", "--transfer", "pinned", "--check", "--json"});
    QVERIFY2(o.code == 0, o.err.constData());
    const QJsonObject root = QJsonDocument::fromJson(o.out).object();
    QCOMPARE(root["transfer"].toString(), QStringLiteral("pinned"));
    const QJsonArray results = root["results"].toArray();
    QVERIFY(results.size() >= 5);
    for (const QJsonValue &value : results) {
        const QJsonObject r = value.toObject();
        if (r["baseline"].toBool())
            continue; // OpenCV's rows copy the way OpenCV does
        QCOMPARE(r["transfer"].toString(), QStringLiteral("pinned"));
        QVERIFY2(r["matches"].toBool(), qPrintable(r["variant"].toString()));
        QVERIFY(r["upload_ms"].toDouble() > 0 && r["download_ms"].toDouble() > 0);
        QVERIFY(r["staging_ms"].toDouble() >= 0);
    }
}

static QJsonArray ourRows(const QJsonObject &root) // the results without OpenCV's rows
{
    QJsonArray rows;
    for (const QJsonValue &value : root["results"].toArray())
        if (!value.toObject()["baseline"].toBool())
            rows.append(value);
    return rows;
}

// --transfer all: one row per mode, in the table's order, each naming its mode; every mode that runs
// gives the reference's pixels, with upload/download GB/s and an end-to-end time; a mode the device
// lacks is unavailable with the reason, and does not fail the run.
void TestCliRun::runTransferAll()
{
    const Outcome o = bench({"run", "--filter", "gaussian5x5", "--variant", "unrolled_constant", "--synthetic", "131x67",
                             "--format", "gray8", "--repeat", "2", "--warmup", "1", "--transfer", "all", "--check",
                             "--json"});
    QVERIFY2(o.code == 0, o.err.constData());
    const QJsonObject root = QJsonDocument::fromJson(o.out).object();
    QCOMPARE(root["transfer"].toString(), QStringLiteral("all"));
    const QJsonArray rows = ourRows(root);
    const QStringList modes{"pageable", "pinned", "zero_copy", "output_mapped", "svm"};
    QCOMPARE(rows.size(), modes.size());
    for (int i = 0; i < rows.size(); ++i) {
        const QJsonObject r = rows[i].toObject();
        QCOMPARE(r["transfer"].toString(), modes[i]);
        QCOMPARE(r["tiles"].toInt(), 1);
        QVERIFY(r["tile_size"].isNull());
        QVERIFY2(r["transfer_note"].isString() && !r["transfer_note"].toString().isEmpty(), qPrintable(modes[i]));
        if (r["unavailable"].toBool()) { // only svm may be missing, and it says which capability
            QCOMPARE(modes[i], QStringLiteral("svm"));
            QVERIFY2(r["error"].toString().contains("CL_DEVICE_SVM"), qPrintable(r["error"].toString()));
            continue;
        }
        QVERIFY2(r["error"].isNull() || r["error"].toString().isEmpty(), qPrintable(r["error"].toString()));
        QVERIFY2(r["matches"].toBool(), qPrintable(modes[i]));
        QVERIFY(r["upload_ms"].toDouble() > 0 && r["download_ms"].toDouble() > 0);
        QVERIFY(r["upload_gbps"].toDouble() > 0 && r["download_gbps"].toDouble() > 0);
        QVERIFY(r["end_to_end_ms"].toDouble() >= r["total_ms"].toDouble());
        QVERIFY(r.contains("upload_pct_of_probe") && r.contains("download_pct_of_probe"));
        if (modes[i] == QStringLiteral("pinned")) // every mode shares one ordinary image: pinned stages it
            QVERIFY(r["staging_ms"].toDouble() > 0);
    }
    // The table: one transfer line per mode.
    const Outcome table = bench({"run", "--filter", "gaussian5x5", "--variant", "unrolled_constant", "--synthetic",
                                 "64x48", "--repeat", "1", "--warmup", "0", "--transfer", "all"});
    QVERIFY2(table.code == 0, table.err.constData());
    for (const QString &mode : modes)
        QVERIFY2(table.out.contains(QStringLiteral("    %1").arg(mode).toUtf8()), table.out.constData());
}

// image2d variants: pageable and pinned run; the mapped modes and svm are unavailable: true, with why.
void TestCliRun::runTransferAllImages()
{
    const Outcome o = bench({"run", "--filter", "gaussian5x5", "--variant", "image2d", "--synthetic", "64x48", "--format",
                             "rgba8888", "--repeat", "1", "--warmup", "0", "--transfer", "all", "--check", "--json"});
    QVERIFY2(o.code == 0, o.err.constData());
    const QJsonArray rows = ourRows(QJsonDocument::fromJson(o.out).object());
    QCOMPARE(rows.size(), 5);
    for (const QJsonValue &value : rows) {
        const QJsonObject r = value.toObject();
        const QString mode = r["transfer"].toString();
        if (mode == "pageable" || mode == "pinned") {
            QVERIFY2(r["matches"].toBool(), qPrintable(mode + ": " + r["error"].toString()));
            QVERIFY(!r["unavailable"].toBool());
        } else {
            QVERIFY2(r["unavailable"].toBool(), qPrintable(mode));
            QVERIFY2(r["error"].toString().contains("image2d"), qPrintable(r["error"].toString()));
            QVERIFY(!r["matches"].toBool());
        }
    }
}

// --tile WxH forces tiles, --max-alloc-mib N a smaller pretend device: tiles and tile_size in the JSON,
// the reference's pixels (--check), for both copy modes tiles accept.
void TestCliRun::runTiled_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("tiles");       // 0: more than one, however many
    QTest::addColumn<QString>("tileSize"); // empty: any WxH
    for (const char *mode : {"pageable", "pinned"}) {
        QTest::newRow(qPrintable(QStringLiteral("--tile 40x24 %1").arg(mode)))
            << QStringList{"--synthetic", "157x93", "--format", "gray8", "--tile", "40x24", "--transfer", mode} << 16
            << "40x24";
        QTest::newRow(qPrintable(QStringLiteral("--tile strips %1").arg(mode)))
            << QStringList{"--synthetic", "157x93", "--format", "rgba8888", "--tile", "157x10", "--transfer", mode} << 10
            << "157x10";
        QTest::newRow(qPrintable(QStringLiteral("--max-alloc-mib 1 %1").arg(mode)))
            << QStringList{"--synthetic", "1200x700", "--format", "rgba8888", "--max-alloc-mib", "1", "--transfer", mode}
            << 0 << "";
    }
    QTest::newRow("tile larger than the image") << QStringList{"--synthetic", "50x30", "--tile", "4096x4096"} << 1
                                                << "50x30";
}

void TestCliRun::runTiled()
{
    QFETCH(QStringList, args);
    QFETCH(int, tiles);
    QFETCH(QString, tileSize);
    const Outcome o = bench(QStringList{"run", "--filter", "gaussian5x5", "--variant", "unrolled_constant", "--repeat",
                                        "1", "--warmup", "0", "--check", "--json"}
                            + args);
    QVERIFY2(o.code == 0, o.err.constData());
    const QJsonArray rows = ourRows(QJsonDocument::fromJson(o.out).object());
    QCOMPARE(rows.size(), 1);
    const QJsonObject r = rows[0].toObject();
    QVERIFY2(r["matches"].toBool(), qPrintable(r["error"].toString()));
    const int at = int(args.indexOf("--transfer"));
    QCOMPARE(r["transfer"].toString(), at >= 0 ? args[at + 1] : QStringLiteral("pageable"));
    if (tiles > 0)
        QCOMPARE(r["tiles"].toInt(), tiles);
    else
        QVERIFY2(r["tiles"].toInt() > 1, qPrintable(QString::number(r["tiles"].toInt())));
    const QString size = r["tile_size"].toString();
    if (!tileSize.isEmpty())
        QCOMPARE(size, tileSize);
    else
        QVERIFY2(QRegularExpression("^[1-9][0-9]*x[1-9][0-9]*$").match(size).hasMatch(), qPrintable(size));
    if (r["transfer"].toString() == QStringLiteral("pinned")) { // --transfer pinned alone: the image is page-locked
        QCOMPARE(r["staging_ms"].toDouble(), 0.0);
        QVERIFY2(r["transfer_note"].toString().startsWith("page-locked image"), qPrintable(r["transfer_note"].toString()));
    }
    if (r["tiles"].toInt() > 1) {
        QCOMPARE(r["tile_halo"].toInt(), 2);
        QVERIFY(r["streams"].toInt() >= 1);
        QVERIFY(r["overlap_pct"].toDouble() >= 0 && r["overlap_pct"].toDouble() <= 100);
        QVERIFY(r["stages_ms"].toDouble() > 0);
    }
}

// --transfer pinned puts the decoded image in page-locked memory and the copies (untiled) or tiles
// (streamed) DMA straight from and into it: the saved result is the pageable run's, pixel for pixel, and
// the table says why staging is 0.
void TestCliRun::runPinnedImageOutputs()
{
    const QString in = m_dir.filePath("pinned-in.png");
    QImage image(93, 61, QImage::Format_RGB32);
    for (int y = 0; y < 61; ++y)
        for (int x = 0; x < 93; ++x)
            image.setPixel(x, y, qRgb(x * 5, y * 9, (x * y * 3) & 255));
    QVERIFY(image.save(in));
    const QStringList base{"run", "--filter", "gaussian5x5", "--variant", "unrolled_constant", "--input", in,
                           "--repeat", "1", "--warmup", "0", "--check", "--overwrite"};
    for (const char *format : {"gray8", "rgba8888"}) {
        const QString reference = m_dir.filePath(QStringLiteral("pageable-%1.png").arg(format));
        const Outcome pageable = bench(base + QStringList{"--format", format, "--output", reference});
        QVERIFY2(pageable.code == 0, pageable.err.constData());
        const QImage expected(reference);
        QVERIFY(!expected.isNull());
        for (const QStringList &extra : {QStringList{}, QStringList{"--tile", "32x16"}}) {
            const QString out = m_dir.filePath(QStringLiteral("pinned-%1-%2.png").arg(format).arg(extra.size()));
            const Outcome pinned = bench(base + extra + QStringList{"--format", format, "--transfer", "pinned", "--output", out});
            QVERIFY2(pinned.code == 0, pinned.err.constData());
            QVERIFY2(pinned.out.contains("staging 0.000 ms (image page-locked)"), pinned.out.constData());
            QCOMPARE(QImage(out), expected);
        }
    }
}

// Runs tiles cannot serve: a mapped mode is unavailable (with why), a filter that cannot be tiled
// fails with the reason; both are one row with an error, exit 1, never a crash.
void TestCliRun::runTiledRefusals()
{
    const Outcome mapped = bench({"run", "--filter", "gaussian5x5", "--variant", "unrolled_constant", "--synthetic",
                                  "100x60", "--tile", "32x32", "--transfer", "zero_copy", "--repeat", "1", "--json"});
    QVERIFY2(mapped.code == 0 || mapped.code == 1, mapped.err.constData());
    const QJsonArray rows = ourRows(QJsonDocument::fromJson(mapped.out).object());
    QCOMPARE(rows.size(), 1);
    QVERIFY(rows[0].toObject()["unavailable"].toBool());
    QVERIFY2(rows[0].toObject()["error"].toString().contains("tiled"), qPrintable(rows[0].toObject()["error"].toString()));

    const Outcome iir = bench({"run", "--filter", "recursive_gaussian", "--synthetic", "100x60", "--tile", "32x32",
                               "--repeat", "1", "--json"});
    QCOMPARE(iir.code, 1);
    for (const QJsonValue &value : ourRows(QJsonDocument::fromJson(iir.out).object()))
        QVERIFY2(value.toObject()["error"].toString().contains("cannot be tiled"),
                 qPrintable(value.toObject()["error"].toString()));
}

// --flush-cache: the request says so in the JSON, the results still match with the scratch buffer written
// before every launch (box3x3_interior: after the copy of the source into the destination too), and a
// tiled run says the cache was not flushed.
void TestCliRun::runFlushCache()
{
    for (const char *filter : {"gaussian5x5", "box3x3_interior"}) {
        const Outcome o = bench({"run", "--filter", filter, "--variant", "stream", "--synthetic", "67x41", "--repeat",
                                 "2", "--warmup", "1", "--check", "--no-baselines", "--json", "--flush-cache"});
        QVERIFY2(o.code == 0, o.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(o.out).object();
        QVERIFY(root["flush_cache"].toBool());
        const QJsonArray rows = ourRows(root);
        QCOMPARE(rows.size(), 1);
        QVERIFY2(rows[0].toObject()["matches"].toBool(), qPrintable(rows[0].toObject()["error"].toString()));
        QVERIFY(!rows[0].toObject()["transfer_note"].toString().contains("not flushed"));
    }
    const Outcome tiled = bench({"run", "--filter", "gaussian5x5", "--variant", "stream", "--synthetic", "67x41", "--tile",
                                 "32x16", "--repeat", "1", "--warmup", "0", "--check", "--no-baselines", "--json",
                                 "--flush-cache"});
    QVERIFY2(tiled.code == 0, tiled.err.constData());
    const QJsonObject r = ourRows(QJsonDocument::fromJson(tiled.out).object())[0].toObject();
    QVERIFY(r["matches"].toBool());
    QVERIFY2(r["transfer_note"].toString().contains("cache not flushed"), qPrintable(r["transfer_note"].toString()));
}

QTEST_GUILESS_MAIN(TestCliRun)
#include "tst_cli_run.moc"
