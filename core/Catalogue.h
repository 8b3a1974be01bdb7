// The filter/variant catalogue: every filter and kernel variant is data here, so the CLI and the GUI
// need no per-variant code. A variant names its kernel file, passes, defines, launch rule,
// requirements and a plain-words description of what it changes and what the seeds measured.
#pragma once

#include "Image.h"
#include "WorkGroup.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace fwb {

struct DeviceInfo;

enum class BorderMode { Reflect101, Replicate, Constant };
const char *borderModeName(BorderMode mode);
std::optional<BorderMode> parseBorderMode(const std::string &name);
const std::vector<BorderMode> &allBorderModes();

// Maps an out-of-range coordinate to the one the border rule reads (-1: use the constant 0).
// Must agree with fwb_border_index() in kernels/shared/common.clh.
int borderIndex(int i, int n, BorderMode mode);

struct ParamSpec
{
    std::string key;   // "sigma"
    std::string label; // "Sigma (px)"
    std::string help;  // one plain sentence
    double defaultValue = 0;
    double minimum = 0;
    double maximum = 1;
    double step = 0.1;
    bool integer = false;
};

// Everything that shapes one run's output, besides the variant itself.
struct FilterParams
{
    std::map<std::string, double> values; // missing keys fall back to the ParamSpec default
    BorderMode border = BorderMode::Reflect101;
    PixelFormat format = PixelFormat::Gray8;
    bool fastMath = false; // -cl-fast-relaxed-math where the variant allows it
};

// Buffers a pass reads and writes. Src/Dst hold the image in the run's pixel format; TmpA/TmpB are
// scratch buffers whose element type the variant declares (same 8-bit pixels or float per channel).
enum class Slot { Src, Dst, TmpA, TmpB };
enum class TempType { Pixels8, Float32 };

// How a pass's NDRange follows from the pass's input size W x H.
enum class Geometry {
    Pixels,      // 2-D, W x H (one work-item per output pixel)
    PixelsX4,    // 2-D, ceil(W/4) x H: four horizontally adjacent output pixels per work-item
    Transposed,  // 2-D, W x H over the input (ceil(W/blockWidth) x ceil(H/blockHeight) when the variant
                 // moves a block per work-item); output is H x W (a transpose)
    Interior,    // 2-D, (W-2) x (H-2): seed 001's interior-only 3x3 box blur
    Columns,     // 1-D, W work-items: one per column (recursive filters)
    Blocks,      // 2-D, ceil(W/blockWidth) x ceil(H/blockHeight): a block of outputs per work-item
                 // (roofline rungs); the kernel gets -DBLOCK_W/-DBLOCK_H and guards partial blocks
};

// What to do when the global size does not divide by the local size.
enum class GlobalRule {
    RoundUp,    // OpenCL 1.2 classic: round global up, the kernel guards (default)
    Exact,      // launch the exact size: CL 1.2 devices must refuse a non-dividing local size
    NonUniform, // exact size, built -cl-std=CL2.0: edge work-groups are smaller
};

struct PassSpec
{
    std::string entry; // kernel function name
    Slot in = Slot::Src;
    Slot out = Slot::Dst;
    Geometry geometry = Geometry::Pixels;
};

// The part a variant plays in the guided lesson's story (ui/lesson), beyond the baseline and the block rungs.
enum class LessonRole {
    None,
    Spill,    // seed 004's slow one: an array the compiler must keep in (off-chip) private memory
    SpillFix, // the same loop with that array moved to __constant memory: the spill's fix
};

