// gaussian5x5 (seed 004's ladder of five kernel variants plus a vectorised one; kernels/gaussian5x5/gaussian5x5.cl):
// catalogue entry, its CPU reference convolve2D() (CpuReference.cpp), the exact multi-threaded path that checks
// use (guard-band floats) and the fast CPU path, the speed baseline (fixed point, within ±1; below).
#include "Catalogue.h"
#include "CpuReference.h"
#include "families/shared/CpuRows.h"
#include "families/shared/FastCpu.h"
#include "families/shared/Stream3x3.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace fwb {

namespace {

// The 5 normalised 1-D taps for sigma, as floats.
std::vector<float> gaussian5x5Taps(double sigma)
{
    double g[5], sum = 0;
    for (int i = 0; i < 5; ++i) {
        g[i] = std::exp(-double((i - 2) * (i - 2)) / (2.0 * sigma * sigma));
        sum += g[i];
    }
    std::vector<float> taps(5);
    for (int i = 0; i < 5; ++i)
        taps[std::size_t(i)] = float(g[i] / sum);
    return taps;
}

// The 25 products of the float taps (the exact values every 2-D variant and the CPU reference use).
std::vector<float> gaussian5x5Weights(double sigma)
{
    const std::vector<float> g = gaussian5x5Taps(sigma);
    std::vector<float> w(25);
    for (int dy = 0; dy < 5; ++dy)
        for (int dx = 0; dx < 5; ++dx)
            w[std::size_t(dy * 5 + dx)] = g[std::size_t(dy)] * g[std::size_t(dx)];
    return w;
}

using namespace fastcpu;

// Exact path (FilterSpec::cpuExact: what checks compare with): the separable form of the oracle's 2-D sum,
// with a guard band that keeps it bit-identical.
//
// The oracle (convolve2D) adds the 25 products fl(g[dy] g[dx]) * p to 0 in (dy, dx) order, in float;
// the separable form sums g[dx] * p along the row, then g[dy] * that down the column: 10 products and
// short chains of additions instead of 25 products in one dependent chain. Both are within a few float
// roundings of the same real sum S = sum g[dy] g[dx] p: the oracle within 26 u * 255 (two roundings per
// product, 24 additions, |terms| summing to at most 255 (1 + 5u)^2; u = 2^-24), the separable form
// within 10 u * 255 (five per pass), so they differ by at most 36 * 255 * 2^-24 = 5.5e-4 - with or
// without fused multiply-adds. The passes below also pair the symmetric taps (g0 = g4, g1 = g3: the taps
// come from exp(-k^2)): g2 p2 + g1 (p1 + p3) + g0 (p0 + p4), 3 products instead of 5. Along the row the
// pair sums are exact (integers <= 510): at most 3 roundings a term; down the column each pair sum rounds
// once more: at most 4. That is 7 u * 255 in all, within the 10 above, so the same band holds.
// Rounding (int(v + 0.5f)) can therefore tell them apart only where the sum lies within that of a
// boundary k + 0.5. Every pixel within kGuard = 1/1024 (1.8x the bound; the final + 0.5 adds one
// rounding of at most 1.5e-5) of one is recomputed with the oracle's own 25 operations in its order
// (from the padded rows, where the border rule's zeros add w * 0 = +0, which the oracle skips: the same
// bits); every other pixel takes
// the separable result, which is then the oracle's byte. tst_cpureference's exactEqualsOracle checks it
// byte for byte (every format, border and sigma extreme, the card and noise). About 1 pixel in 512 of
// noise is recomputed. (Fusing the 25 operations into one sweep instead, exact by construction, ran
// 2.4-2.7x OpenCV's time at 3840x2160 on 2 cores; this form does less than half the work. This one ran
// 2.0x (gray8) and 2.2x (rgba8888): its column pass is bound by the rounding and the guard's flags, so
// the speed baseline is the fixed-point path below.)
constexpr float kGuard = 1.0f / 1024.0f;

FWB_VECTOR_CLONES
void toFloatRow(const u8 *__restrict in, float *__restrict out, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i)
        out[i] = float(in[i]);
}

