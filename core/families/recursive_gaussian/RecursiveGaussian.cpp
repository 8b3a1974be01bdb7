// recursive_gaussian (Young & van Vliet IIR Gaussian: column passes and transposes;
// kernels/recursive_gaussian/recursive_gaussian.cl, the blocked rungs in recursive_gaussian_blocked.cl, with the shared kernels/transpose/transpose.clh): catalogue entry, the plain CPU
// reference and the fast multi-threaded CPU path.
#include "Catalogue.h"
#include "CpuReference.h"
#include "families/shared/FastCpu.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace fwb {

namespace {

using namespace fastcpu;

constexpr double kDefaultSigma = 3.0;

double recursiveSigma(const FilterParams &p) { return paramOr(p, "sigma", kDefaultSigma); }

// Young & van Vliet (1995) third-order recursive Gaussian: w[n] = B x[n] + a1 w[n-1] + a2 w[n-2] +
// a3 w[n-3] forward, the same backward. Computed in double, rounded to float once; the kernels (host
// path) and the CPU reference use exactly these four floats.
struct YvvCoefficients
{
    float B = 1, a1 = 0, a2 = 0, a3 = 0;
};

YvvCoefficients youngVanVliet(double sigmaParam)
{
    // The device variant receives sigma as a float (params.s0): start from that same value so both
    // sides compute the same coefficients (see fwb_yvv_coefficients in kernels/recursive_gaussian/recursive_gaussian.cl).
    const double sigma = double(float(sigmaParam));
    const double q = sigma >= 2.5 ? 0.98711 * sigma - 0.96330 : 3.97156 - 4.14554 * std::sqrt(1.0 - 0.26891 * sigma);
    const double q2 = q * q, q3 = q2 * q;
    const double b0 = 1.57825 + 2.44413 * q + 1.4281 * q2 + 0.422205 * q3;
    const double b1 = 2.44413 * q + 2.85619 * q2 + 1.26661 * q3;
    const double b2 = -(1.4281 * q2 + 1.26661 * q3);
    const double b3 = 0.422205 * q3;
    // B from the float feedback taps, not from the double formula: a pass's gain at DC is
    // B / (1 - a1 - a2 - a3), and at large sigma B is ~1e-4, so the taps' float rounding alone (a few
    // 1e-7) would move that gain by ~0.3% per pass, ~1% over the four passes (3 levels of 255).
    // (1 - a3) - (a1 + a2) is exact in float at large sigma (Sterbenz: each subtraction's operands are
    // within a factor of 2: a3 ~ 0.9, a2 ~ -a1), so the gain is 1 to within B's own rounding.
    // fwb_yvv_coefficients in kernels/recursive_gaussian/recursive_gaussian.cl computes B the same way.
    const float a1 = float(b1 / b0), a2 = float(b2 / b0), a3 = float(b3 / b0);
    return {(1.0f - a3) - (a1 + a2), a1, a2, a3};
}

// The blocked variants' three 3x3 carry matrices for segments of L samples (kernels/recursive_gaussian/recursive_gaussian_blocked.cl:
// -DIIR_SEG from the variant's defines, 32 or 64), appended to the coefficient table after B, a1, a2, a3
// (the other variants read only those four), L = 32 first, then 64: M = A^L, the 3-tap state after L homogeneous steps; R,
// the backward-from-zero run of the forward homogeneous response, read at the segment's head; Rl =
// R + (M 1) m0^T for the last segment, whose backward run starts at its own last forward value.
// Row-major, state order (w[n-1], w[n-2], w[n-3]). In double from the float taps the kernels use, sent
// as hi + lo float pairs: at sigma 50 the entries reach ~470, and the scan needs them to ~1e-12.
constexpr int kBlockedSegments[] = {32, 64}; // the kernel picks its block by IIR_SEG

void appendBlockedMatrices(std::vector<float> &coeffs, const YvvCoefficients &k, int L)
{
    const double B = k.B, a1 = k.a1, a2 = k.a2, a3 = k.a3;
    double M[9], R[9];
    for (int c = 0; c < 3; ++c) {
        double s[3] = {0, 0, 0};
        s[c] = 1;
        std::vector<double> h(std::size_t(L), 0.0);
        for (int i = 0; i < L; ++i) {
            const double w0 = a1 * s[0] + a2 * s[1] + a3 * s[2];
            s[2] = s[1];
            s[1] = s[0];
            s[0] = w0;
            h[std::size_t(i)] = w0;
        }
        for (int r = 0; r < 3; ++r)
            M[r * 3 + c] = s[r];
        double y[3] = {0, 0, 0};
        for (int i = L - 1; i >= 0; --i) {
            const double y0 = B * h[std::size_t(i)] + (a1 * y[0] + a2 * y[1] + a3 * y[2]);
            y[2] = y[1];
            y[1] = y[0];
            y[0] = y0;
        }
        for (int r = 0; r < 3; ++r)
            R[r * 3 + c] = y[r];
    }
    std::vector<double> all(M, M + 9);
    all.insert(all.end(), R, R + 9);
    for (int r = 0; r < 3; ++r) {
        const double u = M[r * 3 + 0] + M[r * 3 + 1] + M[r * 3 + 2];
        for (int c = 0; c < 3; ++c)
            all.push_back(R[r * 3 + c] + u * M[c]);
    }
    // As float pairs, hi then lo (L = 32: coeffs[4..30], [31..57]; L = 64: [58..84], [85..111]): the scan
    // adds them back in double.
    for (double m : all)
        coeffs.push_back(float(m));
    for (double m : all)
        coeffs.push_back(float(m - double(float(m))));
}

// One line of n samples, `stride` floats apart, filtered in place: forward then backward, each pass
// starting in the steady state of a constant signal (first sample / last forward value held), in
// the same float operation order as FWB_IIR_COLUMN_BODY in kernels/recursive_gaussian/recursive_gaussian.cl.
void iirLine(float *line, int n, std::size_t stride, const YvvCoefficients &k)
{
    float w1 = line[0], w2 = w1, w3 = w1;
    for (int i = 0; i < n; ++i) {
        float &v = line[std::size_t(i) * stride];
        const float w0 = k.B * v + (k.a1 * w1 + k.a2 * w2 + k.a3 * w3);
        v = w0;
        w3 = w2;
        w2 = w1;
        w1 = w0;
    }
    float y1 = w1, y2 = w1, y3 = w1;
    for (int i = n - 1; i >= 0; --i) {
        float &v = line[std::size_t(i) * stride];
        const float y0 = k.B * v + (k.a1 * y1 + k.a2 * y2 + k.a3 * y3);
        v = y0;
        y3 = y2;
        y2 = y1;
        y1 = y0;
    }
}

// Columns first, then rows (the device order), in float; rounded once at the end like the kernels.
void recursiveGaussianReference(const Image &src, Image &dst, double sigma, int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    const YvvCoefficients k = youngVanVliet(sigma);
    const std::size_t rowFloats = std::size_t(w) * std::size_t(ch);
    std::vector<float> buf(rowFloats * std::size_t(h));
    for (int y = 0; y < h; ++y)
        for (std::size_t i = 0; i < rowFloats; ++i)
            buf[std::size_t(y) * rowFloats + i] = float(src.row(y)[i]);
    // Column pass: parallelRows only splits a range, here the range of columns.
    parallelRows(w, threads, [&](int x0, int x1) {
        for (int x = x0; x < x1; ++x)
            for (int c = 0; c < ch; ++c)
                iirLine(buf.data() + std::size_t(x) * std::size_t(ch) + std::size_t(c), h, rowFloats, k);
    });
    parallelRows(h, threads, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            float *row = buf.data() + std::size_t(y) * rowFloats;
            for (int c = 0; c < ch; ++c)
                iirLine(row + c, w, std::size_t(ch), k);
            unsigned char *out = dst.row(y);
            for (std::size_t i = 0; i < rowFloats; ++i)
                out[i] = roundToU8(row[i]);
        }
    });
}

