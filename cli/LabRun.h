// What the Compute Lab verbs (filter-bench matmul, filter-bench nbody) share: their common options,
// size lists, variant selection, the launch-shape check against the device, the exit status and the
// JSON document around the results.
#pragma once

#include "JsonIo.h"
#include "Session.h"

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace fwb {
struct DeviceInfo;
struct Fp32Peak;
struct WorkloadSpec;
} // namespace fwb

namespace fwb::cli {

struct LabOptions
{
    std::string variantName = "all", deviceSpec, localText = "auto", cacheDir;
    int repeat = 3, warmup = 1; // repeat: addLabOptions sets the verb's default
    bool json = false, fastMath = false, noCheck = false, noBaselines = false;
};

// --variant, --device, --local, --repeat, --warmup, --fast-math, --no-check, --cache-dir, --json.
void addLabOptions(CLI::App &command, LabOptions &options, int defaultRepeat);

// "2000,4096" -> {2000, 4096}; each a whole number in [minimum, maximum], else fwb::Error naming the flag.
std::vector<long> parseSizeList(const std::string &flag, const std::string &text, long minimum, long maximum);

// The variants `name` selects ("all" or one name), else fwb::Error listing the names.
std::vector<std::string> selectWorkloadVariants(const WorkloadSpec &workload, const std::string &name);

// --local parsed (WxH, auto or driver), else fwb::Error (exit 2). Whether the device can launch it is
// labLocalProblem's question: a well-formed shape that cannot launch fails the runs (exit 1), as
// filter-bench run's rows do.
LocalSize parseLabLocal(const std::string &text);

// The request every lab verb starts from: the workload and what --repeat, --warmup, --fast-math,
// --no-check and --local say (fwb::Error, exit 2, for a malformed value).
WorkloadRequest labRequest(const std::string &workload, const LabOptions &options);

// The device's FP32 peak for the table, or, when `localProblem` is set (no row runs), a peak marked
// "not measured (why)".
Fp32Peak labPeak(Session &session, const std::string &localProblem);

// Why the device itself cannot launch work-groups of `local` (width, height or items over its limits);
// empty when it can. Such a --local fails every row without building or running it.
std::string labLocalProblem(const LocalSize &local, const DeviceInfo &device);

// One row of a lab verb: the workload run on `session`, or, when `localProblem` is set, a failed row
// with that reason (nothing built or launched). A row refused because the variant is compiled for other
// work-groups, or its kernel cannot take the shape asked for, is shown as unavailable with --variant
// all; for a named variant it fails (exit 1), as filter-bench run's rows do.
RunResult runLabRow(Session &session, const WorkloadRequest &request, const std::string &variantName,
                    const std::string &localProblem);

// 0, or 1 with the first reason: a failed run (unavailable rows are fine in an "all" sweep and for
// baselines), or a result that does not match the host reference.
int labExitStatus(const std::vector<RunResult> &results, const std::string &variantName, std::string *reason);

// The probe's figure for --json: gflops, kernel_ms, work_items, iterations, error.
Json fp32PeakJson(const Fp32Peak &peak);

// "ok (err 1.2e-07)", "MISMATCH (err ...)", "unavailable: why" or "ERROR CODE: why" for the tables.
std::string checkText(const RunResult &result);

// What a lab verb adds to the shared report: its own fields of the JSON document (after workload and
// device), its own figures in each result's row, and its table.
struct LabReport
{
    std::function<void(Json &document)> head;
    std::function<void(const RunResult &result, Json &row)> row;
    std::function<void()> table;
};

// How a lab verb ends: with --json one document (workload, device, report.head's fields, tolerance
// note, FP32 peak, every result as runResultJson plus report.row's figures, ok), else report.table();
// then labExitStatus, its reason on stderr. Returns that status.
int printLabReport(const LabOptions &options, const WorkloadSpec &workload, const DeviceInfo &device,
                   const Fp32Peak &peak, const std::vector<RunResult> &results, const LabReport &report);

} // namespace fwb::cli
