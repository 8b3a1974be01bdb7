// Work-group shapes: parsing, and every invalid shape rejected before launch with the limit it breaks.
#include "Session.h"
#include "TestSupport.h"
#include "WorkGroup.h"

using namespace fwb;

class TestWorkGroup : public QObject
{
    Q_OBJECT

private slots:
    void parse_data();
    void parse();
    void limits();
    void parseKinds();
    void defaultShapes();
    void dividingShapes();
    void invalidShapesRejected_data();
    void invalidShapesRejected();
    void validShapesRun_data();
    void validShapesRun();
    void checkBuildReportedByRun();
};

void TestWorkGroup::parse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<int>("w");
    QTest::addColumn<int>("h");
    QTest::newRow("auto") << "auto" << true << 0 << 0;
    QTest::newRow("driver") << "driver" << true << 0 << 0;
    QTest::newRow("null") << "null" << true << 0 << 0;
    QTest::newRow("16x16") << "16x16" << true << 16 << 16;
    QTest::newRow("256") << "256" << true << 256 << 1;
    QTest::newRow("64X4") << "64X4" << true << 64 << 4;
    QTest::newRow("0x8") << "0x8" << false << 0 << 0;
    QTest::newRow("-4x4") << "-4x4" << false << 0 << 0;
    QTest::newRow("16x") << "16x" << false << 0 << 0;
    QTest::newRow("16x16x") << "16x16x" << false << 0 << 0;
    QTest::newRow("abc") << "abc" << false << 0 << 0;
}

void TestWorkGroup::parse()
{
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(int, w);
    QFETCH(int, h);
    std::string error;
    const auto local = LocalSize::parse(text.toStdString(), &error);
    QCOMPARE(local.has_value(), ok);
    if (ok) {
        QCOMPARE(local->width, w);
        QCOMPARE(local->height, h);
    } else {
        QVERIFY(error.find("not valid") != std::string::npos);
    }
}

void TestWorkGroup::parseKinds()
{
    QVERIFY(LocalSize::parse("auto")->isAuto());
    QVERIFY(!LocalSize::parse("auto")->isDriver());
    QVERIFY(LocalSize::parse("driver")->isDriver());
    QVERIFY(!LocalSize::parse("driver")->isAuto());
    QVERIFY(LocalSize::parse("16x8")->isConcrete());
    QCOMPARE(LocalSize::parse("driver")->toString(), std::string("driver"));
    QCOMPARE(LocalSize::parse("auto")->toString(), std::string("auto"));
    QCOMPARE(launchShapeLabel(LocalSize{32, 8}, LocalSource::Default), std::string("auto (32x8)"));
    QCOMPARE(launchShapeLabel(LocalSize{64, 4}, LocalSource::Tuned), std::string("auto (64x4, tuned)"));
    QCOMPARE(launchShapeLabel(LocalSize::driverChoice(), LocalSource::Driver), std::string("driver"));
    QCOMPARE(launchShapeLabel(LocalSize{16, 16}, LocalSource::User), std::string("16x16"));
}

void TestWorkGroup::defaultShapes()
{
    DeviceInfo gpu;
    gpu.kind = DeviceKind::Gpu;
    gpu.maxWorkGroupSize = 1024;
    gpu.maxWorkItemSizes = {1024, 1024, 64};
    QCOMPARE(defaultLocalSize(gpu, false), (LocalSize{32, 8}));
    QCOMPARE(defaultLocalSize(gpu, true), (LocalSize{128, 1}));
    DeviceInfo cpu = gpu;
    cpu.kind = DeviceKind::Cpu;
    cpu.maxWorkGroupSize = 4096;
    QCOMPARE(defaultLocalSize(cpu, false), (LocalSize{256, 1}));
    DeviceInfo small = gpu;
    small.maxWorkGroupSize = 64;
    QCOMPARE(defaultLocalSize(small, false), (LocalSize{32, 2}));
    QCOMPARE(clampLocalSize(LocalSize{32, 8}, 128), (LocalSize{32, 4}));
    QCOMPARE(clampLocalSize(LocalSize{32, 8}, 16), (LocalSize{16, 1}));
    QCOMPARE(clampLocalSize(LocalSize{32, 8}, 0), (LocalSize{32, 8}));
    QVERIFY(clampLocalSize(LocalSize::driverChoice(), 16).isDriver());
}

void TestWorkGroup::dividingShapes()
{
    QCOMPARE(dividingLocalSize(638, 478, 256), (LocalSize{29, 2}));
    QCOMPARE(dividingLocalSize(640, 480, 256), (LocalSize{32, 8}));
    QCOMPARE(dividingLocalSize(257, 192, 256), (LocalSize{1, 192})); // a prime width: seed 001's trap
    QCOMPARE(dividingLocalSize(6717, 4479, 256), (LocalSize{3, 3})); // 6717 = 3*2239, 4479 = 3*1493
}

