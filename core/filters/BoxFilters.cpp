// Box blurs: seed 001's interior-only 3x3 blur under three launch rules, and the full-image box blur
// of any radius (naive, separable, sliding window) with border modes. Integer sums, one rounding.
#include "BoxSeparableSobel.h"

#include "../CpuReference.h"
#include "FastCpu.h"

#include <vector>

namespace fwb {

namespace {

// round(sum / d), halves up, in integers - the kernels' fwb_div_round().
inline int divRound(int sum, int d) { return (2 * sum + d) / (2 * d); }

inline unsigned char saturate(int v) { return static_cast<unsigned char>(v < 0 ? 0 : v > 255 ? 255 : v); }

int boxRadius(const FilterParams &p)
{
    const FilterSpec *self = findFilter("box");
    return self ? int(self->param(p, "radius")) : 3;
}

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
                    out[std::size_t(x) * ch + c] = saturate(divRound(sum, 9));
                }
        }
    });
}

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
                out[i] = saturate(divRound(sums[i], area));
        }
    });
}

} // namespace

void registerBoxFilters(std::vector<FilterSpec> &out)
{
    // --- Seed 001: interior-only 3x3 box blur, one kernel under three launch rules.
    FilterSpec f;
    f.name = "box3x3_interior";
    f.title = "Box blur 3x3, interior only (seed 001)";
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
    f.cpuReference = [](const Image &src, Image &dst, const FilterParams &p, int threads) {
        if (useFastCpuPath(threads))
            fastcpu::box3x3Interior(src, dst, threads);
        else
            box3x3InteriorReference(src, dst, p, threads);
    };

    VariantSpec v;
    v.kernelFile = "box.cl";
    v.passes = {{"box3x3_interior", Slot::Src, Slot::Dst, Geometry::Interior}};

    v.name = "uniform_padded";
    v.title = "Rounded-up global size, guarded";
    v.globalRule = GlobalRule::RoundUp;
    v.tiledLocal = true; // the fix needs a shape to round to: auto launches 16x16 instead of NULL
    v.description = "The OpenCL 1.2 fix: the global size is rounded up to a multiple of the work-group shape and "
                    "the kernel returns early for the surplus work-items. Works on every device with any shape; "
                    "the edge work-groups carry idle lanes and every work-item pays one comparison. The fix needs "
                    "a shape to round to, so auto launches 16x16 rather than leaving the choice to the runtime.";
    v.seedNote = "Seed 001: the classic workaround for devices without CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT. "
                 "H100, 6720x4480 gray8: 0.114 ms with 16x16, against 9.04 ms for the exact size with a NULL "
                 "local size, where the driver chose 58x1 groups.";
    out.push_back(f);
    FilterSpec &interior = out.back();
    interior.variants.push_back(v);

    v.name = "exact_cl12";
    v.title = "Exact global size, OpenCL 1.2 rules";
    v.globalRule = GlobalRule::Exact;
    v.tiledLocal = false;
    v.description = "Launches exactly (W-2) x (H-2) work-items under OpenCL 1.2 rules. With an explicit "
                    "work-group shape that does not divide that size (16x16 on 638x478) the runtime must refuse "
                    "with CL_INVALID_WORK_GROUP_SIZE - shown here as the expected outcome. With auto (NULL) the "
                    "runtime picks a shape that divides, possibly an odd one such as 1x239 that wastes SIMD lanes.";
    v.seedNote = "Seed 001: 638x478 with local 16x16 fails on OpenCL 1.2; NULL local gave (1, 239) on Intel HD "
                 "Graphics 5500.";
    interior.variants.push_back(v);

    v.name = "nonuniform_cl20";
    v.title = "Exact global size, non-uniform work-groups (CL 2.0)";
    v.globalRule = GlobalRule::NonUniform;
    v.needsNonUniform = true;
    v.description = "Built with -cl-std=CL2.0 on a device that supports non-uniform work-groups: the exact size "
                    "launches with any shape, and the runtime makes the last group in each direction smaller "
                    "(14x16, 16x14, 14x14 for 638x478 / 16x16). No padding, no guard, full groups elsewhere.";
    v.seedNote = "Seed 001: works only when compiled -cl-std=CL2.0 on an OpenCL 2.0 device; "
                 "get_local_size() reports the smaller edge groups, get_enqueued_local_size() the requested 16x16.";
    interior.variants.push_back(v);

    // --- Full-image box blur of any radius, with borders.
    FilterSpec b;
    b.name = "box";
    b.title = "Box blur";
    b.description = "Mean of the (2r+1) x (2r+1) square around every pixel, border rule applied at the edges "
                    "(constant: zeros count in the mean). The ladder shows how the cost per pixel falls from "
                    "(2r+1)^2 reads (naive) to 2(2r+1) (separable) to about 4 whatever the radius (sliding window).";
    b.params = {{"radius", "Radius (px)", "Half-width of the square window: the blur averages (2r+1)^2 pixels.",
                 3, 1, 50, 1, true}};
    b.tolerance = 0;
    b.toleranceNote = "exact (0): every variant sums integers exactly (float scratch values stay below 2^24) and "
                      "rounds once, in integers, like the CPU reference";
    b.prepare = [](const FilterParams &p) {
        PreparedFilter prepared;
        prepared.radius = boxRadius(p);
        return prepared;
    };
    b.cpuReference = [](const Image &src, Image &dst, const FilterParams &p, int threads) {
        if (useFastCpuPath(threads))
            fastcpu::box(src, dst, boxRadius(p), p.border, threads);
        else
            boxReference(src, dst, p, threads);
    };

    v = VariantSpec{};
    v.kernelFile = "box.cl";
    v.name = "naive";
    v.title = "Naive 2-D window";
    v.passes = {{"box_naive"}};
    v.description = "One work-item per pixel reads all (2r+1)^2 neighbours (49 at r=3, 10201 at r=50). Simple, "
                    "and the cache serves much of the overlap, but the work grows with the square of the radius.";
    v.seedNote = "Baseline for the box ladder; the seeds did not measure it.";
    out.push_back(b);
    FilterSpec &box = out.back();
    box.variants.push_back(v);

    v.name = "separable";
    v.title = "Separable: rows, then columns";
    v.passes = {{"box_separable_h", Slot::Src, Slot::TmpA}, {"box_separable_v", Slot::TmpA, Slot::Dst}};
    v.tempType = TempType::Float32;
    v.description = "A box is a row average followed by a column average: pass 1 sums 2r+1 pixels along the "
                    "row into a float scratch buffer, pass 2 sums 2r+1 of those down the column. 2(2r+1) reads "
                    "instead of (2r+1)^2, paid for with a scratch buffer 4x the image and a second launch.";
    v.seedNote = "Seed 000 (OS X guide) splits its Gaussian the same way; cost still grows linearly with r.";
    box.variants.push_back(v);

    v.name = "sliding_window";
    v.title = "Sliding window (running sums)";
    v.passes = {{"box_sliding_rows", Slot::Src, Slot::TmpA, Geometry::Columns},
                {"box_sliding_cols", Slot::TmpA, Slot::Dst, Geometry::Columns}};
    v.tempType = TempType::Float32;
    v.description = "Each work-item walks a whole row (pass 1) or column (pass 2) keeping a running sum: add the "
                    "pixel entering the window, subtract the one leaving. About 4 reads per pixel whatever the "
                    "radius, but only W work-items per pass, each a long sequential loop - little parallelism for "
                    "a GPU, and the row pass reads with a row-sized stride between neighbouring work-items "
                    "(uncoalesced). Both passes are 1-D launches of W work-items; the row pass strides over rows.";
    v.seedNote = "Seed 000's recursive-filter lesson in miniature: cost flat in the radius, but sequential per "
                 "line, so it cannot saturate a GPU.";
    box.variants.push_back(v);
}

} // namespace fwb
