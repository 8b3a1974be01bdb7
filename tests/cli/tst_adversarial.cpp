// What an adversarial pass over filter-bench found (issue 29), on its command line, one row per case:
// the exit code, the message and, for every case that could lose data, the bytes of every file that
// was there before. filter-bench is started with raw byte arguments (AdversarialSupport.h), and nearly
// every row is refused before any kernel is built. The library's side (program cache, helper process,
// outside files, tuned launches): tst_adversarial_library.
#include "ClDevice.h"
#include "Error.h"
#include "Image.h"
#include "JsonIo.h"
#include "ProgramCache.h"
#include "Session.h"
#include "TestSupport.h"
#include "UserVariants.h"
#include "AdversarialSupport.h"

#include <QImage>
#include <QTemporaryDir>

#include <sys/stat.h>

using namespace fwb;
using namespace fwb::test::adversarial;

class TestAdversarial : public QObject
{
    Q_OBJECT

private slots:
    void refusals_data();
    void refusals();
    void tileCountBounded();
    void longJsonFileName();
    void stdoutFull_data();
    void stdoutFull();
    void kernelDirRunsInHelper_data();
    void kernelDirRunsInHelper();
    void orphanedJobFoldersRemoved();
    void labVerbsWithEditedKernelsInOwnProcess();
};

