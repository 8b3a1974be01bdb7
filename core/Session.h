// Session: one device's context, profiling queue, programs and reusable buffers; runs a catalogue
// variant on an image (upload -> kernel passes -> download), timed by profiling events.
// Never throws from run(): failures come back as RunResult::error with the OpenCL error name.
#pragma once

#include "Catalogue.h"
#include "CpuTimings.h"
#include "Devices.h"
#include "Image.h"
#include "OpenCvBaseline.h"
#include "WorkGroup.h"
#include "Workload.h"

#include <atomic>
#include <cstdint>
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

// How the image reaches the kernel and comes back (seed 004's transfer table). Copy modes time the
// copy command; mapped modes (zero_copy, output_mapped's output, svm) time map + memcpy + unmap on the
// host clock, because there the memcpy is the transfer.
enum class TransferMode {
    Pageable,     // write/read straight from the Image (ordinary memory: the driver bounces it)
    Pinned,       // write/read through page-locked staging buffers (staging memcpy apart, once per run)
    ZeroCopy,     // kernel reads and writes host-visible CL_MEM_ALLOC_HOST_PTR buffers, mapped; no copy command
    OutputMapped, // input copied (pageable), output written into a host-visible buffer and mapped
    Svm,          // shared virtual memory (coarse grain: map/unmap; fine grain: plain memcpy)
};
const char *transferModeName(TransferMode mode);
std::optional<TransferMode> parseTransferMode(const std::string &name);
// The fastest way measured for this kind of device, the default where none is asked for: page-locked
// images on a discrete GPU (H100, 5x5 Gaussian 6720x4480 end to end: 4.4 ms pageable, 1.17 ms
// page-locked); ordinary copies where the device shares the host's memory (PoCL, integrated GPUs).
TransferMode fastestTransferFor(const DeviceInfo &device);
const std::vector<TransferMode> &allTransferModes();

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
    TransferMode transfer = TransferMode::Pageable; // seed 004: 19 ms pageable, 8.39 pinned, 6.93 output mapped
    int tileWidth = 0, tileHeight = 0; // > 0: process in tiles of this output size (with halos), streamed
    std::uint64_t maxAllocBytes = 0;   // > 0: pretend the device allows at most this per allocation (tiles then)
    bool allowTiles = true;            // tile an image whose buffers exceed the device (false: refuse it)
    int streams = 3;                   // queues the tiles rotate over (upload / kernel / download overlap)
    // Before every launch (warm-ups too) a scratch buffer of several times the device's cache is written,
    // so the kernel finds none of its image in the cache: DRAM-bound kernel times (issue 27: the H100's
    // 50 MB L2 holds much of a gray8 picture and its result between repeats). The NPP row does the same.
    // Whole images only (tiles stream through the cache by design); end-to-end times then include the write.
    bool flushCache = false;
    // Its scratch buffer's size: four times the device's cache, at least 256 MiB (the NPP row's too).
    static std::uint64_t flushBytesFor(std::uint64_t cacheBytes)
    {
        return 4 * cacheBytes > (std::uint64_t(256) << 20) ? 4 * cacheBytes : std::uint64_t(256) << 20;
    }
    bool keepOutput = true;
    bool openCvCpuBaseline = true; // time OpenCV's CPU code too (when built with it): speedups use the faster CPU
    bool cpuBaseline = true; // time our multi-threaded CPU code for the speedups (apply: off, unless it checks)
    // Block variants (makesBlocks): this output block per work-item (pixels) instead of the variant's own
    // (withOutputBlock); 0x0: the variant's, or a tuned one for an auto launch. Reported as "user".
    LocalSize block;
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
    LocalSize block;        // block variants: the output block per work-item as built ("4x8"); 0x0 otherwise
    LocalSource blockSource = LocalSource::Default; // the variant's own (default), tuned or the user's
    std::size_t global[2] = {0, 0}; // first pass's global size as launched
    std::string buildOptions;
    double buildMs = 0;
    std::string buildOrigin; // memory / disk / compiled
    bool buildCached = false;
    bool reuploaded = true;
    std::string transfer = "pageable"; // the TransferMode's name (transferModeName)
    std::string transferNote; // what the mode used, e.g. "svm: coarse-grain buffer", or why it is unavailable
    std::string outputNote;   // what the output is where it is not the input's 8-bit layout (Sobel's 16-bit gx)
    double stagingMs = 0;  // pinned only: host memcpy into and out of the pinned buffers, once per run
                           // (tiles: per tile, overlapped with the device and inside totalMs; median per repeat)
    double uploadMs = 0;   // median over repeats (profiling events; mapped modes: host clock, memcpy included)
    double uploadGBps = 0, downloadGBps = 0; // image bytes / uploadMs, downloadMs
    double uploadPctOfProbe = -1, downloadPctOfProbe = -1; // of the bandwidth probe's figure for this mode (-1: none)
    double endToEndMs = 0; // one repeat from Image to Image: totalMs + stagingMs
    int tiles = 1;         // > 1: the image went through in tiles with halos
    int tileWidth = 0, tileHeight = 0; // output size of a (full) tile; 0 when untiled
    int tileHalo = 0;      // pixels of input read around each tile (the filter's reach)
    int streams = 1;       // queues the tiles rotated over
    double stagesMs = 0;   // tiles: the stages one after another (staging memcpy + upload + kernels + download, summed)
    double overlapPct = 0; // tiles: 1 - wall (totalMs) / stagesMs, in percent: the share of the stage time hidden
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
    // The CPU figures above are the process's CPU timing store's (CpuTimings.h: the best median of the
    // measurements so far of the same work): cpuBestMs is the best of this many measurements (0: none).
    int cpuMeasurements = 0;
    // The store's key of this run's work (cpuWorkKey: filter, parameters, format, border, size; empty:
    // no CPU figure), so that a front end reads the figures again when a later measurement improves them
    // (refreshCpuFigures). Not in the JSON: the process's own key.
    std::string cpuWork;
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
    // What could not be honoured and what ran instead, in sentences ("the tuned output block 1x1 cannot
    // be built (...); ran with the variant's own block ..."); empty when everything ran as asked.
    std::string warning;
    std::string error;     // empty on success
    std::string errorCode; // e.g. CL_INVALID_WORK_GROUP_SIZE
    std::string buildLog;
    Image output;

    bool ok() const { return error.empty(); }
};

