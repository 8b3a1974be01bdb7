// gaussian (any sigma, as two 1-D passes of radius ceil(3 sigma): plain and local-memory staged;
// kernels/gaussian/gaussian_separable.cl): catalogue entry, the plain CPU reference (the same two passes, float
// intermediate and tap order) and the fast multi-threaded CPU path.
#include "Catalogue.h"
#include "CpuReference.h"
#include "families/shared/FastCpu.h"

#include <algorithm>
#include <cstring>
#include <cmath>
#include <vector>

namespace fwb {

namespace {

using namespace fastcpu;

double gaussianSigma(const FilterParams &p)
{
    const FilterSpec *self = findFilter("gaussian");
    return self ? self->param(p, "sigma") : 2.0;
}

int gaussianRadius(double sigma) { return std::max(1, int(std::ceil(3.0 * sigma))); }

// 2r+1 taps exp(-k^2 / 2 sigma^2), normalised in double, stored as float (what every variant uses).
std::vector<float> gaussianTaps(double sigma)
{
    const int r = gaussianRadius(sigma);
    std::vector<double> g(std::size_t(2 * r + 1));
    double sum = 0;
    for (int k = -r; k <= r; ++k)
        sum += g[std::size_t(k + r)] = std::exp(-double(k * k) / (2.0 * sigma * sigma));
    std::vector<float> taps(g.size());
    for (std::size_t i = 0; i < g.size(); ++i)
        taps[i] = float(g[i] / sum);
    return taps;
}

// Rows into float, then columns of the floats, taps summed 0..2r (the kernels' order), rounded once.
void gaussianReference(const Image &src, Image &dst, const FilterParams &p, int threads)
{
    const std::vector<float> taps = gaussianTaps(gaussianSigma(p));
    const int r = int(taps.size() / 2);
    const int w = src.width(), h = src.height(), ch = src.channels();
    std::vector<float> rows(std::size_t(w) * h * ch);
    parallelRows(h, threads, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const unsigned char *in = src.row(y);
            float *out = rows.data() + std::size_t(y) * w * ch;
            for (int x = 0; x < w; ++x)
                for (int c = 0; c < ch; ++c) {
                    float sum = 0.0f;
                    for (int k = 0; k <= 2 * r; ++k) {
                        const int bx = borderIndex(x + k - r, w, p.border);
                        sum += taps[std::size_t(k)] * (bx < 0 ? 0.0f : float(in[std::size_t(bx) * ch + c]));
                    }
                    out[std::size_t(x) * ch + c] = sum;
                }
        }
    });
    parallelRows(h, threads, [&](int y0, int y1) {
        std::vector<const float *> lines(taps.size());
        for (int y = y0; y < y1; ++y) {
            for (int k = 0; k <= 2 * r; ++k) {
                const int by = borderIndex(y + k - r, h, p.border);
                lines[std::size_t(k)] = by < 0 ? nullptr : rows.data() + std::size_t(by) * w * ch;
            }
            unsigned char *out = dst.row(y);
            for (std::size_t i = 0; i < std::size_t(w) * ch; ++i) {
                float sum = 0.0f;
                for (int k = 0; k <= 2 * r; ++k)
                    sum += taps[std::size_t(k)] * (lines[std::size_t(k)] ? lines[std::size_t(k)][i] : 0.0f);
                out[i] = roundToU8(sum);
            }
        }
    });
}

// Eight floats as one GCC/Clang vector (one AVX2 register, two SSE2 ones in the baseline clone).
typedef float Floats8 __attribute__((vector_size(32)));