// Each row: a folder set up by `setup`, filter-bench with `args` in it, the exit code and a piece of
// the one-line message; every file that was there stays byte for byte, and no new file appears.
void TestAdversarial::refusals_data()
{
    QTest::addColumn<QByteArray>("setup");
    QTest::addColumn<QByteArrayList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    const QByteArrayList run{"run", "--filter", "box", "--variant", "naive", "--repeat", "1", "--warmup", "0"};
    // Item 5: paths are bytes; one Qt would re-encode is refused, never replaced by another name.
    QTest::newRow("5 invalid UTF-8 output over the U+FFFD-named input")
        << QByteArray("png:photo\xef\xbf\xbd.png") << run + QByteArrayList{"--input", "photo\xef\xbf\xbd.png", "--output", "photo\xfe.png"}
        << 2 << "not valid UTF-8";
    QTest::newRow("5 invalid UTF-8 input is named, not 'missing'")
        << QByteArray("png:bad\xff.png") << run + QByteArrayList{"--input", "bad\xff.png", "--output", "o.png"} << 2
        << "not valid UTF-8";
    // Item 6: never over the input, never two outputs in one file, with --overwrite too.
    QTest::newRow("6 --json-file equal to the input")
        << QByteArray("png:in.png") << run + QByteArrayList{"--input", "in.png", "--json-file", "in.png", "--overwrite"} << 2
        << "over the input";
    QTest::newRow("6 --json-file a hard link of the input")
        << QByteArray("png:in.png,hardlink:in.png:alias.json") << run + QByteArrayList{"--input", "in.png", "--json-file", "alias.json", "--overwrite"}
        << 2 << "over the input";
    QTest::newRow("6 report --out equal to the input")
        << QByteArray("png:in.png") << QByteArrayList{"report", "--filter", "box", "--input", "in.png", "--out", "./in.png", "--overwrite"}
        << 2 << "over the input";
    QTest::newRow("6 --output and --json-file one file")
        << QByteArray("") << run + QByteArrayList{"--synthetic", "8x8", "--output", "o.png", "--json-file", "o.png"} << 2
        << "name the same file";
    // Item 7: the atomic writer replaces regular files only.
    QTest::newRow("7 --json-file a symbolic link")
        << QByteArray("text:target.json,symlink:target.json:link.json")
        << run + QByteArrayList{"--synthetic", "8x8", "--json-file", "link.json", "--overwrite"} << 2 << "symbolic link";
    QTest::newRow("7 --json-file a FIFO") << QByteArray("fifo:pipe.json")
                                          << run + QByteArrayList{"--synthetic", "8x8", "--json-file", "pipe.json", "--overwrite"}
                                          << 2 << "FIFO";
    QTest::newRow("7 --output a symbolic link")
        << QByteArray("png:target.png,symlink:target.png:link.png")
        << run + QByteArrayList{"--synthetic", "8x8", "--output", "link.png", "--overwrite"} << 2 << "symbolic link";
    // Item 8: the cache touches only a folder it marked and only files it wrote.
    QTest::newRow("8 cache --clear on a folder of the user's .bin files")
        << QByteArray("text:big-disk-image01.bin,text:my-photo-backup1.bin,text:0123456789abcdef.bin")
        << QByteArrayList{"cache", "--cache-dir", ".", "--clear"} << 2 << "not a filter-bench program cache";
    QTest::newRow("8 cache --max-mib on a folder with the user's 'limit'")
        << QByteArray("text:limit,text:big-disk-image01.bin") << QByteArrayList{"cache", "--cache-dir", ".", "--max-mib", "0"} << 2
        << "not a filter-bench program cache";
    QTest::newRow("8 tune into a folder with the user's tuning.json")
        << QByteArray("text:tuning.json,text:notes.txt")
        << QByteArrayList{"tune", "--filter", "box", "--variant", "naive", "--synthetic", "8x8", "--cache-dir", "."} << 2
        << "not a filter-bench program cache";
    // Item 1: a sweep whose run count overflows is refused, not a crash or a runaway allocation.
    QByteArrayList sweep{"run", "--synthetic", "8x8", "--filter", "gaussian"};
    for (int i = 0; i < 64; ++i)
        sweep += QByteArrayList{"--param", "sigma=1,2"};
    QTest::newRow("1 64 x sigma=1,2") << QByteArray("") << sweep << 2 << "more than 10000 runs";
    QByteArrayList sweep2{"run", "--synthetic", "8x8", "--filter", "gaussian,gaussian"};
    for (int i = 0; i < 63; ++i)
        sweep2 += QByteArrayList{"--param", "sigma=1,2"};
    QTest::newRow("1 63 x sigma=1,2 on two filters") << QByteArray("") << sweep2 << 2 << "more than 10000 runs";
    // Item 2: 2^32 work-groups or more are refused with the limit, before the runtime sees them.
    QTest::newRow("2 inspect 1048576x1048576 in 1x1")
        << QByteArray("") << QByteArrayList{"inspect", "--global", "1048576x1048576", "--local", "1x1"} << 1 << "32 bits";
    QTest::newRow("2 inspect 65536x65536 in 1x1")
        << QByteArray("") << QByteArrayList{"inspect", "--global", "65536x65536", "--local", "1x1"} << 1 << "4294967295";
    QTest::newRow("2 inspect --synthetic 1048576x1048576 (the runtime's choice)")
        << QByteArray("") << QByteArrayList{"inspect", "--synthetic", "1048576x1048576"} << 1 << "32 bits";
    // Item 11: a FIFO is refused, not waited on.
    QTest::newRow("11 --input a FIFO") << QByteArray("fifo:in.png") << run + QByteArrayList{"--input", "in.png"} << 2 << "FIFO";
    QTest::newRow("11 --user-variant a FIFO") << QByteArray("fifo:v.json") << QByteArrayList{"run", "--user-variant", "./v.json"} << 2
                                              << "FIFO";
    // Item 10: /dev/zero as a user variant is refused, not read until memory runs out.
    QTest::newRow("10 --user-variant /dev/zero") << QByteArray("") << QByteArrayList{"run", "--user-variant", "/dev/zero"} << 2
                                                 << "not a regular file";
    // Item 14: an empty value is a usage error, never "not given".
    for (const char *option : {"--timeout", "--repeat", "--warmup", "--synthetic", "--input", "--output", "--local",
                               "--cache-dir", "--json-file"})
        QTest::newRow(qPrintable(QStringLiteral("14 run %1 ''").arg(option)))
            << QByteArray("") << run + QByteArrayList{"--synthetic", "8x8", option, ""} << 2 << "needs a value";
    // Found while writing fuzz_cli: a verb without its own wording for an unknown argument threw
    // std::bad_function_call out of main (SIGABRT).
    QTest::newRow("user-variants with an unknown argument")
        << QByteArray("") << QByteArrayList{"user-variants", "bogus"} << 2 << "unknown option 'bogus' for user-variants";
    // Found by fuzz_cli: an argument with a line break broke the one-line reason.
    QTest::newRow("an argument with a line break, quoted on one line")
        << QByteArray("") << QByteArrayList{"devices", "a\nb"} << 2 << "unknown option 'a\\nb' for devices\n";
    QTest::newRow("14 user-variants --show ''") << QByteArray("") << QByteArrayList{"user-variants", "--show", ""} << 2
                                                << "needs a value";
    QTest::newRow("14 --timeout 0x10") << QByteArray("") << run + QByteArrayList{"--synthetic", "8x8", "--timeout", "0x10"} << 2
                                       << "must be a number of seconds";
    // Item 15: report makes tune's checks, before the race.
    const QByteArrayList report{"report", "--filter", "gaussian", "--synthetic", "8x8", "--out", "r.html"};
    QTest::newRow("15 report --shapes bogus") << QByteArray("") << report + QByteArrayList{"--shapes", "bogus"} << 2
                                              << "is not a WxH shape";
    QTest::newRow("15 report --max-items 0") << QByteArray("") << report + QByteArrayList{"--max-items", "0"} << 2
                                             << "--max-items";
    QTest::newRow("15 report --sweep sigma=") << QByteArray("") << report + QByteArrayList{"--sweep", "sigma="} << 2
                                              << "names no value";
    QTest::newRow("15 report --tune-variant bogus") << QByteArray("") << report + QByteArrayList{"--tune-variant", "bogus"}
                                                    << 2 << "has no variant 'bogus'";
    QTest::newRow("14 tune --shapes ,")
        << QByteArray("") << QByteArrayList{"tune", "--filter", "box", "--variant", "naive", "--synthetic", "8x8", "--shapes", ","}
        << 2 << "names no shape";
    // Item 13: matmul keeps to the memory budget, as images do.
    QTest::newRow("13 matmul --n 23200 over FWB_MEMORY_MIB") << QByteArray("env:FWB_MEMORY_MIB=1024")
                                                             << QByteArrayList{"matmul", "--n", "23200"} << 2
                                                             << "MiB of host memory";
    // Item 20: --json-file into a missing folder is refused as --output is, before the run.
    QTest::newRow("20 --json-file in a missing folder")
        << QByteArray("") << run + QByteArrayList{"--synthetic", "8x8", "--json-file", "nodir/r.json"} << 2 << "does not exist";
    // Item 18: a block the kernel cannot make fails with the kernel's own reason (its #error), not
    // with CL_INVALID_KERNEL_NAME from a program built without the kernel.
    QTest::newRow("18 run --block 1x1 names the kernel's reason")
        << QByteArray("")
        << QByteArrayList{"run", "--filter", "box", "--variant", "strips", "--param", "radius=1", "--synthetic", "8x8",
                          "--repeat", "1", "--warmup", "0", "--block", "1x1"}
        << 1 << "BLOCK_W * CHANNELS must be 4, 8 or 16 bytes";
    // Item 20: a work-group shape the device cannot launch fails the runs (exit 1) in matmul as in run.
    QTest::newRow("20 run --local 4097x1") << QByteArray("") << run + QByteArrayList{"--synthetic", "8x8", "--local", "4097x1"}
                                           << 1 << "4097";
    QTest::newRow("20 matmul --local 4097x1")
        << QByteArray("") << QByteArrayList{"matmul", "--n", "16", "--variant", "naive", "--local", "4097x1"} << 1
        << "--local 4097x1: ";
    QTest::newRow("20 matmul --local 4097x1, every variant")
        << QByteArray("") << QByteArrayList{"matmul", "--n", "16", "--no-baselines", "--local", "4097x1", "--json"} << 1
        << "--local 4097x1: ";
    QTest::newRow("20 nbody --local 4097") << QByteArray("")
                                           << QByteArrayList{"nbody", "--bodies", "16", "--variant", "naive", "--local", "4097x1"}
                                           << 1 << "--local 4097x1: ";
    // Item 20: inspect's error goes to stderr, with --json too.
    QTest::newRow("20 inspect --json: the reason on stderr")
        << QByteArray("") << QByteArrayList{"inspect", "--global", "65536x65536", "--local", "1x1", "--json"} << 1
        << "filter-bench: ";
    // Item 19: the output format is checked before the run, not after it.
    QTest::newRow("19 --output o.xyz") << QByteArray("") << run + QByteArrayList{"--synthetic", "8x8", "--output", "o.xyz"} << 2
                                       << "unsupported output format";
}

