// What an adversarial pass over filter-bench found (issue 29), in the library under it: the program
// cache touches only its own files and never hands a forged binary to the driver (two tiny kernels of
// its own), outside files and environment values are read strictly, a shared variant cannot add build
// options, the helper dies with its parent, and tuned launches the device cannot take fall back.
#include "AdversarialSupport.h"
#include "ClDevice.h"
#include "Error.h"
#include "Image.h"
#include "JsonIo.h"
#include "ProgramCache.h"
#include "Session.h"
#include "TestSupport.h"
#include "UserVariants.h"

#include <QTemporaryDir>

#include <sys/stat.h>

using namespace fwb;
using namespace fwb::test::adversarial;

class TestAdversarialLibrary : public QObject
{
    Q_OBJECT

private slots:
    void cacheTouchesOnlyItsOwn();
    void cacheBinaryVerified();
    void outsideFilesBounded();
    void environmentStrict();
    void userVariantDefines();
    void workerDiesWithParent();
    void tunedShapeFallsBack();
    void tunedBlockFallsBack();
};

// Item 8 in the library: eviction and --clear in a marked folder still spare a file whose name looks
// like an entry but which the cache did not write (no entry magic), and links.
void TestAdversarialLibrary::cacheTouchesOnlyItsOwn()
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
void TestAdversarialLibrary::cacheBinaryVerified()
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

// Item 10: outside files are read from regular files only, with a size limit.
void TestAdversarialLibrary::outsideFilesBounded()
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
void TestAdversarialLibrary::environmentStrict()
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
void TestAdversarialLibrary::userVariantDefines()
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
void TestAdversarialLibrary::workerDiesWithParent()
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
void TestAdversarialLibrary::tunedShapeFallsBack()
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
void TestAdversarialLibrary::tunedBlockFallsBack()
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

QTEST_GUILESS_MAIN(TestAdversarialLibrary)
#include "tst_adversarial_library.moc"
