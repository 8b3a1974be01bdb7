// cpu_rows.cl: the CPU-shaped rungs (variant `cpu_rows`) of gaussian5x5, box (radius 1 and 2),
// erode/dilate and median3x3, written for PoCL's CPU device. No other variant uses this file (the GPU
// rungs' shared headers are untouched); on a GPU the cpu_rows variants run, untuned.
//
// What PoCL makes of a kernel: it compiles one work-group into a loop over its work-items and tries to
// vectorise that loop across x. That works for short straight-line kernels on 32-bit values, but the
// roofline rungs (byte lanes in registers, unrolled row strips, selects at the edges) are too much for
// it: they ran 4-13x slower than OpenCV's CPU code on the same two cores (issue 9's table). So these
// kernels do the vectorising themselves and leave PoCL nothing to guess:
//  - every row of a work-item's strip is CR_V explicit 16-byte vectors (uchar16), loaded unaligned at
//    the 2R+1 horizontal offsets of the stencil (a CPU's unaligned loads from L1 cost the same as
//    aligned ones, so shifted copies are cheaper than shuffles), and all arithmetic is on whole
//    vectors: uchar16 min/max for the morphology and the median, ushort16 exact integer sums for the
//    box, float16 multiply-adds for the Gaussian - one AVX2/AVX-512 instruction per 16 bytes;
//  - loads and stores go through a uchar16 type with alignment 1 (one vmovdqu): PoCL's vload16 and
//    vstore16 on bytes move the 16 bytes one at a time;
//  - a work-item walks down BLOCK_H rows of its strip keeping the last 2R filtered rows in registers,
//    so every input row is loaded (BLOCK_H + 2R) / BLOCK_H times and filtered along x once; its CR_V
//    chunks go down together, so the per-row scalar work is shared by 16 * CR_V bytes;
//  - the work-items at the left and right image edges (and the partial block at the right) gather
//    their row window byte by byte through the border rule into a private array and run the same
//    vector code on it; every other work-item runs the branch-free fast path.
// Build options: CHANNELS, BORDER, BLOCK_W (pixels across, BLOCK_W * CHANNELS a multiple of 16),
// BLOCK_H and the family's own: FWB_G0..FWB_G4 (gaussian5x5), BOX_RADIUS (1 or 2), MORPH_RADIUS and
// MORPH_DILATE, MEDIAN_SIZE (3).
#include "common.clh"

#if defined(BLOCK_W) && defined(BLOCK_H)

#if defined(FWB_G0)
#define CR_R 2
#elif defined(BOX_RADIUS)
#define CR_R BOX_RADIUS
#elif defined(MORPH_RADIUS)
#define CR_R MORPH_RADIUS
#elif defined(MEDIAN_SIZE)
#define CR_R (MEDIAN_SIZE / 2)
#endif

#ifdef CR_R
// NVIDIA's cold builds of erode/dilate rgba8888 took 11-13 s under prepare's load (2.4-2.9 s alone), most of it
// the border path's per-byte gathers, unrolled (docs/data/session31-2026-11-29/c4: rolled, the PTX 18,347 -> 6,617
// lines and the build 2.6 -> 0.9 s, but the kernel 15% slower; the row loop kept rolled changed nothing, NVIDIA
// keeps it rolled already). Hence:
// CR_PIXEL_GATHER: rgba8888's border path gathers and stores whole pixels (uchar4), not bytes, on NVIDIA. H200,
// rgba8888, 6720x4480, cold, two rounds (docs/data/session31-2026-11-29/c5), bytes -> pixels: PTX 18,347 -> 8,151
// lines (erode), build 2.7-3.3 -> 0.9-1.5 s, kernel 0.433 -> 0.381 ms (erode), 0.441 -> 0.391 (dilate), 0.435 ->
// 0.384 (gaussian5x5), 0.258 -> 0.218 (box), 0.406 -> 0.378 (median3x3). PoCL keeps the bytes: its kernels ran 0-20%
// slower by pixels on this project's 2-core machine (pocl-cpu-rows/ab.tsv, five interleaved rounds, noisy).
#ifndef CR_PIXEL_GATHER
#define CR_PIXEL_GATHER (CHANNELS == 4 && FWB_PTX)
#endif
#if CR_PIXEL_GATHER && CHANNELS != 4
#error "CR_PIXEL_GATHER takes rgba8888's 4-byte pixels"
#endif
#define CR_B (BLOCK_W * CHANNELS) // bytes per work-item and row
#if CR_B % 16 != 0
#error "cpu_rows.cl needs BLOCK_W * CHANNELS to be a multiple of 16"
#endif
#define CR_V (CR_B / 16)          // uchar16 vectors per row
#define CR_T (2 * CR_R + 1)       // taps along x
#define CR_HB (CR_R * CHANNELS)   // halo bytes on each side
#define CR_N (CR_B + 2 * CR_HB)   // bytes of one row window

