// Work-group shape: parsing "auto" / "WxH" and validating it against device and kernel limits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace fwb {

struct DeviceInfo;

struct LocalSize
{
    int width = 0; // 0 x 0 means auto: a NULL local size, the runtime picks
    int height = 0;

    bool isAuto() const { return width == 0 && height == 0; }
    std::size_t items() const { return std::size_t(width) * std::size_t(height); }
    std::string toString() const;
    bool operator==(const LocalSize &) const = default;

    // "auto", "16x16", "256x1", "256" (same as 256x1); nullopt + message on malformed input.
    static std::optional<LocalSize> parse(const std::string &text, std::string *error = nullptr);
};

// Limits a launch must respect; kernel fields are 0 when not known yet.
struct LaunchLimits
{
    std::size_t kernelMaxWorkGroupSize = 0; // CL_KERNEL_WORK_GROUP_SIZE
    std::uint64_t kernelLocalMem = 0;       // CL_KERNEL_LOCAL_MEM_SIZE (static __local arrays)
    std::uint64_t extraLocalMem = 0;        // local memory the shape itself needs (tiles)
    int dimensions = 2;                     // 1 for per-column passes: only width is used
};

// Empty when the shape may launch, else a sentence naming the limit it breaks.
std::string localSizeProblem(const DeviceInfo &device, const LocalSize &local, const LaunchLimits &limits);

// Round `global` up to a multiple of `local` (local 0: unchanged).
inline std::size_t roundUp(std::size_t global, std::size_t local)
{
    return local == 0 ? global : (global + local - 1) / local * local;
}

// The common presets offered in the window and the tune sweep.
const char *const kLocalSizePresets[] = {"auto", "8x8", "16x16", "32x8", "8x32", "64x4",
                                         "256x1", "16x64", "64x16"};

} // namespace fwb
