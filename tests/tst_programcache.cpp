// Program cache: in-process hit, disk miss -> hit across processes (fresh cache objects), a corrupted
// disk entry rebuilt (never fatal), build failures carrying the build log, key sensitivity.
#include "ClDevice.h"
#include "Error.h"
#include "ProgramCache.h"
#include "Session.h"
#include "TestSupport.h"

#include <QTemporaryDir>

#include <filesystem>
#include <fstream>

using namespace fwb;

class TestProgramCache : public QObject
{
    Q_OBJECT

private slots:
    void missHitCorrupt();
    void buildErrorHasLog();
    void keyCoversEverything();
    void sessionReportsCachedBuilds();
};

static const char *kSource = "kernel void k(global int *p) { p[get_global_id(0)] = 42; }";

void TestProgramCache::missHitCorrupt()
{
    FWB_REQUIRE_DEVICE(info);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const cl::Device device = clDeviceFor(info);
    const cl::Context context(device);

    BuildInfo bi;
    {
        ProgramCache cache(dir.path().toStdString());
        cache.get(context, device, info, kSource, "-DX=1", &bi);
        QCOMPARE(bi.origin, ProgramOrigin::Compiled); // cold: built from source
        cache.get(context, device, info, kSource, "-DX=1", &bi);
        QCOMPARE(bi.origin, ProgramOrigin::Memory); // same process: no second build
    }
    const std::filesystem::path file = bi.cacheFile;
    QVERIFY2(std::filesystem::exists(file), bi.cacheFile.c_str());
    {
        ProgramCache fresh(dir.path().toStdString()); // a new process, as far as the cache knows
        cl::Program program = fresh.get(context, device, info, kSource, "-DX=1", &bi);
        QCOMPARE(bi.origin, ProgramOrigin::Disk); // warm: loaded from the binary
        cl::Kernel kernel(program, "k");
        QVERIFY(kernel() != nullptr);
    }
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out << "this is not a program binary";
    }
    {
        ProgramCache fresh(dir.path().toStdString());
        cl::Program program = fresh.get(context, device, info, kSource, "-DX=1", &bi);
        QCOMPARE(bi.origin, ProgramOrigin::Compiled);
        QVERIFY(bi.rebuiltAfterBadBinary);
        cl::Kernel kernel(program, "k"); // the rebuilt program works
        QVERIFY(kernel() != nullptr);
    }
    {
        ProgramCache fresh(dir.path().toStdString());
        fresh.get(context, device, info, kSource, "-DX=1", &bi);
        QCOMPARE(bi.origin, ProgramOrigin::Disk); // and the entry was rewritten
    }
}

void TestProgramCache::buildErrorHasLog()
{
    FWB_REQUIRE_DEVICE(info);
    const cl::Device device = clDeviceFor(info);
    const cl::Context context(device);
    ProgramCache cache("-");
    try {
        cache.get(context, device, info, "kernel void broken(global int *p) { p[0] = undefined_name; }", "");
        QFAIL("a broken kernel must not build");
    } catch (const Error &e) {
        QCOMPARE(e.clCode(), int(CL_BUILD_PROGRAM_FAILURE));
        QVERIFY(std::string(e.what()).find("CL_BUILD_PROGRAM_FAILURE") != std::string::npos);
        QVERIFY2(e.buildLog().find("undefined_name") != std::string::npos, e.buildLog().c_str());
    }
}

void TestProgramCache::keyCoversEverything()
{
    DeviceInfo a;
    a.platformName = "P";
    a.name = "D";
    a.driverVersion = "1";
    DeviceInfo b = a;
    b.driverVersion = "2";
    const std::string k = ProgramCache::cacheKey(a, "src", "-DA");
    QCOMPARE(ProgramCache::cacheKey(a, "src", "-DA"), k);
    QVERIFY(ProgramCache::cacheKey(b, "src", "-DA") != k); // new driver: rebuild
    QVERIFY(ProgramCache::cacheKey(a, "src2", "-DA") != k);
    QVERIFY(ProgramCache::cacheKey(a, "src", "-DB") != k);
}

void TestProgramCache::sessionReportsCachedBuilds()
{
    FWB_REQUIRE_DEVICE(info);
    QTemporaryDir dir;
    RunRequest request;
    request.filter = "gaussian5x5";
    request.variant = "constant_memory";
    request.repeat = 1;
    request.warmup = 0;
    request.params.values["sigma"] = 0.77; // options unique to this test: a cold build
    const Image input = makeTestCard(16, 16, PixelFormat::Gray8);
    SessionOptions options;
    options.cacheDir = dir.path().toStdString();
    {
        Session session(info, options);
        const RunResult cold = session.run(input, request);
        QVERIFY2(cold.ok(), cold.error.c_str());
        QCOMPARE(cold.buildOrigin, std::string("compiled"));
        QVERIFY(!cold.buildCached);
        const RunResult again = session.run(input, request);
        QCOMPARE(again.buildOrigin, std::string("memory"));
        QVERIFY(again.buildCached);
    }
    Session next(info, options);
    const RunResult warm = next.run(input, request);
    QCOMPARE(warm.buildOrigin, std::string("disk"));
    QVERIFY(warm.buildCached);
    QVERIFY(warm.matches);
}

QTEST_GUILESS_MAIN(TestProgramCache)
#include "tst_programcache.moc"