void TestWorkGroup::limits()
{
    DeviceInfo d;
    d.maxWorkGroupSize = 256;
    d.maxWorkItemSizes = {256, 128, 64};
    d.localMemSize = 1024;
    LaunchLimits none;
    QVERIFY(localSizeProblem(d, LocalSize{}, none).empty());
    QVERIFY(localSizeProblem(d, LocalSize{16, 16}, none).empty());
    QVERIFY(localSizeProblem(d, LocalSize{512, 1}, none).find("max work-item size in x (256)") != std::string::npos);
    QVERIFY(localSizeProblem(d, LocalSize{1, 200}, none).find("max work-item size in y (128)") != std::string::npos);
    QVERIFY(localSizeProblem(d, LocalSize{32, 16}, none).find("max work-group size (256)") != std::string::npos);
    LaunchLimits kernel;
    kernel.kernelMaxWorkGroupSize = 128;
    QVERIFY(localSizeProblem(d, LocalSize{16, 16}, kernel).find("CL_KERNEL_WORK_GROUP_SIZE = 128") != std::string::npos);
    LaunchLimits local;
    local.kernelLocalMem = 2048;
    QVERIFY(localSizeProblem(d, LocalSize{8, 8}, local).find("local memory") != std::string::npos);
    LaunchLimits oneD;
    oneD.dimensions = 1;
    QVERIFY(localSizeProblem(d, LocalSize{16, 16}, oneD).find("1-D") != std::string::npos);
    QVERIFY(localSizeProblem(d, LocalSize{64, 1}, oneD).empty());
}

void TestWorkGroup::invalidShapesRejected_data()
{
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QString>("shape");
    QTest::addColumn<QString>("reason");
    // Shapes beyond any real device's limits; each must be refused before launch, naming the limit.
    QTest::newRow("too many items") << "unrolled_constant" << "4096x4096" << "work-items";
    QTest::newRow("x beyond item size") << "constant_memory" << "100000x1" << "not valid";
    QTest::newRow("y beyond item size") << "private_array" << "1x65536" << "max work-item size in y";
    QTest::newRow("tile too big for local memory") << "local_tiled" << "1024x64" << "";
}

// The window checks a shape before it runs it, and that check builds the program: the run that follows
// reports the build (origin "compiled", its time), not "from memory cache"; the run after that is a hit.
void TestWorkGroup::checkBuildReportedByRun()
{
    FWB_REQUIRE_DEVICE(device);
    SessionOptions options;
    options.cacheDir = "-"; // a build from source, whatever the disk cache holds
    Session session(device, options);
    RunRequest request = test::oneShotRequest("box", "naive");
    request.local = LocalSize{8, 8};
    QCOMPARE(session.checkLaunch(request, 64, 48), std::string());
    const RunResult first = session.run(makeTestCard(64, 48, PixelFormat::Gray8), request);
    QVERIFY2(first.ok(), first.error.c_str());
    QCOMPARE(first.buildOrigin, std::string("compiled"));
    QVERIFY(first.buildMs > 0 && !first.buildCached);
    const RunResult second = session.run(makeTestCard(64, 48, PixelFormat::Gray8), request);
    QCOMPARE(second.buildOrigin, std::string("memory"));
    QVERIFY(second.buildCached);
}

void TestWorkGroup::invalidShapesRejected()
{
    FWB_REQUIRE_DEVICE(device);
    QFETCH(QString, variant);
    QFETCH(QString, shape);
    QFETCH(QString, reason);
    std::string parseError;
    const auto local = LocalSize::parse(shape.toStdString(), &parseError);
    if (!local) {
        QVERIFY(parseError.find(reason.toStdString()) != std::string::npos);
        return;
    }
    Session session(device);
    RunRequest request;
    request.filter = "gaussian5x5";
    request.variant = variant.toStdString();
    request.local = *local;
    request.repeat = 1;
    request.warmup = 0;
    const std::string check = session.checkLaunch(request, 64, 64);
    const RunResult r = session.run(makeTestCard(64, 64, PixelFormat::Gray8), request);
    QVERIFY2(!check.empty(), "checkLaunch must refuse the shape");
    QVERIFY(!r.ok());
    QVERIFY(r.kernelMs.median == 0); // nothing was launched
    QVERIFY2(r.error.find("work-group " + shape.toStdString()) != std::string::npos
                 || r.error.find("CL_") != std::string::npos,
             r.error.c_str());
    if (!reason.isEmpty())
        QVERIFY2(r.error.find(reason.toStdString()) != std::string::npos, r.error.c_str());
    qInfo("%s %s -> %s", qPrintable(variant), qPrintable(shape), r.error.c_str());
}

void TestWorkGroup::validShapesRun_data()
{
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QString>("shape");
    for (const char *v : {"unrolled_constant", "local_tiled"})
        for (const char *s : {"8x8", "16x16", "32x8", "64x4", "256x1", "7x3"})
            QTest::newRow((std::string(v) + "/" + s).c_str()) << v << s;
}

void TestWorkGroup::validShapesRun()
{
    FWB_REQUIRE_DEVICE(device);
    QFETCH(QString, variant);
    QFETCH(QString, shape);
    static Session *session = new Session(device); // shared across rows; lives to process exit
    RunRequest request;
    request.filter = "gaussian5x5";
    request.variant = variant.toStdString();
    request.local = *LocalSize::parse(shape.toStdString());
    request.repeat = 1;
    request.warmup = 0;
    const RunResult r = session->run(makeTestCard(259, 194, PixelFormat::Gray8), request);
    QVERIFY2(r.ok(), r.error.c_str());
    QVERIFY(r.matches);
    // RoundUp rule: global is the image rounded up to a multiple of the shape.
    QCOMPARE(r.global[0] % std::size_t(request.local.width), std::size_t(0));
    QCOMPARE(r.global[1] % std::size_t(request.local.height), std::size_t(0));
    QVERIFY(r.global[0] >= 259 && r.global[1] >= 194);
}

QTEST_GUILESS_MAIN(TestWorkGroup)
#include "tst_workgroup.moc"
