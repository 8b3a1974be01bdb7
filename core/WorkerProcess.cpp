// runInWorker (the caller: temp folder, posix_spawn, time limit, kill) and serveWorkerJob (the
// helper's side); the request and the result travel in the run schema (ResultJson.h).
#include "WorkerProcess.h"

#include "AtomicFile.h"
#include "Devices.h"
#include "Error.h"
#include "JsonIo.h"
#include "ResultJson.h"
#include "TuningDb.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

extern char **environ;

namespace fwb {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string readFile(const fs::path &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

void writeFile(const fs::path &path, const void *data, std::size_t size)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(static_cast<const char *>(data), std::streamsize(size));
    if (!out)
        throw Error("cannot write " + path.string());
}

Json kernelJson(const UserVariant &v)
{
    return Json::object({{"name", v.name},
                         {"title", v.title},
                         {"description", v.description},
                         {"base_filter", v.baseFilter},
                         {"base_variant", v.baseVariant},
                         {"kernel_file", v.kernelFileName()},
                         {"entry_points", v.entryPoints},
                         {"defines", v.defines}});
}

UserVariant kernelFromJson(const Json &j, const std::string &source)
{
    UserVariant v;
    v.name = j.at("name").get<std::string>();
    v.title = j.value("title", v.name);
    v.description = j.value("description", std::string());
    v.baseFilter = j.at("base_filter").get<std::string>();
    v.baseVariant = j.at("base_variant").get<std::string>();
    v.kernelFile = j.value("kernel_file", std::string());
    v.entryPoints = j.value("entry_points", std::vector<std::string>{});
    v.defines = j.value("defines", std::vector<std::string>{});
    v.source = source;
    return v;
}

std::string exeDir()
{
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : self.parent_path().string();
}

std::string tail(const std::string &text, std::size_t n)
{
    return text.size() <= n ? text : "..." + text.substr(text.size() - n);
}

} // namespace

std::string workerTimeoutMessage(double timeoutS)
{
    char text[96];
    std::snprintf(text, sizeof text, "the kernel did not finish within %g s and was stopped", timeoutS);
    return text;
}

std::string defaultWorkerPath()
{
    if (const char *env = std::getenv("FWB_WORKER"); env && *env)
        return env;
    const std::string dir = exeDir();
    return (dir.empty() ? fs::path("filter-worker") : fs::path(dir) / "filter-worker").string();
}

