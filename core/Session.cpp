// Session implementation: program lookup, launch-geometry rules, buffer reuse, profiling-event timing,
// the CPU baseline and the correctness check. Every OpenCL exception is caught here and becomes a
// RunResult error carrying the OpenCL error name (and the build log for build failures).
#include "Session.h"

#include "ClDevice.h"
#include "CpuReference.h"
#include "Error.h"
#include "KernelSources.h"
#include "FaultInjection.h"
#include "ProgramCache.h"
#include "TileStream.h"
#include "VariantLimits.h"

#include <algorithm>
#include <set>
#include <exception>
#include <cstring>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <new>
#include <thread>

namespace fwb {

Stats Stats::of(std::vector<double> samples)
{
    Stats s;
    if (samples.empty())
        return s;
    std::sort(samples.begin(), samples.end());
    s.min = samples.front();
    s.max = samples.back();
    const std::size_t n = samples.size();
    s.median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
    return s;
}

bool makesBlocks(const VariantSpec &variant)
{
    return std::any_of(variant.passes.begin(), variant.passes.end(),
                       [](const PassSpec &p) { return p.geometry == Geometry::Blocks; });
}

std::shared_ptr<const VariantSpec> withOutputBlock(const VariantSpec &variant, const LocalSize &block)
{
    auto changed = std::make_shared<VariantSpec>(variant);
    changed->blockWidth = block.width;
    changed->blockHeight = block.height;
    changed->blockBytesGpu = changed->blockBytesGpuRgba = changed->blockBytesCpu = 0;
    return changed;
}

const char *transferModeName(TransferMode mode)
{
    switch (mode) {
    case TransferMode::Pageable: return "pageable";
    case TransferMode::Pinned: return "pinned";
    case TransferMode::ZeroCopy: return "zero_copy";
    case TransferMode::OutputMapped: return "output_mapped";
    case TransferMode::Svm: return "svm";
    }
    return "?";
}

std::optional<TransferMode> parseTransferMode(const std::string &name)
{
    for (TransferMode mode : allTransferModes())
        if (name == transferModeName(mode))
            return mode;
    return std::nullopt;
}

const std::vector<TransferMode> &allTransferModes()
{
    static const std::vector<TransferMode> modes{TransferMode::Pageable, TransferMode::Pinned, TransferMode::ZeroCopy,
                                                 TransferMode::OutputMapped, TransferMode::Svm};
    return modes;
}

namespace {

using Clock = std::chrono::steady_clock;

// One pass's NDRange for an input of curW x curH (see Geometry).
void passGlobal(const VariantSpec &variant, const PassSpec &pass, int curW, int curH, int blockW, std::size_t global[2])
{
    const std::size_t w = std::size_t(curW), h = std::size_t(curH);
    const std::size_t bw = std::size_t(blockW), bh = std::size_t(variant.blockHeight);
    switch (pass.geometry) {
    case Geometry::Pixels: global[0] = w; global[1] = h; break;
    case Geometry::Transposed: // a blockWidth x blockHeight block per work-item (default 1x1)
    case Geometry::Blocks: global[0] = (w + bw - 1) / bw; global[1] = (h + bh - 1) / bh; break;
    case Geometry::PixelsX4: global[0] = (w + 3) / 4; global[1] = h; break; // the kernel guards the last group
    case Geometry::Interior:
        global[0] = std::size_t(std::max(0, curW - 2));
        global[1] = std::size_t(std::max(0, curH - 2));
        break;
    case Geometry::Columns: global[0] = w; global[1] = 1; break;
    }
}

bool allocationFailure(cl_int err)
{
    return err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES || err == CL_OUT_OF_HOST_MEMORY
           || err == CL_INVALID_BUFFER_SIZE;
}

std::string mib(std::uint64_t bytes)
{
    return std::to_string((bytes + (std::uint64_t(1) << 20) - 1) >> 20) + " MiB";
}

double msBetween(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double, std::milli>(b - a).count();
}

double eventMs(const cl::Event &event)
{
    const cl_ulong start = event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
    const cl_ulong end = event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
    return end > start ? double(end - start) * 1e-6 : 0.0;
}

// The shape one pass launches with, and where it came from. auto becomes the project's choice for
// the device (or the tuning database's), never the runtime's NULL pick; driver is NULL on purpose;
// a user's shape is kept, except that a variant mixing 2-D passes with 1-D per-column passes
// (recursive filters) gives its 1-D passes their own default when the requested shape is 2-D. A
// variant made only of 1-D passes keeps the user's shape, so a 2-D request is refused with its reason.
// Waits for the queue when an exception unwinds past it: host memory that non-blocking copies still
// read or write (the converted input, the output image) must outlive them. ASan caught a
// heap-use-after-free here when a launch or read failed with an upload still in flight.
struct DrainQueueOnUnwind
{
    cl::CommandQueue &queue;
    const int exceptions = std::uncaught_exceptions();
    ~DrainQueueOnUnwind()
    {
        if (std::uncaught_exceptions() > exceptions) {
            try {
                queue.finish();
            } catch (...) {
                // a lost device has nothing left in flight
            }
        }
    }
};

struct PassShape
{
    LocalSize local;
    LocalSource source = LocalSource::Default;
    std::string tunedProblem; // why the tuned shape was passed over for the default (it cannot launch here)
};

PassShape resolvePassShape(const DeviceInfo &device, GlobalRule globalRule, bool oneDimensional, bool mixed,
                           const LocalSize &requested, const std::optional<LocalSize> &tuned,
                           std::size_t kernelMaxItems, std::size_t gx, std::size_t gy,
                           const LocalSize &preferred = LocalSize{})
{
    const std::size_t maxItems = std::min(kernelMaxItems ? kernelMaxItems : std::size_t(256),
                                          device.maxWorkGroupSize ? device.maxWorkGroupSize : std::size_t(256));
    if (requested.isDriver())
        return {LocalSize::driverChoice(), LocalSource::Driver, {}};
    if (requested.isConcrete() && !(mixed && oneDimensional && requested.height != 1))
        return {requested, LocalSource::User, {}};
    if (requested.isAuto() && tuned && tuned->isConcrete() && (!oneDimensional || tuned->height == 1)) {
        // A tuned shape this device or kernel cannot launch (a database from another driver, or edited
        // by hand: 4097x1) falls back to the default below instead of failing every run; the launch
        // then reports "default", not "tuned", and the run says why (RunResult::warning).
        LaunchLimits limits;
        limits.kernelMaxWorkGroupSize = kernelMaxItems;
        limits.dimensions = oneDimensional ? 1 : 2;
        std::string problem = localSizeProblem(device, *tuned, limits);
        if (problem.empty())
            return {*tuned, LocalSource::Tuned, {}};
        PassShape fallback = resolvePassShape(device, globalRule, oneDimensional, mixed, requested, std::nullopt,
                                              kernelMaxItems, gx, gy, preferred);
        fallback.tunedProblem = std::move(problem);
        return fallback;
    }
    if (preferred.isConcrete() && (!oneDimensional || preferred.height == 1))
        return {clampLocalSize(preferred, maxItems), LocalSource::Default, {}};
    if (globalRule == GlobalRule::Exact)
        return {dividingLocalSize(gx, oneDimensional ? 1 : gy, maxItems), LocalSource::Default, {}};
    return {clampLocalSize(defaultLocalSize(device, oneDimensional), maxItems), LocalSource::Default, {}};
}

PassShape resolvePassShape(const DeviceInfo &device, const VariantSpec &variant, const PassSpec &pass,
                           const LocalSize &requested, const std::optional<LocalSize> &tuned,
                           std::size_t kernelMaxItems, std::size_t gx, std::size_t gy)
{
    const bool mixed = std::any_of(variant.passes.begin(), variant.passes.end(),
                                   [](const PassSpec &p) { return p.geometry != Geometry::Columns; });
    const LocalSize preferred = device.kind == DeviceKind::Cpu ? variant.preferredLocalCpu : variant.preferredLocalGpu;
    return resolvePassShape(device, variant.globalRule, pass.geometry == Geometry::Columns, mixed, requested, tuned,
                            kernelMaxItems, gx, gy, preferred);
}

// Adds one sentence to the result's warnings (what could not be honoured and what ran instead).
void appendWarning(RunResult &r, const std::string &sentence)
{
    if (r.warning.find(sentence) == std::string::npos)
        r.warning += (r.warning.empty() ? "" : "; ") + sentence;
}

// Turns the exception being handled into the result's error, with the OpenCL error name and, for
// build failures, the build log. Call only from inside a catch block.
void recordCurrentException(RunResult &r)
{
    try {
        throw;
    } catch (const Error &e) {
        r.error = e.what();
        if (e.clCode())
            r.errorCode = clErrorName(e.clCode());
        r.buildLog = e.buildLog();
    } catch (const cl::Error &e) {
        r.errorCode = clErrorName(e.err());
        r.error = std::string(e.what()) + " failed: " + r.errorCode;
    } catch (const std::bad_alloc &) {
        r.error = "out of host memory";
        r.errorCode = "CL_OUT_OF_HOST_MEMORY";
    } catch (const std::exception &e) {
        r.error = e.what();
    }
}

struct PassLaunch
{
    cl::Kernel kernel;
    LocalSize local; // this pass's work-group shape (see resolvePassShape)
    LocalSource source = LocalSource::Default;
    int inWidth = 0, inHeight = 0;
    int dims = 2;
    std::size_t global[2] = {0, 0};
    bool empty = false; // nothing to compute (e.g. the interior of a 2-pixel-wide image)

    // Refuses a shape the device or kernel cannot launch (with the limit it breaks), then rounds the
    // global size up to the shape where the variant's kernels guard their edges.
    void checkAndRound(const DeviceInfo &device, const LaunchLimits &limits, GlobalRule rule, RunResult &r)
    {
        if (std::string why = launchCountProblem(global[0], dims == 2 ? global[1] : 1, local, device.maxWorkGroupSize);
            !why.empty()) {
            r.errorCode = "launch too large";
            throw Error(why);
        }
        if (std::string why = localSizeProblem(device, local, limits); !why.empty()) {
            r.errorCode = "invalid work-group shape";
            throw Error(why);
        }
        if (rule == GlobalRule::RoundUp && local.isConcrete()) {
            global[0] = roundUp(global[0], std::size_t(local.width));
            if (dims == 2)
                global[1] = roundUp(global[1], std::size_t(local.height));
        }
    }

    cl::NDRange globalRange() const
    {
        return dims == 1 ? cl::NDRange(global[0]) : cl::NDRange(global[0], global[1]);
    }

    cl::NDRange localRange() const // NULL for the runtime's choice (driver)
    {
        if (!local.isConcrete())
            return cl::NullRange;
        return dims == 1 ? cl::NDRange(std::size_t(local.width))
                         : cl::NDRange(std::size_t(local.width), std::size_t(local.height));
    }
};

} // namespace

struct Session::Impl
{
    DeviceInfo info;
    SessionOptions options;
    cl::Device device;
    cl::Context context;
    cl::CommandQueue queue;
    ProgramCache programs;
    // Builds that a work-group check (checkLaunch) made and no run has reported yet, by options and
    // source: the run that then finds the program in memory reports that build as its own (the window
    // checks the shape first, so its first run would otherwise say "from memory cache" for a compile).
    std::map<std::string, BuildInfo> unreportedBuilds;
    static std::string buildKey(const std::string &source, const std::string &options)
    {
        return options + '\n' + std::to_string(std::hash<std::string>{}(source));
    }
    cl::Program program(const std::string &source, const std::string &options, BuildInfo *build, bool fromCheck)
    {
        BuildInfo local;
        BuildInfo &bi = build ? *build : local;
        cl::Program p = programs.get(context, device, info, source, options, &bi);
        const std::string key = buildKey(source, options);
        if (fromCheck) {
            if (bi.origin != ProgramOrigin::Memory)
                unreportedBuilds[key] = bi;
        } else if (auto it = unreportedBuilds.find(key); it != unreportedBuilds.end()) {
            if (bi.origin == ProgramOrigin::Memory)
                bi = it->second;
            unreportedBuilds.erase(it);
        }
        return p;
    }

    struct BufferEntry
    {
        cl::Buffer buffer;
        std::size_t bytes = 0;
    };
    std::map<Slot, BufferEntry> buffers;
    cl::Image2D srcImage, dstImage;
    int imageWidth = 0, imageHeight = 0;
    PixelFormat imageFormat = PixelFormat::Gray8;
    cl::Buffer coeffBuffer;
    std::vector<float> coeffUploaded;
    std::uint64_t uploadedHash = 0;
    int uploadedWhere = -1; // transfer mode * 2 + 1 for image2d: where the resident image lives
    double copyGBps = -1;

    struct CpuEntry
    {
        Image output;
        double ms = 0;
    };
    std::map<std::string, CpuEntry> cpuCache;

    // Page-locked host memory: a CL_MEM_ALLOC_HOST_PTR buffer mapped once. Drivers DMA straight from
    // such memory; from ordinary (pageable) memory they first copy into a pinned bounce buffer
    // (seed 004: 19 ms plain copy vs 8.39 ms pinned for a 6720x4480 round trip on an RTX 2060).
    struct PinnedHost
    {
        cl::Buffer buffer;
        void *ptr = nullptr;
        std::size_t bytes = 0;
    };
    PinnedHost pinnedIn, pinnedOut;
    // Pinned tiles: page-locked staging per tile slot (input rectangle in, output rectangle out), filled
    // and emptied by the host copy pool while the device works on the other slots' tiles.
    std::vector<PinnedHost> tileStageIn, tileStageOut;
    void releaseTileStaging(std::size_t keep = 0)
    {
        for (std::vector<PinnedHost> *v : {&tileStageIn, &tileStageOut}) {
            for (std::size_t i = keep; i < v->size(); ++i)
                release((*v)[i]);
            if (v->size() > keep)
                v->resize(keep);
        }
    }

