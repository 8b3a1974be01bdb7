// filter-bench end to end: spawn it, parse its JSON, check exit codes and the messages for bad input;
// output files are written atomically and never over the input or an existing file. One subcommand
// per verb, each with its own generated --help; usage errors are exit 2 and one exact line.
#include "OpenCvBaseline.h"
#include "TestSupport.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void help();
    void usageErrors_data();
    void usageErrors();
    void devicesJson();
    void listJson();
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
    void badInput_data();
    void badInput();
    void neverOverwrites();
    void kernelDirEnvironment();
    void runBlock();

private:
    struct Outcome
    {
        int code = -1;
        QByteArray out;
        QByteArray err;
    };
    Outcome bench(const QStringList &args);
    QTemporaryDir m_dir;
};

TestCli::Outcome TestCli::bench(const QStringList &args)
{
    QProcess process;
    process.start(QStringLiteral(FWB_FILTER_BENCH), args);
    Outcome o;
    if (!process.waitForFinished(600000)) {
        process.kill();
        return o;
    }
    o.code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    o.out = process.readAllStandardOutput();
    o.err = process.readAllStandardError();
    return o;
}

// FWB_KERNEL_DIR naming no folder: exit 2 and one line, nothing run; naming a folder: used.
void TestCli::kernelDirEnvironment()
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("FWB_KERNEL_DIR"), QStringLiteral("/nonexistent/kernels"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(FWB_FILTER_BENCH), {"run", "--filter", "gaussian5x5", "--synthetic", "16x8"});
    QVERIFY(process.waitForFinished(120000));
    QCOMPARE(process.exitCode(), 2);
    QVERIFY(process.readAllStandardOutput().isEmpty());
    QCOMPARE(process.readAllStandardError(),
             QByteArray("filter-bench: FWB_KERNEL_DIR '/nonexistent/kernels' is not a folder (unset it for the "
                        "built-in kernels)\n"));
    env.insert(QStringLiteral("FWB_KERNEL_DIR"), m_dir.path()); // an empty folder: every file built in
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(FWB_FILTER_BENCH),
                  {"run", "--filter", "gaussian5x5", "--variant", "roofline", "--synthetic", "16x8", "--repeat", "1"});
    QVERIFY(process.waitForFinished(120000));
    QCOMPARE(process.exitCode(), 0);
}

void TestCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QFileInfo::exists(QStringLiteral(FWB_FILTER_BENCH)));
}

// The top-level help documents every verb and every option; each verb has its own --help.
void TestCli::help()
{
    const QStringList runOptions{"--filter", "--variant", "--device", "--local", "--input", "--synthetic",
                                 "--format", "--param", "--border", "--fast-math", "--repeat", "--warmup",
                                 "--output", "--overwrite", "--check", "--no-cpu-single", "--transfer",
                                 "--cache-dir", "--kernel-dir", "--json", "--json-file", "--block"};
    const QStringList inspectOptions{"--global", "--synthetic", "--local", "--cl20", "--device", "--cache-dir",
                                     "--json"};
    for (const QStringList &args : {QStringList{"--help"}, QStringList{"-h"}, QStringList{"help"}}) {
        const Outcome o = bench(args);
        QCOMPARE(o.code, 0);
        QVERIFY2(o.out.startsWith("filter-bench: ") && o.out.contains("\nusage: filter-bench <command> [options]\n"),
                 o.out.constData());
        for (const char *verb : {"devices", "list", "run", "inspect"})
            QVERIFY2(o.out.contains(QByteArray("\n") + verb + "\n"), verb);
        for (const QString &option : runOptions + inspectOptions)
            QVERIFY2(o.out.contains(option.toUtf8()), qPrintable(option));
    }
    const Outcome none = bench({});
    QCOMPARE(none.code, 2);
    QVERIFY(none.out.isEmpty() && none.err.contains("usage: filter-bench <command> [options]"));

    const QList<QPair<QString, QStringList>> verbs{{"devices", {"--json"}},
                                                    {"list", {"--json"}},
                                                    {"tune", {"--variant", "--shapes", "--blocks", "--dry-run"}},
                                                    {"run", runOptions},
                                                    {"apply", {"--filter", "--variant", "--param", "--border", "--format",
                                                               "--out", "--out-format", "--recursive", "--overwrite",
                                                               "--max-inflight", "--device", "--shard", "--check",
                                                               "--json"}},
                                                    {"inspect", inspectOptions}};
    for (const auto &[verb, options] : verbs) {
        for (const QStringList &args : {QStringList{verb, "--help"}, QStringList{"help", verb}}) {
            const Outcome o = bench(args);
            QCOMPARE(o.code, 0);
            QVERIFY2(o.out.contains(("usage: filter-bench " + verb + " [options]\n").toUtf8()), o.out.constData());
            for (const QString &option : options + QStringList{"--help"})
                QVERIFY2(o.out.contains((option + " ").toUtf8()), qPrintable(verb + " " + option));
        }
    }
}

