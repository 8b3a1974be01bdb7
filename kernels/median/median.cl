// median.cl: median of the MEDIAN_SIZE x MEDIAN_SIZE neighbourhood (3 or 5, -DMEDIAN_SIZE from the
// host), per channel, exact. Ways to find the middle value: insertion sort (branchy), a branchless
// min/max selection network (seed 000: "avoid branches"), the network fed from a local-memory tile, the
// roofline rung (column sorts shared on byte vectors) and the forgetful rungs (generated networks that
// share every comparison between neighbouring outputs, kernels/median/median_blocks.clh).
#include "common.clh"
#include "pixels8.clh"

#ifndef MEDIAN_SIZE
#define MEDIAN_SIZE 3
#endif
#define MEDIAN_R (MEDIAN_SIZE / 2)
#define MEDIAN_N (MEDIAN_SIZE * MEDIAN_SIZE)

// Selection networks: Batcher's odd-even merge sort for 9 / 25 inputs, pruned backwards from the
// middle output (exchanges that cannot reach it dropped; those with one useful output reduced to a
// single min or max), checked exhaustively with the 0-1 principle: 24 operations for 3x3, 113 for
// 5x5. X(a,b): p[a] = min, p[b] = max. LO(a,b): p[a] = min only. HI(a,b): p[b] = max only.
#define FWB_MEDIAN9_NETWORK \
    X(0,1) X(2,3) X(4,5) X(6,7) X(0,2) X(1,3) X(4,6) X(5,7) X(1,2) X(5,6) X(0,4) X(1,5) X(2,6) \
    LO(3,7) X(2,4) X(3,5) HI(1,2) X(3,4) LO(5,6) HI(0,8) LO(4,8) HI(2,4) LO(3,5) HI(3,4)
#define FWB_MEDIAN25_NETWORK \
    X(0,1) X(2,3) X(4,5) X(6,7) X(8,9) X(10,11) X(12,13) X(14,15) X(16,17) X(18,19) X(20,21) \
    X(22,23) X(0,2) X(1,3) X(4,6) X(5,7) X(8,10) X(9,11) X(12,14) X(13,15) X(16,18) X(17,19) \
    X(20,22) X(21,23) X(1,2) X(5,6) X(9,10) X(13,14) X(17,18) X(21,22) X(0,4) X(1,5) X(2,6) \
    X(3,7) X(8,12) X(9,13) X(10,14) X(11,15) X(16,20) X(17,21) X(18,22) X(19,23) X(2,4) X(3,5) \
    X(10,12) X(11,13) X(18,20) X(19,21) X(1,2) X(3,4) X(5,6) X(9,10) X(11,12) X(13,14) X(17,18) \
    X(19,20) X(21,22) X(0,8) X(1,9) X(2,10) X(3,11) X(4,12) X(5,13) X(6,14) LO(7,15) X(16,24) \
    X(4,8) X(5,9) X(6,10) X(7,11) X(20,24) X(2,4) X(3,5) X(6,8) X(7,9) X(10,12) X(11,13) \
    X(18,20) X(19,21) X(22,24) X(1,2) X(3,4) X(5,6) X(7,8) X(9,10) X(11,12) LO(13,14) X(17,18) \
    X(19,20) X(21,22) X(23,24) HI(0,16) HI(1,17) HI(2,18) HI(3,19) HI(4,20) HI(5,21) LO(6,22) \
    LO(7,23) LO(8,24) HI(8,16) HI(9,17) LO(10,18) LO(11,19) LO(12,20) LO(13,21) HI(6,10) \
    HI(7,11) LO(12,16) LO(13,17) HI(10,12) LO(11,13) HI(11,12)

#define X(a, b)                                                                                    \
    {                                                                                              \
        const upix_t lo_ = min(p[a], p[b]);                                                        \
        p[b] = max(p[a], p[b]);                                                                    \
        p[a] = lo_;                                                                                \
    }