VariantSpec recursiveVariant(const std::string &transpose, const std::string &title, bool deviceCoefficients)
{
    VariantSpec v;
    v.name = deviceCoefficients ? "device_coefficients" : "transpose_" + transpose;
    v.plainWords = deviceCoefficients
                       ? "The same four-step recipe, with the chip itself working out the blur's settings instead of the computer's main processor."
                   : transpose == "naive"
                       ? "A blur that remembers what it just saw as it walks along each line, so it costs the same however wide the blur - the picture is flipped between the row walk and the column walk."
                   : transpose == "local"
                       ? "The same walking blur, with the picture flipped through each team's fast scratchpad so memory is read and written along rows."
                       : "The same walking blur, with the flips done in a staggered order so teams do not crowd one part of memory.";
    v.title = title;
    v.kernelFile = "recursive_gaussian.cl";
    const std::string columns = deviceCoefficients ? "_device_coeffs" : "";
    v.passes = {{"iir_columns_u8" + columns, Slot::Src, Slot::TmpA, Geometry::Columns},
                {"transpose_" + transpose + "_f32", Slot::TmpA, Slot::TmpB, Geometry::Transposed},
                {"iir_columns_f32" + columns, Slot::TmpB, Slot::TmpA, Geometry::Columns},
                {"transpose_" + transpose + "_f32_u8", Slot::TmpA, Slot::Dst, Geometry::Transposed}};
    v.tempType = TempType::Float32;
    // All variants share one program per layout (built with the tile defines). The local-memory
    // transposes run TILE_W x TILE_H groups (auto: 16x16); the naive one launches what was asked
    // (auto = NULL); the column passes take the runtime's choice (a 2-D shape cannot apply to 1-D).
    v.tiledLocal = transpose != "naive";
    v.sharesTileProgram = transpose == "naive";
    v.fastMathMatters = deviceCoefficients;
    return v;
}

