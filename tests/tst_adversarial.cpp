// What an adversarial pass over filter-bench found (issue 29), one row per case: the exit code, the
// message and, for every case that could lose data, the bytes of every file that was there before.
// filter-bench is started with raw byte arguments (fork/exec: QProcess would re-encode them), and
// nearly every row is refused before any kernel is built; the program-cache rows build two tiny
// kernels of their own.
#include "ClDevice.h"
#include "Error.h"
#include "Image.h"
#include "JsonIo.h"
#include "ProgramCache.h"
#include "Session.h"
#include "TestSupport.h"
#include "UserVariants.h"

#include <QImage>
#include <QTemporaryDir>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace fwb;
namespace fs = std::filesystem;

namespace {

struct Outcome
{
    int code = -1; // -2: killed by a signal (a crash), -1: did not finish in time
    std::string out, err;
};

std::string readAll(const fs::path &path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeAll(const fs::path &path, const std::string &bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), std::streamsize(bytes.size()));
}

// filter-bench with these exact bytes as arguments, in `cwd`; stdout to `stdoutPath` when given.
Outcome bench(const std::vector<std::string> &args, const fs::path &cwd, const std::vector<std::string> &env = {},
              const std::string &stdoutPath = {}, int timeoutS = 60)
{
    static QTemporaryDir capture; // outside `cwd`: the rows compare every file there
    const fs::path outFile = capture.filePath("stdout").toStdString(), errFile = capture.filePath("stderr").toStdString();
    const pid_t pid = fork();
    if (pid == 0) {
        if (::chdir(cwd.c_str()) != 0)
            _exit(127);
        const int out = ::open(stdoutPath.empty() ? outFile.c_str() : stdoutPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int err = ::open(errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (out < 0 || err < 0)
            _exit(127);
        dup2(out, 1);
        dup2(err, 2);
        for (const std::string &e : env)
            putenv(const_cast<char *>(e.c_str()));
        std::vector<char *> argv{const_cast<char *>(FWB_FILTER_BENCH)};
        for (const std::string &a : args)
            argv.push_back(const_cast<char *>(a.c_str()));
        argv.push_back(nullptr);
        execv(FWB_FILTER_BENCH, argv.data());
        _exit(127);
    }
    Outcome o;
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutS);
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return o;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -2;
    o.out = stdoutPath.empty() ? readAll(outFile) : std::string();
    o.err = readAll(errFile);
    fs::remove(outFile);
    fs::remove(errFile);
    return o;
}

// Every entry under `dir`: its kind and bytes (a link: its target), to compare before and after.
std::map<std::string, std::string> snapshot(const fs::path &dir)
{
    std::map<std::string, std::string> files;
    for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
        const std::string name = it->path().lexically_relative(dir).string();
        if (it->is_symlink())
            files[name] = "link:" + fs::read_symlink(it->path()).string();
        else if (it->is_regular_file())
            files[name] = "file:" + readAll(it->path());
        else if (it->is_directory())
            files[name] = "dir";
        else
            files[name] = "other:" + std::to_string(int(it->status().type()));
    }
    return files;
}

std::string pngBytes()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("p.png");
    QImage image(8, 8, QImage::Format_Grayscale8);
    image.fill(77);
    image.save(path);
    return readAll(path.toStdString());
}

} // namespace

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
    void cacheTouchesOnlyItsOwn();
    void cacheBinaryVerified();
    void kernelDirRunsInHelper_data();
    void kernelDirRunsInHelper();
    void orphanedJobFoldersRemoved();
    void outsideFilesBounded();
    void environmentStrict();
    void userVariantDefines();
    void workerDiesWithParent();
    void tunedShapeFallsBack();
    void tunedBlockFallsBack();
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

// Item 8 in the library: eviction and --clear in a marked folder still spare a file whose name looks
// like an entry but which the cache did not write (no entry magic), and links.
void TestAdversarial::cacheTouchesOnlyItsOwn()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    QVERIFY(!ProgramCache::isCacheDir(dir.string()));
    const std::vector<unsigned char> payload(100, 7);
    const auto entry = encodeCacheEntry("00000000000000aa", payload.data(), payload.size());
    writeAll(dir / "00000000000000aa.bin", std::string(entry.begin(), entry.end())); // an older cache's entry
    QVERIFY(ProgramCache::markCacheDir(dir.string())); // adopted: everything in it is cache-shaped
    QVERIFY(ProgramCache::isCacheDir(dir.string()));
    writeAll(dir / "abcdefabcdefabcd.bin", std::string(5000, 'u')); // the user's, entry-shaped name
    writeAll(dir / "outside.txt", "keep");
    fs::create_symlink("outside.txt", dir / "00000000000000bb.bin");
    const std::string userBytes = readAll(dir / "abcdefabcdefabcd.bin");
    QCOMPARE(ProgramCache::evict(dir.string(), 0), std::size_t(1)); // the real entry only
    QVERIFY(fs::exists(dir / "abcdefabcdefabcd.bin") && fs::is_symlink(dir / "00000000000000bb.bin"));
    QCOMPARE(readAll(dir / "abcdefabcdefabcd.bin"), userBytes);
    std::string error;
    QCOMPARE(ProgramCache::clearDir(dir.string(), &error), std::size_t(0));
    QVERIFY(fs::exists(dir / "abcdefabcdefabcd.bin") && fs::exists(dir / "outside.txt"));
    // A folder of other files is never adopted.
    QTemporaryDir other;
    writeAll(fs::path(other.path().toStdString()) / "holiday.jpg", "jpeg");
    QVERIFY(!ProgramCache::markCacheDir(other.path().toStdString(), &error));
    QVERIFY2(error.find("not a filter-bench program cache") != std::string::npos, error.c_str());
    QVERIFY(!fs::exists(fs::path(other.path().toStdString()) / ProgramCache::kMarkerFile));
}

