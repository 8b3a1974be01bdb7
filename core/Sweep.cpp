// Parameter sweep (see Sweep.h).
#include "Sweep.h"

#include <algorithm>
#include <cmath>

namespace fwb {

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
                     const std::atomic<bool> *cancel, const SweepProgress &progress)
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
    std::vector<const VariantSpec *> chosen;
    for (const VariantSpec &v : filter->variants)
        if ((variants.empty() || std::find(variants.begin(), variants.end(), v.name) != variants.end())
            && variantUnavailableReason(v, session.device(), base.params.format).empty())
            chosen.push_back(&v);
    for (const VariantSpec *v : chosen)
        sweep.series.push_back(SweepSeries{v->name, v->title, std::vector<double>(values.size(), -1.0)});
    const int total = int(values.size() * chosen.size());
    int done = 0;
    RunRequest request = base;
    request.cpuSingle = false;
    request.openCvCpuBaseline = false;
    request.keepOutput = false;
    for (std::size_t i = 0; i < values.size(); ++i) {
        request.params.values[param] = values[i];
        for (std::size_t s = 0; s < chosen.size(); ++s) {
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                sweep.cancelled = true;
                return sweep;
            }
            request.variant = chosen[s]->name;
            const RunResult r = session.run(input, request, cancel);
            if (r.ok() && r.kernelMs.median > 0)
                sweep.series[s].kernelMs[i] = r.kernelMs.median;
            if (progress)
                progress(++done, total);
        }
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
