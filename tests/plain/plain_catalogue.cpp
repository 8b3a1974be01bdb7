// The catalogue as data: every filter has a title, a plain verb, variants with unique names, at most one
// variant flagged as its baseline (the window's default), at most one spill and one fix for the lesson (the
// fix only beside its spill), one family flagged as the lesson's (with its spill and fix), and an OpenCV
// equivalent that is whole. Variants' former names (issue 23's renames): each resolves to its variant, and
// no two variants of a filter share a name or a former name.
#include "Catalogue.h"
#include "Check.h"

#include <set>
#include <utility>

using namespace fwb;

int main()
{
    std::set<std::string> names;
    int lessonFamilies = 0;
    for (const FilterSpec &f : catalogue()) {
        CHECK(names.insert(f.name).second);
        CHECK(!f.title.empty() && !f.plainVerb.empty() && !f.variants.empty());
        std::set<std::string> variants;
        int baselines = 0, spills = 0, fixes = 0;
        for (const VariantSpec &v : f.variants) {
            if (!variants.insert(v.name).second)
                plain::fail(__FILE__, __LINE__, f.name + " has two variants named " + v.name);
            baselines += v.isBaseline ? 1 : 0;
            spills += v.lessonRole == LessonRole::Spill ? 1 : 0;
            fixes += v.lessonRole == LessonRole::SpillFix ? 1 : 0;
        }
        for (const VariantAlias &alias : variantAliases()) {
            if (f.name != alias.filter)
                continue;
            if (!variants.insert(alias.formerName).second)
                plain::fail(__FILE__, __LINE__, f.name + ": the former name " + alias.formerName + " is taken twice");
            const VariantSpec *now = f.variant(alias.name);
            if (!now || now->name != alias.name)
                plain::fail(__FILE__, __LINE__, f.name + ": the former name " + alias.formerName + " points at "
                                                    + alias.name + ", which is not one of its variants");
            else if (f.variant(alias.formerName) != now || currentVariantName(f.name, alias.formerName) != alias.name)
                plain::fail(__FILE__, __LINE__, f.name + ": " + alias.formerName + " does not resolve to " + alias.name);
        }
        if (spills > 1 || fixes > 1 || spills != fixes)
            plain::fail(__FILE__, __LINE__, f.name + " marks " + std::to_string(spills) + " spills and "
                                                + std::to_string(fixes) + " fixes for the lesson (one of each, or none)");
        if (f.lessonFilter) {
            ++lessonFamilies;
            if (spills != 1)
                plain::fail(__FILE__, __LINE__, f.name + " is the lesson's filter but marks no spill and fix");
        }
        if (baselines > 1)
            plain::fail(__FILE__, __LINE__, f.name + " flags " + std::to_string(baselines) + " variants as its baseline");
        const VariantSpec *baseline = baselineVariant(f);
        CHECK(baseline != nullptr);
        if (baseline && baselines == 0)
            CHECK(baseline == &f.variants.front());
        const OpenCvEquivalent &cv = f.openCv;
        if (cv.call != OpenCvEquivalent::Call::None) {
            CHECK(cv.tolerance >= 0);
            // a window from a fixed radius, a parameter, or a sigma (transpose has none)
            if (cv.call != OpenCvEquivalent::Call::Transpose && cv.call != OpenCvEquivalent::Call::Sobel)
                CHECK(cv.fixedRadius > 0 || !cv.radiusParam.empty() || !cv.sigmaParam.empty());
            for (const std::string &key : {cv.radiusParam, cv.sigmaParam, cv.outputParam})
                if (!key.empty()) {
                    bool found = false;
                    for (const ParamSpec &p : f.params)
                        found = found || p.key == key;
                    if (!found)
                        plain::fail(__FILE__, __LINE__, f.name + "'s OpenCV equivalent reads a parameter it lacks: " + key);
                }
        }
        if (!f.alternative.empty()) {
            const FilterSpec *other = findFilter(f.alternative);
            CHECK(other != nullptr);
            if (other)
                CHECK(other->alternative == f.name);
        }
    }
    CHECK_EQ(lessonFamilies, 1);
    for (const VariantAlias &alias : variantAliases())
        if (!findFilter(alias.filter))
            plain::fail(__FILE__, __LINE__, std::string("a former variant name of no filter: ") + alias.filter);
    // The renamed `roofline` rungs, each filter's own; names that are no variant stay as they are.
    const std::pair<const char *, const char *> renamed[] = {
        {"box", "fused_local"}, {"box3x3_interior", "strips"}, {"gaussian", "fused_local"}, {"gaussian5x5", "strips"},
        {"median3x3", "sorted_columns"}, {"median5x5", "sorted_columns"}, {"erode", "strips"}, {"dilate", "strips"},
        {"recursive_gaussian", "batched_columns"}, {"sobel", "strips"}, {"transpose", "register_blocks"}};
    for (const auto &[filter, now] : renamed)
        if (currentVariantName(filter, "roofline") != now)
            plain::fail(__FILE__, __LINE__, std::string(filter) + "'s roofline is not " + now);
    CHECK(currentVariantName("gaussian5x5", "roofline_half2") == "strips_half2");
    CHECK(currentVariantName("sobel", "no_such_variant") == "no_such_variant");
    CHECK(currentVariantName("no_such_filter", "roofline") == "roofline");
    CHECK(currentVariantName("sobel", "user:mine") == "user:mine");
    CHECK(lessonFilter() && lessonFilter()->name == "gaussian5x5");
    // The seed's story: the 5x5 blur starts from the unrolled kernel, not the slow private array.
    const FilterSpec *g = findFilter("gaussian5x5");
    CHECK(g && baselineVariant(*g) && baselineVariant(*g)->name == "unrolled_constant");
    // ... and its spill (the weights in a private array) and the fix (in constant memory) are marked as such.
    if (g) {
        CHECK(g->variant("private_array") && g->variant("private_array")->lessonRole == LessonRole::Spill);
        CHECK(g->variant("constant_memory") && g->variant("constant_memory")->lessonRole == LessonRole::SpillFix);
    }
    return plain::finish("plain_catalogue");
}
