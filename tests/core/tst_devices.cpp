// Device discovery: fields filled, default choice rules, selection by index/type/name and its errors.
#include "Devices.h"
#include "Error.h"
#include "TestSupport.h"

using namespace fwb;

class TestDevices : public QObject
{
    Q_OBJECT

private slots:
    void discoveryFillsFields();
    void defaultPrefersGpuAndSkipsEmulators();
    void selection();
};

void TestDevices::discoveryFillsFields()
{
    FWB_REQUIRE_DEVICE(device);
    const std::vector<DeviceInfo> devices = listDevices();
    QVERIFY(!devices.empty());
    for (const DeviceInfo &d : devices) {
        QVERIFY(!d.name.empty());
        QVERIFY(!d.platformName.empty());
        QVERIFY(d.openclVersion.rfind("OpenCL ", 0) == 0);
        QVERIFY(d.openclCMajor >= 1);
        QVERIFY(d.computeUnits > 0);
        QVERIFY(d.maxWorkGroupSize > 0);
        QVERIFY(d.maxWorkItemSizes.size() >= 2);
        QVERIFY(d.localMemSize > 0);
        QVERIFY(d.globalMemSize > 0);
        QVERIFY(d.maxAllocSize > 0 && d.maxAllocSize <= d.globalMemSize);
        QVERIFY(d.preferredVectorWidthFloat > 0);
        QCOMPARE(d.spec(), std::to_string(d.platformIndex) + ":" + std::to_string(d.deviceIndex));
    }
}

static DeviceInfo fake(int p, int d, DeviceKind kind, const std::string &name, bool unified = false)
{
    DeviceInfo info;
    info.platformIndex = p;
    info.deviceIndex = d;
    info.kind = kind;
    info.name = name;
    info.platformName = name == "oclgrind" ? "Oclgrind" : "Fake";
    info.isEmulator = name == "oclgrind";
    info.hostUnifiedMemory = unified;
    return info;
}

void TestDevices::defaultPrefersGpuAndSkipsEmulators()
{
    const std::vector<DeviceInfo> a{fake(0, 0, DeviceKind::Cpu, "pocl"), fake(1, 0, DeviceKind::Gpu, "igpu", true),
                                    fake(2, 0, DeviceKind::Gpu, "dgpu")};
    QCOMPARE(defaultDeviceIndex(a), 2); // discrete GPU first
    const std::vector<DeviceInfo> b{fake(0, 0, DeviceKind::Cpu, "pocl"), fake(1, 0, DeviceKind::Gpu, "igpu", true)};
    QCOMPARE(defaultDeviceIndex(b), 1); // then any GPU
    const std::vector<DeviceInfo> c{fake(0, 0, DeviceKind::Other, "oclgrind"), fake(1, 0, DeviceKind::Cpu, "pocl")};
    QCOMPARE(defaultDeviceIndex(c), 1); // then a CPU, never the emulator
    const std::vector<DeviceInfo> d{fake(0, 0, DeviceKind::Cpu, "oclgrind")};
    QCOMPARE(defaultDeviceIndex(d), -1);
    QCOMPARE(defaultDeviceIndex({}), -1);
}

void TestDevices::selection()
{
    const std::vector<DeviceInfo> list{fake(0, 0, DeviceKind::Cpu, "pthread-haswell"), fake(1, 0, DeviceKind::Gpu, "NVIDIA H100"),
                                       fake(1, 1, DeviceKind::Gpu, "NVIDIA A100")};
    QCOMPARE(selectDevice(list, "1:1").name, std::string("NVIDIA A100"));
    QCOMPARE(selectDevice(list, "cpu").name, std::string("pthread-haswell"));
    QCOMPARE(selectDevice(list, "gpu").name, std::string("NVIDIA H100"));
    QCOMPARE(selectDevice(list, "a100").name, std::string("NVIDIA A100"));
    QCOMPARE(selectDevice(list, "").name, std::string("NVIDIA H100"));
    try {
        selectDevice(list, "7:0");
        QFAIL("7:0 should not resolve");
    } catch (const Error &e) {
        QVERIFY(std::string(e.what()).find("no OpenCL device 7:0") != std::string::npos);
        QVERIFY(std::string(e.what()).find("NVIDIA H100") != std::string::npos); // lists what exists
    }
    QVERIFY_THROWS_EXCEPTION(Error, selectDevice(list, "accelerator"));
    QVERIFY_THROWS_EXCEPTION(Error, selectDevice(list, "radeon"));
    QVERIFY_THROWS_EXCEPTION(Error, selectDevice({}, "gpu"));
}

QTEST_GUILESS_MAIN(TestDevices)
#include "tst_devices.moc"