// Item 3: an entry with a correct frame around half of a real binary, or around another program's
// binary, is rebuilt (and listed as invalid), never handed to the driver.
void TestAdversarial::cacheBinaryVerified()
{
    FWB_REQUIRE_DEVICE(info);
    QTemporaryDir tmp;
    const std::string dir = tmp.path().toStdString();
    const cl::Device device = clDeviceFor(info);
    const cl::Context context(device);
    const std::string sourceA = "kernel void adv_a(global int *p) { p[get_global_id(0)] = 1; }";
    const std::string sourceB = "kernel void adv_b(global int *p) { p[get_global_id(0)] = 2; }";
    BuildInfo bi;
    ProgramCache(dir).get(context, device, info, sourceA, "", &bi);
    QCOMPARE(bi.origin, ProgramOrigin::Compiled);
    const fs::path fileA = bi.cacheFile;
    const std::string keyA = fileA.stem().string();
    ProgramCache(dir).get(context, device, info, sourceB, "", &bi);
    const fs::path fileB = bi.cacheFile;
    const std::string keyB = fileB.stem().string();
    std::vector<unsigned char> payloadA;
    const std::string bytesA = readAll(fileA);
    QVERIFY(decodeCacheEntry(reinterpret_cast<const unsigned char *>(bytesA.data()), bytesA.size(), keyA, &payloadA));

    // Half the payload, the frame recomputed: magic, key, size and checksum all correct.
    const std::vector<unsigned char> half(payloadA.begin(), payloadA.begin() + std::ptrdiff_t(payloadA.size() / 2));
    const auto forged = encodeCacheEntry(keyA, half.data(), half.size());
    writeAll(fileA, std::string(forged.begin(), forged.end()));
    for (const CacheEntryInfo &e : ProgramCache::listEntries(dir))
        if (e.key == keyA)
            QVERIFY2(!e.valid, "cache --list calls a forged entry ok");
    {
        cl::Program program = ProgramCache(dir).get(context, device, info, sourceA, "", &bi);
        QCOMPARE(bi.origin, ProgramOrigin::Compiled);
        QVERIFY(bi.rebuiltAfterBadBinary);
        QVERIFY(cl::Kernel(program, "adv_a")() != nullptr);
    }
    // Program A's whole sealed entry framed under B's key: B is rebuilt, not CL_INVALID_KERNEL_NAME.
    const auto swapped = encodeCacheEntry(keyB, payloadA.data(), payloadA.size());
    writeAll(fileB, std::string(swapped.begin(), swapped.end()));
    {
        cl::Program program = ProgramCache(dir).get(context, device, info, sourceB, "", &bi);
        QCOMPARE(bi.origin, ProgramOrigin::Compiled);
        QVERIFY(cl::Kernel(program, "adv_b")() != nullptr);
    }
    ProgramCache(dir).get(context, device, info, sourceB, "", &bi);
    QCOMPARE(bi.origin, ProgramOrigin::Disk); // the rewritten entry is good again
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

// Item 10: outside files are read from regular files only, with a size limit.
void TestAdversarial::outsideFilesBounded()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    std::string error;
    QVERIFY(!parseJsonFile("/dev/zero", &error)); // a device: refused at once
    QVERIFY2(error.find("not a regular file") != std::string::npos, error.c_str());
    fs::create_symlink("/dev/zero", dir / "tuning.json");
    QVERIFY(!parseJsonFile(dir / "tuning.json", &error));
    QVERIFY(mkfifo((dir / "fifo.json").c_str(), 0600) == 0);
    QVERIFY(!parseJsonFile(dir / "fifo.json", &error));
    QVERIFY2(error.find("FIFO") != std::string::npos, error.c_str());
    fs::create_symlink("/dev/zero", dir / "limit");
    QCOMPARE(ProgramCache::storedMaxBytes(dir.string()), ProgramCache::kDefaultMaxBytes);
}

