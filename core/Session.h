// Session: one device's context, profiling queue, programs and reusable buffers; runs a catalogue
// variant on an image (upload -> kernel passes -> download), timed by profiling events.
// Never throws from run(): failures come back as RunResult::error with the OpenCL error name.
#pragma once

#include "Catalogue.h"
#include "Devices.h"
#include "Image.h"
#include "OpenCvBaseline.h"
#include "WorkGroup.h"
#include "Workload.h"

#include <atomic>
#include <functional>
#include <optional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace fwb {

struct Stats
{
    double min = 0;
    double median = 0;
    double max = 0;
    static Stats of(std::vector<double> samples);
};

struct RunRequest
{
    std::string filter;
    std::string variant;
    FilterParams params;
    LocalSize local;
    int repeat = 5;     // timed repeats (each: upload, kernels, download)
    int warmup = 1;     // untimed runs before (the first run also pays lazy driver work)
    bool cpuSingle = true; // time the single-threaded reference too (slow on big images)
    bool check = true;  // compare against the CPU reference (single-threaded when cpuSingle)
    bool reuseUpload = false; // skip the upload when the same image is already on the device
    bool pinnedTransfers = false; // copy through page-locked host memory (seed 004: 19 ms -> 8.39 ms)
    bool keepOutput = true;
    bool openCvCpuBaseline = true; // time OpenCV's CPU code too (when built with it): speedups use the faster CPU
    // A user's kernel (the editor, user variants): launched exactly as the catalogue launches a variant,
    // with this spec in place of `variant`'s and, when non-empty, this text as its kernel file.
    std::shared_ptr<const VariantSpec> variantOverride;
    std::string sourceOverride;
};

struct RunResult
{
    std::string filter;
    std::string variant;
    std::map<std::string, double> params; // every parameter's value as run (defaults filled in)
    std::string format;     // pixel layout the kernels saw
    std::string border;     // border rule (filters with borders)
    std::string device;     // device name that actually ran
    std::string deviceSpec; // "P:D"
    LocalSize local;        // the shape that launched: auto resolved to a concrete shape; driver when NULL
    LocalSource localSource = LocalSource::Default; // where that shape came from
    std::size_t global[2] = {0, 0}; // first pass's global size as launched
    std::string buildOptions;
    double buildMs = 0;
    std::string buildOrigin; // memory / disk / compiled
    bool buildCached = false;
    bool reuploaded = true;
    std::string transfer = "pageable"; // host memory the copies used: pageable or pinned
    double stagingMs = 0;  // pinned only: host memcpy into and out of the pinned buffers, once per run
    double uploadMs = 0;   // median over repeats (profiling events)
    Stats kernelMs;        // sum of all passes of one repeat, over repeats
    std::vector<double> passMs; // median of each pass
    double downloadMs = 0;
    double totalMs = 0;    // median wall time of upload + kernels + download, host clock
    double mpixPerS = 0;
    double bytesMoved = 0; // bytes the filter must move (read input once + write output once)
    double gbps = 0;       // bytesMoved / median kernel time
    double cpuSingleMs = -1; // -1: not measured
    double cpuMultiMs = -1;
    int cpuThreads = 0;
    double openCvCpuMs = -1;   // OpenCV's CPU code on the same filter, all threads (-1: not measured)
    double cpuBestMs = -1;     // the fastest CPU result: min(cpuMultiMs, openCvCpuMs)
    std::string cpuBestLabel;  // which one it was: "ours, 16 threads" or "OpenCV 4.6.0, 16 threads"
    double speedupVsCpu = 0;  // cpuBestMs / median kernel time
    double speedupTotalVsCpu = 0; // cpuBestMs / totalMs (transfers included)
    bool baseline = false;    // an OpenCV row (opencv_cpu / opencv_tapi), not one of our variants
    std::string baselineCall; // the OpenCV call(s) it timed
    std::string metricName;  // workloads: "GFLOPS", "Gelem/s", ... (filters report mpixPerS and gbps)
    double metricValue = 0;  // workloads: work / median kernel time, in metricName's unit
    double maxError = 0;     // workloads: largest error the check found (see WorkloadSpec::toleranceNote)
    std::string checkDetail; // workloads: what the check compared
    bool checked = false;
    int maxAbsDiff = -1;
    double meanAbsDiff = 0;
    int tolerance = 0;
    bool matches = false;
    bool expectedFailure = false; // failed exactly as the variant's lesson predicts
    bool unavailable = false;     // the device cannot run this variant (reason in error)
    bool cancelled = false;
    std::string error;     // empty on success
    std::string errorCode; // e.g. CL_INVALID_WORK_GROUP_SIZE
    std::string buildLog;
    Image output;

    bool ok() const { return error.empty(); }
};

// The work-group tuning database's answer for a run, if it has one (see SessionOptions::tunedLocal).
using TunedLocalLookup = std::function<std::optional<LocalSize>(const DeviceInfo &device, const RunRequest &request,
                                                                int width, int height)>;

struct SessionOptions
{
    TunedLocalLookup tunedLocal; // consulted for auto launches; a tuned shape wins over the default
    std::string cacheDir;  // see ProgramCache; "-" disables the disk cache
    std::string kernelDir; // optional override folder for kernel files
    int cpuThreads = 0;    // 0: hardware concurrency
};

class Session
{
public:
    explicit Session(const DeviceInfo &device, SessionOptions options = {}); // throws fwb::Error
    ~Session();
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

    const DeviceInfo &device() const;

    RunResult run(const Image &input, const RunRequest &request, const std::atomic<bool> *cancel = nullptr);

    // Runs OpenCV on the same filter, parameters, border and format as `request` (opencv_cpu on all
    // CPU threads, opencv_tapi through OpenCL on this session's context and device), timed and checked
    // against the CPU reference like a variant (tolerance at least 1). Never throws; without OpenCV, or
    // for a filter OpenCV lacks, the result is unavailable with the reason.
    RunResult runBaseline(const Image &input, const RunRequest &request, Baseline baseline,
                          const std::atomic<bool> *cancel = nullptr);

    // Runs a compute workload's variant (workloads()): the same build, launch-shape, profiling-event
    // timing and checking as run(), on the workload's own buffers. Never throws.
    RunResult runWorkload(const WorkloadRequest &request, const std::atomic<bool> *cancel = nullptr);

    // Builds the variant's program (if needed) and checks the work-group shape against device and
    // kernel limits, without launching. Empty when it would launch, else the reason.
    // A failed build also leaves the compiler's log in *buildLog (when given).
    std::string checkLaunch(const RunRequest &request, int width, int height, std::string *buildLog = nullptr);

    // Device-to-device copy bandwidth (read + write bytes / time) of a 256 MiB (or smaller) buffer,
    // measured once per session: the honest ceiling for a bandwidth-bound filter.
    double copyBandwidthGBps();

    // The session's own OpenCL objects as C handles (cl_context, cl_device_id, and the profiling
    // cl_command_queue), for code that runs beside the session on them: the FP32 peak probe, CLBlast.
    // Valid for the session's life, on the thread that owns it; the caller retains what it keeps.
    struct NativeHandles
    {
        void *context = nullptr;
        void *device = nullptr;
        void *queue = nullptr;
    };
    NativeHandles nativeHandles() const;

    // CPU reference, timed; cached per (image content, filter, params).
    Image cpuReference(const Image &input, const FilterSpec &filter, const FilterParams &params, int threads,
                       double *ms);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace fwb
