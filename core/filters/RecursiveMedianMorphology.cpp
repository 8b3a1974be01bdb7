// Recursive (IIR) Gaussian with transposes, transpose as an operation, median 3x3/5x5, erode/dilate:
// catalogue entries and their CPU references (issue 4 items 3, 4, 6, 7 and 9).
#include "../Catalogue.h"
#include "../CpuReference.h"
#include "FastCpu.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace fwb {

namespace {

double paramValue(const FilterParams &p, const char *key, double fallback)
{
    const auto it = p.values.find(key);
    return it == p.values.end() ? fallback : it->second;
}

// ---- Recursive (IIR) Gaussian -------------------------------------------------------------------

constexpr double kDefaultSigma = 3.0;

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
    // sides compute the same coefficients (see fwb_yvv_coefficients in kernels/recursive_gaussian.cl).
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
    // fwb_yvv_coefficients in kernels/recursive_gaussian.cl computes B the same way.
    const float a1 = float(b1 / b0), a2 = float(b2 / b0), a3 = float(b3 / b0);
    return {(1.0f - a3) - (a1 + a2), a1, a2, a3};
}

// One line of n samples, `stride` floats apart, filtered in place: forward then backward, each pass
// starting in the steady state of a constant signal (first sample / last forward value held), in
// the same float operation order as FWB_IIR_COLUMN_BODY in kernels/recursive_gaussian.cl.
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

