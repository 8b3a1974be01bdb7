#include "run/TilePlan.h"

#include "Error.h"
#include "runtime/RunSupport.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace fwb {

TilePlan planTiles(const TilePlanInput &in)
{
    const int w = in.width, h = in.height, halo = in.halo;
    const std::uint64_t unit = std::max<std::uint64_t>(1, in.bytesPerPixel);
    const std::uint64_t maxAlloc = in.maxAlloc;
    const int streams = std::max(1, in.streams);

    // Tile size (output pixels): the one asked for, else the largest that fits every slot's buffers,
    // at most 8 Mpixel (smaller tiles overlap better; launches cost a few microseconds each).
    std::int64_t tw = in.requestedWidth > 0 ? std::min(in.requestedWidth, w) : 0;
    std::int64_t th = in.requestedHeight > 0 ? std::min(in.requestedHeight, h) : 0;
    if (tw == 0 && th > 0)
        tw = w;
    if (th == 0 && tw > 0 && in.requestedWidth > 0)
        th = h;
    if (tw == 0 || th == 0) {
        std::uint64_t maxPixels = std::uint64_t(8) << 20;
        if (maxAlloc)
            maxPixels = std::min(maxPixels, maxAlloc / unit);
        if (in.globalMem)
            maxPixels = std::min(maxPixels, in.globalMem * 3 / 4 / std::uint64_t(streams)
                                                / std::max<std::uint64_t>(1, in.slotBytesPerPixel));
        const std::int64_t span = 2 * std::int64_t(halo);
        if (in.images)
            maxPixels = std::min<std::uint64_t>(maxPixels, std::uint64_t(in.imageMaxWidth) * in.imageMaxHeight);
        if (std::uint64_t(w + span) * std::uint64_t(span + 16) <= maxPixels
            && (!in.images || std::size_t(w + span) <= in.imageMaxWidth))
            tw = w;
        else
            tw = std::int64_t(std::sqrt(double(maxPixels))) - span;
        th = tw > 0 ? std::int64_t(maxPixels / std::uint64_t(tw + span)) - span : 0;
        if (in.images)
            th = std::min<std::int64_t>(th, std::int64_t(in.imageMaxHeight) - span);
        th = std::min<std::int64_t>(th, h);
        tw = std::min<std::int64_t>(tw, w);
    }
    const std::uint64_t slotBytes = std::uint64_t(std::max<std::int64_t>(0, std::min<std::int64_t>(w, tw + 2 * halo)))
                                    * std::uint64_t(std::max<std::int64_t>(0, std::min<std::int64_t>(h, th + 2 * halo))) * unit;
    if (tw < 1 || th < 1 || (maxAlloc && slotBytes > maxAlloc))
        throw Error("no tile fits: a " + std::to_string(std::max<std::int64_t>(tw, 1)) + "x"
                        + std::to_string(std::max<std::int64_t>(th, 1)) + " tile with its " + std::to_string(halo)
                        + "-pixel halo needs " + runtime::mib(std::max<std::uint64_t>(slotBytes, unit))
                        + " per buffer; the device allows " + runtime::mib(maxAlloc) + " in one allocation",
                    CL_INVALID_BUFFER_SIZE);
    // Each tile costs launches, copies and bookkeeping: --tile 1x1 on 1920x1080 would be two million.
    constexpr std::int64_t kMaxTiles = 65536;
    const std::int64_t count = std::int64_t((w + tw - 1) / tw) * std::int64_t((h + th - 1) / th);
    if (count > kMaxTiles)
        throw Error("a " + std::to_string(tw) + "x" + std::to_string(th) + " tile makes " + std::to_string(count)
                    + " tiles of this image (at most " + std::to_string(kMaxTiles) + "); use larger tiles");
    TilePlan plan;
    plan.tileWidth = int(tw);
    plan.tileHeight = int(th);
    plan.cols = int((w + tw - 1) / tw);
    plan.rows = int((h + th - 1) / th);
    plan.tiles = plan.cols * plan.rows;
    plan.slots = std::min(streams, plan.tiles);
    plan.capWidth = int(std::min<std::int64_t>(w, tw + 2 * halo));
    plan.capHeight = int(std::min<std::int64_t>(h, th + 2 * halo));
    return plan;
}

TileGeometry tileGeometry(const TilePlanInput &in, const TilePlan &plan, int t)
{
    const int w = in.width, h = in.height, halo = in.halo;
    TileGeometry g{};
    g.tx = (t % plan.cols) * plan.tileWidth;
    g.ty = (t / plan.cols) * plan.tileHeight;
    g.cw = std::min(plan.tileWidth, w - g.tx);
    g.chh = std::min(plan.tileHeight, h - g.ty);
    g.ix = std::max(0, g.tx - halo);
    g.iy = std::max(0, g.ty - halo);
    g.iw = std::min(w, g.tx + g.cw + halo) - g.ix;
    g.ih = std::min(h, g.ty + g.chh + halo) - g.iy;
    // The tile's own pixels (its halo dropped) go to their place in the output; a transpose's tile
    // (no halo) lands transposed.
    g.bx = std::size_t(g.tx - g.ix);
    g.by = std::size_t(g.ty - g.iy);
    g.hx = in.transposed ? std::size_t(g.ty) : std::size_t(g.tx);
    g.hy = in.transposed ? std::size_t(g.tx) : std::size_t(g.ty);
    g.rw = std::size_t(in.transposed ? g.chh : g.cw);
    g.rh = std::size_t(in.transposed ? g.cw : g.chh);
    return g;
}

} // namespace fwb
