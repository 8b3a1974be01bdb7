// sobel (|gx|, |gy| or the gradient magnitude in exact integers: naive, local tile, separable;
// kernels/sobel/sobel.cl): catalogue entry, the plain CPU reference and the fast multi-threaded CPU path.
// Output scaling: divided by 4 (the sum of the positive weights), rounded, saturated. rgba8888: alpha is
// copied from the input, not filtered (an opaque photo stays opaque; its edges are in red, green, blue). Built with
// -fno-math-errno (core/CMakeLists.txt) so the fast path's sqrt loop can vectorise.
#include "Catalogue.h"
#include "CpuReference.h"
#include "families/shared/FastCpu.h"
#include "families/shared/Stream3x3.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace fwb {

namespace {

using namespace fastcpu;

constexpr int kDefaultSobelOutput = 2; // the gradient magnitude

int sobelOutput(const FilterParams &p) { return int(paramOr(p, "output", kDefaultSobelOutput)); }
// Outputs 3 and 4 are gx and gy as signed 16-bit values (NPP's and OpenCV's CV_16S Sobel); their picture
// is that of outputs 0 and 1 (|g| / 4), so the 8-bit paths below draw them as those.
constexpr int kFirstWideOutput = 3;
int pictureOutput(const FilterParams &p)
{
    const int output = sobelOutput(p);
    return output >= kFirstWideOutput ? output - kFirstWideOutput : output;
}

// Same arithmetic as sobel_store() in kernels/sobel/sobel.cl.
inline unsigned char sobelValue(int gx, int gy, int output)
{
    if (output == 0 || output == 1) {
        const int v = (std::abs(output == 0 ? gx : gy) + 2) / 4;
        return static_cast<unsigned char>(v > 255 ? 255 : v);
    }
    return roundToU8(std::sqrt(float(gx * gx + gy * gy)) * 0.25f);
}

// The reference's gx and gy of channel c at (x, y), the border rule for the neighbours outside.
inline void sobelGradients(const Image &src, int x, int y, int c, BorderMode border, int &gx, int &gy)
{
    int q[3][3];
    for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx)
            q[dy][dx] = int(pixelAt(src, x + dx - 1, y + dy - 1, c, border));
    gx = (q[0][2] + 2 * q[1][2] + q[2][2]) - (q[0][0] + 2 * q[1][0] + q[2][0]);
    gy = (q[2][0] + 2 * q[2][1] + q[2][2]) - (q[0][0] + 2 * q[0][1] + q[0][2]);
}

void sobelReference(const Image &src, Image &dst, const FilterParams &p, int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    const int output = pictureOutput(p);
    parallelRows(h, threads, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            unsigned char *out = dst.row(y);
            const unsigned char *in = src.row(y);
            for (int x = 0; x < w; ++x)
                for (int c = 0; c < ch; ++c) {
                    if (ch == 4 && c == 3) { // alpha passes through
                        out[std::size_t(x) * ch + c] = in[std::size_t(x) * ch + c];
                        continue;
                    }
                    int gx = 0, gy = 0;
                    sobelGradients(src, x, y, c, p.border, gx, gy);
                    out[std::size_t(x) * ch + c] = sobelValue(gx, gy, output);
                }
        }
    });
}

// One output row from three padded rows (1 pixel each side): the reference's integer gx, gy and
// sobelValue() arithmetic, with the output choice hoisted out of the loop. The magnitude in float:
// gx^2 + gy^2 <= 2 * 1020^2 < 2^24, so the float products and sum are the reference's integers exactly.
FWB_VECTOR_CLONES
void sobelRow(const u8 *__restrict a, const u8 *__restrict b, const u8 *__restrict c, u8 *__restrict out,
              std::size_t n, std::size_t ch, int output)
{
    const std::size_t c2 = 2 * ch;
    if (output == 0) {
        for (std::size_t i = 0; i < n; ++i) {
            const int gx = (a[i + c2] + 2 * b[i + c2] + c[i + c2]) - (a[i] + 2 * b[i] + c[i]);
            const int v = ((gx < 0 ? -gx : gx) + 2) / 4;
            out[i] = u8(v > 255 ? 255 : v);
        }
    } else if (output == 1) {
        for (std::size_t i = 0; i < n; ++i) {
            const int gy = (c[i] + 2 * c[i + ch] + c[i + c2]) - (a[i] + 2 * a[i + ch] + a[i + c2]);
            const int v = ((gy < 0 ? -gy : gy) + 2) / 4;
            out[i] = u8(v > 255 ? 255 : v);
        }
    } else {
        for (std::size_t i = 0; i < n; ++i) {
            const int gx = (a[i + c2] + 2 * b[i + c2] + c[i + c2]) - (a[i] + 2 * b[i] + c[i]);
            const int gy = (c[i] + 2 * c[i + ch] + c[i + c2]) - (a[i] + 2 * a[i + ch] + a[i + c2]);
            const float fx = float(gx), fy = float(gy);
            const int v = int(std::sqrt(fx * fx + fy * fy) * 0.25f + 0.5f); // 0 .. 361: roundToU8's saturation
            out[i] = u8(v > 255 ? 255 : v);
        }
    }
}