// out[i] = g0 p[i] + g1 p[i + ch] + ... + g4 p[i + 4ch] over a row padded by 2 pixels each side, the
// symmetric taps paired.
FWB_VECTOR_CLONES
void gauss5RowPass(const float *__restrict pad, float *__restrict out, std::size_t n, std::size_t ch, const float *g)
{
    const float g0 = g[0], g1 = g[1], g2 = g[2];
    const float *p0 = pad, *p1 = pad + ch, *p2 = pad + 2 * ch, *p3 = pad + 3 * ch, *p4 = pad + 4 * ch;
    for (std::size_t i = 0; i < n; ++i)
        out[i] = g2 * p2[i] + g1 * (p1[i] + p3[i]) + g0 * (p0[i] + p4[i]);
}

// Column pass (the taps paired) and rounding: out = the rounded separable sum; near[i] = 1 where it lies
// within kGuard of a rounding boundary (the caller recomputes those). Returns whether any did.
FWB_VECTOR_CLONES
bool gauss5ColPass(const float *__restrict r0, const float *__restrict r1, const float *__restrict r2,
                   const float *__restrict r3, const float *__restrict r4, const float *g, u8 *__restrict out,
                   u8 *__restrict near, std::size_t n)
{
    const float g0 = g[0], g1 = g[1], g2 = g[2];
    int any = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const float v = g2 * r2[i] + g1 * (r1[i] + r3[i]) + g0 * (r0[i] + r4[i]) + 0.5f;
        const int k = int(v); // v in [0.5, 256.5): truncation is floor
        const float frac = v - float(k);
        const int close = int(frac < kGuard) | int(frac > 1.0f - kGuard);
        near[i] = u8(close);
        any |= close;
        out[i] = u8(k > 255 ? 255 : k);
    }
    return any != 0;
}

void gaussian5x5Exact(const Image &src, Image &dst, double sigma, BorderMode border, int threads)
{
    const std::vector<float> g = gaussian5x5Taps(sigma);
    const std::vector<float> w = gaussian5x5Weights(sigma);
    const int width = src.width(), h = src.height(), ch = src.channels();
    const std::size_t n = std::size_t(width) * std::size_t(ch);
    const std::size_t padLen = n + 4 * std::size_t(ch);
    parallelRows(h, threads, [&](int y0, int y1) {
        // Both caches hold the same source rows in the same slots (6 consecutive row numbers at a time).
        RowCache<float> raw(6, padLen); // padded float copies of the source rows
        RowCache<float> rows(6, n);     // their row-pass results
        const std::vector<float> zero(padLen, 0.0f);
        std::vector<u8> nearBuf(2 * n);
        auto padded = [&](int sy, float *out) {
            toFloatRow(src.row(sy), out + 2 * std::size_t(ch), n);
            padInPlace(out + 2 * std::size_t(ch), width, ch, 2, border);
        };
        auto rowPass = [&](int sy, float *out) { gauss5RowPass(raw.get(sy, padded), out, n, std::size_t(ch), g.data()); };
        // Two output rows at a time, a span of each in turn: their windows share 4 of their 6 rows, so
        // the second row's span reads them from L1.
        constexpr std::size_t kSpan = 512;
        for (int y = y0; y < y1; y += 2) {
            const int count = std::min(2, y1 - y);
            const float *r[6];
            for (int k = 0; k < 4 + count; ++k) {
                const int by = borderIndex(y + k - 2, h, border);
                r[k] = by < 0 ? zero.data() : rows.get(by, rowPass);
            }
            bool any[2] = {false, false};
            for (std::size_t i0 = 0; i0 < n; i0 += kSpan) {
                const std::size_t len = std::min(kSpan, n - i0);
                for (int q = 0; q < count; ++q)
                    any[q] |= gauss5ColPass(r[q] + i0, r[q + 1] + i0, r[q + 2] + i0, r[q + 3] + i0, r[q + 4] + i0,
                                            g.data(), dst.row(y + q) + i0, nearBuf.data() + std::size_t(q) * n + i0,
                                            len);
            }
            for (int q = 0; q < count; ++q) {
                if (!any[q])
                    continue;
                const float *p[5];
                for (int k = 0; k < 5; ++k) {
                    const int by = borderIndex(y + q + k - 2, h, border);
                    p[k] = by < 0 ? zero.data() : raw.get(by, padded);
                }
                const u8 *near = nearBuf.data() + std::size_t(q) * n;
                u8 *out = dst.row(y + q);
                for (std::size_t i0 = 0; i0 < n; i0 += 8) { // eight flags at a time: most words are 0
                    const std::size_t len = std::min<std::size_t>(8, n - i0);
                    std::uint64_t word = 0;
                    std::memcpy(&word, near + i0, len);
                    if (word == 0)
                        continue;
                    for (std::size_t i = i0; i < i0 + len; ++i)
                        if (near[i]) { // the oracle's sum: dy outer, dx inner, from 0
                            float acc = 0.0f;
                            for (int dy = 0; dy < 5; ++dy)
                                for (int dx = 0; dx < 5; ++dx)
                                    acc += w[std::size_t(dy * 5 + dx)] * p[dy][i + std::size_t(dx) * std::size_t(ch)];
                            out[i] = roundToU8(acc);
                        }
                }
            }
        }
    });
}

