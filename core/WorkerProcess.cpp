// runInWorker (the caller: temp folder, posix_spawn, time limit, kill) and serveWorkerJob (the
// helper's side), with the protocol's JSON both ways.
#include "WorkerProcess.h"

#include "AtomicFile.h"
#include "Devices.h"
#include "Error.h"
#include "JsonIo.h"
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

Json requestJson(const RunRequest &r)
{
    Json j = Json::object();
    j["filter"] = r.filter;
    j["variant"] = r.variant;
    Json &params = j["params"] = Json::object();
    for (const auto &[key, value] : r.params.values)
        params[key] = value;
    j["border"] = borderModeName(r.params.border);
    j["format"] = formatName(r.params.format);
    j["fast_math"] = r.params.fastMath;
    j["local"] = r.local.toString();
    j["block"] = r.block.toString(); // "auto": the variant's own (or a tuned one)
    j["repeat"] = r.repeat;
    j["warmup"] = r.warmup;
    j["check"] = r.check;
    j["cpu_single"] = r.cpuSingle;
    j["keep_output"] = r.keepOutput;
    j["opencv_cpu"] = r.openCvCpuBaseline;
    j["transfer"] = transferModeName(r.transfer);
    j["tile_width"] = r.tileWidth;
    j["tile_height"] = r.tileHeight;
    j["max_alloc_bytes"] = r.maxAllocBytes;
    j["allow_tiles"] = r.allowTiles;
    j["streams"] = r.streams;
    return j;
}

