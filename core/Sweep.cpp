// Parameter sweeps (see Sweep.h).
#include "Sweep.h"

#include "Error.h"

#include <algorithm>
#include <cmath>

namespace fwb {

bool takesParam(const FilterSpec &filter, const std::string &key)
{
    return std::any_of(filter.params.begin(), filter.params.end(), [&](const ParamSpec &p) { return p.key == key; });
}

std::vector<SweepPoint> planSweep(const std::vector<const FilterSpec *> &filters, const std::vector<SweepAxis> &axes,
                                  const FilterParams &base,
                                  const std::function<bool(const FilterSpec &, const VariantSpec &)> &keep)
{
    const Error tooMany("the sweep asks for more than " + std::to_string(kMaxSweepRuns) + " runs; narrow it");
    std::size_t combos = 1;
    for (const SweepAxis &axis : axes) {
        if (axis.values.empty())
            return {}; // no combination at all
        if (axis.values.size() > kMaxSweepRuns / combos)
            throw tooMany;
        combos *= axis.values.size();
    }
    if (filters.size() > kMaxSweepRuns / combos)
        throw tooMany;
    std::vector<SweepPoint> plan;
    for (std::size_t c = 0; c < combos; ++c) {
        // Mixed-radix digits of c, the last axis varying fastest.
        std::vector<double> chosen(axes.size());
        std::size_t rest = c;
        for (std::size_t i = axes.size(); i-- > 0;) {
            chosen[i] = axes[i].values[rest % axes[i].values.size()];
            rest /= axes[i].values.size();
        }
        for (const FilterSpec *f : filters) {
            FilterParams params = base;
            for (std::size_t i = 0; i < axes.size(); ++i)
                if (takesParam(*f, axes[i].param))
                    params.values[axes[i].param] = chosen[i];
            for (const VariantSpec &v : f->variants)
                if (!keep || keep(*f, v))
                    plan.push_back({f, &v, params, int(c)});
        }
    }
    return plan;
}

std::vector<double> sweepValues(double lo, double hi, int count, bool integral)
{
    std::vector<double> values;
    if (count <= 1 || lo <= 0 || hi <= lo) {
        values.push_back(lo);
        return values;
    }
    for (int i = 0; i < count; ++i) {
        double v = lo * std::pow(hi / lo, double(i) / (count - 1));
        if (integral)
            v = std::round(v);
        else
            v = std::round(v * 100) / 100;
        if (values.empty() || v > values.back())
            values.push_back(v);
    }
    return values;
}

std::string defaultSweepParam(const FilterSpec &filter)
{
    for (const char *key : {"sigma", "radius"})
        for (const ParamSpec &p : filter.params)
            if (p.key == key)
                return p.key;
    return filter.params.empty() ? std::string() : filter.params.front().key;
}

SweepResult runSweep(Session &session, const Image &input, const RunRequest &base, const std::string &param,
                     const std::vector<double> &values, const std::vector<std::string> &variants,
                     const std::atomic<bool> *cancel, const SweepProgress &progress,
                     const std::vector<std::string> &moreFilters, const SweepStep &step)
{
    SweepResult sweep;
    sweep.filter = base.filter;
    sweep.param = param;
    sweep.values = values;
    const FilterSpec *filter = findFilter(base.filter);
    if (!filter)
        return sweep;
    for (const ParamSpec &p : filter->params)
        if (p.key == param)
            sweep.paramLabel = p.label;
    std::vector<const FilterSpec *> filters{filter};
    for (const std::string &name : moreFilters)
        if (const FilterSpec *more = findFilter(name); more && std::find(filters.begin(), filters.end(), more) == filters.end())
            filters.push_back(more);
    const std::vector<SweepPoint> plan = planSweep(
        filters, {SweepAxis{param, values}}, base.params, [&](const FilterSpec &f, const VariantSpec &v) {
            return (&f != filter || variants.empty() || std::find(variants.begin(), variants.end(), v.name) != variants.end())
                   && variantUnavailableReason(v, session.device(), base.params.format).empty();
        });
    // One series per variant, in the plan's order (the filter's own, then each other filter's).
    std::vector<std::size_t> seriesOf(plan.size());
    for (std::size_t k = 0; k < plan.size(); ++k) {
        const SweepPoint &p = plan[k];
        const bool own = p.filter == filter;
        const std::string name = own ? p.variant->name : p.filter->name + "/" + p.variant->name;
        auto found = std::find_if(sweep.series.begin(), sweep.series.end(),
                                  [&](const SweepSeries &s) { return s.variant == name; });
        if (found == sweep.series.end()) {
            sweep.series.push_back(SweepSeries{name, own ? p.variant->title : p.filter->title + ": " + p.variant->title,
                                               std::vector<double>(values.size(), -1.0)});
            found = sweep.series.end() - 1;
        }
        seriesOf[k] = std::size_t(found - sweep.series.begin());
    }
    const int total = int(plan.size());
    int done = 0;
    RunRequest request = base;
    request.cpuSingle = false;
    request.openCvCpuBaseline = false;
    request.keepOutput = false;
    for (std::size_t k = 0; k < plan.size(); ++k) {
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            sweep.cancelled = true;
            return sweep;
        }
        const SweepPoint &p = plan[k];
        request.filter = p.filter->name;
        request.variant = p.variant->name;
        request.params = p.params;
        const RunResult r = session.run(input, request, cancel);
        if (r.ok() && r.kernelMs.median > 0)
            sweep.series[seriesOf[k]].kernelMs[std::size_t(p.combo)] = r.kernelMs.median;
        if (progress)
            progress(++done, total);
        else
            ++done;
        const bool blockEnds = k + 1 == plan.size() || plan[k + 1].combo != p.combo || plan[k + 1].filter != p.filter;
        if (step && blockEnds)
            step(sweep, done, total);
    }
    return sweep;
}

Json sweepJson(const SweepResult &sweep)
{
    Json j = Json::object();
    j["filter"] = sweep.filter;
    j["param"] = sweep.param;
    Json &values = j["values"] = Json::array();
    for (double v : sweep.values)
        values.push_back(jsonNumber(v));
    Json &series = j["series"] = Json::array();
    for (const SweepSeries &s : sweep.series) {
        Json ms = Json::array();
        for (double t : s.kernelMs)
            ms.push_back(t > 0 ? jsonNumber(t) : Json());
        series.push_back(Json::object({{"variant", s.variant}, {"kernel_ms", ms}}));
    }
    j["cancelled"] = sweep.cancelled;
    return j;
}

} // namespace fwb
