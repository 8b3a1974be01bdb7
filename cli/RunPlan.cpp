// selectFilters and planRuns (see RunPlan.h).
#include "RunPlan.h"

#include "Error.h"
#include "Image.h"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace fwb::cli {

namespace {

bool takesParam(const FilterSpec &filter, const std::string &key)
{
    return std::any_of(filter.params.begin(), filter.params.end(), [&](const ParamSpec &p) { return p.key == key; });
}

} // namespace

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
    std::vector<std::pair<std::string, std::vector<std::string>>> swept; // key -> values
    for (const std::string &a : assignments) {
        const std::size_t eq = a.find('=');
        if (eq == std::string::npos || eq == 0)
            throw Error("parameter '" + a + "' is not of the form name=value");
        const std::string key = a.substr(0, eq);
        std::vector<std::string> values = splitList(a.substr(eq + 1));
        if (values.empty())
            throw Error("parameter " + key + " has no value");
        bool anyTakesIt = false;
        for (const FilterSpec *f : filters) {
            FilterParams probe;
            if (!takesParam(*f, key))
                continue;
            anyTakesIt = true;
            for (const std::string &v : values)
                if (std::string problem = applyParam(*f, probe, key + "=" + v); !problem.empty())
                    throw Error(problem);
        }
        if (!anyTakesIt) {
            FilterParams scratch;
            if (filters.size() == 1) // the filter's own message lists what it takes
                throw Error(applyParam(*filters.front(), scratch, a));
            throw Error("none of the chosen filters has a parameter '" + key + "'");
        }
        swept.emplace_back(key, std::move(values));
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

    // Checked products: 64 repetitions of a two-value list would wrap a plain one to 0 (an empty plan).
    constexpr std::size_t kMaxRuns = 10000;
    const Error tooMany("the sweep asks for more than " + std::to_string(kMaxRuns) + " runs; narrow it");
    std::size_t combos = 1;
    for (const auto &entry : swept) {
        if (entry.second.size() > kMaxRuns / combos)
            throw tooMany;
        combos *= entry.second.size();
    }
    if (filters.size() > kMaxRuns / combos)
        throw tooMany;
    std::vector<PlannedRun> plan;
    for (std::size_t c = 0; c < combos; ++c) {
        // Mixed-radix digits of c, the last --param varying fastest.
        std::vector<std::string> chosen(swept.size());
        std::size_t rest = c;
        for (std::size_t i = swept.size(); i-- > 0;) {
            chosen[i] = swept[i].second[rest % swept[i].second.size()];
            rest /= swept[i].second.size();
        }
        for (const FilterSpec *f : filters) {
            FilterParams params = base;
            for (std::size_t i = 0; i < swept.size(); ++i)
                if (takesParam(*f, swept[i].first))
                    applyParam(*f, params, swept[i].first + "=" + chosen[i]); // validated above
            for (const VariantSpec &v : f->variants)
                if (variantName == "all" || v.name == variantName)
                    plan.push_back({f, v.name, params, int(c)});
        }
    }
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
