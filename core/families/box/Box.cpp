// box (full-image box blur of any radius with borders: naive, separable, sliding window; kernels/box/box.cl):
// catalogue entry, the plain CPU reference and the fast multi-threaded CPU path. Integer sums, one rounding.
#include "Catalogue.h"
#include "CpuReference.h"
#include "families/shared/CpuRows.h"
#include "families/shared/FastCpu.h"
#include "families/shared/Packed.h"
#include "families/shared/Stream3x3.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace fwb {

namespace {

using namespace fastcpu;

constexpr int kDefaultBoxRadius = 3;

int boxRadius(const FilterParams &p) { return int(paramOr(p, "radius", kDefaultBoxRadius)); }

// Exact integer box sums, computed separably (the result is the same integer whatever the order):
// row sums with the border rule on x, then column sums of those with the border rule on y.
void boxReference(const Image &src, Image &dst, const FilterParams &p, int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    const int r = boxRadius(p), area = (2 * r + 1) * (2 * r + 1);
    std::vector<int> rows(std::size_t(w) * h * ch);
    parallelRows(h, threads, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const unsigned char *in = src.row(y);
            int *out = rows.data() + std::size_t(y) * w * ch;
            for (int x = 0; x < w; ++x)
                for (int c = 0; c < ch; ++c) {
                    int sum = 0;
                    for (int dx = -r; dx <= r; ++dx) {
                        const int bx = borderIndex(x + dx, w, p.border);
                        if (bx >= 0)
                            sum += in[std::size_t(bx) * ch + c];
                    }
                    out[std::size_t(x) * ch + c] = sum;
                }
        }
    });
    parallelRows(h, threads, [&](int y0, int y1) {
        std::vector<int> sums(std::size_t(w) * ch);
        for (int y = y0; y < y1; ++y) {
            std::fill(sums.begin(), sums.end(), 0);
            for (int dy = -r; dy <= r; ++dy) {
                const int by = borderIndex(y + dy, h, p.border);
                if (by < 0)
                    continue;
                const int *in = rows.data() + std::size_t(by) * w * ch;
                for (std::size_t i = 0; i < sums.size(); ++i)
                    sums[i] += in[i];
            }
            unsigned char *out = dst.row(y);
            for (std::size_t i = 0; i < sums.size(); ++i)
                out[i] = saturateU8(divRound(sums[i], area));
        }
    });
}

// Row sums of 2r+1 pixels over a padded row (16-bit: at most 101 * 255).
FWB_VECTOR_CLONES
void boxRowSums(const u8 *__restrict pad, std::uint16_t *__restrict out, std::size_t n, std::size_t ch, int r)
{
    if (r <= 8) { // few taps: one vectorised pass per tap beats the serial running sum
        for (std::size_t i = 0; i < n; ++i)
            out[i] = std::uint16_t(pad[i] + pad[i + ch]);
        int k = 2;
        for (; k + 1 <= 2 * r; k += 2) {
            const u8 *in = pad + std::size_t(k) * ch, *in2 = in + ch;
            for (std::size_t i = 0; i < n; ++i)
                out[i] = std::uint16_t(out[i] + in[i] + in2[i]);
        }
        for (; k <= 2 * r; ++k) {
            const u8 *in = pad + std::size_t(k) * ch;
            for (std::size_t i = 0; i < n; ++i)
                out[i] = std::uint16_t(out[i] + in[i]);
        }
        return;
    }
    // Many taps: running sum per channel, two operations per pixel whatever the radius.
    const std::size_t span = std::size_t(2 * r + 1) * ch;
    for (std::size_t c = 0; c < ch; ++c) {
        unsigned s = 0;
        for (std::size_t i = c; i < span; i += ch)
            s += pad[i];
        out[c] = std::uint16_t(s);
        for (std::size_t i = c + ch; i < n; i += ch) {
            s += unsigned(pad[i + span - ch]) - unsigned(pad[i - ch]);
            out[i] = std::uint16_t(s);
        }
    }
}

