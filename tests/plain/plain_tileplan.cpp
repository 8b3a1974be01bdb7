// The tile planner (core/run/TilePlan): sizes chosen and asked for, limits refused with their reason,
// and every output pixel covered exactly once by some tile's kept rectangle, transposed or not.
#include "Check.h"
#include "run/TilePlan.h"

#include <vector>

using namespace fwb;

namespace {

// Each output pixel must be written by exactly one tile, and each tile's input must hold its output
// plus the halo (clipped at the image's edges).
void checkCoverage(const TilePlanInput &in, const TilePlan &plan)
{
    const int outW = in.transposed ? in.height : in.width, outH = in.transposed ? in.width : in.height;
    std::vector<int> hits(std::size_t(outW) * std::size_t(outH), 0);
    for (int t = 0; t < plan.tiles; ++t) {
        const TileGeometry g = tileGeometry(in, plan, t);
        CHECK(g.ix >= 0 && g.iy >= 0 && g.ix + g.iw <= in.width && g.iy + g.ih <= in.height);
        CHECK(g.iw <= plan.capWidth && g.ih <= plan.capHeight);
        CHECK(g.ix <= g.tx - std::min(in.halo, g.tx));
        CHECK(g.ix + g.iw >= std::min(in.width, g.tx + g.cw + in.halo));
        CHECK_EQ(int(g.bx), g.tx - g.ix);
        for (std::size_t y = 0; y < g.rh; ++y)
            for (std::size_t x = 0; x < g.rw; ++x)
                ++hits[(g.hy + y) * std::size_t(outW) + g.hx + x];
    }
    int wrong = 0;
    for (int h : hits)
        wrong += h != 1;
    CHECK_EQ(wrong, 0);
}

void requestedSize()
{
    TilePlanInput in{.width = 1000, .height = 700, .halo = 2, .requestedWidth = 256, .requestedHeight = 300};
    const TilePlan plan = planTiles(in);
    CHECK_EQ(plan.tileWidth, 256);
    CHECK_EQ(plan.tileHeight, 300);
    CHECK_EQ(plan.cols, 4);
    CHECK_EQ(plan.rows, 3);
    CHECK_EQ(plan.tiles, 12);
    CHECK_EQ(plan.slots, 3);
    CHECK_EQ(plan.capWidth, 260);
    CHECK_EQ(plan.capHeight, 304);
    checkCoverage(in, plan);
    in.requestedHeight = 0; // a width alone: tiles the full height
    const TilePlan columns = planTiles(in);
    CHECK_EQ(columns.tileHeight, 700);
    CHECK_EQ(columns.tiles, 4);
    in.requestedWidth = 5000; // larger than the image: one tile
    in.requestedHeight = 5000;
    CHECK_EQ(planTiles(in).tiles, 1);
}

void chosenSizeFitsTheAllocation()
{
    TilePlanInput in{.width = 6720,
                     .height = 4480,
                     .halo = 3,
                     .bytesPerPixel = 4,
                     .slotBytesPerPixel = 8,
                     .maxAlloc = std::uint64_t(16) << 20};
    const TilePlan plan = planTiles(in);
    CHECK(plan.tiles > 1);
    CHECK(std::uint64_t(plan.capWidth) * std::uint64_t(plan.capHeight) * 4 <= in.maxAlloc);
    checkCoverage(in, plan);
    in.maxAlloc = 0; // no limit: one 8-Mpixel budget still cuts a 30-Mpixel image
    CHECK(planTiles(in).tiles > 1);
    in.width = 640;
    in.height = 480;
    CHECK_EQ(planTiles(in).tiles, 1);
}

void imagesStayWithinImageLimits()
{
    const TilePlanInput in{
        .width = 9000, .height = 3000, .halo = 1, .images = true, .imageMaxWidth = 4096, .imageMaxHeight = 4096};
    const TilePlan plan = planTiles(in);
    CHECK(plan.capWidth <= 4096 && plan.capHeight <= 4096);
    checkCoverage(in, plan);
}

void transposedTilesLandTransposed()
{
    const TilePlanInput in{
        .width = 333, .height = 211, .requestedWidth = 64, .requestedHeight = 50, .transposed = true};
    checkCoverage(in, planTiles(in));
}

void oddSizesAndHalos()
{
    for (int w : {1, 2, 7, 97})
        for (int h : {1, 3, 64})
            for (int halo : {0, 1, 5})
                for (int tile : {1, 3, 16}) {
                    const TilePlanInput in{
                        .width = w, .height = h, .halo = halo, .requestedWidth = tile, .requestedHeight = tile};
                    checkCoverage(in, planTiles(in));
                }
}

void impossiblePlansRefused()
{
    // maxAlloc 100: not even a tile's halo fits
    TilePlanInput in{.width = 1920, .height = 1080, .halo = 8, .bytesPerPixel = 4, .maxAlloc = 100};
    CHECK_THROWS_WITH(planTiles(in), "no tile fits");
    in.maxAlloc = 0;
    in.requestedWidth = 1;
    in.requestedHeight = 1; // two million tiles
    CHECK_THROWS_WITH(planTiles(in), "use larger tiles");
}

} // namespace

int main()
{
    requestedSize();
    chosenSizeFitsTheAllocation();
    imagesStayWithinImageLimits();
    transposedTilesLandTransposed();
    oddSizesAndHalos();
    impossiblePlansRefused();
    return fwb::plain::finish("plain_tileplan");
}
