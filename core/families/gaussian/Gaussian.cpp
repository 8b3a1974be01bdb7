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

// sum_k t[k] * line[k][i] for i in [i0, i0 + 32), added to 0 in k order (the reference's order), as four
// independent vectors so several chains of dependent additions are in flight at once.
inline void tapBlock(const float *const *line, const float *t, int taps, std::size_t i0, Floats8 acc[4])
{
    Floats8 a0 = {}, a1 = {}, a2 = {}, a3 = {};
    for (int k = 0; k < taps; ++k) {
        const float *p = line[k] + i0;
        const float tk = t[k];
        a0 += tk * load8(p);
        a1 += tk * load8(p + 8);
        a2 += tk * load8(p + 16);
        a3 += tk * load8(p + 24);
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

inline float tapOne(const float *const *line, const float *t, int taps, std::size_t i)
{
    float sum = 0.0f;
    for (int k = 0; k < taps; ++k)
        sum += t[k] * line[k][i];
    return sum;
}

// The same sum with the symmetric taps paired (t[r - j] == t[r + j]: the taps are built from exp(-k^2)):
// t[r] line[r] + sum_j t[r + j] (line[r - j] + line[r + j]), r + 1 products instead of 2r + 1. Not the
// reference's order: the guard band below keeps the bytes the oracle's.
inline void pairBlock(const float *const *line, const float *t, int r, std::size_t i0, Floats8 acc[4])
{
    const float *m = line[r] + i0;
    const float tm = t[r];
    Floats8 a0 = tm * load8(m), a1 = tm * load8(m + 8), a2 = tm * load8(m + 16), a3 = tm * load8(m + 24);
    for (int j = 1; j <= r; ++j) {
        const float *p = line[r - j] + i0, *q = line[r + j] + i0;
        const float tj = t[r + j];
        a0 += tj * (load8(p) + load8(q));
        a1 += tj * (load8(p + 8) + load8(q + 8));
        a2 += tj * (load8(p + 16) + load8(q + 16));
        a3 += tj * (load8(p + 24) + load8(q + 24));
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

inline float pairOne(const float *const *line, const float *t, int r, std::size_t i)
{
    float sum = t[r] * line[r][i];
    for (int j = 1; j <= r; ++j)
        sum += t[r + j] * (line[r - j][i] + line[r + j][i]);
    return sum;
}

// Row pass: out[i] = sum_k t[k] * line[k][i], in tap order (paired == false) or paired.
FWB_VECTOR_CLONES
void tapSum(float *__restrict out, const float *const *line, const float *t, int taps, std::size_t n, bool paired)
{
    const int r = taps / 2;
    std::size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        Floats8 acc[4];
        if (paired)
            pairBlock(line, t, r, i, acc);
        else
            tapBlock(line, t, taps, i, acc);
        std::memcpy(out + i, acc, sizeof acc);
    }
    for (; i < n; ++i)
        out[i] = paired ? pairOne(line, t, r, i) : tapOne(line, t, taps, i);
}

// Column pass in tap order: out[i] = roundToU8(sum_k t[k] * line[k][i]).
FWB_VECTOR_CLONES
void tapSumRound(u8 *__restrict out, const float *const *line, const float *t, int taps, std::size_t n)
{
    std::size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        Floats8 acc[4];
        tapBlock(line, t, taps, i, acc);
        for (int k = 0; k < 4; ++k)
            for (int j = 0; j < 8; ++j) {
                const int v = int(acc[k][j] + 0.5f); // roundToU8: sums >= 0
                out[i + std::size_t(k * 8 + j)] = u8(v > 255 ? 255 : v);
            }
    }
    for (; i < n; ++i)
        out[i] = roundToU8(tapOne(line, t, taps, i));
}

// Paired column pass and rounding: out[i] = the rounded paired sum, near[i] = 1 where v = sum + 0.5 lies
// within `guard` of an integer (the caller recomputes those in the oracle's order). Returns whether any did.
FWB_VECTOR_CLONES
bool pairSumRound(u8 *__restrict out, u8 *__restrict near, const float *const *line, const float *t, int r,
                  std::size_t n, float guard)
{
    int any = 0;
    float sums[32];
    for (std::size_t i0 = 0; i0 < n; i0 += 32) {
        const std::size_t len = std::min<std::size_t>(32, n - i0);
        if (len == 32) {
            Floats8 acc[4];
            pairBlock(line, t, r, i0, acc);
            std::memcpy(sums, acc, sizeof acc);
        } else {
            for (std::size_t j = 0; j < len; ++j)
                sums[j] = pairOne(line, t, r, i0 + j);
        }
        for (std::size_t j = 0; j < len; ++j) {
            const float v = sums[j] + 0.5f;
            const int k = int(v);                // v in [0.5, 256.5): truncation is floor
            const float frac = v - float(k);     // exact (Sterbenz)
            const int close = int(frac < guard) | int(frac > 1.0f - guard);
            near[i0 + j] = u8(close);
            any |= close;
            out[i0 + j] = u8(k > 255 ? 255 : k);
        }
    }
    return any != 0;
}

// The guard band of the paired sums. Let t_k be the float taps (as reals), T = sum t_k, u = 2^-24 and
// gamma(n) = n u / (1 - n u). An inner product of n nonnegative terms summed in any order, with or
// without fused multiply-adds, is within gamma(n) sum |t_k x_k| of the exact one (Higham, Accuracy and
// Stability, (3.5)). With p the source bytes (0..255) and S = sum_k t_k sum_m t_m p the exact result:
// - oracle: each row value R' (2r+1 products in tap order) is within gamma(2r+1) 255 T of the exact R;
//   the column sum C' of t_k R' within gamma(2r+1) sum t_k R' <= gamma(2r+1) 255 T^2 (1 + gamma(2r+1))
//   of sum t_k R', itself within T gamma(2r+1) 255 T of S: |C' - S| <= 255 T^2 g (2 + g), g = gamma(2r+1);
// - paired: a row value is r + 1 products of exact pair sums (integers <= 510): within gamma(r+1) 255 T
//   of R; down the column each pair sum of row values rounds once more, so a term carries at most r + 2
//   factors (1 + d): |C'' - S| <= 255 T^2 (gamma(r+1) + gamma(r+2) (1 + gamma(r+1))).
// So |C' - C''| <= B, the sum of the two. Both add 0.5 (one rounding each, <= 2^-16 below 512) and
// truncate. If v'' = fl(C'' + 0.5) lies at least G = B + 2^-14 from an integer k (k < v'' < k + 1),
// then C' + 0.5 lies in [k + 2^-15, k + 1 - 2^-15] and fl(C' + 0.5) in [k, k + 1): the same byte.
// For sigma 2 (r = 6) G = 6.9e-4: about 1 pixel in 700 of noise is recomputed.
float pairedGuard(const std::vector<float> &taps)
{
    const int r = int(taps.size() / 2);
    const double u = std::ldexp(1.0, -24);
    auto gamma = [u](int n) { return n * u / (1.0 - n * u); };
    double total = 0;
    for (float t : taps)
        total += double(t);
    const double g = gamma(2 * r + 1);
    const double bound = 255.0 * total * total * (g * (2.0 + g) + gamma(r + 1) + gamma(r + 2) * (1.0 + gamma(r + 1)));
    return float((bound + std::ldexp(1.0, -14)) * 1.001); // rounded up, not down, into a float
}

// Above this radius the band (growing with r) recomputes too many pixels at (2r+1)(2r+2) operations
// each: the tap-order sums (exact by construction) are faster there.
constexpr int kMaxPairedRadius = 24;

// The oracle's byte at channel c of pixel x of an output row, from the source rows of its column window
// (`rows`; a row of zeros where the constant border drops one): each row value summed in tap order from
// 0 (bytes convert to float exactly; a border's zero adds t * 0 = +0, as in the reference), then down
// the column in tap order. The 2r+1 row values are independent chains, advanced together.
u8 oracleAt(const u8 *const *rows, const float *t, int taps, int w, int ch, BorderMode border, int x, int c)
{
    const int r = taps / 2;
    float row[2 * kMaxPairedRadius + 1] = {};
    const bool inside = x >= r && x < w - r;
    for (int m = 0; m < taps; ++m) {
        const int bx = inside ? x + m - r : borderIndex(x + m - r, w, border);
        const float tm = t[m];
        if (bx < 0) {
            for (int k = 0; k < taps; ++k)
                row[k] += tm * 0.0f;
            continue;
        }
        const std::size_t at = std::size_t(bx) * std::size_t(ch) + std::size_t(c);
        for (int k = 0; k < taps; ++k)
            row[k] += tm * float(rows[k][at]);
    }
    float sum = 0.0f;
    for (int k = 0; k < taps; ++k)
        sum += t[k] * row[k];
    return roundToU8(sum);
}

// Fast path: the reference's two passes over padded rows and cached row results, the taps summed in
// registers (no accumulator sweeps through memory). Up to kMaxPairedRadius the symmetric taps are paired
// in both passes and the pixels within the guard band of a rounding boundary are recomputed in the
// oracle's order; above, the taps are summed in the reference's order.
void gaussianFast(const Image &src, Image &dst, const std::vector<float> &taps, BorderMode border,
                  int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    const int r = int(taps.size() / 2), count = 2 * r + 1;
    const std::size_t n = std::size_t(w) * std::size_t(ch);
    const bool paired = r <= kMaxPairedRadius;
    const float guard = paired ? pairedGuard(taps) : 0.0f;
    // Each strip runs the row pass on demand for the rows its windows need, into a cache of 2r+1 row
    // results (RowCache), so the float intermediate stays in cache instead of going through a
    // whole-image buffer. A recomputed row is the same deterministic sum, bit for bit.
    parallelRows(h, threads, [&](int y0, int y1) {
        RowCache<float> cache(count, n);
        std::vector<float> pad((std::size_t(w) + 2 * std::size_t(r)) * std::size_t(ch));
        const std::vector<float> zero(n, 0.0f);
        const std::vector<u8> zeroBytes(n, 0);
        std::vector<const float *> line(static_cast<std::size_t>(count)), at(line.size());
        std::vector<const u8 *> srcRows(line.size());
        std::vector<u8> near(n);
        // Row pass over the padded row (a constant border's zero pixel adds t * 0 = +0, as in the
        // reference, so padding with 0 changes no bit).
        auto rowPass = [&](int sy, float *out) {
            padRow(src.row(sy), pad.data() + std::size_t(r) * std::size_t(ch), w, ch, r, border);
            for (int k = 0; k < count; ++k)
                at[std::size_t(k)] = pad.data() + std::size_t(k) * std::size_t(ch);
            tapSum(out, at.data(), taps.data(), count, n, paired);
        };
        // Column pass: a row the constant border drops is a zero row (the reference adds t * 0 there too).
        for (int y = y0; y < y1; ++y) {
            for (int k = 0; k < count; ++k) {
                const int by = borderIndex(y + k - r, h, border);
                line[std::size_t(k)] = by < 0 ? zero.data() : cache.get(by, rowPass);
                srcRows[std::size_t(k)] = by < 0 ? zeroBytes.data() : src.row(by);
            }
            u8 *out = dst.row(y);
            if (!paired)
                tapSumRound(out, line.data(), taps.data(), count, n);
            else if (pairSumRound(out, near.data(), line.data(), taps.data(), r, n, guard))
                forEachFlagged(near.data(), n, [&](std::size_t i) {
                    out[i] = oracleAt(srcRows.data(), taps.data(), count, w, ch, border, int(i) / ch, int(i) % ch);
                });
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
        .name = "roofline",
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
        .formats = {PixelFormat::Gray8, PixelFormat::Rgba8888},
        .blockWidth = 1, // rgb888: not offered (the strips need whole 4-byte words)
        .blockHeight = 32,
        .blockBytesGpu = 16, // gray8: 16 pixels, rgba8888: 4 pixels per work-item and row
        .blockBytesCpu = 16,
        .maxRadius = 8, // sigma <= 2.66: above, 2r rows of strip results no longer fit in registers
        .rowAlign = 16, // odd widths: rows padded to 16 bytes on the device keep the aligned loads
        .preferredLocalGpu = LocalSize{32, 4},
        .preferredLocalCpu = LocalSize{16, 1},
        .description = "The gaussian5x5 roofline rung (kernels/shared/separable_strips.clh) for any sigma up to 2.66 "
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
}

} // namespace fwb