void TestAdversarial::refusals()
{
    QFETCH(QByteArray, setup);
    QFETCH(QByteArrayList, args);
    QFETCH(int, code);
    QFETCH(QString, message);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const fs::path dir = tmp.path().toStdString();
    static const std::string png = pngBytes();
    // "kind:name[:other]" items, bytes as written (names with invalid UTF-8 included).
    std::vector<std::string> env;
    for (const QByteArray &item : setup.split(',')) {
        if (item.isEmpty())
            continue;
        const QByteArrayList parts = item.split(':');
        const std::string kind = parts[0].toStdString(), raw = parts.value(1).toStdString(),
                          other = parts.value(2).toStdString();
        if (kind == "png")
            writeAll(dir / raw, png);
        else if (kind == "text")
            writeAll(dir / raw, "the user's own " + raw + "\n");
        else if (kind == "fifo")
            QCOMPARE(mkfifo((dir / raw).c_str(), 0600), 0);
        else if (kind == "symlink")
            fs::create_symlink(raw, dir / other);
        else if (kind == "hardlink")
            fs::create_hard_link(dir / raw, dir / other);
        else if (kind == "env")
            env.push_back(raw);
    }
    const auto before = snapshot(dir);
    std::vector<std::string> argv;
    for (const QByteArray &a : args)
        argv.push_back(a.toStdString());
    const Outcome o = bench(argv, dir, env, {}, 60);
    QVERIFY2(o.code != -2, ("crashed: " + o.err).c_str());
    QVERIFY2(o.code != -1, "hung");
    QVERIFY2(o.code == code, ("exit " + std::to_string(o.code) + ": " + o.err).c_str());
    QVERIFY2(o.err.find(message.toStdString()) != std::string::npos, o.err.c_str());
    QVERIFY2(snapshot(dir) == before, "a file changed, appeared or went");
    fs::remove_all(dir); // QTemporaryDir cannot remove names that are not valid UTF-8
}

