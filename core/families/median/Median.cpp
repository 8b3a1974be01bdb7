// median3x3 and median5x5 (insertion sort, min/max network, network on a local tile, the sorted_columns and
// forgetful rungs; kernels/median/median.cl, kernels/median/median_blocks.clh from scripts/median_networks.py):
// catalogue entries, the plain CPU reference and the fast multi-threaded CPU path.
#include "Catalogue.h"
#include "CpuReference.h"
#include "families/shared/CpuRows.h"
#include "families/shared/FastCpu.h"
#include "families/shared/Stream3x3.h"
#include "../../../kernels/median/median_sorted_columns.clh" // generated: the 5x5 network for sorted columns

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace fwb {

namespace {

using namespace fastcpu;

void medianReference(const Image &src, Image &dst, int size, BorderMode border, int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels(), r = size / 2;
    parallelRows(h, threads, [&](int y0, int y1) {
        std::vector<int> v(std::size_t(size * size));
        for (int y = y0; y < y1; ++y)
            for (int x = 0; x < w; ++x)
                for (int c = 0; c < ch; ++c) {
                    std::size_t n = 0;
                    for (int dy = -r; dy <= r; ++dy)
                        for (int dx = -r; dx <= r; ++dx)
                            v[n++] = int(pixelAt(src, x + dx, y + dy, c, border));
                    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(n / 2), v.end());
                    dst.row(y)[std::size_t(x * ch + c)] = static_cast<unsigned char>(v[n / 2]);
                }
    });
}

#define FWB_X(a, b)                                                                                           \
    {                                                                                                          \
        const u8 lo_ = std::min(p[a], p[b]);                                                                   \
        p[b] = std::max(p[a], p[b]);                                                                           \
        p[a] = lo_;                                                                                            \
    }
#define FWB_LO(a, b) p[a] = std::min(p[a], p[b]);
#define FWB_HI(a, b) p[b] = std::max(p[a], p[b]);

// Sorts five rows element-wise (the columns of a 5-row window): 9 exchanges, shared by 5 outputs.
FWB_VECTOR_CLONES
void sortColumns5(const u8 *__restrict s0, const u8 *__restrict s1, const u8 *__restrict s2,
                  const u8 *__restrict s3, const u8 *__restrict s4, u8 *__restrict r0, u8 *__restrict r1,
                  u8 *__restrict r2, u8 *__restrict r3, u8 *__restrict r4, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i) {
        u8 p[5] = {s0[i], s1[i], s2[i], s3[i], s4[i]};
        FWB_X(0, 1) FWB_X(3, 4) FWB_X(2, 4) FWB_X(2, 3) FWB_X(0, 3) FWB_X(0, 2) FWB_X(1, 4) FWB_X(1, 3) FWB_X(1, 2)
        r0[i] = p[0];
        r1[i] = p[1];
        r2[i] = p[2];
        r3[i] = p[3];
        r4[i] = p[4];
    }
}

// Median of 25 from five column-sorted rank rows (r_k = k-th smallest of each column, padded by 2
// pixels): p[dy * 5 + dx] = r_dy at x + dx - 2. The network is the kernels' 113-step Batcher network
// pruned further given sorted columns (76 steps), the sorted_columns kernel's own: generated into
// kernels/median/median_sorted_columns.clh and checked exhaustively with the 0-1 principle over all 6^5
// column-sorted 0-1 inputs by scripts/median_networks.py; tst_cpureference compares it with the oracle.
FWB_VECTOR_CLONES
void median5Row(const u8 *__restrict r0, const u8 *__restrict r1, const u8 *__restrict r2,
                const u8 *__restrict r3, const u8 *__restrict r4, u8 *__restrict out, std::size_t n,
                std::ptrdiff_t ch)
{
    // One pointer per window position, so every load in the loop is base[i] (contiguous in i).
    const u8 *q[25];
    const u8 *rows[5] = {r0, r1, r2, r3, r4};
    for (int dy = 0; dy < 5; ++dy)
        for (int dx = 0; dx < 5; ++dx)
            q[dy * 5 + dx] = rows[dy] + (dx - 2) * ch;
    for (std::size_t i = 0; i < n; ++i) {
        u8 p[25];
#pragma GCC unroll 25
        for (int k = 0; k < 25; ++k)
            p[k] = q[k][i];
        FWB_MEDIAN25_SORTED_COLUMNS(FWB_X, FWB_LO, FWB_HI)
        out[i] = p[12];
    }
}

