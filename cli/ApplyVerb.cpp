// filter-bench apply: one variant over many image files (files, folders, globs) into an output folder
// that mirrors them. A pipeline: decode on host threads, the device run on one Session per device
// (each used from its own thread), encode on host threads, at most --max-inflight images in memory.
// Outputs are written atomically and never over an existing file (unless --overwrite), so an
// interrupted batch resumes where it stopped; --shard I/N splits a batch for a scheduler's array job.
#include "Verb.h"

#include "ApplyCheck.h"
#include "OptionValues.h"

#include "Devices.h"
#include "Error.h"
#include "ImageIo.h"
#include "JsonIo.h"
#include "RunPlan.h"
#include "Session.h"
#include "TuningDb.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <semaphore>
#include <set>
#include <thread>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace fwb::cli {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A queue between two stages; close() ends the consumers' loops once it is drained.
template <typename T> class StageQueue
{
public:
    void push(T value)
    {
        {
            std::lock_guard lock(m_mutex);
            m_items.push_back(std::move(value));
        }
        m_ready.notify_one();
    }
    std::optional<T> pop()
    {
        std::unique_lock lock(m_mutex);
        m_ready.wait(lock, [this] { return m_closed || !m_items.empty(); });
        if (m_items.empty())
            return std::nullopt;
        T value = std::move(m_items.front());
        m_items.pop_front();
        return value;
    }
    void close()
    {
        {
            std::lock_guard lock(m_mutex);
            m_closed = true;
        }
        m_ready.notify_all();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::deque<T> m_items;
    bool m_closed = false;
};

enum class ItemStatus { Written, Skipped, Failed };
const char *statusName(ItemStatus s)
{
    return s == ItemStatus::Written ? "written" : s == ItemStatus::Skipped ? "skipped" : "failed";
}

// What became of one image, with the time each stage took (ms).
struct ItemOutcome
{
    ItemStatus status = ItemStatus::Failed;
    double decodeMs = 0, uploadMs = 0, kernelMs = 0, downloadMs = 0, encodeMs = 0;
    std::uint64_t fileBytes = 0;
    std::string device, error;
};

// An image between the stages.
struct Job
{
    std::size_t index = 0;
    Image image;
    ItemOutcome outcome;
};

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Counts, stage totals, and the lines on the way: the per-image JSON line (--json), a plain line or
// the progress line on a terminal, every failure on stderr.
class BatchReport
{
public:
    BatchReport(const std::vector<ApplyItem> &items, bool json)
        : m_items(items), m_json(json), m_terminal(isatty(STDERR_FILENO)), m_start(Clock::now())
    {
    }

    void finish(std::size_t index, const ItemOutcome &r)
    {
        std::lock_guard lock(m_mutex);
        const ApplyItem &item = m_items[index];
        ++m_done;
        ++m_count[int(r.status)];
        m_decode += r.decodeMs, m_upload += r.uploadMs, m_kernel += r.kernelMs, m_download += r.downloadMs,
            m_encode += r.encodeMs;
        if (r.status == ItemStatus::Written)
            m_bytes += r.fileBytes;
        if (m_json) {
            Json j = Json::object({{"input", item.input}, {"output", item.output}, {"status", statusName(r.status)}});
            if (!r.device.empty())
                j["device"] = r.device;
            j["decode_ms"] = jsonNumber(r.decodeMs);
            j["upload_ms"] = jsonNumber(r.uploadMs);
            j["kernel_ms"] = jsonNumber(r.kernelMs);
            j["download_ms"] = jsonNumber(r.downloadMs);
            j["encode_ms"] = jsonNumber(r.encodeMs);
            j["error"] = r.error.empty() ? Json() : Json(r.error);
            std::printf("%s\n", dumpJson(j).c_str());
            std::fflush(stdout);
        }
        clearProgress();
        if (r.status == ItemStatus::Failed)
            std::fprintf(stderr, "filter-bench: %s: %s; skipped\n", item.input.c_str(), r.error.c_str());
        else if (!m_json && !m_terminal)
            std::fprintf(stderr, "[%zu/%zu] %s %s\n", m_done, m_items.size(), item.output.c_str(),
                         r.status == ItemStatus::Written ? "written"
                                                         : "exists, skipped (--overwrite replaces it)");
        if (m_terminal)
            showProgress();
    }

    // The end: the summary (a JSON line with --json), and whether every image was written or skipped.
    bool summarize()
    {
        std::lock_guard lock(m_mutex);
        clearProgress();
        const double seconds = msSince(m_start) / 1000;
        const std::size_t written = m_count[int(ItemStatus::Written)], skipped = m_count[int(ItemStatus::Skipped)],
                          failed = m_count[int(ItemStatus::Failed)];
        const double imagesPerS = seconds > 0 ? double(written) / seconds : 0;
        const std::pair<const char *, double> stages[] = {{"decode", m_decode},     {"upload", m_upload},
                                                          {"filter", m_kernel},     {"download", m_download},
                                                          {"encode", m_encode}};
        const auto slowest = *std::max_element(std::begin(stages), std::end(stages),
                                               [](const auto &a, const auto &b) { return a.second < b.second; });
        if (m_json) {
            Json j = Json::object({{"summary", true},
                                   {"images", m_items.size()},
                                   {"written", written},
                                   {"skipped", skipped},
                                   {"failed", failed},
                                   {"seconds", jsonNumber(seconds)},
                                   {"images_per_s", jsonNumber(imagesPerS)}});
            for (const auto &[name, ms] : stages)
                j[std::string(name) + "_s"] = jsonNumber(ms / 1000);
            std::printf("%s\n", dumpJson(j).c_str());
        } else {
            std::printf("apply: %zu images in %.2f s (%.2f images/s): %zu written, %zu skipped (already there), "
                        "%zu failed\n",
                        m_items.size(), seconds, imagesPerS, written, skipped, failed);
            std::printf("stage seconds, summed over threads and devices: decode %.2f, upload %.2f, filter %.2f, "
                        "download %.2f, encode %.2f (most: %s)\n",
                        m_decode / 1000, m_upload / 1000, m_kernel / 1000, m_download / 1000, m_encode / 1000,
                        slowest.second > 0 ? slowest.first : "none");
        }
        std::fflush(stdout);
        if (failed)
            std::fprintf(stderr, "filter-bench: %zu of %zu images failed (see above); the others are done\n", failed,
                         m_items.size());
        return failed == 0;
    }

private:
    void clearProgress()
    {
        if (m_terminal && m_progressShown)
            std::fputs("\r\033[K", stderr);
        m_progressShown = false;
    }
    // "apply 12/200 images, 35.2 MB/s, 41 s left"
    void showProgress()
    {
        const double seconds = msSince(m_start) / 1000;
        const double mbps = seconds > 0 ? double(m_bytes) / 1e6 / seconds : 0;
        const double left = m_done ? seconds / double(m_done) * double(m_items.size() - m_done) : 0;
        std::fprintf(stderr, "apply %zu/%zu images, %.1f MB/s, %.0f s left", m_done, m_items.size(), mbps, left);
        std::fflush(stderr);
        m_progressShown = true;
    }

    const std::vector<ApplyItem> &m_items;
    const bool m_json, m_terminal;
    const Clock::time_point m_start;
    std::mutex m_mutex;
    std::size_t m_done = 0, m_count[3] = {0, 0, 0};
    std::uint64_t m_bytes = 0;
    double m_decode = 0, m_upload = 0, m_kernel = 0, m_download = 0, m_encode = 0;
    bool m_progressShown = false;
};

// --device: empty (the default device), all (every device), or a list of specs ("0:0,0:0" runs two
// sessions on one device).
std::vector<DeviceInfo> selectDevices(const std::string &spec)
{
    const std::vector<DeviceInfo> devices = listDevices();
    if (spec == "all") {
        if (devices.empty())
            return {selectDevice(devices, "")}; // its message
        return devices;
    }
    std::vector<DeviceInfo> chosen;
    std::size_t at = 0;
    do {
        const std::size_t comma = spec.find(',', at);
        chosen.push_back(selectDevice(devices, spec.substr(at, comma - at)));
        at = comma == std::string::npos ? comma : comma + 1;
    } while (at != std::string::npos);
    return chosen;
}

bool outputExists(const std::string &path)
{
    std::error_code ec;
    return fs::exists(fs::symlink_status(path, ec));
}

int cmdApply(const ApplyOptions &o, ImageIo *io)
{
    const CheckedApply c = checkApply(o, io);
    const std::vector<ApplyItem> &items = c.items;
    const PixelFormat format = c.request.params.format;

    // One session per device (or per list entry), each used only by its own thread below.
    SessionOptions sessionOptions;
    sessionOptions.cacheDir = o.cacheDir;
    auto tuning = std::make_shared<TuningDb>(TuningDb::defaultPath(o.cacheDir));
    if (std::string warning; !o.noTuned && !tuning->load(&warning))
        std::fprintf(stderr, "filter-bench: warning: %s\n", warning.c_str());
    if (!o.noTuned)
        sessionOptions.tunedLocal = TuningDb::lookup(tuning);
    std::vector<std::unique_ptr<Session>> sessions;
    for (const DeviceInfo &device : selectDevices(o.deviceSpec))
        sessions.push_back(std::make_unique<Session>(device, sessionOptions));

    std::error_code ec;
    fs::create_directories(o.outDir, ec);
    if (ec)
        throw Error("cannot make the --out folder " + o.outDir + ": " + ec.message());

    BatchReport report(items, o.json);
    if (o.shardText.size() && !o.json)
        std::fprintf(stderr, "filter-bench: shard %s: %zu of %zu inputs\n", o.shardText.c_str(), items.size(),
                     c.allInputs);
    // At most maxInflight images between the start of their decode and the end of their encode.
    std::counting_semaphore<1024> inflight(c.maxInflight);
    std::atomic<std::size_t> next{0};
    StageQueue<Job> toDevice, toEncode;
    auto done = [&](const Job &job) {
        report.finish(job.index, job.outcome);
        inflight.release();
    };
    const unsigned hostThreads = std::clamp(std::thread::hardware_concurrency() / 2, 1u, unsigned(c.maxInflight));

    auto decodeLoop = [&] {
        for (;;) {
            inflight.acquire();
            const std::size_t i = next++;
            if (i >= items.size()) {
                inflight.release();
                return;
            }
            Job job;
            job.index = i;
            if (!o.overwrite && outputExists(items[i].output)) { // done by an earlier run, or there before
                job.outcome.status = ItemStatus::Skipped;
                done(job);
                continue;
            }
            std::error_code sizeError;
            const std::uintmax_t fileBytes = fs::file_size(items[i].input, sizeError);
            job.outcome.fileBytes = sizeError ? 0 : fileBytes;
            const auto start = Clock::now();
            std::string error;
            const bool loaded = io->loadInto(
                items[i].input, [format](int w, int h, PixelFormat) { return Image(w, h, format); }, job.image,
                error);
            job.outcome.decodeMs = msSince(start);
            if (!loaded) {
                job.outcome.error = "cannot load: " + error;
                done(job);
                continue;
            }
            toDevice.push(std::move(job));
        }
    };
    auto deviceLoop = [&](Session &session) {
        RunRequest request = c.request;
        while (std::optional<Job> job = toDevice.pop()) {
            RunResult r;
            try {
                r = session.run(job->image, request);
            } catch (const std::exception &e) { // reported for this image; the batch goes on
                r.error = e.what();
            }
            job->image = Image();
            ItemOutcome &out = job->outcome;
            out.device = r.device;
            out.uploadMs = r.uploadMs;
            out.kernelMs = r.kernelMs.median;
            out.downloadMs = r.downloadMs;
            if (!r.ok()) {
                out.error = r.error;
            } else if (request.check && !r.matches) {
                out.error = "does not match the CPU reference (max diff " + std::to_string(r.maxAbsDiff)
                            + ", tolerance " + std::to_string(r.tolerance) + "); nothing written";
            } else {
                job->image = std::move(r.output);
                toEncode.push(std::move(*job));
                continue;
            }
            done(*job);
        }
    };
    auto encodeLoop = [&] {
        while (std::optional<Job> job = toEncode.pop()) {
            const ApplyItem &item = items[job->index];
            const auto start = Clock::now();
            std::string error;
            if (!o.overwrite && outputExists(item.output)) { // written meanwhile (another shard, another run)
                job->outcome.status = ItemStatus::Skipped;
            } else if (io->save(item.output, job->image, error)) {
                job->outcome.status = ItemStatus::Written;
            } else {
                job->outcome.error = "cannot save " + item.output + ": " + error;
            }
            job->outcome.encodeMs = msSince(start);
            job->image = Image();
            done(*job);
        }
    };

    {
        std::vector<std::jthread> decoders, runners, encoders;
        for (unsigned t = 0; t < hostThreads; ++t)
            encoders.emplace_back(encodeLoop);
        for (auto &session : sessions)
            runners.emplace_back(deviceLoop, std::ref(*session));
        for (unsigned t = 0; t < hostThreads; ++t)
            decoders.emplace_back(decodeLoop);
        for (auto &t : decoders)
            t.join();
        toDevice.close();
        for (auto &t : runners)
            t.join();
        toEncode.close();
    } // the encoders join here
    return report.summarize() ? 0 : 1;
}

} // namespace

