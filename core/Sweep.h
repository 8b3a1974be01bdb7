// Parameter sweeps, the one way the project sweeps: a plan of runs over the combinations of some
// parameters' values (planSweep: filter-bench run's --param NAME=V1,V2,..), and the kernel time of each
// variant of one or more filters over the values of one numeric parameter (runSweep: the report's sweep
// and the window's Sweep page, e.g. sigma 0.5..32, so a crossover is visible: recursive Gaussian vs
// separable).
#pragma once

#include "JsonIo.h"
#include "Session.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace fwb {

// One axis of a sweep: a parameter and the values it takes.
struct SweepAxis
{
    std::string param;
    std::vector<double> values;
};

// One run of a sweep plan: a filter's variant with one combination of the axes' values.
struct SweepPoint
{
    const FilterSpec *filter = nullptr;
    const VariantSpec *variant = nullptr;
    FilterParams params;
    int combo = 0; // index of the combination of axis values (0 when nothing is swept)
};

// The filter has a parameter of this key.
bool takesParam(const FilterSpec &filter, const std::string &key);

// The most a plan may hold, counted as combinations times filters (before variants).
inline constexpr std::size_t kMaxSweepRuns = 10000;

// Every combination of the axes' values (the first axis varies slowest, the last fastest), and within
// it every filter and each of its variants that `keep` accepts (all without it); an axis applies to each
// filter that takes its parameter, on top of `base`. Throws fwb::Error when combinations times filters
// exceed kMaxSweepRuns (the products checked, so a long list cannot wrap them round to an empty plan).
std::vector<SweepPoint> planSweep(const std::vector<const FilterSpec *> &filters, const std::vector<SweepAxis> &axes,
                                  const FilterParams &base,
                                  const std::function<bool(const FilterSpec &, const VariantSpec &)> &keep = {});

struct SweepSeries
{
    std::string variant; // the variant's name; "filter/variant" for a filter other than the sweep's own
    std::string title;   // its title; "Filter title: variant title" for another filter
    std::vector<double> kernelMs; // per value; -1 where the run failed or was unavailable
};

struct SweepResult
{
    std::string filter, param, paramLabel;
    std::vector<double> values;
    std::vector<SweepSeries> series; // one per variant
    bool cancelled = false;
};

// Values spaced evenly on a log scale from lo to hi (integers rounded and deduplicated when integral).
std::vector<double> sweepValues(double lo, double hi, int count, bool integral);

// The parameter a sweep of this filter varies by default ("sigma", "radius", ...); empty if none.
std::string defaultSweepParam(const FilterSpec &filter);

using SweepProgress = std::function<void(int done, int total)>;
// After each value of each filter: every run so far (a chart fills in as it goes).
using SweepStep = std::function<void(const SweepResult &soFar, int done, int total)>;

// Runs every variant (or `variants`) of the request's filter at every value, each value's runs of
// `moreFilters` (filters with the same parameter: their series beside the filter's own) after the
// filter's; variants this device cannot run are skipped entirely. Cancel stops between runs.
SweepResult runSweep(Session &session, const Image &input, const RunRequest &request, const std::string &param,
                     const std::vector<double> &values, const std::vector<std::string> &variants = {},
                     const std::atomic<bool> *cancel = nullptr, const SweepProgress &progress = {},
                     const std::vector<std::string> &moreFilters = {}, const SweepStep &step = {});

Json sweepJson(const SweepResult &sweep);

} // namespace fwb