struct VariantSpec
{
    std::string name;  // "constant_memory"
    bool isBaseline = false; // the variant a newcomer starts from and the others are measured against
    LessonRole lessonRole = LessonRole::None;
    std::string title; // "Constant memory"
    std::string kernelFile;
    std::vector<PassSpec> passes;
    std::vector<std::string> defines; // extra -D options, e.g. "USE_PRIVATE_ARRAY"
    // Parameters this variant's program is built for (-DFWB_PARAM_<KEY>=<integer value>, e.g. Sobel's
    // stream rung: FWB_PARAM_OUTPUT), where a run-time choice in its unrolled loop cost speed; each value
    // is then its own program. The other variants take the parameter at run time (no rebuild).
    std::vector<std::string> paramDefines;
    GlobalRule globalRule = GlobalRule::RoundUp;
    TempType tempType = TempType::Pixels8;
    bool usesImages = false;     // passes read/write image2d_t objects instead of buffers
    bool tiledLocal = false;     // kernel sizes its __local tile from -DTILE_W/-DTILE_H = local size
    bool sharesTileProgram = false; // built with its tiled siblings' -DTILE_W/-DTILE_H (one program for the
                                    // family) but launched with the shape the user asked for (auto = NULL)
    int tileHalo = 0;            // halo in pixels on each side of a tile (for local-memory sizing)
    bool needsNonUniform = false;
    bool usesNvidiaArch = false; // built with -DFWB_NV_SM=<compute capability> on NVIDIA (DeviceInfo)
    bool fastMathMatters = false; // kernel uses transcendental/division math affected by fast-math
    std::vector<PixelFormat> formats; // empty: every format
    int blockWidth = 1;  // Geometry::Blocks: output pixels per work-item across (a row segment)
    int blockHeight = 1; // Geometry::Blocks: output rows per work-item down (the strip it slides along)
    int blockBytesGpu = 0; // Geometry::Blocks, gray8 and rgba8888: bytes per work-item and row on GPUs
    int blockBytesCpu = 0; // ... and on CPU devices (PoCL); BLOCK_W = bytes / channels. 0: blockWidth
    int blockBytesGpuRgba = 0; // rgba8888 on GPUs where it differs from gray8's (0: blockBytesGpu)
    int blockHeightGpu = 0;     // gray8 (and rgba8888 without blockHeightGpuRgba) on GPUs: rows per work-item where
                                // they differ from blockHeight, which CPU devices keep (0: blockHeight)
    int blockHeightGpuRgba = 0; // rgba8888 on GPUs: rows per work-item where they differ (0: blockHeightGpu, blockHeight)
    int blockHeightGpuWide = 0; // 16-bit outputs (FilterSpec::wideOutput) on GPUs: rows per work-item where they
                                // differ (0: as the layout's)
    int maxRadius = 0;     // > 0: unavailable when the filter's radius is larger (kernels unrolled per radius)
    // > 0 (single-pass variants): the kernel takes two more int arguments after `params`, the input's and
    // the output's row pitch in bytes, and a whole image copied to and from device buffers (pageable and
    // pinned transfers) lies there with its rows padded to a multiple of rowAlign bytes, so that odd
    // widths keep the aligned wide loads and stores. Elsewhere (tiles, mapped and SVM memory) the pitch
    // is the row's own size.
    int rowAlign = 0;
    LocalSize preferredLocalGpu; // auto on GPUs, when the project default (32x8) is not this kernel's best
    LocalSize preferredLocalGpuRgba; // tiled variants, rgba8888 on GPUs where its best tile differs (unset: the above)
    LocalSize preferredLocalCpu; // auto on CPU devices (PoCL), likewise (default 256x1)
    std::string description; // what it changes and why it should be faster or slower
    std::string seedNote;    // what the reference documents measured for it
    std::string plainWords;  // one sentence for people who never programmed (race, presentation mode)

