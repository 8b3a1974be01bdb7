// Private to the session's pieces (core/runtime, core/run): launch geometry, per-pass launch state,
// event timing, error translation. Not part of fwb_core's public interface.
#pragma once

#include "ClConfig.h"
#include "Error.h"
#include "Session.h"
#include "VariantLimits.h"
#include "WorkGroup.h"

#include <chrono>
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace fwb::runtime {

using Clock = std::chrono::steady_clock;

// One pass's NDRange for an input of curW x curH (see Geometry), with the variant's block for this format and
// kind of device.
void passGlobal(const VariantSpec &variant, const PassSpec &pass, int curW, int curH, PixelFormat format, bool cpuDevice,
                std::size_t global[2]);
// Errors after which the session drops its device memory (the next, smaller run starts clean).
bool allocationFailure(cl_int err);
std::string mib(std::uint64_t bytes);
double msBetween(Clock::time_point a, Clock::time_point b);
// A profiled command's device time (end - start) in ms.
double eventMs(const cl::Event &event);

// Waits for the queue when an exception unwinds past it: host memory that non-blocking copies still
// read or write (the converted input, the output image) must outlive them. ASan caught a
// heap-use-after-free here when a launch or read failed with an upload still in flight.
struct DrainQueueOnUnwind
{
    cl::CommandQueue &queue;
    const int exceptions = std::uncaught_exceptions();
    ~DrainQueueOnUnwind()
    {
        if (std::uncaught_exceptions() > exceptions) {
            try {
                queue.finish();
            } catch (...) {
                // a lost device has nothing left in flight
            }
        }
    }
};

struct PassShape
{
    LocalSize local;
    LocalSource source = LocalSource::Default;
    std::string tunedProblem; // why the tuned shape was passed over for the default (it cannot launch here)
};

// The shape one pass launches with, and where it came from. auto becomes the project's choice for
// the device (or the tuning database's), never the runtime's NULL pick; driver is NULL on purpose;
// a user's shape is kept, except that a variant mixing 2-D passes with 1-D per-column passes
// (recursive filters) gives its 1-D passes their own default when the requested shape is 2-D. A
// variant made only of 1-D passes keeps the user's shape, so a 2-D request is refused with its reason.
PassShape resolvePassShape(const DeviceInfo &device, GlobalRule globalRule, bool oneDimensional, bool mixed,
                           const LocalSize &requested, const std::optional<LocalSize> &tuned,
                           std::size_t kernelMaxItems, std::size_t gx, std::size_t gy,
                           const LocalSize &preferred = LocalSize{});
// The same for one pass of a variant (its geometry, its preferred shape for this kind of device).
PassShape resolvePassShape(const DeviceInfo &device, const VariantSpec &variant, const PassSpec &pass,
                           const LocalSize &requested, const std::optional<LocalSize> &tuned,
                           std::size_t kernelMaxItems, std::size_t gx, std::size_t gy);

// A run's timed repeats, one sample of each time per repeat.
struct RepeatTimes
{
    std::vector<double> uploads, kernels, downloads, walls;
    std::vector<std::vector<double>> passes; // [pass][repeat]

    explicit RepeatTimes(std::size_t passCount) : passes(passCount) {}
    // One repeat: its upload, each pass's time, its download and its wall time (ms). Returns the kernel
    // time, the passes' sum.
    double add(double upload, const std::vector<double> &passMs, double download, double wall);
    // Their medians into the result (the kernel time as min/median/max).
    void fill(RunResult &r) const;
};
// A result naming what ran where (the device, and the work-group shape asked for).
RunResult startResult(const DeviceInfo &device, const std::string &name, const std::string &variant,
                      const LocalSize &local);

// Adds one sentence to the result's warnings (what could not be honoured and what ran instead).
void appendWarning(RunResult &r, const std::string &sentence);
// Turns the exception being handled into the result's error, with the OpenCL error name and, for
// build failures, the build log. Call only from inside a catch block.
void recordCurrentException(RunResult &r);

struct PassLaunch
{
    cl::Kernel kernel;
    LocalSize local; // this pass's work-group shape (see resolvePassShape)
    LocalSource source = LocalSource::Default;
    int inWidth = 0, inHeight = 0;
    int dims = 2;
    std::size_t global[2] = {0, 0};
    bool empty = false; // nothing to compute (e.g. the interior of a 2-pixel-wide image)

    // Refuses a shape the device or kernel cannot launch (with the limit it breaks), then rounds the
    // global size up to the shape where the variant's kernels guard their edges.
    void checkAndRound(const DeviceInfo &device, const LaunchLimits &limits, GlobalRule rule, RunResult &r)
    {
        if (std::string why = launchCountProblem(global[0], dims == 2 ? global[1] : 1, local, device.maxWorkGroupSize);
            !why.empty()) {
            r.errorCode = "launch too large";
            throw Error(why);
        }
        if (std::string why = localSizeProblem(device, local, limits); !why.empty()) {
            r.errorCode = "invalid work-group shape";
            throw Error(why);
        }
        if (rule == GlobalRule::RoundUp && local.isConcrete()) {
            global[0] = roundUp(global[0], std::size_t(local.width));
            if (dims == 2)
                global[1] = roundUp(global[1], std::size_t(local.height));
        }
    }

    cl::NDRange globalRange() const
    {
        return dims == 1 ? cl::NDRange(global[0]) : cl::NDRange(global[0], global[1]);
    }

    cl::NDRange localRange() const // NULL for the runtime's choice (driver)
    {
        if (!local.isConcrete())
            return cl::NullRange;
        return dims == 1 ? cl::NDRange(std::size_t(local.width))
                         : cl::NDRange(std::size_t(local.width), std::size_t(local.height));
    }
};

} // namespace fwb::runtime
