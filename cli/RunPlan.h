// Run planning for `filter-bench run`: which filters --filter names, and the runs that --variant and
// --param NAME=V1,V2,.. (a sweep) expand into.
#pragma once

#include "Catalogue.h"

#include <string>
#include <vector>

namespace fwb::cli {

// "a,b,c" -> {"a", "b", "c"} (empty items dropped).
std::vector<std::string> splitList(const std::string &text);

// --filter a,b | all: the filters a run covers, in the order given (all: catalogue order).
// Throws fwb::Error naming an unknown filter (and the known ones).
std::vector<const FilterSpec *> selectFilters(const std::string &names);

// One run of the plan: a filter's variant with one combination of the swept parameter values.
struct PlannedRun
{
    const FilterSpec *filter = nullptr;
    std::string variant;
    FilterParams params;
    int combo = 0; // index of the parameter combination (0 when nothing is swept)
};

// Expands --variant and --param NAME=v1,v2,... (a sweep) into runs: every combination of the swept
// values (first --param varies slowest), and within it every filter and variant. A parameter applies
// to each filter that has it; one that no chosen filter takes is an error, as is any bad value.
std::vector<PlannedRun> planRuns(const std::vector<const FilterSpec *> &filters, const std::string &variantName,
                                 const std::vector<std::string> &assignments, const FilterParams &base);

} // namespace fwb::cli
