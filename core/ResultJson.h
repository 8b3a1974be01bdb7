// The JSON shapes of what filter-bench and the workbench both report: a device, a run's result and
// a catalogue entry (`filter-bench --json`, the workbench's run-log export). Keys come out in the
// order written here; numbers in jsonNumber's form.
//
// RunRequest and RunResult have one schema, the to_json/from_json pairs below (nlohmann's: `Json j =
// result;`, `j.get<RunResult>()`): every field's name and form is written once, in ResultJson.cpp, and
// `--json`, the run log (its JSON and its CSV's column names) and the helper process's protocol
// (WorkerProcess) all go through it.
#pragma once

#include "JsonIo.h"

namespace fwb {

struct DeviceInfo;
struct RunRequest;
struct RunResult;
struct FilterSpec;

// A request as the helper process receives it: every field but reuseUpload (a fresh process has no
// image on the device) and the overrides (WorkerJob::kernel stands for them). Missing keys keep
// RunRequest's defaults; an unknown transfer mode throws.
void to_json(Json &j, const RunRequest &request);
void from_json(const Json &j, RunRequest &request);
// Every field of a result but the output image, numbers at full precision. Empty texts and
// unmeasured (negative) values are null; baseline, metric, build_log and cancelled keys appear only
// when they say something. from_json reads missing and null keys as RunResult's defaults.
void to_json(Json &j, const RunResult &result);
void from_json(const Json &j, RunResult &result);

Json deviceJson(const DeviceInfo &device);
// A result as reports print it: the schema above with every number in jsonNumber's form.
Json runResultJson(const RunResult &result);
// Every floating-point number in `json`, at any depth, in jsonNumber's form.
Json reportNumbers(Json json);
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