// One causal sweep of iirLine() over `lanes` lines at once, samples t = first, first + step, ... (count
// of them): out = B v + (a1 w1 + a2 w2 + a3 w3), in iirLine()'s operation order.
void iirSweep(float *data, std::size_t pitch, int count, int first, int step, std::size_t lanes, const YvvCoefficients &k,
              float *__restrict w1, float *__restrict w2, float *__restrict w3)
{
    for (int i = 0, t = first; i < count; ++i, t += step) {
        float *__restrict v = data + std::size_t(t) * pitch;
        for (std::size_t l = 0; l < lanes; ++l) {
            const float w0 = k.B * v[l] + (k.a1 * w1[l] + k.a2 * w2[l] + k.a3 * w3[l]);
            v[l] = w0;
            w3[l] = w2[l];
            w2[l] = w1[l];
            w1[l] = w0;
        }
    }
}

// Runs the reference's iirLine() on `lanes` independent lines at once: line l's sample t sits at
// data[t * pitch + l]. Per line the float operations and their order are iirLine()'s exactly; the
// lanes only let the compiler vectorise across lines. w1..w3 are scratch of `lanes` floats each.
void iirLanes(float *data, std::size_t pitch, int count, std::size_t lanes, const YvvCoefficients &k, float *__restrict w1,
              float *__restrict w2, float *__restrict w3)
{
    for (std::size_t l = 0; l < lanes; ++l)
        w1[l] = w2[l] = w3[l] = data[l];
    iirSweep(data, pitch, count, 0, 1, lanes, k, w1, w2, w3);
    for (std::size_t l = 0; l < lanes; ++l) // backward pass starts from the last forward value held
        w2[l] = w3[l] = w1[l];
    iirSweep(data, pitch, count, count - 1, -1, lanes, k, w1, w2, w3);
}