// Item 13: a tile size that would make millions of tiles is refused with the limit (this run reaches
// the device: one small catalogue program, box/naive, shared with the next slot).
void TestAdversarial::tileCountBounded()
{
    FWB_REQUIRE_DEVICE(info);
    QTemporaryDir tmp;
    const Outcome o = bench({"run", "--filter", "box", "--variant", "naive", "--repeat", "1", "--warmup", "0",
                             "--no-cpu-single", "--no-tuned", "--synthetic", "1920x1080", "--tile", "1x1"},
                            tmp.path().toStdString());
    QVERIFY2(o.code == 1, ("exit " + std::to_string(o.code) + ": " + o.err).c_str());
    QVERIFY2(o.err.find("tiles of this image") != std::string::npos, o.err.c_str());
}

// Item 19: a 245-byte --json-file name is written (its temp name is shortened to fit the 255-byte
// limit of a name).
void TestAdversarial::longJsonFileName()
{
    FWB_REQUIRE_DEVICE(info);
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    const std::string longName = std::string(240, 'j') + ".json";
    const Outcome o = bench({"run", "--filter", "box", "--variant", "naive", "--repeat", "1", "--warmup", "0",
                             "--no-cpu-single", "--no-tuned", "--synthetic", "8x8", "--json-file", longName},
                            dir);
    QVERIFY2(o.code == 0, ("exit " + std::to_string(o.code) + ": " + o.err).c_str());
    QVERIFY(fs::file_size(dir / longName) > 0);
}

