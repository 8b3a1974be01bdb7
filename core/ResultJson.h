// The JSON shapes of what filter-bench and the workbench both report: a device, a run's result and
// a catalogue entry (`filter-bench --json`, the workbench's run-log export). Keys come out in the
// order written here; numbers in jsonNumber's form.
#pragma once

#include "JsonIo.h"

namespace fwb {

struct DeviceInfo;
struct RunResult;
struct FilterSpec;

Json deviceJson(const DeviceInfo &device);
Json runResultJson(const RunResult &result);
Json filterJson(const FilterSpec &filter);

} // namespace fwb