void registerRecursiveGaussian(std::vector<FilterSpec> &out)
{
    FilterSpec f;
    f.name = "recursive_gaussian";
    f.title = "Recursive (IIR) Gaussian";
    f.description = "Gaussian blur as a recursive filter (Young & van Vliet, 3rd order): each work-item runs "
                    "down one whole column forward and back, three feedback taps each way, so the cost is the "
                    "same for sigma 1 or 50. Rows are done by transposing, filtering columns, transposing back "
                    "(seed 000). Boundary: each pass starts as if the line continued with its end value "
                    "(replicate-like steady state); the border mode does not apply.";
    f.params = {{"sigma", "Sigma (px)", "Width of the bell curve; the work per pixel does not grow with it.",
                 kDefaultSigma, 0.5, 50.0, 0.5, false}};
    f.hasBorder = false;
    f.tolerance = 1;
    f.toleranceNote = "±1 per 8-bit channel: the reference mirrors the float recursion operation for operation "
                      "(contraction off), so only compiler-level float differences or device-computed "
                      "coefficients can flip a .5 rounding";
    f.prepare = [](const FilterParams &p) {
        const double sigma = paramValue(p, "sigma", kDefaultSigma);
        const YvvCoefficients k = youngVanVliet(sigma);
        PreparedFilter prepared;
        prepared.coeffs = {k.B, k.a1, k.a2, k.a3};
        prepared.params[0] = float(sigma);
        return prepared;
    };
    f.cpuReference = [](const Image &src, Image &dst, const FilterParams &p, int threads) {
        const double sigma = paramValue(p, "sigma", kDefaultSigma);
        if (useFastCpuPath(threads)) {
            const YvvCoefficients k = youngVanVliet(sigma);
            fastcpu::recursiveGaussian(src, dst, k.B, k.a1, k.a2, k.a3, threads);
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
    out.push_back(f);
}

// ---- Transpose ----------------------------------------------------------------------------------

void registerTranspose(std::vector<FilterSpec> &out)
{
    FilterSpec f;
    f.name = "transpose";
    f.title = "Transpose";
    f.description = "Swaps rows and columns: the output is height x width. Pure data movement, so it shows the "
                    "memory system alone: coalescing, local-memory staging, work-group order and bank conflicts "
                    "(seeds 000 and 002).";
    f.hasBorder = false;
    f.transposesOutput = true;
    f.tolerance = 0;
    f.toleranceNote = "exact: pixels are moved, never computed";
    f.prepare = [](const FilterParams &) { return PreparedFilter{}; };
    f.cpuReference = [](const Image &src, Image &dst, const FilterParams &, int threads) {
        if (useFastCpuPath(threads)) {
            fastcpu::transpose(src, dst, threads);
            return;
        }
        const int ch = src.channels();
        parallelRows(dst.height(), threads, [&](int y0, int y1) {
            for (int oy = y0; oy < y1; ++oy) { // output row oy = input column oy
                unsigned char *o = dst.row(oy);
                for (int ox = 0; ox < dst.width(); ++ox)
                    for (int c = 0; c < ch; ++c)
                        o[std::size_t(ox * ch + c)] = src.row(ox)[std::size_t(oy * ch + c)];
            }
        });
    };

    VariantSpec v;
    v.kernelFile = "transpose.cl";
    v.sharesTileProgram = true; // all four share one program; the naive kernel ignores the tile

    v.name = "naive";
    v.title = "Naive (global memory)";
    v.passes = {{"transpose_naive_u8", Slot::Src, Slot::Dst, Geometry::Transposed}};
    v.description = "One work-item per pixel reads its row-major input and writes straight to the transposed "
                    "place: reads are coalesced, writes stride by the image height, so every work-item of a "
                    "warp writes a different cache line.";
    v.seedNote = "Seed 000: the baseline of the transpose ladder.";
    f.variants.push_back(v);

    v.sharesTileProgram = false;
    v.tiledLocal = true;
    v.name = "local";
    v.title = "Local tile (transposeLS)";
    v.passes = {{"transpose_local_u8", Slot::Src, Slot::Dst, Geometry::Transposed}};
    v.description = "A TILE_W x TILE_H block (auto 16x16) is staged in __local memory, barrier, then written "
                    "out transposed so the global write is row-wise too. The column read from local memory "
                    "hits one bank repeatedly, and concurrent work-groups queue on the same memory rows.";
    v.seedNote = "Seed 000: barely faster than naive - a new bad access pattern from local rows to global columns.";
    f.variants.push_back(v);

    v.name = "local_diagonal";
    v.title = "Local tile, diagonal work-groups";
    v.passes = {{"transpose_local_diagonal_u8", Slot::Src, Slot::Dst, Geometry::Transposed}};
    v.description = "The seed's one-line change by = (by + bx) % get_num_groups(1): work-groups that run at "
                    "the same time now read different input rows and write different output columns, so "
                    "their traffic spreads over memory partitions instead of piling onto one.";
    v.seedNote = "Seed 000: one changed line, clearly faster than the plain local-tile transpose.";
    f.variants.push_back(v);

    v.name = "local_padded";
    v.title = "Local tile 17 wide, diagonal";
    v.passes = {{"transpose_local_padded_u8", Slot::Src, Slot::Dst, Geometry::Transposed}};
    v.description = "As local_diagonal, with each tile row one element longer (TILE_W + 1): the column read in "
                    "the write phase then walks consecutive banks instead of hitting one bank TILE_H times. "
                    "Matters where local memory is banked on-chip (GPUs); a CPU emulates it in cache.";
    v.seedNote = "Seed 002: local-memory bank conflicts - pad shared arrays so a column spans all banks.";
    f.variants.push_back(v);
    out.push_back(f);
}

// ---- Median -------------------------------------------------------------------------------------

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

void registerMedian(std::vector<FilterSpec> &out, int size)
{
    const std::string n = std::to_string(size);
    FilterSpec f;
    f.name = "median" + n + "x" + n;
    f.title = "Median " + n + "x" + n;
    f.description = "Each channel's middle value of its " + n + "x" + n + " neighbourhood: removes salt-and-pepper "
                    "noise and keeps edges. No arithmetic, only comparisons - the cost is in how the middle "
                    "value is found.";
    f.tolerance = 0;
    f.toleranceNote = "exact: a median selects an input value";
    f.prepare = [size](const FilterParams &) {
        PreparedFilter prepared;
        prepared.radius = size / 2;
        prepared.defines = {"-DMEDIAN_SIZE=" + std::to_string(size)};
        return prepared;
    };
    f.cpuReference = [size](const Image &src, Image &dst, const FilterParams &p, int threads) {
        if (useFastCpuPath(threads))
            fastcpu::median(src, dst, size, p.border, threads);
        else
            medianReference(src, dst, size, p.border, threads);
    };

    VariantSpec v;
    v.kernelFile = "median.cl";
    v.sharesTileProgram = true; // one program per layout for all three variants
    v.tileHalo = size / 2;

    v.name = "naive_sort";
    v.title = "Insertion sort";
    v.passes = {{"median_naive_sort"}};
    v.description = "Gathers each channel's " + std::to_string(size * size) + " values into a private array and "
                    "insertion-sorts it. How far each value moves depends on the data, so neighbouring "
                    "work-items branch differently and SIMD lanes wait for the slowest.";
    v.seedNote = "Seed 000 guideline: avoid branches - all lanes of a GPU execute both sides of a divergent branch.";
    f.variants.push_back(v);

    v.name = "sorting_network";
    v.title = "Branchless min/max network";
    v.passes = {{"median_sorting_network"}};
    v.description = std::string("A fixed selection network (Batcher's merge sort pruned to the middle output: ")
                    + (size == 3 ? "24" : "113") + " min/max steps) on whole pixels (all channels at once as "
                    "uchar vectors): no branches, constant indices, so the values stay in registers and every "
                    "work-item runs the same instructions.";
    v.seedNote = "Seed 000: avoid branches; use a ? x : y, select, min and max.";
    f.variants.push_back(v);

    v.sharesTileProgram = false;
    v.tiledLocal = true;
    v.name = "local_tiled";
    v.title = "Network on a local-memory tile";
    v.passes = {{"median_local"}};
    v.description = "The work-group copies its tile plus a " + std::to_string(size / 2) + "-pixel halo into __local "
                    "memory once, then runs the same network from there. Saves repeated global reads; pays a "
                    "barrier and the copy, and on a CPU local memory is ordinary cached memory.";
    v.seedNote = "Seed 004: a shared-memory tile gave no gain for a 5x5 stencil where L1 already hits.";
    f.variants.push_back(v);
    out.push_back(f);
}

// ---- Erode / dilate -----------------------------------------------------------------------------

constexpr int kDefaultMorphRadius = 2;

// Separable min/max: rows, then columns of the row result. Equal to the 2-D window for every border
// rule because the rule maps x and y independently (constant: 0 enters either way).
void morphologyReference(const Image &src, Image &dst, int radius, bool dilate, BorderMode border, int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    auto op = [dilate](int a, int b) { return dilate ? std::max(a, b) : std::min(a, b); };
    const int identity = dilate ? 0 : 255;
    Image rows(w, h, src.format());
    parallelRows(h, threads, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y)
            for (int x = 0; x < w; ++x)
                for (int c = 0; c < ch; ++c) {
                    int acc = identity;
                    for (int dx = -radius; dx <= radius; ++dx)
                        acc = op(acc, int(pixelAt(src, x + dx, y, c, border)));
                    rows.row(y)[std::size_t(x * ch + c)] = static_cast<unsigned char>(acc);
                }
    });
    parallelRows(h, threads, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y)
            for (int x = 0; x < w; ++x)
                for (int c = 0; c < ch; ++c) {
                    int acc = identity;
                    for (int dy = -radius; dy <= radius; ++dy)
                        acc = op(acc, int(pixelAt(rows, x, y + dy, c, border)));
                    dst.row(y)[std::size_t(x * ch + c)] = static_cast<unsigned char>(acc);
                }
    });
}

