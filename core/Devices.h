// Device discovery: every OpenCL platform/device as a flat DeviceInfo value, default choice, selection.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fwb {

enum class DeviceKind { Gpu, Cpu, Accelerator, Other };
const char *deviceKindName(DeviceKind kind);

struct DeviceInfo
{
    int platformIndex = -1;
    int deviceIndex = -1;
    std::string platformName;
    std::string platformVendor;
    std::string platformVersion;
    std::string name;
    std::string vendor;
    DeviceKind kind = DeviceKind::Other;
    std::string driverVersion;
    std::string openclVersion;  // CL_DEVICE_VERSION, e.g. "OpenCL 3.0 CUDA"
    std::string openclCVersion; // highest OpenCL C the compiler accepts, e.g. "OpenCL C 1.2"
    int openclCMajor = 1;
    int openclCMinor = 0;
    unsigned computeUnits = 0;
    unsigned maxClockMHz = 0;
    std::size_t maxWorkGroupSize = 0;
    std::vector<std::size_t> maxWorkItemSizes;
    std::uint64_t localMemSize = 0;
    bool localMemDedicated = false; // CL_LOCAL vs CL_GLOBAL (emulated in global memory)
    std::uint64_t globalMemSize = 0;
    std::uint64_t maxAllocSize = 0;
    bool imageSupport = false;
    std::size_t image2dMaxWidth = 0;
    std::size_t image2dMaxHeight = 0;
    bool nonUniformWorkGroups = false;
    bool hostUnifiedMemory = false;
    unsigned preferredVectorWidthChar = 0;
    unsigned preferredVectorWidthShort = 0;
    unsigned preferredVectorWidthInt = 0;
    unsigned preferredVectorWidthFloat = 0;
    unsigned preferredVectorWidthDouble = 0;
    std::size_t timerResolutionNs = 0;
    bool isEmulator = false; // e.g. oclgrind: correct but far too slow to be a default
    // NVIDIA's compute capability as major * 10 + minor (90: H100 / H200; cl_nv_device_attribute_query), 0
    // elsewhere: the kernels that use instructions of an architecture (the tensor cores' mma.sync from 80) get
    // it as -DFWB_NV_SM and fall back to portable code below it.
    int nvidiaComputeCapability = 0;

    std::string spec() const { return std::to_string(platformIndex) + ":" + std::to_string(deviceIndex); }
    bool isDiscreteGpu() const { return kind == DeviceKind::Gpu && !hostUnifiedMemory; }
    // "NVIDIA H100 (GPU, NVIDIA Corporation, driver 550.54)"
    std::string summary() const;
};

// Empty unless the OpenCL device is a CPU (PoCL, another CPU driver); then the sentence every speedup
// headline must carry: "PoCL runs on this same processor: this compares two ways of programming one
// chip, not a GPU against a CPU."
std::string sameProcessorNote(DeviceKind kind, const std::string &platformName);
inline std::string sameProcessorNote(const DeviceInfo &device)
{
    return sameProcessorNote(device.kind, device.platformName);
}

// Every device of every platform; never throws (no platform at all yields an empty list).
std::vector<DeviceInfo> listDevices();

// Discrete GPU, else any GPU, else a CPU device, else anything but an emulator. -1 if none.
int defaultDeviceIndex(const std::vector<DeviceInfo> &devices);

// Resolves "P:D", "gpu", "cpu", "accelerator", "default" or a case-insensitive name substring.
// Throws fwb::Error with a message that lists what exists when nothing matches.
DeviceInfo selectDevice(const std::vector<DeviceInfo> &devices, const std::string &spec);

// What "all" means where work is spread over devices (apply --device all): every GPU when the host has
// one (not the PoCL CPU device beside them, which would take host threads from decoding and encoding
// and be the slowest member), else every device. Emulators only when nothing else exists. Throws
// fwb::Error (selectDevice's message) when the list is empty.
std::vector<DeviceInfo> allDevicesToSpreadOver(const std::vector<DeviceInfo> &devices);

// The name a device picker shows: "NVIDIA H100 80GB HBM3 (GPU)", and where another device of the list has
// the same name (two cards of one model), its P:D too: "NVIDIA H100 80GB HBM3 (GPU 1:1)", so that a duel
// of GPU 0 against GPU 1 can be told apart.
std::string deviceLabel(const DeviceInfo &device, const std::vector<DeviceInfo> &all);

} // namespace fwb
