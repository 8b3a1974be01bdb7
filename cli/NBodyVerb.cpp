// filter-bench nbody: seed 002's all-pairs N-body simulation (and the rung past it) on one device, k
// steps per run, timed and checked against the host reference after those k steps, as a table or JSON.
#include "Verb.h"

#include "ComputeProbe.h"
#include "Devices.h"
#include "Error.h"
#include "LabRun.h"
#include "OptionValues.h"
#include "ResultJson.h"
#include "Session.h"
#include "Workload.h"

#include <cstdio>

namespace fwb::cli {

namespace {

struct NBodyOptions
{
    LabOptions lab;
    std::string bodies = "10000";
    int steps = 10;
};

constexpr double kFlopsPerInteraction = 20; // the usual convention (GPU Gems 3, ch. 31)

double stepsPerSecond(const RunResult &r)
{
    const double steps = r.params.count("steps") ? r.params.at("steps") : 1;
    return r.ok() && r.kernelMs.median > 0 ? steps / (r.kernelMs.median * 1e-3) : 0;
}

void printNBodyTable(const DeviceInfo &device, const Fp32Peak &peak, const std::vector<RunResult> &results)
{
    std::printf("nbody on %s (%s, %s): all pairs, %g flops per interaction; seed 002 at 10,000 bodies: 2.5 "
                "steps/s CPU, 160 GPU (64x)\n",
                device.name.c_str(), deviceKindName(device.kind), device.spec().c_str(), kFlopsPerInteraction);
    if (peak.ok())
        std::printf("FP32 peak (FMA probe): %.1f GFLOPS\n", peak.gflops);
    else
        std::printf("FP32 peak: not measured (%s)\n", peak.error.c_str());
    double lastN = -1;
    for (const RunResult &r : results) {
        const double n = r.params.count("bodies") ? r.params.at("bodies") : 0;
        if (n != lastN) {
            std::printf("\nbodies = %.0f, %.0f steps per run\n%-14s %-8s %11s %11s %10s %9s %7s %11s %8s  %s\n", n,
                        r.params.count("steps") ? r.params.at("steps") : 0, "variant", "local", "kernel ms",
                        "steps/s", "Ginter/s", "GFLOPS", "% peak", "CPU steps/s", "x CPU", "check");
            lastN = n;
        }
        if (!r.ok()) {
            std::printf("%-14s %-8s %s\n", r.variant.c_str(), "-", checkText(r).c_str());
            continue;
        }
        const double steps = r.params.at("steps");
        char cpu[32] = "-", speedup[32] = "-";
        if (r.cpuMultiMs > 0) {
            std::snprintf(cpu, sizeof cpu, "%.2f", steps / (r.cpuMultiMs * 1e-3));
            std::snprintf(speedup, sizeof speedup, "%.0f", r.cpuMultiMs / r.kernelMs.median);
        }
        const double pct = percentOfPeak(r.metricValue * kFlopsPerInteraction, peak);
        char pctText[32] = "-";
        if (pct >= 0)
            std::snprintf(pctText, sizeof pctText, "%.1f%%", pct);
        std::printf("%-14s %-8s %11.3f %11.1f %10.2f %9.0f %7s %11s %8s  %s\n", r.variant.c_str(),
                    r.local.toString().c_str(), r.kernelMs.median, stepsPerSecond(r), r.metricValue,
                    r.metricValue * kFlopsPerInteraction, pctText, cpu, speedup, checkText(r).c_str());
    }
    for (const RunResult &r : results)
        if (r.ok() && r.checked)
            std::printf("  %s, %.0f bodies: %s\n", r.variant.c_str(), r.params.at("bodies"), r.checkDetail.c_str());
}

// nbody's checks before any work (Verb::check).
struct CheckedNBody
{
    std::vector<long> sizes;
    int steps = 10;
    std::vector<std::string> variants;
    WorkloadRequest request;
};

CheckedNBody checkNBody(const NBodyOptions &o)
{
    CheckedNBody c;
    const WorkloadSpec &workload = *findWorkload("nbody");
    c.sizes = parseSizeList("--bodies", o.bodies, 1, 1 << 21);
    c.steps = o.steps;
    c.variants = selectWorkloadVariants(workload, o.lab.variantName);
    c.request = labRequest(workload.name, o.lab);
    return c;
}

int cmdNBody(const NBodyOptions &o)
{
    const WorkloadSpec &workload = *findWorkload("nbody");
    const CheckedNBody checked = checkNBody(o);
    const std::vector<long> &sizes = checked.sizes;
    const int steps = checked.steps;
    const std::vector<std::string> &variants = checked.variants;
    WorkloadRequest request = checked.request;
    const DeviceInfo device = selectDevice(listDevices(), o.lab.deviceSpec);
    const std::string localProblem = labLocalProblem(request.local, device); // fails every row (exit 1)
    SessionOptions sessionOptions;
    sessionOptions.cacheDir = o.lab.cacheDir;
    Session session(device, sessionOptions);
    const Fp32Peak peak = labPeak(session, localProblem);

    std::vector<RunResult> results;
    for (long n : sizes)
        for (const std::string &variant : variants) {
            request.variant = variant;
            request.params = {{"bodies", double(n)}, {"steps", double(steps)}};
            results.push_back(runLabRow(session, request, o.lab.variantName, localProblem));
        }

    LabReport report;
    report.head = [&](Json &j) {
        j["bodies"] = Json(sizes);
        j["steps"] = steps;
        j["repeat"] = request.repeat;
        j["warmup"] = request.warmup;
        j["fast_math"] = request.fastMath;
        j["flops_per_interaction"] = kFlopsPerInteraction;
    };
    report.row = [&](const RunResult &r, Json &row) {
        const bool ok = r.ok() && r.kernelMs.median > 0;
        row["steps_per_s"] = ok ? jsonNumber(stepsPerSecond(r)) : Json(nullptr);
        row["interactions_per_s"] = ok ? jsonNumber(r.metricValue * 1e9) : Json(nullptr);
        row["gflops"] = ok ? jsonNumber(r.metricValue * kFlopsPerInteraction) : Json(nullptr);
        const double pct = ok ? percentOfPeak(r.metricValue * kFlopsPerInteraction, peak) : -1;
        row["pct_of_fp32_peak"] = pct >= 0 ? jsonNumber(pct) : Json(nullptr);
        row["cpu_steps_per_s"] = ok && r.cpuMultiMs > 0 ? jsonNumber(steps / (r.cpuMultiMs * 1e-3)) : Json(nullptr);
        row["speedup_vs_cpu"] = ok && r.cpuMultiMs > 0 ? jsonNumber(r.cpuMultiMs / r.kernelMs.median) : Json(nullptr);
    };
    report.table = [&] { printNBodyTable(device, peak, results); };
    return printLabReport(o.lab, workload, device, peak, results, report);
}

void addNbodyOptions(CLI::App &c, NBodyOptions &o)
{
    c.add_option("--bodies", o.bodies, "bodies in the cloud, or a list to sweep (default 10000)")
        ->type_name("N[,N..]");
    c.add_option("--steps", o.steps, "time steps per run, each a launch (default 10)")
        ->type_name("N")
        ->transform(wholeNumberIn(1, 10000, [](const std::string &text) {
            const std::optional<long long> n = parseWholeNumber(text);
            return "--steps '" + text + "' must be a whole number " + (n && *n > 10000 ? "from 1 to 10000" : ">= 1");
        }));
    addLabOptions(c, o.lab, 3);
}

} // namespace

Verb nbodyVerb(CLI::App &root)
{
    return optionsVerb(root, "nbody",
                       "the all-pairs N-body simulation (seed 002) and its variants",
                       addNbodyOptions, checkNBody, cmdNBody);
}

} // namespace fwb::cli
