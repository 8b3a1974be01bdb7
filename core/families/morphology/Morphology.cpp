// erode and dilate (square min/max window: naive, separable, local tile; kernels/morphology/morphology.cl):
// catalogue entries, the plain CPU reference and the fast multi-threaded CPU path.
#include "Catalogue.h"
#include "CpuReference.h"
#include "families/shared/CpuRows.h"
#include "families/shared/FastCpu.h"
#include "families/shared/Packed.h"
#include "families/shared/Stream3x3.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace fwb {

namespace {

using namespace fastcpu;

constexpr int kDefaultMorphRadius = 2;

int morphRadius(const FilterParams &p) { return int(paramOr(p, "radius", kDefaultMorphRadius)); }

// Separable min/max: rows, then columns of the row result. Equal to the 2-D window for every border
// rule because the rule maps x and y independently (constant: 0 enters either way).
void morphologyReference(const Image &src, Image &dst, int radius, bool dilate, BorderMode border, int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    auto op = [dilate](int a, int b) { return dilate ? std::max(a, b) : std::min(a, b); };
    const int identity = dilate ? 0 : 255;
    // One 1-D pass of the window, stepping (sx, sy) per tap: along the rows (1, 0), then the columns (0, 1).
    auto pass = [&](const Image &in, Image &out, int sx, int sy) {
        parallelRows(h, threads, [&](int y0, int y1) {
            for (int y = y0; y < y1; ++y)
                for (int x = 0; x < w; ++x)
                    for (int c = 0; c < ch; ++c) {
                        int acc = identity;
                        for (int d = -radius; d <= radius; ++d)
                            acc = op(acc, int(pixelAt(in, x + d * sx, y + d * sy, c, border)));
                        out.row(y)[std::size_t(x * ch + c)] = static_cast<unsigned char>(acc);
                    }
        });
    };
    Image rows(w, h, src.format());
    pass(src, rows, 1, 0);
    pass(rows, dst, 0, 1);
}

// The row loops, one per operation (plain functions so each gets its AVX2 clone): out = op(a, b), and
// out = op(out, a, b) (two inputs per sweep, so the running result goes through memory half as often).
#define FWB_MORPH_LOOPS(NAME, OP)                                                                              \
    FWB_VECTOR_CLONES                                                                                        \
    void NAME##2(u8 *__restrict out, const u8 *__restrict a, const u8 *__restrict b, std::size_t n)          \
    {                                                                                                        \
        for (std::size_t i = 0; i < n; ++i)                                                                  \
            out[i] = OP(a[i], b[i]);                                                                         \
    }                                                                                                        \
    FWB_VECTOR_CLONES                                                                                        \
    void NAME##Into(u8 *__restrict out, const u8 *__restrict a, const u8 *__restrict b, std::size_t n)       \
    {                                                                                                        \
        for (std::size_t i = 0; i < n; ++i)                                                                  \
            out[i] = OP(out[i], OP(a[i], b[i]));                                                             \
    }

inline u8 minU8(u8 a, u8 b) { return a < b ? a : b; }
inline u8 maxU8(u8 a, u8 b) { return a > b ? a : b; }
FWB_MORPH_LOOPS(minRows, minU8)
FWB_MORPH_LOOPS(maxRows, maxU8)
#undef FWB_MORPH_LOOPS

// out = op over the `count` (odd, >= 3) rows in[0 .. count): pairs per sweep.
void morphRows(u8 *out, const u8 *const *in, int count, std::size_t n, bool dilate)
{
    (dilate ? maxRows2 : minRows2)(out, in[0], in[1], n);
    int k = 2;
    for (; k + 1 < count; k += 2)
        (dilate ? maxRowsInto : minRowsInto)(out, in[k], in[k + 1], n);
    if (k < count) // count even: the last one paired with itself
        (dilate ? maxRowsInto : minRowsInto)(out, in[k], in[k], n);
}

// Fast path, per strip of rows: the row min/max over each padded source row the strip's windows need
// (each computed once, in a cache of 2r+1 rows), then the column min/max of the window's 2r+1 cached
// rows (a zero row outside, constant border). Selects input values, so exact.
void morphologyFast(const Image &src, Image &dst, int r, bool dilate, BorderMode border, int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    const std::size_t n = std::size_t(w) * std::size_t(ch);
    const int taps = 2 * r + 1;
    parallelRows(h, threads, [&](int y0, int y1) {
        RowCache<u8> cache(taps, n);
        std::vector<u8> pad((std::size_t(w) + 2 * std::size_t(r)) * std::size_t(ch));
        const std::vector<u8> zero(n, 0);
        std::vector<const u8 *> in(static_cast<std::size_t>(taps));
        auto rowPass = [&](int sy, u8 *out) {
            padRow(src.row(sy), pad.data() + std::size_t(r) * std::size_t(ch), w, ch, r, border);
            for (int k = 0; k < taps; ++k)
                in[std::size_t(k)] = pad.data() + std::size_t(k) * std::size_t(ch);
            morphRows(out, in.data(), taps, n, dilate);
        };
        std::vector<const u8 *> rows(static_cast<std::size_t>(taps));
        for (int y = y0; y < y1; ++y) {
            for (int k = 0; k < taps; ++k) {
                const int by = borderIndex(y + k - r, h, border);
                rows[std::size_t(k)] = by < 0 ? zero.data() : cache.get(by, rowPass);
            }
            morphRows(dst.row(y), rows.data(), taps, n, dilate);
        }
    });
}

void addMorphology(std::vector<FilterSpec> &out, bool dilate)
{
    const std::string opName = dilate ? "maximum" : "minimum";
    FilterSpec f;
    f.name = dilate ? "dilate" : "erode";
    f.title = dilate ? "Dilate (square)" : "Erode (square)";
    f.plainVerb = dilate ? "thickening the bright shapes in the picture" : "thinning the bright shapes in the picture";
    f.description = "Each channel's " + opName + " over a square (2r+1)x(2r+1) window: " +
                    (dilate ? "bright regions grow, dark specks vanish." : "dark regions grow, bright specks vanish.")
                    + " The border rule decides what lies outside the image; with 'constant' that is 0, "
                    + (dilate ? "which a maximum never picks." : "so erosion darkens the edges.");
    f.params = {{"radius", "Radius (px)", "Half the window side: the window is (2r+1) pixels square.",
                 double(kDefaultMorphRadius), 1, 30, 1, true}};
    f.tolerance = 0;
    f.toleranceNote = "exact: min/max select an input value";
    f.openCv = {dilate ? OpenCvEquivalent::Call::Dilate : OpenCvEquivalent::Call::Erode, 0, "radius", {}, {}, 1, {}};
    f.prepare = [dilate](const FilterParams &p) {
        const int r = int(morphRadius(p));
        PreparedFilter prepared;
        prepared.radius = r;
        prepared.defines = {"-DMORPH_RADIUS=" + std::to_string(r), std::string("-DMORPH_DILATE=") + (dilate ? "1" : "0")};
        return prepared;
    };
    f.cpuReference = [dilate](const Image &src, Image &dst, const FilterParams &p, int threads) {
        const int radius = int(morphRadius(p));
        if (useFastCpuPath(threads))
            morphologyFast(src, dst, radius, dilate, p.border, threads);
        else
            morphologyReference(src, dst, radius, dilate, p.border, threads);
    };
    f.variants.push_back(VariantSpec{
        .name = "naive",
        .isBaseline = true,
        .title = "Naive 2-D window",
        .kernelFile = "morphology.cl",
        .passes = {{"morph_naive"}},
        .sharesTileProgram = true, // one program per (layout, radius) for all three variants
        .tileHalo = 30, // worst case (radius 30): the tile is compiled for the run's radius
        .description = "Reads all (2r+1)^2 window pixels from global memory per output pixel: 25 at r = 2, 3721 "
                       "at r = 30. Cost grows with the square of the radius.",
        .seedNote = "The baseline; the window size is compiled in (-DMORPH_RADIUS), so the loops can unroll.",
        .plainWords = "Every worker looks at all the pixels in the square around it and keeps the darkest (erode) or brightest (dilate).",
    });
    f.variants.push_back(VariantSpec{
        .name = "separable",
        .title = "Separable: rows then columns",
        .kernelFile = "morphology.cl",
        .passes = {{"morph_rows", Slot::Src, Slot::TmpA}, {"morph_columns", Slot::TmpA, Slot::Dst}},
        .sharesTileProgram = true,
        .tileHalo = 30,
        .description = "A square window's " + opName + " is the " + opName + " of the row " + opName + "s: a row pass "
                       "into a scratch image, then a column pass - 2(2r+1) reads per pixel instead of (2r+1)^2, "
                       "exact, at the price of one extra image round trip through global memory.",
        .seedNote = "Same trick as the separable Gaussian: linear instead of quadratic cost in the radius.",
        .plainWords = "The square is handled as a row sweep and then a column sweep, so each pixel is compared a handful of times instead of dozens.",
    });
    f.variants.push_back(VariantSpec{
        .name = "local_tiled",
        .title = "Local tile, separable inside",
        .kernelFile = "morphology.cl",
        .passes = {{"morph_local"}},
        .tiledLocal = true,
        .sharesTileProgram = false,
        .tileHalo = 30,
        .description = "One launch: the work-group stages its tile plus an r-pixel halo in __local memory, reduces "
                       "rows into a second local array, then columns. Separable cost without the scratch image; "
                       "the halo grows with r ((16+2r)^2 pixels per 256 outputs), so the copy dominates at large r.",
        .seedNote = "Seed 004: local tiles pay off only when the cache cannot already serve the re-reads.",
        .plainWords = "Each team copies its patch into a fast scratchpad first and does both sweeps from there.",
    });
    f.variants.push_back(VariantSpec{
        .name = "strips",
        .title = "Row strips: both passes fused in registers",
        .kernelFile = "morphology.cl",
        .passes = {{"morph_roofline", Slot::Src, Slot::Dst, Geometry::Blocks}},
        .blockWidth = 8, // CPU devices: 8 pixels across in both layouts
        .blockHeight = 8,
        // GPUs: 8 gray8 pixels, but 4 rgba8888 pixels (one 16-byte vector) per work-item and row: the
        // 32-byte rows of 8 rgba pixels held twice the registers and cut the work-items in flight (H100,
        // 6720x4480, erode r = 1: 0.288 ms at 8x8, 0.160 at 4x8 in 16x8 work-groups; scripts/npp-compare.sh).
        .blockBytesGpu = 8,
        .blockBytesGpuRgba = 16,
        .rowAlign = 16, // odd widths: rows padded to 16 bytes on the device keep the aligned vectors (byte_strips.clh)
        .preferredLocalGpu = {16, 8},
        .preferredLocalCpu = {16, 4},
        .description = "One launch, the separable split kept in registers. Each work-item produces a block of "
                       "outputs 8 rows tall on whole byte vectors (on GPUs 8 gray8 or 4 rgba pixels across; one "
                       "vector " + opName + " takes every byte at once). Each input row is loaded once as aligned vectors plus a halo, reduced along "
                       "the row from byte-shifted copies of those registers, and the last 2r+1 row results stay in "
                       "registers while the block slides down (for large radii, where they no longer fit, they are "
                       "recomputed from cached rows), so the column pass costs 2r " + opName + "s per vector "
                       "and no scratch image: each byte crosses memory about once. Exact.",
        .seedNote = "The separable trick of seed 004's ladder without its scratch round trip; the 'physical limits' "
                    "line of the digest (2 bytes per 8-bit pixel) is the target.",
        .plainWords = "Each worker slides down a strip of the picture reading each row once, so every pixel comes from memory about once.",
    });
    f.variants.push_back(packedVariant(VariantSpec{
        .name = "packed",
        .title = "Packed: two pixels per 16-bit min/max (3x3, gray8)",
        .kernelFile = "morphology.cl",
        .passes = {{"morph_packed", Slot::Src, Slot::Dst, Geometry::Blocks}},
        .description = "The strips rung's strips (each input row loaded once as an aligned 16-byte vector plus "
                       "the halo, the window's rows kept in registers while the block slides down) with the "
                       + opName + " done two pixels at a time on 16-bit halves of 32-bit words. A half whose "
                       "high byte is a pixel orders by that pixel whatever its low byte holds, so the word "
                       "itself, the word shifted by one byte, and one funnel shift with a neighbouring word give "
                       "every pixel's left, own and right value in high bytes without unpacking: the 3-wide row "
                       "pass costs one shift, two funnel shifts and three 16x2 " + opName + "s per four pixels, "
                       "the column pass two per word, and one byte permute joins the results - about 3 "
                       "operations per output byte, where the byte-vector rung spends several per byte "
                       "shifting and unpacking. On NVIDIA the 16x2 " + opName + " and the permute are single "
                       "instructions (inline PTX); elsewhere portable ushort2 " + opName + " and shifts, so the "
                       "CPU tests check this very arithmetic. Radius 1 and gray8 only. Exact. On a large GPU it "
                       "runs about as fast as the strips rung: halving the instructions did not move the time, "
                       "which is set on the memory side.",
        .seedNote = "Seed 000's min/max instead of branches, two pixels per instruction.",
        .plainWords = "Like the strip version, but every comparison handles two pixels at once. On a big graphics "
                      "card that hardly changes the time: waiting for the picture's bytes, not comparing them, "
                      "sets the pace.",
    }));
    VariantSpec &stream = f.variants.emplace_back(stream3x3Variant(VariantSpec{
        .name = "stream",
        .title = "Streaming 3x3: every row's loads at once",
        .kernelFile = "morphology.cl",
        .passes = {{"morph_stream", Slot::Src, Slot::Dst, Geometry::Blocks}},
        .maxRadius = 1, // the views are one pixel left and right
        .description = "The 3x3 " + opName + " (radius 1; gray8 and rgba8888) on strips 16 bytes across and 4 rows "
                       "down (2 in gray8 on GPUs). Each input row is three aligned 16-byte loads (the strip's vector and its "
                       "neighbours, mostly served by the cache) seen as the pixels one to the left, the pixels "
                       "themselves and one to the right; the row pass is the " + opName + " of the three views, the "
                       "column pass that of three row results. On NVIDIA gray8 skips the views: two pixels to a 32-bit "
                       "word, each in a 16-bit half, so one 16x2 " + opName + " instruction serves two pixels "
                       "(H200 0.0250 -> 0.0214 ms); there 2 rows per work-item instead of 4 ran 3% faster still (0.0213 -> "
                       "0.0207 ms). Whether a strip lies inside the image is decided "
                       "once, before its rows, and rows outside follow the border rule by index arithmetic, so "
                       "the strip's loop has no branch between its loads and the compiler may issue every row's "
                       "loads at once; the strips at a row's two ends load the same way and put in the border rule's "
                       "pixel. Exact. On the H100 the fastest rung at radius 1 in both layouts "
                       "(docs/MEASUREMENTS.md, \"Streaming 3x3 rungs\")."
                       " Every row's loads at once on NVIDIA; elsewhere (PoCL, other GPUs) the rows run in one rolled loop: the same bytes for a fifth of the compile time.",
        .seedNote = "The digest's 'physical limits' (2 bytes per 8-bit pixel): a copy of the picture with a "
                    "3x3 window on the way.",
        .plainWords = "Each worker asks for all the rows it needs at once instead of one after another.",
    }));
    // gray8 on GPUs: 2 rows a work-item (H200, 6720x4480, three rounds usual and L2 flushed: 0.0206-0.0211 against
    // 0.0212-0.0214 ms, flushed 0.0225-0.0228 against 0.0233-0.0237; docs/data/session30-2026-11-29/c4); rgba8888
    // and CPUs keep 4 (2 rows not measured there).
    stream.blockHeightGpu = 2;
    stream.blockHeightGpuRgba = 4;
    f.variants.push_back(cpuRowsVariant("cpu_rows_morph",
                       "Shaped for an ordinary processor: each worker compares sixteen pixels at once with the processor's wide instructions, reading each row once.",
                       "CPU-shaped: byte vectors down row strips", 4,
                       "Erode/dilate: uchar16 " + opName +
                    " of the 2r+1 shifted loads along x, then of the last 2r+1 row results down y (one "
                    "vpminub/vpmaxub per 16 bytes and tap). Exact. On PoCL it runs 2-6x faster than the "
                    "GPU-shaped strips rung and near OpenCV's own CPU code.",
                                        "Seed 000's min/max instead of branches, 16 bytes per instruction."));
    out.push_back(f);
}

} // namespace

void registerMorphology(std::vector<FilterSpec> &out)
{
    addMorphology(out, false);
    addMorphology(out, true);
}

} // namespace fwb