    bool compiledWithTile() const { return tiledLocal || sharesTileProgram; }
    // Pixels per work-item across for this format and kind of device (blockBytes*, else blockWidth).
    int blockWidthFor(PixelFormat format, bool cpuDevice) const
    {
        const int bytes = cpuDevice                                                 ? blockBytesCpu
                          : format == PixelFormat::Rgba8888 && blockBytesGpuRgba > 0 ? blockBytesGpuRgba
                                                                                    : blockBytesGpu;
        const int channels = channelCount(format);
        return bytes > 0 && channels != 3 && bytes % channels == 0 ? bytes / channels : blockWidth;
    }
    // The measured best work-group (tiled variants: the tile) for this format and kind of device; unset: none.
    LocalSize preferredLocalFor(PixelFormat format, bool cpuDevice) const
    {
        return cpuDevice ? preferredLocalCpu
               : format == PixelFormat::Rgba8888 && preferredLocalGpuRgba.isConcrete() ? preferredLocalGpuRgba
                                                                                      : preferredLocalGpu;
    }
    // Rows per work-item down for this format and kind of device.
    int blockHeightFor(PixelFormat format, bool cpuDevice) const
    {
        if (cpuDevice)
            return blockHeight;
        if (format == PixelFormat::Rgba8888 && blockHeightGpuRgba > 0)
            return blockHeightGpuRgba;
        return blockHeightGpu > 0 ? blockHeightGpu : blockHeight;
    }
};

struct PreparedFilter
{
    std::vector<float> coeffs;        // uploaded to a __constant float* argument
    std::vector<std::string> defines; // -D options shared by all variants of this filter
    int radius = 0;                   // passed as the int `radius` argument
    float params[4] = {0, 0, 0, 0};   // passed as the float4 `params` argument
};

// OpenCV's equivalent of a filter (its CPU and T-API rows), as the family states it: which call, its
// window, when it does not apply, and how far OpenCV's rounding may stray from our reference.
struct OpenCvEquivalent
{
    enum class Call { None, GaussianBlur, Blur, Sobel, MedianBlur, Erode, Dilate, Transpose };
    Call call = Call::None;
    int fixedRadius = 0;       // > 0: this window radius (gaussian5x5: 2, median3x3: 1)
    std::string radiusParam;   // else the radius is this parameter ("radius")
    std::string sigmaParam;    // GaussianBlur: sigma; without a fixed radius the window is ceil(3 sigma)
    std::string outputParam;   // Sobel: 0 = |gx|, 1 = |gy|, 2 = magnitude
    int tolerance = 1;         // ± per 8-bit channel against our reference (at least the filter's own)
    // "" when the call applies to these parameters; else why not (checked with OpenCV built in).
    std::function<std::string(const FilterParams &)> unsupported;
};

struct FilterSpec
{
    std::string name;  // "gaussian5x5"
    std::string title; // "Gaussian blur 5x5"
    // What the filter does, as a plain "-ing" phrase for people who never programmed ("blurring the
    // picture", "finding the edges in the picture"): race and presentation titles are made from it.
    std::string plainVerb;
    std::string description;
    std::vector<ParamSpec> params;
    bool hasBorder = true;
    bool copySourceToDst = false; // output starts as a copy of the input (interior-only filters)
    bool transposesOutput = false; // output is H x W (the transpose operation)
    bool tileable = true;         // false: an output depends on a whole row/column (IIR), so tiles with
                                  // halos cannot reproduce it (large images are refused instead)
    int tolerance = 1;            // max |device - CPU reference| per 8-bit channel
    std::string toleranceNote;
    OpenCvEquivalent openCv;      // Call::None: OpenCV has no equivalent
    // A family computing the same filter another way, with the same parameters (gaussian and
    // recursive_gaussian): the sweep draws both. Empty: none.
    std::string alternative;
    // The family the guided lesson (ui/lesson) and `user-variants --overhead` tell their story on: its
    // baseline is the plain port, its LessonRole variants the spill and its fix. One family sets it.
    bool lessonFilter = false;
    std::vector<VariantSpec> variants;
    std::function<PreparedFilter(const FilterParams &)> prepare;
    // CPU oracle: same border rule and rounding; threads <= 1 is the single-threaded reference, more
    // threads the family's fast path (FastCpu.h: the multi-threaded speed baseline).
    std::function<void(const Image &src, Image &dst, const FilterParams &, int threads)> cpuReference;
    // Set where that fast path is only within `tolerance` of the oracle (gaussian5x5's fixed point): a
    // multi-threaded path bit-identical to the oracle, what device and library outputs are checked
    // against (against a fast path one level off the other way, an output within tolerance of the
    // oracle could read tolerance + 1 off). Null: cpuReference is bit-identical at every thread count.
    std::function<void(const Image &src, Image &dst, const FilterParams &, int threads)> cpuExact;
    // The oracle's bytes on `threads` threads: cpuExact where set (and threads > 1), else cpuReference.
    // What a device output is checked against (Session::checkReference() caches it).
    void oracleBytes(const Image &src, Image &dst, const FilterParams &p, int threads) const;

