// Catalogue plumbing: border rules, parameter parsing, availability checks, the registry.
#include "Catalogue.h"

#include "Devices.h"
#include "Names.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace fwb {

constexpr EnumName<BorderMode> kBorderModes[] = {
    {BorderMode::Reflect101, "reflect101"},
    {BorderMode::Replicate, "replicate"},
    {BorderMode::Constant, "constant"},
};

const char *borderModeName(BorderMode mode) { return nameIn(kBorderModes, mode); }

std::optional<BorderMode> parseBorderMode(const std::string &name) { return valueIn(kBorderModes, name); }

const std::vector<BorderMode> &allBorderModes()
{
    static const std::vector<BorderMode> modes = valuesIn(kBorderModes);
    return modes;
}

int borderIndex(int i, int n, BorderMode mode)
{
    if (i >= 0 && i < n)
        return i;
    switch (mode) {
    case BorderMode::Constant: return -1;
    case BorderMode::Replicate: return i < 0 ? 0 : n - 1;
    case BorderMode::Reflect101:
        if (n == 1)
            return 0;
        // gfedcb|abcdefgh|gfedcba: mirror without repeating the edge pixel; loop for radius > n.
        while (i < 0 || i >= n) {
            if (i < 0)
                i = -i;
            if (i >= n)
                i = 2 * n - 2 - i;
        }
        return i;
    }
    return -1;
}

// Issue 23's renames, one row per filter: the rungs once all called `roofline` are named after what
// they do. Kept for a release; docs/MEASUREMENTS.md's "Names" table maps the old records' names.
constexpr VariantAlias kVariantAliases[] = {
    {"box", "roofline", "fused_local"},
    {"box3x3_interior", "roofline", "strips"},
    {"gaussian", "roofline", "fused_local"},
    {"gaussian5x5", "roofline", "strips"},
    {"gaussian5x5", "roofline_half2", "strips_half2"},
    {"median3x3", "roofline", "sorted_columns"},
    {"median5x5", "roofline", "sorted_columns"},
    {"erode", "roofline", "strips"},
    {"dilate", "roofline", "strips"},
    {"recursive_gaussian", "roofline", "batched_columns"},
    {"sobel", "roofline", "strips"},
    {"transpose", "roofline", "register_blocks"},
};

std::span<const VariantAlias> variantAliases() { return kVariantAliases; }

const VariantSpec *FilterSpec::variant(const std::string &variantName) const
{
    if (const VariantSpec *own = findNamed(variants, variantName))
        return own;
    for (const VariantAlias &alias : kVariantAliases)
        if (name == alias.filter && variantName == alias.formerName)
            return findNamed(variants, alias.name);
    return nullptr;
}

std::string currentVariantName(const std::string &filterName, const std::string &name)
{
    const FilterSpec *filter = findFilter(filterName);
    const VariantSpec *variant = filter ? filter->variant(name) : nullptr;
    return variant ? variant->name : name;
}

void FilterSpec::oracleBytes(const Image &src, Image &dst, const FilterParams &p, int threads) const
{
    if (cpuExact && threads > 1)
        cpuExact(src, dst, p, threads);
    else
        cpuReference(src, dst, p, threads);
}

double FilterSpec::param(const FilterParams &p, const std::string &key) const
{
    if (auto it = p.values.find(key); it != p.values.end())
        return it->second;
    for (const ParamSpec &spec : params)
        if (spec.key == key)
            return spec.defaultValue;
    return 0.0;
}

const std::vector<FilterSpec> &catalogue()
{
    static const std::vector<FilterSpec> filters = [] {
        std::vector<FilterSpec> out;
#define FWB_FAMILY(Name) register##Name(out);
#include "families/Families.def"
#undef FWB_FAMILY
        return out;
    }();
    return filters;
}

const FilterSpec *findFilter(const std::string &name) { return findNamed(catalogue(), name); }

const FilterSpec *lessonFilter()
{
    const std::vector<FilterSpec> &all = catalogue();
    const auto flagged = std::find_if(all.begin(), all.end(), [](const FilterSpec &f) { return f.lessonFilter; });
    return flagged == all.end() ? nullptr : &*flagged;
}

std::string raceQuestion(const FilterSpec &filter)
{
    return "Which way of " + (filter.plainVerb.empty() ? "running " + filter.title : filter.plainVerb) + " is fastest?";
}

const VariantSpec *baselineVariant(const FilterSpec &filter)
{
    if (filter.variants.empty())
        return nullptr;
    for (const VariantSpec &v : filter.variants)
        if (v.isBaseline)
            return &v;
    return &filter.variants.front();
}

std::string variantUnavailableReason(const VariantSpec &variant, const DeviceInfo &device, PixelFormat format)
{
    if (!variant.formats.empty() && std::find(variant.formats.begin(), variant.formats.end(), format) == variant.formats.end()) {
        std::string supported;
        for (PixelFormat f : variant.formats)
            supported += std::string(supported.empty() ? "" : ", ") + formatName(f);
        return variant.name + " does not support " + formatName(format) + " (supports " + supported + ")"
               + (variant.usesImages && format == PixelFormat::Rgb888
                      ? ": OpenCL has no 3-channel 8-bit image format" : "");
    }
    if (variant.usesImages && !device.imageSupport)
        return variant.name + " needs image support, which " + device.name + " lacks (CL_DEVICE_IMAGE_SUPPORT = false)";
    if (variant.needsNonUniform) {
        if (device.openclCMajor < 2)
            return variant.name + " needs OpenCL C 2.0 (-cl-std=CL2.0); " + device.name + " offers OpenCL C "
                   + std::to_string(device.openclCMajor) + "." + std::to_string(device.openclCMinor);
        if (!device.nonUniformWorkGroups)
            return variant.name + " needs non-uniform work-groups, which " + device.name
                   + " does not support (CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT = false)";
    }
    return {};
}

std::string applyParam(const FilterSpec &filter, FilterParams &params, const std::string &assignment)
{
    const std::size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        return "parameter '" + assignment + "' is not of the form name=value";
    const std::string key = assignment.substr(0, eq);
    const std::string text = assignment.substr(eq + 1);
    const ParamSpec *spec = nullptr;
    for (const ParamSpec &p : filter.params)
        if (p.key == key)
            spec = &p;
    if (!spec) {
        std::string known;
        for (const ParamSpec &p : filter.params)
            known += std::string(known.empty() ? "" : ", ") + p.key;
        return "filter " + filter.name + " has no parameter '" + key + "'"
               + (known.empty() ? std::string(" (it takes none)") : " (it takes: " + known + ")");
    }
    char *end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || !end || *end != '\0' || !std::isfinite(value))
        return "parameter " + key + "='" + text + "' is not a number";
    if (value < spec->minimum || value > spec->maximum)
        return "parameter " + key + "=" + text + " is out of range [" + std::to_string(spec->minimum) + ", "
               + std::to_string(spec->maximum) + "]";
    if (spec->integer && value != std::floor(value))
        return "parameter " + key + "=" + text + " must be a whole number";
    params.values[key] = value;
    return {};
}

} // namespace fwb
