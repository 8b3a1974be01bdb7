// filter-bench prepare: fills the program cache for one device ahead of time (a classroom PC, a CI image,
// a cluster node), so that nobody meets a cold build later. Every (filter, variant, format) asked for runs
// once on a tiny test card in a child `filter-bench run` (so the driver's own per-launch compile happens
// too: PoCL specialises each kernel for its work-group shape at the first launch), --jobs of them at a
// time. Child processes, not threads: drivers serialise their compiler inside one process (PoCL's LLVM),
// and a driver that crashes on one program takes only that child down.
#include "Verb.h"

#include "Catalogue.h"
#include "ChildProcess.h"
#include "Devices.h"
#include "Error.h"
#include "Image.h"
#include "JsonIo.h"
#include "PreparedRecord.h"
#include "ProgramCache.h"
#include "ResultJson.h"
#include "Session.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace fwb::cli {

namespace {

struct PrepareOptions
{
    std::string filters = "all", formats = "gray8,rgba8888", deviceSpec, cacheDir;
    int jobs = 0;
    bool json = false;
};

struct Job
{
    std::string filter, variant, format;
    std::string param; // "radius=2" for a variant built for small radii only (its largest), else empty
    // Filled by the child's run:
    double buildMs = -1, wallMs = 0;
    std::string origin; // compiled, disk, memory
    std::string error;
};

std::vector<std::string> splitList(const std::string &text)
{
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty())
            out.push_back(item);
    return out;
}

// Runs argv, returns its exit status and fills `out` with its standard output.
void runJob(Job &job, const std::string &deviceSpec, const std::string &cacheDir)
{
    std::vector<std::string> args = {"filter-bench", "run", "--filter", job.filter, "--variant", job.variant,
                                     "--format", job.format, "--synthetic", "32x24", "--repeat", "1",
                                     "--warmup", "0", "--no-cpu-single", "--no-baselines", "--device", deviceSpec,
                                     "--json"};
    if (!cacheDir.empty())
        args.insert(args.end(), {"--cache-dir", cacheDir});
    if (!job.param.empty())
        args.insert(args.end(), {"--param", job.param});
    const auto start = std::chrono::steady_clock::now();
    std::string out;
    ChildOptions quiet;
    quiet.captureStdout = true;
    quiet.quietStderr = true;
    quiet.extraEnv = {"FWB_PARENT_PID=" + std::to_string(getpid())}; // the builds go if prepare is killed
    const ChildOutcome child = runChild("/proc/self/exe", args, quiet);
    out = child.out;
    const int status = !child.started ? -1 : child.signal ? 128 + child.signal : child.exitCode;
    job.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const std::optional<Json> j = parseJson(out, "filter-bench run");
    if (!j || !j->contains("results") || (*j)["results"].empty()) {
        job.error = status < 0 ? "could not start filter-bench" : "filter-bench run exited with status " + std::to_string(status);
        return;
    }
    try {
        const RunResult r = (*j)["results"][0].get<RunResult>(); // the run schema (ResultJson.h)
        job.buildMs = r.buildMs;
        job.origin = r.buildOrigin;
        job.error = r.error;
    } catch (const std::exception &e) {
        job.error = std::string("filter-bench run answered in a form this build does not read: ") + e.what();
    }
}

// prepare's checks before any work (Verb::check): the formats and filters it would build.
std::pair<std::vector<PixelFormat>, std::vector<const FilterSpec *>> checkPrepare(const PrepareOptions &o)
{
    std::vector<PixelFormat> formats;
    for (const std::string &name : o.formats == "all" ? std::vector<std::string>{"gray8", "rgb888", "rgba8888"}
                                                      : splitList(o.formats)) {
        const auto format = parsePixelFormat(name);
        if (!format)
            throw Error("unknown format '" + name + "' (gray8, rgb888, rgba8888 or all)");
        formats.push_back(*format);
    }
    std::vector<const FilterSpec *> filters;
    if (o.filters == "all")
        for (const FilterSpec &f : catalogue())
            filters.push_back(&f);
    else
        for (const std::string &name : splitList(o.filters)) {
            const FilterSpec *f = findFilter(name);
            if (!f)
                throw Error("unknown filter '" + name + "' (see filter-bench list)");
            filters.push_back(f);
        }
    if (filters.empty() || formats.empty())
        throw Error("prepare: nothing to build (empty --filter or --format)");
    return {formats, filters};
}