// Fast path, per strip of rows: each source row padded once (a cache of three), then the reference's
// integer arithmetic over three padded rows per output row.
void sobelFast(const Image &src, Image &dst, const FilterParams &p, int threads)
{
    const int output = pictureOutput(p);
    const BorderMode border = p.border;
    const int w = src.width(), h = src.height(), ch = src.channels();
    const std::size_t n = std::size_t(w) * std::size_t(ch);
    const std::size_t padLen = n + 2 * std::size_t(ch);
    parallelRows(h, threads, [&](int y0, int y1) {
        const std::vector<u8> zero(padLen, 0);
        RowCache<u8> cache(3, padLen);
        auto padded = [&](int sy, u8 *out) { padRow(src.row(sy), out + ch, w, ch, 1, border); };
        for (int y = y0; y < y1; ++y) {
            const u8 *rows[3];
            for (int k = 0; k < 3; ++k) {
                const int by = borderIndex(y + k - 1, h, border);
                rows[k] = by < 0 ? zero.data() : cache.get(by, padded);
            }
            u8 *out = dst.row(y);
            sobelRow(rows[0], rows[1], rows[2], out, n, std::size_t(ch), output);
            if (ch == 4) { // alpha passes through
                const u8 *in = src.row(y);
                for (std::size_t i = 3; i < n; i += 4)
                    out[i] = in[i];
            }
        }
    });
}

// Outputs 3 and 4 (gray8): gx or gy of every pixel as the reference's integers, -1020 .. 1020.
void sobelWideReference(const Image &src, std::vector<std::int16_t> &values, const FilterParams &p)
{
    const int w = src.width(), h = src.height();
    const bool gx = sobelOutput(p) == kFirstWideOutput;
    values.resize(std::size_t(w) * std::size_t(h));
    parallelRows(h, int(std::max(1u, std::thread::hardware_concurrency())), [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y)
            for (int x = 0; x < w; ++x) {
                int g[2] = {0, 0};
                sobelGradients(src, x, y, 0, p.border, g[0], g[1]);
                values[std::size_t(y) * std::size_t(w) + std::size_t(x)] = std::int16_t(g[gx ? 0 : 1]);
            }
    });
}

// Their picture: (|g| + 2) / 4, what outputs 0 and 1 show.
void sobelWideView(const std::int16_t *values, Image &view, const FilterParams &)
{
    const int w = view.width();
    for (int y = 0; y < view.height(); ++y) {
        unsigned char *out = view.row(y);
        const std::int16_t *in = values + std::size_t(y) * std::size_t(w);
        for (int x = 0; x < w; ++x) {
            const int v = (std::abs(int(in[x])) + 2) / 4;
            out[x] = static_cast<unsigned char>(v > 255 ? 255 : v);
        }
    }
}

} // namespace