// Item 9: a result nobody received is a failure.
void TestAdversarial::stdoutFull_data()
{
    QTest::addColumn<QByteArrayList>("args");
    QTest::newRow("list --json") << QByteArrayList{"list", "--json"};
    QTest::newRow("list") << QByteArrayList{"list"};
    QTest::newRow("run --help") << QByteArrayList{"run", "--help"};
}

void TestAdversarial::stdoutFull()
{
    QFETCH(QByteArrayList, args);
    if (!fs::exists("/dev/full"))
        QSKIP("no /dev/full");
    QTemporaryDir tmp;
    std::vector<std::string> argv;
    for (const QByteArray &a : args)
        argv.push_back(a.toStdString());
    const Outcome o = bench(argv, tmp.path().toStdString(), {}, "/dev/full");
    QVERIFY2(o.code == 1, ("exit " + std::to_string(o.code) + ": " + o.err).c_str());
    QVERIFY2(o.err.find("cannot write to standard output") != std::string::npos, o.err.c_str());
}

// Item 4: every verb that launches catalogue kernels with a kernel folder (--kernel-dir or
// FWB_KERNEL_DIR) runs them in the helper process: here one that cannot start, so each row proves the
// path without building anything in a helper (tune and report build box/naive here for their launch
// checks: the program the other rows built). The report writes its rows' errors into the HTML.
void TestAdversarial::kernelDirRunsInHelper_data()
{
    QTest::addColumn<QByteArrayList>("args");
    QTest::addColumn<bool>("viaEnvironment");
    QTest::addColumn<int>("code");
    const QByteArrayList quick{"--synthetic", "8x8", "--repeat", "1", "--warmup", "0"};
    QTest::newRow("run --kernel-dir") << QByteArrayList{"run", "--filter", "box", "--variant", "naive", "--no-cpu-single"} + quick
                                      << false << 1;
    QTest::newRow("run FWB_KERNEL_DIR") << QByteArrayList{"run", "--filter", "box", "--variant", "naive", "--no-cpu-single"} + quick
                                        << true << 1;
    QTest::newRow("race --kernel-dir")
        << QByteArrayList{"race", "--filter", "box", "--variant", "naive", "--no-cpu", "--no-baselines"} + quick << false << 1;
    QTest::newRow("race FWB_KERNEL_DIR")
        << QByteArrayList{"race", "--filter", "box", "--variant", "naive", "--no-cpu", "--no-baselines"} + quick << true << 1;
    QTest::newRow("tune --kernel-dir")
        << QByteArrayList{"tune", "--filter", "box", "--variant", "naive", "--shapes", "8x8", "--dry-run"} + quick << false << 1;
    QTest::newRow("report --kernel-dir")
        << QByteArrayList{"report", "--filter", "box", "--tune-variant", "naive", "--shapes", "8x8", "--sweep", "none",
                          "--no-baselines", "--out", "r.html"} + quick
        << false << 0;
}

void TestAdversarial::kernelDirRunsInHelper()
{
    QFETCH(QByteArrayList, args);
    QFETCH(bool, viaEnvironment);
    QFETCH(int, code);
    QTemporaryDir tmp, kernels;
    const fs::path dir = tmp.path().toStdString();
    std::vector<std::string> argv, env{"FWB_WORKER=/nonexistent/filter-worker"};
    for (const QByteArray &a : args)
        argv.push_back(a.toStdString());
    if (viaEnvironment)
        env.push_back("FWB_KERNEL_DIR=" + kernels.path().toStdString());
    else
        argv.insert(argv.end(), {"--kernel-dir", kernels.path().toStdString()});
    const Outcome o = bench(argv, dir, env);
    QVERIFY2(o.code == code, ("exit " + std::to_string(o.code) + ": " + o.err).c_str());
    const std::string said = o.out + o.err + (fs::exists(dir / "r.html") ? readAll(dir / "r.html") : std::string());
    QVERIFY2(said.find("cannot start the helper process") != std::string::npos, (o.out + o.err).c_str());
}

