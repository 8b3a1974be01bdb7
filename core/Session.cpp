// Session implementation: program lookup, launch-geometry rules, buffer reuse, profiling-event timing,
// the CPU baseline and the correctness check. Every OpenCL exception is caught here and becomes a
// RunResult error carrying the OpenCL error name (and the build log for build failures).
#include "Session.h"

#include "ClDevice.h"
#include "CpuReference.h"
#include "Error.h"
#include "KernelSources.h"
#include "ProgramCache.h"

#include <algorithm>
#include <cstring>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
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

namespace {

using Clock = std::chrono::steady_clock;

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
struct PassShape
{
    LocalSize local;
    LocalSource source = LocalSource::Default;
};

PassShape resolvePassShape(const DeviceInfo &device, GlobalRule globalRule, bool oneDimensional, bool mixed,
                           const LocalSize &requested, const std::optional<LocalSize> &tuned,
                           std::size_t kernelMaxItems, std::size_t gx, std::size_t gy,
                           const LocalSize &preferred = LocalSize{})
{
    const std::size_t maxItems = std::min(kernelMaxItems ? kernelMaxItems : std::size_t(256),
                                          device.maxWorkGroupSize ? device.maxWorkGroupSize : std::size_t(256));
    if (requested.isDriver())
        return {LocalSize::driverChoice(), LocalSource::Driver};
    if (requested.isConcrete() && !(mixed && oneDimensional && requested.height != 1))
        return {requested, LocalSource::User};
    if (requested.isAuto() && tuned && tuned->isConcrete() && (!oneDimensional || tuned->height == 1))
        return {*tuned, LocalSource::Tuned};
    if (preferred.isConcrete() && (!oneDimensional || preferred.height == 1))
        return {clampLocalSize(preferred, maxItems), LocalSource::Default};
    if (globalRule == GlobalRule::Exact)
        return {dividingLocalSize(gx, oneDimensional ? 1 : gy, maxItems), LocalSource::Default};
    return {clampLocalSize(defaultLocalSize(device, oneDimensional), maxItems), LocalSource::Default};
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
    bool uploadedIsImage = false;
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

    void *pinned(PinnedHost &host, std::size_t bytes)
    {
        if (host.ptr && host.bytes == bytes)
            return host.ptr;
        release(host);
        host.buffer = cl::Buffer(context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
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
        try {
            release(pinnedIn);
            release(pinnedOut);
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
            entry.buffer = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
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

    std::optional<LocalSize> tuned(const RunRequest &request, int width, int height) const
    {
        if (!options.tunedLocal || !request.local.isAuto())
            return std::nullopt;
        try {
            return options.tunedLocal(info, request, width, height);
        } catch (const std::exception &) {
            return std::nullopt; // a broken tuning database never stops a run
        }
    }

    cl::Buffer &coefficients(const std::vector<float> &coeffs)
    {
        const std::vector<float> data = coeffs.empty() ? std::vector<float>{0.0f} : coeffs;
        if (!coeffBuffer() || data != coeffUploaded) {
            coeffBuffer = cl::Buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(float),
                                     const_cast<float *>(data.data()));
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
        return cap >= 256 ? LocalSize{16, 16} : cap >= 64 ? LocalSize{8, 8} : LocalSize{4, 4};
    }

    std::string buildOptions(const FilterSpec &filter, const VariantSpec &variant, const FilterParams &params,
                             const PreparedFilter &prepared, const LocalSize &local) const
    {
        std::string opts = "-DCHANNELS=" + std::to_string(channelCount(params.format))
                           + " -DBORDER=" + std::to_string(int(params.border));
        if (variant.blockWidth > 1 || variant.blockHeight > 1)
            opts += " -DBLOCK_W=" + std::to_string(variant.blockWidth) + " -DBLOCK_H=" + std::to_string(variant.blockHeight);
        if (variant.compiledWithTile())
            opts += " -DTILE_W=" + std::to_string(local.width) + " -DTILE_H=" + std::to_string(local.height);
        for (const std::string &d : prepared.defines)
            opts += " " + d;
        for (const std::string &d : variant.defines)
            opts += " -D" + d;
        if (variant.globalRule == GlobalRule::NonUniform)
            opts += " -cl-std=CL2.0";
        if (params.fastMath && variant.fastMathMatters)
            opts += " -cl-fast-relaxed-math";
        (void)filter;
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
    try {
        const std::optional<LocalSize> tuned = d->tuned(request, width, height);
        const LocalSize tile = d->tileLocal(*variant, request.local, tuned);
        const LocalSize local = variant->tiledLocal ? tile : request.local; // what would launch
        const PreparedFilter prepared = filter->prepare(request.params);
        const KernelSource source = request.sourceOverride.empty()
                                        ? loadKernelSource(variant->kernelFile, d->options.kernelDir)
                                        : assembleKernelSource(variant->kernelFile, request.sourceOverride, d->options.kernelDir);
        const std::string opts = d->buildOptions(*filter, *variant, request.params, prepared, tile);
        cl::Program program = d->programs.get(d->context, d->device, d->info, source.text, opts);
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

RunResult Session::run(const Image &input, const RunRequest &request, const std::atomic<bool> *cancel)
{
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
    try {
        const Image src = input.format() == request.params.format ? input : input.convertedTo(request.params.format);
        const int w = src.width(), h = src.height(), ch = src.channels();
        const std::size_t pixelBytes = std::size_t(w) * std::size_t(h) * std::size_t(ch);
        const std::optional<LocalSize> tuned = d->tuned(request, w, h);
        const LocalSize tile = d->tileLocal(*variant, request.local, tuned);
        local = variant->tiledLocal ? tile : request.local; // the shape requested of every pass
        const PreparedFilter prepared = filter->prepare(request.params);
        const KernelSource source = request.sourceOverride.empty()
                                        ? loadKernelSource(variant->kernelFile, d->options.kernelDir)
                                        : assembleKernelSource(variant->kernelFile, request.sourceOverride, d->options.kernelDir);
        r.buildOptions = d->buildOptions(*filter, *variant, request.params, prepared, tile);
        BuildInfo build;
        cl::Program program = d->programs.get(d->context, d->device, d->info, source.text, r.buildOptions, &build);
        r.buildMs = build.buildMs;
        r.buildOrigin = programOriginName(build.origin);
        r.buildCached = build.origin != ProgramOrigin::Compiled;

        if (variant->usesImages) {
            if (std::size_t(w) > d->info.image2dMaxWidth || std::size_t(h) > d->info.image2dMaxHeight)
                throw Error("image " + std::to_string(w) + "x" + std::to_string(h) + " exceeds the device's image2d limit ("
                            + std::to_string(d->info.image2dMaxWidth) + "x" + std::to_string(d->info.image2dMaxHeight) + ")",
                            CL_INVALID_IMAGE_SIZE);
            d->ensureImages(w, h, src.format());
        }
        cl::Buffer &srcBuf = d->buffer(Slot::Src, pixelBytes);
        cl::Buffer &dstBuf = d->buffer(Slot::Dst, pixelBytes);
        const std::size_t tempBytes = pixelBytes * (variant->tempType == TempType::Float32 ? sizeof(float) : 1);
        auto slotBuffer = [&](Slot slot) -> cl::Buffer & {
            switch (slot) {
            case Slot::Src: return srcBuf;
            case Slot::Dst: return dstBuf;
            default: return d->buffer(slot, tempBytes);
            }
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
            switch (pass.geometry) {
            case Geometry::Pixels:
                launch.global[0] = std::size_t(curW);
                launch.global[1] = std::size_t(curH);
                break;
            case Geometry::Transposed: // a blockWidth x blockHeight block per work-item (default 1x1)
                launch.global[0] = (std::size_t(curW) + std::size_t(variant->blockWidth) - 1) / std::size_t(variant->blockWidth);
                launch.global[1] = (std::size_t(curH) + std::size_t(variant->blockHeight) - 1) / std::size_t(variant->blockHeight);
                break;
            case Geometry::PixelsX4: // the kernel guards the last, partial group of four itself
                launch.global[0] = (std::size_t(curW) + 3) / 4;
                launch.global[1] = std::size_t(curH);
                break;
            case Geometry::Interior:
                launch.global[0] = std::size_t(std::max(0, curW - 2));
                launch.global[1] = std::size_t(std::max(0, curH - 2));
                break;
            case Geometry::Blocks:
                launch.global[0] = (std::size_t(curW) + std::size_t(variant->blockWidth) - 1) / std::size_t(variant->blockWidth);
                launch.global[1] = (std::size_t(curH) + std::size_t(variant->blockHeight) - 1) / std::size_t(variant->blockHeight);
                break;
            case Geometry::Columns:
                launch.dims = 1;
                launch.global[0] = std::size_t(curW);
                launch.global[1] = 1;
                break;
            }
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
            }
            if (std::string why = localSizeProblem(d->info, launch.local, limits); !why.empty()) {
                r.errorCode = "invalid work-group shape";
                throw Error(why);
            }
            if (variant->globalRule == GlobalRule::RoundUp && launch.local.isConcrete()) {
                launch.global[0] = roundUp(launch.global[0], std::size_t(launch.local.width));
                if (launch.dims == 2)
                    launch.global[1] = roundUp(launch.global[1], std::size_t(launch.local.height));
            }
            int arg = 0;
            if (variant->usesImages) {
                launch.kernel.setArg(arg++, d->srcImage);
                launch.kernel.setArg(arg++, d->dstImage);
            } else {
                launch.kernel.setArg(arg++, slotBuffer(pass.in));
                launch.kernel.setArg(arg++, slotBuffer(pass.out));
            }
            launch.kernel.setArg(arg++, cl_int(curW));
            launch.kernel.setArg(arg++, cl_int(curH));
            launch.kernel.setArg(arg++, coeffs);
            launch.kernel.setArg(arg++, cl_int(prepared.radius));
            launch.kernel.setArg(arg++, params4);
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
        const std::uint64_t hash = request.reuseUpload ? src.contentHash() : 0;
        const bool canSkipUpload = request.reuseUpload && hash == d->uploadedHash && d->uploadedIsImage == variant->usesImages;
        r.reuploaded = !canSkipUpload;
        std::vector<double> uploads, kernels, downloads, walls;
        std::vector<std::vector<double>> passTimes(launches.size());
        Image out(curW, curH, src.format()); // curW x curH: the last pass's output size
        // Where the copies read and write on the host: the images themselves, or pinned staging
        // buffers filled once per run (the staging memcpy is reported apart, as stagingMs).
        const std::uint8_t *uploadFrom = src.data();
        std::uint8_t *downloadTo = out.data();
        if (request.pinnedTransfers) {
            // Allocating and page-locking happens once per image size and session (like a build, not
            // part of a run's cost); the memcpy into the staging buffer is what each new image pays.
            std::uint8_t *stagingIn = static_cast<std::uint8_t *>(d->pinned(d->pinnedIn, pixelBytes));
            downloadTo = static_cast<std::uint8_t *>(d->pinned(d->pinnedOut, pixelBytes));
            if (!canSkipUpload) { // the image already on the device needs no staging either
                const auto s0 = Clock::now();
                std::memcpy(stagingIn, src.data(), pixelBytes);
                r.stagingMs = msBetween(s0, Clock::now());
            }
            uploadFrom = stagingIn;
            r.transfer = "pinned";
        }
        const int total = std::max(0, request.warmup) + std::max(1, request.repeat);
        launching = true;
        for (int iter = 0; iter < total; ++iter) {
            if (cancelled()) {
                r.cancelled = true;
                throw Error("run cancelled");
            }
            const bool timed = iter >= std::max(0, request.warmup);
            const auto t0 = Clock::now();
            cl::Event upEvent;
            bool uploaded = false;
            if (!canSkipUpload) {
                if (variant->usesImages)
                    d->queue.enqueueWriteImage(d->srcImage, CL_FALSE, {0, 0, 0}, {std::size_t(w), std::size_t(h), 1}, 0, 0,
                                               const_cast<std::uint8_t *>(uploadFrom), nullptr, &upEvent);
                else
                    d->queue.enqueueWriteBuffer(srcBuf, CL_FALSE, 0, pixelBytes, uploadFrom, nullptr, &upEvent);
                uploaded = true;
            }
            if (filter->copySourceToDst && !variant->usesImages)
                d->queue.enqueueCopyBuffer(srcBuf, dstBuf, 0, 0, pixelBytes);
            std::vector<cl::Event> passEvents(launches.size());
            for (std::size_t p = 0; p < launches.size(); ++p) {
                const PassLaunch &launch = launches[p];
                if (launch.empty)
                    continue;
                const cl::NDRange global = launch.dims == 1 ? cl::NDRange(launch.global[0])
                                                            : cl::NDRange(launch.global[0], launch.global[1]);
                cl::NDRange localRange = cl::NullRange;
                if (launch.local.isConcrete())
                    localRange = launch.dims == 1 ? cl::NDRange(std::size_t(launch.local.width))
                                                  : cl::NDRange(std::size_t(launch.local.width),
                                                                std::size_t(launch.local.height));
                d->queue.enqueueNDRangeKernel(launch.kernel, cl::NullRange, global, localRange, nullptr, &passEvents[p]);
                if (cancelled()) {
                    d->queue.finish();
                    r.cancelled = true;
                    throw Error("run cancelled");
                }
            }
            cl::Event downEvent;
            if (variant->usesImages)
                d->queue.enqueueReadImage(d->dstImage, CL_TRUE, {0, 0, 0}, {std::size_t(w), std::size_t(h), 1}, 0, 0,
                                          downloadTo, nullptr, &downEvent);
            else
                d->queue.enqueueReadBuffer(dstBuf, CL_TRUE, 0, pixelBytes, downloadTo, nullptr, &downEvent);
            const auto t1 = Clock::now();
            if (uploaded) {
                d->uploadedHash = hash;
                d->uploadedIsImage = variant->usesImages;
            }
            if (!timed)
                continue;
            uploads.push_back(uploaded ? eventMs(upEvent) : 0.0);
            double kernelSum = 0;
            for (std::size_t p = 0; p < launches.size(); ++p) {
                const double ms = launches[p].empty ? 0.0 : eventMs(passEvents[p]);
                passTimes[p].push_back(ms);
                kernelSum += ms;
            }
            kernels.push_back(kernelSum);
            downloads.push_back(eventMs(downEvent));
            walls.push_back(msBetween(t0, t1));
        }
        launching = false;
        if (downloadTo != out.data()) {
            const auto s0 = Clock::now();
            std::memcpy(out.data(), downloadTo, out.sizeBytes());
            r.stagingMs += msBetween(s0, Clock::now());
        }
        r.uploadMs = Stats::of(uploads).median;
        r.kernelMs = Stats::of(kernels);
        for (const auto &samples : passTimes)
            r.passMs.push_back(Stats::of(samples).median);
        r.downloadMs = Stats::of(downloads).median;
        r.totalMs = Stats::of(walls).median;
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
    } catch (...) {
        recordCurrentException(r);
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
            buffers.emplace_back(d->context, CL_MEM_READ_WRITE, std::max<std::size_t>(1, b.data.size()));
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
            if (std::string why = localSizeProblem(d->info, launch.local, limits); !why.empty()) {
                r.errorCode = "invalid work-group shape";
                throw Error(why);
            }
            if (variant->globalRule == GlobalRule::RoundUp && launch.local.isConcrete()) {
                launch.global[0] = roundUp(launch.global[0], std::size_t(launch.local.width));
                if (launch.dims == 2)
                    launch.global[1] = roundUp(launch.global[1], std::size_t(launch.local.height));
            }
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
                    const cl::NDRange global = launch.dims == 1 ? cl::NDRange(launch.global[0])
                                                                : cl::NDRange(launch.global[0], launch.global[1]);
                    cl::NDRange localRange = cl::NullRange;
                    if (launch.local.isConcrete())
                        localRange = launch.dims == 1 ? cl::NDRange(std::size_t(launch.local.width))
                                                      : cl::NDRange(std::size_t(launch.local.width),
                                                                    std::size_t(launch.local.height));
                    d->queue.enqueueNDRangeKernel(launch.kernel, cl::NullRange, global, localRange, nullptr,
                                                  &passEvents[p][std::size_t(step)]);
                }
                if (!problem.pingPong.empty()) {
                    // setArg copies the handle at enqueue time, so rebinding affects only later launches.
                    for (const auto &[first, second] : problem.pingPong)
                        std::swap(bound[std::size_t(first)], bound[std::size_t(second)]);
                    bindBuffers();
                }
            }
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