// Fast path (the multi-threaded speed baseline): fixed point in 16-bit lanes, as OpenCV's 8-bit
// GaussianBlur does it, within ±1 of the oracle (the filter's tolerance), not bit-identical.
//
// The 1-D taps are quantised to b_i / 65536: b0, b1 (= b4, b3) rounded to nearest, b2 = 65536 - 2 b0 - 2 b1
// so that they sum to exactly 1 (b2 = 65535 when it would be 65536, only where b0 = b1 = 0: sigma below
// about 0.21). Every product is a 16x16-bit multiply keeping the high half (pmulhuw), floored:
//   row pass:    R = hi((p2 << 7) b2) + hi(((p1 + p3) << 7) b1) + hi(((p0 + p4) << 7) b0)
//                   (the paired bytes << 7 are <= 510 * 128 = 65280, so they fit; R is in 1/128ths of a
//                   level, R <= 255 * 128 = 32640, and R1 + R3 <= 65280 fits too)
//   column pass: T = hi(R2 b2) + hi((R1 + R3) b1) + hi((R0 + R4) b0), out = (T + 64 + k) >> 7.
// Worst case against the real sum S = sum g[dy] g[dx] p of the float taps g (as the exact path's comment):
//  - truncation: each floor loses [0, 1) unit (1/128 level), and nothing where its tap is 0; with k <= 3
//    taps of b0, b1, b2 non-zero, R lies in (R* - k, R*] of its real value R*, so T lies in
//    (T* - k sum(b)/65536 - k, T*] within (T* - 2k, T*], T* = 128 sum Q[dy] Q[dx] p (Q = b / 65536). The
//    + 64 + k (half a level, and k to centre that) makes (T + 64 + k) / 128 - 1/2 lie within k/128 <= 3/128
//    = 0.0234 of T*/128. (It leaves a bias of half a unit, 1/256 level: a value on the grid's midpoint
//    rounds up. On noise about 0.4% of the bytes differ from the oracle, nine in ten of them by +1.)
//  - quantisation: |e_i| = |Q_i - g_i| <= 2^-17 for i = 0, 1 (and 3, 4), |e_2| <= 4 * 2^-17 + 2^-16 (+ the
//    float taps' own sum error, ~2^-22), so E = sum |e_i| <= 5 * 2^-16; sum |Q Q - g g| <= 2E + E^2 and
//    |T*/128 - S| <= 255 (2E + E^2) = 0.039.
//  - the oracle's float sum lies within 26 u 255 = 4e-4 of S (the exact path's comment).
// So the value this path rounds (floor of v + 1/2) is within 0.063 of the value the oracle rounds: the two
// bytes differ by at most 1, and only where the sum lies within 0.063 of a rounding boundary j + 0.5.
// Both ends stay in range: T + 64 + k <= 32640 + 67 < 65536 and its >> 7 <= 255. A constant picture c
// maps to c exactly: T* = 128 c (sum Q)^2 >= 128 c - 1 (b2 = 65535 included), so 128 c + 60 < T + 64 + k
// <= 128 c + 67; opaque alpha stays 255. tst_cpureference's gaussian5x5FixedPoint* tests check the
// bound, the constants and the bias.
struct FixedTaps
{
    std::uint16_t b0, b1, b2;
    std::uint16_t bias; // 64 + k
};