FWB_VECTOR_CLONES
void addRow(std::int32_t *__restrict acc, const std::uint16_t *__restrict row, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i)
        acc[i] += row[i];
}

// round(sum / area) halves up, as divRound() in integers: (2 sum + area) / (2 area). Done in float,
// which is exact here: 2 sum + area <= 511 area < 2^23 and (quotient + 1) * 2 area < 2^24, so the
// correctly rounded float quotient never reaches the next integer (and float division vectorises).
// The window slides down first: sums += entering row - leaving row, then the division, in one sweep.
FWB_VECTOR_CLONES
void boxSlideDivide(std::int32_t *__restrict sums, const std::uint16_t *__restrict enter,
                    const std::uint16_t *__restrict leave, u8 *__restrict out, std::size_t n, int area)
{
    const float den = float(2 * area);
    for (std::size_t i = 0; i < n; ++i) {
        const std::int32_t s = sums[i] + std::int32_t(enter[i]) - std::int32_t(leave[i]);
        sums[i] = s;
        out[i] = u8(int(float(2 * s + area) / den));
    }
}

// Fast path, per strip of rows: row sums of the source rows the strip's windows need (each computed
// once, in a cache of 2r+2 rows), then a running column sum (add the row entering the window,
// subtract the one leaving). Exact integers, so equal to the reference.
void boxFast(const Image &src, Image &dst, const FilterParams &p, int threads)
{
    const int r = boxRadius(p);
    const BorderMode border = p.border;
    const int w = src.width(), h = src.height(), ch = src.channels();
    const std::size_t n = std::size_t(w) * std::size_t(ch);
    const int area = (2 * r + 1) * (2 * r + 1);
    parallelRows(h, threads, [&](int y0, int y1) {
        // 2r+2 slots: the window's 2r+1 rows and the row leaving it are at most 2r+2 consecutive row
        // numbers (also where the border rule folds them back into the image), so none evicts another.
        RowCache<std::uint16_t> cache(2 * r + 2, n);
        std::vector<u8> pad((std::size_t(w) + 2 * std::size_t(r)) * std::size_t(ch));
        const std::vector<std::uint16_t> zero(n, 0);
        std::vector<std::int32_t> sums(n, 0);
        auto rowPass = [&](int sy, std::uint16_t *out) {
            padRow(src.row(sy), pad.data() + std::size_t(r) * std::size_t(ch), w, ch, r, border);
            boxRowSums(pad.data(), out, n, std::size_t(ch), r);
        };
        auto row = [&](int y) -> const std::uint16_t * {
            const int by = borderIndex(y, h, border);
            return by < 0 ? zero.data() : cache.get(by, rowPass);
        };
        for (int dy = -r; dy < r; ++dy) // the first window but its last row, which the loop adds
            addRow(sums.data(), row(y0 + dy), n);
        for (int y = y0; y < y1; ++y)
            boxSlideDivide(sums.data(), row(y + r), y > y0 ? row(y - r - 1) : zero.data(), dst.row(y), n, area);
    });
}

} // namespace