#define LO(a, b) p[a] = min(p[a], p[b]);
#define HI(a, b) p[b] = max(p[a], p[b]);

#if MEDIAN_SIZE == 3
#define FWB_MEDIAN_NETWORK FWB_MEDIAN9_NETWORK
#elif MEDIAN_SIZE == 5
#define FWB_MEDIAN_NETWORK FWB_MEDIAN25_NETWORK
#else
#error "MEDIAN_SIZE must be 3 or 5"
#endif

// Gathers each channel's MEDIAN_N values into a private array and insertion-sorts it: data-dependent
// loops and branches, so neighbouring work-items (SIMD lanes) diverge and wait for each other.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_median_naive_sort)
kernel void median_naive_sort(global const uchar *src, global uchar *dst, int width, int height,
                              constant float *coeffs, int radius, float4 params)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    for (int c = 0; c < CHANNELS; ++c) {
        uchar v[MEDIAN_N];
        int n = 0;
        for (int dy = -MEDIAN_R; dy <= MEDIAN_R; ++dy) {
            const int sy = fwb_border_index(y + dy, height);
            for (int dx = -MEDIAN_R; dx <= MEDIAN_R; ++dx) {
                const int sx = fwb_border_index(x + dx, width);
                v[n++] = (sx < 0 || sy < 0) ? 0 : src[(sy * width + sx) * CHANNELS + c];
            }
        }
        for (int i = 1; i < MEDIAN_N; ++i) {
            const uchar key = v[i];
            int j = i - 1;
            while (j >= 0 && v[j] > key) {
                v[j + 1] = v[j];
                --j;
            }
            v[j + 1] = key;
        }
        dst[(y * width + x) * CHANNELS + c] = v[MEDIAN_N / 2];
    }
}
#endif

// All channels at once (uchar vectors) through the fixed min/max network: no branches, constant
// indices (the array stays in registers), the same instruction stream for every work-item.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_median_sorting_network)
kernel void median_sorting_network(global const uchar *src, global uchar *dst, int width, int height,
                                   constant float *coeffs, int radius, float4 params)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    upix_t p[MEDIAN_N];
#pragma unroll
    for (int dy = 0; dy < MEDIAN_SIZE; ++dy)
#pragma unroll
        for (int dx = 0; dx < MEDIAN_SIZE; ++dx)
            p[dy * MEDIAN_SIZE + dx] = fwb_load8_border(src, x + dx - MEDIAN_R, y + dy - MEDIAN_R, width, height);
    FWB_MEDIAN_NETWORK
    fwb_store8(dst, y * width + x, p[MEDIAN_N / 2]);
}
#endif

#if defined(TILE_W) && defined(TILE_H)
// The work-group stages its tile plus a MEDIAN_R halo in __local memory once (each input pixel is
// read by MEDIAN_N work-items), then runs the same network from there.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_median_local)
kernel void median_local(global const uchar *src, global uchar *dst, int width, int height,
                         constant float *coeffs, int radius, float4 params)
{
    local upix_t tile[TILE_H + 2 * MEDIAN_R][TILE_W + 2 * MEDIAN_R];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int originX = (int)get_group_id(0) * TILE_W - MEDIAN_R;
    const int originY = (int)get_group_id(1) * TILE_H - MEDIAN_R;
    for (int ty = ly; ty < TILE_H + 2 * MEDIAN_R; ty += TILE_H)
        for (int tx = lx; tx < TILE_W + 2 * MEDIAN_R; tx += TILE_W)
            tile[ty][tx] = fwb_load8_border(src, originX + tx, originY + ty, width, height);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    upix_t p[MEDIAN_N];
#pragma unroll
    for (int dy = 0; dy < MEDIAN_SIZE; ++dy)
#pragma unroll
        for (int dx = 0; dx < MEDIAN_SIZE; ++dx)
            p[dy * MEDIAN_SIZE + dx] = tile[ly + dy][lx + dx];
    FWB_MEDIAN_NETWORK
    fwb_store8(dst, y * width + x, p[MEDIAN_N / 2]);
}
#endif
#endif

