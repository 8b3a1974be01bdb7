// The one list of programs to build ahead and its order (core/PrepareQueue.h), shared by filter-bench
// prepare and the window's background builder: the selected variant first, then the other variants of its
// filter in its format, then the other filters in that format, then the other formats, each in the
// catalogue's order; jumped jobs (a race's next entries) before all of them; claim and wait as a race
// uses them; a child's answer read into the record's row; what the record lets the builder skip; writers
// of the record at once (threads and processes: two windows, a window and prepare) losing no row; a child
// building at idle priority raised for a waiter, every thread of it, and lowered when its job ends or the
// waiter gives up, refused for a user without RLIMIT_NICE room (ProcessPriority.h).
#include "Catalogue.h"
#include "Check.h"
#include "OpenCvBaseline.h"
#include "PrepareQueue.h"
#include "ProcessPriority.h"
#include "ProgramCache.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <sched.h>
#include <signal.h>
#include <thread>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace fwb;

namespace {

DeviceInfo capableDevice()
{
    DeviceInfo d;
    d.platformIndex = d.deviceIndex = 0;
    d.platformName = "Example Platform";
    d.name = "Example Device";
    d.driverVersion = "1.0";
    d.openclVersion = "OpenCL 3.0";
    d.openclCVersion = "OpenCL C 3.0";
    d.openclCMajor = 3;
    d.kind = DeviceKind::Gpu;
    d.computeUnits = 8;
    d.maxWorkGroupSize = 1024;
    d.maxWorkItemSizes = {1024, 1024, 64};
    d.localMemSize = 64 << 10;
    d.localMemDedicated = true;
    d.globalMemSize = d.maxAllocSize = 1ull << 32;
    d.imageSupport = true;
    d.image2dMaxWidth = d.image2dMaxHeight = 16384;
    d.nonUniformWorkGroups = true;
    return d;
}

std::string name(const PrepareJob &j)
{
    return j.filter + "/" + j.variant + "/" + j.format;
}

void checkOrder()
{
    std::vector<const FilterSpec *> filters;
    for (const FilterSpec &f : catalogue())
        filters.push_back(&f);
    const DeviceInfo device = capableDevice();
    std::size_t unavailable = 0;
    const std::vector<PrepareJob> jobs = prepareJobs(filters, {PixelFormat::Gray8, PixelFormat::Rgba8888}, device, &unavailable);
    CHECK(jobs.size() > 20);
    // Formats outermost, then the catalogue's order.
    std::size_t firstRgba = 0;
    while (firstRgba < jobs.size() && jobs[firstRgba].format == "gray8")
        ++firstRgba;
    for (std::size_t n = firstRgba; n < jobs.size(); ++n)
        CHECK(jobs[n].format == "rgba8888");

    const FilterSpec *focus = findFilter("gaussian5x5");
    CHECK(focus && focus->variants.size() >= 3);
    const std::string selected = focus->variants[2].name;
    PrepareQueue queue(jobs);
    CHECK_EQ(queue.size(), jobs.size());
    // Without a focus: the list's own order (what prepare builds).
    const std::vector<PrepareJob> plainOrder = queue.pendingInOrder();
    for (std::size_t n = 0; n < jobs.size(); ++n)
        CHECK(plainOrder[n].sameProgram(jobs[n]));

    queue.setFocus("gaussian5x5", selected, "rgba8888");
    const std::vector<PrepareJob> order = queue.pendingInOrder();
    CHECK_EQ(order.size(), jobs.size());
    CHECK(name(order[0]) == "gaussian5x5/" + selected + "/rgba8888");
    // Then the filter's other variants in this format, in catalogue order.
    std::size_t at = 1;
    for (const VariantSpec &v : focus->variants)
        if (v.name != selected && variantUnavailableReason(v, device, PixelFormat::Rgba8888).empty()) {
            if (at < order.size())
                CHECK(name(order[at]) == "gaussian5x5/" + v.name + "/rgba8888");
            ++at;
        }
    // Then the other filters in rgba8888 (catalogue order), then gray8 (catalogue order).
    std::vector<PrepareJob> expected;
    for (const PrepareJob &j : jobs)
        if (j.format == "rgba8888" && j.filter != "gaussian5x5")
            expected.push_back(j);
    for (const PrepareJob &j : jobs)
        if (j.format == "gray8")
            expected.push_back(j);
    CHECK_EQ(at + expected.size(), order.size());
    for (std::size_t n = 0; n < expected.size() && at + n < order.size(); ++n)
        if (!order[at + n].sameProgram(expected[n]))
            plain::fail(__FILE__, __LINE__, "place " + std::to_string(at + n) + ": " + name(order[at + n]) + ", expected "
                                                + name(expected[n]));

    // A race's coming entries jump ahead of the focus, in the race's order; a later jump replaces it.
    const PrepareJob a{"median3x3", findFilter("median3x3")->variants.back().name, "rgba8888", {}};
    const PrepareJob b{"sobel", findFilter("sobel")->variants.front().name, "gray8", {}};
    queue.jumpQueue({b, a});
    std::vector<PrepareJob> jumped = queue.pendingInOrder();
    CHECK(jumped[0].sameProgram(b) && jumped[1].sameProgram(a));
    CHECK(name(jumped[2]) == "gaussian5x5/" + selected + "/rgba8888");
    queue.jumpQueue({a});
    jumped = queue.pendingInOrder();
    CHECK(jumped[0].sameProgram(a));
    CHECK(name(jumped[1]) == "gaussian5x5/" + selected + "/rgba8888");

    // take hands out that order; claim and wait as the window's race uses them.
    bool wanted = false;
    const std::optional<PrepareJob> first = queue.take(&wanted, true); // a wanted one is next
    CHECK(first && first->sameProgram(a));
    CHECK(wanted); // jumped: a race waits for it
    CHECK(queue.state(a) == PrepareQueue::State::Building);
    CHECK_EQ(queue.building(), std::size_t(1));
    bool wantedBuild = false;
    CHECK(queue.claim(a, &wantedBuild) == PrepareQueue::State::Building); // a child builds it: the race waits
    CHECK(wantedBuild);
    std::thread child([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        queue.finish(a);
    });
    CHECK(queue.waitUntilBuilt(a, nullptr, 30));
    child.join();
    CHECK(queue.state(a) == PrepareQueue::State::Done);
    const PrepareJob selectedJob{"gaussian5x5", selected, "rgba8888", {}};
    CHECK(queue.claim(selectedJob) == PrepareQueue::State::Pending); // the window builds it itself
    CHECK(queue.state(selectedJob) == PrepareQueue::State::Done);
    CHECK_EQ(queue.done(), std::size_t(2));
    const std::optional<PrepareJob> second = queue.take(&wanted); // the selected variant is done: its sibling next
    CHECK(second && second->filter == "gaussian5x5" && second->variant != selected);
    CHECK(!wanted); // only ahead of time
    queue.putBack(*second);
    CHECK(!queue.take(&wanted, true).has_value()); // no wanted job is next
    queue.putBack(*second); // its child was stopped: pending again, first in line again
    CHECK(queue.state(*second) == PrepareQueue::State::Pending);
    CHECK(queue.pendingInOrder().front().sameProgram(*second));
    CHECK(queue.claim(PrepareJob{"no_such_filter", "x", "gray8", {}}) == PrepareQueue::State::Unknown);

    // A cancelled wait and a stopped queue return at once.
    const std::optional<PrepareJob> third = queue.take();
    CHECK(third.has_value());
    CHECK(queue.claim(*third, &wantedBuild) == PrepareQueue::State::Building);
    CHECK(!wantedBuild); // an idle-priority child: the caller compiles it itself
    // The selected variant is wanted; with wanted builds off (a CPU device) nothing is.
    PrepareQueue later(jobs);
    later.setFocus("gaussian5x5", selected, "rgba8888");
    CHECK(later.take(&wanted)->variant == selected && wanted);
    later.setWantedBuilds(false);
    later.jumpQueue({b});
    CHECK(!later.take(&wanted, true).has_value());
    CHECK(later.take(&wanted)->sameProgram(b) && !wanted);
    CHECK(later.claim(b, &wantedBuild) == PrepareQueue::State::Building && !wantedBuild);
    std::atomic<bool> cancel{true};
    CHECK(!queue.waitUntilBuilt(*third, &cancel, 30));
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        queue.stop();
    });
    const auto before = std::chrono::steady_clock::now();
    CHECK(!queue.waitUntilBuilt(*third, nullptr, 30));
    stopper.join();
    CHECK(std::chrono::steady_clock::now() - before < std::chrono::seconds(10));
    CHECK(!queue.take().has_value());
}

