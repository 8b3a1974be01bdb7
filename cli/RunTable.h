// The text form of `filter-bench run`: the results table and, for a parameter sweep, its matrix.
#pragma once

#include "RunPlan.h"

#include <string>
#include <vector>

namespace fwb {
struct DeviceInfo;
struct RunResult;
class Image;
} // namespace fwb

namespace fwb::cli {

// One row per run: build, copy and kernel times, bandwidth, CPU times, speedup and the check.
void printTable(const DeviceInfo &device, double copyGBps, const Image &image, const std::string &source,
                const std::vector<RunResult> &results, bool showParams);

// A sweep's summary: one row per filter/variant, one column per parameter combination, cells are
// the kernel median in ms ("x" failed, "u" unavailable) - e.g. recursive vs separable over sigma.
void printSweepMatrix(const std::vector<PlannedRun> &plan, const std::vector<RunResult> &results);

} // namespace fwb::cli
