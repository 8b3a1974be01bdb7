// Work-group tuner: one variant run with every valid shape (powers of two and the device's preferred
// multiples, up to the kernel's limit), each refusal kept with its reason, the best one named and
// compared with the default launch. Results go to the TuningDb.
#pragma once

#include "JsonIo.h"
#include "Session.h"
#include "TuningDb.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace fwb {

struct TuneOptions
{
    int maxItems = 1024;   // the largest shape tried (also capped by the device's limit)
    int minItems = 1;      // the smallest (1x1 on a 30 MP image only shows what everyone knows)
    int preferredMultiple = 0; // 0: the device's (32 on NVIDIA, 64 on AMD, 16 elsewhere, 8 on CPUs)
    std::vector<LocalSize> shapes; // explicit list instead of tuneShapes()
    bool measureDefault = true;    // also run the default launch (auto, untuned) for the speed-up
};

struct TuneCell
{
    LocalSize local;
    std::string refusal; // why it cannot launch (device or kernel limit) or why its run failed
    RunResult result;    // when it ran
    double kernelMs = -1;
    bool ok() const { return refusal.empty() && kernelMs > 0; }
};

struct TuneResult
{
    std::string filter, variant, format;
    int width = 0, height = 0;
    std::vector<int> widths, heights; // the heat map's axes (ascending)
    std::vector<TuneCell> cells;      // in the order tried
    int best = -1;                    // index into cells of the fastest matching run
    RunResult defaultRun;             // the default launch (auto) on the same image
    bool cancelled = false;

    const TuneCell *cell(int width, int height) const;
    // default kernel time / best kernel time (0 when unknown).
    double speedupOverDefault() const;
};

// The device's preferred work-group multiple (a warp or wavefront; SIMD width on CPUs).
int preferredWorkGroupMultiple(const DeviceInfo &device);

// Shapes to try for a variant: widths and heights powers of two, plus widths that are multiples of
// the preferred multiple (96, 160, ...), with minItems <= W*H <= min(maxItems, device limit); variants
// made only of per-column passes get heights of 1.
std::vector<LocalSize> tuneShapes(const DeviceInfo &device, const VariantSpec &variant, const TuneOptions &options);

using TuneProgress = std::function<void(const TuneCell &cell, int done, int total)>;

// Tunes request.variant on `input`. Checks `cancel` between shapes. Invalid shapes are not run
// (Session::checkLaunch's reason); a run that fails or does not match the CPU reference is refused too.
TuneResult tuneVariant(Session &session, const Image &input, const RunRequest &request, const TuneOptions &options,
                       const std::atomic<bool> *cancel = nullptr, const TuneProgress &progress = {});

// The database entry for a tune's best shape (nullopt when nothing ran).
std::optional<TuningEntry> tuningEntry(const DeviceInfo &device, const TuneResult &tune, PixelFormat format);

// {filter, variant, format, image, best, best_ms, default, default_ms, speedup, cells:[{local, ms|null,
// refusal|null}]}.
Json tuneJson(const TuneResult &tune);

} // namespace fwb
