// Work-group shape parsing and validation (clpeak-style: check limits before launching, name them).
#include "WorkGroup.h"

#include "Devices.h"
#include "Names.h"

#include <algorithm>
#include <cstdio>

namespace fwb {

std::string LocalSize::toString() const
{
    if (driver)
        return "driver";
    return isAuto() ? std::string("auto") : std::to_string(width) + "x" + std::to_string(height);
}

constexpr EnumName<LocalSource> kLocalSources[] = {
    {LocalSource::Default, "default"},
    {LocalSource::Tuned, "tuned"},
    {LocalSource::User, "user"},
    {LocalSource::Driver, "driver"},
};

const char *localSourceName(LocalSource source) { return nameIn(kLocalSources, source); }

LocalSize defaultLocalSize(const DeviceInfo &device, bool oneDimensional)
{
    const bool cpu = device.kind == DeviceKind::Cpu;
    LocalSize local = oneDimensional ? LocalSize{cpu ? 256 : 128, 1} : cpu ? LocalSize{256, 1} : LocalSize{32, 8};
    if (!device.maxWorkItemSizes.empty())
        local.width = int(std::min<std::size_t>(std::size_t(local.width), std::max<std::size_t>(1, device.maxWorkItemSizes[0])));
    if (device.maxWorkItemSizes.size() > 1)
        local.height = int(std::min<std::size_t>(std::size_t(local.height), std::max<std::size_t>(1, device.maxWorkItemSizes[1])));
    return clampLocalSize(local, device.maxWorkGroupSize);
}

LocalSize clampLocalSize(LocalSize local, std::size_t maxItems)
{
    if (maxItems == 0 || !local.isConcrete())
        return local;
    while (local.items() > maxItems && local.height > 1)
        local.height = (local.height + 1) / 2;
    while (local.items() > maxItems && local.width > 1)
        local.width = (local.width + 1) / 2;
    return local;
}

LocalSize dividingLocalSize(std::size_t gx, std::size_t gy, std::size_t maxItems)
{
    if (maxItems == 0)
        maxItems = 256;
    auto largestDivisor = [](std::size_t n, std::size_t limit) {
        for (std::size_t d = std::min(n, limit); d > 1; --d)
            if (n % d == 0)
                return d;
        return std::size_t(1);
    };
    const std::size_t w = gx ? largestDivisor(gx, std::min<std::size_t>(32, maxItems)) : 1;
    const std::size_t h = gy ? largestDivisor(gy, std::max<std::size_t>(1, maxItems / w)) : 1;
    return LocalSize{int(w), int(h)};
}

std::string launchShapeLabel(const LocalSize &launched, LocalSource source)
{
    if (!launched.isConcrete())
        return launched.toString(); // not launched yet, or the runtime's NULL choice
    switch (source) {
    case LocalSource::Default: return "auto (" + launched.toString() + ")";
    case LocalSource::Tuned: return "auto (" + launched.toString() + ", tuned)";
    case LocalSource::Driver: return "driver";
    case LocalSource::User: break;
    }
    return launched.toString();
}

std::optional<LocalSize> LocalSize::parse(const std::string &text, std::string *error)
{
    if (text.empty() || text == "auto")
        return LocalSize{};
    if (text == "driver" || text == "null" || text == "NULL")
        return LocalSize::driverChoice();
    long w = 0, h = 0;
    char x = 0, tail = 0;
    const int n = std::sscanf(text.c_str(), "%ld%c%ld%c", &w, &x, &h, &tail);
    if (n == 1)
        h = 1;
    const bool shapeOk = (n == 1) || (n == 3 && (x == 'x' || x == 'X' || x == '*'));
    if (!shapeOk || w <= 0 || h <= 0 || w > 65536 || h > 65536) {
        if (error)
            *error = "work-group shape '" + text + "' is not valid: use auto, driver or WxH with positive sizes, e.g. 16x16";
        return std::nullopt;
    }
    return LocalSize{int(w), int(h)};
}

std::string localSizeProblem(const DeviceInfo &device, const LocalSize &local, const LaunchLimits &limits)
{
    if (!local.isConcrete())
        return {};
    const std::string shape = local.toString();
    if (limits.dimensions == 1 && local.height != 1)
        return "work-group " + shape + " is 2-D, but this pass is 1-D (one work-item per column): use Nx1";
    if (!device.maxWorkItemSizes.empty() && std::size_t(local.width) > device.maxWorkItemSizes[0])
        return "work-group " + shape + ": width " + std::to_string(local.width)
               + " exceeds the device's max work-item size in x (" + std::to_string(device.maxWorkItemSizes[0]) + ")";
    if (device.maxWorkItemSizes.size() > 1 && std::size_t(local.height) > device.maxWorkItemSizes[1])
        return "work-group " + shape + ": height " + std::to_string(local.height)
               + " exceeds the device's max work-item size in y (" + std::to_string(device.maxWorkItemSizes[1]) + ")";
    if (device.maxWorkGroupSize && local.items() > device.maxWorkGroupSize)
        return "work-group " + shape + " has " + std::to_string(local.items())
               + " work-items, more than the device's max work-group size (" + std::to_string(device.maxWorkGroupSize) + ")";
    if (limits.kernelMaxWorkGroupSize && local.items() > limits.kernelMaxWorkGroupSize)
        return "work-group " + shape + " has " + std::to_string(local.items())
               + " work-items, more than this kernel allows on this device (CL_KERNEL_WORK_GROUP_SIZE = "
               + std::to_string(limits.kernelMaxWorkGroupSize) + ")";
    const std::uint64_t localNeeded = limits.kernelLocalMem + limits.extraLocalMem;
    if (device.localMemSize && localNeeded > device.localMemSize)
        return "work-group " + shape + " needs " + std::to_string(localNeeded)
               + " bytes of local memory, more than the device has (" + std::to_string(device.localMemSize) + ")";
    return {};
}

std::string launchCountProblem(std::size_t gx, std::size_t gy, const LocalSize &local, std::size_t maxWorkGroupSize)
{
    constexpr std::uint64_t kLimit = std::uint64_t(1) << 32;
    if (gx >= kLimit || gy >= kLimit)
        return "the global size " + std::to_string(gx) + "x" + std::to_string(gy)
               + " has a side of 2^32 or more work-items (runtimes count each in 32 bits)";
    std::uint64_t groups = 0;
    if (local.isConcrete()) {
        const std::uint64_t lw = std::uint64_t(local.width), lh = std::uint64_t(std::max(local.height, 1));
        groups = ((gx + lw - 1) / lw) * ((gy + lh - 1) / lh); // < 2^64: each factor < 2^32
    } else {
        // A NULL local size: the runtime picks, and may pick groups of one (PoCL aborted on inspect
        // --synthetic 1048576x1048576 with its own choice), so every work-item may be a group.
        groups = std::uint64_t(gx) * std::uint64_t(gy);
    }
    if (groups >= kLimit)
        return "the launch of " + std::to_string(gx) + "x" + std::to_string(gy) + " work-items in groups of "
               + (local.isConcrete() ? local.toString() : std::string("the runtime's choice (as small as 1)"))
               + " makes " + std::to_string(groups) + " work-groups; OpenCL runtimes count them in 32 bits (at most "
               + std::to_string(kLimit - 1) + ")";
    return {};
}

} // namespace fwb