void registerBox(std::vector<FilterSpec> &out)
{
    FilterSpec b;
    b.name = "box";
    b.title = "Box blur";
    b.plainVerb = "blurring the picture";
    b.description = "Mean of the (2r+1) x (2r+1) square around every pixel, border rule applied at the edges "
                    "(constant: zeros count in the mean). The ladder shows how the cost per pixel falls from "
                    "(2r+1)^2 reads (naive) to 2(2r+1) (separable) to about 4 whatever the radius (sliding window).";
    b.params = {{"radius", "Radius (px)", "Half-width of the square window: the blur averages (2r+1)^2 pixels.",
                 double(kDefaultBoxRadius), 1, 50, 1, true}};
    b.tolerance = 0;
    b.openCv = {OpenCvEquivalent::Call::Blur, 0, "radius", {}, {}, 1, {}}; // cvRound's .5 cases: ±1
    b.toleranceNote = "exact (0): every variant sums integers exactly (float scratch values stay below 2^24) and "
                      "rounds once, in integers, like the CPU reference";
    b.prepare = [](const FilterParams &p) {
        PreparedFilter prepared;
        prepared.radius = boxRadius(p);
        // Sizes the fused_local rung's __local tile and unrolls its loops (one program per radius).
        prepared.defines.push_back("-DBOX_RADIUS=" + std::to_string(prepared.radius));
        return prepared;
    };
    b.cpuReference = fastOrReference(boxFast, boxReference);
    out.push_back(b);
    FilterSpec &box = out.back();
    box.variants.push_back(VariantSpec{
        .name = "naive",
        .title = "Naive 2-D window",
        .kernelFile = "box.cl",
        .passes = {{"box_naive"}},
        .description = "One work-item per pixel reads all (2r+1)^2 neighbours (49 at r=3, 10201 at r=50). Simple, "
                       "and the cache serves much of the overlap, but the work grows with the square of the radius.",
        .seedNote = "Baseline for the box ladder; the seeds did not measure it.",
        .plainWords = "Every worker adds up all the pixels in the square around it - the bigger the blur, the more it has to add.",
    });
    box.variants.push_back(VariantSpec{
        .name = "separable",
        .title = "Separable: rows, then columns",
        .kernelFile = "box.cl",
        .passes = {{"box_separable_h", Slot::Src, Slot::TmpA}, {"box_separable_v", Slot::TmpA, Slot::Dst}},
        .tempType = TempType::Float32,
        .description = "A box is a row average followed by a column average: pass 1 sums 2r+1 pixels along the "
                       "row into a float scratch buffer, pass 2 sums 2r+1 of those down the column. 2(2r+1) reads "
                       "instead of (2r+1)^2, paid for with a scratch buffer 4x the image and a second launch.",
        .seedNote = "Seed 000 (OS X guide) splits its Gaussian the same way; cost still grows linearly with r.",
        .plainWords = "The blur is done as a row sweep and then a column sweep, so a big blur costs far fewer sums per pixel.",
    });
    box.variants.push_back(VariantSpec{
        .name = "sliding_window",
        .title = "Sliding window (running sums)",
        .kernelFile = "box.cl",
        .passes = {{"box_sliding_rows", Slot::Src, Slot::TmpA, Geometry::Columns},
                   {"box_sliding_cols", Slot::TmpA, Slot::Dst, Geometry::Columns}},
        .tempType = TempType::Float32,
        .description = "Each work-item walks a whole row (pass 1) or column (pass 2) keeping a running sum: add the "
                       "pixel entering the window, subtract the one leaving. About 4 reads per pixel whatever the "
                       "radius, but only W work-items per pass, each a long sequential loop - little parallelism for "
                       "a GPU, and the row pass reads with a row-sized stride between neighbouring work-items "
                       "(uncoalesced). Both passes are 1-D launches of W work-items; the row pass strides over rows.",
        .seedNote = "Seed 000's recursive-filter lesson in miniature: cost flat in the radius, but sequential per "
                    "line, so it cannot saturate a GPU.",
        .plainWords = "One worker walks a whole row (then a column) keeping a running total, so the cost does not grow with the blur - but only a few workers are busy.",
    });
    box.variants.push_back(VariantSpec{
        .name = "strips",
        .title = "Small radius: row strips in registers",
        .kernelFile = "box.cl",
        .passes = {{"box_strips", Slot::Src, Slot::Dst, Geometry::Blocks}},
        .formats = {PixelFormat::Gray8, PixelFormat::Rgba8888},
        .blockWidth = 8,
        .blockHeight = 8,
        .blockBytesGpu = 8, // 8 gray8 or 2 rgba8888 pixels per work-item and row
        .blockBytesCpu = 16,
        .maxRadius = 2,
        .rowAlign = 16, // odd widths: rows padded to 16 bytes on the device keep the aligned loads
        .preferredLocalGpu = LocalSize{32, 8},
        .preferredLocalCpu = LocalSize{16, 1},
        .description = "For radius 1 and 2 (the 3x3 and 5x5 means): both passes in one kernel with no scratch "
                       "memory at all. Each work-item owns a strip 8 bytes across and 8 rows down and walks down "
                       "it: every input row is fetched once (one aligned 8-byte load and the r-pixel halo on each "
                       "side), summed along the row, and the last 2r row sums stay in registers to be summed down "
                       "the column - each input byte is fetched (8+2r)/8 times, 2(2r+1) adds per output byte. "
                       "The image edges stay on the fast path (the border rule's pixels already sit in the loaded "
                       "block), bytes enter the sums through the float mantissa (exact), and the rounded mean is "
                       "taken in the mantissa too, so the result is bit-exact. The same strips as gaussian5x5's "
                       "and box3x3_interior's strips rungs (kernels/shared/separable_strips.clh). Unavailable above "
                       "radius 2: the rows kept grow with r; the fused_local rung handles any radius.",
        .seedNote = "Not in the seeds; the register-strip form of 'Fast stencils' (CUDA convolutionSeparable, "
                    "Halide's sliding windows) for the radii OpenCV users reach for most.",
        .plainWords = "For a small blur, each worker slides down a thin strip of the picture and keeps the last few "
                      "rows in its head, so every pixel is read from memory about once.",
    });
    box.variants.push_back(packedVariant(VariantSpec{
        .name = "packed",
        .title = "Packed: two sums per 32-bit add (3x3, gray8)",
        .kernelFile = "box.cl",
        .passes = {{"box_packed", Slot::Src, Slot::Dst, Geometry::Blocks}},
        .defines = {"BOX_PACKED"},
        .description = "The 3x3 mean on strips 16 pixels across and 8 rows down, each input row loaded once as an "
                       "aligned 16-byte vector plus the halo, with the sums done two pixels at a time in the 16-bit "
                       "halves of 32-bit words: a row word's even and odd pixels (two masks), each shifted by one "
                       "pixel with a funnel shift from the neighbouring word, give the 3-wide row sums in two adds "
                       "per half; three rows add in two more, and the rounded mean is one multiply and shift per "
                       "pixel (floor((s + 4) x 7282 / 65536), the reference's rounding for every sum a 3x3 window "
                       "can reach). One byte permute joins four results. About 5 operations per output byte. "
                       "Radius 1 and gray8 only. Exact. On a large GPU it is slower than the strips rung: fewer "
                       "instructions did not pay where the time is set on the memory side.",
        .seedNote = "Not in the seeds: the box's sums as packed integers, two pixels per add.",
        .plainWords = "Each worker adds up pairs of pixels in one step, so the work per pixel shrinks until only "
                      "reading and writing the picture is left.",
    }));
    box.variants.push_back(stream3x3Variant(VariantSpec{
        .name = "stream",
        .title = "Streaming 3x3: every row's loads at once",
        .kernelFile = "box.cl",
        .passes = {{"box_stream", Slot::Src, Slot::Dst, Geometry::Blocks}},
        .maxRadius = 1, // the views are one pixel left and right
        .description = "The 3x3 mean (radius 1; gray8 and rgba8888) on strips 16 bytes across and 4 rows down. "
                       "Each input row is three aligned 16-byte loads (the strip's vector and its neighbours, "
                       "mostly served by the cache) seen as the pixels one to the left, the pixels themselves and "
                       "one to the right; their sum is the row sum, three row sums the window's, and the rounded mean "
                       "is floor((s + 4) x 7282 / 65536), the reference's rounding for every sum a 3x3 window can "
                       "reach. On NVIDIA the sums run two pixels to a 32-bit word (a word's even bytes and its odd "
                       "bytes, each in a 16-bit half; one three-input add a word for the window), a word's two "
                       "means by one multiply-add of its low half and one 64-bit multiply-add of the whole word, "
                       "and three byte permutes put four means in place: on the H200 0.0927 -> 0.0747 ms "
                       "rgba8888, 0.0282 -> 0.0249 gray8; and gray8 there skips the shifted views: a word's even and odd pixels "
                       "and the pixels just outside them are one byte permute each, and an output's three pixels are "
                       "added from those (0.0249 -> 0.0230 ms). Elsewhere (PoCL, other GPUs) 16-bit lanes, which CPUs "
                       "vectorise. Whether a strip lies inside the image is decided once, before its rows, and rows outside follow the border rule by index "
                       "arithmetic, so the compiler may issue every row's loads at once; the strips at a row's two ends "
                       "load the same way and put in the border rule's pixel. Exact. On the H100 and the H200 the fastest box "
                       "rung at radius 1 in both layouts (docs/MEASUREMENTS.md, \"Streaming 3x3 rungs\", \"Session 25\")."
                       " Every row's loads at once on NVIDIA; elsewhere (PoCL, other GPUs) the rows run in one rolled loop: the same bytes for a fifth of the compile time.",
        .seedNote = "The digest's 'physical limits' (2 bytes per 8-bit pixel): a copy of the picture with a "
                    "3x3 mean on the way.",
        .plainWords = "Each worker asks for all the rows it needs at once instead of one after another.",
    }));
    box.variants.push_back(VariantSpec{
        .name = "fused_local",
        .title = "Both passes fused in local memory, running sums",
        .kernelFile = "box.cl",
        .passes = {{"box_roofline", Slot::Src, Slot::Dst, Geometry::Blocks}},
        .tiledLocal = true,
        .blockWidth = 4,
        .blockHeight = 1, // 2-row blocks ran 6% faster (r = 3, gray8) but need 84 KB at r = 50 rgba8888
        .description = "One kernel does both passes. A work-group owns a tile of (4 x its width) pixels by (its "
                       "height) rows; its work-items first walk down the tile's columns plus r columns of apron "
                       "on each side keeping a running column sum (add the row entering, subtract the row leaving), "
                       "with neighbouring work-items on neighbouring bytes, and leave the sums in __local memory; "
                       "then each work-item slides a running row sum over them and writes 4 pixels per row (16 "
                       "bytes for rgba8888). The intermediate never goes to global memory (the separable variants "
                       "write and read back a float buffer 4x the image), and the cost per pixel barely grows with "
                       "the radius. The tile needs (rows x (4 x width + 2r) x channels) floats of __local memory: "
                       "42 KB for rgba8888 at r = 50 with the 16x16 auto shape. On a GPU it stays far from the memory "
                       "limit (and in rgba8888 behind the two-pass separable rung): the column "
                       "pass reads one byte per work-item per load and the row pass re-reads 2r+1 floats of __local "
                       "memory per output, so instruction issue, not bandwidth, sets the time.",
        .seedNote = "Seed 000's lesson (cost flat in the radius) without its sequential whole-line loops, and "
                    "seed 003's local-memory staging applied to the intermediate rather than the input.",
        .plainWords = "Each team does both sweeps in its fast scratchpad with running totals, so even a huge blur costs about the same as a small one.",
    });
    box.variants.push_back(cpuRowsVariant("cpu_rows_box",
                       "Shaped for an ordinary processor: each worker averages a strip sixteen pixels at a time with whole-number sums in the processor's wide instructions, reading each row once.",
                       "CPU-shaped: 16-bit integer vectors down row strips", 2,
                       "The box (radius 1 and 2): exact ushort16 sums (at most 25 x 255), and the "
                    "rounded mean (s + A/2) / A as one multiply-high by ceil(2^17 / A) and a shift, exact for these "
                    "sums: integers only, 16 lanes in half a register. On PoCL it beat OpenCV's own CPU box filter "
                    "in both layouts and the GPU-shaped strips by 8-10x.",
                                          "Not in the seeds: the integer form of OpenCV's own box filter, in OpenCL vectors."));
}

} // namespace fwb