// Unaligned 16-byte loads and stores. PoCL's vload16/vstore16 on uchar move the 16 bytes one by one
// (measured: a 16-byte copy kernel 20 ms -> 2.4 ms at 6720x4480 with these); a uchar16 type with
// alignment 1 makes clang emit one unaligned vector move (vmovdqu), which x86 runs at full speed.
#ifdef __clang__
#define CR_INLINE static inline __attribute__((always_inline))
typedef uchar16 cr_u16 __attribute__((aligned(1)));
#define CR_LOAD_G(p) (*(global const cr_u16 *)(p))
#define CR_LOAD_P(p) (*(const cr_u16 *)(p))
#define CR_STORE_G(v, p) (*(global cr_u16 *)(p) = (v))
#define CR_STORE_P(v, p) (*(cr_u16 *)(p) = (v))
#else
#define CR_INLINE inline
#define CR_LOAD_G(p) vload16(0, p)
#define CR_LOAD_P(p) vload16(0, p)
#define CR_STORE_G(v, p) vstore16(v, 0, p)
#define CR_STORE_P(v, p) vstore16(v, 0, p)
#endif

// Row sy (border-mapped already; -1: the constant border's row of zeros) of the 16-byte chunk at byte
// xb as CR_T shifted vectors: t[k] = bytes xb + (k - R) * CHANNELS .. +15 of the row.
CR_INLINE void cr_row(global const uchar *src, int sy, int xb, int width, const bool fast, uchar16 *t)
{
    if (sy < 0) {
#pragma unroll
        for (int k = 0; k < CR_T; ++k)
            t[k] = (uchar16)(0);
        return;
    }
    global const uchar *row = src + (size_t)sy * (size_t)width * CHANNELS;
    if (fast) {
#pragma unroll
        for (int k = 0; k < CR_T; ++k)
            t[k] = CR_LOAD_G(row + xb + (k - CR_R) * CHANNELS);
    } else {
        uchar w[16 + 2 * CR_HB];
#if CR_PIXEL_GATHER // whole pixels (xb is a multiple of 16, so the window starts on one)
        fwb_gather_pixels4(row, xb / CHANNELS - CR_R, (16 + 2 * CR_HB) / CHANNELS, width, w);
#else
        for (int j = 0; j < 16 + 2 * CR_HB; ++j) {
            const int b = xb - CR_HB + j; // byte of the row, maybe outside
            const int px = b >= 0 ? b / CHANNELS : -((CHANNELS - 1 - b) / CHANNELS); // floor(b / CHANNELS)
            const int sx = fwb_border_index(min(px, width + CR_R), width);
            w[j] = sx < 0 ? (uchar)0 : row[sx * CHANNELS + (b - px * CHANNELS)];
        }
#endif
#pragma unroll
        for (int k = 0; k < CR_T; ++k)
            t[k] = CR_LOAD_P(w + k * CHANNELS);
    }
}

// Output row y of the 16-byte chunk at byte xb; the slow path writes only the bytes inside the row.
CR_INLINE void cr_store(global uchar *dst, int y, int xb, int width, const bool fast, uchar16 o)
{
    global uchar *row = dst + (size_t)y * (size_t)width * CHANNELS + xb;
    if (fast) {
        CR_STORE_G(o, row);
    } else {
        uchar w[16];
        CR_STORE_P(o, w);
        const int n = min(16, width * CHANNELS - xb);
#if CR_PIXEL_GATHER
        for (int j = 0; j < n / CHANNELS; ++j) // whole pixels, 4 bytes a store
            vstore4(vload4(j, w), j, row);
#else
        for (int j = 0; j < n; ++j)
            row[j] = w[j];
#endif
    }
}

// The fast path: the n bytes from byte xb and their halo lie inside the row.
#define CR_FAST(xb, n, width) ((xb) >= CR_HB && (xb) + (n) + CR_HB <= (width) * CHANNELS)