    // Page-locked images (Session::pinnedImage, and a pinned run's output when its input is one): a
    // CL_MEM_ALLOC_HOST_PTR buffer mapped for the block's whole life, owned by the Image that adopts it.
    // The session keeps weak references to recognise such memory, and the last output block to reuse it
    // once its image is gone (dropped when the size changes, after a failure and with the session).
    struct PinnedBlock
    {
        cl::CommandQueue queue;
        cl::Buffer buffer;
        void *ptr = nullptr;
        std::size_t bytes = 0;
        ~PinnedBlock()
        {
            try {
                if (ptr) {
                    queue.enqueueUnmapMemObject(buffer, ptr);
                    queue.finish();
                }
            } catch (const cl::Error &) {
                // a lost device takes its mappings with it
            }
        }
    };
    std::vector<std::weak_ptr<PinnedBlock>> pinnedBlocks;
    std::shared_ptr<PinnedBlock> pinnedOutputBlock;
    std::shared_ptr<PinnedBlock> newPinnedBlock(std::size_t bytes)
    {
        auto block = std::make_shared<PinnedBlock>();
        block->queue = queue;
        block->buffer = cl::Buffer(context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
        fault::trackMemory(block->buffer);
        block->ptr = queue.enqueueMapBuffer(block->buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes);
        block->bytes = bytes;
        std::erase_if(pinnedBlocks, [](const std::weak_ptr<PinnedBlock> &b) { return b.expired(); });
        pinnedBlocks.push_back(block);
        return block;
    }
    static Image adoptBlock(std::shared_ptr<PinnedBlock> block, int w, int h, PixelFormat format)
    {
        std::uint8_t *pixels = static_cast<std::uint8_t *>(block->ptr);
        return Image::adopt(w, h, format, pixels, [block = std::move(block)]() mutable { block.reset(); });
    }
    // True when [p, p + bytes) lies in one of this session's page-locked blocks.
    bool isPinnedHost(const void *p, std::size_t bytes) const
    {
        const auto *at = static_cast<const std::uint8_t *>(p);
        for (const std::weak_ptr<PinnedBlock> &weak : pinnedBlocks)
            if (const std::shared_ptr<PinnedBlock> block = weak.lock()) {
                const auto *begin = static_cast<const std::uint8_t *>(block->ptr);
                if (at >= begin && at + bytes <= begin + block->bytes)
                    return true;
            }
        return false;
    }
    // The output of a run whose input is page-locked: the session's output block when no earlier result
    // still holds it (same size), else a new one.
    Image pinnedOutputImage(int w, int h, PixelFormat format)
    {
        const std::size_t bytes = std::size_t(w) * std::size_t(h) * std::size_t(channelCount(format));
        if (!pinnedOutputBlock || pinnedOutputBlock.use_count() > 1 || pinnedOutputBlock->bytes != bytes) {
            pinnedOutputBlock.reset(); // the old block goes now, or with the result that holds it
            pinnedOutputBlock = newPinnedBlock(bytes);
        }
        return adoptBlock(pinnedOutputBlock, w, h, format);
    }

    // zero_copy / output_mapped: buffers the kernel reads and writes in host-visible memory.
    struct HostVisible
    {
        cl::Buffer buffer;
        std::size_t bytes = 0;
    };
    HostVisible visibleSrc, visibleDst;
    cl::Buffer &hostVisible(HostVisible &entry, std::size_t bytes)
    {
        if (!entry.buffer() || entry.bytes != bytes) {
            entry = HostVisible();
            if (&entry == &visibleSrc)
                uploadedHash = 0;
            entry.buffer = cl::Buffer(context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
            fault::trackMemory(entry.buffer);
            entry.bytes = bytes;
        }
        return entry.buffer;
    }

    // svm: shared virtual memory blocks (coarse grain unless the device offers fine-grain buffers).
    struct SvmBlock
    {
        void *ptr = nullptr;
        std::size_t bytes = 0;
    };
    SvmBlock svmSrc, svmDst;
    std::optional<cl_device_svm_capabilities> svmCapsKnown;
    cl_device_svm_capabilities svmCaps()
    {
        if (!svmCapsKnown) {
            cl_device_svm_capabilities caps = 0;
            if (clGetDeviceInfo(device(), CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, nullptr) != CL_SUCCESS)
                caps = 0; // an OpenCL 1.2 device does not know the query
            svmCapsKnown = caps;
        }
        return *svmCapsKnown;
    }
    bool svmFine() { return (svmCaps() & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0; }
    void *svm(SvmBlock &block, std::size_t bytes)
    {
        if (block.ptr && block.bytes == bytes)
            return block.ptr;
        release(block);
        if (&block == &svmSrc)
            uploadedHash = 0;
        block.ptr = clSVMAlloc(context(), CL_MEM_READ_WRITE | (svmFine() ? CL_MEM_SVM_FINE_GRAIN_BUFFER : 0), bytes, 0);
        if (!block.ptr)
            throw Error("clSVMAlloc of " + mib(bytes) + " failed", CL_MEM_OBJECT_ALLOCATION_FAILURE);
        block.bytes = bytes;
        return block.ptr;
    }
    void release(SvmBlock &block)
    {
        if (block.ptr) {
            queue.finish();
            clSVMFree(context(), block.ptr);
        }
        block = SvmBlock();
    }

    // Streamed tiles: each slot has its own queue and buffers (sized for the largest tile), so tile i+1's
    // upload, tile i's kernels and tile i-1's download can run at once on different queues.
    struct TileSlot
    {
        cl::CommandQueue queue;
        std::map<Slot, BufferEntry> buffers;
        cl::Image2D srcImage, dstImage;
        int imageWidth = 0, imageHeight = 0;
        PixelFormat imageFormat = PixelFormat::Gray8;
    };
    std::vector<TileSlot> tileSlots;

    // After an allocation failure or a lost launch: every device buffer goes, so the next (smaller)
    // run starts from a clean slate on the same context.
    void releaseDeviceMemory() noexcept
    {
        try {
            queue.finish();
        } catch (const cl::Error &) {
            try {
                queue = cl::CommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE);
            } catch (const cl::Error &) {
            }
        }
        buffers.clear();
        srcImage = cl::Image2D();
        dstImage = cl::Image2D();
        imageWidth = imageHeight = 0;
        tileSlots.clear();
        pinnedOutputBlock.reset(); // a result may still hold it; it goes with that result
        visibleSrc = HostVisible();
        visibleDst = HostVisible();
        try {
            release(pinnedIn);
            release(pinnedOut);
            releaseTileStaging();
            release(svmSrc);
            release(svmDst);
        } catch (const cl::Error &) {
            pinnedIn = pinnedOut = PinnedHost();
            tileStageIn.clear();
            tileStageOut.clear();
        }
        uploadedHash = 0;
    }

    void runTiles(const Image &src, Image &out, const FilterSpec &filter, const VariantSpec &variant,
                  std::vector<PassLaunch> &launches, const cl::Buffer &coeffs, const cl_float4 &params4,
                  const std::uint8_t *uploadFrom, std::uint8_t *downloadTo, int halo, const RunRequest &request,
                  const std::function<bool()> &cancelled, RunResult &r);

    // The bandwidth probe's figures this process measured for the device, if any (never measures).
    const Session::BandwidthProbe *probeIfMeasured() const;
    void fillProbePercent(RunResult &r, TransferMode mode) const
    {
        const Session::BandwidthProbe *probe = probeIfMeasured();
        if (!probe || !probe->error.empty())
            return;
        // The ceiling each mode's copies can reach: pageable copies the pageable probe, pinned and the
        // mapped modes the pinned one (a DMA from page-locked memory); output_mapped's input is pageable.
        const bool pageableIn = mode == TransferMode::Pageable || mode == TransferMode::OutputMapped;
        const bool pageableOut = mode == TransferMode::Pageable;
        const double up = pageableIn ? probe->h2dPageableGBps : probe->h2dPinnedGBps;
        const double down = pageableOut ? probe->d2hPageableGBps : probe->d2hPinnedGBps;
        if (r.uploadGBps > 0 && up > 0)
            r.uploadPctOfProbe = 100.0 * r.uploadGBps / up;
        if (r.downloadGBps > 0 && down > 0)
            r.downloadPctOfProbe = 100.0 * r.downloadGBps / down;
    }

    void *pinned(PinnedHost &host, std::size_t bytes)
    {
        if (host.ptr && host.bytes == bytes)
            return host.ptr;
        release(host);
        host.buffer = cl::Buffer(context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
        fault::trackMemory(host.buffer);
        host.ptr = queue.enqueueMapBuffer(host.buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes);
        host.bytes = bytes;
        return host.ptr;
    }

    void release(PinnedHost &host)
    {
        if (host.ptr) {
            queue.enqueueUnmapMemObject(host.buffer, host.ptr);
            queue.finish();
        }
        host = PinnedHost();
    }

    ~Impl()
    {
        pinnedOutputBlock.reset();
        try {
            release(pinnedIn);
            release(pinnedOut);
            releaseTileStaging();
            release(svmSrc);
            release(svmDst);
        } catch (const cl::Error &) {
            // a lost device takes its mappings with it; nothing left to release
        }
    }

    explicit Impl(const DeviceInfo &d, SessionOptions o)
        : info(d), options(std::move(o)), programs(options.cacheDir)
    {
        try {
            device = clDeviceFor(info);
            context = cl::Context(device);
            queue = cl::CommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE);
        } catch (const cl::Error &e) {
            throw Error("cannot open OpenCL device " + info.summary() + ": " + clErrorName(e.err()), e.err());
        }
    }

    cl::Buffer &buffer(Slot slot, std::size_t bytes)
    {
        BufferEntry &entry = buffers[slot];
        if (entry.bytes != bytes) {
            entry.buffer = cl::Buffer();
            if (slot == Slot::Src)
                uploadedHash = 0;
            if (bytes > info.maxAllocSize && info.maxAllocSize)
                throw Error("the image needs a " + std::to_string(bytes >> 20) + " MiB buffer, more than this device "
                            "allows in one allocation (" + std::to_string(info.maxAllocSize >> 20) + " MiB)",
                            CL_INVALID_BUFFER_SIZE);
            fault::check(fault::Step::Alloc); // FWB_FAULT=alloc:N (tests)
            entry.buffer = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
            fault::trackMemory(entry.buffer); // live memory-object count for the fault tests
            entry.bytes = bytes;
        }
        return entry.buffer;
    }

    void ensureImages(int w, int h, PixelFormat format)
    {
        if (srcImage() && imageWidth == w && imageHeight == h && imageFormat == format)
            return;
        srcImage = cl::Image2D();
        dstImage = cl::Image2D();
        uploadedHash = 0;
        const cl::ImageFormat fmt(format == PixelFormat::Gray8 ? CL_R : CL_RGBA, CL_UNSIGNED_INT8);
        srcImage = cl::Image2D(context, CL_MEM_READ_ONLY, fmt, std::size_t(w), std::size_t(h));
        dstImage = cl::Image2D(context, CL_MEM_WRITE_ONLY, fmt, std::size_t(w), std::size_t(h));
        fault::trackMemory(srcImage);
        fault::trackMemory(dstImage);
        imageWidth = w;
        imageHeight = h;
        imageFormat = format;
    }

    // OpenCV's CPU time for the same filter (cached like the CPU reference), then the fastest CPU
    // result and the speedups against it.
    std::map<std::string, double> openCvCpuCache;
    std::shared_ptr<OpenCvTapiContext> openCvTapi; // declared after the context: released before it
    void fillCpuBest(RunResult &r, const Image &src, const FilterSpec &filter, const RunRequest &request, int threads)
    {
        r.cpuBestMs = r.cpuMultiMs;
        r.cpuBestLabel = "ours, " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
        if (request.openCvCpuBaseline && openCvUnsupportedReason(filter, request.params).empty()) {
            const std::string key = cpuKey(src, filter, request.params, threads);
            auto it = openCvCpuCache.find(key);
            if (it == openCvCpuCache.end()) {
                const OpenCvRun ocv = runOpenCvCpu(src, filter, request.params, threads, 3, 1);
                if (openCvCpuCache.size() > 24)
                    openCvCpuCache.clear();
                it = openCvCpuCache.emplace(key, ocv.error.empty() ? Stats::of(ocv.opMs).median : -1.0).first;
            }
            r.openCvCpuMs = it->second;
            if (r.openCvCpuMs > 0 && (r.cpuBestMs <= 0 || r.openCvCpuMs < r.cpuBestMs)) {
                r.cpuBestMs = r.openCvCpuMs;
                r.cpuBestLabel = openCvVersion() + ", " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
            }
        }
        if (r.kernelMs.median > 0 && r.cpuBestMs > 0)
            r.speedupVsCpu = r.cpuBestMs / r.kernelMs.median;
        if (r.totalMs > 0 && r.cpuBestMs > 0)
            r.speedupTotalVsCpu = r.cpuBestMs / r.totalMs;
    }

    static std::string cpuKey(const Image &input, const FilterSpec &filter, const FilterParams &params, int threads)
    {
        std::string key = std::to_string(input.contentHash()) + "/" + filter.name + "/" + borderModeName(params.border)
                          + "/" + formatName(params.format) + "/" + std::to_string(threads);
        for (const ParamSpec &p : filter.params) {
            char value[64];
            std::snprintf(value, sizeof value, "/%s=%.17g", p.key.c_str(), filter.param(params, p.key));
            key += value;
        }
        return key;
    }

    // The tuning database's answer for an auto launch. A shape tuned with another output block than the
    // one the user asked for (request.block) is not this launch's.
    std::optional<TunedLaunch> tuned(const RunRequest &request, int width, int height) const
    {
        if (!options.tunedLocal || !request.local.isAuto())
            return std::nullopt;
        try {
            std::optional<TunedLaunch> found = options.tunedLocal(info, request, width, height);
            if (found && request.block.isConcrete() && !(found->block == request.block))
                return std::nullopt;
            return found;
        } catch (const std::exception &) {
            return std::nullopt; // a broken tuning database never stops a run
        }
    }

    // The variant as it launches: a block variant with the user's block (request.block) or the tuned
    // one, else as the catalogue has it; `changed` keeps a copy alive. Says which block in `r` (if given).
    const VariantSpec *launchVariant(const VariantSpec &variant, const RunRequest &request,
                                     const std::optional<TunedLaunch> &tuned,
                                     std::shared_ptr<const VariantSpec> &changed, RunResult *r = nullptr) const
    {
        if (!makesBlocks(variant)) {
            if (request.block.isConcrete())
                throw Error("variant " + variant.name + " makes one output per work-item (only block variants "
                            "take an output block)");
            return &variant;
        }
        const LocalSize block = request.block.isConcrete() ? request.block : tuned ? tuned->block : LocalSize{};
        if (block.isConcrete())
            changed = withOutputBlock(variant, block);
        const VariantSpec *launched = block.isConcrete() ? changed.get() : &variant;
        if (r) {
            r->block = LocalSize{launched->blockWidthFor(request.params.format, info.kind == DeviceKind::Cpu),
                                 launched->blockHeight};
            r->blockSource = request.block.isConcrete() ? LocalSource::User
                             : block.isConcrete()       ? LocalSource::Tuned
                                                        : LocalSource::Default;
        }
        return launched;
    }

    cl::Buffer &coefficients(const std::vector<float> &coeffs)
    {
        const std::vector<float> data = coeffs.empty() ? std::vector<float>{0.0f} : coeffs;
        if (!coeffBuffer() || data != coeffUploaded) {
            coeffBuffer = cl::Buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(float),
                                     const_cast<float *>(data.data()));
            fault::trackMemory(coeffBuffer);
            coeffUploaded = data;
        }
        return coeffBuffer;
    }

    // Tile shape for the build: tiled kernels (and their program-sharing siblings) need a concrete
    // shape at build time; auto (and driver, which a tile cannot honour) becomes the tuned shape or
    // 16x16 (or smaller on small devices).
    LocalSize tileLocal(const VariantSpec &variant, const LocalSize &requested,
                        const std::optional<LocalSize> &tuned = std::nullopt) const
    {
        if (!variant.compiledWithTile() || requested.isConcrete())
            return requested;
        if (requested.isAuto() && tuned && tuned->isConcrete())
            return *tuned;
        const std::size_t cap = info.maxWorkGroupSize ? info.maxWorkGroupSize : 256;
        const LocalSize preferred = info.kind == DeviceKind::Cpu ? variant.preferredLocalCpu : variant.preferredLocalGpu;
        if (preferred.isConcrete() && preferred.items() <= cap)
            return preferred; // the variant's measured best tile for this kind of device
        return cap >= 256 ? LocalSize{16, 16} : cap >= 64 ? LocalSize{8, 8} : LocalSize{4, 4};
    }

    std::string buildOptions(const FilterSpec &filter, const VariantSpec &variant, const FilterParams &params,
                             const PreparedFilter &prepared, const LocalSize &local) const
    {
        std::string opts = "-DCHANNELS=" + std::to_string(channelCount(params.format))
                           + " -DBORDER=" + std::to_string(int(params.border));
        const int blockW = variant.blockWidthFor(params.format, info.kind == DeviceKind::Cpu);
        // Every block variant gets its block, 1x1 too: the kernels compile their block entry points only
        // with BLOCK_W and BLOCK_H defined, so without them a 1x1 block (run --block 1x1) built a program
        // lacking the kernel (CL_INVALID_KERNEL_NAME) instead of failing with the kernel's own reason.
        if (blockW > 1 || variant.blockHeight > 1 || makesBlocks(variant))
            opts += " -DBLOCK_W=" + std::to_string(blockW) + " -DBLOCK_H=" + std::to_string(variant.blockHeight);
        if (variant.compiledWithTile())
            opts += " -DTILE_W=" + std::to_string(local.width) + " -DTILE_H=" + std::to_string(local.height);
        for (const std::string &d : prepared.defines)
            opts += " " + d;
        for (const std::string &d : variant.defines)
            opts += " -D" + d;
        // Only the kernels this variant launches (kernels/common.clh, FWB_ONLY_ENTRIES): a driver that
        // compiles every kernel of a program (NVIDIA at build time, PoCL when the binary is fetched for the
        // disk cache) then compiles those, not the family's whole file (median.cl: 5 kernels,
        // recursive_gaussian.cl: 25). The variants built with a tile share one program per tile: theirs
        // holds the kernels of all of them, so the options (and the program) stay one.
        std::set<std::string> entries; // sorted: every variant of a shared program spells the same options
        for (const PassSpec &pass : variant.passes)
            entries.insert(pass.entry);
        if (variant.compiledWithTile())
            for (const VariantSpec &each : filter.variants)
                if (each.compiledWithTile() && each.kernelFile == variant.kernelFile)
                    for (const PassSpec &pass : each.passes)
                        entries.insert(pass.entry);
        opts += " -DFWB_ONLY_ENTRIES";
        for (const std::string &entry : entries)
            opts += " -DFWB_WANT_" + entry;
        if (variant.globalRule == GlobalRule::NonUniform)
            opts += " -cl-std=CL2.0";
        if (params.fastMath && variant.fastMathMatters)
            opts += " -cl-fast-relaxed-math";
        return opts;
    }
};

Session::Session(const DeviceInfo &device, SessionOptions options)
    : d(std::make_unique<Impl>(device, std::move(options)))
{}

Session::~Session() = default;

const DeviceInfo &Session::device() const { return d->info; }

Image Session::cpuReference(const Image &input, const FilterSpec &filter, const FilterParams &params, int threads,
                            double *ms)
{
    const std::string key = Impl::cpuKey(input, filter, params, threads);
    if (auto it = d->cpuCache.find(key); it != d->cpuCache.end()) {
        if (ms)
            *ms = it->second.ms;
        return it->second.output;
    }
    Image src = input.format() == params.format ? input : input.convertedTo(params.format);
    Image dst = filter.transposesOutput ? Image(src.height(), src.width(), src.format())
                                        : Image(src.width(), src.height(), src.format());
    if (filter.copySourceToDst)
        dst = src;
    const auto start = Clock::now();
    filter.cpuReference(src, dst, params, threads);
    const double elapsed = msBetween(start, Clock::now());
    if (d->cpuCache.size() > 24)
        d->cpuCache.clear();
    d->cpuCache[key] = {dst, elapsed};
    if (ms)
        *ms = elapsed;
    return dst;
}

namespace {

// One process-wide record of bandwidth probes, keyed by device: measured once, shared by sessions.
struct ProbeRegistry
{
    std::mutex mutex;
    std::map<std::string, Session::BandwidthProbe> probes;
};
ProbeRegistry &probeRegistry()
{
    static ProbeRegistry registry;
    return registry;
}
std::string probeKey(const DeviceInfo &info)
{
    return info.platformName + "|" + info.name + "|" + info.driverVersion + "|" + info.spec();
}

// A kernel that streams a buffer through the device: the zero-copy probe reads host-visible memory with it.
const char *kProbeReadSource = R"CLC(
__kernel void fwb_probe_read(__global const uint4 *src, __global uint *sink, uint n)
{
    uint4 acc = (uint4)(0);
    for (uint k = get_global_id(0); k < n; k += get_global_size(0))
        acc += src[k];
    if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x9e3779b9u)
        sink[0] = 1;
}
)CLC";

} // namespace

