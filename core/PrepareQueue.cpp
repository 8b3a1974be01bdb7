#include "PrepareQueue.h"

#include "JsonIo.h"
#include "KernelSources.h"
#include "OpenCvBaseline.h"
#include "ProcessPriority.h"
#include "ProgramCache.h"
#include "ResultJson.h"
#include "Session.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <tuple>

namespace fwb {

std::vector<PrepareJob> prepareJobs(const std::vector<const FilterSpec *> &filters,
                                    const std::vector<PixelFormat> &formats, const DeviceInfo &device,
                                    std::size_t *unavailable, bool withOpenCv)
{
    withOpenCv = withOpenCv && !openCvVersion().empty();
    std::vector<PrepareJob> jobs;
    std::size_t skipped = 0;
    for (PixelFormat format : formats)
        for (const FilterSpec *f : filters)
            for (const VariantSpec &v : f->variants) {
                if (!variantUnavailableReason(v, device, format).empty()) {
                    ++skipped;
                    continue;
                }
                PrepareJob job{f->name, v.name, formatName(format), {}};
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
                jobs.push_back(std::move(job));
            }
    // Before each filter's variants in each format: the window's builder takes it right after the selected
    // variant. A race meets OpenCV's row last, but compiles what no child has built itself where it can (or
    // runs it later: the versions built first), and OpenCV's row it cannot (PoCL, 2 cores, a race 10 s after
    // launch: with the job after the variants its bar waited 0.2-0.6 s for the child still on it).
    if (withOpenCv)
        for (std::size_t at = jobs.size(); at-- > 0;) {
            const bool firstOfFilter = at == 0 || jobs[at - 1].filter != jobs[at].filter || jobs[at - 1].format != jobs[at].format;
            const FilterSpec *filter = findFilter(jobs[at].filter);
            FilterParams params;
            params.format = *parsePixelFormat(jobs[at].format);
            if (firstOfFilter && filter && openCvUnsupportedReason(*filter, params).empty())
                jobs.insert(jobs.begin() + std::ptrdiff_t(at), PrepareJob{jobs[at].filter, "opencv_tapi", jobs[at].format, {}});
        }
    if (unavailable)
        *unavailable = skipped;
    return jobs;
}

const PreparedBuild *findBuild(const std::vector<PreparedBuild> &builds, const PrepareJob &job)
{
    const auto row = std::find_if(builds.begin(), builds.end(), [&](const PreparedBuild &b) {
        return b.filter == job.filter && b.variant == job.variant && b.format == job.format;
    });
    return row == builds.end() ? nullptr : &*row;
}

std::vector<PrepareJob> longestFirst(std::vector<PrepareJob> jobs, const std::vector<PreparedBuild> &known,
                                     const std::vector<PreparedBuild> &typical)
{
    double slowest = -1;
    for (const PreparedBuild &b : known)
        if (b.origin == "compiled")
            slowest = std::max(slowest, b.buildMs);
    auto cost = [&](const PrepareJob &job) {
        if (slowest < 0) { // never prepared here: as on a device of its kind, then the wider layouts first
            if (const PreparedBuild *t = findBuild(typical, job); t && t->origin == "compiled" && t->buildMs > 0)
                return 1e3 + t->buildMs; // past every layout's tie-break below
            const auto format = parsePixelFormat(job.format);
            return double(format ? channelCount(*format) : 1);
        }
        const PreparedBuild *b = findBuild(known, job);
        return b && b->origin == "compiled" ? b->buildMs : slowest;
    };
    std::vector<std::pair<double, std::size_t>> order;
    for (std::size_t i = 0; i < jobs.size(); ++i)
        order.emplace_back(cost(jobs[i]), i);
    std::stable_sort(order.begin(), order.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    std::vector<PrepareJob> sorted;
    for (const auto &each : order)
        sorted.push_back(std::move(jobs[each.second]));
    return sorted;
}

bool usesPreparedProgram(const FilterSpec &filter, const FilterParams &params)
{
    if (params.fastMath || params.border != FilterParams{}.border)
        return false;
    for (const auto &entry : params.values) { // not a structured binding: Clang 14 cannot capture one
        const auto spec = std::find_if(filter.params.begin(), filter.params.end(),
                                       [&](const ParamSpec &p) { return p.key == entry.first; });
        if (spec != filter.params.end() && spec->defaultValue != entry.second)
            return false;
    }
    return true;
}

std::vector<std::string> prepareRunArgs(const PrepareJob &job, const std::string &deviceSpec,
                                        const std::string &cacheDir)
{
    std::string variant = job.variant;
    if (job.isOpenCv()) // `run` runs a variant of ours first: the filter's first in this format
        if (const FilterSpec *filter = findFilter(job.filter)) {
            const auto format = parsePixelFormat(job.format);
            const auto first = std::find_if(filter->variants.begin(), filter->variants.end(), [&](const VariantSpec &v) {
                return !format || v.formats.empty() || std::find(v.formats.begin(), v.formats.end(), *format) != v.formats.end();
            });
            if (first != filter->variants.end())
                variant = first->name;
        }
    std::vector<std::string> args = {"filter-bench", "run", "--filter", job.filter, "--variant", variant,
                                     "--format", job.format, "--synthetic", job.isOpenCv() ? kOpenCvPrepareSize : "32x24",
                                     "--repeat", "1", "--warmup", "0", "--no-cpu-single",
                                     job.isOpenCv() ? "--baselines" : "--no-baselines", "--no-copy-probe",
                                     "--device", deviceSpec, "--json"};
    if (!cacheDir.empty())
        args.insert(args.end(), {"--cache-dir", cacheDir});
    if (!job.param.empty())
        args.insert(args.end(), {"--param", job.param});
    return args;
}

std::string prepareServeLine(const PrepareJob &job, const std::string &deviceSpec, const std::string &cacheDir)
{
    Json line = Json::array();
    for (const std::string &a : prepareRunArgs(job, deviceSpec, cacheDir))
        line.push_back(a);
    return dumpJson(line);
}

std::optional<PreparedBuild> preparedBuildFromAnswer(const PrepareJob &job, const std::string &answerLine,
                                                     const DeviceInfo &device)
{
    const std::optional<Json> a = parseJson(answerLine, "prepare child");
    if (!a || !a->is_object() || !a->contains("status") || !(*a)["status"].is_number_integer() || !a->contains("out")
        || !(*a)["out"].is_string())
        return std::nullopt;
    return preparedBuildFromRun(job, (*a)["out"].get<std::string>(), (*a)["status"].get<int>(), device);
}

std::string preparedProgramKey(const PrepareJob &job, const std::string &options, const DeviceInfo &device)
{
    if (job.isOpenCv()) // OpenCV's kernels: its version (a new one has new kernels) and the picture warmed on
        return ProgramCache::cacheKey(device, openCvVersion() + " T-API on " + kOpenCvPrepareSize, options);
    const FilterSpec *filter = findFilter(job.filter);
    const VariantSpec *variant = filter ? filter->variant(job.variant) : nullptr;
    if (!variant)
        return {};
    try {
        return ProgramCache::cacheKey(device, loadKernelSource(variant->kernelFile).text, options);
    } catch (const std::exception &) {
        return {}; // a kernel folder without the file: nothing to compare with
    }
}

PreparedBuild preparedBuildFromRun(const PrepareJob &job, const std::string &childStdout, int exitStatus,
                                   const DeviceInfo &device)
{
    PreparedBuild build;
    build.filter = job.filter;
    build.variant = job.variant;
    build.format = job.format;
    const std::optional<Json> j = parseJson(childStdout, "filter-bench run");
    if (!j || !j->is_object() || !j->contains("results") || !(*j)["results"].is_array() || (*j)["results"].empty()) {
        build.error = exitStatus < 0 ? "could not start filter-bench"
                                     : "filter-bench run exited with status " + std::to_string(exitStatus);
        return build;
    }
    try {
        const Json *row = &(*j)["results"][0];
        if (job.isOpenCv()) { // OpenCV's row: its one call's time, its kernels' compile included
            const auto tapi = std::find_if((*j)["results"].begin(), (*j)["results"].end(), [](const Json &each) {
                return each.is_object() && each.value("variant", "") == "opencv_tapi";
            });
            if (tapi == (*j)["results"].end()) {
                build.error = "filter-bench run gave no OpenCV row";
                return build;
            }
            row = &*tapi;
        }
        const RunResult r = row->get<RunResult>(); // the run schema (ResultJson.h)
        build.buildMs = job.isOpenCv() ? r.kernelMs.median : r.buildMs;
        build.error = r.error;
        build.origin = !r.error.empty() ? std::string() : job.isOpenCv() ? "compiled" : r.buildOrigin;
        build.options = r.buildOptions;
        if (!r.buildOptions.empty() || job.isOpenCv())
            build.key = preparedProgramKey(job, r.buildOptions, device);
    } catch (const std::exception &e) {
        build.error = std::string("filter-bench run answered in a form this build does not read: ") + e.what();
    }
    return build;
}

namespace {

// PoCL's kernel cache folder (its documented default: $POCL_CACHE_DIR, else $XDG_CACHE_HOME/pocl, else
// ~/.cache/pocl): gone means every program builds again, whatever the record says.
bool driverCacheFolderExists()
{
    std::filesystem::path dir;
    if (const char *env = std::getenv("POCL_CACHE_DIR"); env && *env)
        dir = env;
    else if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        dir = std::filesystem::path(xdg) / "pocl";
    else if (const char *home = std::getenv("HOME"); home && *home)
        dir = std::filesystem::path(home) / ".cache" / "pocl";
    std::error_code ec;
    return !dir.empty() && std::filesystem::is_directory(dir, ec);
}

// OpenCV's disk cache of its OpenCL programs (cv::utils::fs::getCacheDirectory, OpenCV 4.x):
// $OPENCV_OPENCL_CACHE_DIR, else opencv/ in the first of these roots that exists as a folder, else in
// /var/tmp: $XDG_CACHE_HOME, ~/.cache.
std::vector<std::filesystem::path> cacheRoots()
{
    std::vector<std::filesystem::path> roots;
    if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        roots.emplace_back(xdg);
    if (const char *home = std::getenv("HOME"); home && *home)
        roots.push_back(std::filesystem::path(home) / ".cache");
    return roots;
}

bool openCvCacheFolderExists()
{
    std::error_code ec;
    if (const char *env = std::getenv("OPENCV_OPENCL_CACHE_DIR"); env && *env)
        return std::filesystem::is_directory(env, ec);
    std::filesystem::path root = "/var/tmp";
    for (const std::filesystem::path &each : cacheRoots())
        if (std::filesystem::is_directory(each, ec)) {
            root = each;
            break;
        }
    return std::filesystem::is_directory(root / "opencv", ec);
}

} // namespace

void makeOpenCvCacheRoot()
{
    std::error_code ec;
    if (const std::vector<std::filesystem::path> roots = cacheRoots(); !roots.empty())
        std::filesystem::create_directories(roots.front(), ec);
}

bool alreadyPrepared(const PrepareJob &job, const PreparedDevice *record, const DeviceInfo &device,
                     const std::string &cacheDir)
{
    if (!record)
        return false;
    const PreparedBuild *row = findBuild(record->builds, job);
    if (!row || row->key.empty() || row->key != preparedProgramKey(job, row->options, device))
        return false;
    if (!row->error.empty())
        return true; // the same source failed on the same driver: it would again
    if (job.isOpenCv()) // OpenCV's binaries in its cache, and on PoCL its launches in PoCL's
        return openCvCacheFolderExists() && (ProgramCache::keepsBinaries(device) || driverCacheFolderExists());
    if (ProgramCache::keepsBinaries(device))
        return ProgramCache::hasValidEntry(cacheDir, row->key);
    return driverCacheFolderExists();
}

// ---- PrepareQueue ----------------------------------------------------------------------------

PrepareQueue::PrepareQueue(std::vector<PrepareJob> jobs)
{
    m_items.reserve(jobs.size());
    for (PrepareJob &job : jobs)
        m_items.push_back(Item{std::move(job), State::Pending, 0, -1, false});
}

namespace {

template <class Items>
auto *findItem(Items &items, const PrepareJob &job)
{
    const auto it = std::find_if(items.begin(), items.end(), [&](const auto &i) { return i.job.sameProgram(job); });
    return it == items.end() ? nullptr : &*it;
}

} // namespace

PrepareQueue::Item *PrepareQueue::find(const PrepareJob &job)
{
    return findItem(m_items, job);
}

const PrepareQueue::Item *PrepareQueue::find(const PrepareJob &job) const
{
    return findItem(m_items, job);
}

void PrepareQueue::setWantedBuilds(bool on)
{
    std::lock_guard lock(m_mutex);
    m_wantedBuilds = on;
}

void PrepareQueue::setFocus(const std::string &filter, const std::string &variant, const std::string &format)
{
    std::lock_guard lock(m_mutex);
    for (Item &i : m_items) {
        const bool sameFormat = i.job.format == format, sameFilter = i.job.filter == filter;
        i.rank = !sameFormat ? 3 : !sameFilter ? 2 : i.job.variant != variant ? 1 : 0;
    }
}

void PrepareQueue::jumpQueue(const std::vector<PrepareJob> &urgent)
{
    std::lock_guard lock(m_mutex);
    for (Item &i : m_items)
        i.urgent = -1;
    for (std::size_t n = 0; n < urgent.size(); ++n)
        if (Item *it = find(urgent[n]); it && it->urgent < 0)
            it->urgent = int(n);
}

std::vector<std::size_t> PrepareQueue::pendingOrder() const
{
    std::vector<std::size_t> order;
    for (std::size_t n = 0; n < m_items.size(); ++n)
        if (m_items[n].state == State::Pending)
            order.push_back(n);
    auto place = [this](std::size_t n) {
        const Item &i = m_items[n];
        return std::make_tuple(i.urgent < 0 ? 1 : 0, i.urgent, i.rank, n);
    };
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return place(a) < place(b); });
    return order;
}

