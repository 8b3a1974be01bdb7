// filter-bench's command line end to end: one subcommand per verb, each with its own generated --help;
// usage errors and bad input are exit 2 and one exact line; output files are never written over the
// input or an existing file. The runs' own output (JSON, sweeps, transfers, tiles): tst_cli_run.
#include "SessionSuite.h"
#include "TestSupport.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

class TestCli : public fwb::test::BenchSuite
{
    Q_OBJECT

private slots:
    void help();
    void usageErrors_data();
    void usageErrors();
    void devicesJson();
    void listJson();
    void badInput_data();
    void badInput();
    void neverOverwrites();
    void kernelDirEnvironment();
};

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
                  {"run", "--filter", "gaussian5x5", "--variant", "strips", "--synthetic", "16x8", "--repeat", "1"});
    QVERIFY(process.waitForFinished(120000));
    QCOMPARE(process.exitCode(), 0);
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
                                                               "--max-inflight", "--device", "--queues", "--png-level",
                                                               "--shard", "--check", "--json"}},
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
    QTest::newRow("apply queues") << apply + QStringList{"--queues", "0"} << "--queues '0' must be a whole number in 1..16";
    QTest::newRow("apply png-level") << apply + QStringList{"--png-level", "10"}
                                     << "--png-level '10' must be a whole number in 0..9";
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
            << (tune + QStringList{"--variant", "strips", "--blocks", blocks})
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
    QVERIFY2(saysOneLine(o, line) && o.err.endsWith('\n'), o.err.constData());
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
                                 "vectorized", "strips", "strips_half2", "stream", "cpu_rows"}));
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
