// gaussian_separable.cl: Gaussian blur of any sigma as two 1-D passes (rows into a float scratch
// buffer, then columns), plainly and with each pass staged in __local memory. The 2r+1 normalised
// taps arrive in the __constant coeffs table; -DGAUSS_RADIUS=r sizes the local tiles.
// Sums run from tap 0 to tap 2r in float, as in the CPU reference (core/families/shared/GaussianSeparable.cpp).
#include "integer_pixels.clh"

// Rows: 2r+1 reads and multiply-adds per pixel (a 2-D kernel would need (2r+1)^2).
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_gaussian_h)
kernel void gaussian_h(global const uchar *src, global float *tmp, int width, int height,
                       constant float *coeffs, int radius, float4 params)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    const int row = y * width;
    pixel_t sum = PIXEL_ZERO;
    if (x >= radius && x + radius < width) {
        for (int k = 0; k <= 2 * radius; ++k)
            sum += coeffs[k] * fwb_load(src, row + x + k - radius);
    } else {
        for (int k = 0; k <= 2 * radius; ++k)
            sum += coeffs[k] * fwb_load_row(src, row, x + k - radius, width);
    }
    fwb_store_f32(tmp, row + x, sum);
}
#endif

// Columns of the float row results, rounded once at the end.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_gaussian_v)
kernel void gaussian_v(global const float *tmp, global uchar *dst, int width, int height,
                       constant float *coeffs, int radius, float4 params)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    pixel_t sum = PIXEL_ZERO;
    for (int k = 0; k <= 2 * radius; ++k)
        sum += coeffs[k] * fwb_loadf_column(tmp, x, y + k - radius, width, height);
    fwb_store(dst, y * width + x, sum);
}
#endif

#if defined(TILE_W) && defined(TILE_H) && defined(GAUSS_RADIUS)
#define R GAUSS_RADIUS

// Rows, staged: the work-group copies its TILE_W x TILE_H block plus R pixels on each side into
// __local memory once (border rule applied while loading), then every tap reads local memory.
// Each input pixel is fetched from global memory about (TILE_W + 2R) / TILE_W times instead of
// 2R+1 times; whether that wins depends on how well the cache already served the overlap.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_gaussian_local_h)
kernel void gaussian_local_h(global const uchar *src, global float *tmp, int width, int height,
                             constant float *coeffs, int radius, float4 params)
{
    local pixel_t tile[TILE_H][TILE_W + 2 * R];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int x = get_global_id(0), y = get_global_id(1);
    const int originX = (int)get_group_id(0) * TILE_W - R;
    const int row = min(y, height - 1) * width; // padded work-items load a real row, write nothing
    for (int tx = lx; tx < TILE_W + 2 * R; tx += TILE_W)
        tile[ly][tx] = fwb_load_row(src, row, originX + tx, width);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (x >= width || y >= height)
        return;
    pixel_t sum = PIXEL_ZERO;
    for (int k = 0; k <= 2 * R; ++k)
        sum += coeffs[k] * tile[ly][lx + k];
    fwb_store_f32(tmp, y * width + x, sum);
}
#endif

// Columns, staged: TILE_W columns of TILE_H + 2R float rows in __local memory.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_gaussian_local_v)
kernel void gaussian_local_v(global const float *tmp, global uchar *dst, int width, int height,
                             constant float *coeffs, int radius, float4 params)
{
    local pixel_t tile[TILE_H + 2 * R][TILE_W];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int x = get_global_id(0), y = get_global_id(1);
    const int originY = (int)get_group_id(1) * TILE_H - R;
    const int column = min(x, width - 1);
    for (int ty = ly; ty < TILE_H + 2 * R; ty += TILE_H)
        tile[ty][lx] = fwb_loadf_column(tmp, column, originY + ty, width, height);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (x >= width || y >= height)
        return;
    pixel_t sum = PIXEL_ZERO;
    for (int k = 0; k <= 2 * R; ++k)
        sum += coeffs[k] * tile[ly + k][lx];
    fwb_store(dst, y * width + x, sum);
}
#endif
#endif

#if defined(TILE_W) && defined(TILE_H) && defined(GAUSS_RADIUS) && defined(BLOCK_W) && defined(BLOCK_H) \
    && BLOCK_W == 1
// Sigma <= 2 in gray8: the row results in __local memory, the column pass on 16-bit pairs.
#include "gaussian_tiled_half2.clh"
#elif defined(TILE_W) && defined(TILE_H) && defined(GAUSS_RADIUS) && defined(BLOCK_W) && defined(BLOCK_H)
// Roofline rung: both passes fused through __local memory (kernels/shared/fused_separable.clh): the float
// intermediate never touches global memory, so the image crosses the memory bus once in, once out.
#define FS_R GAUSS_RADIUS
#define FS_NAME gaussian_roofline
#include "fused_separable.clh"
#endif

#if defined(GAUSS_RADIUS) && defined(BLOCK_W) && defined(BLOCK_H) && !defined(TILE_W) && CHANNELS != 3
// Strips rung (gray8, rgba8888): kernels/shared/separable_strips.clh with the run-time taps of this sigma. Each
// work-item walks down a strip BLOCK_W pixels wide and BLOCK_H rows tall, loads every input row once
// (aligned words: the strip and its r-pixel halos), filters it along the row and keeps the last 2r row
// results in registers to finish each output row down the column: one kernel, no scratch buffer, each
// input byte fetched (BLOCK_H + 2r) / BLOCK_H times.
#define SS_R GAUSS_RADIUS
#define SS_TAP(t) taps[t]
#include "separable_strips.clh"

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_gaussian_strips)
kernel void gaussian_strips(global const uchar *src, global uchar *dst, int width, int height,
                            constant float *coeffs, int radius, float4 params, int srcPitch, int dstPitch)
{
    ss_separable(src, dst, width, height, srcPitch, dstPitch, coeffs);
}
#endif
#endif