RunRequest requestFromJson(const Json &j)
{
    RunRequest r;
    r.filter = j.at("filter").get<std::string>();
    r.variant = j.at("variant").get<std::string>();
    for (const auto &[key, value] : j.at("params").items())
        r.params.values[key] = value.get<double>();
    r.params.border = parseBorderMode(j.at("border").get<std::string>()).value_or(BorderMode::Reflect101);
    r.params.format = parsePixelFormat(j.at("format").get<std::string>()).value_or(PixelFormat::Gray8);
    r.params.fastMath = j.value("fast_math", false);
    r.local = LocalSize::parse(j.value("local", std::string("auto"))).value_or(LocalSize{});
    r.block = LocalSize::parse(j.value("block", std::string("auto"))).value_or(LocalSize{});
    r.repeat = j.value("repeat", 5);
    r.warmup = j.value("warmup", 1);
    r.check = j.value("check", true);
    r.cpuSingle = j.value("cpu_single", true);
    r.keepOutput = j.value("keep_output", true);
    r.openCvCpuBaseline = j.value("opencv_cpu", true);
    const std::string transfer = j.value("transfer", std::string("pageable"));
    const std::optional<TransferMode> mode = parseTransferMode(transfer);
    if (!mode)
        throw Error("unknown transfer mode '" + transfer + "'");
    r.transfer = *mode;
    r.tileWidth = j.value("tile_width", 0);
    r.tileHeight = j.value("tile_height", 0);
    r.maxAllocBytes = j.value("max_alloc_bytes", std::uint64_t(0));
    r.allowTiles = j.value("allow_tiles", true);
    r.streams = j.value("streams", 3);
    return r;
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

// The fields of a RunResult the window and the CLI show (the output image travels as output.raw).
Json resultJson(const RunResult &r)
{
    Json j = Json::object();
    j["filter"] = r.filter;
    j["variant"] = r.variant;
    j["params"] = r.params;
    j["format"] = r.format;
    j["border"] = r.border;
    j["device"] = r.device;
    j["device_spec"] = r.deviceSpec;
    j["local"] = r.local.toString();
    j["local_source"] = int(r.localSource);
    j["block"] = r.block.toString();
    j["block_source"] = int(r.blockSource);
    j["global"] = Json::array({r.global[0], r.global[1]});
    j["build_options"] = r.buildOptions;
    j["build_ms"] = r.buildMs;
    j["build_origin"] = r.buildOrigin;
    j["build_cached"] = r.buildCached;
    j["reuploaded"] = r.reuploaded;
    j["transfer"] = r.transfer;
    j["transfer_note"] = r.transferNote;
    j["staging_ms"] = r.stagingMs;
    j["upload_gbps"] = r.uploadGBps;
    j["download_gbps"] = r.downloadGBps;
    j["upload_pct_of_probe"] = r.uploadPctOfProbe;
    j["download_pct_of_probe"] = r.downloadPctOfProbe;
    j["end_to_end_ms"] = r.endToEndMs;
    j["tiles"] = r.tiles;
    j["tile_width"] = r.tileWidth;
    j["tile_height"] = r.tileHeight;
    j["tile_halo"] = r.tileHalo;
    j["streams"] = r.streams;
    j["stages_ms"] = r.stagesMs;
    j["overlap_pct"] = r.overlapPct;
    j["upload_ms"] = r.uploadMs;
    j["download_ms"] = r.downloadMs;
    j["kernel_ms"] = Json::array({r.kernelMs.min, r.kernelMs.median, r.kernelMs.max});
    j["pass_ms"] = r.passMs;
    j["total_ms"] = r.totalMs;
    j["mpix_per_s"] = r.mpixPerS;
    j["bytes_moved"] = r.bytesMoved;
    j["gbps"] = r.gbps;
    j["cpu_single_ms"] = r.cpuSingleMs;
    j["cpu_multi_ms"] = r.cpuMultiMs;
    j["cpu_threads"] = r.cpuThreads;
    j["opencv_cpu_ms"] = r.openCvCpuMs;
    j["cpu_best_ms"] = r.cpuBestMs;
    j["cpu_best_label"] = r.cpuBestLabel;
    j["speedup"] = r.speedupVsCpu;
    j["speedup_total"] = r.speedupTotalVsCpu;
    j["baseline"] = r.baseline;
    j["baseline_call"] = r.baselineCall;
    j["metric_name"] = r.metricName;
    j["metric_value"] = r.metricValue;
    j["max_error"] = r.maxError;
    j["check_detail"] = r.checkDetail;
    j["checked"] = r.checked;
    j["max_abs_diff"] = r.maxAbsDiff;
    j["mean_abs_diff"] = r.meanAbsDiff;
    j["tolerance"] = r.tolerance;
    j["matches"] = r.matches;
    j["expected_failure"] = r.expectedFailure;
    j["unavailable"] = r.unavailable;
    j["cancelled"] = r.cancelled;
    j["error"] = r.error;
    j["error_code"] = r.errorCode;
    j["warning"] = r.warning;
    j["build_log"] = r.buildLog;
    return j;
}

RunResult resultFromJson(const Json &j)
{
    RunResult r;
    r.filter = j.value("filter", std::string());
    r.variant = j.value("variant", std::string());
    r.params = j.value("params", std::map<std::string, double>{});
    r.format = j.value("format", std::string());
    r.border = j.value("border", std::string());
    r.device = j.value("device", std::string());
    r.deviceSpec = j.value("device_spec", std::string());
    r.local = LocalSize::parse(j.value("local", std::string("auto"))).value_or(LocalSize{});
    r.localSource = LocalSource(j.value("local_source", 0));
    r.block = LocalSize::parse(j.value("block", std::string("auto"))).value_or(LocalSize{});
    r.blockSource = LocalSource(j.value("block_source", 0));
    if (j.contains("global")) {
        r.global[0] = j["global"][0].get<std::size_t>();
        r.global[1] = j["global"][1].get<std::size_t>();
    }
    r.buildOptions = j.value("build_options", std::string());
    r.buildMs = j.value("build_ms", 0.0);
    r.buildOrigin = j.value("build_origin", std::string());
    r.buildCached = j.value("build_cached", false);
    r.reuploaded = j.value("reuploaded", true);
    r.transfer = j.value("transfer", std::string("pageable"));
    r.transferNote = j.value("transfer_note", std::string());
    r.stagingMs = j.value("staging_ms", 0.0);
    r.uploadGBps = j.value("upload_gbps", 0.0);
    r.downloadGBps = j.value("download_gbps", 0.0);
    r.uploadPctOfProbe = j.value("upload_pct_of_probe", -1.0);
    r.downloadPctOfProbe = j.value("download_pct_of_probe", -1.0);
    r.endToEndMs = j.value("end_to_end_ms", 0.0);
    r.tiles = j.value("tiles", 1);
    r.tileWidth = j.value("tile_width", 0);
    r.tileHeight = j.value("tile_height", 0);
    r.tileHalo = j.value("tile_halo", 0);
    r.streams = j.value("streams", 1);
    r.stagesMs = j.value("stages_ms", 0.0);
    r.overlapPct = j.value("overlap_pct", 0.0);
    r.uploadMs = j.value("upload_ms", 0.0);
    r.downloadMs = j.value("download_ms", 0.0);
    if (j.contains("kernel_ms")) {
        r.kernelMs.min = j["kernel_ms"][0].get<double>();
        r.kernelMs.median = j["kernel_ms"][1].get<double>();
        r.kernelMs.max = j["kernel_ms"][2].get<double>();
    }
    r.passMs = j.value("pass_ms", std::vector<double>{});
    r.totalMs = j.value("total_ms", 0.0);
    r.mpixPerS = j.value("mpix_per_s", 0.0);
    r.bytesMoved = j.value("bytes_moved", 0.0);
    r.gbps = j.value("gbps", 0.0);
    r.cpuSingleMs = j.value("cpu_single_ms", -1.0);
    r.cpuMultiMs = j.value("cpu_multi_ms", -1.0);
    r.cpuThreads = j.value("cpu_threads", 0);
    r.openCvCpuMs = j.value("opencv_cpu_ms", -1.0);
    r.cpuBestMs = j.value("cpu_best_ms", -1.0);
    r.cpuBestLabel = j.value("cpu_best_label", std::string());
    r.speedupVsCpu = j.value("speedup", 0.0);
    r.speedupTotalVsCpu = j.value("speedup_total", 0.0);
    r.baseline = j.value("baseline", false);
    r.baselineCall = j.value("baseline_call", std::string());
    r.metricName = j.value("metric_name", std::string());
    r.metricValue = j.value("metric_value", 0.0);
    r.maxError = j.value("max_error", 0.0);
    r.checkDetail = j.value("check_detail", std::string());
    r.checked = j.value("checked", false);
    r.maxAbsDiff = j.value("max_abs_diff", -1);
    r.meanAbsDiff = j.value("mean_abs_diff", 0.0);
    r.tolerance = j.value("tolerance", 0);
    r.matches = j.value("matches", false);
    r.expectedFailure = j.value("expected_failure", false);
    r.unavailable = j.value("unavailable", false);
    r.cancelled = j.value("cancelled", false);
    r.error = j.value("error", std::string());
    r.errorCode = j.value("error_code", std::string());
    r.warning = j.value("warning", std::string());
    r.buildLog = j.value("build_log", std::string());
    return r;
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
        j["request"] = requestJson(job.request);
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
    if (!reaped || !WIFEXITED(status) || !fs::exists(response)) {
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
        r = resultFromJson((*answer)["result"]);
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
        RunRequest request = requestFromJson(j.at("request"));
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
    answer["result"] = resultJson(r);
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
