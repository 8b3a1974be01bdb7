// What `apply --device all` spreads a batch over (allDevicesToSpreadOver), as a function of the device
// list, so it is tested without a GPU: every GPU where the host has one (not the PoCL CPU device beside
// them), every device where it has none, emulators only when nothing else exists. And the name a device
// picker shows (deviceLabel).
#include "Check.h"
#include "Devices.h"
#include "Error.h"

#include <string>
#include <vector>

using namespace fwb;

namespace {

DeviceInfo device(int platform, int index, DeviceKind kind, const std::string &name, bool emulator = false)
{
    DeviceInfo d;
    d.platformIndex = platform;
    d.deviceIndex = index;
    d.kind = kind;
    d.name = name;
    d.isEmulator = emulator;
    return d;
}

std::string specs(const std::vector<DeviceInfo> &devices)
{
    std::string s;
    for (const DeviceInfo &d : devices)
        s += (s.empty() ? "" : ",") + d.spec();
    return s;
}

} // namespace

int main()
{
    const DeviceInfo pocl = device(0, 0, DeviceKind::Cpu, "pthread-cpu");
    const DeviceInfo h100a = device(1, 0, DeviceKind::Gpu, "NVIDIA H100");
    const DeviceInfo h100b = device(1, 1, DeviceKind::Gpu, "NVIDIA H100");
    const DeviceInfo grind = device(2, 0, DeviceKind::Other, "Oclgrind Simulator", true);
    const DeviceInfo accel = device(3, 0, DeviceKind::Accelerator, "FPGA");

    // A GPU host: its GPUs, in the list's order, without the CPU device or the emulator.
    CHECK(specs(allDevicesToSpreadOver({pocl, h100a, h100b, grind})) == "1:0,1:1");
    CHECK(specs(allDevicesToSpreadOver({h100b, pocl})) == "1:1");
    // No GPU: every real device.
    CHECK(specs(allDevicesToSpreadOver({pocl, grind, accel})) == "0:0,3:0");
    CHECK(specs(allDevicesToSpreadOver({pocl})) == "0:0");
    // Only an emulator: that, rather than nothing.
    CHECK(specs(allDevicesToSpreadOver({grind})) == "2:0");
    // None at all: selectDevice's message.
    CHECK_THROWS_WITH(allDevicesToSpreadOver({}), "no OpenCL device found");
    // Two cards of one model are told apart by P:D in a picker; a device alone keeps its plain name.
    CHECK(deviceLabel(h100b, {pocl, h100a, h100b}) == "NVIDIA H100 (GPU 1:1)");
    CHECK(deviceLabel(h100a, {pocl, h100a}) == "NVIDIA H100 (GPU)");
    CHECK(deviceLabel(pocl, {pocl, h100a, h100b}) == "pthread-cpu (CPU)");
    return fwb::plain::finish("plain_devices");
}
