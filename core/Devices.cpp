// Device discovery through CLHPP; each query failure leaves a field at its default instead of aborting.
#include "Devices.h"

#include "ClConfig.h"
#include "ClDevice.h"
#include "Error.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace fwb {

const char *deviceKindName(DeviceKind kind)
{
    switch (kind) {
    case DeviceKind::Gpu: return "GPU";
    case DeviceKind::Cpu: return "CPU";
    case DeviceKind::Accelerator: return "Accelerator";
    case DeviceKind::Other: return "Other";
    }
    return "Other";
}

std::string sameProcessorNote(DeviceKind kind, const std::string &platformName)
{
    if (kind != DeviceKind::Cpu)
        return {};
    const std::string who = platformName.find("Portable Computing Language") != std::string::npos
                                    || platformName.find("PoCL") != std::string::npos
                                ? "PoCL"
                                : "The OpenCL device";
    return who + " runs on this same processor: this compares two ways of programming one chip, not a GPU "
                 "against a CPU.";
}

std::string DeviceInfo::summary() const
{
    return name + " (" + deviceKindName(kind) + ", " + vendor + ", driver " + driverVersion + ")";
}

namespace {

std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back()))))
        s.pop_back();
    std::size_t start = 0;
    while (start < s.size() && std::isspace(static_cast<unsigned char>(s[start])))
        ++start;
    return s.substr(start);
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

template<cl_device_info Name, typename T>
void query(const cl::Device &device, T &out)
{
    try {
        out = device.getInfo<Name>();
    } catch (const cl::Error &) {
        // Optional property (e.g. CL 3.0 query on a 1.2 driver): keep the default.
    }
}