const Session::BandwidthProbe *Session::Impl::probeIfMeasured() const
{
    ProbeRegistry &registry = probeRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    auto it = registry.probes.find(probeKey(info));
    return it == registry.probes.end() ? nullptr : &it->second;
}

const Session::BandwidthProbe &Session::bandwidthProbe()
{
    if (const BandwidthProbe *known = d->probeIfMeasured())
        return *known;
    BandwidthProbe p;
    try {
        std::size_t bytes = std::size_t(64) << 20;
        if (d->info.maxAllocSize)
            bytes = std::min<std::size_t>(bytes, std::size_t(d->info.maxAllocSize / 2));
        if (d->info.globalMemSize)
            bytes = std::min<std::size_t>(bytes, std::size_t(d->info.globalMemSize / 8));
        bytes &= ~std::size_t(4095);
        p.bytes = bytes;
        p.deviceCopyGBps = copyBandwidthGBps();
        cl::CommandQueue &q = d->queue;
        auto gbps = [bytes](const std::function<void(cl::Event &)> &enqueue) {
            std::vector<double> samples;
            for (int i = 0; i < 5; ++i) {
                cl::Event ev;
                enqueue(ev);
                ev.wait();
                if (i > 0) // the first pays page-in and lazy allocation
                    samples.push_back(eventMs(ev));
            }
            const double ms = Stats::of(samples).median;
            return ms > 0 ? double(bytes) / (ms * 1e-3) / 1e9 : 0.0;
        };
        cl::Buffer device(d->context, CL_MEM_READ_WRITE, bytes);
        std::vector<std::uint8_t> pageable(bytes, 1);
        p.h2dPageableGBps = gbps([&](cl::Event &ev) {
            q.enqueueWriteBuffer(device, CL_FALSE, 0, bytes, pageable.data(), nullptr, &ev);
        });
        p.d2hPageableGBps = gbps([&](cl::Event &ev) {
            q.enqueueReadBuffer(device, CL_FALSE, 0, bytes, pageable.data(), nullptr, &ev);
        });
        cl::Buffer pinnedBuffer(d->context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
        void *pinned = q.enqueueMapBuffer(pinnedBuffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes);
        std::memset(pinned, 1, bytes);
        p.h2dPinnedGBps = gbps([&](cl::Event &ev) {
            q.enqueueWriteBuffer(device, CL_FALSE, 0, bytes, pinned, nullptr, &ev);
        });
        p.d2hPinnedGBps = gbps([&](cl::Event &ev) {
            q.enqueueReadBuffer(device, CL_FALSE, 0, bytes, pinned, nullptr, &ev);
        });
        q.enqueueUnmapMemObject(pinnedBuffer, pinned);
        q.finish();
        // Zero copy: a kernel streaming a host-visible buffer (unmapped, so the device owns it).
        cl::Program program(d->context, std::string(kProbeReadSource));
        program.build({d->device});
        cl::Kernel kernel(program, "fwb_probe_read");
        cl::Buffer sink(d->context, CL_MEM_READ_WRITE, sizeof(cl_uint));
        const cl_uint n = cl_uint(bytes / 16);
        kernel.setArg(0, pinnedBuffer);
        kernel.setArg(1, sink);
        kernel.setArg(2, n);
        const std::size_t items = std::min<std::size_t>(roundUp(n, 256), std::size_t(std::max(1u, d->info.computeUnits)) * 2048);
        p.zeroCopyReadGBps = gbps([&](cl::Event &ev) {
            q.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(roundUp(items, 256)), cl::NDRange(256), nullptr, &ev);
        });
    } catch (const cl::Error &e) {
        p.error = std::string(e.what()) + " failed: " + clErrorName(e.err());
    } catch (const std::exception &e) {
        p.error = e.what();
    }
    ProbeRegistry &registry = probeRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    return registry.probes.emplace(probeKey(d->info), p).first->second;
}

std::string Session::transferUnavailableReason(TransferMode mode, const VariantSpec *variant, std::string *note)
{
    const bool images = variant && variant->usesImages;
    std::string what;
    std::string why;
    switch (mode) {
    case TransferMode::Pageable:
        what = "copies straight from and to the image in ordinary (pageable) memory";
        break;
    case TransferMode::Pinned:
        what = "copies through page-locked staging buffers (CL_MEM_ALLOC_HOST_PTR, mapped once)";
        break;
    case TransferMode::ZeroCopy:
    case TransferMode::OutputMapped:
        what = mode == TransferMode::ZeroCopy
                   ? std::string("the kernel reads and writes host-visible CL_MEM_ALLOC_HOST_PTR buffers, mapped")
                         + (d->info.hostUnifiedMemory ? " (this device shares host memory: nothing moves)" : "")
                   : std::string("input copied from pageable memory; output written into a host-visible buffer, mapped");
        if (images)
            why = std::string(transferModeName(mode)) + " does not apply to image2d variants: an image object lives in "
                  "the device's own texture layout, which the host cannot map in place without a copy "
                  "(use pageable or pinned)";
        break;
    case TransferMode::Svm: {
        const cl_device_svm_capabilities caps = d->svmCaps();
        if (images)
            why = "svm does not apply to image2d variants: image objects cannot live in shared virtual memory "
                  "(use pageable or pinned)";
        else if (!(caps & (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER)))
            why = "svm is unavailable: the device (" + d->info.openclVersion + ") reports no CL_DEVICE_SVM_CAPABILITIES; "
                  "it lacks CL_DEVICE_SVM_COARSE_GRAIN_BUFFER";
        what = caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER
                   ? "fine-grain buffer SVM (clSVMAlloc; the host memcpy needs no map)"
                   : "coarse-grain buffer SVM (clSVMAlloc; map and unmap around the host memcpy)";
        break;
    }
    }
    if (note)
        *note = why.empty() ? what : why;
    return why;
}

