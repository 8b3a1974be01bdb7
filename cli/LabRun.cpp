// The Compute Lab verbs' shared parts (see LabRun.h).
#include "LabRun.h"

#include "ComputeProbe.h"
#include "Devices.h"
#include "Error.h"
#include "OptionValues.h"
#include "ResultJson.h"
#include "WorkGroup.h"
#include "Workload.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace fwb::cli {

void addLabOptions(CLI::App &c, LabOptions &o, int defaultRepeat)
{
    c.add_option("--variant", o.variantName, "variant to run (default: all, in ladder order)")->type_name("NAME|all");
    c.add_option("--device", o.deviceSpec, "P:D, gpu, cpu or a name substring (default: best GPU, else CPU;\n"
                                           "see filter-bench devices)")
        ->type_name("SPEC");
    c.add_option("--local", o.localText, "work-group shape (default: auto = each variant's own shape; variants\n"
                                         "compiled for one shape refuse any other)")
        ->type_name("WxH|auto|driver");
    o.repeat = defaultRepeat;
    addCountOption(c, "--repeat", o.repeat, 1, "timed repeats (default " + std::to_string(defaultRepeat) + ")");
    addCountOption(c, "--warmup", o.warmup, 0, "untimed warm-up runs (default 1)");
    c.add_flag("--fast-math", o.fastMath, "build with -cl-fast-relaxed-math where the variant uses such math");
    c.add_flag("--no-check", o.noCheck, "skip the comparison with the host reference (and its CPU timing)");
    c.add_option("--cache-dir", o.cacheDir, "program-binary cache folder; - disables the disk cache")
        ->type_name("DIR|-");
    c.add_flag("--json", o.json, "one JSON object instead of the table");
}

std::vector<long> parseSizeList(const std::string &flag, const std::string &text, long minimum, long maximum)
{
    std::vector<long> values;
    std::stringstream list(text);
    for (std::string item; std::getline(list, item, ',');) {
        const std::optional<long long> value = parseWholeNumber(item);
        if (!value || *value < minimum || *value > maximum)
            throw Error(flag + " '" + item + "' must be a whole number from " + std::to_string(minimum) + " to "
                        + std::to_string(maximum));
        values.push_back(long(*value));
    }
    if (values.empty() || text.back() == ',')
        throw Error(flag + " '" + text + "' must be one or more whole numbers, e.g. 2000 or 2000,4096");
    return values;
}

std::vector<std::string> selectWorkloadVariants(const WorkloadSpec &workload, const std::string &name)
{
    std::vector<std::string> names;
    for (const VariantSpec &v : workload.variants)
        if (name == "all" || v.name == name)
            names.push_back(v.name);
    if (names.empty()) {
        std::string known;
        for (const VariantSpec &v : workload.variants)
            known += (known.empty() ? "" : ", ") + v.name;
        throw Error(workload.name + " has no variant '" + name + "' (use all or one of: " + known + ")");
    }
    return names;
}

WorkloadRequest labRequest(const std::string &workload, const LabOptions &options)
{
    WorkloadRequest request;
    request.workload = workload;
    request.repeat = options.repeat;
    request.warmup = options.warmup;
    request.fastMath = options.fastMath;
    request.check = !options.noCheck;
    request.local = parseLabLocal(options.localText);
    return request;
}

Fp32Peak labPeak(Session &session, const std::string &localProblem)
{
    if (localProblem.empty())
        return fp32Peak(session);
    Fp32Peak notMeasured;
    notMeasured.error = "not measured (" + localProblem + ")";
    return notMeasured;
}

LocalSize parseLabLocal(const std::string &text)
{
    std::string error;
    const auto local = LocalSize::parse(text, &error);
    if (!local)
        throw Error("--local: " + error);
    return *local;
}

std::string labLocalProblem(const LocalSize &local, const DeviceInfo &device)
{
    LaunchLimits limits; // the device's limits only; each kernel's own are checked when it launches
    if (std::string why = localSizeProblem(device, local, limits); !why.empty())
        return "--local " + local.toString() + ": " + why;
    return {};
}

RunResult runLabRow(Session &session, const WorkloadRequest &request, const std::string &variantName,
                    const std::string &localProblem)
{
    if (!localProblem.empty()) {
        RunResult r;
        r.filter = request.workload;
        r.variant = request.variant;
        if (const WorkloadSpec *workload = findWorkload(request.workload))
            r.params = workload->resolvedParams(request.params);
        r.device = session.device().name;
        r.deviceSpec = session.device().spec();
        r.local = request.local;
        r.error = localProblem;
        r.errorCode = "invalid work-group shape";
        return r;
    }
    RunResult r = session.runWorkload(request);
    if (!r.ok() && r.errorCode == "invalid work-group shape" && variantName == "all")
        r.unavailable = true; // this variant's kernel cannot take the shape; the others ran with it
    return r;
}

int labExitStatus(const std::vector<RunResult> &results, const std::string &variantName, std::string *reason)
{
    int status = 0;
    for (const RunResult &r : results) {
        std::string why;
        if (!r.ok() && !(r.unavailable && (variantName == "all" || r.baseline)))
            why = r.variant + ": " + r.error;
        else if (r.ok() && r.checked && !r.matches)
            why = r.variant + " does not match the host reference (" + r.checkDetail + ")";
        if (!why.empty() && status == 0) {
            status = 1;
            *reason = why;
        }
    }
    return status;
}

Json fp32PeakJson(const Fp32Peak &peak)
{
    Json j = Json::object();
    j["gflops"] = peak.ok() ? jsonNumber(peak.gflops) : Json(nullptr);
    j["kernel_ms"] = jsonNumber(peak.kernelMs);
    j["work_items"] = std::int64_t(peak.workItems);
    j["iterations"] = peak.iterations;
    j["flops_per_iteration"] = 128;
    j["error"] = peak.error.empty() ? Json(nullptr) : Json(peak.error);
    return j;
}

std::string checkText(const RunResult &r)
{
    if (r.unavailable)
        return "unavailable: " + r.error;
    if (!r.ok())
        return "ERROR " + (r.errorCode.empty() ? std::string() : r.errorCode + ": ") + r.error;
    if (!r.checked)
        return "not checked";
    char text[64];
    std::snprintf(text, sizeof text, "%s (err %.2g)", r.matches ? "ok" : "MISMATCH", r.maxError);
    return text;
}

int printLabReport(const LabOptions &options, const WorkloadSpec &workload, const DeviceInfo &device,
                   const Fp32Peak &peak, const std::vector<RunResult> &results, const LabReport &report)
{
    std::string reason;
    const int status = labExitStatus(results, options.variantName, &reason);
    if (options.json) {
        Json j = Json::object();
        j["workload"] = workload.name;
        j["device"] = deviceJson(device);
        report.head(j);
        j["tolerance_note"] = workload.toleranceNote;
        j["fp32_peak"] = fp32PeakJson(peak);
        Json &list = j["results"] = Json::array();
        for (const RunResult &r : results) {
            Json row = runResultJson(r);
            report.row(r, row);
            list.push_back(std::move(row));
        }
        j["ok"] = status == 0;
        std::printf("%s\n", dumpJson(j).c_str());
    } else {
        report.table();
    }
    if (status != 0)
        std::fprintf(stderr, "filter-bench: %s\n", reason.c_str());
    return status;
}

} // namespace fwb::cli