#if defined(BLOCK_W) && defined(BLOCK_H)
#include "byte_strips.clh"
#define MEDIAN_NL BS_HALO_VECTORS(MEDIAN_R * CHANNELS) // whole halo vectors on each side
#define MEDIAN_NV (BS_NC + 2 * MEDIAN_NL)
// Keep the window's rows in registers while sliding down when they fit, else re-read them (cache).
#ifndef MEDIAN_RING
#define MEDIAN_RING (MEDIAN_SIZE * MEDIAN_NV <= 15)
#endif
// MR_ROW_LOOP: the roofline rung's rows in a rolled loop (1) or unrolled (0). The catalogue's choice comes as
// MR_ROW_LOOP_DEFAULT and holds for rgba8888 only (core/families/median/Median.cpp); an explicit
// -DMR_ROW_LOOP=0|1 (FWB_EXTRA_BUILD_OPTIONS) overrides it for every variant and layout.
#ifndef MR_ROW_LOOP
#if defined(MR_ROW_LOOP_DEFAULT) && CHANNELS == 4
#define MR_ROW_LOOP MR_ROW_LOOP_DEFAULT
#else
#define MR_ROW_LOOP 0
#endif
#endif

#define MX(a, b)                                                                                   \
    {                                                                                              \
        const bs_u8v lo_ = min(p[a], p[b]);                                                        \
        p[b] = max(p[a], p[b]);                                                                    \
        p[a] = lo_;                                                                                \
    }
#define MLO(a, b) p[a] = min(p[a], p[b]);
#define MHI(a, b) p[b] = max(p[a], p[b]);

// The 5x5 network given column-sorted input (76 steps instead of 113), generated and checked by
// scripts/median_networks.py; the CPU fast path (core/families/median/Median.cpp) runs the same file.
#include "median_sorted_columns.clh"

inline bs_u8v median_med3(bs_u8v a, bs_u8v b, bs_u8v c) { return max(min(a, b), min(max(a, b), c)); }