// Item 12: the job folder of a caller that was killed (its pid gone) is removed by the next helper
// run; a live caller's folder and folders without an owner stay.
void TestAdversarial::orphanedJobFoldersRemoved()
{
    QTemporaryDir tmp, work;
    const fs::path root = tmp.path().toStdString();
    const pid_t dead = fork();
    if (dead == 0)
        _exit(0);
    waitpid(dead, nullptr, 0); // reaped: this pid runs nothing now
    for (const auto &[name, owner] : std::vector<std::pair<std::string, std::string>>{
             {"fwb-worker-orphan", std::to_string(dead)}, {"fwb-worker-alive", std::to_string(getpid())}, {"fwb-worker-other", ""}}) {
        fs::create_directory(root / name);
        writeAll(root / name / "request.json", "{}");
        if (!owner.empty())
            writeAll(root / name / "owner", owner + "\n");
    }
    const Outcome o = bench({"run", "--filter", "box", "--variant", "naive", "--synthetic", "8x8", "--repeat", "1",
                             "--warmup", "0", "--timeout", "5", "--no-cpu-single"},
                            work.path().toStdString(), {"TMPDIR=" + root.string(), "FWB_WORKER=/nonexistent/filter-worker"});
    QVERIFY2(o.code == 1, ("exit " + std::to_string(o.code) + ": " + o.err).c_str());
    QVERIFY(!fs::exists(root / "fwb-worker-orphan"));
    QVERIFY(fs::exists(root / "fwb-worker-alive" / "request.json"));
    QVERIFY(fs::exists(root / "fwb-worker-other" / "request.json"));
}


// Item 4 for the verbs the helper does not carry: inspect (and matmul, nbody) with an edited kernel that
// writes far out of bounds crash in a process of their own; filter-bench reports it and exits 1. Before,
// the SIGSEGV was filter-bench's own.
void TestAdversarial::labVerbsWithEditedKernelsInOwnProcess()
{
    QTemporaryDir tmp, kernels;
    writeAll(fs::path(kernels.path().toStdString()) / "inspect.cl",
             "kernel void inspect_corners(global uint *out) { out[(ulong)1 << 42] = 1; out[-((long)1 << 42)] = 2; }\n");
    const Outcome o = bench({"inspect", "--global", "8x8", "--local", "8x8"}, tmp.path().toStdString(),
                            {"FWB_KERNEL_DIR=" + kernels.path().toStdString()});
    QVERIFY2(o.code == 1, ("exit " + std::to_string(o.code) + ": " + o.err).c_str());
    // Under AddressSanitizer the child reports the SEGV itself and exits 1 instead of dying by the signal.
    QVERIFY2(o.err.find("crashed in its own process") != std::string::npos
                 || o.err.find("AddressSanitizer: SEGV") != std::string::npos,
             o.err.c_str());
    // The built-in kernel, in the same way: its own process, the usual result.
    QTemporaryDir plain;
    writeAll(fs::path(plain.path().toStdString()) / "README", "no kernels here\n");
    const Outcome ok = bench({"inspect", "--global", "8x8", "--local", "8x8"}, tmp.path().toStdString(),
                             {"FWB_KERNEL_DIR=" + plain.path().toStdString()});
    QVERIFY2(ok.code == 0, ("exit " + std::to_string(ok.code) + ": " + ok.err).c_str());
    QVERIFY2(!ok.out.empty(), ok.err.c_str());
}

QTEST_GUILESS_MAIN(TestAdversarial)
#include "tst_adversarial.moc"
