// selectFilters and planRuns (see RunPlan.h); the sweep itself is core's planSweep.
#include "RunPlan.h"

#include "Error.h"
#include "Image.h"
#include "Sweep.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <utility>

namespace fwb::cli {

std::vector<std::string> splitList(const std::string &text)
{
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        if (comma > start)
            items.push_back(text.substr(start, comma - start));
        start = comma + 1;
    }
    return items;
}

std::string variantNameNow(const FilterSpec &filter, const std::string &asked)
{
    const VariantSpec *variant = filter.variant(asked);
    if (!variant)
        return asked;
    static std::set<std::string> noted; // the command line is read on one thread
    if (variant->name != asked && noted.insert(asked).second)
        std::fprintf(stderr, "note: '%s' is a former variant name, accepted for this release; %s's is now '%s'\n",
                     asked.c_str(), filter.name.c_str(), variant->name.c_str());
    return variant->name;
}

std::vector<const FilterSpec *> selectFilters(const std::string &names)
{
    std::vector<const FilterSpec *> filters;
    if (names == "all") {
        for (const FilterSpec &f : catalogue())
            filters.push_back(&f);
        return filters;
    }
    for (const std::string &name : splitList(names)) {
        const FilterSpec *filter = findFilter(name);
        if (!filter) {
            std::string known;
            for (const FilterSpec &f : catalogue())
                known += (known.empty() ? "" : ", ") + f.name;
            throw Error("unknown filter '" + name + "' (known: " + known + ", all)");
        }
        filters.push_back(filter);
    }
    if (filters.empty())
        throw Error("--filter '" + names + "' names no filter");
    return filters;
}

std::vector<PlannedRun> planRuns(const std::vector<const FilterSpec *> &filters, const std::string &variantName,
                                 const std::vector<std::string> &assignments, const FilterParams &base)
{
    std::vector<SweepAxis> axes; // each --param's values, checked against every filter that takes it
    for (const std::string &a : assignments) {
        const std::size_t eq = a.find('=');
        if (eq == std::string::npos || eq == 0)
            throw Error("parameter '" + a + "' is not of the form name=value");
        const std::string key = a.substr(0, eq);
        const std::vector<std::string> texts = splitList(a.substr(eq + 1));
        if (texts.empty())
            throw Error("parameter " + key + " has no value");
        SweepAxis axis{key, {}};
        for (const FilterSpec *f : filters) {
            if (!takesParam(*f, key))
                continue;
            std::vector<double> values;
            for (const std::string &v : texts) {
                FilterParams probe;
                if (std::string problem = applyParam(*f, probe, key + "=" + v); !problem.empty())
                    throw Error(problem);
                values.push_back(probe.values[key]);
            }
            axis.values = std::move(values);
        }
        if (axis.values.empty()) {
            FilterParams scratch;
            if (filters.size() == 1) // the filter's own message lists what it takes
                throw Error(applyParam(*filters.front(), scratch, a));
            throw Error("none of the chosen filters has a parameter '" + key + "'");
        }
        axes.push_back(std::move(axis));
    }
    if (variantName != "all")
        for (const FilterSpec *f : filters)
            if (!f->variant(variantName)) {
                std::string names;
                for (const VariantSpec &v : f->variants)
                    names += (names.empty() ? "" : ", ") + v.name;
                throw Error("unknown variant '" + variantName + "' of filter " + f->name + " (known: " + names
                            + ", all)");
            }

    std::vector<PlannedRun> plan;
    for (const SweepPoint &point : planSweep(filters, axes, base, [&](const FilterSpec &f, const VariantSpec &v) {
             return variantName == "all" || v.name == variantNameNow(f, variantName);
         }))
        plan.push_back({point.filter, point.variant->name, point.params, point.combo});
    if (plan.empty())
        throw Error("nothing to run: no variant matches '" + variantName + "'");
    return plan;
}

void applyLayoutOptions(const std::string &formatText, const std::string &borderText, const std::string &localText,
                        RunRequest &request)
{
    const auto format = parsePixelFormat(formatText);
    if (!format)
        throw Error("unknown pixel format '" + formatText + "' (use gray8, rgb888 or rgba8888)");
    const auto border = parseBorderMode(borderText);
    if (!border)
        throw Error("unknown border mode '" + borderText + "' (use reflect101, replicate or constant)");
    std::string localError;
    const auto local = LocalSize::parse(localText, &localError);
    if (!local)
        throw Error(localError);
    request.local = *local;
    request.params.format = *format;
    request.params.border = *border;
}

void checkSyntheticSize(const std::string &text, long &w, long &h, int channels)
{
    if (!text.empty()) {
        char x = 0, tail = 0;
        if (std::sscanf(text.c_str(), "%ld%c%ld%c", &w, &x, &h, &tail) != 3 || (x != 'x' && x != 'X'))
            throw Error("--synthetic '" + text + "' is not of the form WxH, e.g. 1920x1080");
    }
    if (std::string problem = imageSizeProblem(w, h, channels); !problem.empty())
        throw Error("--synthetic " + text + ": " + problem);
}

} // namespace fwb::cli