// Usage errors: exit 2 and exactly one line in filter-bench's words, also where CLI11 finds them.
void TestCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("line");
    QTest::newRow("unknown command") << QStringList{"frobnicate"}
                                     << "unknown command 'frobnicate' (use devices, list, run, "; // every verb follows
    QTest::newRow("option for a command") << QStringList{"--json"}
                                          << "unknown command '--json' (use devices, list, run, ";
    QTest::newRow("devices option") << QStringList{"devices", "--bogus"} << "unknown option '--bogus' for devices";
    QTest::newRow("list argument") << QStringList{"list", "--json", "x"} << "unknown option 'x' for list";
    QTest::newRow("run option") << QStringList{"run", "--filter", "gaussian5x5", "--bogus", "1"}
                                << "unknown option '--bogus' (see filter-bench --help)";
    QTest::newRow("another verb") << QStringList{"run", "devices"} << "unknown option 'devices' (see filter-bench --help)";
    QTest::newRow("inspect option") << QStringList{"inspect", "--bogus"}
                                    << "unknown option '--bogus' for inspect (see filter-bench --help)";
    QTest::newRow("value missing") << QStringList{"run", "--filter"} << "option --filter needs a value";
    QTest::newRow("inspect value missing") << QStringList{"inspect", "--local"} << "option --local needs a value";
    QTest::newRow("one value per --param") << QStringList{"run", "--filter", "gaussian5x5", "--param", "sigma=1", "sigma=2"}
                                           << "unknown option 'sigma=2' (see filter-bench --help)";
    QTest::newRow("no filter") << QStringList{"run", "--repeat", "1"} << "run needs --filter NAME (see filter-bench list)";
    QTest::newRow("repeat not a number") << QStringList{"run", "--filter", "gaussian5x5", "--repeat", "abc"}
                                         << "--repeat 'abc' must be a whole number >= 1";
    QTest::newRow("negative warmup") << QStringList{"run", "--filter", "gaussian5x5", "--warmup", "-1"}
                                     << "--warmup '-1' must be a whole number >= 0";
    QTest::newRow("value that looks like an option") << QStringList{"run", "--filter", "--json"}
                                                     << "unknown filter '--json' (known: ";
    // apply (issue 26): refused before any image is read.
    const QStringList apply{"apply", "--filter", "box", "--variant", "naive", "missing.png", "--out", "o"};
    QTest::newRow("apply shard") << apply + QStringList{"--shard", "2/2"}
                                 << "--shard '2/2' must be I/N with 0 <= I < N, e.g. 0/4";
    QTest::newRow("apply out-format") << apply + QStringList{"--out-format", "tiff"} << "--out-format 'tiff' must be png or jpg";
    QTest::newRow("apply missing input") << apply << "INPUT missing.png does not exist";
    QTest::newRow("apply no out") << QStringList{"apply", "--filter", "box", "--variant", "naive", "x.png"}
                                  << "apply needs --out DIR";
    QTest::newRow("apply sweep") << QStringList{"apply", "--filter", "box", "--variant", "all", "x.png", "--out", "o"}
                                 << "apply needs one --variant NAME";
    // Tiles and the pretend allocation limit (issue 10).
    const QStringList run{"run", "--filter", "gaussian5x5", "--synthetic", "64x48"};
    for (const char *tile : {"0x5", "5x0", "10by10", "64", "x32", "-4x4", "8x8x8", "2000000x4", ""})
        QTest::newRow(qPrintable(QStringLiteral("--tile %1").arg(tile)))
            << (run + QStringList{"--tile", tile})
            << QStringLiteral("--tile '%1' is not of the form WxH with sides >= 1, e.g. 1024x1024").arg(tile);
    for (const char *mib : {"0", "-3", "abc", "1.5", "12MiB", "99999999999", ""}) // '': given empty, not left out
        QTest::newRow(qPrintable(QStringLiteral("--max-alloc-mib '%1'").arg(mib)))
            << (run + QStringList{"--max-alloc-mib", mib})
            << QStringLiteral("--max-alloc-mib '%1' must be a whole number of MiB >= 1").arg(mib);
    QTest::newRow("--transfer unknown") << (run + QStringList{"--transfer", "dma"})
                                        << "--transfer 'dma' must be pageable, pinned, zero_copy, output_mapped, svm or all";
    QTest::newRow("--transfer case") << (run + QStringList{"--transfer", "ALL"})
                                     << "--transfer 'ALL' must be pageable, pinned, zero_copy, output_mapped, svm or all";
    // A mistyped kernel folder must not fall back to the built-in kernels without a word.
    QTest::newRow("--kernel-dir missing") << (run + QStringList{"--kernel-dir", "/nonexistent/kernels"})
                                          << "--kernel-dir: Directory does not exist: /nonexistent/kernels";
    for (const char *block : {"0x8", "16x0", "16", "16x8x2", "abc", "300x8", ""})
        QTest::newRow(qPrintable(QStringLiteral("--block '%1'").arg(block)))
            << (run + QStringList{"--block", block})
            << QStringLiteral("--block '%1' is not of the form WxH with sides 1..256, e.g. 16x8").arg(block);
    QTest::newRow("--block on a one-pixel variant") << (run + QStringList{"--variant", "unrolled_constant", "--block", "8x8"})
                                                    << "--block: gaussian5x5/unrolled_constant makes one output per work-item";
    // tune --blocks: only for block variants, and only WxH lists.
    const QStringList tune{"tune", "--filter", "sobel", "--synthetic", "64x48"};
    QTest::newRow("--blocks on a one-pixel variant")
        << (tune + QStringList{"--variant", "naive", "--blocks"})
        << "--blocks: sobel/naive makes one output per work-item (only block variants take --blocks)";
    for (const char *blocks : {"4x", "0x8", "4x8,abc", "300x2", "4x8x2"})
        QTest::newRow(qPrintable(QStringLiteral("--blocks '%1'").arg(blocks)))
            << (tune + QStringList{"--variant", "roofline", "--blocks", blocks})
            << QStringLiteral("--blocks: '%1' is not an output block WxH with sides 1..256, e.g. 4x8,8x8,16x8")
                   .arg(QString(blocks).section(',', -1));
    QTest::newRow("--transfer empty") << (run + QStringList{"--transfer", ""})
                                      << "--transfer '' must be pageable, pinned, zero_copy, output_mapped, svm or all";
}