FixedTaps gaussian5x5FixedTaps(const std::vector<float> &g)
{
    const long b0 = std::lround(double(g[0]) * 65536.0), b1 = std::lround(double(g[1]) * 65536.0);
    const long b2 = std::min(65536L - 2 * b0 - 2 * b1, 65535L);
    const int nonZero = int(b0 != 0) + int(b1 != 0) + int(b2 != 0);
    return {std::uint16_t(b0), std::uint16_t(b1), std::uint16_t(b2), std::uint16_t(64 + nonZero)};
}

inline std::uint16_t mulHigh(std::uint16_t a, std::uint16_t b) // compiles to pmulhuw
{
    return std::uint16_t((std::uint32_t(a) * std::uint32_t(b)) >> 16);
}

FWB_VECTOR_CLONES
void gauss5RowFixed(const u8 *__restrict pad, std::uint16_t *__restrict out, std::size_t n, std::size_t ch,
                    FixedTaps t)
{
    const u8 *p0 = pad, *p1 = pad + ch, *p2 = pad + 2 * ch, *p3 = pad + 3 * ch, *p4 = pad + 4 * ch;
    for (std::size_t i = 0; i < n; ++i)
        out[i] = std::uint16_t(mulHigh(std::uint16_t(p2[i] << 7), t.b2)
                               + mulHigh(std::uint16_t((p1[i] + p3[i]) << 7), t.b1)
                               + mulHigh(std::uint16_t((p0[i] + p4[i]) << 7), t.b0));
}

FWB_VECTOR_CLONES
void gauss5ColFixed(const std::uint16_t *__restrict r0, const std::uint16_t *__restrict r1,
                    const std::uint16_t *__restrict r2, const std::uint16_t *__restrict r3,
                    const std::uint16_t *__restrict r4, FixedTaps t, u8 *__restrict out, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i)
        out[i] = u8((mulHigh(r2[i], t.b2) + mulHigh(std::uint16_t(r1[i] + r3[i]), t.b1)
                     + mulHigh(std::uint16_t(r0[i] + r4[i]), t.b0) + t.bias)
                    >> 7);
}

void gaussian5x5Fixed(const Image &src, Image &dst, double sigma, BorderMode border, int threads)
{
    const FixedTaps t = gaussian5x5FixedTaps(gaussian5x5Taps(sigma));
    const int width = src.width(), h = src.height(), ch = src.channels();
    const std::size_t n = std::size_t(width) * std::size_t(ch);
    parallelRows(h, threads, [&](int y0, int y1) {
        std::vector<u8> pad(n + 4 * std::size_t(ch));
        RowCache<std::uint16_t> rows(5, n); // a window's rows (reflected ones too) lie in [y - 2, y + 2]
        const std::vector<std::uint16_t> zero(n, 0);
        auto rowPass = [&](int sy, std::uint16_t *out) {
            std::memcpy(pad.data() + 2 * std::size_t(ch), src.row(sy), n);
            padInPlace(pad.data() + 2 * std::size_t(ch), width, ch, 2, border);
            gauss5RowFixed(pad.data(), out, n, std::size_t(ch), t);
        };
        for (int y = y0; y < y1; ++y) {
            const std::uint16_t *r[5];
            for (int k = 0; k < 5; ++k) {
                const int by = borderIndex(y + k - 2, h, border);
                r[k] = by < 0 ? zero.data() : rows.get(by, rowPass);
            }
            gauss5ColFixed(r[0], r[1], r[2], r[3], r[4], t, dst.row(y), n);
        }
    });
}

} // namespace