void Session::Impl::runTiles(const Image &src, Image &out, const FilterSpec &filter, const VariantSpec &variant,
                             std::vector<PassLaunch> &launches, const cl::Buffer &coeffs, const cl_float4 &params4,
                             const std::uint8_t *uploadFrom, std::uint8_t *downloadTo, int halo,
                             const RunRequest &request, const std::function<bool()> &cancelled, RunResult &r)
{
    (void)coeffs;
    (void)params4; // bound once per kernel by run(); only the buffers and sizes change per tile
    const int w = src.width(), h = src.height(), ch = src.channels();
    const bool transposed = filter.transposesOutput;
    const bool usesTemps = std::any_of(variant.passes.begin(), variant.passes.end(), [](const PassSpec &p) {
        return p.in == Slot::TmpA || p.in == Slot::TmpB || p.out == Slot::TmpA || p.out == Slot::TmpB;
    });
    const std::uint64_t unit = std::uint64_t(ch) * (usesTemps && variant.tempType == TempType::Float32 ? 4 : 1);
    std::uint64_t maxAlloc = info.maxAllocSize;
    if (request.maxAllocBytes && (!maxAlloc || request.maxAllocBytes < maxAlloc))
        maxAlloc = request.maxAllocBytes;
    const int streams = std::clamp(request.streams, 1, 8);
    const std::uint64_t perPixel = 2 * std::uint64_t(ch) + (usesTemps ? 2 * unit : 0); // one slot's buffers

    // Tile size (output pixels): the one asked for, else the largest that fits every slot's buffers,
    // at most 8 Mpixel (smaller tiles overlap better; launches cost a few microseconds each).
    std::int64_t tw = request.tileWidth > 0 ? std::min(request.tileWidth, w) : 0;
    std::int64_t th = request.tileHeight > 0 ? std::min(request.tileHeight, h) : 0;
    if (tw == 0 && th > 0)
        tw = w;
    if (th == 0 && tw > 0 && request.tileWidth > 0)
        th = h;
    if (tw == 0 || th == 0) {
        std::uint64_t maxPixels = std::uint64_t(8) << 20;
        if (maxAlloc)
            maxPixels = std::min(maxPixels, maxAlloc / unit);
        if (info.globalMemSize)
            maxPixels = std::min(maxPixels, info.globalMemSize * 3 / 4 / std::uint64_t(streams) / perPixel);
        const std::int64_t span = 2 * std::int64_t(halo);
        if (variant.usesImages)
            maxPixels = std::min<std::uint64_t>(maxPixels, std::uint64_t(info.image2dMaxWidth) * info.image2dMaxHeight);
        if (std::uint64_t(w + span) * std::uint64_t(span + 16) <= maxPixels
            && (!variant.usesImages || std::size_t(w + span) <= info.image2dMaxWidth))
            tw = w;
        else
            tw = std::int64_t(std::sqrt(double(maxPixels))) - span;
        th = tw > 0 ? std::int64_t(maxPixels / std::uint64_t(tw + span)) - span : 0;
        if (variant.usesImages)
            th = std::min<std::int64_t>(th, std::int64_t(info.image2dMaxHeight) - span);
        th = std::min<std::int64_t>(th, h);
        tw = std::min<std::int64_t>(tw, w);
    }
    const std::uint64_t slotBytes = std::uint64_t(std::max<std::int64_t>(0, std::min<std::int64_t>(w, tw + 2 * halo)))
                                    * std::uint64_t(std::max<std::int64_t>(0, std::min<std::int64_t>(h, th + 2 * halo))) * unit;
    if (tw < 1 || th < 1 || (maxAlloc && slotBytes > maxAlloc))
        throw Error("no tile fits: a " + std::to_string(std::max<std::int64_t>(tw, 1)) + "x"
                        + std::to_string(std::max<std::int64_t>(th, 1)) + " tile with its " + std::to_string(halo)
                        + "-pixel halo needs " + mib(std::max<std::uint64_t>(slotBytes, unit)) + " per buffer; the device allows "
                        + mib(maxAlloc) + " in one allocation",
                    CL_INVALID_BUFFER_SIZE);
    // Each tile costs launches, copies and bookkeeping: --tile 1x1 on 1920x1080 would be two million.
    constexpr std::int64_t kMaxTiles = 65536;
    if (std::int64_t((w + tw - 1) / tw) * std::int64_t((h + th - 1) / th) > kMaxTiles)
        throw Error("a " + std::to_string(tw) + "x" + std::to_string(th) + " tile makes "
                    + std::to_string(std::int64_t((w + tw - 1) / tw) * std::int64_t((h + th - 1) / th))
                    + " tiles of this image (at most " + std::to_string(kMaxTiles) + "); use larger tiles");
    const int cols = int((w + tw - 1) / tw), rows = int((h + th - 1) / th);
    const int tiles = cols * rows;
    const int slots = std::min(streams, tiles);
    r.tiles = tiles;
    r.tileWidth = int(tw);
    r.tileHeight = int(th);
    r.tileHalo = halo;
    r.streams = slots;

    // Slots: a queue and buffers for the largest tile input (the image's own buffers are released first).
    buffers.clear();
    srcImage = cl::Image2D();
    dstImage = cl::Image2D();
    imageWidth = imageHeight = 0;
    uploadedHash = 0;
    const int capW = int(std::min<std::int64_t>(w, tw + 2 * halo)), capH = int(std::min<std::int64_t>(h, th + 2 * halo));
    const std::size_t capPixels = std::size_t(capW) * std::size_t(capH);
    const std::size_t capBytes = capPixels * std::size_t(ch), capTemp = capPixels * std::size_t(unit);
    if (int(tileSlots.size()) > slots)
        tileSlots.resize(std::size_t(slots));
    while (int(tileSlots.size()) < slots)
        tileSlots.emplace_back();
    for (std::size_t i = 0; i < tileSlots.size(); ++i) {
        TileSlot &slot = tileSlots[i];
        if (!slot.queue())
            slot.queue = i == 0 ? queue : cl::CommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE);
        if (variant.usesImages) {
            slot.buffers.clear();
            if (!slot.srcImage() || slot.imageWidth != capW || slot.imageHeight != capH || slot.imageFormat != src.format()) {
                slot.srcImage = cl::Image2D();
                slot.dstImage = cl::Image2D();
                const cl::ImageFormat fmt(src.format() == PixelFormat::Gray8 ? CL_R : CL_RGBA, CL_UNSIGNED_INT8);
                slot.srcImage = cl::Image2D(context, CL_MEM_READ_ONLY, fmt, std::size_t(capW), std::size_t(capH));
                slot.dstImage = cl::Image2D(context, CL_MEM_WRITE_ONLY, fmt, std::size_t(capW), std::size_t(capH));
                fault::trackMemory(slot.srcImage);
                fault::trackMemory(slot.dstImage);
                slot.imageWidth = capW;
                slot.imageHeight = capH;
                slot.imageFormat = src.format();
            }
            continue;
        }
        slot.srcImage = cl::Image2D();
        slot.dstImage = cl::Image2D();
        slot.imageWidth = slot.imageHeight = 0;
        for (Slot s : {Slot::Src, Slot::Dst, Slot::TmpA, Slot::TmpB}) {
            const bool used = s == Slot::Src || s == Slot::Dst
                              || std::any_of(variant.passes.begin(), variant.passes.end(),
                                             [s](const PassSpec &p) { return p.in == s || p.out == s; });
            const std::size_t bytes = !used ? 0 : s == Slot::Src || s == Slot::Dst ? capBytes : capTemp;
            BufferEntry &entry = slot.buffers[s];
            if (entry.bytes != bytes) {
                entry = BufferEntry();
                if (bytes) {
                    entry.buffer = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
                    fault::trackMemory(entry.buffer);
                }
                entry.bytes = bytes;
            }
        }
    }

    const int outW = out.width();
    const std::size_t hostPitch = std::size_t(w) * std::size_t(ch), outPitch = std::size_t(outW) * std::size_t(ch);
    // Pinned: each slot has page-locked staging for its tile's input and output rectangles. The host copy
    // pool fills tile t's input staging while the device works on the tiles already queued, and empties
    // the oldest tile's output staging (into the output image) as soon as its download ends.
    // Page-locked input and output (Session::pinnedImage): the tiles' copies DMA straight from and into them.
    const bool staged = request.transfer == TransferMode::Pinned
                        && !(isPinnedHost(uploadFrom, hostPitch * std::size_t(h))
                             && isPinnedHost(downloadTo, outPitch * std::size_t(out.height())));
    std::vector<std::uint8_t *> stageIn, stageOut;
    if (staged) {
        releaseTileStaging(std::size_t(slots));
        tileStageIn.resize(std::size_t(slots));
        tileStageOut.resize(std::size_t(slots));
        for (int i = 0; i < slots; ++i) {
            stageIn.push_back(static_cast<std::uint8_t *>(pinned(tileStageIn[std::size_t(i)], capBytes)));
            stageOut.push_back(static_cast<std::uint8_t *>(pinned(tileStageOut[std::size_t(i)], capBytes)));
        }
    } else {
        releaseTileStaging();
    }
    HostCopyPool &pool = hostCopyPool();
    struct TileGeometry
    {
        int tx, ty, cw, chh, ix, iy, iw, ih; // output rectangle, input rectangle (with halo)
        std::size_t bx, by, hx, hy, rw, rh;  // kept part in the tile's output, where it lands, its size
    };
    auto geometry = [&](int t) {
        TileGeometry g{};
        g.tx = int((t % cols) * tw);
        g.ty = int((t / cols) * th);
        g.cw = int(std::min<std::int64_t>(tw, w - g.tx));
        g.chh = int(std::min<std::int64_t>(th, h - g.ty));
        g.ix = std::max(0, g.tx - halo);
        g.iy = std::max(0, g.ty - halo);
        g.iw = std::min(w, g.tx + g.cw + halo) - g.ix;
        g.ih = std::min(h, g.ty + g.chh + halo) - g.iy;
        // The tile's own pixels (its halo dropped) go to their place in the output; a transpose's tile
        // (no halo) lands transposed.
        g.bx = std::size_t(g.tx - g.ix);
        g.by = std::size_t(g.ty - g.iy);
        g.hx = transposed ? std::size_t(g.ty) : std::size_t(g.tx);
        g.hy = transposed ? std::size_t(g.tx) : std::size_t(g.ty);
        g.rw = std::size_t(transposed ? g.chh : g.cw);
        g.rh = std::size_t(transposed ? g.cw : g.chh);
        return g;
    };
    auto finishAll = [&]() noexcept {
        for (TileSlot &slot : tileSlots)
            try {
                slot.queue.finish();
            } catch (const cl::Error &) {
            }
    };
    std::vector<double> uploads, kernels, downloads, walls, overlaps, stagings, stageSums;
    std::vector<std::vector<double>> passTimes(launches.size());
    const int total = std::max(0, request.warmup) + std::max(1, request.repeat);
    try {
    for (int iter = 0; iter < total; ++iter) {
        const bool timed = iter >= std::max(0, request.warmup);
        const auto t0 = Clock::now();
        const std::size_t tileCount = std::size_t(tiles);
        std::vector<cl::Event> ups(tileCount), downs(tileCount);
        std::vector<std::vector<cl::Event>> passEvents(tileCount, std::vector<cl::Event>(launches.size()));
        double staging = 0;
        int nextOut = 0; // staged: the oldest tile whose output is still in its slot's staging
        auto copyOut = [&](int u) {
            const TileGeometry g = geometry(u);
            downs[std::size_t(u)].wait();
            const auto c0 = Clock::now();
            pool.copyRows(downloadTo + g.hy * outPitch + g.hx * std::size_t(ch), outPitch,
                          stageOut[std::size_t(u % slots)], g.rw * std::size_t(ch), g.rw * std::size_t(ch), g.rh);
            staging += msBetween(c0, Clock::now());
        };
        for (int t = 0; t < tiles; ++t) {
            if (cancelled()) {
                finishAll();
                r.cancelled = true;
                throw Error("run cancelled");
            }
            TileSlot &slot = tileSlots[std::size_t(t % slots)];
            cl::CommandQueue &q = slot.queue;
            const TileGeometry g = geometry(t);
            const int ix = g.ix, iy = g.iy, iw = g.iw, ih = g.ih;
            const std::uint8_t *from = uploadFrom + std::size_t(iy) * hostPitch + std::size_t(ix) * std::size_t(ch);
            const std::size_t inRow = std::size_t(iw) * std::size_t(ch);
            if (staged) {
                // The slot's staging is free: its previous tile (t - slots) was copied out already.
                std::uint8_t *stage = stageIn[std::size_t(t % slots)];
                const auto c0 = Clock::now();
                pool.copyRows(stage, inRow, from, hostPitch, inRow, std::size_t(ih));
                staging += msBetween(c0, Clock::now());
                if (variant.usesImages)
                    q.enqueueWriteImage(slot.srcImage, CL_FALSE, {0, 0, 0}, {std::size_t(iw), std::size_t(ih), 1}, inRow, 0,
                                        stage, nullptr, &ups[std::size_t(t)]);
                else
                    q.enqueueWriteBuffer(slot.buffers[Slot::Src].buffer, CL_FALSE, 0, inRow * std::size_t(ih), stage,
                                         nullptr, &ups[std::size_t(t)]);
            } else if (variant.usesImages)
                q.enqueueWriteImage(slot.srcImage, CL_FALSE, {0, 0, 0}, {std::size_t(iw), std::size_t(ih), 1}, hostPitch, 0,
                                    const_cast<std::uint8_t *>(from), nullptr, &ups[std::size_t(t)]);
            else
                q.enqueueWriteBufferRect(slot.buffers[Slot::Src].buffer, CL_FALSE, {0, 0, 0},
                                         {std::size_t(ix) * std::size_t(ch), std::size_t(iy), 0},
                                         {inRow, std::size_t(ih), 1}, inRow, 0, hostPitch, 0, uploadFrom, nullptr,
                                         &ups[std::size_t(t)]);
            if (filter.copySourceToDst && !variant.usesImages)
                q.enqueueCopyBuffer(slot.buffers[Slot::Src].buffer, slot.buffers[Slot::Dst].buffer, 0, 0,
                                    inRow * std::size_t(ih));
            int curW = iw, curH = ih;
            for (std::size_t p = 0; p < launches.size(); ++p) {
                PassLaunch &launch = launches[p];
                const PassSpec &pass = variant.passes[p];
                if (variant.usesImages) {
                    launch.kernel.setArg(0, slot.srcImage);
                    launch.kernel.setArg(1, slot.dstImage);
                } else {
                    launch.kernel.setArg(0, slot.buffers[pass.in].buffer);
                    launch.kernel.setArg(1, slot.buffers[pass.out].buffer);
                }
                launch.kernel.setArg(2, cl_int(curW));
                launch.kernel.setArg(3, cl_int(curH));
                if (variant.rowAlign > 0) { // a tile's rows are packed: their own size
                    launch.kernel.setArg(7, cl_int(curW * ch));
                    launch.kernel.setArg(8, cl_int((pass.geometry == Geometry::Transposed ? curH : curW) * ch));
                }
                std::size_t global[2] = {0, 0};
                passGlobal(variant, pass, curW, curH, variant.blockWidthFor(src.format(), info.kind == DeviceKind::Cpu), global);
                if (pass.geometry == Geometry::Transposed)
                    std::swap(curW, curH);
                if (global[0] == 0 || global[1] == 0)
                    continue;
                cl::NDRange localRange = cl::NullRange;
                if (launch.local.isConcrete()) {
                    localRange = launch.dims == 1 ? cl::NDRange(std::size_t(launch.local.width))
                                                  : cl::NDRange(std::size_t(launch.local.width), std::size_t(launch.local.height));
                    if (variant.globalRule == GlobalRule::RoundUp) {
                        global[0] = roundUp(global[0], std::size_t(launch.local.width));
                        global[1] = roundUp(global[1], std::size_t(launch.local.height));
                    }
                }
                const cl::NDRange globalRange = launch.dims == 1 ? cl::NDRange(global[0]) : cl::NDRange(global[0], global[1]);
                q.enqueueNDRangeKernel(launch.kernel, cl::NullRange, globalRange, localRange, nullptr,
                                       &passEvents[std::size_t(t)][p]);
            }
            const std::size_t bx = g.bx, by = g.by, hx = g.hx, hy = g.hy, rw = g.rw, rh = g.rh;
            const std::size_t outRow = rw * std::size_t(ch);
            if (variant.usesImages)
                q.enqueueReadImage(slot.dstImage, CL_FALSE, {bx, by, 0}, {rw, rh, 1}, staged ? outRow : outPitch, 0,
                                   staged ? stageOut[std::size_t(t % slots)] : downloadTo + hy * outPitch + hx * std::size_t(ch),
                                   nullptr, &downs[std::size_t(t)]);
            else if (staged)
                q.enqueueReadBufferRect(slot.buffers[Slot::Dst].buffer, CL_FALSE, {bx * std::size_t(ch), by, 0}, {0, 0, 0},
                                        {outRow, rh, 1}, std::size_t(curW) * std::size_t(ch), 0, outRow, 0,
                                        stageOut[std::size_t(t % slots)], nullptr, &downs[std::size_t(t)]);
            else
                q.enqueueReadBufferRect(slot.buffers[Slot::Dst].buffer, CL_FALSE, {bx * std::size_t(ch), by, 0},
                                        {hx * std::size_t(ch), hy, 0}, {outRow, rh, 1},
                                        std::size_t(curW) * std::size_t(ch), 0, outPitch, 0, downloadTo, nullptr,
                                        &downs[std::size_t(t)]);
            q.flush();
            // Keep slots - 1 tiles queued on the device while the host empties the oldest one.
            while (staged && nextOut <= t - (slots - 1))
                copyOut(nextOut++);
        }
        while (staged && nextOut < tiles)
            copyOut(nextOut++);
        for (TileSlot &slot : tileSlots)
            slot.queue.finish();
        const auto t1 = Clock::now();
        if (!timed)
            continue;
        double up = 0, kernel = 0, down = 0;
        cl_ulong first = ~cl_ulong(0), last = 0;
        auto span = [&](const cl::Event &e) {
            first = std::min(first, e.getProfilingInfo<CL_PROFILING_COMMAND_START>());
            last = std::max(last, e.getProfilingInfo<CL_PROFILING_COMMAND_END>());
            return eventMs(e);
        };
        std::vector<double> passSum(launches.size(), 0.0);
        for (int t = 0; t < tiles; ++t) {
            up += span(ups[std::size_t(t)]);
            for (std::size_t p = 0; p < launches.size(); ++p)
                if (passEvents[std::size_t(t)][p]())
                    passSum[p] += span(passEvents[std::size_t(t)][p]);
            down += span(downs[std::size_t(t)]);
        }
        for (std::size_t p = 0; p < launches.size(); ++p) {
            passTimes[p].push_back(passSum[p]);
            kernel += passSum[p];
        }
        uploads.push_back(up);
        kernels.push_back(kernel);
        downloads.push_back(down);
        stagings.push_back(staging);
        const double wall = msBetween(t0, t1);
        walls.push_back(wall);
        // Overlap, honestly: the stages one after another (host staging memcpy + upload + kernels +
        // download, each summed over the tiles) against the wall time of the whole repeat.
        const double serial = staging + up + kernel + down;
        stageSums.push_back(serial);
        overlaps.push_back(serial > 0 ? std::clamp(100.0 * (1.0 - wall / serial), 0.0, 100.0) : 0.0);
    }
    } catch (...) {
        finishAll(); // nothing may still write into the staging or the output once the caller unwinds
        throw;
    }
    r.uploadMs = Stats::of(uploads).median;
    r.kernelMs = Stats::of(kernels);
    for (const auto &samples : passTimes)
        r.passMs.push_back(Stats::of(samples).median);
    r.downloadMs = Stats::of(downloads).median;
    r.totalMs = Stats::of(walls).median;
    r.stagingMs = staged ? Stats::of(stagings).median : 0.0;
    r.stagesMs = Stats::of(stageSums).median;
    r.overlapPct = Stats::of(overlaps).median;
}