void TestCli::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, line);
    const Outcome o = bench(args);
    QCOMPARE(o.code, 2);
    QVERIFY2(o.out.isEmpty(), o.out.constData());
    QVERIFY2(o.err.startsWith(("filter-bench: " + line).toUtf8()) && o.err.endsWith('\n')
                 && o.err.count('\n') == 1,
             o.err.constData());
}

void TestCli::devicesJson()
{
    const Outcome o = bench({"devices", "--json"});
    QCOMPARE(o.code, 0);
    const QJsonObject root = QJsonDocument::fromJson(o.out).object();
    QVERIFY(root.contains("devices"));
    const QJsonArray devices = root["devices"].toArray();
    if (devices.isEmpty())
        QSKIP("no OpenCL platform on this machine");
    const QJsonObject d = devices.first().toObject();
    for (const char *key : {"name", "vendor", "type", "driver_version", "opencl_version", "opencl_c_version",
                            "compute_units", "max_work_group_size", "max_work_item_sizes", "local_mem_bytes",
                            "local_mem_type", "global_mem_bytes", "max_alloc_bytes", "image_support",
                            "non_uniform_work_groups", "preferred_vector_width", "timer_resolution_ns"})
        QVERIFY2(d.contains(key), key);
    QVERIFY(!root["default"].toString().isEmpty());
}