std::optional<PrepareJob> PrepareQueue::take(bool *wanted, bool onlyWanted)
{
    std::lock_guard lock(m_mutex);
    if (m_stopped)
        return std::nullopt;
    const std::vector<std::size_t> order = pendingOrder();
    if (order.empty())
        return std::nullopt;
    Item &i = m_items[order.front()];
    const bool isWanted = m_wantedBuilds && (i.urgent >= 0 || i.rank == 0); // jumped, or the selected variant
    if (onlyWanted && !isWanted)
        return std::nullopt;
    i.state = State::Building;
    i.wanted = isWanted;
    i.builder = 0;
    i.raised = false;
    if (wanted)
        *wanted = i.wanted;
    return i.job;
}

void PrepareQueue::setBuilder(const PrepareJob &job, long pid)
{
    std::lock_guard lock(m_mutex);
    if (Item *it = find(job); it && it->state == State::Building)
        it->builder = pid;
}

void PrepareQueue::lowerBuilder(Item &item)
{
    if (item.raised)
        lowerToIdle(item.builder);
    item.raised = false;
}

void PrepareQueue::finish(const PrepareJob &job)
{
    {
        std::lock_guard lock(m_mutex);
        if (Item *it = find(job)) {
            lowerBuilder(*it); // before the builder hands its child the next job
            it->state = State::Done;
        }
    }
    m_changed.notify_all();
}

