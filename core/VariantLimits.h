// VariantLimits: what rules a variant out at given filter parameters (today: a radius above the one
// its kernels are unrolled for, VariantSpec::maxRadius). Session refuses such a run with this reason;
// the window's variant picker greys such a variant out with the same words. Header-only: the picker
// asks on every slider step, and a change here rebuilds only its few includers.
#pragma once

#include "Catalogue.h"

#include <exception>
#include <string>

namespace fwb {

// Variants whose kernels are unrolled for small radii (VariantSpec::maxRadius) refuse larger ones.
inline std::string radiusUnavailableReason(const VariantSpec &variant, const PreparedFilter &prepared)
{
    if (variant.maxRadius > 0 && prepared.radius > variant.maxRadius)
        return variant.name + " is built for radius up to " + std::to_string(variant.maxRadius) + " (radius "
               + std::to_string(prepared.radius) + " asked; the variants without this limit take any radius)";
    return {};
}

// Empty if the variant can run at these parameters of its filter, else why not. Parameters the filter
// cannot prepare are left to the run to report.
inline std::string paramsUnavailableReason(const FilterSpec &filter, const VariantSpec &variant,
                                           const FilterParams &params)
{
    if (variant.maxRadius <= 0 || !filter.prepare)
        return {};
    try {
        return radiusUnavailableReason(variant, filter.prepare(params));
    } catch (const std::exception &) {
        return {};
    }
}

} // namespace fwb