void registerGaussian5x5(std::vector<FilterSpec> &out)
{
    FilterSpec f;
    f.name = "gaussian5x5";
    f.title = "Gaussian blur 5x5";
    f.plainVerb = "blurring the picture";
    f.description = "Weighted average of the 5x5 neighbourhood (25 reads per pixel). The ladder of "
                    "seed 004 (Fixstars): the same arithmetic written five ways, to show what the compiler "
                    "and the memory system make of each, plus a sixth that gives each work-item four pixels, then "
                    "rungs that run it near the memory limit (row strips in registers, in 32- or 16-bit floats) "
                    "and one shaped for CPUs.";
    f.params = {{"sigma", "Sigma (px)", "Width of the bell curve: larger blurs more (the 5x5 window limits it).",
                 1.0, 0.1, 10.0, 0.1, false}};
    f.tolerance = 1;
    // OpenCV rounds .5 cases its own way (fixed point, cvRound), and its 8-bit GaussianBlur sums 16-bit
    // fixed-point weights, each rounded on its own: up to 2 off (measured on the test card).
    f.openCv = {OpenCvEquivalent::Call::GaussianBlur, 2, {}, "sigma", {}, 2, {}};
    f.toleranceNote = "±1 per 8-bit channel: float sums in a different order (or fused multiply-add) can round "
                      "a .5 case the other way";
    f.lessonFilter = true; // seed 004's story: the guided lesson and the helper-overhead measurement
    f.prepare = [](const FilterParams &p) {
        const FilterSpec *self = findFilter("gaussian5x5");
        PreparedFilter prepared;
        const double sigma = self ? self->param(p, "sigma") : 1.0;
        prepared.coeffs = gaussian5x5Weights(sigma);
        prepared.radius = 2;
        char define[80];
        for (int i = 0; i < 25; ++i) {
            std::snprintf(define, sizeof define, "-DFWB_W%d=%af", i, double(prepared.coeffs[std::size_t(i)]));
            prepared.defines.emplace_back(define);
        }
        // The 1-D taps whose products are the weights, for the strips rungs (separable).
        const std::vector<float> taps = gaussian5x5Taps(sigma);
        for (int i = 0; i < 5; ++i) {
            std::snprintf(define, sizeof define, "-DFWB_G%d=%af", i, double(taps[std::size_t(i)]));
            prepared.defines.emplace_back(define);
        }
        return prepared;
    };
    f.cpuReference = [](const Image &src, Image &dst, const FilterParams &p, int threads) {
        const FilterSpec *self = findFilter("gaussian5x5");
        const double sigma = self ? self->param(p, "sigma") : 1.0;
        if (useFastCpuPath(threads))
            gaussian5x5Fixed(src, dst, sigma, p.border, threads);
        else
            convolve2D(src, dst, gaussian5x5Weights(sigma), 2, p.border, threads);
    };
    f.cpuExact = [](const Image &src, Image &dst, const FilterParams &p, int threads) {
        const FilterSpec *self = findFilter("gaussian5x5");
        gaussian5x5Exact(src, dst, self ? self->param(p, "sigma") : 1.0, p.border, threads);
    };
    out.push_back(f);
    FilterSpec &g = out.back();
    g.variants.push_back(VariantSpec{
        .name = "private_array",
        .lessonRole = LessonRole::Spill,
        .title = "Private array, runtime loop bound",
        .kernelFile = "gaussian5x5.cl",
        .passes = {{"gaussian5x5_private_array"}},
        .description = "The weights sit in an array declared inside the kernel, and the loop bound is a kernel "
                       "argument. The compiler cannot turn the array indices into constants, so the array is "
                       "stored in per-work-item private memory, which on GPUs lives off-chip: every weight costs "
                       "an extra memory read, and the loop cannot be unrolled. Expect it to be the slowest.",
        .seedNote = "Seed 004 (RTX 2060, 6720x4480 gray): 14.36 ms, 5.5x slower than the unrolled port; the PTX "
                    "shows st.local/ld.local spills.",
        .plainWords = "Each worker first copies the 25 blur weights into its own scratch pad, which turns out to be slow: the scratch pad lives far away in main memory.",
    });
    g.variants.push_back(VariantSpec{
        .name = "unrolled_constant",
        .isBaseline = true,
        .lessonRole = LessonRole::None,
        .title = "Unrolled, weights folded in",
        .kernelFile = "gaussian5x5.cl",
        .passes = {{"gaussian5x5_unrolled"}},
        .description = "The window size is fixed at compile time, so the compiler unrolls both loops and writes "
                       "every weight into the instructions themselves. What is left is 25 loads and 25 "
                       "multiply-adds per pixel - the baseline the others are measured against.",
        .seedNote = "Seed 004: 2.605 ms (25.7x the 67 ms OpenMP CPU); 19 ms with transfers.",
        .plainWords = "The 25 multiplications are written out one by one, so the graphics chip never has to stop and look up what comes next.",
    });
    g.variants.push_back(VariantSpec{
        .name = "constant_memory",
        .isBaseline = false,
        .lessonRole = LessonRole::SpillFix,
        .title = "Constant memory, runtime loop bound",
        .kernelFile = "gaussian5x5.cl",
        .passes = {{"gaussian5x5_constant"}},
        .description = "The weights live in the device's __constant memory (cached and broadcast to all "
                       "work-items) and the loop bound stays a runtime argument. No spill, but the loop is not "
                       "unrolled, so the loop counting and address arithmetic remain.",
        .seedNote = "Seed 004: 3.48 ms - much faster than the private array, 1.34x slower than unrolled.",
        .plainWords = "The blur weights sit in a small shared shelf every worker can reach quickly, and each worker loops over them.",
    });
    g.variants.push_back(VariantSpec{
        .name = "local_tiled",
        .isBaseline = false,
        .lessonRole = LessonRole::None,
        .title = "Local-memory tile",
        .kernelFile = "gaussian5x5.cl",
        .passes = {{"gaussian5x5_local"}},
        .tiledLocal = true,
        .tileHalo = 2,
        .description = "Each work-group first copies its tile of the image plus a 2-pixel border into fast "
                       "on-chip __local memory, waits at a barrier, then reads all 25 neighbours from there. "
                       "It saves global reads, but the hardware cache already does most of that, and the copy "
                       "plus barrier costs time. The tile size equals the work-group shape (auto: 16x16).",
        .seedNote = "Seed 004: no gain - 1.96 ms with shared memory vs 1.63 ms without (L1 cache already hits).",
        .plainWords = "Each team of workers first copies its patch of the picture into a small shared table, then blurs from there instead of from main memory.",
    });
    g.variants.push_back(VariantSpec{
        .name = "image2d",
        .title = "Image object + sampler",
        .kernelFile = "gaussian5x5.cl",
        .passes = {{"gaussian5x5_image"}},
        .usesImages = true,
        .formats = {PixelFormat::Gray8, PixelFormat::Rgba8888},
        .description = "Reads pixels through an image2d_t and a sampler - the texture path, with its own cache "
                       "laid out for 2-D neighbourhoods. Borders are remapped in the kernel so every border "
                       "mode stays exact. Needs image support; rgb888 has no OpenCL image format.",
        .seedNote = "Seed 000 recommends image objects for some access patterns; seed 004 did not measure it.",
        .plainWords = "The picture is handed to the graphics chip's texture unit, the part built for looking up nearby pixels in games.",
    });
    g.variants.push_back(VariantSpec{
        .name = "vectorized",
        .title = "Four pixels per work-item, vector loads",
        .kernelFile = "gaussian5x5.cl",
        .passes = {{"gaussian5x5_vectorized", Slot::Src, Slot::Dst, Geometry::PixelsX4}},
        .description = "Each work-item computes four neighbouring pixels of a row instead of one, so a quarter as "
                       "many work-items run. The four 5x5 windows overlap: per row they need only 8 input pixels, "
                       "read with one or two wide vector loads (8 or 24 bytes; rgba8888 as eight whole 4-byte "
                       "pixels) instead of 20 single reads, and the four results are written with one wide store. "
                       "Weights are folded in as in the unrolled variant. Why: on a large GPU the "
                       "one-pixel-per-work-item unrolled kernel reaches about a tenth of the device's copy "
                       "bandwidth - one byte of output per work-item is too little work per memory "
                       "transaction. Near the image edges, and for the last group when the width is not a "
                       "multiple of 4, pixels are read one by one with the border rule, so every border mode "
                       "stays exact.",
        .seedNote = "Seed 002 recommends 128-bit (float4) accesses; in seed 003 the float4 step took the kernel "
                    "from 13.5 to 32 GFLOPS once the conversions were hoisted out of the loop.",
        .plainWords = "Each worker computes four neighbouring pixels at once, so the picture is read in bigger gulps.",
    });
    g.variants.push_back(VariantSpec{
        .name = "strips",
        .title = "Row strips in registers, wide loads, edges on the fast path",
        .kernelFile = "gaussian5x5.cl",
        .passes = {{"gaussian5x5_roofline", Slot::Src, Slot::Dst, Geometry::Blocks}},
        .blockWidth = 16, // rgb888: the first roofline kernel (16-byte chunks, roofline.clh)
        .blockHeight = 8,
        .blockBytesGpu = 8, // gray8 and rgba8888: separable_strips.clh, 8 bytes per work-item and row
        .blockBytesCpu = 16, // PoCL vectorises across work-items; 16-byte strips ran faster there
        .rowAlign = 16, // odd widths: rows padded to 16 bytes on the device keep the aligned loads
        .preferredLocalGpu = LocalSize{32, 4},
        .preferredLocalCpu = LocalSize{16, 1},
        .description = "Each work-item owns a strip 8 bytes across (8 gray8 pixels, 2 rgba8888 pixels) and 8 rows "
                       "down. It walks down the strip and fetches every input row once, as one aligned 8-byte "
                       "load plus the 2-pixel halo on each side, filters it along the row with the five 1-D taps "
                       "(the 25 weights are their products), keeps the last four row results in registers and "
                       "combines five of them down the column: each input byte is fetched (8+4)/8 = 1.5 times "
                       "instead of 25, with 10 multiply-adds per output byte instead of 25, and each output row "
                       "leaves in one 8-byte store. Neighbouring work-items own neighbouring bytes, so a warp "
                       "reads one contiguous span of each row. Against the first version of this rung (16 float "
                       "lanes per row, half as fast): small strips need few registers, so more warps are in flight; "
                       "the work-items at the left and right image edges stay on the fast path (the border "
                       "rule's pixels already sit in the loaded block: compile-time selects), where they used to "
                       "read pixel by pixel and hold up their whole warp; bytes enter the sums as 1 + b/32768 "
                       "through the mantissa (one byte permute, exact) and leave through one multiply-add into "
                       "the mantissa of 2^23, instead of quarter-rate int/float conversions. Odd sizes: rows padded to 16 bytes on the device, and the block "
                       "over the right edge loads in place like every other (its bytes past the width are padding, "
                       "replaced by the border rule's pixels in registers), in a copy of the strip that only the "
                       "work-groups at the edge run, so odd sizes run as fast as even ones (moving the block back to end "
                       "at the edge and loading shifted words was a quarter slower). What is left between this and a "
                       "copy is instruction issue (by count about 20 operations per output byte).",
        .seedNote = "Seed 004's lesson pushed to the memory limit: the 2.605 ms port moved each byte far more than "
                    "twice; this rung aims at the 2 bytes per pixel a stencil needs (60 MB at 6720x4480 gray8).",
        .plainWords = "Each worker handles a whole block of pixels and keeps the rows it needs at hand, so every pixel is fetched from memory about once: as fast as memory can go.",
    });
    // The same strips with the arithmetic in pairs of 16-bit floats (kernels/shared/separable_strips.clh, SS_HALF2).
    {
        VariantSpec h = g.variants.back();
        h.name = "strips_half2";
        h.title = "Row strips, two pixels per instruction (16-bit floats)";
        // rgba8888 on NVIDIA: the row loop unrolled 4 times, not fully (kernels/shared/separable_strips.clh):
        // H200 cold build 6.6-13.1 -> 2.0 s and the kernel 4% faster (docs/data/session30-2026-11-29/c6).
        h.defines = {"SS_HALF2", "SS_ROW_UNROLL_RGBA=4"};
        h.formats = {PixelFormat::Gray8, PixelFormat::Rgba8888};
        // H100, 6720x4480: rgba8888 16 bytes (4 pixels) x 8 rows in 16x8 groups 0.165 ms, against 0.169 in
        // 32x4, 0.206 at 8 bytes (its 8-byte halos doubled the loads), 0.192 at 4x4, 0.243 at 4x16; gray8
        // 8 bytes 0.041 (16 bytes 0.045, 8x4 0.047, 4x8 0.053), 16x8 groups within 1% of 32x4.
        h.blockBytesGpuRgba = 16;
        h.preferredLocalGpu = LocalSize{16, 8};
        h.plainWords = "Like the strips version, but the sums are kept as short numbers packed in pairs, so each "
                       "step of arithmetic blurs two pixels at once; a pixel may come out one shade off, as with "
                       "other versions.";
        h.description = "The strips rung (8 rows down, each input row fetched once; 8 gray8 pixels or 4 "
                        "rgba8888 pixels across on GPUs) with the "
                        "arithmetic in pairs of 16-bit floats: on NVIDIA one fma.rn.f16x2 instruction does the "
                        "multiply-add for two output bytes, where the strips rung spends one 32-bit FMA on each "
                        "and is bound by instruction issue. Bytes enter exactly (1024 + b is a 16-bit float whose "
                        "low bits are b: one byte permute and one packed subtract per two bytes), the taps are "
                        "rounded to 16 bits and every sum to 11 significant bits: at most 0.44 of a level off after "
                        "the row pass and 0.88 after the column pass, so the result is within ±1 of the exact "
                        "one, the filter's stated tolerance. The column pass saturates to [0, 1] on the taps / 255, "
                        "and one more packed multiply-add (x 255 + 1024) rounds to the byte in the low bits of each "
                        "half: no clamps or conversions. Elsewhere (PoCL) the same 16-bit values and roundings are "
                        "emulated with 32-bit floats, slowly, so that the CPU tests check this very arithmetic. "
                        "On GPUs rgba8888 takes 16 bytes across: with 8, the 8-byte halos on both sides tripled the "
                        "bytes loaded per row. What is left is no longer arithmetic: ptxas gives the gray8 strip 64 "
                        "registers (half the SM's threads in flight), and capping the registers did not pay.";
        h.seedNote = "";
        g.variants.push_back(h);
    }
    g.variants.push_back(stream3x3Variant(VariantSpec{
        .name = "stream",
        .title = "Streaming 5x5: every row's loads at once, two pixels per instruction",
        .kernelFile = "gaussian5x5.cl",
        .passes = {{"gaussian5x5_stream", Slot::Src, Slot::Dst, Geometry::Blocks}},
        // H100, 6720x4480 (16x8 groups): gray8 4 rows down 0.0365 ms, 8 rows 0.0389, 2 rows 0.0437; rgba8888 8
        // rows 0.1178, 4 rows 0.1275, 2 rows 0.1685 (docs/data/session18-2026-11-27/c2).
        .blockHeightGpuRgba = 8,
        .description = "The streaming rung of the 3x3 filters with a 5x5 window (gray8 and rgba8888): strips 16 bytes "
                       "across and 4 rows down (8 in rgba8888 on GPUs), each input row three aligned 16-byte loads (the strip's vector "
                       "and its neighbours, mostly served by the cache), rows outside following the border rule by "
                       "index arithmetic and the border rule's pixels put in by constant lanes at a row's ends, so "
                       "the compiler may issue every row's loads at once. The arithmetic is strips_half2's, "
                       "operation for operation (pairs of 16-bit floats, five multiply-adds along x and five down "
                       "y, within ±1 of the exact result); each vector's bytes are converted to pairs once (one byte "
                       "permute and one subtraction a pair) and the views one and two pixels over are taken from "
                       "the pairs; one byte permute packs two output pairs into a word (H200: rgba8888 0.1123 -> "
                       "0.0836 ms, gray8 0.0354 -> 0.0284, against shifts and masks). Elsewhere than NVIDIA (PoCL) the "
                       "16-bit arithmetic is emulated, slowly, so that the CPU tests check it."
                       " Every row's loads at once on NVIDIA; elsewhere (PoCL, other GPUs) the rows run in one rolled loop: the same bytes for a fifth of the compile time.",
        .plainWords = "Each worker asks for all the rows it needs at once and works on two pixels with every step.",
    }));
    g.variants.push_back(cpuRowsVariant("cpu_rows_gaussian5x5",
                       "Shaped for an ordinary processor: each worker blurs a strip sixteen pixels at a time with the processor's wide instructions, reading each row once.",
                       "CPU-shaped: 16-byte vectors down row strips", 0,
                       "The Gaussian: the taps are symmetric, so the mirrored bytes are added in 16 "
                    "bits first (exact); three float16 conversions and multiply-adds along x, two adds and three "
                    "multiply-adds down the last five row results, per 16 bytes; within the filter's ±1 of the 2-D "
                    "reference. On a GPU it runs (16 pixels per work-item across) but is not meant for it: no GPU "
                    "figure claimed. On PoCL it runs 6-10x faster than the GPU-shaped rungs and near OpenCV's "
                    "own CPU code.",
                                        "Seed 003's lesson (explicit float4/float8 vectors for a CPU) at the width of the machine: 16 "
                 "lanes, the AVX-512 register."));
}

} // namespace fwb