DeviceInfo describe(const cl::Platform &platform, const cl::Device &device, int p, int d)
{
    DeviceInfo info;
    info.platformIndex = p;
    info.deviceIndex = d;
    try {
        info.platformName = trimmed(platform.getInfo<CL_PLATFORM_NAME>());
        info.platformVendor = trimmed(platform.getInfo<CL_PLATFORM_VENDOR>());
        info.platformVersion = trimmed(platform.getInfo<CL_PLATFORM_VERSION>());
    } catch (const cl::Error &) {
    }
    query<CL_DEVICE_NAME>(device, info.name);
    query<CL_DEVICE_VENDOR>(device, info.vendor);
    query<CL_DRIVER_VERSION>(device, info.driverVersion);
    query<CL_DEVICE_VERSION>(device, info.openclVersion);
    query<CL_DEVICE_OPENCL_C_VERSION>(device, info.openclCVersion);
    info.name = trimmed(info.name);
    info.vendor = trimmed(info.vendor);
    info.driverVersion = trimmed(info.driverVersion);
    info.openclVersion = trimmed(info.openclVersion);
    info.openclCVersion = trimmed(info.openclCVersion);
    int major = 1, minor = 0;
    if (std::sscanf(info.openclCVersion.c_str(), "OpenCL C %d.%d", &major, &minor) == 2) {
        info.openclCMajor = major;
        info.openclCMinor = minor;
    }
    // A 3.0 device may support OpenCL C 3.0 while CL_DEVICE_OPENCL_C_VERSION still says 1.2.
    try {
        for (const cl_name_version &v : device.getInfo<CL_DEVICE_OPENCL_C_ALL_VERSIONS>()) {
            const int vMajor = int(CL_VERSION_MAJOR(v.version)), vMinor = int(CL_VERSION_MINOR(v.version));
            if (vMajor > info.openclCMajor || (vMajor == info.openclCMajor && vMinor > info.openclCMinor)) {
                info.openclCMajor = vMajor;
                info.openclCMinor = vMinor;
            }
        }
    } catch (const cl::Error &) {
    }
    cl_device_type type = 0;
    query<CL_DEVICE_TYPE>(device, type);
    info.kind = (type & CL_DEVICE_TYPE_GPU)           ? DeviceKind::Gpu
                : (type & CL_DEVICE_TYPE_CPU)         ? DeviceKind::Cpu
                : (type & CL_DEVICE_TYPE_ACCELERATOR) ? DeviceKind::Accelerator
                                                      : DeviceKind::Other;
    cl_uint u = 0;
    query<CL_DEVICE_MAX_COMPUTE_UNITS>(device, u);
    info.computeUnits = u;
    u = 0;
    query<CL_DEVICE_MAX_CLOCK_FREQUENCY>(device, u);
    info.maxClockMHz = u;
    query<CL_DEVICE_MAX_WORK_GROUP_SIZE>(device, info.maxWorkGroupSize);
    query<CL_DEVICE_MAX_WORK_ITEM_SIZES>(device, info.maxWorkItemSizes);
    cl_ulong ul = 0;
    query<CL_DEVICE_LOCAL_MEM_SIZE>(device, ul);
    info.localMemSize = ul;
    cl_device_local_mem_type memType = CL_GLOBAL;
    query<CL_DEVICE_LOCAL_MEM_TYPE>(device, memType);
    info.localMemDedicated = memType == CL_LOCAL;
    ul = 0;
    query<CL_DEVICE_GLOBAL_MEM_SIZE>(device, ul);
    info.globalMemSize = ul;
    ul = 0;
    query<CL_DEVICE_MAX_MEM_ALLOC_SIZE>(device, ul);
    info.maxAllocSize = ul;
    cl_bool b = CL_FALSE;
    query<CL_DEVICE_IMAGE_SUPPORT>(device, b);
    info.imageSupport = b == CL_TRUE;
    query<CL_DEVICE_IMAGE2D_MAX_WIDTH>(device, info.image2dMaxWidth);
    query<CL_DEVICE_IMAGE2D_MAX_HEIGHT>(device, info.image2dMaxHeight);
    // Deprecated after 1.2 (CLHPP 2.0+ has no trait for it) but still the best integrated-GPU hint.
    b = CL_FALSE;
    if (clGetDeviceInfo(device(), 0x1035 /* CL_DEVICE_HOST_UNIFIED_MEMORY */, sizeof b, &b, nullptr) != CL_SUCCESS)
        b = CL_FALSE;
    info.hostUnifiedMemory = b == CL_TRUE;
    cl_uint ccMajor = 0, ccMinor = 0; // CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV / _MINOR_NV
    if (info.vendor.find("NVIDIA") != std::string::npos
        && clGetDeviceInfo(device(), 0x4000, sizeof ccMajor, &ccMajor, nullptr) == CL_SUCCESS
        && clGetDeviceInfo(device(), 0x4001, sizeof ccMinor, &ccMinor, nullptr) == CL_SUCCESS && ccMajor < 100
        && ccMinor < 10)
        info.nvidiaComputeCapability = int(ccMajor * 10 + ccMinor);
    b = CL_FALSE;
    query<CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT>(device, b);
    // Before CL 3.0 the feature was mandatory in OpenCL C 2.x.
    info.nonUniformWorkGroups = b == CL_TRUE;
    query<CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR>(device, info.preferredVectorWidthChar);
    query<CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT>(device, info.preferredVectorWidthShort);
    query<CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT>(device, info.preferredVectorWidthInt);
    query<CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT>(device, info.preferredVectorWidthFloat);
    query<CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE>(device, info.preferredVectorWidthDouble);
    query<CL_DEVICE_PROFILING_TIMER_RESOLUTION>(device, info.timerResolutionNs);
    const std::string id = lower(info.platformName + " " + info.name + " " + info.vendor);
    info.isEmulator = id.find("oclgrind") != std::string::npos;
    return info;
}

} // namespace

std::vector<DeviceInfo> listDevices()
{
    std::vector<DeviceInfo> out;
    std::vector<cl::Platform> platforms;
    try {
        cl::Platform::get(&platforms);
    } catch (const cl::Error &) {
        return out; // no ICD, or no platform: an empty list, not a crash
    }
    for (std::size_t p = 0; p < platforms.size(); ++p) {
        std::vector<cl::Device> devices;
        try {
            platforms[p].getDevices(CL_DEVICE_TYPE_ALL, &devices);
        } catch (const cl::Error &) {
            continue;
        }
        for (std::size_t d = 0; d < devices.size(); ++d)
            out.push_back(describe(platforms[p], devices[d], int(p), int(d)));
    }
    return out;
}