    // 16-bit signed output (Sobel's gx or gy as NPP and OpenCV's CV_16S give them), where `wideOutput`
    // is set and says so for these parameters: the kernels write one int16 a pixel (gray8 only), the run
    // times that, checks every value exactly against `wideReference`, and shows (and saves) `wideView`'s
    // 8-bit picture of them. Unset: 8-bit output like the input.
    std::function<bool(const FilterParams &)> wideOutput;
    std::function<void(const Image &src, std::vector<std::int16_t> &values, const FilterParams &)> wideReference;
    std::function<void(const std::int16_t *values, Image &view, const FilterParams &)> wideView;
    bool writesWide(const FilterParams &p) const { return wideOutput && wideOutput(p); }
    // Why these parameters cannot run at all (every variant), else empty: the 16-bit outputs in a
    // layout other than gray8. Unset: none.
    std::function<std::string(const FilterParams &)> paramsProblem;

    // The variant of that name, else the one it was called before (variantAliases()); nullptr when neither.
    const VariantSpec *variant(const std::string &variantName) const;
    double param(const FilterParams &p, const std::string &key) const;
};

const std::vector<FilterSpec> &catalogue();
const FilterSpec *findFilter(const std::string &name);

// Former names of catalogue variants, accepted for a release wherever a user or stored data names a
// variant: filter-bench's --variant, the window's --variant and settings, the tuning database,
// prepared.json, kept measurements, saved user variants' bases. The `roofline` rungs were renamed after
// what they do (issue 23). The one table of them is in Catalogue.cpp; FilterSpec::variant() reads it.
struct VariantAlias
{
    const char *filter;
    const char *formerName;
    const char *name; // the variant's name now
};
std::span<const VariantAlias> variantAliases();
// A variant name as it is now: the name of the variant `name` resolves to in that filter (its own name,
// or the one a former name now has); `name` unchanged where it names no catalogue variant (user:
// variants, workloads, OpenCV rows, a typo the caller reports).
std::string currentVariantName(const std::string &filterName, const std::string &name);
// The variant a newcomer starts from: the one flagged isBaseline (gaussian5x5: unrolled_constant, not
// the seed's slow private_array), else the first.
const VariantSpec *baselineVariant(const FilterSpec &filter);
// The family flagged lessonFilter (the first, should several be), nullptr when none is.
const FilterSpec *lessonFilter();
// "Which way of finding the edges in the picture is fastest?" (the filter's plainVerb).
std::string raceQuestion(const FilterSpec &filter);

// Empty if the variant can run on this device and format, else the reason it cannot.
std::string variantUnavailableReason(const VariantSpec &variant, const DeviceInfo &device, PixelFormat format);

// Applies "key=value" to params after checking the key exists and the value is in range.
// Returns an error sentence, or empty on success.
std::string applyParam(const FilterSpec &filter, FilterParams &params, const std::string &assignment);

// Registration hooks, one per filter family (core/families/Families.def lists them; catalogue() calls
// them in that order).
#define FWB_FAMILY(Name) void register##Name(std::vector<FilterSpec> &out);
#include "families/Families.def"
#undef FWB_FAMILY

} // namespace fwb
