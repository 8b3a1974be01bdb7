// Session::Impl: what one session owns (context, queue, programs, device and host memory pools, caches)
// and the helpers its runs share. Private to core/runtime and core/run; the public face is Session.h.
#pragma once

#include "Session.h"
#include "runtime/RunSupport.h"

#include "ClDevice.h"
#include "CpuReference.h"
#include "Error.h"
#include "KernelSources.h"
#include "NppBaseline.h"
#include "FaultInjection.h"
#include "ProgramCache.h"
#include "TileStream.h"
#include "VariantLimits.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace fwb {

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
    cl::Buffer flushBuffer; // flushDeviceCache's scratch
    std::size_t flushBytes = 0;
    cl_uint flushCount = 0;

    struct CpuEntry
    {
        Image output;
        double ms = 0;       // the first call's time; with `steady`, the median of the calls after it
        bool steady = false; // ms is the warm median (taken the first time a multi-threaded time is asked for)
    };
    std::map<std::string, CpuEntry> cpuCache; // the CPU reference's outputs, of one picture (cpuCachePicture)
    std::uint64_t cpuCachePicture = 0;
    // Keeps `entry` under `key`. Another picture: the last one's entries go (a big photo's outputs are
    // large); and a bound for many parameter sets on one picture.
    CpuEntry &storeCpu(std::uint64_t picture, const std::string &key, CpuEntry entry)
    {
        if (picture != cpuCachePicture || cpuCache.size() > 24)
            cpuCache.clear();
        cpuCachePicture = picture;
        return cpuCache[key] = std::move(entry);
    }

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
            throw Error("clSVMAlloc of " + runtime::mib(bytes) + " failed", CL_MEM_OBJECT_ALLOCATION_FAILURE);
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
        flushBuffer = cl::Buffer();
        srcImage = cl::Image2D();
        dstImage = cl::Image2D();
        imageWidth = imageHeight = 0;
        tileSlots.clear();
        pinnedOutputBlock.reset(); // a result may still hold it; it goes with that result
        visibleSrc = HostVisible();
        visibleDst = HostVisible();
        if (!releaseHostMemory()) {
            pinnedIn = pinnedOut = PinnedHost();
            tileStageIn.clear();
            tileStageOut.clear();
        }
        uploadedHash = 0;
    }

    void runTiles(const Image &src, Image &out, const FilterSpec &filter, const VariantSpec &variant,
                  std::vector<runtime::PassLaunch> &launches, const cl::Buffer &coeffs, const cl_float4 &params4,
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

    // Unmaps and frees the session's page-locked staging and SVM blocks; false when the device is lost
    // (it takes its mappings with it).
    bool releaseHostMemory() noexcept
    {
        try {
            release(pinnedIn);
            release(pinnedOut);
            releaseTileStaging();
            release(svmSrc);
            release(svmDst);
            return true;
        } catch (const cl::Error &) {
            return false;
        }
    }

    ~Impl()
    {
        pinnedOutputBlock.reset();
        releaseHostMemory();
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

    // RunRequest::flushCache: a scratch buffer of RunRequest::flushBytesFor (at most an eighth of the
    // device's memory and one allocation) filled on the queue, so the next kernel finds nothing of its
    // own in the cache.
    void flushDeviceCache()
    {
        if (!flushBuffer()) {
            std::uint64_t bytes = RunRequest::flushBytesFor(device.getInfo<CL_DEVICE_GLOBAL_MEM_CACHE_SIZE>());
            if (info.maxAllocSize)
                bytes = std::min<std::uint64_t>(bytes, info.maxAllocSize);
            if (info.globalMemSize)
                bytes = std::min<std::uint64_t>(bytes, info.globalMemSize / 8);
            bytes &= ~std::uint64_t(15);
            flushBuffer = cl::Buffer(context, CL_MEM_READ_WRITE, std::size_t(bytes));
            flushBytes = std::size_t(bytes);
        }
        queue.enqueueFillBuffer(flushBuffer, cl_uint(++flushCount), 0, flushBytes);
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

    // NPP's target: this session's device when it is an NVIDIA GPU, found again by PCI address.
    NppTarget nppTarget()
    {
        NppTarget t;
        t.deviceName = info.name;
        t.nvidia = info.kind == DeviceKind::Gpu && info.vendor.find("NVIDIA") != std::string::npos;
        if (t.nvidia) {
            constexpr cl_device_info pciBusNv = 0x4008, pciSlotNv = 0x4009; // cl_nv_device_attribute_query
            cl_uint bus = 0, slot = 0;
            if (clGetDeviceInfo(device(), pciBusNv, sizeof bus, &bus, nullptr) == CL_SUCCESS
                && clGetDeviceInfo(device(), pciSlotNv, sizeof slot, &slot, nullptr) == CL_SUCCESS) {
                t.pciBus = int(bus);
                t.pciSlot = int(slot);
            }
        }
        return t;
    }

    // OpenCV's CPU time for the same work: the process's CPU timing store's (CpuTimings.h), measured here
    // when the store has none yet (a failure remembered per work, not tried again), then the fastest CPU
    // result and the speedups against it (refreshCpuFigures: every figure read back from the store).
    std::set<std::string> openCvCpuFailed;
    std::shared_ptr<OpenCvTapiContext> openCvTapi; // declared after the context: released before it
    void fillCpuBest(RunResult &r, const Image &src, const FilterSpec &filter, const RunRequest &request, int threads)
    {
        r.cpuThreads = threads;
        r.cpuWork = cpuWorkKey(filter, request.params, src.width(), src.height());
        if (request.openCvCpuBaseline && openCvUnsupportedReason(filter, request.params).empty()) {
            CpuTiming t = cpuTimings().find(r.cpuWork, threads, CpuCode::OpenCv);
            if (!t.known() && !openCvCpuFailed.count(r.cpuWork)) {
                // median of 7 after 2 warm-ups: 3 after 1 read 0.59 ms for a call whose row (median of
                // 20) read 0.23 ms, on 16 threads at 1920x1080
                const OpenCvRun ocv = runOpenCvCpu(src, filter, request.params, threads, 7, 2);
                if (ocv.error.empty())
                    t = cpuTimings().add(r.cpuWork, threads, CpuCode::OpenCv, ocv.opMs);
                else
                    openCvCpuFailed.insert(r.cpuWork);
            }
            r.openCvCpuMs = t.known() ? t.ms : -1.0;
        }
        setCpuBest(r, r.openCvCpuMs);
        refreshCpuFigures(r); // the store's figures (the ones just measured, or better ones from before)
    }

    // The CPU reference cache's key: the picture's content and the work (cpuWorkKey), on `threads` threads.
    static std::string cpuKey(const Image &picture, const FilterSpec &filter, const FilterParams &params, int threads)
    {
        return std::to_string(picture.contentHash()) + "/" + cpuWorkKey(filter, params, picture.width(), picture.height())
               + "/" + std::to_string(threads);
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
        LocalSize block = request.block.isConcrete() ? request.block : tuned ? tuned->block : LocalSize{};
        const bool tunedBlock = !request.block.isConcrete() && block.isConcrete();
        // A GPU's own rows a work-item for 16-bit outputs (Sobel's gx): the variant's default there.
        if (!block.isConcrete() && variant.blockHeightGpuWide > 0 && info.kind != DeviceKind::Cpu)
            if (const FilterSpec *filter = findFilter(request.filter); filter && filter->writesWide(request.params))
                block = LocalSize{variant.blockWidthFor(request.params.format, false), variant.blockHeightGpuWide};
        if (block.isConcrete())
            changed = withOutputBlock(variant, block);
        const VariantSpec *launched = block.isConcrete() ? changed.get() : &variant;
        if (r) {
            r->block = LocalSize{launched->blockWidthFor(request.params.format, info.kind == DeviceKind::Cpu),
                                 launched->blockHeightFor(request.params.format, info.kind == DeviceKind::Cpu)};
            r->blockSource = request.block.isConcrete() ? LocalSource::User
                             : tunedBlock               ? LocalSource::Tuned
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
    LocalSize tileLocal(const VariantSpec &variant, const LocalSize &requested, const std::optional<LocalSize> &tuned,
                        PixelFormat format) const
    {
        if (!variant.compiledWithTile() || requested.isConcrete())
            return requested;
        if (requested.isAuto() && tuned && tuned->isConcrete())
            return *tuned;
        const std::size_t cap = info.maxWorkGroupSize ? info.maxWorkGroupSize : 256;
        const LocalSize preferred = variant.preferredLocalFor(format, info.kind == DeviceKind::Cpu);
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
        const int blockH = variant.blockHeightFor(params.format, info.kind == DeviceKind::Cpu);
        // Every block variant gets its block, 1x1 too: the kernels compile their block entry points only
        // with BLOCK_W and BLOCK_H defined, so without them a 1x1 block (run --block 1x1) built a program
        // lacking the kernel (CL_INVALID_KERNEL_NAME) instead of failing with the kernel's own reason.
        if (blockW > 1 || blockH > 1 || makesBlocks(variant))
            opts += " -DBLOCK_W=" + std::to_string(blockW) + " -DBLOCK_H=" + std::to_string(blockH);
        if (variant.compiledWithTile())
            opts += " -DTILE_W=" + std::to_string(local.width) + " -DTILE_H=" + std::to_string(local.height);
        for (const std::string &d : prepared.defines)
            opts += " " + d;
        for (const std::string &d : variant.defines)
            opts += " -D" + d;
        for (const std::string &key : variant.paramDefines) {
            std::string name = key;
            std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::toupper(c)); });
            opts += " -DFWB_PARAM_" + name + "=" + std::to_string(std::lround(filter.param(params, key)));
        }
        // Only the kernels this variant launches (kernels/shared/common.clh, FWB_ONLY_ENTRIES): a driver that
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
        // The architecture, for kernels whose instructions need one (gaussian_tensor.cl's mma.sync from sm_80); only
        // theirs, so that no other program's options (and cache key) change with it.
        if (variant.usesNvidiaArch && info.nvidiaComputeCapability > 0)
            opts += " -DFWB_NV_SM=" + std::to_string(info.nvidiaComputeCapability);
        if (variant.globalRule == GlobalRule::NonUniform)
            opts += " -cl-std=CL2.0";
        if (params.fastMath && variant.fastMathMatters)
            opts += " -cl-fast-relaxed-math";
        // For measuring what a build option costs or gains (issue 25: -cl-nv-opt-level, -cl-opt-disable):
        // appended to every program's options, so it is part of the program cache's key too.
        if (const char *extra = std::getenv("FWB_EXTRA_BUILD_OPTIONS"); extra && *extra)
            opts += " " + std::string(extra);
        return opts;
    }
};

// run/BaselineRun.cpp: Session::run's first launch (`downloaded`: where it landed, `out` or a staging
// buffer) copied into `out`, checked against the multi-threaded CPU reference and handed to `firstOutput`.
void deliverFirstOutput(Session &session, int cpuThreads, const Image &src, Image &out, const std::uint8_t *downloaded,
                        const FilterSpec &filter, const RunRequest &request, const RunResult &sofar,
                        const Session::FirstOutput &firstOutput);

// run/WideOutput.cpp: one run's 16-bit signed output (FilterSpec::wideOutput), downloaded as it is into `raw`, a
// Gray8 image twice the output's width: its values checked exactly (tolerance 0) against the family's wide
// reference, computed once a run, and turned into the family's 8-bit picture; deliverFirst: the first launch's,
// as deliverFirstOutput does (the picture and the reference's picture).
class WideOutput
{
public:
    WideOutput(const Image &src, const FilterSpec &filter, const FilterParams &params);
    static std::vector<std::int16_t> values(const Image &raw);
    void check(const std::vector<std::int16_t> &values, RunResult &r);
    Image view(const std::vector<std::int16_t> &values, int width, int height) const;
    void deliverFirst(Image &raw, const std::uint8_t *downloaded, bool check, const RunResult &sofar,
                      const Session::FirstOutput &firstOutput);

private:
    const std::vector<std::int16_t> &reference();
    const Image &m_src;
    const FilterSpec &m_filter;
    const FilterParams &m_params;
    std::vector<std::int16_t> m_reference;
    bool m_haveReference = false;
};

} // namespace fwb