int defaultDeviceIndex(const std::vector<DeviceInfo> &devices)
{
    auto firstWhere = [&](auto pred) {
        for (std::size_t i = 0; i < devices.size(); ++i)
            if (!devices[i].isEmulator && pred(devices[i]))
                return int(i);
        return -1;
    };
    for (auto pred : {+[](const DeviceInfo &d) { return d.isDiscreteGpu(); },
                      +[](const DeviceInfo &d) { return d.kind == DeviceKind::Gpu; },
                      +[](const DeviceInfo &d) { return d.kind == DeviceKind::Cpu; },
                      +[](const DeviceInfo &) { return true; }})
        if (int i = firstWhere(pred); i >= 0)
            return i;
    return -1;
}

DeviceInfo selectDevice(const std::vector<DeviceInfo> &devices, const std::string &spec)
{
    if (devices.empty())
        throw Error("no OpenCL device found (is an OpenCL driver such as pocl-opencl-icd installed?)");
    const std::string want = lower(trimmed(spec));
    auto listing = [&] {
        std::string s;
        for (const DeviceInfo &d : devices)
            s += std::string(s.empty() ? " " : "; ") + d.spec() + " " + d.name;
        return s;
    };
    if (want.empty() || want == "default" || want == "auto")
        return devices[std::size_t(defaultDeviceIndex(devices))];
    int p = -1, d = -1;
    char tail = 0;
    if (std::sscanf(want.c_str(), "%d:%d%c", &p, &d, &tail) == 2) {
        for (const DeviceInfo &info : devices)
            if (info.platformIndex == p && info.deviceIndex == d)
                return info;
        throw Error("no OpenCL device " + want + "; available:" + listing());
    }
    const DeviceKind kinds[] = {DeviceKind::Gpu, DeviceKind::Cpu, DeviceKind::Accelerator};
    for (DeviceKind kind : kinds) {
        if (want != lower(deviceKindName(kind)))
            continue;
        std::vector<DeviceInfo> ofKind;
        for (const DeviceInfo &info : devices)
            if (info.kind == kind)
                ofKind.push_back(info);
        if (ofKind.empty())
            throw Error("no OpenCL " + std::string(deviceKindName(kind)) + " device; available:" + listing());
        return ofKind[std::size_t(std::max(0, defaultDeviceIndex(ofKind)))];
    }
    for (const DeviceInfo &info : devices)
        if (lower(info.name).find(want) != std::string::npos
            || lower(info.platformName).find(want) != std::string::npos)
            return info;
    throw Error("no OpenCL device matches '" + spec + "'; available:" + listing());
}

std::vector<DeviceInfo> allDevicesToSpreadOver(const std::vector<DeviceInfo> &devices)
{
    if (devices.empty())
        return {selectDevice(devices, "")}; // its message
    std::vector<DeviceInfo> gpus, real;
    for (const DeviceInfo &info : devices) {
        if (info.isEmulator)
            continue;
        real.push_back(info);
        if (info.kind == DeviceKind::Gpu)
            gpus.push_back(info);
    }
    return !gpus.empty() ? gpus : !real.empty() ? real : devices;
}

std::string deviceLabel(const DeviceInfo &device, const std::vector<DeviceInfo> &all)
{
    const bool shared = std::count_if(all.begin(), all.end(), [&](const DeviceInfo &d) { return d.name == device.name; }) > 1;
    return device.name + " (" + deviceKindName(device.kind) + (shared ? " " + device.spec() : std::string()) + ")";
}

cl::Device clDeviceFor(const DeviceInfo &info)
{
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    if (info.platformIndex < 0 || std::size_t(info.platformIndex) >= platforms.size())
        throw Error("OpenCL platform " + std::to_string(info.platformIndex) + " is gone", CL_INVALID_PLATFORM);
    std::vector<cl::Device> devices;
    platforms[std::size_t(info.platformIndex)].getDevices(CL_DEVICE_TYPE_ALL, &devices);
    if (info.deviceIndex < 0 || std::size_t(info.deviceIndex) >= devices.size())
        throw Error("OpenCL device " + info.spec() + " (" + info.name + ") is gone", CL_INVALID_DEVICE);
    return devices[std::size_t(info.deviceIndex)];
}

} // namespace fwb