// Fast path: the reference's recursion per line, many lines at once as vector lanes.
void recursiveGaussianFast(const Image &src, Image &dst, const YvvCoefficients &k, int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    const std::size_t n = std::size_t(w) * std::size_t(ch);
    std::vector<float> buf(n * std::size_t(h));
    // Column pass: every column (and channel) of a slice of the row at once, row after row - the same
    // recursion per column as the reference, but walking memory row-wise instead of down a stride.
    constexpr std::size_t kSlice = 256;
    const int slices = int((n + kSlice - 1) / kSlice);
    parallelRows(slices, threads, [&](int s0, int s1) {
        std::vector<float> state(3 * kSlice);
        for (int s = s0; s < s1; ++s) {
            const std::size_t i0 = std::size_t(s) * kSlice, len = std::min(kSlice, n - i0);
            for (int y = 0; y < h; ++y) {
                const u8 *in = src.row(y) + i0;
                float *out = buf.data() + std::size_t(y) * n + i0;
                for (std::size_t i = 0; i < len; ++i)
                    out[i] = float(in[i]);
            }
            float *w1 = state.data(), *w2 = w1 + kSlice, *w3 = w2 + kSlice;
            iirLanes(buf.data() + i0, n, h, len, k, w1, w2, w3);
        }
    });
    // Row pass: a group of rows is transposed into a small [x][line] block (line = row and channel),
    // filtered along x with all lines as vector lanes, then rounded straight into the output rows.
    const int groupRows = std::max(1, 16 / ch);
    const int groups = (h + groupRows - 1) / groupRows;
    parallelRows(groups, threads, [&](int g0, int g1) {
        std::vector<float> block(std::size_t(w) * std::size_t(groupRows * ch));
        std::vector<float> state(3 * std::size_t(groupRows * ch));
        for (int g = g0; g < g1; ++g) {
            const int y0 = g * groupRows, rowsHere = std::min(groupRows, h - y0);
            const std::size_t lanes = std::size_t(rowsHere * ch);
            for (int j = 0; j < rowsHere; ++j) {
                const float *row = buf.data() + std::size_t(y0 + j) * n;
                for (int x = 0; x < w; ++x)
                    for (int c = 0; c < ch; ++c)
                        block[std::size_t(x) * lanes + std::size_t(j * ch + c)] = row[std::size_t(x) * ch + c];
            }
            float *w1 = state.data(), *w2 = w1 + lanes, *w3 = w2 + lanes;
            iirLanes(block.data(), lanes, w, lanes, k, w1, w2, w3);
            for (int j = 0; j < rowsHere; ++j) {
                u8 *out = dst.row(y0 + j);
                for (int x = 0; x < w; ++x) {
                    const float *from = block.data() + std::size_t(x) * lanes + std::size_t(j * ch);
                    for (int c = 0; c < ch; ++c)
                        out[std::size_t(x) * ch + c] = roundToU8(from[c]);
                }
            }
        }
    });
}

} // namespace