Image Session::pinnedImage(int width, int height, PixelFormat format)
{
    if (std::string problem = imageSizeProblem(width, height, channelCount(format)); !problem.empty())
        throw Error(problem);
    const std::size_t bytes = std::size_t(width) * std::size_t(height) * std::size_t(channelCount(format));
    try {
        std::shared_ptr<Impl::PinnedBlock> block = d->newPinnedBlock(bytes);
        hostCopyPool().parallelFor(8, [&](int i) { // zero pixels, touched on several threads
            const std::size_t begin = bytes * std::size_t(i) / 8, end = bytes * std::size_t(i + 1) / 8;
            std::memset(static_cast<std::uint8_t *>(block->ptr) + begin, 0, end - begin);
        });
        return Impl::adoptBlock(std::move(block), width, height, format);
    } catch (const cl::Error &e) {
        throw Error("cannot allocate " + mib(bytes) + " of page-locked host memory for a " + std::to_string(width) + "x"
                        + std::to_string(height) + " " + formatName(format) + " image: " + clErrorName(e.err()),
                    e.err());
    }
}

Session::NativeHandles Session::nativeHandles() const
{
    return {d->context(), d->device(), d->queue()};
}

double Session::copyBandwidthGBps()
{
    if (d->copyGBps >= 0)
        return d->copyGBps;
    try {
        std::size_t bytes = std::size_t(256) << 20;
        if (d->info.maxAllocSize)
            bytes = std::min<std::size_t>(bytes, std::size_t(d->info.maxAllocSize / 2));
        if (d->info.globalMemSize)
            bytes = std::min<std::size_t>(bytes, std::size_t(d->info.globalMemSize / 8));
        bytes &= ~std::size_t(4095);
        cl::Buffer a(d->context, CL_MEM_READ_WRITE, bytes), b(d->context, CL_MEM_READ_WRITE, bytes);
        const cl_uchar zero = 0;
        d->queue.enqueueFillBuffer(a, zero, 0, bytes);
        std::vector<double> samples;
        for (int i = 0; i < 6; ++i) {
            cl::Event ev;
            d->queue.enqueueCopyBuffer(a, b, 0, 0, bytes, nullptr, &ev);
            ev.wait();
            if (i > 0) // the first copy pays page-in and lazy allocation
                samples.push_back(eventMs(ev));
        }
        const double ms = Stats::of(samples).median;
        d->copyGBps = ms > 0 ? 2.0 * double(bytes) / (ms * 1e-3) / 1e9 : 0.0;
    } catch (const std::exception &) {
        d->copyGBps = 0;
    }
    return d->copyGBps;
}

std::string Session::checkLaunch(const RunRequest &request, int width, int height, std::string *buildLog)
{
    const FilterSpec *filter = findFilter(request.filter);
    const VariantSpec *variant = request.variantOverride ? request.variantOverride.get()
                                 : filter ? filter->variant(request.variant) : nullptr;
    if (!variant)
        return "unknown filter/variant " + request.filter + "/" + request.variant;
    if (std::string why = variantUnavailableReason(*variant, d->info, request.params.format); !why.empty())
        return why;
    std::optional<TunedLaunch> tunedLaunch = d->tuned(request, width, height);
    const VariantSpec *const asked = variant;
    for (;;) {
        try {
            std::shared_ptr<const VariantSpec> changedBlock;
            variant = d->launchVariant(*asked, request, tunedLaunch, changedBlock);
            const std::optional<LocalSize> tuned = tunedLaunch ? std::optional(tunedLaunch->local) : std::nullopt;
            const LocalSize tile = d->tileLocal(*variant, request.local, tuned);
            const LocalSize local = variant->tiledLocal ? tile : request.local; // what would launch
            const PreparedFilter prepared = filter->prepare(request.params);
            if (std::string why = radiusUnavailableReason(*variant, prepared); !why.empty())
                return why;
            const KernelSource source = request.sourceOverride.empty()
                                            ? loadKernelSource(variant->kernelFile, d->options.kernelDir)
                                            : assembleKernelSource(variant->kernelFile, request.sourceOverride, d->options.kernelDir);
            const std::string opts = d->buildOptions(*filter, *variant, request.params, prepared, tile);
            cl::Program program;
            try {
                program = d->program(source.text, opts, nullptr, true);
            } catch (const Error &) {
                // As run() does: a tuned block the kernel cannot be built with gives way to the variant's own.
                if (!tunedLaunch || !tunedLaunch->block.isConcrete() || request.block.isConcrete())
                    throw;
                tunedLaunch.reset();
                continue;
            }
            for (const PassSpec &pass : variant->passes) {
                cl::Kernel kernel(program, pass.entry.c_str());
                LaunchLimits limits;
                limits.kernelMaxWorkGroupSize = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(d->device);
                limits.kernelLocalMem = kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(d->device);
                limits.dimensions = pass.geometry == Geometry::Columns ? 1 : 2;
                const PassShape shape = resolvePassShape(d->info, *variant, pass, local, tuned, limits.kernelMaxWorkGroupSize,
                                                         std::size_t(std::max(1, width)), std::size_t(std::max(1, height)));
                if (std::string why = localSizeProblem(d->info, shape.local, limits); !why.empty())
                    return why;
            }
        } catch (const Error &e) {
            if (buildLog)
                *buildLog = e.buildLog();
            return e.what();
        } catch (const cl::Error &e) {
            return std::string(e.what()) + " failed: " + clErrorName(e.err());
        }
        return {};
    }
}