inline u8 med3(u8 a, u8 b, u8 c) { return std::max(std::min(a, b), std::min(std::max(a, b), c)); }

// Median of 9 from three column-sorted rank rows (low, middle, high; padded by 1 pixel): the median
// of (largest low, median of middles, smallest high) - Paeth's exact 3x3 median.
FWB_VECTOR_CLONES
void median3Row(const u8 *__restrict lo, const u8 *__restrict mi, const u8 *__restrict hi, u8 *__restrict out,
                std::size_t n, std::ptrdiff_t ch)
{
    for (std::size_t i = 0; i < n; ++i) {
        const std::ptrdiff_t j = std::ptrdiff_t(i);
        const u8 a = std::max(std::max(lo[j - ch], lo[j]), lo[j + ch]);
        const u8 b = med3(mi[j - ch], mi[j], mi[j + ch]);
        const u8 c = std::min(std::min(hi[j - ch], hi[j]), hi[j + ch]);
        out[i] = med3(a, b, c);
    }
}

FWB_VECTOR_CLONES
void sortColumns3(const u8 *__restrict s0, const u8 *__restrict s1, const u8 *__restrict s2, u8 *__restrict r0,
                  u8 *__restrict r1, u8 *__restrict r2, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i) {
        u8 p[3] = {s0[i], s1[i], s2[i]};
        FWB_X(0, 1) FWB_X(1, 2) FWB_X(0, 1)
        r0[i] = p[0];
        r1[i] = p[1];
        r2[i] = p[2];
    }
}

#undef FWB_X
#undef FWB_LO
#undef FWB_HI

// Fast path: each window column sorted once per row and shared by its outputs, then a pruned network.
void medianFast(const Image &src, Image &dst, int size, BorderMode border, int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels(), r = size / 2;
    const std::size_t n = std::size_t(w) * std::size_t(ch);
    const std::size_t padLen = n + 2 * std::size_t(r) * std::size_t(ch);
    parallelRows(h, threads, [&](int y0, int y1) {
        const std::vector<u8> zero(n, 0);
        std::vector<u8> ranks(std::size_t(size) * padLen);
        u8 *rank[5] = {};
        for (int k = 0; k < size; ++k)
            rank[k] = ranks.data() + std::size_t(k) * padLen + std::size_t(r) * std::size_t(ch);
        for (int y = y0; y < y1; ++y) {
            // Sort each column of the window's rows once; the border rule on x then applies to the
            // sorted columns (a column's values do not depend on x), a zero column for constant.
            const u8 *s[5] = {};
            for (int k = 0; k < size; ++k)
                {
                    const int by = borderIndex(y + k - r, h, border);
                    s[k] = by < 0 ? zero.data() : src.row(by);
                }
            if (size == 3)
                sortColumns3(s[0], s[1], s[2], rank[0], rank[1], rank[2], n);
            else
                sortColumns5(s[0], s[1], s[2], s[3], s[4], rank[0], rank[1], rank[2], rank[3], rank[4], n);
            for (int k = 0; k < size; ++k)
                padInPlace(rank[k], w, ch, r, border);
            if (size == 3)
                median3Row(rank[0], rank[1], rank[2], dst.row(y), n, ch);
            else
                median5Row(rank[0], rank[1], rank[2], rank[3], rank[4], dst.row(y), n, ch);
        }
    });
}

