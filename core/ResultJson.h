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
// The bandwidth probe (Session::BandwidthProbe): GB/s per direction and memory kind.
template <typename Probe> Json bandwidthProbeJson(const Probe &p)
{
    Json j = Json::object();
    j["bytes"] = std::int64_t(p.bytes);
    j["device_copy_gbps"] = jsonNumber(p.deviceCopyGBps);
    j["h2d_pageable_gbps"] = jsonNumber(p.h2dPageableGBps);
    j["d2h_pageable_gbps"] = jsonNumber(p.d2hPageableGBps);
    j["h2d_pinned_gbps"] = jsonNumber(p.h2dPinnedGBps);
    j["d2h_pinned_gbps"] = jsonNumber(p.d2hPinnedGBps);
    j["zero_copy_read_gbps"] = jsonNumber(p.zeroCopyReadGBps);
    j["error"] = p.error.empty() ? Json(nullptr) : Json(p.error);
    return j;
}

} // namespace fwb