void removeOrphanedJobFolders()
{
    std::error_code ec;
    const fs::path tmp = fs::temp_directory_path(ec);
    if (ec)
        return;
    for (fs::directory_iterator it(tmp, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        struct stat st{};
        if (name.rfind("fwb-worker-", 0) != 0 || ::lstat(it->path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode)
            || st.st_uid != ::getuid())
            continue;
        std::string text;
        if (!readRegularFile(it->path() / "owner", 32, text))
            continue; // not ours, or being created: left alone
        char *digitsEnd = nullptr;
        const long pid = std::strtol(text.c_str(), &digitsEnd, 10);
        if (pid <= 0 || digitsEnd == text.c_str() || ::kill(pid_t(pid), 0) == 0 || errno != ESRCH)
            continue; // its caller still runs (or the pid was reused: left, harmless)
        std::error_code removeError;
        fs::remove_all(it->path(), removeError);
    }
}

void adoptHelperCpuFigures(RunResult &r, const RunRequest &request, int width, int height)
{
    const FilterSpec *filter = findFilter(r.filter);
    if (!filter || r.cpuThreads <= 0 || width <= 0 || height <= 0)
        return;
    r.cpuWork = cpuWorkKey(*filter, request.params, width, height);
    CpuTimings &store = cpuTimings();
    if (r.cpuMultiMs > 0)
        store.add(r.cpuWork, r.cpuThreads, r.cpuThreads > 1 ? CpuCode::Ours : CpuCode::Reference, {r.cpuMultiMs});
    if (r.openCvCpuMs > 0)
        store.add(r.cpuWork, r.cpuThreads, CpuCode::OpenCv, {r.openCvCpuMs});
    if (r.cpuSingleMs > 0)
        store.add(r.cpuWork, 1, CpuCode::Reference, {r.cpuSingleMs});
    refreshCpuFigures(r);
}

WorkerOutcome runInWorker(const WorkerJob &job, const WorkerOptions &options)
{
    WorkerOutcome out;
    RunResult &r = out.result;
    r.filter = job.request.filter;
    r.variant = job.request.variant;
    const auto start = Clock::now();

    // Folders of callers that were killed (SIGKILL, a crash: no destructor ran) go first.
    removeOrphanedJobFolders();
    // A private folder for the job's files, removed on every way out.
    std::string pattern = (fs::temp_directory_path() / "fwb-worker-XXXXXX").string();
    if (!mkdtemp(pattern.data())) {
        r.error = std::string("cannot create a folder for the helper process: ") + std::strerror(errno);
        return out;
    }
    const fs::path dir = pattern;
    {
        const std::string owner = std::to_string(long(getpid())) + "\n";
        std::ofstream(dir / "owner", std::ios::binary) << owner;
    }
    struct Cleanup
    {
        fs::path dir;
        ~Cleanup()
        {
            std::error_code ec;
            fs::remove_all(dir, ec);
        }
    } cleanup{dir};

    try {
        Json j = Json::object();
        j["protocol"] = kWorkerProtocol;
        j["op"] = job.op == WorkerJob::Op::Build ? "build" : "run";
        j["device"] = job.deviceSpec;
        j["cache_dir"] = job.cacheDir;
        j["kernel_dir"] = job.kernelDir;
        j["tuning_db"] = job.tuningDb;
        j["request"] = job.request; // the run schema (ResultJson.h)
        if (job.kernel) {
            j["kernel"] = kernelJson(*job.kernel);
            writeFile(dir / "kernel.cl", job.kernel->source.data(), job.kernel->source.size());
        }
        j["input"] = Json::object({{"width", job.input.width()},
                                   {"height", job.input.height()},
                                   {"format", formatName(job.input.format())}});
        if (job.op == WorkerJob::Op::Run)
            writeFile(dir / "input.raw", job.input.data(), job.input.sizeBytes());
        const std::string text = j.dump();
        writeFile(dir / "request.json", text.data(), text.size());
    } catch (const std::exception &e) {
        r.error = std::string("cannot hand the job to the helper process: ") + e.what();
        return out;
    }

    const std::string worker = options.workerPath.empty() ? defaultWorkerPath() : options.workerPath;
    const std::string dirText = dir.string(), stdoutPath = (dir / "stdout.txt").string(),
                      stderrPath = (dir / "stderr.txt").string();
    const std::string parentPid = std::to_string(long(getpid()));
    std::vector<char *> argv{const_cast<char *>(worker.c_str()), const_cast<char *>("--job"),
                             const_cast<char *>(dirText.c_str()), const_cast<char *>("--parent"),
                             const_cast<char *>(parentPid.c_str()), nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, stdoutPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, stderrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    // Its own process group: a timeout kills the worker and anything it started (a linker, say).
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    pid_t pid = 0;
    const int spawnError = posix_spawn(&pid, worker.c_str(), &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (spawnError != 0) {
        r.error = "cannot start the helper process " + worker + ": " + std::strerror(spawnError);
        return out;
    }

    int status = 0;
    bool reaped = false;
    const fs::path launchingPath = dir / "launching";
    std::optional<Clock::time_point> launchedAt;
    for (;;) {
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) {
            reaped = true;
            break;
        }
        if (done < 0 && errno != EINTR)
            break;
        if (!launchedAt) {
            std::error_code ec;
            if (fs::exists(launchingPath, ec))
                launchedAt = Clock::now();
        }
        const bool overBuildTime = !launchedAt && options.buildTimeoutS > 0 && msSince(start) > options.buildTimeoutS * 1000.0;
        const bool overTime = overBuildTime || (launchedAt && options.timeoutS > 0 && msSince(*launchedAt) > options.timeoutS * 1000.0);
        const bool cancelled = options.cancel && options.cancel->load(std::memory_order_relaxed);
        if (overTime || cancelled) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            out.wallMs = msSince(start);
            if (launchedAt)
                out.launchedMs = msSince(*launchedAt);
            out.stderrText = readFile(stderrPath);
            if (overTime) {
                out.timedOut = true;
                char text[96];
                std::snprintf(text, sizeof text, "the kernel did not build within %g s and was stopped", options.buildTimeoutS);
                r.error = overBuildTime ? std::string(text) : workerTimeoutMessage(options.timeoutS);
            } else {
                out.cancelled = r.cancelled = true;
                r.error = "cancelled";
            }
            return out;
        }
        // Short naps at first (a cached run answers in tens of ms), longer ones later.
        std::this_thread::sleep_for(std::chrono::milliseconds(msSince(start) < 200 ? 2 : 10));
    }
    out.wallMs = msSince(start);
    if (launchedAt)
        out.launchedMs = msSince(*launchedAt);
    out.stderrText = readFile(stderrPath);
    const fs::path response = dir / "response.json";
    std::error_code responseError;
    if (!reaped || !WIFEXITED(status) || !fs::exists(response, responseError)) {
        out.crashed = true;
        std::string how;
        if (reaped && WIFSIGNALED(status))
            how = std::string("signal ") + std::to_string(WTERMSIG(status)) + ": " + strsignal(WTERMSIG(status));
        else if (reaped && WIFEXITED(status))
            how = "exit status " + std::to_string(WEXITSTATUS(status)) + " without an answer";
        else
            how = "lost";
        r.error = "the helper process running the kernel crashed (" + how + "); the window and the other runs are unaffected";
        if (!out.stderrText.empty())
            r.error += ": " + tail(out.stderrText, 400);
        return out;
    }
    std::string error;
    const std::optional<Json> answer = parseJson(readFile(response), response.string(), &error);
    if (!answer || answer->value("protocol", 0) != kWorkerProtocol || !answer->contains("result")) {
        r.error = "the helper process answered in a form this build does not read" + (error.empty() ? "" : ": " + error);
        return out;
    }
    try {
        r = (*answer)["result"].get<RunResult>();
        out.workerMs = answer->value("worker_ms", 0.0);
        out.sessionMs = answer->value("session_ms", 0.0);
        out.runMs = answer->value("run_ms", 0.0);
        out.launchMs = answer->value("launch_ms", 0.0);
        if (answer->contains("output")) {
            const Json &o = (*answer)["output"];
            const auto format = parsePixelFormat(o.at("format").get<std::string>());
            Image image(o.at("width").get<int>(), o.at("height").get<int>(), format.value_or(PixelFormat::Gray8));
            const std::string pixels = readFile(dir / "output.raw");
            if (pixels.size() != image.sizeBytes())
                throw Error("output.raw holds " + std::to_string(pixels.size()) + " bytes, expected "
                            + std::to_string(image.sizeBytes()));
            std::memcpy(image.data(), pixels.data(), pixels.size());
            r.output = std::move(image);
        }
    } catch (const std::exception &e) {
        r.error = std::string("the helper process's answer is damaged: ") + e.what();
    }
    return out;
}

int serveWorkerJob(const fs::path &dir, long parentPid)
{
#ifdef __linux__
    // Die with the caller: a filter-bench stopped by SIGTERM or Ctrl-C must not leave this process
    // spinning in a runaway kernel under init. The parent may already be gone before the call.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (parentPid > 0 && long(getppid()) != parentPid)
        return 1;
#endif
    const auto start = Clock::now();
    Json answer = Json::object();
    answer["protocol"] = kWorkerProtocol;
    RunResult r;
    try {
        std::string error;
        const std::optional<Json> parsed = parseJsonFile(dir / "request.json", &error);
        if (!parsed)
            throw Error(error);
        const Json &j = *parsed;
        if (j.value("protocol", 0) != kWorkerProtocol)
            throw Error("protocol version " + std::to_string(j.value("protocol", 0)) + " is not "
                        + std::to_string(kWorkerProtocol) + " (caller and helper come from different builds)");
        RunRequest request = j.at("request").get<RunRequest>();
        r.filter = request.filter;
        r.variant = request.variant;
        std::string baseVariant = request.variant; // the name a tuned shape is stored under
        if (j.contains("kernel")) {
            const UserVariant kernel = kernelFromJson(j["kernel"], readFile(dir / "kernel.cl"));
            request.variantOverride = userVariantSpec(kernel);
            request.sourceOverride = kernel.source;
            baseVariant = kernel.baseVariant;
        }
        const Json &in = j.at("input");
        const auto format = parsePixelFormat(in.at("format").get<std::string>()).value_or(PixelFormat::Gray8);
        Image input(in.at("width").get<int>(), in.at("height").get<int>(), format);
        const bool build = j.value("op", std::string("run")) == "build";
        if (!build) {
            const std::string pixels = readFile(dir / "input.raw");
            if (pixels.size() != input.sizeBytes())
                throw Error("input.raw holds " + std::to_string(pixels.size()) + " bytes, expected "
                            + std::to_string(input.sizeBytes()));
            std::memcpy(input.data(), pixels.data(), pixels.size());
        }
        const auto sessionStart = Clock::now();
        SessionOptions options;
        options.cacheDir = j.value("cache_dir", std::string());
        options.kernelDir = j.value("kernel_dir", std::string());
        if (const std::string tuningPath = j.value("tuning_db", std::string()); !tuningPath.empty()) {
            // The caller's tuning database, read here: an auto launch of a user kernel takes the shape
            // tuned for its base variant, as the base variant's own launch would.
            auto db = std::make_shared<TuningDb>(tuningPath);
            db->load();
            options.tunedLocal = [lookup = TuningDb::lookup(db), baseVariant](const DeviceInfo &device,
                                                                              const RunRequest &req, int w, int h) {
                RunRequest asBase = req;
                asBase.variant = baseVariant;
                asBase.variantOverride.reset();
                return lookup(device, asBase, w, h);
            };
        }
        Session session(selectDevice(listDevices(), j.value("device", std::string())), options);
        answer["session_ms"] = msSince(sessionStart);
        const auto runStart = Clock::now();
        if (build) {
            r.device = session.device().name;
            r.error = session.checkLaunch(request, input.width(), input.height(), &r.buildLog);
        } else {
            // Build first (the program stays in the session's memory cache for run()), then tell the
            // caller the kernel's time limit starts now.
            session.checkLaunch(request, input.width(), input.height());
            answer["build_ms"] = msSince(runStart);
            writeFile(dir / "launching", "", 0);
            const auto launchStart = Clock::now();
            r = session.run(input, request);
            answer["launch_ms"] = msSince(launchStart);
        }
        answer["run_ms"] = msSince(runStart);
    } catch (const std::exception &e) {
        r.error = e.what();
    }
    if (!r.output.isNull()) {
        try {
            writeFile(dir / "output.raw", r.output.data(), r.output.sizeBytes());
            answer["output"] = Json::object({{"width", r.output.width()},
                                             {"height", r.output.height()},
                                             {"format", formatName(r.output.format())}});
        } catch (const std::exception &e) {
            r.error = e.what();
        }
    }
    answer["result"] = r; // every field but the output (output.raw), full precision
    answer["worker_ms"] = msSince(start);
    // Written last and renamed into place: the caller sees a whole answer or none.
    try {
        const std::string text = answer.dump(-1, ' ', false, Json::error_handler_t::replace);
        writeFile(dir / "response.json.part", text.data(), text.size());
        fs::rename(dir / "response.json.part", dir / "response.json");
    } catch (const std::exception &e) {
        std::fprintf(stderr, "filter-worker: %s\n", e.what());
        return 2;
    }
    return 0;
}

} // namespace fwb
