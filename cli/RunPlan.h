// Run planning for `filter-bench run`: which filters --filter names, and the runs that --variant and
// --param NAME=V1,V2,.. (a sweep) expand into.
#pragma once

#include "Catalogue.h"
#include "Session.h"

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

// --variant NAME as this filter names it now: a former name (core's variantAliases) gives the variant's
// name today, with a one-line note on stderr (once per process and former name); any other name comes
// back as given (the caller reports one the filter lacks).
std::string variantNameNow(const FilterSpec &filter, const std::string &asked);

// Expands --variant and --param NAME=v1,v2,... (a sweep) into runs through core's planSweep: every
// combination of the swept values (first --param varies slowest), and within it every filter and
// variant. A parameter applies to each filter that has it; one that no chosen filter takes is an error,
// as is any bad value.
std::vector<PlannedRun> planRuns(const std::vector<const FilterSpec *> &filters, const std::string &variantName,
                                 const std::vector<std::string> &assignments, const FilterParams &base);

// --format, --border and --local as run, race, tune and report read them: into request.params.format,
// request.params.border and request.local. Throws fwb::Error naming the word it does not know.
void applyLayoutOptions(const std::string &formatText, const std::string &borderText, const std::string &localText,
                        RunRequest &request);

// --synthetic WxH (the test card's size): the form, then the size the image may have (with `channels`
// per pixel when known, 0 otherwise). Throws fwb::Error.
void checkSyntheticSize(const std::string &text, long &w, long &h, int channels = 0);

} // namespace fwb::cli