// A work-item: BLOCK_W pixels (CR_V chunks of 16 bytes) across, BLOCK_H rows down. When the whole block
// and its halo lie inside the rows (all but the first and last work-item of a row of blocks), all CR_V
// chunks go down the rows together, so the per-row work (row index, border rule, address) is shared by
// 16 * CR_V bytes; otherwise each chunk goes down on its own, on the fast or the border path.
#define CR_DISPATCH(STRIP)                                                                                \
    const int x0 = (int)get_global_id(0) * BLOCK_W, y0 = (int)get_global_id(1) * BLOCK_H;                \
    if (x0 >= width || y0 >= height)                                                                     \
        return;                                                                                          \
    if (CR_FAST(x0 * CHANNELS, CR_B, width)) {                                                           \
        STRIP(src, dst, width, height, x0 * CHANNELS, y0, true, CR_V);                                   \
    } else {                                                                                             \
        for (int v = 0; v < CR_V; ++v) {                                                                 \
            const int xb = x0 * CHANNELS + 16 * v;                                                       \
            if (xb >= width * CHANNELS)                                                                  \
                break;                                                                                   \
            if (CR_FAST(xb, 16, width))                                                                  \
                STRIP(src, dst, width, height, xb, y0, true, 1);                                         \
            else                                                                                         \
                STRIP(src, dst, width, height, xb, y0, false, 1);                                        \
        }                                                                                                \
    }

// ---------------------------------------------------------------------------------------------------
// Separable stencils: CR_H(t) filters one chunk's shifted vectors along x into a CR_HTYPE, CR_VOUT(h0..)
// combines 2R+1 of those down y into the output uchar16.
#if defined(FWB_G0)
// Gaussian 5x5: the 1-D taps are symmetric (G0 = G4, G1 = G3: the same float from the same formula), so
// along x the mirrored bytes are added first in 16 bits (exact) and only three sums per chunk become
// float16; then 3 multiply-adds along x and, after two adds, 3 down y. The float sums differ from the
// reference's 2-D sum in the last bits only (tolerance ±1).
#define CR_HTYPE float16
#define CR_U16(b) convert_ushort16(b)
#define CR_H(t) (FWB_G0 * convert_float16(CR_U16(t[0]) + CR_U16(t[4])) + FWB_G1 * convert_float16(CR_U16(t[1]) + CR_U16(t[3])) \
                 + FWB_G2 * convert_float16(t[2]))
#define CR_VOUT(hs, h) convert_uchar16_sat(FWB_G0 * (hs[0] + (h)) + FWB_G1 * (hs[1] + hs[3]) + FWB_G2 * hs[2] + 0.5f)
#define CR_SEPARABLE 1
#define CR_NAME cpu_rows_gaussian5x5
#elif defined(BOX_RADIUS)
// Box: exact 16-bit integer sums (at most 25 * 255 = 6375); the rounded mean (2s + A) / 2A, halves up,
// is (s + A/2) / A, done as a multiply-high by ceil(2^17 / A) and one shift: exact for these sums.
#define CR_HTYPE ushort16
#define CR_A ((2 * BOX_RADIUS + 1) * (2 * BOX_RADIUS + 1))
#define CR_M ((131072 + CR_A - 1) / CR_A)
#define CR_DIV(s) convert_uchar16(mul_hi((s) + (ushort16)(CR_A / 2), (ushort16)(CR_M)) >> (ushort16)(1))
#if BOX_RADIUS == 1
#define CR_H(t) (convert_ushort16(t[0]) + convert_ushort16(t[1]) + convert_ushort16(t[2]))
#define CR_VOUT(hs, h) CR_DIV(hs[0] + hs[1] + (h))
#elif BOX_RADIUS == 2
#define CR_H(t) (convert_ushort16(t[0]) + convert_ushort16(t[1]) + convert_ushort16(t[2]) + convert_ushort16(t[3]) \
                 + convert_ushort16(t[4]))
#define CR_VOUT(hs, h) CR_DIV(hs[0] + hs[1] + hs[2] + hs[3] + (h))
#endif
#define CR_SEPARABLE 1
#define CR_NAME cpu_rows_box
#elif defined(MORPH_RADIUS)
// Erode/dilate: byte min/max along x, then down y over the last 2R+1 row results.
#if MORPH_DILATE
#define CR_OP(a, b) max(a, b)
#else
#define CR_OP(a, b) min(a, b)
#endif
#define CR_HTYPE uchar16
inline uchar16 cr_morph_h(const uchar16 *t)
{
    uchar16 a = t[0];
#pragma unroll
    for (int k = 1; k < CR_T; ++k)
        a = CR_OP(a, t[k]);
    return a;
}
inline uchar16 cr_morph_v(const uchar16 *hs, uchar16 h)
{
    uchar16 a = h;
#pragma unroll
    for (int k = 0; k < 2 * CR_R; ++k)
        a = CR_OP(a, hs[k]);
    return a;
}
#define CR_H(t) cr_morph_h(t)
#define CR_VOUT(hs, h) cr_morph_v(hs, h)
#define CR_SEPARABLE 1
#define CR_NAME cpu_rows_morph
#endif