// The fastest CPU figure of `r` (cpuBestMs, its label, both speed-ups) from our multi-threaded time and
// OpenCV's `openCvCpuMs` (<= 0: none), whichever is faster. The run verb calls it again with the
// opencv_cpu row's own median, so a table's baseline and its OpenCV row show one number.
void setCpuBest(RunResult &r, double openCvCpuMs);
// Reads r's CPU figures again from the process's CPU timing store (CpuTimings.h) under r.cpuWork: our
// multi-threaded time, OpenCV's, the checking reference's, then the best and the speed-ups (setCpuBest);
// a host CPU row (cpu_multi, cpu_single, opencv_cpu) takes its own figure as its time. What the store
// does not have stays. True when a figure changed: a front end showing r then shows it again.
bool refreshCpuFigures(RunResult &r);
// The code a host CPU row times (cpu_multi: ours, cpu_single: the checking reference, opencv_cpu: OpenCV;
// the window's CPU engines by their deviceSpec, cpu-multi and cpu-single), with its thread count; nullopt
// for any other result. cpuRowTiming: the store's figure for it.
std::optional<std::pair<CpuCode, int>> cpuRowCode(const RunResult &r);
CpuTiming cpuRowTiming(const RunResult &r);

// True when a pass of the variant makes a block of outputs per work-item (Geometry::Blocks).
bool makesBlocks(const VariantSpec &variant);
inline constexpr int kMaxOutputBlockSide = 256; // the largest output block side run --block and the tuner take
// A copy of `variant` whose work-items make `block` (pixels across x rows down) instead of its own
// block (blockBytesGpu/Cpu cleared): the one place a run, `run --block` and the tuner change it.
std::shared_ptr<const VariantSpec> withOutputBlock(const VariantSpec &variant, const LocalSize &block);

// What the tuning database found for a run: a work-group shape and, from a block tune, an output block.
struct TunedLaunch
{
    LocalSize local;
    LocalSize block; // 0x0: tuned with the variant's own block
};

// The work-group tuning database's answer for a run, if it has one (see SessionOptions::tunedLocal).
using TunedLocalLookup = std::function<std::optional<TunedLaunch>(const DeviceInfo &device,
                                                                  const RunRequest &request, int width, int height)>;

// Runs a variant somewhere else than in this process (filter-bench's helper process for edited kernels,
// see SessionOptions::runElsewhere). Never throws; failures come back as RunResult::error.
using RunElsewhere = std::function<RunResult(const Image &input, const RunRequest &request,
                                             const std::atomic<bool> *cancel)>;