// Item 16: environment values parsed as strictly as options.
void TestAdversarial::environmentStrict()
{
    qunsetenv("FWB_MEMORY_MIB");
    const std::uint64_t physical = memoryBudgetBytes();
    qputenv("FWB_MEMORY_MIB", "17592186044416"); // << 20 wraps to 0: no limit at all
    QCOMPARE(memoryBudgetBytes(), physical);
    qputenv("FWB_MEMORY_MIB", "64");
    QCOMPARE(memoryBudgetBytes(), std::uint64_t(64) << 20);
    qunsetenv("FWB_MEMORY_MIB");
    QTemporaryDir tmp;
    qputenv("FWB_CACHE_MAX_MIB", "5abc");
    QCOMPARE(ProgramCache::storedMaxBytes(tmp.path().toStdString()), ProgramCache::kDefaultMaxBytes);
    qputenv("FWB_CACHE_MAX_MIB", "5");
    QCOMPARE(ProgramCache::storedMaxBytes(tmp.path().toStdString()), std::uint64_t(5) << 20);
    qunsetenv("FWB_CACHE_MAX_MIB");
}

// Item 17: a shared variant file cannot add build options through its defines.
void TestAdversarial::userVariantDefines()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeAll(dir / "v.cl", "kernel void k(global uchar *p) {}\n");
    auto variantWith = [&](const std::string &define) {
        writeAll(dir / "v.json", "{\"version\":1,\"name\":\"v\",\"base_filter\":\"box\",\"base_variant\":\"naive\",\"entry_points\":"
                                 "[\"k\"],\"defines\":[\"" + define + "\"],\"kernel_file\":\"v.cl\"}");
        try {
            loadUserVariant((dir / "v.json").string(), dir);
            return std::string();
        } catch (const Error &e) {
            return std::string(e.what());
        }
    };
    QCOMPARE(variantWith("X=1"), std::string());
    QCOMPARE(variantWith("FLAG"), std::string());
    for (const std::string bad : {"X=1 -I /etc -Werror", "-Werror", "1X=2", "X=\\\"a b\\\""}) {
        const std::string error = variantWith(bad);
        QVERIFY2(error.find("NAME or NAME=VALUE") != std::string::npos, (bad + ": " + error).c_str());
    }
}

// Item 12: the helper takes its parent's pid and exits at once when that parent is already gone (it
// dies with it through PR_SET_PDEATHSIG otherwise).
void TestAdversarial::workerDiesWithParent()
{
    const fs::path worker = fs::path(FWB_FILTER_BENCH).parent_path() / "filter-worker";
    if (!fs::exists(worker))
        QSKIP("no filter-worker beside filter-bench");
    QTemporaryDir tmp;
    const pid_t pid = fork();
    if (pid == 0) {
        const int null = ::open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execl(worker.c_str(), worker.c_str(), "--job", tmp.path().toUtf8().constData(), "--parent", "1", nullptr);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 1); // not its parent: gone without running the job
    QVERIFY(!fs::exists(fs::path(tmp.path().toStdString()) / "answer.json"));
}

// Item 18: a tuned shape the device cannot run (4097x1 in tuning.json) falls back to the default
// shape instead of failing the run (box/naive on 8x8, the program the CLI rows built).
void TestAdversarial::tunedShapeFallsBack()
{
    FWB_REQUIRE_DEVICE(info);
    SessionOptions options;
    options.tunedLocal = [](const DeviceInfo &, const RunRequest &, int, int) {
        return std::optional<TunedLaunch>(TunedLaunch{LocalSize{4097, 1}, LocalSize{}});
    };
    Session session(info, options);
    RunRequest request = test::oneShotRequest("box", "naive", PixelFormat::Gray8);
    const RunResult r = session.run(makeTestCard(8, 8, PixelFormat::Gray8), request);
    QVERIFY2(r.ok(), r.error.c_str());
    QVERIFY(r.matches);
    QVERIFY(r.localSource != LocalSource::Tuned);
    QVERIFY2(r.warning.find("the tuned work-group 4097x1 cannot launch here") != std::string::npos, r.warning.c_str());
}

// Item 18: a tuned output block the kernel cannot be built with (1x1 for box/strips: its strips are 4,
// 8 or 16 bytes across) falls back to the variant's own block with a warning instead of failing every
// run (box/strips radius 1: one cold program, the fallback's; the 1x1 build stops in the preprocessor).
void TestAdversarial::tunedBlockFallsBack()
{
    FWB_REQUIRE_DEVICE(info);
    SessionOptions options;
    options.tunedLocal = [](const DeviceInfo &, const RunRequest &, int, int) {
        return std::optional<TunedLaunch>(TunedLaunch{LocalSize{8, 8}, LocalSize{1, 1}});
    };
    Session session(info, options);
    RunRequest request = test::oneShotRequest("box", "strips", PixelFormat::Gray8);
    request.params.values["radius"] = 1;
    QCOMPARE(session.checkLaunch(request, 8, 8), std::string()); // the window's check falls back alike
    const RunResult r = session.run(makeTestCard(8, 8, PixelFormat::Gray8), request);
    QVERIFY2(r.ok(), r.error.c_str());
    QVERIFY(r.matches);
    QVERIFY(r.blockSource == LocalSource::Default);
    QVERIFY(r.localSource != LocalSource::Tuned);
    QVERIFY2(r.warning.find("the tuned output block 1x1 cannot be built") != std::string::npos, r.warning.c_str());
    QVERIFY2(r.warning.find("BLOCK_W * CHANNELS must be 4, 8 or 16 bytes") != std::string::npos, r.warning.c_str());
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
