// filter-bench prepare: fills the program cache for one device ahead of time (a classroom PC, a CI image,
// a cluster node), so that nobody meets a cold build later. Every (filter, variant, format) asked for runs
// once on a tiny test card as `filter-bench run` would (so the driver's own per-launch compile happens
// too: PoCL specialises each kernel for its work-group shape at the first launch), --jobs of them at a
// time, each thread's jobs one after another in one child process that stays (cli/PrepareChild.h).
// Child processes, not threads: drivers serialise their compiler inside one process (PoCL's LLVM,
// NVIDIA's), and a driver that crashes on one program takes only that child and that job down.
#include "Verb.h"

#include "PrepareChild.h"
#include "RunPlan.h" // splitList

#include "Catalogue.h"
#include "Devices.h"
#include "Error.h"
#include "Image.h"
#include "JsonIo.h"
#include "PrepareQueue.h"
#include "PreparedRecord.h"
#include "ProgramCache.h"
#include "Session.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
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
    bool openCv = false; // --opencv: OpenCV's OpenCL row once per filter and format (PrepareJob::isOpenCv)
    bool serve = false; // internal: a child serving jobs (PrepareChild.h)
};

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

int cmdPrepare(const PrepareOptions &o, const RunCommand &run)
{
    if (o.serve)
        return servePrepareJobs(run);
    const auto checked = checkPrepare(o);
    const std::vector<PixelFormat> &formats = checked.first;
    const std::vector<const FilterSpec *> &filters = checked.second;
    const std::vector<DeviceInfo> devices = listDevices();
    const DeviceInfo device = selectDevice(devices, o.deviceSpec);

    std::size_t skipped = 0; // what this device cannot run (non-uniform groups, a format the variant lacks)
    const std::string cacheDir = o.cacheDir.empty() ? ProgramCache::defaultDiskDir() : o.cacheDir;
    std::optional<PreparedDevice> record; // this device's last prepare: what needs no child, and the order
    for (PreparedDevice &each : readPreparedDevices(cacheDir))
        if (each.key == preparedKey(device))
            record = std::move(each);
    // Longest build first (no variant is selected here): on the H100 in the catalogue's order the slow
    // rgba8888 median programs came last and ran nearly alone at the end.
    const std::vector<PrepareJob> jobs
        = longestFirst(prepareJobs(filters, formats, device, &skipped, o.openCv), record ? record->builds : std::vector<PreparedBuild>{},
                       typicalColdBuilds(device.kind == DeviceKind::Cpu));
    if (o.openCv)
        makeOpenCvCacheRoot();
    PrepareQueue queue(jobs);
    std::vector<PreparedBuild> builds(jobs.size());
    const int threads = o.jobs > 0 ? o.jobs : int(std::max(1u, std::thread::hardware_concurrency()));
    const bool progress = !o.json && isatty(STDERR_FILENO);
    std::atomic<std::size_t> done{0};
    std::mutex printMutex;
    int childrenStarted = 0; // under printMutex, as childSeconds
    double childSeconds = 0;
    const double jobTimeoutS = prepareJobTimeoutS();
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (int t = 0; t < std::min<int>(threads, int(jobs.size())); ++t)
        pool.emplace_back([&] {
            PrepareChild child(device, o.cacheDir, jobTimeoutS); // this thread's: started at its first build
            while (const std::optional<PrepareJob> job = queue.take()) {
                const std::size_t at = std::size_t(std::find_if(jobs.begin(), jobs.end(), [&](const PrepareJob &j) {
                                                       return j.sameProgram(*job);
                                                   }) - jobs.begin());
                // Prepared before and still in the cache: no run (on NVIDIA each cost 2-3 s even with its
                // program cached, so a second prepare took 31 s for nothing).
                if (record && alreadyPrepared(*job, &*record, device, cacheDir)) {
                    builds[at] = *findBuild(record->builds, *job);
                    builds[at].fromRecord = true;
                } else {
                    builds[at] = child.build(*job);
                }
                queue.finish(*job);
                const std::size_t n = ++done;
                if (progress) {
                    std::lock_guard lock(printMutex);
                    std::fprintf(stderr, "\r\033[Kpreparing kernels for %s: %zu of %zu (%s/%s %s)", device.name.c_str(), n,
                                 jobs.size(), job->filter.c_str(), job->variant.c_str(), job->format.c_str());
                    std::fflush(stderr);
                }
            }
            child.stop();
            std::lock_guard lock(printMutex);
            childrenStarted += child.childrenStarted();
            childSeconds += child.childSeconds();
        });
    for (std::thread &t : pool)
        t.join();
    if (progress)
        std::fprintf(stderr, "\r\033[K");
    const double wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::vector<const PreparedBuild *> order;
    for (const PreparedBuild &b : builds)
        order.push_back(&b);
    std::stable_sort(order.begin(), order.end(),
                     [](const PreparedBuild *a, const PreparedBuild *b) { return a->buildMs > b->buildMs; });
    std::size_t built = 0, cached = 0, failed = 0;
    double buildSum = 0;
    for (const PreparedBuild &b : builds) {
        const bool compiledNow = b.origin == "compiled" && !b.fromRecord;
        failed += b.error.empty() ? 0 : 1;
        built += b.error.empty() && compiledNow ? 1 : 0;
        cached += b.error.empty() && !compiledNow ? 1 : 0;
        buildSum += compiledNow && b.buildMs > 0 ? b.buildMs : 0;
    }
    std::string recordError;
    if (!recordPrepared(cacheDir, device, !ProgramCache::keepsBinaries(device), builds, wallS, threads, &recordError))
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
        // The children that ran the builds (at most one per thread, plus one after each job whose child
        // died) and their lifetimes summed: what the builds cost beyond build_s_sum.
        j["children_started"] = childrenStarted;
        j["child_s_sum"] = jsonNumber(childSeconds);
        // PoCL keeps the programs (and every launch's specialisation) in its own kernel cache, ours holds
        // no binaries for it (ProgramCache::keepsBinaries): its "compiled" rows are builds through that cache.
        j["driver_cache"] = !ProgramCache::keepsBinaries(device);
        Json &list = j["results"] = Json::array();
        for (const PreparedBuild *p : order)
            list.push_back({{"filter", p->filter}, {"variant", p->variant}, {"format", p->format},
                            {"build_ms", p->buildMs >= 0 ? jsonNumber(p->buildMs) : Json()},
                            {"origin", p->fromRecord ? Json("prepared") : p->origin.empty() ? Json() : Json(p->origin)},
                            {"first_run_ms", jsonNumber(p->wallMs)},
                            {"error", p->error.empty() ? Json() : Json(p->error)}});
        std::printf("%s\n", dumpJson(j).c_str());
    } else {
        std::printf("%-20s %-26s %-9s %-9s %10s\n", "filter", "variant", "format", "origin", "build");
        for (const PreparedBuild *p : order)
            std::printf("%-20s %-26s %-9s %-9s %10s%s%s\n", p->filter.c_str(), p->variant.c_str(), p->format.c_str(),
                        p->fromRecord ? "prepared" : p->origin.empty() ? "-" : p->origin.c_str(),
                        p->buildMs >= 0 ? (std::to_string(int(p->buildMs)) + " ms").c_str() : "-",
                        p->error.empty() ? "" : "  ERROR: ", p->error.c_str());
        std::printf("prepared %zu programs for %s in %.1f s wall (%d at a time, %d processes): %zu built (%.1f s of "
                    "builds), %zu already cached, %zu failed%s; cache %s\n",
                    jobs.size(), device.summary().c_str(), wallS, threads, childrenStarted, built, buildSum / 1000.0,
                    cached, failed,
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

void addPrepareOptions(CLI::App &c, PrepareOptions &o)
{
    c.add_option("--filter", o.filters, "filters to prepare, comma-separated, or all (default all)")
        ->type_name("NAME[,NAME..]|all");
    c.add_option("--format", o.formats, "pixel layouts, comma-separated, or all (default gray8,rgba8888)")
        ->type_name("F[,F..]|all");
    addDeviceOption(c, o.deviceSpec);
    c.add_option("--jobs", o.jobs, "builds at a time, each thread's in a process of its own (default: one per core)")
        ->type_name("N")
        ->check(CLI::Range(1, 256));
    addCacheDirOption(c, o.cacheDir);
    addJsonFlag(c, o.json, "one JSON object instead of the table");
    c.add_flag("--opencv", o.openCv,
               "also run OpenCV's OpenCL row once per filter and format, so that OpenCV's own kernel cache holds "
               "its kernels (a race's OpenCV row then compiles nothing)");
    // Internal, not in --help: the child each of prepare's threads keeps (PrepareChild.h).
    c.add_flag("--serve", o.serve, "serve run jobs from standard input (internal)")->group("");
}

} // namespace

Verb prepareVerb(CLI::App &root, RunCommand run)
{
    return optionsVerb(
        root, "prepare",
        "build every program a device can need ahead of time, in parallel, into the program "
        "cache; prints each build's time, slowest first",
        addPrepareOptions, [](const PrepareOptions &o, const RunCommand &) { checkPrepare(o); }, cmdPrepare,
        std::move(run));
}

} // namespace fwb::cli
