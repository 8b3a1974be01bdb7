// box3x3_interior (seed 001's interior-only 3x3 box blur, kernels/box/box.cl): catalogue entry with its three
// launch-rule variants, the plain CPU reference and the fast multi-threaded CPU path.
#include "Catalogue.h"
#include "CpuReference.h"
#include "families/shared/FastCpu.h"
#include "families/shared/Stream3x3.h"

#include <cstdint>
#include <vector>

namespace fwb {

namespace {

using namespace fastcpu;

// Interior pixels get the 3x3 mean; dst already holds a copy of src (FilterSpec::copySourceToDst).
void box3x3InteriorReference(const Image &src, Image &dst, const FilterParams &, int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    if (w < 3 || h < 3)
        return;
    parallelRows(h - 2, threads, [&](int r0, int r1) {
        for (int y = r0 + 1; y < r1 + 1; ++y) {
            unsigned char *out = dst.row(y);
            for (int x = 1; x < w - 1; ++x)
                for (int c = 0; c < ch; ++c) {
                    int sum = 0;
                    for (int dy = -1; dy <= 1; ++dy)
                        for (int dx = -1; dx <= 1; ++dx)
                            sum += src.row(y + dy)[std::size_t(x + dx) * ch + c];
                    out[std::size_t(x) * ch + c] = saturateU8(divRound(sum, 9));
                }
        }
    });
}

// Interior 3x3 mean: column sums of three rows (16-bit), then three of those per output.
void box3x3InteriorRow(const u8 *__restrict a, const u8 *__restrict b, const u8 *__restrict c,
                       std::uint16_t *__restrict col, u8 *__restrict out, std::size_t n, std::size_t ch)
{
    for (std::size_t i = 0; i < n; ++i)
        col[i] = std::uint16_t(a[i] + b[i] + c[i]);
    for (std::size_t i = ch; i + ch < n; ++i) {
        const unsigned sum = unsigned(col[i - ch]) + col[i] + col[i + ch];
        out[i] = u8((2 * sum + 9) / 18); // divRound(sum, 9); at most 255, no saturation needed
    }
}

// Fast path: the same integer sums and rounding as the reference, a whole row at a time.
void box3x3InteriorFast(const Image &src, Image &dst, const FilterParams &, int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    if (w < 3 || h < 3)
        return;
    const std::size_t n = std::size_t(w) * std::size_t(ch);
    parallelRows(h - 2, threads, [&](int r0, int r1) {
        std::vector<std::uint16_t> col(n);
        for (int y = r0 + 1; y < r1 + 1; ++y)
            box3x3InteriorRow(src.row(y - 1), src.row(y), src.row(y + 1), col.data(), dst.row(y), n,
                              std::size_t(ch));
    });
}

} // namespace

void registerBox3x3Interior(std::vector<FilterSpec> &out)
{
    // --- Seed 001: interior-only 3x3 box blur, one kernel under three launch rules.
    FilterSpec f;
    f.name = "box3x3_interior";
    f.title = "Box blur 3x3, interior only (seed 001)";
    f.plainVerb = "blurring the picture";
    f.description = "Mean of the 3x3 neighbourhood for every pixel that has one; the one-pixel frame keeps its "
                    "input values. The launch covers only the interior, (W-2) x (H-2) work-items (638x478 for "
                    "640x480) - a size few work-group shapes divide. The three variants are the same kernel "
                    "launched three ways, after Intel's OpenCL 2.0 non-uniform work-group sample.";
    f.hasBorder = false;
    f.copySourceToDst = true;
    f.tolerance = 0;
    f.toleranceNote = "exact (0): integer sum of 9 pixels, rounded once in integers";
    f.prepare = [](const FilterParams &) {
        PreparedFilter prepared;
        prepared.radius = 1;
        return prepared;
    };
    f.cpuReference = fastOrReference(box3x3InteriorFast, box3x3InteriorReference);
    out.push_back(f);
    FilterSpec &interior = out.back();
    interior.variants.push_back(VariantSpec{
        .name = "uniform_padded",
        .title = "Rounded-up global size, guarded",
        .kernelFile = "box.cl",
        .passes = {{"box3x3_interior", Slot::Src, Slot::Dst, Geometry::Interior}},
        .globalRule = GlobalRule::RoundUp,
        .tiledLocal = true, // the fix needs a shape to round to: auto launches 16x16 instead of NULL
        .description = "The OpenCL 1.2 fix: the global size is rounded up to a multiple of the work-group shape and "
                       "the kernel returns early for the surplus work-items. Works on every device with any shape; "
                       "the edge work-groups carry idle lanes and every work-item pays one comparison. The fix needs "
                       "a shape to round to, so auto launches 16x16 rather than leaving the choice to the runtime.",
        .seedNote = "Seed 001: the classic workaround for devices without CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT. "
                    "On an H100 at 6720x4480 gray8, 16x16 ran about 80x faster than the exact size with a NULL "
                    "local size, where the driver chose 58x1 groups.",
        .plainWords = "Every worker blurs one pixel; the edge of the picture is skipped by giving the graphics chip a slightly bigger, evenly shaped job and letting the extra workers stop at once.",
    });
    interior.variants.push_back(VariantSpec{
        .name = "exact_cl12",
        .title = "Exact global size, OpenCL 1.2 rules",
        .kernelFile = "box.cl",
        .passes = {{"box3x3_interior", Slot::Src, Slot::Dst, Geometry::Interior}},
        .globalRule = GlobalRule::Exact,
        .tiledLocal = false,
        .description = "Launches exactly (W-2) x (H-2) work-items under OpenCL 1.2 rules. With an explicit "
                       "work-group shape that does not divide that size (16x16 on 638x478) the runtime must refuse "
                       "with CL_INVALID_WORK_GROUP_SIZE - shown here as the expected outcome. With auto (NULL) the "
                       "runtime picks a shape that divides, possibly an odd one such as 1x239 that wastes SIMD lanes.",
        .seedNote = "Seed 001: 638x478 with local 16x16 fails on OpenCL 1.2; NULL local gave (1, 239) on Intel HD "
                    "Graphics 5500.",
        .plainWords = "The job is cut to exactly the inner pixels, an awkward size the chip can only split into tiny teams - a lesson in how much team size matters.",
    });
    interior.variants.push_back(VariantSpec{
        .name = "nonuniform_cl20",
        .title = "Exact global size, non-uniform work-groups (CL 2.0)",
        .kernelFile = "box.cl",
        .passes = {{"box3x3_interior", Slot::Src, Slot::Dst, Geometry::Interior}},
        .globalRule = GlobalRule::NonUniform,
        .tiledLocal = false,
        .needsNonUniform = true,
        .description = "Built with -cl-std=CL2.0 on a device that supports non-uniform work-groups: the exact size "
                       "launches with any shape, and the runtime makes the last group in each direction smaller "
                       "(14x16, 16x14, 14x14 for 638x478 / 16x16). No padding, no guard, full groups elsewhere.",
        .seedNote = "Seed 001: works only when compiled -cl-std=CL2.0 on an OpenCL 2.0 device; "
                    "get_local_size() reports the smaller edge groups, get_enqueued_local_size() the requested 16x16.",
        .plainWords = "The job is cut to exactly the inner pixels and the chip is allowed to make its last teams smaller, so no worker is wasted.",
    });
    interior.variants.push_back(VariantSpec{
        .name = "strips",
        .title = "Row strips in registers, wide loads, edges on the fast path",
        .kernelFile = "box.cl",
        .passes = {{"box3x3_interior_roofline", Slot::Src, Slot::Dst, Geometry::Blocks}},
        .blockWidth = 16, // rgb888 (and -DRF_INT): roofline.clh's 16-byte chunks
        .blockHeight = 8,
        .blockBytesGpu = 8, // gray8 and rgba8888: separable_strips.clh, 8 bytes per work-item and row
        .blockBytesCpu = 16, // PoCL vectorises across work-items; 16-byte strips suit it
        .rowAlign = 16, // odd widths: rows padded to 16 bytes on the device keep the aligned loads
        .preferredLocalGpu = LocalSize{32, 8},
        .preferredLocalCpu = LocalSize{16, 1},
        .description = "Each work-item owns a strip 8 bytes across (8 gray8 pixels, 2 rgba8888 pixels) and 8 rows "
                       "down and walks down it: every input row is fetched once, as one aligned 8-byte load plus "
                       "a 1-pixel halo on each side, its 3-pixel row sums stay in registers for the next two "
                       "output rows, and each output row leaves in one 8-byte store - each input byte is fetched "
                       "(8+2)/8 = 1.25 times instead of 9. Neighbouring work-items own neighbouring bytes, so a "
                       "warp reads one contiguous span of each row. Three things made it 2x faster than the "
                       "first version of this rung (16-byte strips): small strips need few registers, "
                       "so more warps are in flight; the work-items at the left and right image edges stay on "
                       "the fast path (the frame's pixels already sit in the loaded block), where they used to "
                       "read pixel by pixel and hold up their whole warp; and bytes enter the float sums through "
                       "the mantissa (1 + b/32768 is exact, one byte permute) instead of quarter-rate "
                       "conversions. The sums stay exact integers, so the result is bit-exact. The frame is "
                       "kept by writing the input byte back in columns 0 and W-1 and not writing rows 0 and H-1. "
                       "Odd sizes run as fast as even ones: rows are padded to 16 bytes on the device and the edge "
                       "block loads in place (packed rows with funnel-shifted words, or byte by byte, were a quarter "
                       "slower). What is left between this and a copy is instruction issue: about 15 operations per "
                       "output byte (byte permutes, adds, the rounding) on top of the memory traffic.",
        .seedNote = "Seed 001 is about launching (W-2) x (H-2) work-items; this rung sidesteps the question by "
                    "giving each work-item a block, as the 'Fast stencils' anchors (CUDA convolutionSeparable, "
                    "Halide's sliding windows) do.",
        .plainWords = "Each worker slides down a thin strip of the picture and keeps the last rows it read in its head, so every pixel is fetched from memory about once.",
    });
    interior.variants.push_back(stream3x3Variant(VariantSpec{
        .name = "stream",
        .title = "Streaming 3x3: every row's loads at once",
        .kernelFile = "box.cl",
        .passes = {{"box3x3_interior_stream", Slot::Src, Slot::Dst, Geometry::Blocks}},
        .description = "box's streaming rung (gray8 and rgba8888) with the frame kept: strips 16 bytes across and 4 "
                       "rows down, each input row three aligned 16-byte loads seen as the pixels one to the left, "
                       "the pixels themselves and one to the right, row sums, and the reference's rounded mean (on "
                       "NVIDIA two pixels to a 32-bit word and, in gray8, no shifted views, as box's). The image's first and last rows are stored as their input, and "
                       "the strips at a row's two ends put the input's first and last pixel back by constant "
                       "lanes, so every store stays one 16-byte write. Whether a strip lies at a row's end is "
                       "decided once, before its rows, so the compiler may issue every row's loads at once. Exact."
                       " Every row's loads at once on NVIDIA; elsewhere (PoCL, other GPUs) the rows run in one rolled loop: the same bytes for a fifth of the compile time.",
        .plainWords = "Each worker asks for all the rows it needs at once instead of one after another, and leaves the picture's outer edge as it was.",
    }));
}

} // namespace fwb
