// The tile planner: how a tiled run cuts an image into output tiles with halos, and where each tile's
// input comes from and its kept pixels land. Pure (no OpenCL): tests/plain/plain_tileplan checks it directly.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fwb {

struct TilePlanInput
{
    int width = 0, height = 0;      // the image
    int halo = 0;                   // pixels each tile reads beyond its output on every side
    std::uint64_t bytesPerPixel = 1; // the largest buffer's unit (channels, times 4 for float temporaries)
    std::uint64_t slotBytesPerPixel = 2; // one slot's buffers together, per pixel
    std::uint64_t maxAlloc = 0;     // the device's (or the request's) largest allocation; 0: no limit
    std::uint64_t globalMem = 0;    // the device's memory; 0: unknown
    int streams = 3;                // slots the tiles rotate over (already clamped)
    int requestedWidth = 0, requestedHeight = 0; // the user's tile size; 0: choose
    bool images = false;            // image2d variants: tiles within the device's image limits
    std::size_t imageMaxWidth = 0, imageMaxHeight = 0;
    bool transposed = false;        // the filter's output is the input transposed
};

struct TilePlan
{
    int tileWidth = 0, tileHeight = 0; // output pixels per tile (the last row and column may be smaller)
    int cols = 0, rows = 0, tiles = 0;
    int slots = 0;                     // queues with their own buffers (at most `streams`, at most `tiles`)
    int capWidth = 0, capHeight = 0;   // the largest tile input, halo included: what a slot's buffers hold
};

// One tile's rectangles (tile t counts left to right, then top to bottom).
struct TileGeometry
{
    int tx, ty, cw, chh, ix, iy, iw, ih; // output rectangle, input rectangle (with halo)
    std::size_t bx, by, hx, hy, rw, rh;  // kept part in the tile's output, where it lands, its size
};

// Throws fwb::Error (CL_INVALID_BUFFER_SIZE) when no tile fits the allocation limit, and when the
// tiles would be more than 65,536.
TilePlan planTiles(const TilePlanInput &in);
TileGeometry tileGeometry(const TilePlanInput &in, const TilePlan &plan, int t);

} // namespace fwb