void registerMorphology(std::vector<FilterSpec> &out, bool dilate)
{
    const std::string opName = dilate ? "maximum" : "minimum";
    FilterSpec f;
    f.name = dilate ? "dilate" : "erode";
    f.title = dilate ? "Dilate (square)" : "Erode (square)";
    f.description = "Each channel's " + opName + " over a square (2r+1)x(2r+1) window: " +
                    (dilate ? "bright regions grow, dark specks vanish." : "dark regions grow, bright specks vanish.")
                    + " The border rule decides what lies outside the image; with 'constant' that is 0, "
                    + (dilate ? "which a maximum never picks." : "so erosion darkens the edges.");
    f.params = {{"radius", "Radius (px)", "Half the window side: the window is (2r+1) pixels square.",
                 double(kDefaultMorphRadius), 1, 30, 1, true}};
    f.tolerance = 0;
    f.toleranceNote = "exact: min/max select an input value";
    f.prepare = [dilate](const FilterParams &p) {
        const int r = int(paramValue(p, "radius", kDefaultMorphRadius));
        PreparedFilter prepared;
        prepared.radius = r;
        prepared.defines = {"-DMORPH_RADIUS=" + std::to_string(r), std::string("-DMORPH_DILATE=") + (dilate ? "1" : "0")};
        return prepared;
    };
    f.cpuReference = [dilate](const Image &src, Image &dst, const FilterParams &p, int threads) {
        const int radius = int(paramValue(p, "radius", kDefaultMorphRadius));
        if (useFastCpuPath(threads))
            fastcpu::morphology(src, dst, radius, dilate, p.border, threads);
        else
            morphologyReference(src, dst, radius, dilate, p.border, threads);
    };

    VariantSpec v;
    v.kernelFile = "morphology.cl";
    v.sharesTileProgram = true; // one program per (layout, radius) for all three variants
    v.tileHalo = 30;     // worst case (radius 30): the tile is compiled for the run's radius

    v.name = "naive";
    v.title = "Naive 2-D window";
    v.passes = {{"morph_naive"}};
    v.description = "Reads all (2r+1)^2 window pixels from global memory per output pixel: 25 at r = 2, 3721 "
                    "at r = 30. Cost grows with the square of the radius.";
    v.seedNote = "The baseline; the window size is compiled in (-DMORPH_RADIUS), so the loops can unroll.";
    f.variants.push_back(v);

    v = VariantSpec{};
    v.kernelFile = "morphology.cl";
    v.sharesTileProgram = true;
    v.tileHalo = 30;
    v.name = "separable";
    v.title = "Separable: rows then columns";
    v.passes = {{"morph_rows", Slot::Src, Slot::TmpA}, {"morph_columns", Slot::TmpA, Slot::Dst}};
    v.description = "A square window's " + opName + " is the " + opName + " of the row " + opName + "s: a row pass "
                    "into a scratch image, then a column pass - 2(2r+1) reads per pixel instead of (2r+1)^2, "
                    "exact, at the price of one extra image round trip through global memory.";
    v.seedNote = "Same trick as the separable Gaussian: linear instead of quadratic cost in the radius.";
    f.variants.push_back(v);

    v.sharesTileProgram = false;
    v.tiledLocal = true;
    v.name = "local_tiled";
    v.title = "Local tile, separable inside";
    v.passes = {{"morph_local"}};
    v.description = "One launch: the work-group stages its tile plus an r-pixel halo in __local memory, reduces "
                    "rows into a second local array, then columns. Separable cost without the scratch image; "
                    "the halo grows with r ((16+2r)^2 pixels per 256 outputs), so the copy dominates at large r.";
    v.seedNote = "Seed 004: local tiles pay off only when the cache cannot already serve the re-reads.";
    f.variants.push_back(v);
    out.push_back(f);
}

} // namespace

void registerRecursiveMedianMorphology(std::vector<FilterSpec> &out)
{
    registerRecursiveGaussian(out);
    registerTranspose(out);
    registerMedian(out, 3);
    registerMedian(out, 5);
    registerMorphology(out, false);
    registerMorphology(out, true);
}

} // namespace fwb