#ifdef CR_SEPARABLE
// nv 16-byte chunks from byte xb (nv a compile-time constant: CR_V or 1), BLOCK_H output rows from y0: a
// rolled loop down the rows (each input row loaded and filtered along x once), the last 2R row results
// carried in registers.
CR_INLINE void cr_separable_strip(global const uchar *src, global uchar *dst, int width, int height, int xb, int y0,
                                  const bool fast, const int nv)
{
    CR_HTYPE hist[CR_V][2 * CR_R];
    uchar16 t[CR_V][CR_T];
#pragma unroll
    for (int i = 0; i < 2 * CR_R; ++i) {
        const int sy = fwb_border_index(y0 - CR_R + i, height);
#pragma unroll
        for (int v = 0; v < nv; ++v) {
            cr_row(src, sy, xb + 16 * v, width, fast, t[v]);
            hist[v][i] = CR_H(t[v]);
        }
    }
    const int yEnd = min(y0 + BLOCK_H, height);
    for (int y = y0; y < yEnd; ++y) {
        const int yi = y + CR_R;
        const int sy = yi < height ? yi : fwb_border_index(yi, height);
#pragma unroll
        for (int v = 0; v < nv; ++v) {
            cr_row(src, sy, xb + 16 * v, width, fast, t[v]);
            const CR_HTYPE h = CR_H(t[v]);
            cr_store(dst, y, xb + 16 * v, width, fast, CR_VOUT(hist[v], h));
#pragma unroll
            for (int k = 0; k + 1 < 2 * CR_R; ++k)
                hist[v][k] = hist[v][k + 1];
            hist[v][2 * CR_R - 1] = h;
        }
    }
}

inline void cr_separable(global const uchar *src, global uchar *dst, int width, int height)
{
    CR_DISPATCH(cr_separable_strip)
}

kernel void CR_NAME(global const uchar *src, global uchar *dst, int width, int height, constant float *coeffs,
                    int radius, float4 params)
{
    cr_separable(src, dst, width, height);
}
#endif // CR_SEPARABLE

// ---------------------------------------------------------------------------------------------------
// Median 3x3 on uchar16: for each of the three horizontal offsets, the column of three rows is sorted
// with 6 min/max; the median is then the median of (the largest low, the median of the middles, the
// smallest high) - Paeth's 3x3 median, 6 x 3 + 10 byte min/max per 16 outputs. The two previous rows
// stay in registers while the work-item slides down.
#if defined(MEDIAN_SIZE) && MEDIAN_SIZE == 3
inline uchar16 cr_med3(uchar16 a, uchar16 b, uchar16 c) { return max(min(a, b), min(max(a, b), c)); }

CR_INLINE void cr_median3_strip(global const uchar *src, global uchar *dst, int width, int height, int xb, int y0,
                                const bool fast, const int nv)
{
    uchar16 r0[CR_V][3], r1[CR_V][3], t[3];
#pragma unroll
    for (int v = 0; v < nv; ++v) {
        cr_row(src, fwb_border_index(y0 - 1, height), xb + 16 * v, width, fast, r0[v]);
        cr_row(src, fwb_border_index(y0, height), xb + 16 * v, width, fast, r1[v]);
    }
    const int yEnd = min(y0 + BLOCK_H, height);
    for (int y = y0; y < yEnd; ++y) {
        const int sy = y + 1 < height ? y + 1 : fwb_border_index(y + 1, height);
#pragma unroll
        for (int v = 0; v < nv; ++v) {
            cr_row(src, sy, xb + 16 * v, width, fast, t);
            uchar16 lo[3], mid[3], hi[3];
#pragma unroll
            for (int k = 0; k < 3; ++k) {
                const uchar16 s1 = min(r0[v][k], r1[v][k]), s2 = max(r0[v][k], r1[v][k]);
                lo[k] = min(s1, t[k]);
                const uchar16 u = max(s1, t[k]);
                mid[k] = min(s2, u);
                hi[k] = max(s2, u);
            }
            cr_store(dst, y, xb + 16 * v, width, fast,
                     cr_med3(max(max(lo[0], lo[1]), lo[2]), cr_med3(mid[0], mid[1], mid[2]),
                             min(min(hi[0], hi[1]), hi[2])));
#pragma unroll
            for (int k = 0; k < 3; ++k) {
                r0[v][k] = r1[v][k];
                r1[v][k] = t[k];
            }
        }
    }
}

inline void cr_median3(global const uchar *src, global uchar *dst, int width, int height)
{
    CR_DISPATCH(cr_median3_strip)
}

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_cpu_rows_median3x3)
kernel void cpu_rows_median3x3(global const uchar *src, global uchar *dst, int width, int height,
                               constant float *coeffs, int radius, float4 params)
{
    cr_median3(src, dst, width, height);
}
#endif
#endif // MEDIAN_SIZE == 3

#endif // CR_R
#endif // BLOCK_W && BLOCK_H