// The rgba8888 shapes that build fast on NVIDIA (issue 25): the program holds one copy of the network instead
// of one per row or channel. `shape` per variant: sorted_columns (kernels/median/median.cl, MR_ROW_LOOP): 1 keeps
// the block's rows in a rolled loop, 0 unrolls them; forgetful rungs (median_forgetful.clh, MF_CHANNEL_LOOP):
// 1 runs each step's network one channel (or packed channel pair) at a time in a rolled loop, 2 runs the
// whole strip a channel (or pair) at a time, 0 the whole pixel unrolled. Flip a variant's shape here. The
// kernels read it in rgba8888 only (the define reaches gray8's program too, which it leaves as it was), the
// forgetful shape on NVIDIA only (elsewhere they keep 0: docs/MEASUREMENTS.md, "The median's rgba8888
// shapes"), and -DMR_ROW_LOOP=N / -DMF_CHANNEL_LOOP=N in FWB_EXTRA_BUILD_OPTIONS wins over it for every
// variant and device (scripts/median-shape-ab.sh builds and times every shape).
struct RgbaShape
{
    int size;
    const char *variant;
    int shape;
};
constexpr RgbaShape kRgbaShapes[] = {
    // H100, 6720x4480 rgba8888 (docs/data/session17-2026-11-27/median-shapes, scripts/median-shape-ab.sh):
    // the step shape's cold build is up to 58% shorter (1% longer at worst, one build's noise) and its
    // kernel as fast or up to 8.7x faster. median5x5's sorted_columns built 11% slower there (one build
    // each) for a kernel 1% faster; its rolled rows halve its PoCL build (6.2 -> 3.0 CPU s), so 1 too.
    {3, "sorted_columns", 1},  {3, "forgetful", 1}, {3, "forgetful_w16", 1}, {3, "forgetful_u16x2", 1},
    {3, "forgetful_u16x2_ptx", 1},
    {5, "sorted_columns", 1},  {5, "forgetful", 1}, {5, "forgetful_w16", 1}, {5, "forgetful_u16x2", 1},
    {5, "forgetful_u16x2_ptx", 1},
};

void addRgbaShapes(FilterSpec &f, int size)
{
    for (VariantSpec &v : f.variants)
        for (const RgbaShape &each : kRgbaShapes)
            if (each.size == size && v.name == each.variant)
                v.defines.push_back(std::string(v.name == "sorted_columns" ? "MR_ROW_LOOP_DEFAULT=" : "MF_CHANNEL_LOOP_DEFAULT=")
                                    + std::to_string(each.shape));
}

