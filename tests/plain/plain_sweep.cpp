// The one sweep's plan (core/Sweep: planSweep), as `run --param NAME=V1,V2` and the Sweep page use it: the
// first axis varies slowest, each axis applies only to the filters that take its parameter, `keep`
// chooses the variants, and a plan too large is refused before anything is built.
#include "Check.h"
#include "Sweep.h"

#include <string>
#include <vector>

using namespace fwb;

namespace {

void combinationsInOrder()
{
    const FilterSpec *gaussian = findFilter("gaussian");
    const FilterSpec *box = findFilter("box");
    CHECK(gaussian && box && takesParam(*gaussian, "sigma") && !takesParam(*box, "sigma"));
    const std::vector<SweepPoint> plan
        = planSweep({gaussian, box}, {{"sigma", {1, 2, 4}}, {"radius", {3, 5}}}, FilterParams{},
                    [](const FilterSpec &f, const VariantSpec &v) { return &v == &f.variants.front(); });
    CHECK_EQ(plan.size(), std::size_t(12)); // 3 x 2 combinations, one variant of each filter
    for (std::size_t k = 0; k < plan.size(); ++k) {
        const int combo = int(k / 2);
        CHECK_EQ(plan[k].combo, combo);
        CHECK(plan[k].filter == (k % 2 == 0 ? gaussian : box));
        CHECK(plan[k].variant == &plan[k].filter->variants.front());
        // radius (the last axis) varies fastest; sigma only where the filter takes it.
        const bool boxRun = plan[k].filter == box;
        CHECK_EQ(plan[k].params.values.count("sigma"), std::size_t(boxRun ? 0 : 1));
        if (!boxRun)
            CHECK_EQ(plan[k].params.values.at("sigma"), (std::vector<double>{1, 2, 4})[std::size_t(combo / 2)]);
        if (takesParam(*plan[k].filter, "radius"))
            CHECK_EQ(plan[k].params.values.at("radius"), combo % 2 == 0 ? 3.0 : 5.0);
    }
}

void everyVariantWithoutKeep()
{
    const FilterSpec *gaussian = findFilter("gaussian");
    const std::vector<SweepPoint> plan = planSweep({gaussian}, {{"sigma", {1, 2}}}, FilterParams{});
    CHECK_EQ(plan.size(), 2 * gaussian->variants.size());
    CHECK(planSweep({gaussian}, {{"sigma", {}}}, FilterParams{}).empty());
    CHECK_EQ(planSweep({gaussian}, {}, FilterParams{}).size(), gaussian->variants.size()); // nothing swept
}

void tooLargeRefused()
{
    const FilterSpec *gaussian = findFilter("gaussian");
    // 2^14 combinations; and 64 axes of two values, whose plain product would wrap round to 0 (an empty plan).
    CHECK_THROWS_WITH(planSweep({gaussian}, std::vector<SweepAxis>(14, SweepAxis{"sigma", {1, 2}}), FilterParams{}),
                      "more than 10000 runs");
    CHECK_THROWS_WITH(planSweep({gaussian}, std::vector<SweepAxis>(64, SweepAxis{"sigma", {1, 2}}), FilterParams{}),
                      "more than 10000 runs");
    // Within the limit in combinations, over it once the filters are counted.
    CHECK_THROWS_WITH(planSweep(std::vector<const FilterSpec *>(2, gaussian),
                                std::vector<SweepAxis>(13, SweepAxis{"sigma", {1, 2}}), FilterParams{}),
                      "more than 10000 runs");
}

} // namespace

int main()
{
    combinationsInOrder();
    everyVariantWithoutKeep();
    tooLargeRefused();
    return fwb::plain::finish("plain_sweep");
}