void checkDefaultsAndArgs()
{
    const FilterSpec *gauss = findFilter("gaussian");
    CHECK(gauss != nullptr);
    FilterParams params;
    CHECK(usesPreparedProgram(*gauss, params));
    params.values["sigma"] = gauss->params.front().defaultValue;
    CHECK(usesPreparedProgram(*gauss, params));
    params.values["sigma"] = gauss->params.front().defaultValue + 1;
    CHECK(!usesPreparedProgram(*gauss, params));
    FilterParams other;
    other.border = BorderMode::Replicate;
    CHECK(!usesPreparedProgram(*gauss, other));
    FilterParams fast;
    fast.fastMath = true;
    CHECK(!usesPreparedProgram(*gauss, fast));

    const std::vector<std::string> args = prepareRunArgs({"box", "fused_local", "gray8", "radius=2"}, "0:1", "/tmp/c");
    CHECK(args.size() > 10 && args[0] == "filter-bench" && args[1] == "run");
    CHECK(args.back() == "radius=2" && args[args.size() - 2] == "--param");
    CHECK(std::find(args.begin(), args.end(), "--no-copy-probe") != args.end()); // a build needs no copy probe
}

void checkRunAnswerAndSkip()
{
    const DeviceInfo device = capableDevice();
    const PrepareJob job{"box3x3_interior", findFilter("box3x3_interior")->variants.front().name, "gray8", {}};
    const std::string answer = R"({"results":[{"filter":"box3x3_interior","build_ms":812.5,"build_origin":"compiled",)"
                               R"("build_options":"-DCHANNELS=1 -DBORDER=0"}]})";
    const PreparedBuild built = preparedBuildFromRun(job, answer, 0, device);
    CHECK(built.error.empty());
    CHECK(built.origin == "compiled");
    CHECK(built.buildMs == 812.5);
    CHECK(built.options == "-DCHANNELS=1 -DBORDER=0");
    CHECK(!built.key.empty() && built.key == preparedProgramKey(job, built.options, device));
    CHECK(built.key != preparedProgramKey(job, built.options + " -DX", device));
    const PreparedBuild died = preparedBuildFromRun(job, "", 137, device);
    CHECK(died.error.find("status 137") != std::string::npos && died.key.empty());
    CHECK(preparedBuildFromRun(job, "", -1, device).error == "could not start filter-bench");

    // What may be skipped without a child.
    setenv("FWB_CACHE_BINARIES", "always", 1);
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("fwb-plain-prepare-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    PreparedDevice record;
    record.builds.push_back(built);
    CHECK(!alreadyPrepared(job, nullptr, device, dir.string()));        // no record
    CHECK(!alreadyPrepared(job, &record, device, dir.string()));        // recorded, but no entry in the cache
    record.builds.back().error = "kernel build failed";
    record.builds.back().origin.clear();
    CHECK(alreadyPrepared(job, &record, device, dir.string()));         // the same source failed: it would again
    record.builds.back().key = "0123456789abcdef";                      // another source or driver
    CHECK(!alreadyPrepared(job, &record, device, dir.string()));
    record.builds.back() = built;
    record.builds.back().key.clear();                                    // a record of an older prepare
    CHECK(!alreadyPrepared(job, &record, device, dir.string()));

    // A driver with its own kernel cache (PoCL): the record and that cache's folder.
    unsetenv("FWB_CACHE_BINARIES");
    DeviceInfo pocl = device;
    pocl.platformName = "Portable Computing Language";
    PreparedDevice poclRecord;
    poclRecord.builds.push_back(preparedBuildFromRun(job, answer, 0, pocl));
    setenv("POCL_CACHE_DIR", dir.string().c_str(), 1);
    const char *kernelCache = std::getenv("POCL_KERNEL_CACHE");
    if (!kernelCache || std::string(kernelCache) != "0") {
        CHECK(alreadyPrepared(job, &poclRecord, pocl, dir.string()));
        setenv("POCL_CACHE_DIR", (dir / "gone").string().c_str(), 1);
        CHECK(!alreadyPrepared(job, &poclRecord, pocl, dir.string()));
    }
    std::filesystem::remove_all(dir);
}

// OpenCV's row as a job of the window's builder (PrepareJob::isOpenCv): only when asked and built with
// OpenCV, right before each filter's variants in each format where OpenCV has the filter (so right after the
// selected variant in the window's order); run on a picture
// of ordinary size with OpenCV's rows; the answer's OpenCV row read into the record's; skipped only where
// OpenCV's cache folder is.
void checkOpenCvJobs()
{
    std::vector<const FilterSpec *> filters;
    for (const FilterSpec &f : catalogue())
        filters.push_back(&f);
    const DeviceInfo device = capableDevice();
    const std::vector<PixelFormat> formats = {PixelFormat::Gray8, PixelFormat::Rgba8888};
    const std::vector<PrepareJob> plainJobs = prepareJobs(filters, formats, device);
    const std::vector<PrepareJob> jobs = prepareJobs(filters, formats, device, nullptr, true);
    auto isOpenCv = [](const PrepareJob &j) { return j.isOpenCv(); };
    CHECK(std::none_of(plainJobs.begin(), plainJobs.end(), isOpenCv));
    std::vector<PrepareJob> ours;
    std::copy_if(jobs.begin(), jobs.end(), std::back_inserter(ours), [](const PrepareJob &j) { return !j.isOpenCv(); });
    CHECK_EQ(ours.size(), plainJobs.size()); // our programs as without OpenCV, in the same order
    for (std::size_t n = 0; n < ours.size() && n < plainJobs.size(); ++n)
        CHECK(ours[n].sameProgram(plainJobs[n]));
    if (openCvVersion().empty()) {
        CHECK_EQ(jobs.size(), plainJobs.size());
        return;
    }
    const auto at = std::find_if(jobs.begin(), jobs.end(), [](const PrepareJob &j) {
        return j.isOpenCv() && j.filter == "gaussian5x5" && j.format == "rgba8888";
    });
    CHECK(at != jobs.end() && at != jobs.begin());
    if (at == jobs.end() || at == jobs.begin())
        return;
    // Before the filter's variants in that format (after the selected one in the window's order).
    CHECK(std::prev(at)->filter != "gaussian5x5" || std::prev(at)->format != "rgba8888");
    CHECK(std::next(at) != jobs.end() && std::next(at)->filter == "gaussian5x5" && std::next(at)->format == "rgba8888");
    PrepareQueue queue(jobs);
    queue.setFocus("gaussian5x5", std::next(at)->variant == "unrolled_constant" ? "private_array" : "unrolled_constant", "rgba8888");
    const std::vector<PrepareJob> order = queue.pendingInOrder();
    CHECK(order.size() > 2 && order[1].isOpenCv() && order[1].filter == "gaussian5x5" && order[1].format == "rgba8888");
    CHECK(std::none_of(jobs.begin(), jobs.end(), [](const PrepareJob &j) { // OpenCV has no interior-only box
        return j.isOpenCv() && j.filter == "box3x3_interior";
    }));

    const std::vector<std::string> args = prepareRunArgs(*at, "0:0", "");
    auto after = [&](const std::string &option) {
        const auto it = std::find(args.begin(), args.end(), option);
        return it == args.end() || std::next(it) == args.end() ? std::string() : *std::next(it);
    };
    CHECK(std::find(args.begin(), args.end(), "--baselines") != args.end());
    CHECK(std::find(args.begin(), args.end(), "--no-baselines") == args.end());
    CHECK(after("--synthetic") == kOpenCvPrepareSize);
    CHECK(findFilter("gaussian5x5")->variant(after("--variant")) != nullptr); // a variant of ours runs first

    const std::string answer = R"({"results":[{"variant":"unrolled_constant","build_ms":50,"build_origin":"compiled",)"
                               R"("build_options":"-DCHANNELS=4"},{"variant":"opencv_cpu","kernel_ms":{"min":2,"median":2,"max":2}},)"
                               R"({"variant":"opencv_tapi","kernel_ms":{"min":1234,"median":1234,"max":1234}}]})";
    const PreparedBuild built = preparedBuildFromRun(*at, answer, 0, device);
    CHECK(built.error.empty());
    CHECK(built.buildMs == 1234); // OpenCV's one call, its compile included
    CHECK(built.origin == "compiled");
    CHECK(!built.key.empty() && built.key == preparedProgramKey(*at, built.options, device));
    CHECK(!preparedBuildFromRun(*at, R"({"results":[{"variant":"unrolled_constant"}]})", 0, device).error.empty());

    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("fwb-plain-opencv-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    setenv("XDG_CACHE_HOME", dir.string().c_str(), 1);
    unsetenv("OPENCV_OPENCL_CACHE_DIR");
    setenv("FWB_CACHE_BINARIES", "always", 1);
    PreparedDevice record;
    record.builds.push_back(built);
    CHECK(!alreadyPrepared(*at, &record, device, dir.string())); // OpenCV's cache folder is not there
    std::filesystem::create_directories(dir / "opencv");
    CHECK(alreadyPrepared(*at, &record, device, dir.string()));
    std::filesystem::remove_all(dir);
}

// Each writer adds its own rows one call at a time, all writers at once: every row must be in the file at
// the end. Without the lock each read-merge-write replaces the file with what its writer read, so rows
// written in between are lost.
void checkConcurrentRecords()
{
    const DeviceInfo device = capableDevice();
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("fwb-plain-prepared-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir);
    constexpr int kWriters = 6, kRows = 15;
    auto addRows = [&](const std::string &writer) {
        bool ok = true;
        for (int r = 0; r < kRows; ++r) {
            PreparedBuild b;
            b.filter = writer;
            b.variant = "row" + std::to_string(r);
            b.format = "gray8";
            b.origin = "compiled";
            b.buildMs = 10 + r;
            std::string error;
            ok = recordPrepared(dir.string(), device, false, {b}, 1.0, 1, &error) && ok;
            if (!error.empty())
                std::fprintf(stderr, "%s: %s\n", writer.c_str(), error.c_str());
        }
        return ok;
    };
    std::atomic<bool> go{false};
    std::atomic<int> failedWriters{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kWriters; ++t)
        threads.emplace_back([&, t] {
            while (!go)
                std::this_thread::yield();
            if (!addRows("thread" + std::to_string(t)))
                ++failedWriters;
        });
    go = true;
    for (std::thread &t : threads)
        t.join();
    CHECK_EQ(failedWriters.load(), 0);

    // Processes, as two windows or a window and `filter-bench prepare` are.
    std::vector<pid_t> children;
    for (int p = 0; p < kWriters; ++p) {
        const pid_t pid = fork();
        if (pid == 0)
            _exit(addRows("process" + std::to_string(p)) ? 0 : 1);
        CHECK(pid > 0);
        if (pid > 0)
            children.push_back(pid);
    }
    for (const pid_t pid : children) {
        int status = 0;
        CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }

    const std::vector<PreparedDevice> devices = readPreparedDevices(dir.string());
    const PreparedDevice *record = findPrepared(devices, device);
    CHECK(record != nullptr);
    if (record) {
        CHECK_EQ(record->builds.size(), std::size_t(2 * kWriters * kRows));
        for (const char *kind : {"thread", "process"})
            for (int w = 0; w < kWriters; ++w)
                for (int r = 0; r < kRows; ++r) {
                    const std::string filter = kind + std::to_string(w), variant = "row" + std::to_string(r);
                    CHECK(std::any_of(record->builds.begin(), record->builds.end(), [&](const PreparedBuild &b) {
                        return b.filter == filter && b.variant == variant && b.buildMs == 10 + r;
                    }));
                }
    }
    // The lock file is the cache's own: the folder is still a program cache afterwards.
    CHECK(ProgramCache::markCacheDir(dir.string()));
    std::filesystem::remove_all(dir);
}

// A child at idle priority with a second thread, as a build child has its driver's threads: it waits to
// be killed.
pid_t idleChild()
{
    const pid_t pid = fork();
    if (pid == 0) {
        becomeIdle();
        std::thread other([] { pause(); });
        pause();
        _exit(0);
    }
    for (int n = 0; n < 200 && threadPriorities(pid).size() < 2; ++n)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return pid;
}

void endChild(pid_t pid)
{
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
}

// Both threads at this policy and nice value.
bool allAt(pid_t pid, int policy, int nice)
{
    const std::vector<ThreadPriority> threads = threadPriorities(pid);
    return threads.size() == 2 && std::all_of(threads.begin(), threads.end(), [&](const ThreadPriority &t) {
               return t.policy == policy && t.nice == nice;
           });
}

} // namespace

// A race waits for a job an idle child builds: the child is raised to the race's own priority (SCHED_OTHER
// at its nice value) for it where this user may, every thread of it, and lowered again when the job ends
// or the waiter gives up. Where the user may not (RLIMIT_NICE 0, no CAP_SYS_NICE: an ordinary user), the
// raise is refused and the child stays idle; as root that is checked too, in a process that gave up root.
void checkRaiseForWaiter()
{
    PrepareQueue queue({{"box3x3", "a", "gray8", {}}, {"box3x3", "b", "gray8", {}}});
    queue.setWantedBuilds(false); // a CPU device: every child idle
    const std::optional<PrepareJob> a = queue.take(), b = queue.take();
    CHECK(a && b);
    if (!a || !b)
        return;
    const pid_t child = idleChild();
    CHECK(allAt(child, SCHED_IDLE, kIdleNice));
    CHECK(queue.raise(*a, currentNice()) == PrepareQueue::Raise::NoChild); // its child not named yet
    queue.setBuilder(*a, child);
    CHECK(queue.builderCpuSeconds(*a) >= 0);
    const int nice = currentNice(); // the waiter's own
    const bool may = mayRaiseTo(nice);
    CHECK(queue.raise(*a, nice) == (may ? PrepareQueue::Raise::Raised : PrepareQueue::Raise::Refused));
    CHECK(allAt(child, may ? SCHED_OTHER : SCHED_IDLE, may ? nice : kIdleNice));
    queue.finish(*a); // its answer: back to idle before its next job
    CHECK(allAt(child, SCHED_IDLE, kIdleNice));
    CHECK(queue.raise(*a, nice) == PrepareQueue::Raise::NoChild);
    queue.setBuilder(*b, child); // its next job; the waiter gives up on it (it compiles the program itself)
    CHECK(queue.raise(*b, nice) == (may ? PrepareQueue::Raise::Raised : PrepareQueue::Raise::Refused));
    queue.lower(*b);
    CHECK(allAt(child, SCHED_IDLE, kIdleNice));
    CHECK(queue.state(*b) == PrepareQueue::State::Building);
    endChild(child);
    CHECK(queue.builderCpuSeconds(*b) < 0); // gone
    if (geteuid() != 0)
        return;
    // An ordinary user (nobody, RLIMIT_NICE 0): refused, and the child is left at idle priority.
    const pid_t user = fork();
    if (user == 0) {
        if (setgid(65534) != 0 || setuid(65534) != 0)
            _exit(2);
        if (mayRaiseTo(currentNice()))
            _exit(3); // a system that gives every user RLIMIT_NICE room: nothing to check
        const pid_t idle = idleChild();
        const bool refused = !raiseTo(idle, currentNice()) && allAt(idle, SCHED_IDLE, kIdleNice);
        endChild(idle);
        _exit(refused ? 0 : 1);
    }
    int status = -1;
    CHECK(waitpid(user, &status, 0) == user && WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 3);
}

void expectOrder(const std::string &got, const std::string &want, int line)
{
    if (got != want)
        plain::fail(__FILE__, line, "order '" + got + "', expected '" + want + "'");
}

// prepare's order: longest build first, by this device's record, else the wider layouts first.
void checkLongestFirst()
{
    const std::vector<PrepareJob> jobs = {{"box", "a", "gray8", {}}, {"box", "b", "gray8", {}},
                                          {"box", "a", "rgba8888", {}}, {"box", "b", "rgba8888", {}},
                                          {"median3x3", "c", "gray8", {}}};
    auto names = [](const std::vector<PrepareJob> &order) {
        std::string out;
        for (const PrepareJob &j : order)
            out += j.filter + "/" + j.variant + "/" + j.format + " ";
        return out;
    };
    // Never prepared here: rgba8888 before gray8, the catalogue's order kept within each.
    expectOrder(names(longestFirst(jobs, {})), "box/a/rgba8888 box/b/rgba8888 box/a/gray8 box/b/gray8 median3x3/c/gray8 ",
                __LINE__);
    // Recorded: by the recorded cold build; a job without a row counts as the slowest known (new or
    // changed); a failed build's row (origin "") says nothing of its time.
    auto row = [](const char *variant, const char *format, double ms, const char *origin = "compiled") {
        PreparedBuild b;
        b.filter = "box";
        b.variant = variant;
        b.format = format;
        b.buildMs = ms;
        b.origin = origin;
        return b;
    };
    const std::vector<PreparedBuild> known = {row("a", "gray8", 900), row("b", "gray8", 100), row("a", "rgba8888", 300),
                                              row("b", "rgba8888", 50000, "")};
    expectOrder(names(longestFirst(jobs, known)), "box/a/gray8 box/b/rgba8888 median3x3/c/gray8 box/a/rgba8888 box/b/gray8 ",
                __LINE__);
    // Never prepared, with a device of its kind's builds: those first, slowest first (a failed one's row
    // counts like none), then the others as above; this device's own record, where there is one, wins.
    const std::vector<PreparedBuild> typical = {row("b", "gray8", 2000), row("a", "gray8", 7000),
                                                row("b", "rgba8888", 9000, "")};
    expectOrder(names(longestFirst(jobs, {}, typical)),
                "box/a/gray8 box/b/gray8 box/a/rgba8888 box/b/rgba8888 median3x3/c/gray8 ", __LINE__);
    expectOrder(names(longestFirst(jobs, known, typical)),
                "box/a/gray8 box/b/rgba8888 median3x3/c/gray8 box/a/rgba8888 box/b/gray8 ", __LINE__);
    // The measured tables: slowest first, every row a program of today's catalogue.
    for (bool cpu : {false, true}) {
        const std::vector<PreparedBuild> builds = typicalColdBuilds(cpu);
        CHECK(!builds.empty());
        for (std::size_t i = 0; i < builds.size(); ++i) {
            CHECK(i == 0 || builds[i].buildMs <= builds[i - 1].buildMs);
            const FilterSpec *f = findFilter(builds[i].filter);
            CHECK(f && f->variant(builds[i].variant) && parsePixelFormat(builds[i].format));
        }
    }
}

int main()
{
    checkRaiseForWaiter(); // first: it forks, before any other check starts threads
    checkOrder();
    checkLongestFirst();
    checkDefaultsAndArgs();
    checkRunAnswerAndSkip();
    checkOpenCvJobs();
    checkConcurrentRecords();
    return plain::finish("plain_prepare_queue");
}