inline Floats8 load8(const float *p)
{
    Floats8 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// Floats8 vectors per block: 64 floats, eight independent chains of dependent additions in flight.
constexpr int kVecs = 8;
constexpr std::size_t kBlock = 8 * kVecs;
// Floats between one cached row result and the next beyond the row itself, so rows of a width that is a
// multiple of 4 KB (rgba8888 at 3840: 60 KB) do not all map to the same L1 sets.
constexpr std::size_t kSkew = 16;
// Output rows per column step: their windows share 2r - 2 of their 2r + 4 rows, so the later rows'
// blocks read them from L1 (the cache holds 2r + kStep row results).
constexpr int kStep = 4;

// sum_k t[k] * line[k][i] for i in [i0, i0 + kBlock), added to 0 in k order (the reference's order).
inline void tapBlock(const float *const *line, const float *t, int taps, std::size_t i0, Floats8 acc[kVecs])
{
    Floats8 a[kVecs] = {};
    for (int k = 0; k < taps; ++k) {
        const float *p = line[k] + i0;
        const float tk = t[k];
        for (int v = 0; v < kVecs; ++v)
            a[v] += tk * load8(p + 8 * v);
    }
    for (int v = 0; v < kVecs; ++v)
        acc[v] = a[v];
}

inline float tapOne(const float *const *line, const float *t, int taps, std::size_t i)
{
    float sum = 0.0f;
    for (int k = 0; k < taps; ++k)
        sum += t[k] * line[k][i];
    return sum;
}

// Row pass: out[i] = sum_k t[k] * line[k][i].
FWB_VECTOR_CLONES
void tapSum(float *__restrict out, const float *const *line, const float *t, int taps, std::size_t n)
{
    std::size_t i = 0;
    for (; i + kBlock <= n; i += kBlock) {
        Floats8 acc[kVecs];
        tapBlock(line, t, taps, i, acc);
        std::memcpy(out + i, acc, sizeof acc);
    }
    for (; i < n; ++i)
        out[i] = tapOne(line, t, taps, i);
}

// Column pass for `rows` (1 .. kStep) consecutive output rows: out[q][i] = roundToU8(sum_k t[k] * line[q + k][i]).
FWB_VECTOR_CLONES
void tapSumRound(u8 *const *out, int rows, const float *const *line, const float *t, int taps, std::size_t n)
{
    std::size_t i = 0;
    float sums[kBlock];
    for (; i + kBlock <= n; i += kBlock)
        for (int q = 0; q < rows; ++q) {
            Floats8 acc[kVecs];
            tapBlock(line + q, t, taps, i, acc);
            std::memcpy(sums, acc, sizeof acc);
            u8 *__restrict o = out[q] + i;
            for (std::size_t j = 0; j < kBlock; ++j) {
                const int v = int(sums[j] + 0.5f); // roundToU8: sums >= 0
                o[j] = u8(v > 255 ? 255 : v);
            }
        }
    for (int q = 0; q < rows; ++q)
        for (std::size_t j = i; j < n; ++j)
            out[q][j] = roundToU8(tapOne(line + q, t, taps, j));
}

// Fast path: the reference's two passes and tap order, over padded rows and cached row results, with
// the taps summed in registers (no accumulator sweeps through memory).
void gaussianFast(const Image &src, Image &dst, const std::vector<float> &taps, BorderMode border,
                  int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    const int r = int(taps.size() / 2), count = 2 * r + 1;
    const std::size_t n = std::size_t(w) * std::size_t(ch);
    // Each strip runs the row pass on demand for the rows its windows need, into a cache of 2r+kStep row
    // results (RowCache), so the float intermediate stays in cache instead of going through a
    // whole-image buffer. A recomputed row is the same deterministic sum, bit for bit.
    parallelRows(h, threads, [&](int y0, int y1) {
        RowCache<float> cache(count + kStep - 1, n + kSkew);
        std::vector<float> pad((std::size_t(w) + 2 * std::size_t(r)) * std::size_t(ch));
        const std::vector<float> zero(n, 0.0f);
        std::vector<const float *> line(static_cast<std::size_t>(count + kStep - 1));
        // Row pass: out = 0 + t0 * p[x-r] + t1 * p[x-r+1] + ... in tap order, as the reference sums
        // (a constant border's zero pixel adds t * 0 = +0 there too, so padding with 0 changes no bit).
        auto rowPass = [&](int sy, float *out) {
            padRow(src.row(sy), pad.data() + std::size_t(r) * std::size_t(ch), w, ch, r, border);
            std::vector<const float *> at(static_cast<std::size_t>(count));
            for (int k = 0; k < count; ++k)
                at[std::size_t(k)] = pad.data() + std::size_t(k) * std::size_t(ch);
            tapSum(out, at.data(), taps.data(), count, n);
        };
        // Column pass, kStep output rows at a time: the same tap order down the column; a row the
        // constant border drops is a zero row (the reference adds t * 0 there too).
        for (int y = y0; y < y1; y += kStep) {
            const int rows = std::min(kStep, y1 - y);
            for (int k = 0; k < count + rows - 1; ++k) {
                const int by = borderIndex(y + k - r, h, border);
                line[std::size_t(k)] = by < 0 ? zero.data() : cache.get(by, rowPass);
            }
            u8 *out[kStep];
            for (int q = 0; q < rows; ++q)
                out[q] = dst.row(y + q);
            tapSumRound(out, rows, line.data(), taps.data(), count, n);
        }
    });
}

} // namespace

