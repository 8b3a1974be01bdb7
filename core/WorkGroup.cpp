// Work-group shape parsing and validation (clpeak-style: check limits before launching, name them).
#include "WorkGroup.h"

#include "Devices.h"

#include <cstdio>

namespace fwb {

std::string LocalSize::toString() const
{
    return isAuto() ? std::string("auto") : std::to_string(width) + "x" + std::to_string(height);
}

std::optional<LocalSize> LocalSize::parse(const std::string &text, std::string *error)
{
    if (text.empty() || text == "auto" || text == "null" || text == "NULL")
        return LocalSize{};
    long w = 0, h = 0;
    char x = 0, tail = 0;
    const int n = std::sscanf(text.c_str(), "%ld%c%ld%c", &w, &x, &h, &tail);
    if (n == 1)
        h = 1;
    const bool shapeOk = (n == 1) || (n == 3 && (x == 'x' || x == 'X' || x == '*'));
    if (!shapeOk || w <= 0 || h <= 0 || w > 65536 || h > 65536) {
        if (error)
            *error = "work-group shape '" + text + "' is not valid: use auto or WxH with positive sizes, e.g. 16x16";
        return std::nullopt;
    }
    return LocalSize{int(w), int(h)};
}

std::string localSizeProblem(const DeviceInfo &device, const LocalSize &local, const LaunchLimits &limits)
{
    if (local.isAuto())
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

} // namespace fwb