int cmdPrepare(const PrepareOptions &o)
{
    const auto checked = checkPrepare(o);
    const std::vector<PixelFormat> &formats = checked.first;
    const std::vector<const FilterSpec *> &filters = checked.second;
    const std::vector<DeviceInfo> devices = listDevices();
    const DeviceInfo device = selectDevice(devices, o.deviceSpec);

    std::vector<Job> jobs;
    std::size_t skipped = 0;
    for (PixelFormat format : formats)
        for (const FilterSpec *f : filters)
            for (const VariantSpec &v : f->variants) {
                if (!variantUnavailableReason(v, device, format).empty()) {
                    ++skipped; // what this device cannot run (non-uniform groups, a format the variant lacks)
                    continue;
                }
                Job job;
                job.filter = f->name;
                job.variant = v.name;
                job.format = formatName(format);
                if (v.maxRadius > 0) { // the default radius may be beyond it: its largest (as a sigma for Gaussians)
                    const bool bySigma = std::any_of(f->params.begin(), f->params.end(),
                                                     [](const ParamSpec &p) { return p.key == "sigma"; });
                    char text[48];
                    if (bySigma)
                        std::snprintf(text, sizeof text, "sigma=%.4f", (v.maxRadius - 0.05) / 3.0);
                    else
                        std::snprintf(text, sizeof text, "radius=%d", v.maxRadius);
                    job.param = text;
                }
                jobs.push_back(job);
            }
    const int threads = o.jobs > 0 ? o.jobs : int(std::max(1u, std::thread::hardware_concurrency()));
    const bool progress = !o.json && isatty(STDERR_FILENO);
    std::atomic<std::size_t> next{0}, done{0};
    std::mutex printMutex;
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (int t = 0; t < std::min<int>(threads, int(jobs.size())); ++t)
        pool.emplace_back([&] {
            for (std::size_t i; (i = next++) < jobs.size();) {
                runJob(jobs[i], device.spec(), o.cacheDir);
                const std::size_t n = ++done;
                if (progress) {
                    std::lock_guard lock(printMutex);
                    std::fprintf(stderr, "\r\033[Kpreparing kernels for %s: %zu of %zu (%s/%s %s)", device.name.c_str(), n,
                                 jobs.size(), jobs[i].filter.c_str(), jobs[i].variant.c_str(), jobs[i].format.c_str());
                    std::fflush(stderr);
                }
            }
        });
    for (std::thread &t : pool)
        t.join();
    if (progress)
        std::fprintf(stderr, "\r\033[K");
    const double wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::vector<const Job *> order;
    for (const Job &j : jobs)
        order.push_back(&j);
    std::stable_sort(order.begin(), order.end(), [](const Job *a, const Job *b) { return a->buildMs > b->buildMs; });
    std::size_t built = 0, cached = 0, failed = 0;
    double buildSum = 0;
    for (const Job &j : jobs) {
        failed += j.error.empty() ? 0 : 1;
        built += j.error.empty() && j.origin == "compiled" ? 1 : 0;
        cached += j.error.empty() && j.origin != "compiled" ? 1 : 0;
        buildSum += j.origin == "compiled" && j.buildMs > 0 ? j.buildMs : 0;
    }
    const std::string cacheDir = o.cacheDir.empty() ? ProgramCache::defaultDiskDir() : o.cacheDir;
    std::vector<PreparedBuild> record;
    for (const Job &j : jobs)
        record.push_back({j.filter, j.variant, j.format, j.error.empty() ? j.origin : std::string(), j.buildMs, j.error});
    std::string recordError;
    if (!recordPrepared(cacheDir, device, !ProgramCache::keepsBinaries(device), record, wallS, threads, &recordError))
        std::fprintf(stderr, "filter-bench: warning: the builds are cached, but their record was not written: %s\n",
                     recordError.c_str());
    if (o.json) {
        Json j = Json::object();
        j["device"] = device.name;
        j["device_spec"] = device.spec();
        j["platform"] = device.platformName;
        j["cache_dir"] = cacheDir == "-" ? Json() : Json(cacheDir);
        j["jobs"] = threads;
        j["wall_s"] = jsonNumber(wallS);
        j["programs"] = jobs.size();
        j["built"] = built;
        j["already_cached"] = cached;
        j["failed"] = failed;
        j["skipped_unavailable"] = skipped;
        j["build_s_sum"] = jsonNumber(buildSum / 1000.0);
        // PoCL keeps the programs (and every launch's specialisation) in its own kernel cache, ours holds
        // no binaries for it (ProgramCache::keepsBinaries): its "compiled" rows are builds through that cache.
        j["driver_cache"] = !ProgramCache::keepsBinaries(device);
        Json &list = j["results"] = Json::array();
        for (const Job *p : order)
            list.push_back({{"filter", p->filter}, {"variant", p->variant}, {"format", p->format},
                            {"build_ms", p->buildMs >= 0 ? jsonNumber(p->buildMs) : Json()},
                            {"origin", p->origin.empty() ? Json() : Json(p->origin)},
                            {"first_run_ms", jsonNumber(p->wallMs)},
                            {"error", p->error.empty() ? Json() : Json(p->error)}});
        std::printf("%s\n", dumpJson(j).c_str());
    } else {
        std::printf("%-20s %-26s %-9s %-9s %10s\n", "filter", "variant", "format", "origin", "build");
        for (const Job *p : order)
            std::printf("%-20s %-26s %-9s %-9s %10s%s%s\n", p->filter.c_str(), p->variant.c_str(), p->format.c_str(),
                        p->origin.empty() ? "-" : p->origin.c_str(),
                        p->buildMs >= 0 ? (std::to_string(int(p->buildMs)) + " ms").c_str() : "-",
                        p->error.empty() ? "" : "  ERROR: ", p->error.c_str());
        std::printf("prepared %zu programs for %s in %.1f s wall (%d at a time): %zu built (%.1f s of builds), %zu "
                    "already cached, %zu failed%s; cache %s\n",
                    jobs.size(), device.summary().c_str(), wallS, threads, built, buildSum / 1000.0, cached, failed,
                    skipped ? (", " + std::to_string(skipped) + " not available on this device").c_str() : "",
                    cacheDir == "-" ? "off (driver cache only)" : cacheDir.c_str());
        if (!ProgramCache::keepsBinaries(device))
            std::printf("%s keeps these programs in its own kernel cache (POCL_CACHE_DIR, else ~/.cache/pocl): "
                        "filter-bench's cache holds no binaries for it, and a program it already holds builds "
                        "from source in a fraction of a second\n",
                        device.platformName.c_str());
    }
    return failed ? 1 : 0;
}

} // namespace

Verb prepareVerb(CLI::App &root)
{
    auto o = std::make_shared<PrepareOptions>();
    Verb verb;
    verb.command = addVerbCommand(root, "prepare",
                                  "build every program a device can need ahead of time, in parallel, into the program "
                                  "cache; prints each build's time, slowest first");
    CLI::App &c = *verb.command;
    c.add_option("--filter", o->filters, "filters to prepare, comma-separated, or all (default all)")
        ->type_name("NAME[,NAME..]|all");
    c.add_option("--format", o->formats, "pixel layouts, comma-separated, or all (default gray8,rgba8888)")
        ->type_name("F[,F..]|all");
    addDeviceOption(c, o->deviceSpec);
    c.add_option("--jobs", o->jobs, "builds at a time, each in its own process (default: one per core)")
        ->type_name("N")
        ->check(CLI::Range(1, 256));
    addCacheDirOption(c, o->cacheDir);
    addJsonFlag(c, o->json, "one JSON object instead of the table");
    verb.check = [o] { checkPrepare(*o); };
    verb.run = [o] { return cmdPrepare(*o); };
    verb.unknownArgument = unknownOptionFor("prepare");
    return verb;
}

} // namespace fwb::cli