void registerSobel(std::vector<FilterSpec> &out)
{
    FilterSpec f;
    f.name = "sobel";
    f.openCv = {OpenCvEquivalent::Call::Sobel, 1, {}, {}, "output", 1, {}}; // convertScaleAbs rounds: ±1
    f.title = "Sobel edges";
    f.plainVerb = "finding the edges in the picture";
    f.description = "Sobel gradient gx = [-1 0 1; -2 0 2; -1 0 1] and gy (its transpose) per colour channel "
                    "(rgba8888: alpha is copied unchanged, so an opaque picture stays opaque). Output 0 "
                    "shows |gx| (vertical edges), 1 |gy| (horizontal edges), 2 the magnitude sqrt(gx^2 + gy^2). "
                    "All divided by 4, the sum of the positive weights, so |gx| and |gy| (0..1020) fill 0..255 "
                    "exactly; the magnitude saturates at 255 only for the strongest diagonal edges. Outputs 3 and 4 "
                    "(gray8) write gx and gy themselves as signed 16-bit numbers (-1020 .. 1020), what NPP's and "
                    "OpenCV's 16-bit Sobel give: twice the bytes written, each value checked exactly; the picture "
                    "shown and saved is that of output 0 or 1.";
    f.params = {{"output", "Output",
                 "0 = |gx|, 1 = |gy|, 2 = gradient magnitude (all divided by 4); 3 = gx, 4 = gy as signed 16-bit "
                 "numbers (gray8; shown as 0 and 1).",
                 double(kDefaultSobelOutput), 0, 4, 1, true}};
    f.wideOutput = [](const FilterParams &p) { return sobelOutput(p) >= kFirstWideOutput; };
    f.wideReference = sobelWideReference;
    f.wideView = sobelWideView;
    f.paramsProblem = [](const FilterParams &p) -> std::string {
        if (sobelOutput(p) >= kFirstWideOutput && p.format != PixelFormat::Gray8)
            return std::string("the 16-bit outputs (3 and 4) are single-channel, as NPP's: run gray8 (this run: ")
                   + formatName(p.format) + ")";
        return {};
    };
    f.tolerance = 1;
    f.toleranceNote = "|gx| and |gy| are exact (integer arithmetic, tested at 0); the magnitude allows ±1 because "
                      "OpenCL 1.2 lets sqrt be off by up to 3 ulp, which can move a .5 case";
    f.prepare = [](const FilterParams &p) {
        PreparedFilter prepared;
        prepared.radius = 1;
        prepared.params[0] = float(sobelOutput(p)); // a run-time choice: no rebuild per output
        return prepared;
    };
    f.cpuReference = fastOrReference(sobelFast, sobelReference);
    out.push_back(f);
    FilterSpec &s = out.back();
    s.variants.push_back(VariantSpec{
        .name = "naive",
        .title = "Naive 3x3",
        .kernelFile = "sobel.cl",
        .passes = {{"sobel_naive"}},
        .description = "One work-item per pixel reads its nine neighbours from global memory (border rule only near "
                       "the edges) and computes both gradients in integers. The cache serves the overlap.",
        .seedNote = "Like seed 004's unrolled 5x5 port: fixed, tiny window, fully unrolled.",
        .plainWords = "Every worker compares the pixels on either side of it to see how sharply the brightness changes - that is what lights up the edges.",
    });
    s.variants.push_back(VariantSpec{
        .name = "local_tiled",
        .title = "Local-memory tile",
        .kernelFile = "sobel.cl",
        .passes = {{"sobel_local"}},
        .tiledLocal = true,
        .tileHalo = 1,
        .description = "The work-group copies its tile plus a one-pixel halo into __local memory, waits at a barrier, "
                       "then reads the nine neighbours from there: fewer global reads, plus a copy and a barrier. "
                       "The tile is the work-group shape (auto: 16x16).",
        .seedNote = "Seed 004: a local tile gave no gain for 5x5 (1.96 vs 1.63 ms) - the cache already hits; a 3x3 "
                    "window reuses each pixel even less.",
        .plainWords = "Each team copies its patch of the picture into a fast scratchpad first, so nobody fetches the same pixel nine times.",
    });
    s.variants.push_back(VariantSpec{
        .name = "separable",
        .title = "Separable: [1 2 1] x [-1 0 1]",
        .kernelFile = "sobel.cl",
        .passes = {{"sobel_separable_h", Slot::Src, Slot::TmpA}, {"sobel_separable_v", Slot::TmpA, Slot::Dst}},
        .tempType = TempType::Float32, // 4 bytes per channel: two 16-bit partial results side by side
        .description = "Sobel is a smoothing [1 2 1] along one axis times a difference [-1 0 1] along the other. The "
                       "row pass stores both 1-D results per pixel as 16-bit integers in the scratch buffer; the "
                       "column pass combines three rows of them. Six reads instead of nine, but a full scratch "
                       "round trip: for a window this small the extra traffic usually costs more than it saves.",
        .seedNote = "Separability pays for wide windows (box, Gaussian); at 3x3 it mostly shows the cost of a pass.",
        .plainWords = "The edge test is split into a smoothing sweep and a difference sweep, which needs fewer sums per pixel.",
    });
    s.variants.push_back(VariantSpec{
        .name = "strips",
        .title = "Row strips: blocks of rows in registers",
        .kernelFile = "sobel.cl",
        .passes = {{"sobel_roofline", Slot::Src, Slot::Dst, Geometry::Blocks}},
        // Built per output (as the stream rung): the unrolled rows hold one output's arithmetic. H200, 6720x4480, cold,
        // two rounds (docs/data/session31-2026-11-29/c1): gray8 |gx| 0.0566/0.0567 -> 0.0519/0.0518 ms, build 1.0-1.5 ->
        // 0.4-0.6 s; the magnitude 0.0577 -> 0.0536; rgba8888 |gx| 0.2152/0.2154 -> 0.1951/0.1953, the magnitude
        // 0.2261/0.2259 -> 0.2275/0.2278 (+0.7%), builds 1.1-1.5 s either way.
        .paramDefines = {"output"},
        // H100, 6720x4480, |gx|: gray8 8x8 in 32x4 groups 0.066 ms, 8x4 in 16x8 0.057 (8x2 0.062, 16x4 0.068);
        // rgba8888 8x8 (32 bytes across, 220 registers) 0.58, 2x8 0.26, 2x4 in 16x8 groups 0.238. filter-bench
        // tune --blocks at 3360x2240 picked 16x8 groups too, with 8x2 (gray8, 0.0206 vs 0.0221 at 8x4) and 2x4.
        .blockWidth = 8,
        .blockHeight = 4,
        .blockBytesGpu = 8, // 8 bytes across on GPUs in every layout: gray8 8 pixels, rgba8888 2
        .rowAlign = 16, // odd widths: rows padded to 16 bytes on the device keep the aligned vectors (byte_strips.clh)
        .preferredLocalGpu = {16, 8},
        .preferredLocalCpu = {16, 4},
        .description = "Each work-item produces a block of outputs (8 pixels x 4 rows of gray8, 2 x 4 of rgba8888 on "
                       "GPUs). It loads each input row once per block as whole "
                       "aligned vectors (8 bytes) plus a halo vector on each side, and keeps "
                       "the window's three rows in registers while it slides down: one new row per output row, so "
                       "each input byte crosses memory about once (the halo is served by the cache). The column "
                       "part ([1 2 1] and [-1 0 1] down) runs first on the aligned vectors, the row part on "
                       "byte-shifted copies of those registers instead of new loads; the row loop has no exits "
                       "(only stores clip), so the next rows' loads overlap the arithmetic. One launch, no scratch "
                       "image, the reference's exact integers; the program is built for the output asked for (a "
                       "program per output), so the unrolled rows hold one output's arithmetic (H200 gray8 |gx| 0.057 "
                       "-> 0.052 ms). Small blocks need few registers, so more work-items "
                       "are in flight to hide memory latency (on GPUs 8x4 blocks in 16x8 work-groups; 8 rgba8888 "
                       "pixels across, 32 bytes, needed 220 registers and ran at a quarter of the speed).",
        .seedNote = "Seed 004 lost 14.5x to its card's bandwidth floor; this rung moves the bytes a stencil must move "
                    "and little more (the digest's 'physical limits': 2 bytes per 8-bit pixel).",
        .plainWords = "Each worker handles a whole block of pixels and reads each row once, so the picture is read in big gulps.",
    });
    s.variants.push_back(stream3x3Variant(VariantSpec{
        .name = "stream",
        .title = "Streaming: every row's loads at once",
        .kernelFile = "sobel.cl",
        .passes = {{"sobel_stream", Slot::Src, Slot::Dst, Geometry::Blocks}},
        .paramDefines = {"output"}, // one output's arithmetic in the unrolled loop: built per output
        // 16-bit gx (outputs 3, 4) on GPUs: two rows a work-item. H200, 6720x4480, two rounds (docs/data/
        // session24-2026-11-28/c3, c5): rows 1 0.0313/0.0316 ms (L2 flushed 0.0326/0.0327), 2 0.0319/0.0321 (flushed
        // 0.0298/0.0299), 4 (the 8-bit outputs' best) 0.042, 8 0.036, 16 0.043.
        .blockHeightGpuWide = 2,
        .description = "Strips 16 bytes across and 4 rows down (16 gray8 or 4 rgba8888 pixels). Each input row is "
                       "three aligned 16-byte loads (the strip's vector and its neighbours, mostly served by the "
                       "cache) seen as the pixels one to the left, the pixels themselves and one to the right; the "
                       "row pass keeps right - left and left + 2 centre + right (16-bit), the column pass joins "
                       "three rows into gx and gy with the reference's integers and rounding. Whether a strip lies "
                       "inside the image is decided once, before its rows, and rows outside follow the border rule "
                       "by index arithmetic, so the strip's loop has no branch between its loads and the compiler "
                       "may issue every row's loads at once. The arithmetic runs two pixels per 32-bit word in "
                       "biased 16-bit halves, and the program is built for the output asked for (a program per output), "
                       "so the loop holds one output's arithmetic. On NVIDIA the 8-bit gray8 outputs skip the shifted "
                       "views (a word's pixels and their outer neighbours one byte permute each: H200 |gy| 0.0312 -> "
                       "0.0255 ms). Exact; rgba8888 alpha passes through. On the H100 "
                       "the fastest Sobel rung in both layouts (docs/MEASUREMENTS.md, \"Streaming 3x3 rungs\")."
                       " Every row's loads at once on NVIDIA; elsewhere (PoCL, other GPUs) the rows run in one rolled loop: the same bytes for a fifth of the compile time.",
        .seedNote = "The digest's 'physical limits' (2 bytes per 8-bit pixel): a copy of the picture with the "
                    "edge test on the way.",
        .plainWords = "Each worker asks for all the rows it needs at once instead of one after another.",
    }));
}

} // namespace fwb