void PrepareQueue::putBack(const PrepareJob &job)
{
    {
        std::lock_guard lock(m_mutex);
        if (Item *it = find(job); it && it->state == State::Building) {
            lowerBuilder(*it);
            it->state = State::Pending;
            it->builder = 0;
        }
    }
    m_changed.notify_all();
}

PrepareQueue::Raise PrepareQueue::raise(const PrepareJob &job, int nice)
{
    std::lock_guard lock(m_mutex);
    Item *it = find(job);
    if (!it || it->state != State::Building || it->builder <= 0)
        return Raise::NoChild;
    if (it->wanted || it->raised)
        return it->wanted ? Raise::AlreadyWanted : Raise::Raised;
    it->raised = raiseTo(it->builder, nice);
    return it->raised ? Raise::Raised : Raise::Refused;
}

void PrepareQueue::lower(const PrepareJob &job)
{
    std::lock_guard lock(m_mutex);
    if (Item *it = find(job); it && it->state == State::Building)
        lowerBuilder(*it);
}

double PrepareQueue::builderCpuSeconds(const PrepareJob &job) const
{
    std::lock_guard lock(m_mutex);
    const Item *it = find(job);
    return it && it->state == State::Building && it->builder > 0 ? processCpuSeconds(it->builder) : -1;
}

