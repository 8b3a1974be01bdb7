// morphology.cl: erode (minimum) and dilate (maximum) over a square (2*MORPH_RADIUS+1)^2 window,
// per channel, exact. The host passes -DMORPH_RADIUS=r (so loops and tile sizes are compile-time)
// and -DMORPH_DILATE=0|1. Out-of-image pixels follow BORDER (constant: they count as 0).
#include "common.clh"
#include "pixels8.clh"

#ifndef MORPH_RADIUS
#define MORPH_RADIUS 1
#endif
#if MORPH_DILATE
#define MORPH_OP(a, b) max(a, b)
#define MORPH_IDENTITY UPIX_ZERO
#else
#define MORPH_OP(a, b) min(a, b)
#define MORPH_IDENTITY UPIX_MAX
#endif
#define MORPH_K (2 * MORPH_RADIUS + 1)

// Every window pixel read from global memory: (2r+1)^2 reads and min/max per output pixel.
kernel void morph_naive(global const uchar *src, global uchar *dst, int width, int height,
                        constant float *coeffs, int radius, float4 params)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    upix_t acc = MORPH_IDENTITY;
    for (int dy = -MORPH_RADIUS; dy <= MORPH_RADIUS; ++dy)
        for (int dx = -MORPH_RADIUS; dx <= MORPH_RADIUS; ++dx)
            acc = MORPH_OP(acc, fwb_load8_border(src, x + dx, y + dy, width, height));
    fwb_store8(dst, y * width + x, acc);
}

// A square window's min is the min over rows of the min along each row: a row pass then a column
// pass, 2(2r+1) reads per pixel instead of (2r+1)^2 - exact, border rule included, because the
// border maps x and y independently.
kernel void morph_rows(global const uchar *src, global uchar *dst, int width, int height,
                       constant float *coeffs, int radius, float4 params)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    upix_t acc = MORPH_IDENTITY;
    for (int dx = -MORPH_RADIUS; dx <= MORPH_RADIUS; ++dx)
        acc = MORPH_OP(acc, fwb_load8_border(src, x + dx, y, width, height));
    fwb_store8(dst, y * width + x, acc);
}

kernel void morph_columns(global const uchar *src, global uchar *dst, int width, int height,
                          constant float *coeffs, int radius, float4 params)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    upix_t acc = MORPH_IDENTITY;
    for (int dy = -MORPH_RADIUS; dy <= MORPH_RADIUS; ++dy)
        acc = MORPH_OP(acc, fwb_load8_border(src, x, y + dy, width, height));
    fwb_store8(dst, y * width + x, acc);
}

#if defined(TILE_W) && defined(TILE_H)
#define MORPH_TW (TILE_W + 2 * MORPH_RADIUS)
#define MORPH_TH (TILE_H + 2 * MORPH_RADIUS)
// One launch: the tile plus an r-pixel halo is staged in __local, reduced along rows into a second
// local array (MORPH_TH x TILE_W), then along columns - the separable split without the global
// round trip. Local memory grows as (16 + 2r)^2 raw pixels: 23 KiB for rgba8888 at r = 30.
kernel void morph_local(global const uchar *src, global uchar *dst, int width, int height,
                        constant float *coeffs, int radius, float4 params)
{
    local upix_t tile[MORPH_TH][MORPH_TW];
    local upix_t rows[MORPH_TH][TILE_W];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int originX = (int)get_group_id(0) * TILE_W - MORPH_RADIUS;
    const int originY = (int)get_group_id(1) * TILE_H - MORPH_RADIUS;
    for (int ty = ly; ty < MORPH_TH; ty += TILE_H)
        for (int tx = lx; tx < MORPH_TW; tx += TILE_W)
            tile[ty][tx] = fwb_load8_border(src, originX + tx, originY + ty, width, height);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int ty = ly; ty < MORPH_TH; ty += TILE_H) {
        upix_t acc = MORPH_IDENTITY;
        for (int dx = 0; dx < MORPH_K; ++dx)
            acc = MORPH_OP(acc, tile[ty][lx + dx]);
        rows[ty][lx] = acc;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    upix_t acc = MORPH_IDENTITY;
    for (int dy = 0; dy < MORPH_K; ++dy)
        acc = MORPH_OP(acc, rows[ly + dy][lx]);
    fwb_store8(dst, y * width + x, acc);
}
#endif