RunResult Session::run(const Image &input, const RunRequest &request, const std::atomic<bool> *cancel)
{
    if (d->options.runElsewhere)
        return d->options.runElsewhere(input, request, cancel);
    RunResult r;
    r.filter = request.filter;
    r.variant = request.variant;
    r.device = d->info.name;
    r.deviceSpec = d->info.spec();
    r.local = request.local;
    const FilterSpec *filter = findFilter(request.filter);
    if (!filter) {
        r.error = "unknown filter '" + request.filter + "'";
        return r;
    }
    r.tolerance = filter->tolerance;
    for (const ParamSpec &p : filter->params)
        r.params[p.key] = filter->param(request.params, p.key);
    r.format = formatName(request.params.format);
    if (filter->hasBorder)
        r.border = borderModeName(request.params.border);
    const VariantSpec *variant = request.variantOverride ? request.variantOverride.get() : filter->variant(request.variant);
    if (!variant) {
        r.error = "unknown variant '" + request.variant + "' of filter " + filter->name;
        return r;
    }
    if (std::string why = variantUnavailableReason(*variant, d->info, request.params.format); !why.empty()) {
        r.unavailable = true;
        r.error = why;
        return r;
    }
    if (input.isNull()) {
        r.error = "no input image";
        return r;
    }
    auto cancelled = [&] { return cancel && cancel->load(std::memory_order_relaxed); };

    const auto wallStart = Clock::now();
    bool launching = false;
    std::size_t firstGlobal[2] = {0, 0};
    LocalSize local;
    std::shared_ptr<const VariantSpec> changedBlock; // `variant` with another output block (launchVariant)
    try {
        // The input itself when it is already in the kernels' layout (no copy: a page-locked input stays one).
        Image converted;
        if (input.format() != request.params.format)
            converted = input.convertedTo(request.params.format);
        const Image &src = converted.isNull() ? input : converted;
        const DrainQueueOnUnwind drainBeforeSrcGoes{d->queue};
        const int w = src.width(), h = src.height(), ch = src.channels();
        const std::size_t pixelBytes = std::size_t(w) * std::size_t(h) * std::size_t(ch);
        std::optional<TunedLaunch> tunedLaunch = d->tuned(request, w, h);
        const PreparedFilter prepared = filter->prepare(request.params);
        const VariantSpec *const asked = variant; // the catalogue's (or the user's), before any block change
        std::optional<LocalSize> tuned;
        LocalSize tile;
        BuildInfo build;
        cl::Program program;
        for (;;) {
            variant = d->launchVariant(*asked, request, tunedLaunch, changedBlock, &r);
            tuned = tunedLaunch ? std::optional(tunedLaunch->local) : std::nullopt;
            tile = d->tileLocal(*variant, request.local, tuned);
            local = variant->tiledLocal ? tile : request.local; // the shape requested of every pass
            if (std::string why = radiusUnavailableReason(*variant, prepared); !why.empty()) {
                r.unavailable = true;
                r.error = why;
                return r;
            }
            const KernelSource source = request.sourceOverride.empty()
                                            ? loadKernelSource(variant->kernelFile, d->options.kernelDir)
                                            : assembleKernelSource(variant->kernelFile, request.sourceOverride, d->options.kernelDir);
            r.buildOptions = d->buildOptions(*filter, *variant, request.params, prepared, tile);
            try {
                program = d->program(source.text, r.buildOptions, &build, false);
                break;
            } catch (const Error &e) {
                // A tuned output block this kernel cannot be built with (a database from another version
                // or edited by hand: 1x1) falls back to the variant's own block and the default shape,
                // with a warning, instead of failing every run. A block the user asked for fails.
                if (!tunedLaunch || !tunedLaunch->block.isConcrete() || request.block.isConcrete())
                    throw;
                appendWarning(r, "the tuned output block " + tunedLaunch->block.toString() + " cannot be built ("
                                     + e.what() + "); ran with the variant's own block and the default work-group");
                tunedLaunch.reset();
                changedBlock.reset();
            }
        }
        r.buildMs = build.buildMs;
        r.buildOrigin = programOriginName(build.origin);
        r.buildCached = build.origin != ProgramOrigin::Compiled;

        // Tiles: when the image's buffers exceed what the device allows in one allocation (or in all),
        // or when asked to. Decided before anything is allocated.
        const TransferMode mode = request.transfer;
        r.transfer = transferModeName(mode);
        if (std::string why = transferUnavailableReason(mode, variant, &r.transferNote); !why.empty()) {
            r.unavailable = true;
            throw Error(why);
        }
        const bool usesTemps = std::any_of(variant->passes.begin(), variant->passes.end(), [](const PassSpec &p) {
            return p.in == Slot::TmpA || p.in == Slot::TmpB || p.out == Slot::TmpA || p.out == Slot::TmpB;
        });
        const std::size_t tempBytes = pixelBytes * (variant->tempType == TempType::Float32 ? sizeof(float) : 1);
        std::uint64_t maxAlloc = d->info.maxAllocSize;
        if (request.maxAllocBytes && (!maxAlloc || request.maxAllocBytes < maxAlloc))
            maxAlloc = request.maxAllocBytes;
        const std::size_t largestBuffer = usesTemps ? std::max(pixelBytes, tempBytes) : pixelBytes;
        const std::uint64_t deviceBytes = 2 * std::uint64_t(pixelBytes) + (usesTemps ? 2 * std::uint64_t(tempBytes) : 0);
        const bool tooBig = (maxAlloc && largestBuffer > maxAlloc)
                            || pixelBytes > std::size_t(INT32_MAX) // kernels index the image with int
                            || (d->info.globalMemSize && deviceBytes > d->info.globalMemSize * 3 / 4)
                            || (variant->usesImages
                                && (std::size_t(w) > d->info.image2dMaxWidth || std::size_t(h) > d->info.image2dMaxHeight));
        const bool tiled = request.tileWidth > 0 || request.tileHeight > 0 || tooBig;
        if (tiled) {
            const std::string need = "the image (" + std::to_string(w) + "x" + std::to_string(h) + " " + formatName(src.format())
                                     + ") needs a " + mib(largestBuffer) + " buffer and " + mib(deviceBytes)
                                     + " on the device; it allows " + mib(maxAlloc) + " in one allocation"
                                     + (d->info.globalMemSize ? " and has " + mib(d->info.globalMemSize) : std::string());
            if (!request.allowTiles)
                throw Error(need + " (tiling is off)", CL_INVALID_BUFFER_SIZE);
            if (!filter->tileable)
                throw Error(filter->name + " cannot be tiled (every output depends on its whole row and column)"
                                + (tooBig ? ": " + need : std::string()),
                            CL_INVALID_BUFFER_SIZE);
            if (mode != TransferMode::Pageable && mode != TransferMode::Pinned) {
                r.unavailable = true;
                throw Error(std::string("tiled runs copy rectangles from pageable or pinned memory; ")
                            + transferModeName(mode) + " needs the whole image in one device-visible buffer");
            }
            if (variant->globalRule == GlobalRule::Exact)
                throw Error("variant " + variant->name + " launches the exact NDRange, which a tile's size need not "
                            "divide; tiles need a rounding-up variant");
        }
        if (variant->usesImages && !tiled)
            d->ensureImages(w, h, src.format());
        // Row pitches on the device: padded to rowAlign bytes where whole images go through device buffers
        // (variants that ask for it), else the rows' own size. The output is H x W for a transpose.
        const int outRowPixels = filter->transposesOutput ? h : w, outRows = filter->transposesOutput ? w : h;
        const std::size_t rowBytes = std::size_t(w) * std::size_t(ch), outRowBytes = std::size_t(outRowPixels) * std::size_t(ch);
        const bool padded = variant->rowAlign > 0 && !tiled && !variant->usesImages
                            && (mode == TransferMode::Pageable || mode == TransferMode::Pinned);
        const std::size_t srcPitch = padded ? roundUp(rowBytes, std::size_t(variant->rowAlign)) : rowBytes;
        const std::size_t dstPitch = padded ? roundUp(outRowBytes, std::size_t(variant->rowAlign)) : outRowBytes;
        if (srcPitch != rowBytes || dstPitch != outRowBytes)
            r.transferNote += std::string(r.transferNote.empty() ? "" : "; ") + "rows padded to " + std::to_string(srcPitch)
                              + " bytes on the device (" + std::to_string(rowBytes)
                              + " in the image) so that every row starts aligned; the copies move rectangles";
        // Src/Dst: device buffers, host-visible buffers (zero_copy, output_mapped's output) or SVM.
        cl::Buffer srcBuf, dstBuf;
        void *svmSrc = nullptr, *svmDst = nullptr;
        if (!tiled && !variant->usesImages) {
            switch (mode) {
            case TransferMode::Pageable:
            case TransferMode::Pinned:
                srcBuf = d->buffer(Slot::Src, srcPitch * std::size_t(h));
                dstBuf = d->buffer(Slot::Dst, dstPitch * std::size_t(outRows));
                break;
            case TransferMode::ZeroCopy:
                srcBuf = d->hostVisible(d->visibleSrc, pixelBytes);
                dstBuf = d->hostVisible(d->visibleDst, pixelBytes);
                break;
            case TransferMode::OutputMapped:
                srcBuf = d->buffer(Slot::Src, pixelBytes);
                dstBuf = d->hostVisible(d->visibleDst, pixelBytes);
                break;
            case TransferMode::Svm:
                svmSrc = d->svm(d->svmSrc, pixelBytes);
                svmDst = d->svm(d->svmDst, pixelBytes);
                break;
            }
        }
        auto bindSlot = [&](cl::Kernel &kernel, cl_uint index, Slot slot) {
            if (slot == Slot::Src && svmSrc)
                clSetKernelArgSVMPointer(kernel(), index, svmSrc);
            else if (slot == Slot::Dst && svmDst)
                clSetKernelArgSVMPointer(kernel(), index, svmDst);
            else if (slot == Slot::Src)
                kernel.setArg(index, srcBuf);
            else if (slot == Slot::Dst)
                kernel.setArg(index, dstBuf);
            else
                kernel.setArg(index, d->buffer(slot, tempBytes));
        };
        cl::Buffer &coeffs = d->coefficients(prepared.coeffs);
        cl_float4 params4{{prepared.params[0], prepared.params[1], prepared.params[2], prepared.params[3]}};

        // Kernels, arguments and geometry for every pass.
        std::vector<PassLaunch> launches;
        int curW = w, curH = h;
        for (const PassSpec &pass : variant->passes) {
            PassLaunch launch;
            launch.kernel = cl::Kernel(program, pass.entry.c_str());
            launch.inWidth = curW;
            launch.inHeight = curH;
            LaunchLimits limits;
            limits.kernelMaxWorkGroupSize = launch.kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(d->device);
            limits.kernelLocalMem = launch.kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(d->device);
            limits.dimensions = pass.geometry == Geometry::Columns ? 1 : 2;
            if (pass.geometry == Geometry::Columns)
                launch.dims = 1;
            passGlobal(*variant, pass, curW, curH, variant->blockWidthFor(request.params.format, d->info.kind == DeviceKind::Cpu),
                       launch.global);
            launch.empty = launch.global[0] == 0 || launch.global[1] == 0;
            if (variant->tiledLocal && pass.geometry != Geometry::Columns) {
                launch.local = tile; // the kernel sizes its __local tile from this very shape
                launch.source = request.local.isConcrete() ? LocalSource::User
                                : tuned && tile == *tuned  ? LocalSource::Tuned
                                                           : LocalSource::Default;
            } else {
                const PassShape shape = resolvePassShape(d->info, *variant, pass, local, tuned,
                                                         limits.kernelMaxWorkGroupSize, launch.global[0], launch.global[1]);
                launch.local = shape.local;
                launch.source = shape.source;
                if (!shape.tunedProblem.empty())
                    appendWarning(r, "the tuned work-group " + tuned->toString() + " cannot launch here ("
                                         + shape.tunedProblem + "); ran with the default " + shape.local.toString());
            }
            launch.checkAndRound(d->info, limits, variant->globalRule, r);
            int arg = 0;
            if (tiled) {
                arg = 2; // the tile slot binds its own buffers or images per tile
            } else if (variant->usesImages) {
                launch.kernel.setArg(arg++, d->srcImage);
                launch.kernel.setArg(arg++, d->dstImage);
            } else {
                bindSlot(launch.kernel, cl_uint(arg++), pass.in);
                bindSlot(launch.kernel, cl_uint(arg++), pass.out);
            }
            launch.kernel.setArg(arg++, cl_int(curW));
            launch.kernel.setArg(arg++, cl_int(curH));
            launch.kernel.setArg(arg++, coeffs);
            launch.kernel.setArg(arg++, cl_int(prepared.radius));
            launch.kernel.setArg(arg++, params4);
            if (variant->rowAlign > 0) { // tiles set their own (runTiles)
                launch.kernel.setArg(arg++, cl_int(srcPitch));
                launch.kernel.setArg(arg++, cl_int(dstPitch));
            }
            if (pass.geometry == Geometry::Transposed)
                std::swap(curW, curH);
            launches.push_back(launch);
        }
        if (!launches.empty()) {
            firstGlobal[0] = launches.front().global[0];
            firstGlobal[1] = launches.front().global[1];
            r.global[0] = firstGlobal[0];
            r.global[1] = firstGlobal[1];
            // Report the shape the user steers: the first 2-D pass's (recursive filters mix 2-D
            // transposes with 1-D column passes, which take their own 1-D default).
            std::size_t shown = 0;
            while (shown + 1 < launches.size() && launches[shown].dims == 1)
                ++shown;
            local = launches[shown].local;
            r.local = local;
            r.localSource = launches[shown].source;
        }

        // Upload -> passes -> download, warm-up first, then timed repeats.
        const bool copiesInput = mode == TransferMode::Pageable || mode == TransferMode::Pinned
                                 || mode == TransferMode::OutputMapped;
        // The resident image counts only for the same memory and mode: a new mode shows its own upload.
        const int where = (int(mode) * 2 + (variant->usesImages ? 1 : 0)) * 2 + (srcPitch != rowBytes ? 1 : 0);
        const std::uint64_t hash = request.reuseUpload && !tiled ? src.contentHash() : 0;
        const bool canSkipUpload = request.reuseUpload && !tiled && hash == d->uploadedHash && d->uploadedWhere == where;
        r.reuploaded = !canSkipUpload;
        std::vector<double> uploads, kernels, downloads, walls;
        std::vector<std::vector<double>> passTimes(launches.size());
        // --transfer pinned on an input already in page-locked memory (Session::pinnedImage): the copies and
        // the tiles DMA straight from it and into an output in page-locked memory too, no staging memcpy.
        const bool pinnedDirect = mode == TransferMode::Pinned && d->isPinnedHost(src.data(), pixelBytes);
        if (!pinnedDirect && d->pinnedOutputBlock.use_count() == 1)
            d->pinnedOutputBlock.reset(); // an ordinary image now: the page-locked output block goes
        Image out = pinnedDirect ? d->pinnedOutputImage(curW, curH, src.format())
                                 : Image(curW, curH, src.format()); // curW x curH: the last pass's output size
        if (pinnedDirect) {
            r.transferNote = "page-locked image: copies straight from and into its pixels, no staging memcpy"
                             + (r.transferNote.empty() ? std::string() : "; " + r.transferNote);
            d->release(d->pinnedIn);
            d->release(d->pinnedOut);
        }
        const DrainQueueOnUnwind drainBeforeOutGoes{d->queue};
        const std::size_t outBytes = out.sizeBytes();
        // Where the copies read and write on the host: the images themselves, or pinned staging
        // buffers filled once per run (the staging memcpy is reported apart, as stagingMs).
        const std::uint8_t *uploadFrom = src.data();
        std::uint8_t *downloadTo = out.data();
        if (mode == TransferMode::Pinned && !tiled && !pinnedDirect) { // tiles stage per tile (runTiles)
            // Allocating and page-locking happens once per image size and session (like a build, not
            // part of a run's cost); the memcpy into the staging buffer is what each new image pays.
            std::uint8_t *stagingIn = static_cast<std::uint8_t *>(d->pinned(d->pinnedIn, pixelBytes));
            downloadTo = static_cast<std::uint8_t *>(d->pinned(d->pinnedOut, outBytes));
            if (!canSkipUpload) { // the image already on the device needs no staging either
                const auto s0 = Clock::now();
                hostCopyPool().copy(stagingIn, src.data(), pixelBytes);
                r.stagingMs = msBetween(s0, Clock::now());
            }
            uploadFrom = stagingIn;
        }
        const int total = std::max(0, request.warmup) + std::max(1, request.repeat);
        launching = true;
        if (tiled) {
            d->runTiles(src, out, *filter, *variant, launches, coeffs, params4, uploadFrom, downloadTo,
                        filter->transposesOutput ? 0 : prepared.radius, request, cancelled, r);
        }
        for (int iter = 0; iter < (tiled ? 0 : total); ++iter) {
            if (cancelled()) {
                r.cancelled = true;
                throw Error("run cancelled");
            }
            const bool timed = iter >= std::max(0, request.warmup);
            const auto t0 = Clock::now();
            cl::Event upEvent;
            bool uploaded = false;
            double upHostMs = -1; // mapped modes: the host clock times map + memcpy + unmap
            if (!canSkipUpload) {
                if (variant->usesImages) {
                    d->queue.enqueueWriteImage(d->srcImage, CL_FALSE, {0, 0, 0}, {std::size_t(w), std::size_t(h), 1}, 0, 0,
                                               const_cast<std::uint8_t *>(uploadFrom), nullptr, &upEvent);
                } else if (copiesInput && srcPitch != rowBytes) { // padded rows: one rectangle copy
                    d->queue.enqueueWriteBufferRect(srcBuf, CL_FALSE, {0, 0, 0}, {0, 0, 0}, {rowBytes, std::size_t(h), 1},
                                                    srcPitch, 0, rowBytes, 0, uploadFrom, nullptr, &upEvent);
                } else if (copiesInput) {
                    d->queue.enqueueWriteBuffer(srcBuf, CL_FALSE, 0, pixelBytes, uploadFrom, nullptr, &upEvent);
                } else if (mode == TransferMode::ZeroCopy) {
                    const auto u0 = Clock::now();
                    void *p = d->queue.enqueueMapBuffer(srcBuf, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, pixelBytes);
                    std::memcpy(p, src.data(), pixelBytes);
                    d->queue.enqueueUnmapMemObject(srcBuf, p, nullptr, &upEvent);
                    upEvent.wait();
                    upHostMs = msBetween(u0, Clock::now());
                } else { // svm
                    const auto u0 = Clock::now();
                    if (!d->svmFine())
                        clEnqueueSVMMap(d->queue(), CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, svmSrc, pixelBytes, 0,
                                        nullptr, nullptr);
                    std::memcpy(svmSrc, src.data(), pixelBytes);
                    if (!d->svmFine())
                        clEnqueueSVMUnmap(d->queue(), svmSrc, 0, nullptr, nullptr);
                    d->queue.finish();
                    upHostMs = msBetween(u0, Clock::now());
                }
                uploaded = true;
            }
            if (filter->copySourceToDst && !variant->usesImages) {
                if (svmSrc)
                    clEnqueueSVMMemcpy(d->queue(), CL_FALSE, svmDst, svmSrc, pixelBytes, 0, nullptr, nullptr);
                else // same geometry, so the same pitch: padding and all
                    d->queue.enqueueCopyBuffer(srcBuf, dstBuf, 0, 0, srcPitch * std::size_t(h));
            }
            std::vector<cl::Event> passEvents(launches.size());
            for (std::size_t p = 0; p < launches.size(); ++p) {
                const PassLaunch &launch = launches[p];
                if (launch.empty)
                    continue;
                fault::check(fault::Step::Launch); // FWB_FAULT=launch:N (tests)
                d->queue.enqueueNDRangeKernel(launch.kernel, cl::NullRange, launch.globalRange(), launch.localRange(),
                                              nullptr, &passEvents[p]);
                if (cancelled()) {
                    d->queue.finish();
                    r.cancelled = true;
                    throw Error("run cancelled");
                }
            }
            fault::check(fault::Step::Read); // FWB_FAULT=read:N (tests)
            cl::Event downEvent;
            double downHostMs = -1;
            if (variant->usesImages) {
                d->queue.enqueueReadImage(d->dstImage, CL_TRUE, {0, 0, 0}, {std::size_t(w), std::size_t(h), 1}, 0, 0,
                                          downloadTo, nullptr, &downEvent);
            } else if ((mode == TransferMode::Pageable || mode == TransferMode::Pinned) && dstPitch != outRowBytes) {
                d->queue.enqueueReadBufferRect(dstBuf, CL_TRUE, {0, 0, 0}, {0, 0, 0}, {outRowBytes, std::size_t(outRows), 1},
                                               dstPitch, 0, outRowBytes, 0, downloadTo, nullptr, &downEvent);
            } else if (mode == TransferMode::Pageable || mode == TransferMode::Pinned) {
                d->queue.enqueueReadBuffer(dstBuf, CL_TRUE, 0, outBytes, downloadTo, nullptr, &downEvent);
            } else if (mode == TransferMode::Svm) {
                d->queue.finish(); // the kernels' time is theirs, not the download's
                const auto u0 = Clock::now();
                if (!d->svmFine())
                    clEnqueueSVMMap(d->queue(), CL_TRUE, CL_MAP_READ, svmDst, outBytes, 0, nullptr, nullptr);
                std::memcpy(out.data(), svmDst, outBytes);
                if (!d->svmFine())
                    clEnqueueSVMUnmap(d->queue(), svmDst, 0, nullptr, nullptr);
                d->queue.finish();
                downHostMs = msBetween(u0, Clock::now());
            } else { // zero_copy, output_mapped: the output is in host-visible memory; map it and take it
                d->queue.finish();
                const auto u0 = Clock::now();
                void *p = d->queue.enqueueMapBuffer(dstBuf, CL_TRUE, CL_MAP_READ, 0, outBytes);
                std::memcpy(out.data(), p, outBytes);
                d->queue.enqueueUnmapMemObject(dstBuf, p, nullptr, &downEvent);
                downEvent.wait();
                downHostMs = msBetween(u0, Clock::now());
            }
            const auto t1 = Clock::now();
            if (uploaded) {
                d->uploadedHash = hash;
                d->uploadedWhere = where;
            }
            if (!timed)
                continue;
            uploads.push_back(!uploaded ? 0.0 : upHostMs >= 0 ? upHostMs : eventMs(upEvent));
            double kernelSum = 0;
            for (std::size_t p = 0; p < launches.size(); ++p) {
                const double ms = launches[p].empty ? 0.0 : eventMs(passEvents[p]);
                passTimes[p].push_back(ms);
                kernelSum += ms;
            }
            kernels.push_back(kernelSum);
            downloads.push_back(downHostMs >= 0 ? downHostMs : eventMs(downEvent));
            walls.push_back(msBetween(t0, t1));
        }
        launching = false;
        if (downloadTo != out.data()) {
            const auto s0 = Clock::now();
            hostCopyPool().copy(out.data(), downloadTo, out.sizeBytes());
            r.stagingMs += msBetween(s0, Clock::now());
        }
        if (!tiled) {
            r.uploadMs = Stats::of(uploads).median;
            r.kernelMs = Stats::of(kernels);
            for (const auto &samples : passTimes)
                r.passMs.push_back(Stats::of(samples).median);
            r.downloadMs = Stats::of(downloads).median;
            r.totalMs = Stats::of(walls).median;
        }
        r.endToEndMs = r.totalMs + (mode == TransferMode::Pinned && !tiled ? r.stagingMs : 0.0); // tiles: inside totalMs
        if (r.uploadMs > 0)
            r.uploadGBps = double(pixelBytes) / (r.uploadMs * 1e-3) / 1e9;
        if (r.downloadMs > 0)
            r.downloadGBps = double(outBytes) / (r.downloadMs * 1e-3) / 1e9;
        d->fillProbePercent(r, mode);
        const double pixels = double(w) * double(h);
        r.bytesMoved = 2.0 * double(pixelBytes); // from the image, not the NDRange (PixelsX4 launches W/4)
        if (r.kernelMs.median > 0) {
            r.mpixPerS = pixels / (r.kernelMs.median * 1e-3) / 1e6;
            r.gbps = r.bytesMoved / (r.kernelMs.median * 1e-3) / 1e9;
        }

        // CPU baseline (multi-threaded) and oracle (single-threaded, same border rule and rounding).
        const int threads = d->options.cpuThreads > 0 ? d->options.cpuThreads
                                                      : int(std::max(1u, std::thread::hardware_concurrency()));
        r.cpuThreads = threads;
        double cpuMs = 0;
        const Image multi = cpuReference(src, *filter, request.params, threads, &cpuMs);
        r.cpuMultiMs = cpuMs;
        d->fillCpuBest(r, src, *filter, request, threads);
        // The oracle is the single-threaded reference; when its timing is not wanted, the multi-threaded
        // baseline stands in for it (bit-identical: tst_cpureference asserts it for every filter).
        const Image oracle = request.cpuSingle ? cpuReference(src, *filter, request.params, 1, &cpuMs) : multi;
        if (request.cpuSingle)
            r.cpuSingleMs = cpuMs;
        if (request.check) {
            r.checked = true;
            r.maxAbsDiff = maxAbsDiff(out, oracle, &r.meanAbsDiff);
            r.matches = r.maxAbsDiff >= 0 && r.maxAbsDiff <= filter->tolerance;
        }
        if (request.keepOutput)
            r.output = std::move(out);
    } catch (const cl::Error &e) {
        recordCurrentException(r);
        if (launching && variant->globalRule == GlobalRule::Exact && e.err() == CL_INVALID_WORK_GROUP_SIZE
            && local.isConcrete()
            && (firstGlobal[0] % std::size_t(local.width) != 0 || firstGlobal[1] % std::size_t(local.height) != 0)) {
            r.expectedFailure = true;
            r.error = "expected: OpenCL 1.2 rules refuse global " + std::to_string(firstGlobal[0]) + "x"
                      + std::to_string(firstGlobal[1]) + " with local " + local.toString()
                      + " because the global size does not divide by the local size (CL_INVALID_WORK_GROUP_SIZE)";
        }
        d->uploadedHash = 0; // device state is uncertain after a failure: upload again next time
        if (allocationFailure(e.err()))
            d->releaseDeviceMemory(); // the next, smaller run gets the whole device back
    } catch (...) {
        recordCurrentException(r);
        if (r.errorCode == "CL_OUT_OF_HOST_MEMORY")
            d->releaseDeviceMemory();
    }
    if (r.totalMs == 0)
        r.totalMs = msBetween(wallStart, Clock::now());
    return r;
}