void addMedian(std::vector<FilterSpec> &out, int size)
{
    const std::string n = std::to_string(size);
    FilterSpec f;
    f.name = "median" + n + "x" + n;
    f.title = "Median " + n + "x" + n;
    f.plainVerb = "removing specks of noise from the picture";
    f.description = "Each channel's middle value of its " + n + "x" + n + " neighbourhood: removes salt-and-pepper "
                    "noise and keeps edges. No arithmetic, only comparisons - the cost is in how the middle "
                    "value is found.";
    f.tolerance = 0;
    f.toleranceNote = "exact: a median selects an input value";
    f.openCv = {OpenCvEquivalent::Call::MedianBlur, size / 2, {}, {}, {}, 1, [size](const FilterParams &p) {
                    if (p.border != BorderMode::Replicate)
                        return std::string("cv::medianBlur only replicates the edge pixels (BORDER_REPLICATE); "
                                           "this run uses ") + borderModeName(p.border)
                               + ": pick --border replicate to compare with OpenCV";
                    if (size == 5 && p.format == PixelFormat::Rgb888)
                        return std::string("cv::medianBlur 5x5 takes 1- or 4-channel 8-bit images only, not rgb888");
                    return std::string();
                }};
    f.prepare = [size](const FilterParams &) {
        PreparedFilter prepared;
        prepared.radius = size / 2;
        prepared.defines = {"-DMEDIAN_SIZE=" + std::to_string(size)};
        return prepared;
    };
    f.cpuReference = [size](const Image &src, Image &dst, const FilterParams &p, int threads) {
        if (useFastCpuPath(threads))
            medianFast(src, dst, size, p.border, threads);
        else
            medianReference(src, dst, size, p.border, threads);
    };
    f.variants.push_back(VariantSpec{
        .name = "naive_sort",
        .title = "Insertion sort",
        .kernelFile = "median.cl",
        .passes = {{"median_naive_sort"}},
        .sharesTileProgram = true, // one program per layout for all three variants
        .tileHalo = size / 2,
        .description = "Gathers each channel's " + std::to_string(size * size) + " values into a private array and "
                       "insertion-sorts it. How far each value moves depends on the data, so neighbouring "
                       "work-items branch differently and SIMD lanes wait for the slowest.",
        .seedNote = "Seed 000 guideline: avoid branches - all lanes of a GPU execute both sides of a divergent branch.",
        .plainWords = "Every worker collects the pixels around it and sorts them one by one to find the middle value - easy to write, slow to run.",
    });
    f.variants.push_back(VariantSpec{
        .name = "sorting_network",
        .title = "Branchless min/max network",
        .kernelFile = "median.cl",
        .passes = {{"median_sorting_network"}},
        .sharesTileProgram = true,
        .tileHalo = size / 2,
        .description = std::string("A fixed selection network (Batcher's merge sort pruned to the middle output: ")
                       + (size == 3 ? "24" : "113") + " min/max steps) on whole pixels (all channels at once as "
                       "uchar vectors): no branches, constant indices, so the values stay in registers and every "
                       "work-item runs the same instructions.",
        .seedNote = "Seed 000: avoid branches; use a ? x : y, select, min and max.",
        .plainWords = "Every worker finds the middle value with a fixed recipe of compare-and-swap steps, so no worker ever waits for a decision.",
    });
    f.variants.push_back(VariantSpec{
        .name = "local_tiled",
        .title = "Network on a local-memory tile",
        .kernelFile = "median.cl",
        .passes = {{"median_local"}},
        .tiledLocal = true,
        .sharesTileProgram = false,
        .tileHalo = size / 2,
        .description = "The work-group copies its tile plus a " + std::to_string(size / 2) + "-pixel halo into __local "
                       "memory once, then runs the same network from there. Saves repeated global reads; pays a "
                       "barrier and the copy, and on a CPU local memory is ordinary cached memory.",
        .seedNote = "Seed 004: a shared-memory tile gave no gain for a 5x5 stencil where L1 already hits.",
        .plainWords = "Each team copies its patch of the picture into a fast scratchpad first, so neighbouring workers stop fetching the same pixels again and again.",
    });
    f.variants.push_back(VariantSpec{
        .name = "sorted_columns",
        .title = "Shared column sorts on byte vectors",
        .kernelFile = "median.cl",
        .passes = {{"median_roofline", Slot::Src, Slot::Dst, Geometry::Blocks}},
        .blockWidth = 8, // 8x8 was the best block on the GPUs measured, for 3x3 and 5x5
        .blockHeight = 8,
        .rowAlign = 16, // odd widths: rows padded to 16 bytes on the device keep the aligned vectors (byte_strips.clh)
        .preferredLocalGpu = {32, 4},
        .preferredLocalCpu = {16, 4},
        .description = "Each work-item produces an 8x8 block of outputs on whole byte vectors: one vector min/max "
                       "computes 8 gray8 medians (or 8 rgba pixels x 4 channels, 32 lanes) at once. Every input row "
                       "is loaded once as aligned vectors plus a halo vector on each side"
                       + std::string(size == 3 ? " and the window's rows stay in registers while the block slides down"
                                               : "")
                       + ". Each column of the window is sorted once and shared by the " + n + " outputs that "
                       "contain it (their neighbours are byte-shifted copies of the sorted vectors), so the "
                       "selection does far less work: "
                       + (size == 3 ? "Paeth's median of (largest low, median of middles, smallest high): 3x6 + 12 "
                                      "min/max per lane instead of 24"
                                    : "a 76-step network for sorted columns instead of 113 steps, plus 18 per column")
                       + ". Exact."
                       + (size == 5 ? " Compute-bound (about 150 min/max per byte), not bandwidth-bound." : ""),
        .seedNote = "Seed 000: min/max instead of branches, taken to its end - the min/max run on 16 lanes at a time "
                    "and each comparison is shared by neighbouring outputs.",
        .plainWords = "Each worker handles a whole block of pixels and reuses the sorting it already did for the pixel next door, so it does far less work per pixel.",
    });
    // Forgetful rungs (kernels/median/median_blocks.clh, generated and checked by scripts/median_networks.py):
    // min/max per output at 8 and 16 pixels across (the step's count over its 2 x width outputs, halo
    // columns included) and in the limit of a wide block.
    // What every forgetful rung shares: the down and across steps between what a work-item makes
    // (`makes`) and what an output costs (`costs`, ending in "Exact."); `lesson`: what the GPU taught it.
    const std::string steps =
        ", two rows per step, with one generated "
        "straight-line min/max program per step (every output checked with the 0-1 principle): no branch, no "
        "comparison done twice. Down: the two output rows share "
        + std::string(size == 3 ? "2 of their 3 rows: that pair is sorted once (2 min/max) and each row merges "
                                  "in its own third row (4)"
                                : "4 of their 5 rows: the sorted pair of rows y-1, y comes from the step above, "
                                  "the new pair is sorted (2 min/max) and merged with it (6), and each row "
                                  "merges in its own fifth row (8)")
        + ", so a sorted column costs " + (size == 3 ? "5" : "12") + " min/max instead of "
        + (size == 3 ? "6" : "18") + ". Across: outputs x and x+1 share " + (size == 3 ? "2" : "4")
        + " of their columns; "
        + (size == 3 ? "Paeth's median of (largest low, median of middles, smallest high) reduces the shared "
                       "pair once (4 min/max) and each output adds its own column (4) and takes the median of "
                       "the three (4)"
                     : "those 20 values are merged once (from column pairs that two neighbouring cores share: "
                       "26 min/max per pair) and only ranks 8..13 are kept (36): a value ranked 7th or lower among "
                       "the 20 is at most 12th of the 25 whatever the last column holds, one ranked 14th or higher "
                       "at least 14th, so neither can be the median: they are forgotten and only counted; each "
                       "output then takes rank 6 of (those 6, its own sorted column): min over i of "
                       "max(A_i, B_6-i), 10 min/max");
    const auto forgetful = [&](const std::string &name, int width, const std::string &makes, const std::string &costs,
                               const std::string &lesson) -> VariantSpec & {
        VariantSpec r;
        r.kernelFile = "median.cl";
        r.name = name;
        r.plainWords = "Each worker sorts every small column of pixels once and lets all its neighbours reuse it, and "
                       "stops tracking the values that can no longer be the middle one, so each middle value costs "
                       "a fraction of the comparisons.";
        r.title = "Forgetful selection on shared sorted columns, " + std::to_string(width) + " px across";
        r.passes = {{"median_forgetful", Slot::Src, Slot::Dst, Geometry::Blocks}};
        // Odd widths: rows padded to 16 bytes on the device keep the aligned vector loads and stores (packed
        // rows took NVIDIA's byte-split vloadN path, four times slower at an odd width).
        r.rowAlign = 16;
        r.blockWidth = width;
        r.blockHeight = 8;
        r.preferredLocalGpu = {32, 4};
        r.preferredLocalCpu = {16, 4};
        r.description = makes + steps + costs + (lesson.empty() ? "" : " " + lesson);
        r.seedNote = "Seed 000: min/max instead of branches; here each min/max is also shared by every output that needs "
                     "it, and the values that cannot be the median are dropped early.";
        f.variants.push_back(r);
        return f.variants.back();
    };
    // (-> VariantSpec &: a deduced return type was a copy, and forgetful_w16's define below went to it until session 29.)
    const auto unpacked = [&](const std::string &name, int width, const char *perOutput,
                              const std::string &lesson) -> VariantSpec & {
        return forgetful(name, width, "Each work-item makes " + std::to_string(width) + " x 8 outputs",
                         std::string(". Min/max per output: ") + perOutput + " (the sorted_columns rung: "
                             + (size == 3 ? "18" : "about 145") + "). Pixels are whole uchar/uchar3/uchar4 values (a "
                             "channel per lane); rows load once as aligned vectors and slide down in registers. Exact.",
                         lesson);
    };
    const std::string spills = "On GPUs the wider block needs more registers than there are and spills"
                               + std::string(size == 5 ? " in rgba8888" : "") + ".";
    if (size == 3) {
        unpacked("forgetful", 8, "16.25 at 8 across (15 in the limit: 5 down + 10 across)", "");
        unpacked("forgetful_w16", 16, "15.6 at 16 across", spills);
    }
    else {
        // gray8 rows loaded and stored in rolled loops on NVIDIA too (MF_ROLL_GRAY8, median_forgetful.clh): H200, 6720x4480,
        // cold, two rounds (docs/data/session31-2026-11-29/c2): 0.2253/0.2250 -> 0.2196/0.2196 ms, build 0.72-0.77 -> 0.55-0.64 s.
        unpacked("forgetful", 8, "62 at 8 across (53 in the limit: 12 down + 13 pairs + 18 cores + 10 final)", "")
            .defines.push_back("MF_ROLL_GRAY8=1");
        // rgba8888 without the interior strip's own copy of the loop on NVIDIA (MF_INSIDE_COPY=0): measured
        // 2026-11-29 on the H200 (docs/data/session30-2026-11-29/c1), cold, two rounds: kernel 1.110/1.115 ->
        // 0.898/0.895 ms at 6720x4480 and 0.464/0.458 -> 0.339/0.342 ms at 3840x2160, build 13.0-19.0 -> 11.8-14.9 s.
        unpacked("forgetful_w16", 16, "57.6 at 16 across", spills).defines.push_back("MF_INSIDE_COPY=0");
    }
    // The same programs on two 8-bit values per 16x2 min/max (gray8: the two halves of a 32-pixel block;
    // rgba8888: channel pairs R,G and B,A of 8 pixels; rgb888 runs unpacked, 8 pixels across).
    const auto packed = [&](const std::string &name, const char *define, const std::string &how,
                            const std::string &lesson) {
        const bool ptx = std::string(define) == "MEDIAN_PACKED=2";
        const std::string makes = ptx ? "Each work-item makes 16 gray8 or 4 rgba8888 pixels across x 8 rows (rgb888 8)"
                                      : "Each work-item makes 32 gray8 or 8 rgba8888 or rgb888 pixels across x 8 rows";
        const std::string costs =
            ". Here the values are packed two to a 32-bit word (gray8: pixel c of the two halves of the block; "
            "rgba8888: channels R,G and B,A of a pixel, two planes) and every min/max works on both 16-bit halves: "
            + (!ptx ? (size == 3 ? std::string("7.8 16x2 min/max per gray8 output (15.6 byte min/max), 8.1 per "
                                               "rgba8888 byte")
                                 : std::string("28.8 16x2 min/max per gray8 output (57.6 byte min/max), 31 per "
                                               "rgba8888 byte"))
                    : (size == 3 ? std::string("on GPUs 8.1 16x2 min/max per gray8 output (16.25 byte min/max), "
                                               "8.75 per rgba8888 byte")
                                 : std::string("on GPUs 31 16x2 min/max per gray8 output (62 byte min/max), 36 per "
                                               "rgba8888 byte")))
            + ". " + how + " rgb888 runs the unpacked program, 8 pixels across. Exact.";
        VariantSpec &p = forgetful(name, 8, makes, costs, lesson);
        p.defines = {define};
        // GPUs: 16 bytes across (gray8 16 pixels, rgba8888 4) x 8 rows: the 32-byte block needed every
        // register (255, spilling) and ran 8 warps per SM. (The portable pair stays at 32 bytes: at 16 its
        // rgba8888 rows got slower, while its gray8 3x3 got faster.)
        // CPUs (PoCL) build the _ptx rung at the GPUs' block too: the program NVIDIA runs is the one the CPU
        // tests check, and its cold build on PoCL 3.1 takes 13-23% less (median5x5 gray8 8.2 -> 6.5 CPU s,
        // rgba8888 9.2 -> 7.4; its PoCL kernel times alike: 28.0 / 26.9 ms, 74.1 / 77.9 at 1920x1080).
        p.blockBytesGpu = ptx ? 16 : 32;
        p.blockBytesCpu = ptx ? 16 : 32;
        p.title = std::string("Forgetful selection, two values per 16x2 min/max")
                  + (ptx ? " (PTX on NVIDIA)" : "");
        p.plainWords = "Like the forgetful version, but every comparison handles two pixels at once, packed side by "
                       "side, so the same picture needs half the comparison steps.";
    };
    packed("forgetful_u16x2", "MEDIAN_PACKED=1",
           "The pair min/max is portable OpenCL (ushort2 min/max on the word): whether it becomes one packed "
           "instruction is the compiler's choice.",
           "NVIDIA's compiler splits the portable pair min/max back into two instructions: on NVIDIA the _ptx "
           "rung is the one to take.");
    packed("forgetful_u16x2_ptx", "MEDIAN_PACKED=2",
           "On NVIDIA the pair min/max is inline PTX min.u16x2 / max.u16x2 (one instruction on sm_90, the H100; "
           "older NVIDIA GPUs reject it at build time), elsewhere the portable ushort2 min/max. "
               + std::string(size == 5 ? "Both layouts pack" : "rgba8888 packs")
               + " with byte permutes: each 16-bit half holds its value twice (v x 257, as monotone as v), so "
                 "one permute of two loaded words makes a packed word.",
           "On NVIDIA rgba8888 interior strips run their own copy of the loop, without x checks; odd sizes run as "
           "fast as even ones (rows padded to 16 bytes on the device); 32-byte blocks needed every register and "
           "spilled.");
    if (size == 3)
        f.variants.push_back(stream3x3Variant(VariantSpec{
            .name = "stream",
            .title = "Streaming median: two bytes per comparison, every row's loads at once",
            .kernelFile = "median.cl",
            .passes = {{"median_stream", Slot::Src, Slot::Dst, Geometry::Blocks}},
            .description =
                "Median 3x3 (gray8 and rgba8888) on strips 16 bytes across and 4 rows down, each row's three "
                "16-byte loads (the pixels one to the left, themselves, one to the right) issued together. A "
                "16-bit half orders by its high byte whatever its low byte holds, so every 16x2 min/max takes two "
                "bytes without packing: a row's 32-bit word holds bytes 1 and 3 as its halves' high bytes, the word "
                "shifted by 8 bytes 0 and 2. The row pass sorts each byte's horizontal triple (gray8: 10 min/max per "
                "4 pixels, sharing the sorted middle pair), the column pass takes Paeth's median of (largest low, "
                "median of middles, smallest high) of three row triples (12 per word), and one byte permute joins "
                "the high bytes back. On NVIDIA gray8 takes two output rows a step, sharing their two common rows' "
                "reductions (20 min/max per word for the two instead of 24), and the shifted views are one byte "
                "permute per word. About 9.5 instructions per gray8 output, against about 58 for the forgetful "
                "rungs' packing, addressing and networks, and in far fewer registers. Exact.",
            .seedNote = "Seed 000's min/max instead of branches, two pixels per instruction, and the digest's "
                        "'physical limits': the picture's bytes read once.",
            .plainWords = "Every worker asks for all the rows it needs at once, and each comparison handles two "
                          "pixels, so the card spends its time moving the picture rather than comparing.",
        }));
    if (size == 3) { // H100, 6720x4480: rgba8888 8 rows down 0.110 ms against 0.122 at 4 (docs/data/session21-2026-11-27/c2)
        f.variants.back().blockHeightGpuRgba = 8;
        // rgba8888's row-end strips in one rolled copy on NVIDIA (stream3x3.clh, S3_UNROLL_ENDS): H200, cold, two
        // rounds (docs/data/session31-2026-11-29/c1): build 2.4-3.5 -> 1.1-1.8 s, kernel 0.1064/0.1065 -> 0.1060/0.1054 ms.
        f.variants.back().defines.push_back("S3_UNROLL_ENDS_RGBA=0");
    }
    if (size == 3)
        f.variants.push_back(cpuRowsVariant("cpu_rows_median3x3",
                                            "Shaped for an ordinary processor: each worker finds sixteen middle values at once with the processor's wide compare instructions, reading each row once.",
                                            "CPU-shaped: byte-vector median down row strips", 0,
                                            "The median: for each of the three shifted loads the column of three rows is "
                                            "sorted with 6 uchar16 min/max, then Paeth's median of (largest low, median of "
                                            "middles, smallest high): 28 byte min/max per 16 outputs, the two previous rows "
                                            "kept in registers. Exact. On PoCL it runs 2-7x faster than the GPU-shaped "
                                            "sorted_columns rung.",
                                            "Seed 000: min/max instead of branches, 16 bytes per instruction."));
    addRgbaShapes(f, size);
    out.push_back(f);
}

} // namespace

void registerMedian(std::vector<FilterSpec> &out)
{
    addMedian(out, 3);
    addMedian(out, 5);
}

} // namespace fwb
