// gaussian5x5.cl: the 5x5 Gaussian ladder of seed 004 (Fixstars CUDA seminar), one entry per variant.
// Every kernel: (src, dst, width, height, coeffs, radius, params); weights arrive as -DFWB_W0..FWB_W24
// (exact hex-float literals) and, for constant_memory, in the __constant coeffs table.
#include "common.clh"

#ifndef FWB_W0
#error "build with the 25 weights defined: -DFWB_W0=... -DFWB_W24=..."
#endif
#define FWB_WEIGHTS FWB_W0, FWB_W1, FWB_W2, FWB_W3, FWB_W4, FWB_W5, FWB_W6, FWB_W7, FWB_W8, FWB_W9, \
    FWB_W10, FWB_W11, FWB_W12, FWB_W13, FWB_W14, FWB_W15, FWB_W16, FWB_W17, FWB_W18, FWB_W19, \
    FWB_W20, FWB_W21, FWB_W22, FWB_W23, FWB_W24

// Two ways to read the neighbour (px, py): plain indexed load (window inside) or with the border rule.
#define LOAD_DIRECT(px, py) fwb_load(src, (py) * width + (px))
#define LOAD_BORDER(px, py) fwb_load_border(src, (px), (py), width, height)

// Weights in a kernel-local array indexed with a runtime loop bound: the compiler cannot resolve
// the indices, so the array lives in (slow, off-chip) private memory. Seed 004: 5.5x slower.
kernel void gaussian5x5_private_array(global const uchar *src, global uchar *dst, int width, int height,
                                      constant float *coeffs, int radius, float4 params)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    float filter[25] = {FWB_WEIGHTS};
    const int ks = 2 * radius + 1;
    pixel_t sum = PIXEL_ZERO;
#define ACCUMULATE(LOAD)                                                                          \
    for (int dy = 0; dy < ks; ++dy)                                                              \
        for (int dx = 0; dx < ks; ++dx)                                                          \
            sum += filter[dy * ks + dx] * LOAD(x + dx - radius, y + dy - radius);
    if (fwb_window_inside(x, y, radius, width, height)) {
        ACCUMULATE(LOAD_DIRECT)
    } else {
        ACCUMULATE(LOAD_BORDER)
    }
#undef ACCUMULATE
    fwb_store(dst, y * width + x, sum);
}

// Size known at compile time: both loops unroll and every weight becomes an immediate operand
// (seed 004's "simple port", 2.605 ms on an RTX 2060).
kernel void gaussian5x5_unrolled(global const uchar *src, global uchar *dst, int width, int height,
                                 constant float *coeffs, int radius, float4 params)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    const float filter[25] = {FWB_WEIGHTS};
    pixel_t sum = PIXEL_ZERO;
#define ACCUMULATE(LOAD)                                                                          \
    _Pragma("unroll") for (int dy = 0; dy < 5; ++dy)                                             \
        _Pragma("unroll") for (int dx = 0; dx < 5; ++dx)                                         \
            sum += filter[dy * 5 + dx] * LOAD(x + dx - 2, y + dy - 2);
    if (fwb_window_inside(x, y, 2, width, height)) {
        ACCUMULATE(LOAD_DIRECT)
    } else {
        ACCUMULATE(LOAD_BORDER)
    }
#undef ACCUMULATE
    fwb_store(dst, y * width + x, sum);
}

// Weights in __constant memory, loop bound still a runtime argument: no spill, but no unrolling
// either (seed 004: 3.48 ms against 2.605 ms for the unrolled port).
kernel void gaussian5x5_constant(global const uchar *src, global uchar *dst, int width, int height,
                                 constant float *coeffs, int radius, float4 params)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    const int ks = 2 * radius + 1;
    pixel_t sum = PIXEL_ZERO;
#define ACCUMULATE(LOAD)                                                                          \
    for (int dy = 0; dy < ks; ++dy)                                                              \
        for (int dx = 0; dx < ks; ++dx)                                                          \
            sum += coeffs[dy * ks + dx] * LOAD(x + dx - radius, y + dy - radius);
    if (fwb_window_inside(x, y, radius, width, height)) {
        ACCUMULATE(LOAD_DIRECT)
    } else {
        ACCUMULATE(LOAD_BORDER)
    }
#undef ACCUMULATE
    fwb_store(dst, y * width + x, sum);
}

#if defined(TILE_W) && defined(TILE_H)
// The work-group stages its tile plus a 2-pixel halo in __local memory once, then every work-item
// reads its 25 neighbours from there. Seed 004: no gain (1.96 vs 1.63 ms) because L1 already
// serves the overlapping reads; on devices whose local memory is emulated it can only cost.
kernel void gaussian5x5_local(global const uchar *src, global uchar *dst, int width, int height,
                              constant float *coeffs, int radius, float4 params)
{
    local pixel_t tile[TILE_H + 4][TILE_W + 4];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int originX = (int)get_group_id(0) * TILE_W - 2;
    const int originY = (int)get_group_id(1) * TILE_H - 2;
    for (int ty = ly; ty < TILE_H + 4; ty += TILE_H)
        for (int tx = lx; tx < TILE_W + 4; tx += TILE_W)
            tile[ty][tx] = fwb_load_border(src, originX + tx, originY + ty, width, height);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    const float filter[25] = {FWB_WEIGHTS};
    pixel_t sum = PIXEL_ZERO;
#pragma unroll
    for (int dy = 0; dy < 5; ++dy)
#pragma unroll
        for (int dx = 0; dx < 5; ++dx)
            sum += filter[dy * 5 + dx] * tile[ly + dy][lx + dx];
    fwb_store(dst, y * width + x, sum);
}
#endif

// Reads through an image2d_t and a sampler (the texture path and its cache); borders are remapped
// by hand so every border mode matches the reference exactly. gray8 -> CL_R, rgba8888 -> CL_RGBA.
constant sampler_t fwb_nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void gaussian5x5_image(read_only image2d_t src, write_only image2d_t dst, int width, int height,
                              constant float *coeffs, int radius, float4 params)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    const float filter[25] = {FWB_WEIGHTS};
    float4 sum = (float4)(0.0f);
    if (fwb_window_inside(x, y, 2, width, height)) {
#pragma unroll
        for (int dy = 0; dy < 5; ++dy)
#pragma unroll
            for (int dx = 0; dx < 5; ++dx)
                sum += filter[dy * 5 + dx] * convert_float4(read_imageui(src, fwb_nearest, (int2)(x + dx - 2, y + dy - 2)));
    } else {
#pragma unroll
        for (int dy = 0; dy < 5; ++dy) {
            const int sy = fwb_border_index(y + dy - 2, height);
#pragma unroll
            for (int dx = 0; dx < 5; ++dx) {
                const int sx = fwb_border_index(x + dx - 2, width);
                if (sx >= 0 && sy >= 0)
                    sum += filter[dy * 5 + dx] * convert_float4(read_imageui(src, fwb_nearest, (int2)(sx, sy)));
            }
        }
    }
    write_imageui(dst, (int2)(x, y), convert_uint4_sat(sum + 0.5f));
}
