// Work-group shape: parsing "auto" / "driver" / "WxH", the project's default shape per device and
// geometry, and validating a shape against device and kernel limits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace fwb {

struct DeviceInfo;

struct LocalSize
{
    int width = 0; // 0 x 0: auto, the project's choice for the device (see defaultLocalSize)
    int height = 0;
    bool driver = false; // a NULL local size: the OpenCL runtime picks (seed 001's trap)

    bool isAuto() const { return !driver && width == 0 && height == 0; }
    bool isDriver() const { return driver; }
    bool isConcrete() const { return !driver && width > 0 && height > 0; }
    std::size_t items() const { return std::size_t(width) * std::size_t(height); }
    std::string toString() const; // "auto", "driver" or "WxH"
    bool operator==(const LocalSize &) const = default;

    static LocalSize driverChoice() { return LocalSize{0, 0, true}; }

    // "auto", "driver" (also "null"), "16x16", "256x1", "256" (same as 256x1); nullopt + message on
    // malformed input.
    static std::optional<LocalSize> parse(const std::string &text, std::string *error = nullptr);
};

// Where a launched work-group shape came from.
enum class LocalSource {
    Default, // auto: the project's choice for this device type and pass geometry
    Tuned,   // auto, with a shape from the work-group tuning database for this device
    User,    // the shape the user asked for
    Driver,  // NULL local size: the runtime picked
};
const char *localSourceName(LocalSource source); // "default", "tuned", "user", "driver"

// The project's default work-group shape for a pass on this device (auto), before the kernel's own
// limit: GPUs 32x8 for 2-D passes (one warp/wavefront-friendly row of 32, 256 items) and 128 for
// 1-D ones; CPU devices (PoCL) whole rows of 256x1, which its work-item-loop vectoriser turns into
// wide SIMD along x. Never the runtime's NULL choice: on an image of odd size NVIDIA's driver picks
// groups such as 58x1 or 1x239 and the kernel runs 20-160x slower (seed 001's trap, measured).
LocalSize defaultLocalSize(const DeviceInfo &device, bool oneDimensional);

// Shrinks a default shape until it fits maxItems (the kernel's CL_KERNEL_WORK_GROUP_SIZE): height
// first, then width; never below 1x1.
LocalSize clampLocalSize(LocalSize local, std::size_t maxItems);

// For launches whose global size must divide by the local size (OpenCL 1.2 rules, exact global):
// the largest shape of at most maxItems items whose sides divide gx and gy, width up to 32 first.
// On odd image sizes that shape is tiny - seed 001's lesson, kept visible on purpose.
LocalSize dividingLocalSize(std::size_t gx, std::size_t gy, std::size_t maxItems);

// What a run reports about its shape: "auto (32x8)", "auto (32x8, tuned)", "driver", "16x16".
std::string launchShapeLabel(const LocalSize &launched, LocalSource source);

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

// Empty when a launch of gx x gy work-items in `local` groups (a NULL local size: the runtime may
// choose groups of one) stays within what runtimes count: each global size and the number of
// work-groups below 2^32 (PoCL aborts or dies with SIGFPE/SIGILL beyond); else a sentence naming
// that limit. maxWorkGroupSize is kept for callers; the count does not depend on it.
std::string launchCountProblem(std::size_t gx, std::size_t gy, const LocalSize &local, std::size_t maxWorkGroupSize);

// Round `global` up to a multiple of `local` (local 0: unchanged).
inline std::size_t roundUp(std::size_t global, std::size_t local)
{
    return local == 0 ? global : (global + local - 1) / local * local;
}

// The common presets offered in the window and the tune sweep.
const char *const kLocalSizePresets[] = {"auto", "driver", "8x8", "16x16", "32x8", "8x32", "64x4",
                                         "256x1", "16x64", "64x16"};

} // namespace fwb