void registerGaussian(std::vector<FilterSpec> &out)
{
    FilterSpec f;
    f.name = "gaussian";
    f.title = "Gaussian blur (any sigma)";
    f.plainVerb = "blurring the picture";
    f.description = "Gaussian blur with radius ceil(3 sigma) (sigma 0.3..50: up to 301 taps), done as a row pass "
                    "into a float scratch buffer and a column pass: 2(2r+1) multiply-adds per pixel instead of "
                    "(2r+1)^2. The cost still grows with sigma - the recursive filter's reason to exist.";
    f.params = {{"sigma", "Sigma (px)", "Width of the bell curve; the window reaches 3 sigma on each side.", 2.0, 0.3,
                 50.0, 0.1, false}};
    f.tolerance = 1;
    // OpenCV's 8-bit GaussianBlur sums 16-bit fixed-point weights, each rounded on its own: up to 2 off.
    f.openCv = {OpenCvEquivalent::Call::GaussianBlur, 0, {}, "sigma", {}, 2, {}};
    f.alternative = "recursive_gaussian";
    f.toleranceNote = "±1 per 8-bit channel: the CPU reference runs the same two 1-D passes with the same float "
                      "intermediate and tap order; only fused multiply-adds on the device can move a .5 case";
    f.prepare = [](const FilterParams &p) {
        PreparedFilter prepared;
        prepared.coeffs = gaussianTaps(gaussianSigma(p));
        prepared.radius = int(prepared.coeffs.size() / 2);
        // Sizes separable_local's __local tiles at compile time (one program per radius, not per sigma).
        prepared.defines.push_back("-DGAUSS_RADIUS=" + std::to_string(prepared.radius));
        return prepared;
    };
    f.cpuReference = [](const Image &src, Image &dst, const FilterParams &p, int threads) {
        if (useFastCpuPath(threads))
            gaussianFast(src, dst, gaussianTaps(gaussianSigma(p)), p.border, threads);
        else
            gaussianReference(src, dst, p, threads);
    };
    out.push_back(f);
    FilterSpec &g = out.back();
    g.variants.push_back(VariantSpec{
        .name = "separable",
        .title = "Separable: rows, then columns",
        .kernelFile = "gaussian_separable.cl",
        .passes = {{"gaussian_h", Slot::Src, Slot::TmpA}, {"gaussian_v", Slot::TmpA, Slot::Dst}},
        .tempType = TempType::Float32,
        .description = "Two 1-D passes with the taps in __constant memory: each reads 2r+1 neighbours along its "
                       "axis straight from global memory and relies on the cache for the overlap. The float "
                       "scratch buffer keeps full precision between the passes (one rounding at the end).",
        .seedNote = "Seed 004's lesson carries over: taps in constant memory avoid private-array spills. Seed 000 "
                    "compares this against the recursive (IIR) filter, whose cost does not grow with sigma.",
        .plainWords = "The blur is done in two sweeps - first along the rows, then down the columns - so each pixel needs a few dozen sums instead of hundreds.",
    });
    g.variants.push_back(VariantSpec{
        .name = "separable_local",
        .title = "Separable, passes staged in local memory",
        .kernelFile = "gaussian_separable.cl",
        .passes = {{"gaussian_local_h", Slot::Src, Slot::TmpA}, {"gaussian_local_v", Slot::TmpA, Slot::Dst}},
        .tempType = TempType::Float32,
        .tiledLocal = true,
        .description = "Each pass first copies its work-group's tile plus r pixels of apron on both sides (rows) or "
                       "above and below (columns) into __local memory, waits at a barrier, then reads every tap "
                       "from there. Fewer global reads per pixel ((T+2r)/T instead of 2r+1), but a copy, a barrier "
                       "and a tile that grows with sigma; tile = work-group shape (auto: 16x16).",
        .seedNote = "Seed 004: a local tile gave no gain for 5x5 (1.96 vs 1.63 ms) because L1 served the reads; wide "
                    "kernels reuse each pixel more, so the trade can tip the other way.",
        .plainWords = "The same two sweeps, but each team first copies its patch of the picture into a small fast scratchpad and works from there.",
    });
    g.variants.push_back(VariantSpec{
        .name = "fused_local",
        .title = "Both passes fused in local memory",
        .kernelFile = "gaussian_separable.cl",
        .passes = {{"gaussian_roofline", Slot::Src, Slot::Dst, Geometry::Blocks}},
        .tiledLocal = true,
        .blockWidth = 4,
        .blockHeight = 2,
        .description = "One kernel does both passes, so the float intermediate (4 bytes per channel, written and "
                       "read back by the separable variants: 10 bytes of traffic per gray8 pixel instead of 2) never "
                       "leaves the chip. A work-group owns a tile of (4 x its width) pixels by (its height) rows. "
                       "Its work-items walk down the tile's columns plus r columns of apron on each side, neighbours "
                       "on neighbouring bytes (coalesced), keeping the last 2r+1 input values in registers so each "
                       "byte is read about (rows + 2r) / rows times, and leave the column sums in __local memory; "
                       "then each work-item filters 4 adjacent pixels along the row from there and writes them with "
                       "one store (16 bytes for rgba8888). Columns first, then rows: the float sums round in a "
                       "different order than the reference's rows-then-columns (within the ±1 tolerance). The tile "
                       "needs rows x (4 x width + 2r) x channels floats of __local memory (32 x 76 x 4 floats = 39 KB "
                       "for rgba8888 at sigma 2 with the 16x16 auto shape), so large sigmas are refused with the "
                       "local-memory reason on a 48 KB device. On a GPU it runs no faster than separable_local "
                       "(32x4 groups suit it better than 16x16): saving the scratch buffer's traffic does not "
                       "pay yet, because the column pass issues one byte load and 13 multiply-adds per lane with "
                       "little parallelism per work-item, so the kernel is bound by instruction issue and latency, "
                       "not by memory.",
        .seedNote = "Seed 004 found a local tile useless for a 5x5 window (L1 served the reads); here local memory "
                    "earns its place by replacing a global scratch buffer, not by caching the input.",
        .plainWords = "Both sweeps happen in one go inside each team's fast scratchpad, so the half-finished picture never goes back to the big memory.",
    });
    g.variants.push_back(VariantSpec{
        .name = "strips",
        .title = "Row strips in registers, both passes in one kernel",
        .kernelFile = "gaussian_separable.cl",
        .passes = {{"gaussian_strips", Slot::Src, Slot::Dst, Geometry::Blocks}},
        // gray8: the row loop unrolled twice, not fully (kernels/shared/separable_strips.clh). H100, sigma 2,
        // 6720x4480: 0.1156 ms against 0.1262 (0.1167 against 0.1272 from DRAM); rgba8888 gains nothing
        // (docs/MEASUREMENTS.md, "Session 20").
        .defines = {"SS_ROW_UNROLL_GRAY=2"},
        .formats = {PixelFormat::Gray8, PixelFormat::Rgba8888},
        .blockWidth = 1, // rgb888: not offered (the strips need whole 4-byte words)
        .blockHeight = 32,
        .blockBytesGpu = 16, // gray8: 16 pixels, rgba8888: 4 pixels per work-item and row
        .blockBytesCpu = 16,
        .maxRadius = 8, // sigma <= 2.66: above, 2r rows of strip results no longer fit in registers
        .rowAlign = 16, // odd widths: rows padded to 16 bytes on the device keep the aligned loads
        .preferredLocalGpu = LocalSize{32, 4},
        .preferredLocalCpu = LocalSize{16, 1},
        .description = "The gaussian5x5 strips rung (kernels/shared/separable_strips.clh) for any sigma up to 2.66 "
                       "(radius 8): a work-item owns a strip 16 bytes across and 32 rows down on GPUs (16 x 32 on "
                       "PoCL too), fetches every input "
                       "row once as aligned words (the strip plus r pixels of halo on each side), filters it along "
                       "the row with the 2r+1 taps and keeps the last 2r row results in registers to finish each "
                       "output row down the column. Both passes in one kernel and no float scratch buffer (the "
                       "separable variants write and read back 4 bytes per channel): each input byte is fetched "
                       "(32 + 2r) / 32 times, 2(2r+1) multiply-adds per output byte. Bytes enter as 1 + b/32768 "
                       "through the mantissa and leave through one multiply-add into the mantissa of 2^23 (within "
                       "the filter's ±1). On NVIDIA its time varies from build to build (the compiler's unrolling of "
                       "this large kernel depends on the program around it); 16-byte x 32-row strips beat smaller "
                       "ones at sigma 2, while small sigmas want small strips. In rgba8888 it is slower than "
                       "separable_local: its 24-byte halos cost more loads and selects per row than the scratch "
                       "buffer's traffic. Odd sizes (rows padded on the device, the edge block loaded in place) run "
                       "within a few percent of even ones.",
        .seedNote = "Seed 000 sets the recursive filter against the convolution; this rung is the convolution at "
                    "its best for small sigma, where the recursive filter's fixed cost does not pay yet.",
        .plainWords = "Each worker slides down a narrow strip of the picture and keeps the last few rows it blurred at "
                      "hand, so both sweeps happen in one go and every pixel is fetched from memory about once.",
    });
    // The same strips with the column pass on pairs of 16-bit floats (kernels/shared/separable_strips.clh,
    // SS_YHALF2): half the registers for the rows kept, two output bytes per instruction down the column.
    {
        VariantSpec h = g.variants.back();
        h.name = "strips_half2";
        h.title = "Row strips, the column pass on 16-bit pairs";
        h.defines = {"SS_YHALF2"};
        h.maxRadius = 6; // sigma <= 2: above, the 16-bit column sums could pass one level (the kernel's bound)
        // H100, sigma 2, 6720x4480 (session 20 call 8): gray8 16 x 64 blocks 0.1070 ms (16 x 32 0.1185, 16 x 16
        // 0.253); rgba8888 4 x 32 0.702 (4 x 16 0.750, 4 x 64 0.777). With the row sums packed by one
        // cvt.rn.f16x2.f32 (session 21 call 8): gray8 0.0895, rgba8888 0.639.
        h.blockHeight = 64;
        h.blockHeightGpuRgba = 32;
        h.description =
            "The strips rung with its column pass on pairs of 16-bit floats: each input row is filtered along "
            "the row in 32-bit floats, as in strips, and the results are rounded once to 16 bits and kept two "
            "to a register, so the 2r rows a strip keeps for the column pass take half the room (at sigma 2, "
            "12 rows of 16 bytes: 96 32-bit words instead of 192; strips' float rows spilled out of the "
            "registers on an H100) and the column pass adds two output bytes per instruction. On NVIDIA one "
            "instruction (cvt.rn.f16x2.f32) rounds two row sums into a pair. The rounding "
            "costs at most 1/16 of a level, the 16-bit taps and the 13 roundings down the column at most 0.94 "
            "more, so every output stays within the filter's ±1; larger radii could pass it, so this rung "
            "stops at sigma 2. Elsewhere than NVIDIA (PoCL) the 16-bit arithmetic is emulated, slowly (18x "
            "strips' time on two CPU cores), so that the CPU tests check this very arithmetic.";
        h.seedNote = "Past the seeds: 16-bit float pairs (one f16x2 instruction per two outputs on NVIDIA) where "
                     "the precision they keep is provably enough.";
        h.plainWords = "The same strips, keeping the rows it blurred in half-size numbers: twice as many fit at "
                       "hand, and two pixels are finished per step.";
        g.variants.push_back(h);
    }
    // The same arithmetic with the 2r rows in __local memory instead of registers (gray8, sigma <= 2).
    g.variants.push_back(VariantSpec{
        .name = "tiled_half2",
        .title = "Row results in local memory, the column pass on 16-bit pairs",
        .kernelFile = "gaussian_separable.cl",
        .passes = {{"gaussian_tiled_half2", Slot::Src, Slot::Dst, Geometry::Blocks}},
        .tiledLocal = true,
        .formats = {PixelFormat::Gray8, PixelFormat::Rgba8888},
        .blockWidth = 1,  // a work-group's tile: its width in pixels ...
        .blockHeight = 64, // ... by 64 rows per row of work-items
        .blockHeightGpuRgba = 16, // rgba8888 (4x the bytes across): 0.279 ms at 64x2 against 32 rows' 0.338 (c3, c4)
        .maxRadius = 6, // sigma <= 2: above, the 16-bit column sums could pass one level (strips_half2's bound)
        .rowAlign = 16,
        // H100, sigma 2, 6720x4480 (docs/data/session21-2026-11-27/c13): 64x2 groups (64 x 128 tiles) 0.0696 ms,
        // 64x1 0.0721, 128x1 0.0726, 96x2 0.0759, 192x1 0.0805, 256x1 0.0809; strips_half2 0.0894.
        .preferredLocalGpu = LocalSize{64, 2},
        // rgba8888 (session 22 c5): 32x4 0.259 ms, 16x8 0.264, 64x2 0.279 at 16 rows a work-item; gray8 at 32x4
        // 0.081-0.099. With four-byte column tasks (session 23 c3, GT_MANT on there): 32x4 0.206, 32x8 at 8 rows
        // 0.212, 64x2 0.223, 16x8 0.225, 32x4 at 32 rows 0.225.
        .preferredLocalGpuRgba = LocalSize{32, 4},
        .preferredLocalCpu = LocalSize{64, 1},
        .description =
            "strips_half2's arithmetic with the rows it keeps for the column pass in local memory instead of "
            "registers (gray8 and rgba8888, sigma up to 2). A work-group owns a tile (its width in pixels by 64 rows per row "
            "of work-items; on GPUs 64 x 128 in gray8, 32 x 64 in rgba8888). First every input row of the tile, with r "
            "more above and below, is filtered along the row in 32-bit floats, 32 bytes per task (rgba8888: each "
            "channel with its own neighbours, 4 bytes apart, a channel pair at a time), and rounded once to pairs of 16-bit "
            "floats in local memory; after a barrier each work-item slides down a column of part of the tile (gray8: "
            "two bytes wide; rgba8888: four, one pixel, so that a row's address, check and store serve four "
            "outputs), its 2r+1-row window in registers, one f16x2 multiply-add per two outputs and tap. The strips "
            "keep 12 rows of 8 pairs in each work-item's registers at sigma 2, so few warps fit a multiprocessor "
            "and memory latency shows; here the kernel needs 64 to 96 registers on an H100 at sigma 2, by its form. Within the filter's ±1 by the "
            "same bound as strips_half2. Edge chunks and rows not on 16-byte boundaries (tiles, mapped memory) "
            "load byte by byte. Elsewhere than NVIDIA (PoCL) the 16-bit arithmetic is emulated, slowly, so that "
            "the CPU tests check this very arithmetic.",
        .seedNote = "Seed 004 found a local tile useless as a cache for a 5x5 window; here local memory holds what "
                    "registers cannot: the rows a 13-tap column pass needs.",
        .plainWords = "Each team blurs its patch of rows into its shared scratchpad first, then every worker finishes "
                      "a thin column from there, so the workers need little room of their own and many work at once.",
    });
    // Both passes as 16-bit matrix products (NVIDIA's tensor cores from sm_80; a portable emulation elsewhere).
    g.variants.push_back(VariantSpec{
        .name = "tensor_f16",
        .title = "Both passes as 16-bit matrix products (tensor cores on NVIDIA)",
        .kernelFile = "gaussian_tensor.cl",
        .passes = {{"gaussian_tensor_f16", Slot::Src, Slot::Dst, Geometry::Blocks}},
        .tiledLocal = true,
        .usesNvidiaArch = true,
        .formats = {PixelFormat::Gray8, PixelFormat::Rgba8888},
        .blockWidth = 1,   // a work-group's tile: its width in pixels ...
        .blockHeight = 64, // ... by 64 rows per row of work-items (GPUs at 128x1: four warps, eight 16-pixel columns
                           // of 64 rows, two each)
        .maxRadius = 6, // sigma <= 2: a channel's window is 8 pixels a side (the kernel's bound)
        .rowAlign = 16,
        // H200, sigma 2, 6720x4480 (docs/data/session27-2026-11-28/c1): gray8 128x1 at 64 rows 0.0480 ms (32 rows
        // 0.0539; 256x1 0.0495, 64x2 0.0541); rgba8888 128x1 at 64 rows 0.1437 (64x1 0.1437, 16x8 at 32 0.1494,
        // 32x4 at 32 0.1483, 64x2 at 64 0.1619, at 128 0.2124).
        .preferredLocalGpu = LocalSize{128, 1},
        .preferredLocalCpu = LocalSize{32, 1},
        .description =
            "A separable filter is two matrix products: the row pass multiplies a band of taps (one output per matrix "
            "row) by the row's pixels, the column pass multiplies the taps by the row results. Here both run as 16-bit "
            "float products with 32-bit sums, 16 x 16 by 16 x 8 each, which NVIDIA's tensor cores do in one warp-wide "
            "instruction (mma.sync, sm_80 and later): a warp slides down a column 16 pixels across, 16 rows a step, "
            "filters 8 input rows per product along the row, one channel at a time (rgba8888 gathers a channel's "
            "bytes of four pixels by byte permutes, so every channel uses the same tap matrix and the products carry "
            "no zeros between a channel's bytes), and feeds the results, as they sit in its registers, to the column "
            "products: no local memory, no shuffle; a work-item loads 8 pixels and stores 4 a row. Every sum is exact "
            "(taps in multiples of 2^-14 along the row and 2^-13 down, row results in eighths), so the result is the "
            "same bytes however the products are added, on any device and in tiles; the rounded taps and row results "
            "cost at most 0.61 of a level: within the filter's ±1. "
            "Elsewhere (PoCL, NVIDIA before sm_80) the warp's work-items compute each product through local memory "
            "from the very same operands, slowly, so that the CPU tests check what the tensor cores are given.",
        .seedNote = "Past the seeds: the seeds' arithmetic units do one multiply-add per output and tap; a tensor core "
                    "does a 16 x 16 by 16 x 8 product at once, so a 13-tap blur costs about what a copy of the picture does.",
        .plainWords = "The blur written as a table of weights times a table of pixels: NVIDIA's matrix units, made for "
                      "neural networks, multiply such tables a whole block at a time; other chips work through the same "
                      "sums one by one.",
    });
}

} // namespace fwb
