// A catalogue variant run on an image: the work-group check, then upload -> kernel passes -> download,
// timed by profiling events, checked against the CPU reference. Every OpenCL exception becomes a
// RunResult error carrying the OpenCL error name (and the build log for build failures).
#include "runtime/SessionImpl.h"
#include "WorkerProcess.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <new>
#include <set>
#include <thread>

namespace fwb {

using namespace runtime;

std::string Session::checkLaunch(const RunRequest &request, int width, int height, std::string *buildLog)
{
    const FilterSpec *filter = findFilter(request.filter);
    const VariantSpec *variant = request.variantOverride ? request.variantOverride.get()
                                 : filter ? filter->variant(request.variant) : nullptr;
    if (!variant)
        return "unknown filter/variant " + request.filter + "/" + request.variant;
    if (std::string why = variantUnavailableReason(*variant, d->info, request.params.format); !why.empty())
        return why;
    if (filter->paramsProblem)
        if (std::string why = filter->paramsProblem(request.params); !why.empty())
            return why;
    std::optional<TunedLaunch> tunedLaunch = d->tuned(request, width, height);
    const VariantSpec *const asked = variant;
    for (;;) {
        try {
            std::shared_ptr<const VariantSpec> changedBlock;
            variant = d->launchVariant(*asked, request, tunedLaunch, changedBlock);
            const std::optional<LocalSize> tuned = tunedLaunch ? std::optional(tunedLaunch->local) : std::nullopt;
            const LocalSize tile = d->tileLocal(*variant, request.local, tuned, request.params.format);
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
    return run(input, request, OutputStorage(), cancel);
}

RunResult Session::run(const Image &input, const RunRequest &request, const OutputStorage &outputStorage,
                       const std::atomic<bool> *cancel)
{
    return run(input, request, outputStorage, cancel, FirstOutput());
}

RunResult Session::run(const Image &input, const RunRequest &request, const OutputStorage &outputStorage,
                       const std::atomic<bool> *cancel, const FirstOutput &firstOutput)
{
    if (d->options.runElsewhere) {
        RunResult r = d->options.runElsewhere(input, request, cancel);
        adoptHelperCpuFigures(r, request, input.width(), input.height()); // one CPU time in this process
        if (outputStorage && r.ok() && !r.output.isNull()) {
            try {
                Image out = outputStorage(r.output.width(), r.output.height(), r.output.format());
                r.output.convertInto(out);
                r.output = std::move(out);
            } catch (const std::exception &e) {
                r.error = e.what();
            }
        }
        return r;
    }
    // A former variant name runs that variant, and the result bears its name now.
    RunResult r = startResult(d->info, request.filter, currentVariantName(request.filter, request.variant), request.local);
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
    if (filter->paramsProblem)
        if (std::string why = filter->paramsProblem(request.params); !why.empty()) {
            r.unavailable = true;
            r.error = why;
            return r;
        }
    // 16-bit signed outputs (FilterSpec::wideOutput): the kernels write 2 bytes a pixel, downloaded into a
    // raw image of twice the width, checked exactly and shown through the family's 8-bit view.
    const bool wide = filter->writesWide(request.params);
    const std::size_t outElementBytes = wide ? 2 : 1;
    if (wide)
        r.tolerance = 0;
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
            tile = d->tileLocal(*variant, request.local, tuned, request.params.format);
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
        const std::size_t outPixelBytes = pixelBytes * outElementBytes; // the output buffer's bytes (unpadded)
        std::uint64_t maxAlloc = d->info.maxAllocSize;
        if (request.maxAllocBytes && (!maxAlloc || request.maxAllocBytes < maxAlloc))
            maxAlloc = request.maxAllocBytes;
        const std::size_t largestBuffer = std::max(outPixelBytes, usesTemps ? std::max(pixelBytes, tempBytes) : pixelBytes);
        const std::uint64_t deviceBytes = std::uint64_t(pixelBytes) + std::uint64_t(outPixelBytes)
                                          + (usesTemps ? 2 * std::uint64_t(tempBytes) : 0);
        const bool tooBig = (maxAlloc && largestBuffer > maxAlloc)
                            || pixelBytes > std::size_t(INT32_MAX) // kernels index the image with int
                            || (d->info.globalMemSize && deviceBytes > d->info.globalMemSize * 3 / 4)
                            || (variant->usesImages
                                && (std::size_t(w) > d->info.image2dMaxWidth || std::size_t(h) > d->info.image2dMaxHeight));
        const bool tiled = request.tileWidth > 0 || request.tileHeight > 0 || tooBig;
        if (tiled && wide)
            throw Error("the 16-bit output is not cut into tiles: run a smaller picture, or an 8-bit output ("
                            + std::string(tooBig ? "this one does not fit the device in one piece" : "tiles were asked for")
                            + ")",
                        CL_INVALID_BUFFER_SIZE);
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
        const std::size_t rowBytes = std::size_t(w) * std::size_t(ch),
                          outRowBytes = std::size_t(outRowPixels) * std::size_t(ch) * outElementBytes;
        const bool padded = variant->rowAlign > 0 && !tiled && !variant->usesImages
                            && (mode == TransferMode::Pageable || mode == TransferMode::Pinned);
        const std::size_t srcPitch = padded ? roundUp(rowBytes, std::size_t(variant->rowAlign)) : rowBytes;
        // 16-bit output rows: padded to twice the alignment, so that a vector of 16-bit values stays aligned.
        const std::size_t dstPitch = padded ? roundUp(outRowBytes, std::size_t(variant->rowAlign) * outElementBytes) : outRowBytes;
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
                dstBuf = d->hostVisible(d->visibleDst, outPixelBytes);
                break;
            case TransferMode::OutputMapped:
                srcBuf = d->buffer(Slot::Src, pixelBytes);
                dstBuf = d->hostVisible(d->visibleDst, outPixelBytes);
                break;
            case TransferMode::Svm:
                svmSrc = d->svm(d->svmSrc, pixelBytes);
                svmDst = d->svm(d->svmDst, outPixelBytes);
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
            passGlobal(*variant, pass, curW, curH, request.params.format, d->info.kind == DeviceKind::Cpu, launch.global);
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
        RepeatTimes times(launches.size());
        // --transfer pinned on an input already in page-locked memory (Session::pinnedImage): the copies and
        // the tiles DMA straight from it and into an output in page-locked memory too, no staging memcpy.
        const bool pinnedDirect = mode == TransferMode::Pinned && d->isPinnedHost(src.data(), pixelBytes);
        if (!pinnedDirect && d->pinnedOutputBlock.use_count() == 1)
            d->pinnedOutputBlock.reset(); // an ordinary image now: the page-locked output block goes
        // curW x curH: the last pass's output size. 16-bit outputs land in a raw image of twice the width
        // (their bytes as they are), which becomes the 8-bit picture after the check.
        Image out = wide           ? Image(curW * 2, curH, PixelFormat::Gray8)
                    : outputStorage ? outputStorage(curW, curH, src.format())
                    : pinnedDirect  ? d->pinnedOutputImage(curW, curH, src.format())
                                    : Image(curW, curH, src.format());
        if (!wide && (out.width() != curW || out.height() != curH || out.format() != src.format()))
            throw Error("the output storage has the wrong size or format");
        std::optional<WideOutput> wideOutput;
        if (wide)
            wideOutput.emplace(src, *filter, request.params);
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
        int warmups = std::max(0, request.warmup);
        int total = warmups + std::max(1, request.repeat);
        launching = true;
        std::vector<double> passMs(launches.size()); // one repeat's pass times, reused
        if (tiled && request.flushCache)
            r.transferNote += std::string(r.transferNote.empty() ? "" : "; ") + "cache not flushed: tiles stream through it";
        if (tiled) {
            d->runTiles(src, out, *filter, *variant, launches, coeffs, params4, uploadFrom, downloadTo,
                        filter->transposesOutput ? 0 : prepared.radius, request, cancelled, r);
        }
        for (int iter = 0; iter < (tiled ? 0 : total); ++iter) {
            if (cancelled()) {
                r.cancelled = true;
                throw Error("run cancelled");
            }
            const bool timed = iter >= warmups;
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
            if (request.flushCache) // after the copy above, which also passes through the cache
                d->flushDeviceCache();
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
            if (iter == 0 && firstOutput) {
                if (wide)
                    wideOutput->deliverFirst(out, downloadTo, request.check, r, firstOutput);
                else
                    deliverFirstOutput(*this, d->options.cpuThreads, src, out, downloadTo, *filter, request, r, firstOutput);
                if (warmups > 0) { // the check's CPU work ran on these caches: warm them again, untimed
                    ++warmups;
                    ++total;
                }
            }
            if (!timed)
                continue;
            for (std::size_t p = 0; p < launches.size(); ++p)
                passMs[p] = launches[p].empty ? 0.0 : eventMs(passEvents[p]);
            times.add(!uploaded ? 0.0 : upHostMs >= 0 ? upHostMs : eventMs(upEvent), passMs,
                      downHostMs >= 0 ? downHostMs : eventMs(downEvent), msBetween(t0, t1));
        }
        launching = false;
        if (downloadTo != out.data()) {
            const auto s0 = Clock::now();
            hostCopyPool().copy(out.data(), downloadTo, out.sizeBytes());
            r.stagingMs += msBetween(s0, Clock::now());
        }
        if (!tiled) {
            times.fill(r);
        }
        r.endToEndMs = r.totalMs + (mode == TransferMode::Pinned && !tiled ? r.stagingMs : 0.0); // tiles: inside totalMs
        if (r.uploadMs > 0)
            r.uploadGBps = double(pixelBytes) / (r.uploadMs * 1e-3) / 1e9;
        if (r.downloadMs > 0)
            r.downloadGBps = double(outBytes) / (r.downloadMs * 1e-3) / 1e9;
        d->fillProbePercent(r, mode);
        const double pixels = double(w) * double(h);
        r.bytesMoved = double(pixelBytes) + double(outPixelBytes); // from the image, not the NDRange (PixelsX4 launches W/4)
        if (r.kernelMs.median > 0) {
            r.mpixPerS = pixels / (r.kernelMs.median * 1e-3) / 1e6;
            r.gbps = r.bytesMoved / (r.kernelMs.median * 1e-3) / 1e9;
        }

        // CPU baseline (multi-threaded) and oracle (single-threaded, same border rule and rounding); a run
        // that wants neither speedups nor a check (apply) skips both.
        const int threads = d->options.cpuThreads > 0 ? d->options.cpuThreads
                                                      : int(std::max(1u, std::thread::hardware_concurrency()));
        if (request.cpuBaseline || request.check || request.cpuSingle) {
            r.cpuThreads = threads;
            double cpuMs = 0;
            const Image multi = cpuReference(src, *filter, request.params, threads, &cpuMs);
            r.cpuMultiMs = cpuMs;
            d->fillCpuBest(r, src, *filter, request, threads);
            // The oracle is the single-threaded reference; when its timing is not wanted, the multi-threaded
            // baseline stands in for it where it is bit-identical (tst_cpureference asserts which are), else
            // the family's exact multi-threaded path (checkReference()).
            const Image oracle = request.cpuSingle ? cpuReference(src, *filter, request.params, 1, &cpuMs)
                                 : request.check && !wide ? checkReference(src, *filter, request.params, threads)
                                                 : multi;
            if (request.cpuSingle)
                r.cpuSingleMs = cpuMs;
            if (request.check && !wide) {
                r.checked = true;
                r.maxAbsDiff = maxAbsDiff(out, oracle, &r.meanAbsDiff);
                r.matches = r.maxAbsDiff >= 0 && r.maxAbsDiff <= filter->tolerance;
            }
        }
        if (wide) { // the values checked; what is shown and saved is the family's 8-bit picture of them
            const std::vector<std::int16_t> values = WideOutput::values(out);
            if (request.check)
                wideOutput->check(values, r);
            Image view = wideOutput->view(values, curW, curH);
            if (outputStorage) {
                Image stored = outputStorage(curW, curH, view.format());
                view.convertInto(stored);
                view = std::move(stored);
            }
            out = std::move(view);
            char written[32];
            std::snprintf(written, sizeof written, "%.*f MB", outPixelBytes < 10'000'000 ? 2 : 1, double(outPixelBytes) / 1e6);
            r.outputNote = "16-bit output (" + std::string(written) + " written), every value checked exactly; shown, "
                           "as the CPU code writes it, in 8 bits";
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

} // namespace fwb
