// Tiled runs: an image larger than the device allows (or asked for tiles) streamed through slots of
// queues and buffers, with halos, so uploads, kernels and downloads of neighbouring tiles overlap.
#include "run/TilePlan.h"
#include "runtime/SessionImpl.h"

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
    TilePlanInput in;
    in.width = w;
    in.height = h;
    in.halo = halo;
    in.bytesPerPixel = unit;
    in.slotBytesPerPixel = 2 * std::uint64_t(ch) + (usesTemps ? 2 * unit : 0); // one slot's buffers
    in.maxAlloc = info.maxAllocSize;
    if (request.maxAllocBytes && (!in.maxAlloc || request.maxAllocBytes < in.maxAlloc))
        in.maxAlloc = request.maxAllocBytes;
    in.globalMem = info.globalMemSize;
    in.streams = std::clamp(request.streams, 1, 8);
    in.requestedWidth = request.tileWidth;
    in.requestedHeight = request.tileHeight;
    in.images = variant.usesImages;
    in.imageMaxWidth = info.image2dMaxWidth;
    in.imageMaxHeight = info.image2dMaxHeight;
    in.transposed = transposed;
    const TilePlan plan = planTiles(in);
    const int tw = plan.tileWidth, th = plan.tileHeight, tiles = plan.tiles, slots = plan.slots;
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
    const int capW = plan.capWidth, capH = plan.capHeight;
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
    auto geometry = [&](int t) { return tileGeometry(in, plan, t); };
    auto finishAll = [&]() noexcept {
        for (TileSlot &slot : tileSlots)
            try {
                slot.queue.finish();
            } catch (const cl::Error &) {
            }
    };
    RepeatTimes times(launches.size());
    std::vector<double> overlaps, stagings, stageSums;
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
                passGlobal(variant, pass, curW, curH, src.format(), info.kind == DeviceKind::Cpu, global);
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
        double up = 0, down = 0;
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
        const double wall = msBetween(t0, t1);
        const double kernel = times.add(up, passSum, down, wall);
        stagings.push_back(staging);
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
    times.fill(r);
    r.stagingMs = staged ? Stats::of(stagings).median : 0.0;
    r.stagesMs = Stats::of(stageSums).median;
    r.overlapPct = Stats::of(overlaps).median;
}

} // namespace fwb