// Roofline rung: a work-item owns BLOCK_W pixels across and BLOCK_H rows down, as whole byte vectors
// (BLOCK_W * CHANNELS bytes: 16 gray8 medians, or 4 channels of 4 rgba pixels, per 16-byte vector
// op). Each column of the window is sorted once per output row and shared by the MEDIAN_SIZE outputs
// that contain it (the neighbours are byte-shifted copies of the sorted vectors); then 3x3 is Paeth's
// median of (max of lows, median of middles, min of highs): 3x6 + 12 min/max instead of 24, and 5x5
// runs the 76-step network for sorted columns instead of 113 steps. Exact.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_median_roofline)
kernel void median_roofline(global const uchar *restrict src, global uchar *restrict dst, int width, int height,
                            constant float *coeffs, int radius, float4 params, int srcPitch, int dstPitch)
{
    const int x0 = (int)get_global_id(0) * BLOCK_W, y0 = (int)get_global_id(1) * BLOCK_H;
    if (x0 >= width || y0 >= height)
        return;
    bs_u8v rows[MEDIAN_SIZE][MEDIAN_NV];
#if MEDIAN_RING
#pragma unroll
    for (int k = 0; k < MEDIAN_SIZE - 1; ++k)
        bs_load_row_p(src, width, height, srcPitch, y0 - MEDIAN_R + k, x0, MEDIAN_NL, MEDIAN_NV, rows[k]);
#endif
    // Every row of the block is computed (row loads follow the border rule, so they stay inside the
    // buffer) and only the store clips: a loop without exits, unrolled, lets the compiler issue the next
    // rows' loads (restrict: they cannot alias the stores) while the current row computes. MR_ROW_LOOP:
    // kept rolled instead, so the program holds one row's network, not BLOCK_H of them.
#if MR_ROW_LOOP
#pragma unroll 1
#else
#pragma unroll
#endif
    for (int i = 0; i < BLOCK_H; ++i) {
        const int y = y0 + i;
#if MEDIAN_RING
        bs_load_row_p(src, width, height, srcPitch, y + MEDIAN_R, x0, MEDIAN_NL, MEDIAN_NV, rows[MEDIAN_SIZE - 1]);
#else
#pragma unroll
        for (int k = 0; k < MEDIAN_SIZE; ++k)
            bs_load_row_p(src, width, height, srcPitch, y - MEDIAN_R + k, x0, MEDIAN_NL, MEDIAN_NV, rows[k]);
#endif
        // Sort every column of the window (vertically, lane by lane): rank[i] = i-th smallest.
        bs_u8v rank[MEDIAN_SIZE][MEDIAN_NV];
#pragma unroll
        for (int k = 0; k < MEDIAN_NV; ++k) {
            bs_u8v p[MEDIAN_SIZE];
#pragma unroll
            for (int i = 0; i < MEDIAN_SIZE; ++i)
                p[i] = rows[i][k];
#if MEDIAN_SIZE == 3
            MX(0, 1) MX(1, 2) MX(0, 1)
#else
            MX(0, 1) MX(3, 4) MX(2, 4) MX(2, 3) MX(0, 3) MX(0, 2) MX(1, 4) MX(1, 3) MX(1, 2)
#endif
#pragma unroll
            for (int i = 0; i < MEDIAN_SIZE; ++i)
                rank[i][k] = p[i];
        }
        bs_u8v o[BS_NC];
#pragma unroll
        for (int j = 0; j < BS_NC; ++j) {
            const int pos = (MEDIAN_NL + j) * BS_VW;
#if MEDIAN_SIZE == 3
            const bs_u8v lo = max(max(bs_at(rank[0], pos - CHANNELS, MEDIAN_NV), rank[0][MEDIAN_NL + j]),
                                  bs_at(rank[0], pos + CHANNELS, MEDIAN_NV));
            const bs_u8v mid = median_med3(bs_at(rank[1], pos - CHANNELS, MEDIAN_NV), rank[1][MEDIAN_NL + j],
                                           bs_at(rank[1], pos + CHANNELS, MEDIAN_NV));
            const bs_u8v hi = min(min(bs_at(rank[2], pos - CHANNELS, MEDIAN_NV), rank[2][MEDIAN_NL + j]),
                                  bs_at(rank[2], pos + CHANNELS, MEDIAN_NV));
            o[j] = median_med3(lo, mid, hi);
#else
            bs_u8v p[25];
#pragma unroll
            for (int dy = 0; dy < 5; ++dy)
#pragma unroll
                for (int dx = 0; dx < 5; ++dx)
                    p[dy * 5 + dx] = bs_at(rank[dy], pos + (dx - 2) * CHANNELS, MEDIAN_NV);
            FWB_MEDIAN25_SORTED_COLUMNS(MX, MLO, MHI)
            o[j] = p[12];
#endif
        }
        bs_store_row_p(dst, width, height, dstPitch, y, x0, o);
#if MEDIAN_RING
#pragma unroll
        for (int i = 0; i < MEDIAN_SIZE - 1; ++i)
#pragma unroll
            for (int k = 0; k < MEDIAN_NV; ++k)
                rows[i][k] = rows[i + 1][k];
#endif
    }
}
#endif
#endif

#if defined(BLOCK_W) && defined(BLOCK_H) && (!defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_median_forgetful))
#include "median_forgetful.clh"
#endif

// Streaming rung (3x3, gray8 and rgba8888): kernels/median/median_stream.clh on stream3x3.clh's strips.
#if defined(BLOCK_W) && defined(BLOCK_H) && MEDIAN_SIZE == 3 && CHANNELS != 3 && BLOCK_W * CHANNELS <= 16 \
    && (!defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_median_stream))
#include "median_stream.clh"
#endif