PrepareQueue::State PrepareQueue::claim(const PrepareJob &job, bool *wantedBuild)
{
    std::lock_guard lock(m_mutex);
    Item *it = find(job);
    if (!it)
        return State::Unknown;
    const State before = it->state;
    if (wantedBuild)
        *wantedBuild = before == State::Building && it->wanted;
    if (before == State::Pending)
        it->state = State::Done;
    return before;
}

bool PrepareQueue::waitUntilBuilt(const PrepareJob &job, const std::atomic<bool> *cancel, double timeoutS)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutS);
    std::unique_lock lock(m_mutex);
    for (;;) {
        const Item *it = find(job);
        if (!it || it->state != State::Building)
            return it && it->state == State::Done;
        if (m_stopped || (cancel && cancel->load()) || std::chrono::steady_clock::now() >= until)
            return false;
        // Woken by finish/putBack/stop; the slice notices a cancel flag nobody signals.
        m_changed.wait_for(lock, std::chrono::milliseconds(100));
    }
}

void PrepareQueue::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopped = true;
    }
    m_changed.notify_all();
}

PrepareQueue::State PrepareQueue::state(const PrepareJob &job) const
{
    std::lock_guard lock(m_mutex);
    const Item *it = find(job);
    return it ? it->state : State::Unknown;
}

std::vector<PrepareJob> PrepareQueue::pendingInOrder() const
{
    std::lock_guard lock(m_mutex);
    std::vector<PrepareJob> jobs;
    for (std::size_t n : pendingOrder())
        jobs.push_back(m_items[n].job);
    return jobs;
}

std::size_t PrepareQueue::size() const
{
    std::lock_guard lock(m_mutex);
    return m_items.size();
}

std::size_t PrepareQueue::done() const
{
    std::lock_guard lock(m_mutex);
    return std::size_t(std::count_if(m_items.begin(), m_items.end(), [](const Item &i) { return i.state == State::Done; }));
}

std::size_t PrepareQueue::building() const
{
    std::lock_guard lock(m_mutex);
    return std::size_t(std::count_if(m_items.begin(), m_items.end(), [](const Item &i) { return i.state == State::Building; }));
}

} // namespace fwb
