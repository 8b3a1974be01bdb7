// filter-bench matmul: seed 003's matrix-multiplication ladder (and the rungs past it) at one or more
// sizes on one device, timed, checked against a double-precision host product, as a table or JSON.
#include "Verb.h"

#include "ClBlastBaseline.h"
#include "ComputeProbe.h"
#include "Devices.h"
#include "Error.h"
#include "Image.h"
#include "LabRun.h"
#include "ResultJson.h"
#include "Session.h"
#include "Workload.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>

namespace fwb::cli {

namespace {

struct MatmulOptions
{
    LabOptions lab;
    std::string sizes = "2000";
};

constexpr long kMaxN = 32768; // the workload's own limit (its n parameter)

// The bytes one n x n run needs on the device (three matrices, rows padded as the variants pad them)
// and on the host (the inputs in both layouts, C, and the check's own copy of A and B). Too much is
// bad input, said before any buffer is made.
void checkMemory(long n, const std::vector<std::string> &variants, const DeviceInfo &device)
{
    std::uint64_t ld = std::uint64_t(n); // a baseline row (clblast) pads nothing
    for (const std::string &name : variants) // as each variant's setup pads them (its tile defines)
        if (const VariantSpec *variant = findWorkload("matmul")->variant(name))
            ld = std::max<std::uint64_t>(ld, matmulPaddedN(*variant, std::size_t(n)));
    const std::uint64_t matrix = ld * ld * sizeof(float);
    const auto mib = [](std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; };
    const std::string what = "--n " + std::to_string(n) + ": each matrix needs " + mib(matrix);
    if (device.maxAllocSize && matrix > device.maxAllocSize)
        throw Error(what + ", more than " + device.name + " allows in one buffer (" + mib(device.maxAllocSize) + ")");
    if (device.globalMemSize && 3 * matrix > device.globalMemSize)
        throw Error(what + ", three of them more than " + device.name + " has (" + mib(device.globalMemSize) + ")");
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    const std::uint64_t host = pages > 0 && pageSize > 0 ? std::uint64_t(pages) * std::uint64_t(pageSize) : 0;
    if (host && 8 * matrix > host)
        throw Error(what + "; with the host's copies about " + mib(8 * matrix) + ", more than this machine's memory ("
                    + mib(host) + ")");
}

// GFLOPS of the clblast row at the same n (0: none ran).
double blasGflops(const std::vector<RunResult> &results, double n)
{
    for (const RunResult &r : results)
        if (r.baseline && r.ok() && r.params.count("n") && r.params.at("n") == n)
            return r.metricValue;
    return 0;
}

std::string percentText(double pct)
{
    if (pct < 0)
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, pct < 1 ? "%.2f%%" : "%.1f%%", pct);
    return text;
}

void printMatmulTable(const DeviceInfo &device, const Fp32Peak &peak, const std::vector<RunResult> &results)
{
    std::printf("matmul on %s (%s, %s): C = A * B, n x n float, GFLOPS = 2n^3 / kernel time\n", device.name.c_str(),
                deviceKindName(device.kind), device.spec().c_str());
    if (peak.ok())
        std::printf("FP32 peak (FMA probe, %zu work-items x %d loop trips): %.1f GFLOPS\n", peak.workItems,
                    peak.iterations, peak.gflops);
    else
        std::printf("FP32 peak: not measured (%s)\n", peak.error.c_str());
    double lastN = -1, naiveMs = 0, blas = 0;
    for (const RunResult &r : results) {
        const double n = r.params.count("n") ? r.params.at("n") : 0;
        if (n != lastN) {
            std::printf("\nn = %.0f\n%-26s %-8s %12s %12s %8s %8s %8s  %s\n", n, "variant", "local", "kernel ms",
                        "GFLOPS", "% peak", "% BLAS", "x naive", "check");
            lastN = n;
            naiveMs = 0;
            blas = blasGflops(results, n);
        }
        if (r.variant == "naive" && r.ok())
            naiveMs = r.kernelMs.median;
        if (!r.ok()) {
            std::printf("%-26s %-8s %12s %12s %8s %8s %8s  %s\n", r.variant.c_str(), "-", "-", "-", "-", "-", "-",
                        checkText(r).c_str());
            continue;
        }
        char vsNaive[32] = "-";
        if (naiveMs > 0 && r.kernelMs.median > 0)
            std::snprintf(vsNaive, sizeof vsNaive, "%.1f", naiveMs / r.kernelMs.median);
        std::printf("%-26s %-8s %12.3f %12.1f %8s %8s %8s  %s\n", r.variant.c_str(), r.local.toString().c_str(),
                    r.kernelMs.median, r.metricValue, percentText(percentOfPeak(r.metricValue, peak)).c_str(),
                    percentText(blas > 0 ? 100 * r.metricValue / blas : -1).c_str(), vsNaive, checkText(r).c_str());
    }
}

// matmul's checks before any work (Verb::check); what fits the device is checked once it is chosen.
struct CheckedMatmul
{
    std::vector<long> sizes;
    std::vector<std::string> variants; // the ladder's rungs to run
    bool onlyBlas = false, withBlas = false;
    WorkloadRequest request;
};

CheckedMatmul checkMatmul(const MatmulOptions &o)
{
    CheckedMatmul c;
    const WorkloadSpec &workload = *findWorkload("matmul");
    c.sizes = parseSizeList("--n", o.sizes, 1, kMaxN);
    // A, B, the result and the host reference: four n x n float matrices must fit the memory this
    // program may use (FWB_MEMORY_MIB, else physical memory or the container's limit), as images do.
    for (long n : c.sizes)
        if (const std::uint64_t bytes = 4 * std::uint64_t(n) * std::uint64_t(n) * sizeof(float);
            memoryBudgetBytes() && bytes > memoryBudgetBytes())
            throw Error("--n " + std::to_string(n) + " needs " + std::to_string(bytes >> 20) + " MiB of host memory for its "
                        "matrices; this program may use " + std::to_string(memoryBudgetBytes() >> 20)
                        + " MiB (FWB_MEMORY_MIB, or the machine's memory)");
    // "clblast" alone is the baseline row; with --variant all it follows the ladder unless --no-baselines.
    c.onlyBlas = o.lab.variantName == "clblast";
    c.variants = c.onlyBlas ? std::vector<std::string>{} : selectWorkloadVariants(workload, o.lab.variantName);
    c.withBlas = c.onlyBlas || (o.lab.variantName == "all" && !o.lab.noBaselines);
    c.request = labRequest(workload.name, o.lab);
    return c;
}

int cmdMatmul(const MatmulOptions &o)
{
    const WorkloadSpec &workload = *findWorkload("matmul");
    const CheckedMatmul checked = checkMatmul(o);
    const std::vector<long> &sizes = checked.sizes;
    const std::vector<std::string> &variants = checked.variants;
    const bool onlyBlas = checked.onlyBlas, withBlas = checked.withBlas;
    WorkloadRequest request = checked.request;
    const DeviceInfo device = selectDevice(listDevices(), o.lab.deviceSpec);
    const std::string localProblem = labLocalProblem(request.local, device); // fails every row (exit 1)
    for (long n : sizes)
        checkMemory(n, onlyBlas ? std::vector<std::string>{"naive"} : variants, device);
    SessionOptions sessionOptions;
    sessionOptions.cacheDir = o.lab.cacheDir;
    Session session(device, sessionOptions);
    const Fp32Peak peak = labPeak(session, localProblem);

    std::vector<RunResult> results;
    for (long n : sizes) {
        for (const std::string &variant : variants) {
            request.variant = variant;
            request.params = {{"n", double(n)}};
            results.push_back(runLabRow(session, request, o.lab.variantName, localProblem));
        }
        if (withBlas)
            results.push_back(runClBlastMatmul(session, int(n), request.repeat, request.warmup, request.check));
    }

    LabReport report;
    report.head = [&](Json &j) {
        j["sizes"] = Json(sizes);
        j["repeat"] = request.repeat;
        j["warmup"] = request.warmup;
    };
    report.row = [&](const RunResult &r, Json &row) {
        const double pct = r.ok() ? percentOfPeak(r.metricValue, peak) : -1;
        const double blas = r.params.count("n") ? blasGflops(results, r.params.at("n")) : 0;
        row["gflops"] = r.ok() ? jsonNumber(r.metricValue) : Json(nullptr);
        row["pct_of_fp32_peak"] = pct >= 0 ? jsonNumber(pct) : Json(nullptr);
        row["pct_of_clblast"] = r.ok() && blas > 0 ? jsonNumber(100 * r.metricValue / blas) : Json(nullptr);
    };
    report.table = [&] { printMatmulTable(device, peak, results); };
    return printLabReport(o.lab, workload, device, peak, results, report);
}

void addMatmulOptions(CLI::App &c, MatmulOptions &o)
{
    c.add_option("--n", o.sizes, "matrix size n, or a list to sweep (default 2000)")->type_name("N[,N..]");
    addLabOptions(c, o.lab, 3);
    c.add_flag("--no-baselines", o.lab.noBaselines,
               "no clblast row (by default it follows the ladder with --variant all, when built with CLBlast;\n"
               "--variant clblast runs it alone)");
}

} // namespace

Verb matmulVerb(CLI::App &root)
{
    return optionsVerb(root, "matmul",
                       "the matrix-multiplication ladder (seed 003's nine steps and past them)\n"
                       "against the device's FP32 peak (an FMA probe) and CLBlast",
                       addMatmulOptions, checkMatmul, cmdMatmul);
}

} // namespace fwb::cli