struct SessionOptions
{
    TunedLocalLookup tunedLocal; // consulted for auto launches; a tuned shape (and block) wins over the default
    std::string cacheDir;  // see ProgramCache; "-" disables the disk cache
    std::string kernelDir; // optional override folder for kernel files
    int cpuThreads = 0;    // 0: hardware concurrency
    // When set, run() hands every variant run to it instead of launching here: kernels a user edited
    // (--kernel-dir, FWB_KERNEL_DIR) run in the helper process, so one that writes out of bounds or
    // crashes the driver costs that process, never the caller (race, tune, report and their sweeps go
    // through run()). CPU references, OpenCV baselines, workloads, the copy-bandwidth probe and
    // checkLaunch's build stay in this process: they launch none of those kernels.
    RunElsewhere runElsewhere;
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
    // The storage a run's output goes into, asked once with its size and format (e.g. a page-locked image
    // from a pool the caller keeps and reuses: apply). An image of another size fails the run.
    using OutputStorage = std::function<Image(int width, int height, PixelFormat format)>;
    // run() into `outputStorage`'s image instead of a new one (untiled and tiled runs alike). With
    // TransferMode::Pinned, page-locked input and output storage of this session: no staging memcpy.
    RunResult run(const Image &input, const RunRequest &request, const OutputStorage &outputStorage,
                  const std::atomic<bool> *cancel = nullptr);
    // Called once inside run(), on the caller's thread, with the first launch's output as soon as it is
    // downloaded and checked, before the timed repeats and the CPU timings: the window shows the picture
    // while those go on. `reference`: what it was checked against (checkReference(): the multi-threaded
    // CPU reference, which run() computes anyway, where it is bit-identical to the single-threaded
    // oracle, else the family's exact multi-threaded path), null when the request
    // does not check. `sofar`: the result as known then: build, launch shape, transfer, the check; no
    // timings. Only untiled runs launched here call it (tiles and runs elsewhere deliver at the end).
    // With a warm-up, one more untimed launch follows the call, so that the repeats start from the same
    // warm state as without it (the check's CPU work ran on the same caches).
    using FirstOutput = std::function<void(const Image &output, const Image &reference, const RunResult &sofar)>;
    RunResult run(const Image &input, const RunRequest &request, const OutputStorage &outputStorage,
                  const std::atomic<bool> *cancel, const FirstOutput &firstOutput);

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
    // measured once per device and process (the first session measures it): the honest ceiling for a
    // bandwidth-bound filter.
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

    // Host<->device bandwidth, measured once per device per process (the first call pays ~0.5 s).
    struct BandwidthProbe
    {
        double deviceCopyGBps = 0;   // device-to-device copy, read + write bytes
        double h2dPageableGBps = 0, d2hPageableGBps = 0;
        double h2dPinnedGBps = 0, d2hPinnedGBps = 0;
        double zeroCopyReadGBps = 0; // a kernel reading a host-visible (CL_MEM_ALLOC_HOST_PTR) buffer
        std::size_t bytes = 0;       // size of each transfer
        std::string error;           // non-empty when the probe failed
    };
    const BandwidthProbe &bandwidthProbe();

    // Why a transfer mode cannot run here (svm without CL_DEVICE_SVM_CAPABILITIES, mapped modes on
    // image2d variants), or empty; `note` receives what the mode will use (e.g. the SVM grain).
    std::string transferUnavailableReason(TransferMode mode, const VariantSpec *variant, std::string *note = nullptr);

    // An image in page-locked host memory of this session's device (a CL_MEM_ALLOC_HOST_PTR buffer,
    // mapped for the image's life, adopted by it: Image::adopt), its pixels zero. With
    // TransferMode::Pinned, run() copies (or streams the tiles) straight from such an input and returns
    // its output in page-locked memory too: no staging memcpy (stagingMs 0). Fill it (decode, convert,
    // draw) before timing matters; the memory goes with the image, even after the session. Copies of
    // it are ordinary images. Throws fwb::Error when the driver cannot allocate or map it.
    Image pinnedImage(int width, int height, PixelFormat format);

    // CPU reference, timed; its output cached per (image content, filter, params). A timed call (ms set)
    // adds its measurement to the process's CPU timing store (CpuTimings.h) the first time this session
    // computes it, and *ms is the store's figure for the work: the best median of every measurement of it
    // so far in this process (every session's, the races' and the runs'), the same number everywhere.
    Image cpuReference(const Image &input, const FilterSpec &filter, const FilterParams &params, int threads,
                       double *ms);
    // What an output is checked against: the oracle's bytes, on `threads` threads. cpuReference()'s
    // (cached, shared with the speed baseline) where it is bit-identical to the oracle, else the family's
    // FilterSpec::cpuExact (cached too).
    Image checkReference(const Image &input, const FilterSpec &filter, const FilterParams &params, int threads);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace fwb
