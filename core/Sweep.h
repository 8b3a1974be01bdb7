// Parameter sweep: kernel time of each variant of a filter over a list of values of one numeric
// parameter (e.g. sigma 0.5..32), so a crossover is visible (recursive Gaussian vs separable).
#pragma once

#include "JsonIo.h"
#include "Session.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace fwb {

struct SweepSeries
{
    std::string variant;
    std::string title;
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

// Runs every variant (or `variants`) at every value; unavailable variants are skipped entirely.
SweepResult runSweep(Session &session, const Image &input, const RunRequest &request, const std::string &param,
                     const std::vector<double> &values, const std::vector<std::string> &variants = {},
                     const std::atomic<bool> *cancel = nullptr, const SweepProgress &progress = {});

Json sweepJson(const SweepResult &sweep);

} // namespace fwb