Verb applyVerb(CLI::App &root, ImageIo *io)
{
    auto o = std::make_shared<ApplyOptions>();
    Verb verb;
    CLI::App &c = *(verb.command = addVerbCommand(root, "apply", "apply one variant to many image files"));
    c.add_option("INPUT", o->inputs, "image files, folders (their PNG and JPEG files) or globs")
        ->type_name("FILE|DIR|GLOB");
    c.add_option("--filter", o->filterName, "the filter (see filter-bench list)")->type_name("NAME");
    c.add_option("--variant", o->variantName, "the variant to apply")->type_name("NAME");
    c.add_option("--param", o->paramAssignments, "filter parameter, e.g. sigma=1.5 (repeatable)")
        ->type_name("NAME=VALUE")
        ->expected(1)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    c.add_option("--border", o->borderText, "border rule (default reflect101)")
        ->type_name("reflect101|replicate|constant");
    c.add_option("--format", o->formatText, "pixel layout the kernels see and the outputs have\n"
                                            "(default rgba8888)")
        ->type_name("gray8|rgba8888");
    c.add_option("--out", o->outDir, "folder for the results: the inputs' names relative to the\n"
                                     "folder they came from (made when missing)")
        ->type_name("DIR");
    c.add_option("--out-format", o->outFormat, "write this format instead of each input's own")->type_name("png|jpg");
    c.add_flag("--recursive", o->recursive, "take the files in the INPUT folders' subfolders too");
    c.add_flag("--overwrite", o->overwrite, "replace results already in --out (default: skip them, so an\n"
                                            "interrupted batch resumes)");
    c.add_option("--max-inflight", o->maxInflight, "images in memory at once, decoded to encoded (default one per core,\n4 to 16)")
        ->type_name("N")
        ->transform(wholeNumberIn(1, 1024, [](const std::string &text) {
            return "--max-inflight '" + text + "' must be a whole number in 1..1024";
        }));
    c.add_option("--device", o->deviceSpec, "P:D, gpu, cpu, a name substring, a list (0:0,1:0) or all\n"
                                            "(one session per device; default: best GPU, else CPU)")
        ->type_name("SPEC[,SPEC..]|all");
    c.add_option("--shard", o->shardText, "take every Nth input (sorted) from the Ith, 0-based: for\n"
                                          "job arrays (Slurm, GNU parallel over hosts)")
        ->type_name("I/N")
        ->check(shardUpTo(kMaxShards, [](const std::string &text) {
            return "--shard '" + text + "' must be I/N with 0 <= I < N, e.g. 0/4 (the first of four shards)";
        }));
    c.add_flag("--check", o->check, "compare each result with the CPU reference (a mismatch fails it)");
    c.add_flag("--no-tuned", o->noTuned, "ignore the work-group tuning database");
    addCacheDirOption(c, o->cacheDir);
    addJsonFlag(c, o->json, "one JSON line per image and a summary line");
    verb.check = [o, io] { checkApply(*o, io); };
    verb.run = [o, io] { return cmdApply(*o, io); };
    verb.unknownArgument = unknownOptionFor("apply");
    return verb;
}

} // namespace fwb::cli
