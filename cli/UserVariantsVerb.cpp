// filter-bench user-variants: lists the user's saved kernels (NAME.cl + NAME.json in their data
// folder), shows one, or deletes one. `filter-bench run --user-variant NAME` runs them. --overhead
// measures what the helper process they run in costs per run (scripts/helper-overhead.sh).
#include "Verb.h"

#include "OptionValues.h"
#include "RunPlan.h"

#include "Catalogue.h"
#include "Devices.h"
#include "Error.h"
#include "JsonIo.h"
#include "Session.h"
#include "UserVariants.h"
#include "WorkerProcess.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

namespace fwb::cli {

namespace {

// --overhead's defaults: the catalogue's lesson filter (FilterSpec::lessonFilter) and its baseline variant.
std::string lessonFilterName()
{
    const FilterSpec *filter = lessonFilter();
    return filter ? filter->name : std::string();
}

std::string lessonVariantName()
{
    const FilterSpec *filter = lessonFilter();
    const VariantSpec *variant = filter ? baselineVariant(*filter) : nullptr;
    return variant ? variant->name : std::string();
}

struct UserVariantsOptions
{
    std::string remove, show;
    bool json = false;
    bool overhead = false;
    std::string sizes = "640x480,6720x4480", filter = lessonFilterName(), variant = lessonVariantName(), device, cacheDir;
    int runs = 9;
};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// The same variant on the same image, one run at a time, alternately in this process (Session::run on
// a warm session: the program in memory) and through the helper (a fresh filter-worker each run: spawn,
// OpenCL platform and device, Session, program from the disk cache, the image and the output through
// files). Both keep the output and skip the CPU check, so the difference is the helper's own cost.
// user-variants' checks before any work (Verb::check): --overhead's options (a size is drawn as a test
// card, so it keeps to the image limits); --show and --delete name a variant the run looks up.
std::vector<std::string> checkUserVariants(const UserVariantsOptions &o)
{
    std::vector<std::string> sizes;
    if (!o.overhead)
        return sizes;
    if (o.runs < 1 || o.runs > 1000)
        throw Error("--runs must be 1..1000");
    const FilterSpec *filter = findFilter(o.filter);
    if (!filter)
        throw Error("--filter: unknown filter '" + o.filter + "' (see filter-bench list)");
    if (!filter->variant(o.variant))
        throw Error("--variant: filter " + filter->name + " has no variant '" + o.variant + "'");
    std::stringstream list(o.sizes);
    for (std::string size; std::getline(list, size, ',');) {
        long w = 0, h = 0;
        if (!parseSize(size, kMaxImageSide, w, h))
            throw Error("--sizes: '" + size + "' is not WxH");
        if (std::string problem = imageSizeProblem(w, h); !problem.empty())
            throw Error("--sizes " + size + ": " + problem);
        sizes.push_back(size);
    }
    if (sizes.empty())
        throw Error("--sizes '" + o.sizes + "' names no size");
    return sizes;
}

int cmdOverhead(const UserVariantsOptions &o)
{
    using Clock = std::chrono::steady_clock;
    const std::vector<std::string> sizeList = checkUserVariants(o);
    const DeviceInfo device = selectDevice(listDevices(), o.device);
    SessionOptions sessionOptions;
    sessionOptions.cacheDir = o.cacheDir;
    Session session(device, sessionOptions);
    RunRequest request;
    request.filter = o.filter;
    request.variant = variantNameNow(*findFilter(o.filter), o.variant);
    request.repeat = 1;
    request.warmup = 0;
    request.cpuSingle = false;
    request.check = false;
    request.openCvCpuBaseline = false;
    request.keepOutput = true;
    WorkerJob job;
    job.deviceSpec = device.spec();
    job.cacheDir = o.cacheDir;
    job.request = request;
    WorkerOptions workerOptions;
    workerOptions.timeoutS = 600;

    Json rows = Json::array();
    if (!o.json)
        std::printf("Helper-process overhead per run on %s (%s/%s, gray8, median of %d runs each)\n", device.name.c_str(),
                    o.filter.c_str(), o.variant.c_str(), o.runs);
    for (const std::string &size : sizeList) {
        long w = 0, h = 0;
        parseSize(size, kMaxImageSide, w, h); // checked above
        const Image input = makeTestCard(int(w), int(h), PixelFormat::Gray8);
        job.input = input;
        // Warm-ups: the program built and in the disk cache, buffers allocated.
        const RunResult warm = session.run(input, request);
        if (!warm.ok())
            throw Error(o.filter + "/" + o.variant + " at " + size + ": " + warm.error);
        const WorkerOutcome warmHelper = runInWorker(job, workerOptions);
        if (!warmHelper.result.ok())
            throw Error("the helper at " + size + ": " + warmHelper.result.error);
        std::vector<double> inProcess, helper, sessionOpen, outsideMain, helperRun;
        for (int i = 0; i < o.runs; ++i) {
            const auto start = Clock::now();
            const RunResult r = session.run(input, request);
            inProcess.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
            const WorkerOutcome out = runInWorker(job, workerOptions);
            if (!r.ok() || !out.result.ok())
                throw Error(size + ": " + (r.ok() ? out.result.error : r.error));
            helper.push_back(out.wallMs);
            sessionOpen.push_back(out.sessionMs);
            outsideMain.push_back(out.wallMs - out.workerMs);
            helperRun.push_back(out.launchMs);
        }
        const double in = median(inProcess), through = median(helper);
        rows.push_back(Json::object({{"size", size},
                                     {"runs", o.runs},
                                     {"in_process_ms", in},
                                     {"helper_ms", through},
                                     {"overhead_ms", through - in},
                                     {"helper_session_ms", median(sessionOpen)},
                                     {"helper_outside_main_ms", median(outsideMain)},
                                     {"helper_run_ms", median(helperRun)}}));
        if (!o.json)
            std::printf("  %-11s in-process %8.2f ms   helper %8.2f ms   overhead %7.2f ms  (of it: device + Session "
                        "%.2f ms, spawn/exec/exit %.2f ms; Session::run inside the helper %.2f ms)\n",
                        size.c_str(), in, through, through - in, median(sessionOpen), median(outsideMain),
                        median(helperRun));
    }
    if (o.json)
        std::printf("%s\n", dumpJson(Json::object({{"device", device.name},
                                                   {"filter", o.filter},
                                                   {"variant", o.variant},
                                                   {"overhead", rows}}))
                                .c_str());
    return 0;
}

int cmdUserVariants(const UserVariantsOptions &o)
{
    if (o.overhead)
        return cmdOverhead(o);
    const std::filesystem::path dir = userVariantDir();
    if (!o.remove.empty()) {
        if (!deleteUserVariant(o.remove, dir))
            throw Error("no user variant '" + o.remove + "' in " + dir.string());
        std::printf("deleted user variant %s\n", o.remove.c_str());
        return 0;
    }
    if (!o.show.empty()) {
        const UserVariant v = loadUserVariant(o.show, dir);
        std::printf("%s: %s\n  based on %s/%s, entry points:", v.name.c_str(), v.title.c_str(), v.baseFilter.c_str(),
                    v.baseVariant.c_str());
        for (const std::string &e : v.entryPoints)
            std::printf(" %s", e.c_str());
        std::printf("\n  %s\n  %s\n", v.description.c_str(), v.jsonPath.string().c_str());
        return 0;
    }
    std::vector<std::string> problems;
    const std::vector<UserVariant> all = listUserVariants(dir, &problems);
    if (o.json) {
        Json list = Json::array();
        for (const UserVariant &v : all)
            list.push_back(Json::object({{"name", v.name},
                                         {"title", v.title},
                                         {"base_filter", v.baseFilter},
                                         {"base_variant", v.baseVariant},
                                         {"path", v.jsonPath.string()}}));
        std::printf("%s\n", dumpJson(Json::object({{"dir", dir.string()}, {"user_variants", list}})).c_str());
        return 0;
    }
    std::printf("User variants in %s:\n", dir.string().c_str());
    if (all.empty())
        std::printf("  (none yet: save one from the window's Kernel source editor)\n");
    for (const UserVariant &v : all)
        std::printf("  %-24s %-16s based on %s/%s\n", v.name.c_str(), v.title.c_str(), v.baseFilter.c_str(),
                    v.baseVariant.c_str());
    for (const std::string &p : problems)
        std::fprintf(stderr, "filter-bench: skipped %s\n", p.c_str());
    return 0;
}

void addUserVariantsOptions(CLI::App &c, UserVariantsOptions &o)
{
    c.add_option("--delete", o.remove, "delete this user variant (its .cl and .json)")->type_name("NAME");
    c.add_option("--show", o.show, "show one user variant")->type_name("NAME|PATH");
    addJsonFlag(c, o.json, "the list (or the overhead figures) as one JSON object");
    c.add_flag("--overhead", o.overhead,
               "measure the helper process's cost per run: the same variant in this process and\n"
               "through filter-worker, alternately, median of --runs (scripts/helper-overhead.sh)");
    c.add_option("--sizes", o.sizes, "--overhead: image sizes (default 640x480,6720x4480)")->type_name("WxH,...");
    c.add_option("--runs", o.runs, "--overhead: runs of each kind per size (default 9)")->type_name("N");
    c.add_option("--filter", o.filter, "--overhead: filter (default " + o.filter + ")")->type_name("F");
    c.add_option("--variant", o.variant, "--overhead: variant (default " + o.variant + ")")->type_name("V");
    addDeviceOption(c, o.device);
    addCacheDirOption(c, o.cacheDir);
}

} // namespace

Verb userVariantsVerb(CLI::App &root)
{
    return optionsVerb(root, "user-variants",
                       "list, show or delete your saved kernels (run one with\n"
                       "run --user-variant NAME)",
                       addUserVariantsOptions, checkUserVariants, cmdUserVariants);
}

} // namespace fwb::cli