RunResult Session::runWorkload(const WorkloadRequest &request, const std::atomic<bool> *cancel)
{
    RunResult r;
    r.filter = request.workload;
    r.variant = request.variant;
    r.device = d->info.name;
    r.deviceSpec = d->info.spec();
    r.local = request.local;
    const WorkloadSpec *workload = findWorkload(request.workload);
    if (!workload) {
        r.error = "unknown workload '" + request.workload + "'";
        return r;
    }
    r.params = workload->resolvedParams(request.params);
    r.metricName = workload->metricName;
    const VariantSpec *variant = workload->variant(request.variant);
    if (!variant) {
        r.error = "unknown variant '" + request.variant + "' of workload " + workload->name;
        return r;
    }
    if (std::string why = variantUnavailableReason(*variant, d->info, PixelFormat::Gray8); !why.empty()) {
        r.unavailable = true;
        r.error = why;
        return r;
    }
    auto cancelled = [&] { return cancel && cancel->load(std::memory_order_relaxed); };
    const auto wallStart = Clock::now();
    try {
        const WorkloadProblem problem = workload->setup(*variant, r.params);
        if (problem.passes.size() != variant->passes.size())
            throw Error("workload " + workload->name + " planned " + std::to_string(problem.passes.size())
                        + " passes for a variant with " + std::to_string(variant->passes.size()));
        std::string opts;
        for (const std::string &define : problem.defines)
            opts += " -D" + define;
        for (const std::string &define : variant->defines)
            opts += " -D" + define;
        if (request.fastMath && variant->fastMathMatters)
            opts += " -cl-fast-relaxed-math";
        r.buildOptions = opts.empty() ? opts : opts.substr(1);
        const KernelSource source = loadKernelSource(variant->kernelFile, d->options.kernelDir);
        BuildInfo build;
        cl::Program program = d->programs.get(d->context, d->device, d->info, source.text, r.buildOptions, &build);
        r.buildMs = build.buildMs;
        r.buildOrigin = programOriginName(build.origin);
        r.buildCached = build.origin != ProgramOrigin::Compiled;

        std::vector<cl::Buffer> buffers;
        for (const WorkloadBuffer &b : problem.buffers) {
            if (d->info.maxAllocSize && b.data.size() > d->info.maxAllocSize)
                throw Error("buffer " + b.name + " needs " + std::to_string(b.data.size() >> 20) + " MiB, more than this "
                            "device allows in one allocation (" + std::to_string(d->info.maxAllocSize >> 20) + " MiB)",
                            CL_INVALID_BUFFER_SIZE);
            fault::check(fault::Step::Alloc); // FWB_FAULT=alloc:N (tests), as in run()
            buffers.emplace_back(d->context, CL_MEM_READ_WRITE, std::max<std::size_t>(1, b.data.size()));
            fault::trackMemory(buffers.back());
        }
        std::vector<PassLaunch> launches;
        for (std::size_t p = 0; p < variant->passes.size(); ++p) {
            PassLaunch launch;
            launch.kernel = cl::Kernel(program, variant->passes[p].entry.c_str());
            launch.dims = problem.passes[p].dims;
            launch.global[0] = problem.passes[p].global[0];
            launch.global[1] = launch.dims == 2 ? problem.passes[p].global[1] : 1;
            LaunchLimits limits;
            limits.kernelMaxWorkGroupSize = launch.kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(d->device);
            limits.kernelLocalMem = launch.kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(d->device);
            limits.dimensions = launch.dims;
            const LocalSize &required = problem.passes[p].local;
            if (required.isConcrete()) {
                // The kernel's tiles are compiled for one shape: auto launches it, anything else is refused.
                if (!request.local.isAuto() && request.local != required) {
                    r.errorCode = "invalid work-group shape";
                    throw Error("variant " + variant->name + " is compiled for work-groups of " + required.toString()
                                + " (its tile sizes); ask for auto or " + required.toString() + ", not "
                                + request.local.toString());
                }
                launch.local = required;
                launch.source = request.local.isAuto() ? LocalSource::Default : LocalSource::User;
            } else {
                const LocalSize preferred = d->info.kind == DeviceKind::Cpu ? variant->preferredLocalCpu
                                                                            : variant->preferredLocalGpu;
                const PassShape shape = resolvePassShape(d->info, variant->globalRule, launch.dims == 1, false,
                                                         request.local, std::nullopt, limits.kernelMaxWorkGroupSize,
                                                         launch.global[0], launch.global[1], preferred);
                launch.local = shape.local;
                launch.source = shape.source;
            }
            launch.checkAndRound(d->info, limits, variant->globalRule, r);
            launch.empty = launch.global[0] == 0 || launch.global[1] == 0;
            int arg = 0;
            for (cl::Buffer &b : buffers)
                launch.kernel.setArg(arg++, b);
            for (std::int32_t value : problem.intArgs)
                launch.kernel.setArg(arg++, cl_int(value));
            launches.push_back(std::move(launch));
        }
        if (!launches.empty()) {
            r.local = launches.front().local;
            r.localSource = launches.front().source;
            r.global[0] = launches.front().global[0];
            r.global[1] = launches.front().global[1];
        }

        std::vector<WorkloadBuffer> results = problem.buffers;
        const DrainQueueOnUnwind drainBeforeBuffersGo{d->queue}; // uploads read problem, downloads write results
        const int steps = std::max(1, problem.steps);
        for (const auto &[first, second] : problem.pingPong)
            if (first < 0 || second < 0 || std::size_t(first) >= buffers.size() || std::size_t(second) >= buffers.size())
                throw Error("workload " + workload->name + " swaps a buffer it does not have");
        // bound[b]: the buffer passed as argument b right now (ping-pong pairs swap it between steps).
        std::vector<std::size_t> bound(buffers.size());
        std::vector<double> uploads, kernels, downloads, walls;
        std::vector<std::vector<double>> passTimes(launches.size());
        const int total = std::max(0, request.warmup) + std::max(1, request.repeat);
        for (int iter = 0; iter < total; ++iter) {
            if (cancelled()) {
                r.cancelled = true;
                throw Error("run cancelled");
            }
            const auto t0 = Clock::now();
            std::vector<cl::Event> upEvents, downEvents;
            std::vector<std::vector<cl::Event>> passEvents(launches.size(), std::vector<cl::Event>(std::size_t(steps)));
            for (std::size_t b = 0; b < buffers.size(); ++b)
                bound[b] = b;
            auto bindBuffers = [&] {
                for (PassLaunch &launch : launches)
                    for (std::size_t b = 0; b < buffers.size(); ++b)
                        launch.kernel.setArg(cl_uint(b), buffers[bound[b]]);
            };
            if (!problem.pingPong.empty())
                bindBuffers();
            for (std::size_t b = 0; b < buffers.size(); ++b)
                if (problem.buffers[b].input && !problem.buffers[b].data.empty()) {
                    upEvents.emplace_back();
                    d->queue.enqueueWriteBuffer(buffers[bound[b]], CL_FALSE, 0, problem.buffers[b].data.size(),
                                                problem.buffers[b].data.data(), nullptr, &upEvents.back());
                }
            for (int step = 0; step < steps; ++step) {
                for (std::size_t p = 0; p < launches.size(); ++p) {
                    const PassLaunch &launch = launches[p];
                    if (launch.empty)
                        continue;
                    fault::check(fault::Step::Launch); // FWB_FAULT=launch:N (tests)
                    d->queue.enqueueNDRangeKernel(launch.kernel, cl::NullRange, launch.globalRange(),
                                                  launch.localRange(), nullptr, &passEvents[p][std::size_t(step)]);
                }
                if (!problem.pingPong.empty()) {
                    // setArg copies the handle at enqueue time, so rebinding affects only later launches.
                    for (const auto &[first, second] : problem.pingPong)
                        std::swap(bound[std::size_t(first)], bound[std::size_t(second)]);
                    bindBuffers();
                }
            }
            fault::check(fault::Step::Read); // FWB_FAULT=read:N (tests)
            for (std::size_t b = 0; b < buffers.size(); ++b)
                if (problem.buffers[b].output && !results[b].data.empty()) {
                    downEvents.emplace_back();
                    d->queue.enqueueReadBuffer(buffers[bound[b]], CL_FALSE, 0, results[b].data.size(),
                                               results[b].data.data(), nullptr, &downEvents.back());
                }
            d->queue.finish();
            const auto t1 = Clock::now();
            if (iter < std::max(0, request.warmup))
                continue;
            auto sumMs = [](const std::vector<cl::Event> &events) {
                double ms = 0;
                for (const cl::Event &e : events)
                    ms += eventMs(e);
                return ms;
            };
            uploads.push_back(sumMs(upEvents));
            double kernelSum = 0;
            for (std::size_t p = 0; p < launches.size(); ++p) {
                const double ms = launches[p].empty ? 0.0 : sumMs(passEvents[p]);
                passTimes[p].push_back(ms);
                kernelSum += ms;
            }
            kernels.push_back(kernelSum);
            downloads.push_back(sumMs(downEvents));
            walls.push_back(msBetween(t0, t1));
        }
        r.uploadMs = Stats::of(uploads).median;
        r.kernelMs = Stats::of(kernels);
        for (const auto &samples : passTimes)
            r.passMs.push_back(Stats::of(samples).median);
        r.downloadMs = Stats::of(downloads).median;
        r.totalMs = Stats::of(walls).median;
        r.bytesMoved = problem.bytesMoved;
        if (r.kernelMs.median > 0) {
            r.metricValue = problem.work / (r.kernelMs.median * 1e-3) / workload->metricScale;
            if (problem.bytesMoved > 0)
                r.gbps = problem.bytesMoved / (r.kernelMs.median * 1e-3) / 1e9;
        }
        if (request.check && workload->check) {
            const WorkloadCheck check = workload->check(problem, results, r.params);
            r.checked = true;
            r.matches = check.matches;
            r.maxError = check.maxError;
            r.checkDetail = check.detail;
            r.cpuSingleMs = check.cpuSingleMs;
            r.cpuMultiMs = check.cpuMultiMs;
            r.cpuThreads = check.cpuThreads;
        }
    } catch (...) {
        recordCurrentException(r);
    }
    if (r.totalMs == 0)
        r.totalMs = msBetween(wallStart, Clock::now());
    return r;
}