void TestCli::listJson()
{
    const Outcome o = bench({"list", "--json"});
    QCOMPARE(o.code, 0);
    const QJsonArray filters = QJsonDocument::fromJson(o.out).object()["filters"].toArray();
    QJsonObject gaussian;
    for (const QJsonValue &f : filters)
        if (f.toObject()["name"] == "gaussian5x5")
            gaussian = f.toObject();
    QVERIFY(!gaussian.isEmpty());
    QStringList names;
    for (const QJsonValue &v : gaussian["variants"].toArray()) {
        names << v.toObject()["name"].toString();
        QVERIFY(v.toObject()["description"].toString().size() > 60); // explained in plain words
    }
    QCOMPARE(names, QStringList({"private_array", "unrolled_constant", "constant_memory", "local_tiled", "image2d",
                                 "vectorized", "roofline", "roofline_half2", "cpu_rows"}));
}

// --block WxH: the block variants build and launch with that output block per work-item and still match
// the reference (median's packed rung at the GPU's 16-byte block, on whatever device runs the tests); with
// --variant all only the block variants run.
void TestCli::runBlock()
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
    QCOMPARE(variants, QStringList{"roofline"});
}

void TestCli::runJson()
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
    QCOMPARE(results.size(), variants + 2); // every variant, then OpenCV's two rows
    for (int i = 0; i < results.size(); ++i) {
        const QJsonObject r = results[i].toObject();
        if (i >= variants) { // opencv_cpu, opencv_tapi: marked, and checked like a variant or unavailable with why
            QCOMPARE(r["variant"].toString(), QString(i == variants ? "opencv_cpu" : "opencv_tapi"));
            QVERIFY(r["baseline"].toBool());
            QVERIFY(r["error"].isNull() ? r["matches"].toBool() : r["unavailable"].toBool());
            continue;
        }
        QCOMPARE(r["local_source"].toString(), QStringLiteral("default"));
        QVERIFY(r["local_label"].toString().startsWith("auto ("));
        QVERIFY(!r.contains("baseline"));
        QVERIFY(r["cpu_ms"].toObject()["best"].toDouble() > 0);
        QVERIFY(!r["cpu_ms"].toObject()["best_label"].toString().isEmpty());
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

void TestCli::runFileInOut()
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
void TestCli::runSweep()
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
    const int baselines = 2; // gaussian has OpenCV's two rows (unavailable, with why, without OpenCV); the IIR none
    QCOMPARE(results.size(), 2 * (recursive + separable + baselines));
    QStringList seen;
    for (const QJsonValue &value : results) {
        const QJsonObject r = value.toObject();
        if (r["baseline"].toBool()) {
            QVERIFY(r["error"].isNull() ? r["matches"].toBool() : r["unavailable"].toBool());
            continue;
        }
        seen << QString("%1/%2").arg(r["filter"].toString()).arg(r["params"].toObject()["sigma"].toDouble());
        if (r["unavailable"].toBool()) { // gaussian/strips stops at radius 8 (sigma 3 reaches 9), and says so
            QVERIFY2(r["variant"].toString() == "strips" && r["error"].toString().contains("radius up to 8"),
                     qPrintable(r["variant"].toString()));
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
void TestCli::runPinned()
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
void TestCli::runTransferAll()
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
void TestCli::runTransferAllImages()
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
void TestCli::runTiled_data()
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

void TestCli::runTiled()
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
void TestCli::runPinnedImageOutputs()
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
void TestCli::runTiledRefusals()
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

void TestCli::badInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QString corrupt = m_dir.filePath("corrupted.png");
    QFile f(corrupt);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("\x89PNG\r\n\x1a\nthis is not really a png");
    f.close();
    const QStringList run{"run", "--filter", "gaussian5x5", "--repeat", "1"};
    QTest::newRow("no command") << QStringList{} << "usage";
    QTest::newRow("unknown command") << QStringList{"frobnicate"} << "unknown command 'frobnicate'";
    QTest::newRow("missing file") << (run + QStringList{"--input", m_dir.filePath("nope.png")}) << "cannot load";
    QTest::newRow("corrupt image") << (run + QStringList{"--input", corrupt}) << "corrupted.png";
    QTest::newRow("zero-sized") << (run + QStringList{"--synthetic", "0x10"}) << "empty";
    QTest::newRow("absurdly large") << (run + QStringList{"--synthetic", "100000x100000"}) << "too large";
    QTest::newRow("malformed size") << (run + QStringList{"--synthetic", "12by4"}) << "WxH";
    QTest::newRow("unknown filter") << QStringList{"run", "--filter", "nope"} << "unknown filter 'nope'";
    QTest::newRow("unknown variant") << (run + QStringList{"--variant", "nope"}) << "unknown variant 'nope'";
    QTest::newRow("unknown device") << (run + QStringList{"--device", "no-such-device-xyz"}) << "no OpenCL device";
    QTest::newRow("malformed local") << (run + QStringList{"--local", "16by16"}) << "work-group shape '16by16'";
    QTest::newRow("impossible local") << (run + QStringList{"--variant", "unrolled_constant", "--local", "4096x4096",
                                                            "--synthetic", "64x64"})
                                      << "work-group 4096x4096";
    QTest::newRow("malformed param") << (run + QStringList{"--param", "sigma"}) << "name=value";
    QTest::newRow("unknown param") << (run + QStringList{"--param", "radius=3"}) << "no parameter 'radius'";
    QTest::newRow("param out of range") << (run + QStringList{"--param", "sigma=99"}) << "out of range";
    QTest::newRow("param not a number") << (run + QStringList{"--param", "sigma=abc"}) << "not a number";
    QTest::newRow("unknown filter in a list") << QStringList{"run", "--filter", "gaussian5x5,nope"}
                                              << "unknown filter 'nope'";
    QTest::newRow("param no chosen filter takes")
        << QStringList{"run", "--filter", "transpose,median3x3", "--param", "sigma=1"} << "none of the chosen filters";
    QTest::newRow("sweep value out of range") << (run + QStringList{"--param", "sigma=1,99"}) << "out of range";
    QTest::newRow("empty sweep") << (run + QStringList{"--param", "sigma=,"}) << "no value";
    QTest::newRow("unknown transfer") << (run + QStringList{"--transfer", "dma"})
                                      << "must be pageable, pinned, zero_copy, output_mapped, svm or all";
    QTest::newRow("unknown format") << (run + QStringList{"--format", "rgb565"}) << "unknown pixel format";
    QTest::newRow("unknown border") << (run + QStringList{"--border", "wrap"}) << "unknown border mode";
    QTest::newRow("bad repeat") << (run + QStringList{"--repeat", "0"}) << "--repeat";
    QTest::newRow("named unavailable variant") << (run + QStringList{"--variant", "image2d", "--format", "rgb888",
                                                                     "--synthetic", "16x16"})
                                               << "rgb888";
}

void TestCli::badInput()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Outcome o = bench(args);
    QVERIFY2(o.code > 0, qPrintable(QString("exit %1 for %2").arg(o.code).arg(args.join(' '))));
    QVERIFY2(o.code != -2, "crashed");
    QVERIFY2(QString::fromUtf8(o.err).contains(message), o.err.constData());
    if (!args.isEmpty())
        QVERIFY2(o.err.trimmed().count('\n') == 0 || message == "usage", "one-line reason expected");
}

void TestCli::neverOverwrites()
{
    const QString in = m_dir.filePath("keep.png"), existing = m_dir.filePath("existing.png");
    QImage image(9, 9, QImage::Format_Grayscale8);
    image.fill(77);
    QVERIFY(image.save(in));
    QVERIFY(image.save(existing));
    const QByteArray before = [&] { QFile f(existing); f.open(QIODevice::ReadOnly); return f.readAll(); }();
    const QStringList base{"run", "--filter", "gaussian5x5", "--variant", "unrolled_constant", "--repeat", "1",
                           "--input", in, "--output"};
    Outcome o = bench(base + QStringList{in});
    QVERIFY(o.code != 0);
    QVERIFY2(o.err.contains("refusing to write the result over the input"), o.err.constData());
    o = bench(base + QStringList{existing});
    QVERIFY(o.code != 0);
    QVERIFY2(o.err.contains("--overwrite"), o.err.constData());
    QFile f(existing);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), before);
    f.close();
    o = bench(base + QStringList{existing, "--overwrite"});
    QVERIFY2(o.code == 0, o.err.constData());
    o = bench(base + QStringList{m_dir.filePath("out.xyz")});
    QVERIFY(o.code != 0);
    QVERIFY2(o.err.contains("unsupported output format"), o.err.constData());
    QVERIFY(!QFileInfo::exists(m_dir.filePath("out.xyz")));
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