void registerRecursiveGaussian(std::vector<FilterSpec> &out)
{
    FilterSpec f;
    f.name = "recursive_gaussian";
    f.alternative = "gaussian"; // the same blur, computed as a sum over the window
    f.title = "Recursive (IIR) Gaussian";
    f.plainVerb = "blurring the picture";
    f.description = "Gaussian blur as a recursive filter (Young & van Vliet, 3rd order): each work-item runs "
                    "down one whole column forward and back, three feedback taps each way, so the cost is the "
                    "same for sigma 1 or 50. Rows are done by transposing, filtering columns, transposing back "
                    "(seed 000); the blocked rungs instead cut every line into short segments joined by carries, "
                    "with no transpose. Boundary: each pass starts as if the line continued with its end value "
                    "(replicate-like steady state); the border mode does not apply.";
    f.params = {{"sigma", "Sigma (px)", "Width of the bell curve; the work per pixel does not grow with it.",
                 kDefaultSigma, 0.5, 50.0, 0.5, false}};
    f.hasBorder = false;
    f.tolerance = 1;
    f.tileable = false; // IIR: every output depends on its whole row and column, no finite halo
    f.toleranceNote = "±1 per 8-bit channel: the reference mirrors the float recursion operation for operation "
                      "(contraction off), so only compiler-level float differences or device-computed "
                      "coefficients can flip a .5 rounding";
    f.prepare = [](const FilterParams &p) {
        const double sigma = recursiveSigma(p);
        const YvvCoefficients k = youngVanVliet(sigma);
        PreparedFilter prepared;
        prepared.coeffs = {k.B, k.a1, k.a2, k.a3};
        for (int segment : kBlockedSegments)
            appendBlockedMatrices(prepared.coeffs, k, segment);
        prepared.params[0] = float(sigma);
        return prepared;
    };
    f.cpuReference = [](const Image &src, Image &dst, const FilterParams &p, int threads) {
        const double sigma = recursiveSigma(p);
        if (useFastCpuPath(threads)) {
            recursiveGaussianFast(src, dst, youngVanVliet(sigma), threads);
        } else {
            recursiveGaussianReference(src, dst, sigma, threads);
        }
    };

    VariantSpec v = recursiveVariant("naive", "Transposes: naive", false);
    v.description = "Four passes: column filter, naive transpose, column filter, naive transpose. The column "
                    "passes read coalesced (neighbouring work-items, neighbouring columns); the naive "
                    "transposes write down columns, one cache line per pixel, and dominate the time.";
    v.seedNote = "Seed 000 (OS X GPU): the recursive blur with naive transposes was the slow starting point.";
    f.variants.push_back(v);

    v = recursiveVariant("local", "Transposes: 16x16 local tile", false);
    v.description = "The transposes stage 16x16 blocks in __local memory (seed's transposeLS) so both the global "
                    "read and the global write are row-wise; all work-groups still sweep the same rows and "
                    "columns in step, and the local column read has bank conflicts.";
    v.seedNote = "Seed 000: barely faster than naive - the local-to-global copy made a new bad access pattern.";
    f.variants.push_back(v);

    v = recursiveVariant("local_diagonal", "Transposes: local tile, diagonal mapping", false);
    v.description = "Same tiles with the seed's one changed line by = (by + bx) % get_num_groups(1): "
                    "concurrent work-groups touch different rows/columns, spreading traffic over memory "
                    "channels. The column passes remain sequential per work-item (limited parallelism: one "
                    "work-item per column, e.g. 6720 for a 6720-wide image).";
    v.seedNote = "Seed 000: the diagonal transpose made the recursive blur much faster, but it still could not "
                 "fill the GPU because the per-column loop is sequential.";
    f.variants.push_back(v);

    v = recursiveVariant("local_diagonal", "Coefficients on the device", true);
    v.description = "The local+diagonal pipeline, but every column work-item derives its four coefficients "
                    "from sigma itself (a sqrt and divisions, in double where the device has fp64, else in float) "
                    "instead of reading the host's table. At large sigma the filter's poles sit near 1 and an "
                    "ulp in a coefficient shows: float arithmetic missed the reference by 2 levels at sigma 32 "
                    "on an H100, the host's own double arithmetic matches it bit for bit. Build with "
                    "--fast-math (-cl-fast-relaxed-math) to see what relaxed math does: the check reports the "
                    "max difference either way. Costs nothing measurable: once per work-item.";
    v.seedNote = "Seed 000 guideline: trade precision for speed with native_/fast built-ins and build options.";
    f.variants.push_back(v);

    v = recursiveVariant("local_padded", "Batched column loads", false);
    v.name = "batched_columns";
    v.plainWords = "The walking blur done by many more workers at once, each handling a few columns, without flipping the picture at all.";
    v.passes[0].entry = "iir_columns_batched_u8";
    v.passes[2].entry = "iir_columns_batched_f32";
    v.preferredLocalGpu = {32, 1}; // column passes: one warp per group spreads ~W/32 groups over all SMs
    v.description = "Same recursion, operation for operation, but each column work-item loads its next 32 "
                    "(gray8) / 24 rows into registers before it runs the recursion over the current ones, in "
                    "both sweeps: dozens of loads in flight per work-item instead of one. A column pass has "
                    "only W work-items (a 6720-pixel row: under two warps per SM of a large GPU), so the plain loop waits a memory "
                    "latency per row; batching turns it into a bandwidth-bound stream. Transposes: padded "
                    "16x16 local tiles, diagonal work-groups. Cost stays flat in sigma, where the convolution's "
                    "grows with it: the convolution wins at small sigmas, this at large ones.";
    v.seedNote = "Seed 000: the sequential column loop 'cannot fill the GPU' - batching its loads hides the "
                 "latency without changing the arithmetic.";
    f.variants.push_back(v);

    v = VariantSpec{};
    v.name = "blocked";
    v.title = "Blocked: segments with carries, no transposes";
    v.kernelFile = "recursive_gaussian_blocked.cl";
    v.plainWords = "The walking blur cut into short pieces that thousands of workers walk at the same time, "
                   "each then corrected by a few numbers handed on from the piece before it.";
    v.passes = {{"iir_blocked_columns_tails", Slot::Src, Slot::TmpA, Geometry::Blocks},
                {"iir_blocked_columns_scan", Slot::TmpA, Slot::TmpA, Geometry::Blocks},
                {"iir_blocked_columns_apply", Slot::Src, Slot::TmpA, Geometry::Blocks},
                {"iir_blocked_rows_tails", Slot::TmpA, Slot::TmpA, Geometry::Blocks},
                {"iir_blocked_rows_scan", Slot::TmpA, Slot::TmpA, Geometry::Blocks},
                {"iir_blocked_rows_apply", Slot::TmpA, Slot::Dst, Geometry::Blocks}};
    v.tempType = TempType::Float32; // 4 bytes per sample: the 8.8 intermediate (2) and the carries (<= 0.75)
    v.defines = {"IIR_SEG=32"};
    // The kernels take their tasks from a grid-stride loop; the NDRange only has to be about as large as
    // the tasks: ceil(W/bw) x ceil(H/8) with 4 bytes across, i.e. about W*H*channels/32 work-items.
    v.blockWidth = 1;
    v.blockHeight = 8;
    v.blockBytesGpu = 4;
    v.blockBytesCpu = 4;
    v.description =
        "Nehab et al. (2011)'s blocked recursive filtering, no transposes: every line (a byte column, then "
        "one channel of a row) is cut into 32-sample segments, one work-item each. A first kernel runs each "
        "segment from a zero state (its tail forward, its head backward), a scan kernel hands the three-value "
        "carries from segment to segment with 3x3 matrices (computed on the host in double), and a last kernel "
        "reruns each segment from its true carries - the same float operations as the column loop. Work-items: "
        "lanes x segments (6720x4480 rgba8888: 26880 x 140 for the columns, 17920 x 210 for the rows) instead of "
        "one per column, every access coalesced across lanes. Bytes per sample: columns read the 8-bit input "
        "twice and write an 8.8 fixed-point intermediate (2 bytes, error <= 1/512, against 4-byte floats in "
        "batched_columns), rows read it twice and write the 8-bit output; the carries cost 24 bytes per boundary and "
        "lane in the tails and apply kernels and 60 in the scan (it reads the forward carries again for the "
        "backward chain): about 16 bytes per sample in all, 6.75 of them carries, against batched_columns' ~42 (two "
        "float transposes, float column passes). Cost stays flat in sigma.";
    v.seedNote = "Seed 000: the per-column loop 'cannot fill the GPU' - here the loop is 32 samples long and "
                 "the GPU has lanes x segments of them.";
    f.variants.push_back(v);

    v.name = "blocked_staged_rows";
    v.title = "Blocked, row passes through local memory";
    v.plainWords = "The same short pieces, with each team first copying its stretch of a row into its fast "
                   "scratchpad, so the picture is read and written in order.";
    v.passes[3].entry = "iir_blocked_rows_staged_tails";
    v.passes[5].entry = "iir_blocked_rows_staged_apply";
    v.description =
        "blocked with its two row kernels staged through __local memory. In blocked a warp's 32 work-items are "
        "32 (row, channel) lanes at one segment, so each load or store touches up to 32 cache lines (gray8: one "
        "L1 wavefront per sample, rgba8888 one per four). Here a work-group takes a chunk of one row (256 / "
        "channels consecutive segments), reads it in order into a 33 KiB tile (padded one float every 32: the "
        "segments fall in different banks), runs each segment from the tile, and the apply kernel writes the "
        "results back into the tile and stores the 8-bit row in order. Same operations and carries as blocked, "
        "same bytes through DRAM; fewer L1 wavefronts. On the GPU measured the tile helped gray8 and cost rgba8888.";
    v.seedNote = "Seed 000: the local-memory transpose made the row and column access patterns row-wise; here the "
                 "tile does that for one stretch of a row without transposing the image.";
    f.variants.push_back(v);

    v.name = "blocked_seg64";
    v.title = "Blocked, staged rows, 64-sample segments";
    v.plainWords = "The same pieces made twice as long, so half as many corrections are handed on.";
    v.defines = {"IIR_SEG=64"};
    v.blockHeight = 16; // half as many tasks: ~W*H*channels/64 work-items
    v.preferredLocalGpu = {32, 4}; // a row chunk is 128 (segment, channel) tasks: 128 x 64 samples, 33 KiB
    v.preferredLocalCpu = {128, 1};
    v.description =
        "blocked_staged_rows with 64-sample segments. The carries (6 floats per segment boundary and lane) are "
        "written by the tails kernel, read and rewritten by the scan (15 floats per boundary: it reads the "
        "forward carries again for the backward chain) and read by the apply kernel: with 32-sample segments "
        "that is 6.75 of the ~16 bytes per sample, here 3.4 (6720x4480 rgba8888: ~0.4 GB less), and each "
        "scan's chain is half as long (70 and 105 boundaries instead of 140 and 210). The price: 64 floats of "
        "registers per work-item (fewer work-groups resident), half as many work-items, 128-item work-groups "
        "(a row chunk's tile holds 128 x 64 samples).";
    v.seedNote = "Seed 000 guideline: more work per work-item can pay when it removes memory traffic.";
    f.variants.push_back(v);

    v.name = "blocked_transposed";
    v.title = "Blocked, both directions down columns";
    v.plainWords = "The same short pieces, all walked down the columns: the picture is turned on its side as the "
                   "first walk writes it, and back as the second one does.";
    v.passes = {{"iir_blocked_columns_tails", Slot::Src, Slot::TmpA, Geometry::Blocks},
                {"iir_blocked_columns_scan", Slot::TmpA, Slot::TmpA, Geometry::Blocks},
                {"iir_blocked_columns_apply_t", Slot::Src, Slot::TmpA, Geometry::Transposed},
                {"iir_blocked_tcolumns_tails", Slot::TmpA, Slot::TmpA, Geometry::Blocks},
                {"iir_blocked_columns_scan", Slot::TmpA, Slot::TmpA, Geometry::Blocks},
                {"iir_blocked_tcolumns_apply_t", Slot::TmpA, Slot::Dst, Geometry::Transposed}};
    v.description =
        "blocked_seg64's segments and carries with both directions run by the column kernels, whose work-items "
        "are neighbouring bytes of one row (every load coalesced). The column pass writes its 8.8 result "
        "transposed - a work-item's 64 samples of a column become 64 consecutive samples of one row of the "
        "turned picture - so the row pass is a column pass over it, reading 16-bit samples, and it writes its "
        "8-bit result turned back. No transpose kernel: the turns ride on the apply kernels' stores, which go "
        "through a __local tile so that neighbouring work-items store neighbouring bytes. Same bytes through "
        "DRAM as blocked_seg64; the row pass no longer pays for lanes that are rows apart.";
    // The scans load 16 boundaries' carries before running through them (8 elsewhere): their lanes are few
    // (4480 or 6720 at 6720x4480 gray8: a warp or two per multiprocessor), so each batch is a round trip to
    // DRAM that nothing hides. H100 gray8: 0.4998-0.5000 ms against 0.5045 at 8 and 0.512 at 32 (session 20).
    v.defines = {"IIR_SEG=64", "IIR_SCAN_BATCH=16"};
    v.preferredLocalGpu = LocalSize{64, 1}; // H100 gray8: 0.505 ms, 32x4 0.510, 256x1 0.593 (session 20)
    v.seedNote = "Seed 000 turned the row pass into a column pass with two transposes of the whole picture; here "
                 "the turns are the column kernels' own stores. H100, 6720x4480: gray8 0.500 ms against "
                 "blocked_seg64's 0.624; rgba8888 1.632 against 2.199 (blocked: 1.627).";
    f.variants.push_back(v);
    out.push_back(f);
}

} // namespace fwb