RunResult Session::runBaseline(const Image &input, const RunRequest &request, Baseline baseline,
                               const std::atomic<bool> *cancel)
{
    RunResult r;
    r.filter = request.filter;
    r.variant = baselineName(baseline);
    r.baseline = true;
    r.deviceSpec = d->info.spec();
    r.local = LocalSize::driverChoice();
    r.localSource = LocalSource::Driver;
    r.transfer = baseline == Baseline::OpenCvTapi ? "pageable" : "none";
    const FilterSpec *filter = findFilter(request.filter);
    if (!filter) {
        r.error = "unknown filter '" + request.filter + "'";
        return r;
    }
    // OpenCV rounds .5 cases its own way (fixed point, cvRound): ±1. Its 8-bit GaussianBlur sums
    // 16-bit fixed-point weights, each rounded on its own: up to 2 off (measured on the test card).
    const bool gaussian = filter->name == "gaussian" || filter->name == "gaussian5x5";
    r.tolerance = std::max(gaussian ? 2 : 1, filter->tolerance);
    for (const ParamSpec &p : filter->params)
        r.params[p.key] = filter->param(request.params, p.key);
    r.format = formatName(request.params.format);
    if (filter->hasBorder)
        r.border = borderModeName(request.params.border);
    const int threads = d->options.cpuThreads > 0 ? d->options.cpuThreads
                                                  : int(std::max(1u, std::thread::hardware_concurrency()));
    r.device = baseline == Baseline::OpenCvCpu ? "CPU, " + std::to_string(threads) + " threads" : d->info.name;
    if (input.isNull()) {
        r.error = "no input image";
        return r;
    }
    if (cancel && cancel->load(std::memory_order_relaxed)) {
        r.cancelled = true;
        r.error = "run cancelled";
        return r;
    }
    try {
        const Image src = input.format() == request.params.format ? input : input.convertedTo(request.params.format);
        OpenCvRun run;
        if (baseline == Baseline::OpenCvCpu) {
            run = runOpenCvCpu(src, *filter, request.params, threads, request.repeat, request.warmup);
        } else {
            ClHandles handles;
            cl_platform_id platform = nullptr; // plain C: CLHPP versions disagree on getInfo's type here
            clGetDeviceInfo(d->device(), CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr);
            handles.platform = platform;
            handles.context = d->context();
            handles.device = d->device();
            handles.platformName = d->info.platformName;
            run = runOpenCvTapi(src, *filter, request.params, handles, d->openCvTapi, request.repeat, request.warmup);
            if (!run.deviceName.empty())
                r.device = run.deviceName;
        }
        r.baselineCall = run.call;
        if (!run.error.empty()) {
            r.unavailable = run.unavailable;
            r.error = run.error;
            return r;
        }
        r.kernelMs = Stats::of(run.opMs);
        r.uploadMs = run.uploadMs;
        r.downloadMs = run.downloadMs;
        r.totalMs = run.uploadMs + r.kernelMs.median + run.downloadMs;
        const std::size_t pixelBytes = src.sizeBytes();
        r.bytesMoved = 2.0 * double(pixelBytes);
        if (r.kernelMs.median > 0) {
            r.mpixPerS = double(src.width()) * double(src.height()) / (r.kernelMs.median * 1e-3) / 1e6;
            r.gbps = r.bytesMoved / (r.kernelMs.median * 1e-3) / 1e9;
        }
        r.cpuThreads = threads;
        double cpuMs = 0;
        const Image multi = cpuReference(src, *filter, request.params, threads, &cpuMs);
        r.cpuMultiMs = cpuMs;
        d->fillCpuBest(r, src, *filter, request, threads);
        if (request.check) {
            const Image oracle = request.cpuSingle ? cpuReference(src, *filter, request.params, 1, &cpuMs) : multi;
            if (request.cpuSingle)
                r.cpuSingleMs = cpuMs;
            r.checked = true;
            r.maxAbsDiff = maxAbsDiff(run.output, oracle, &r.meanAbsDiff);
            r.matches = r.maxAbsDiff >= 0 && r.maxAbsDiff <= r.tolerance;
        }
        if (request.keepOutput)
            r.output = std::move(run.output);
    } catch (...) {
        recordCurrentException(r);
    }
    return r;
}

} // namespace fwb
