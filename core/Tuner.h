// Work-group tuner: one variant run with every valid shape (powers of two and the device's preferred
// multiples, up to the kernel's limit), each refusal kept with its reason, the best one named and
// compared with the default launch. Results go to the TuningDb. A block tune (block variants) searches
// in two stages: every output block at the default launch shape, then every shape at the best block.
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
    bool tuneBlocks = false;       // block variants (makesBlocks): tune the output block first (two stages)
    std::vector<LocalSize> blocks; // the blocks tried then (pixels across x rows down); empty: tuneBlocks()
};

struct TuneCell
{
    LocalSize local;     // a block stage's: the default shape as launched (auto when it did not launch)
    LocalSize block;     // block tunes: the output block it ran with; 0x0: the variant's own
    bool blockStage = false; // a block tune's first stage (this block at the default launch shape)
    std::string refusal; // why it cannot launch (device or kernel limit, a block the kernel cannot make) or
                         // why its run failed
    RunResult result;    // when it ran
    double kernelMs = -1;
    bool ok() const { return refusal.empty() && kernelMs > 0; }
};

struct TuneResult
{
    std::string filter, variant, format;
    int width = 0, height = 0;
    std::vector<int> widths, heights; // the heat map's axes (ascending)
    std::vector<TuneCell> cells;      // in the order tried (a block tune's block stage first)
    int best = -1;                    // index into cells of the fastest matching run (either stage)
    RunResult defaultRun;             // the default launch (auto) on the same image
    bool cancelled = false;

    const TuneCell *cell(int width, int height) const; // the shape stage's cell (the heat map's)
    bool tunedBlocks() const { return !cells.empty() && cells.front().blockStage; }
    // default kernel time / best kernel time (0 when unknown).
    double speedupOverDefault() const;
    // The default launch was at least as fast as every shape tried: then the default is the best, and
    // no tried shape may be called "best" (issue 24: "best is 0.99x as fast").
    bool defaultIsBest() const { return best >= 0 && defaultRun.ok() && speedupOverDefault() <= 1.0; }
};

// The device's preferred work-group multiple (a warp or wavefront; SIMD width on CPUs).
int preferredWorkGroupMultiple(const DeviceInfo &device);

// Shapes to try for a variant: widths and heights powers of two, plus widths that are multiples of
// the preferred multiple (96, 160, ...), with minItems <= W*H <= min(maxItems, device limit); variants
// made only of per-column passes get heights of 1.
std::vector<LocalSize> tuneShapes(const DeviceInfo &device, const VariantSpec &variant, const TuneOptions &options);

// Output blocks for a block tune: widths of 4, 8, 16 and 32 bytes per row (the kernels' load widths;
// 1, 2, 4 and 8 pixels for rgb888) x heights 1, 2, 4, 8, 16 and 32. Blocks a kernel cannot make fail its
// build (#error) and become refused cells with the kernel's reason.
std::vector<LocalSize> tuneBlocks(PixelFormat format);

using TuneProgress = std::function<void(const TuneCell &cell, int done, int total)>;

// Tunes request.variant on `input`. Checks `cancel` between shapes. Invalid shapes are not run
// (Session::checkLaunch's reason); a run that fails or does not match the CPU reference is refused too.
// With options.tuneBlocks on a block variant: each block at the default shape (auto), then the shapes
// at the fastest block, so blocks + shapes runs rather than their product.
TuneResult tuneVariant(Session &session, const Image &input, const RunRequest &request, const TuneOptions &options,
                       const std::atomic<bool> *cancel = nullptr, const TuneProgress &progress = {});

// The database entry for a tune's best shape (nullopt when nothing ran).
std::optional<TuningEntry> tuningEntry(const DeviceInfo &device, const TuneResult &tune, PixelFormat format);

// {filter, variant, format, image, best, best_block, best_ms, default, default_ms, speedup, cells:[{stage,
// local, block, ms|null, refusal|null}]} (best_block and block: null outside block tunes; stage: "block"
// or "local").
Json tuneJson(const TuneResult &tune);

} // namespace fwb
