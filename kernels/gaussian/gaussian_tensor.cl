// gaussian_tensor.cl: the sigma <= 2 Gaussian (radius <= 6, gray8 and rgba8888) with both passes as 16-bit matrix
// multiply-adds, the work NVIDIA's tensor cores do (PTX mma.sync.m16n8k16, f16 inputs, f32 sums; sm_80 and later).
// A separable filter is two matrix products: a row pass R = T_x . I over a segment of a row (T_x: the taps on a
// band, one output per matrix row) and a column pass O = T_y . R. One warp (32 work-items) owns a column of the
// picture 16 bytes across and slides down it 16 output rows a step:
//  - the row pass filters 8 input rows at a time, a product (16 output bytes x 16 window bytes) . (16 window
//    bytes x 8 rows) per 16 window bytes (gray8: 32 window bytes, two products; rgba8888 at radius 6: 64, four,
//    since a byte's neighbours are its channel's, 4 bytes apart: the tap matrix has zeros between them);
//  - its f32 results, rounded to 16-bit floats, sit in each work-item's registers exactly where the column pass's
//    second operand wants them (the accumulator's layout of a m16n8 product is the B operand's of the next, with
//    the 8 rows as the k dimension), so the two passes need no local memory and no shuffle;
//  - the column pass takes 32 row results (16 output rows and 8 rows of halo above and below) in two products
//    per 8 output columns.
// Every sum is exact, so the result is the same bits whatever order the products are added in: on the tensor cores
// or through local memory, wherever a pixel falls in its column (tiles, other sizes). Bytes enter as 16-bit floats
// (one byte permute to 1024 + b under the exponent of 1024, one 16-bit subtraction of 1024); the row taps are
// multiples of 2^-14, so the row sums (under 256) are multiples of 2^-14 and exact in 32 bits; they are rounded to
// multiples of 1/8 (exact in 16 bits below 256); the column taps are multiples of 2^-13, so the column sums are
// multiples of 2^-16 under 256: 24 bits, exact too. The window bytes' order in k is free (the tap matrix follows it):
// each work-item's 16-bit pairs are 8 (or 16) consecutive bytes of one row, one aligned load; the row pass's output
// rows are ordered so that the column pass leaves each work-item 4 consecutive output bytes of a row, one store.
// Error against the exact filter (sigma 2, the worst case): the row taps so rounded move a row sum by at most 0.22
// of a level, its rounding to 1/8 by 0.0625, the column taps by 0.32: under 0.61, within the filter's ±1.
// Elsewhere than NVIDIA sm_80+ (PoCL in the tests, older NVIDIA GPUs) each product is computed by the work-items
// of the warp through local memory from the very same operand registers (GM_MMA 0), so the CPU tests check the
// operand layouts, the tap matrices and the conversions this kernel gives the tensor cores.
// Needs TILE_W * CHANNELS a multiple of 16, TILE_W * TILE_H a multiple of 32, BLOCK_W 1, and each warp's share of
// the tile's rows (TILE_H * BLOCK_H) a multiple of 16.
#include "common.clh"
#include "half2.clh"

#if defined(TILE_W) && defined(TILE_H) && defined(GAUSS_RADIUS) && defined(BLOCK_W) && defined(BLOCK_H)

#if CHANNELS != 1 && CHANNELS != 4
#error "tensor_f16 takes gray8 and rgba8888"
#endif
#if GAUSS_RADIUS > 6
#error "tensor_f16 is built for radius up to 6 (sigma 2)"
#endif
#if (TILE_W * CHANNELS) % 16 != 0 || (TILE_W * TILE_H) % 32 != 0 || BLOCK_W != 1
#error "tensor_f16 needs a work-group 16 bytes across (or a multiple) and a multiple of 32 work-items"
#endif

#ifndef GM_MMA
#if FWB_PTX && defined(FWB_NV_SM) && FWB_NV_SM >= 80
#define GM_MMA 1
#else
#define GM_MMA 0
#endif
#endif

#define GM_CH CHANNELS
#define GM_R GAUSS_RADIUS
#define GM_HALO ((GM_CH * GM_R + 7) / 8 * 8) // window bytes on each side of the 16 output bytes, a multiple of 8
#define GM_KC ((16 + 2 * GM_HALO) / 16)      // 16-byte chunks of the window: products per 8 rows of the row pass
#define GM_TB (4 * GM_KC)                    // window bytes of one work-item and row (8, 12 or 16)
#define GM_NWORDS (GM_TB / 4)
#define GM_LS (TILE_W * TILE_H)
#define GM_NW (GM_LS / 32)                   // warps of the group
#define GM_NCOL (TILE_W * GM_CH / 16)        // 16-byte columns of the tile
#define GM_TH (TILE_H * BLOCK_H)             // rows of the tile
#define GM_NSEG (GM_NW > GM_NCOL ? GM_NW / GM_NCOL : 1) // row segments of a column
#define GM_SEGH (GM_TH / GM_NSEG)
#define GM_NTASK (GM_NCOL * GM_NSEG)
#define GM_ITER ((GM_NTASK + GM_NW - 1) / GM_NW)
#if GM_TH % GM_NSEG != 0 || GM_SEGH % 16 != 0
#error "tensor_f16: each warp's share of the tile's rows must be a multiple of 16"
#endif

typedef struct {
    float x, y, z, w;
} gm_acc;

#if GM_MMA
// D = A . B + C, m16n8k16, A row-major 16x16 f16 (four registers of pairs), B column-major 16x8 (two), C and D
// 16x8 f32; the operands' layout per work-item is PTX's (ISA, "Matrix fragments for mma.m16n8k16").
inline gm_acc gm_mma(uint4 a, uint2 b, gm_acc c, local float *scratch, int lane)
{
    gm_acc d;
    __asm__("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%10,%11,%12,%13};"
                     : "=f"(d.x), "=f"(d.y), "=f"(d.z), "=f"(d.w)
                     : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(b.x), "r"(b.y), "f"(c.x), "f"(c.y), "f"(c.z),
                       "f"(c.w));
    return d;
}
#define GM_SCRATCH_FLOATS 1
#else
// The same product by the warp's 32 work-items through local memory: each puts its operand pairs where the
// fragment layout says (A[16][16], B[16][8] as floats), and takes its four results. Every work-item of the group
// calls it the same number of times (the barriers).
#define GM_SCRATCH_FLOATS (16 * 16 + 16 * 8)
inline gm_acc gm_mma(uint4 a, uint2 b, gm_acc c, local float *s, int lane)
{
    local float *A = s, *B = s + 256; // A[m * 16 + k], B[k * 8 + n]
    const int g = lane >> 2, t = lane & 3;
    A[g * 16 + 2 * t] = ss_h2f(a.x);
    A[g * 16 + 2 * t + 1] = ss_h2f(a.x >> 16);
    A[(g + 8) * 16 + 2 * t] = ss_h2f(a.y);
    A[(g + 8) * 16 + 2 * t + 1] = ss_h2f(a.y >> 16);
    A[g * 16 + 2 * t + 8] = ss_h2f(a.z);
    A[g * 16 + 2 * t + 9] = ss_h2f(a.z >> 16);
    A[(g + 8) * 16 + 2 * t + 8] = ss_h2f(a.w);
    A[(g + 8) * 16 + 2 * t + 9] = ss_h2f(a.w >> 16);
    B[(2 * t) * 8 + g] = ss_h2f(b.x);
    B[(2 * t + 1) * 8 + g] = ss_h2f(b.x >> 16);
    B[(2 * t + 8) * 8 + g] = ss_h2f(b.y);
    B[(2 * t + 9) * 8 + g] = ss_h2f(b.y >> 16);
    barrier(CLK_LOCAL_MEM_FENCE);
    float d0 = c.x, d1 = c.y, d2 = c.z, d3 = c.w;
    for (int k = 0; k < 16; ++k) {
        d0 = fma(A[g * 16 + k], B[k * 8 + 2 * t], d0);
        d1 = fma(A[g * 16 + k], B[k * 8 + 2 * t + 1], d1);
        d2 = fma(A[(g + 8) * 16 + k], B[k * 8 + 2 * t], d2);
        d3 = fma(A[(g + 8) * 16 + k], B[k * 8 + 2 * t + 1], d3);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    gm_acc d = {d0, d1, d2, d3};
    return d;
}
#endif

// Output byte (from the 16) of the row pass's matrix row m: m = 2t + i + 8b holds byte 4t + 2b + i, so that the
// column pass leaves work-item t the bytes 4t .. 4t + 3 of its rows.
inline int gm_out_byte(int m) { return 4 * ((m & 7) >> 1) + 2 * (m >> 3) + (m & 1); }
// Window byte (from x0 - GM_HALO) of chunk c's k: a work-item's pairs are GM_TB consecutive bytes of its row.
inline int gm_window_byte(int c, int k) { return GM_TB * ((k & 7) >> 1) + 4 * c + 2 * (k >> 3) + (k & 1); }

// The row pass's tap at (matrix row m, chunk c's k): the output byte's channel's tap at that window byte, or 0.
// Taps are rounded to multiples of 2^-q (then to 16 bits, which keeps them multiples of 2^-q: a 16-bit float of
// 2^(11-q) or more has no smaller step, and one below it is a multiple of 2^-q with 11 bits or fewer).
inline float gm_quantize(float tap, float scale) { return rint(tap * scale) / scale; }
inline float gm_row_tap(constant float *coeffs, int m, int c, int k)
{
    const int d = gm_window_byte(c, k) - GM_HALO - gm_out_byte(m); // bytes from the output byte
    if (d % GM_CH != 0 || d < -GM_CH * GM_R || d > GM_CH * GM_R)
        return 0.0f;
    return gm_quantize(coeffs[d / GM_CH + GM_R], 16384.0f);
}
// The column pass's tap at (output row m, chunk c's k): chunk c's k is row 16c + k - 8 from the first output row.
inline float gm_col_tap(constant float *coeffs, int m, int c, int k)
{
    const int d = 16 * c + k - 8 - m;
    return d < -GM_R || d > GM_R ? 0.0f : gm_quantize(coeffs[d + GM_R], 8192.0f);
}
// A work-item's A operand of chunk c from a tap function: pairs (g, 2t..), (g + 8, 2t..), (g, 2t + 8..), (g + 8, 2t + 8..).
#define GM_A_OPERAND(tap, coeffs, c, g, t)                                                                             \
    (uint4)(ss_h2pack(tap(coeffs, g, c, 2 * t), tap(coeffs, g, c, 2 * t + 1)),                                       \
            ss_h2pack(tap(coeffs, g + 8, c, 2 * t), tap(coeffs, g + 8, c, 2 * t + 1)),                               \
            ss_h2pack(tap(coeffs, g, c, 2 * t + 8), tap(coeffs, g, c, 2 * t + 9)),                                   \
            ss_h2pack(tap(coeffs, g + 8, c, 2 * t + 8), tap(coeffs, g + 8, c, 2 * t + 9)))

// A work-item's GM_TB window bytes at p as words: p is a multiple of 8 (GM_TB 8 or 16) or of 4 (12: rgba8888 at
// radius 3 or 4).
inline void gm_words(global const uchar *p, uint *w)
{
#if GM_TB % 8 == 0
#pragma unroll
    for (int j = 0; j < GM_TB / 8; ++j) {
        const uint2 v = ((global const uint2 *)p)[j];
        w[2 * j] = v.x;
        w[2 * j + 1] = v.y;
    }
#else
#pragma unroll
    for (int j = 0; j < GM_NWORDS; ++j)
        w[j] = ((global const uint *)p)[j];
#endif
}

// A work-item's GM_TB window bytes of row y (border-mapped) for the column whose output bytes start at x0, as words.
// fast: the whole window inside the row and rows 8-byte aligned (the warp's choice, so no work-item diverges).
inline void gm_load(global const uchar *src, int y, int x0, int t, int width, int height, int pitch, bool fast,
                    uint *w)
{
    const int sy = fwb_border_index(clamp(y, -GM_R, height - 1 + GM_R), height);
    const int b0 = x0 - GM_HALO + GM_TB * t; // the work-item's first window byte
    if (fast) {
        if (sy < 0) {
#pragma unroll
            for (int j = 0; j < GM_NWORDS; ++j)
                w[j] = 0u;
        } else {
            gm_words(src + (size_t)sy * (size_t)pitch + b0, w);
        }
        return;
    }
    // Byte by byte through the border rule (edge columns only): the bytes of a word in a rolled loop, so the edge
    // path stays small in the loop it sits in, and the words in registers (indexed by unrolled constants).
    global const uchar *row = src + (size_t)max(sy, 0) * (size_t)pitch;
#pragma unroll
    for (int j = 0; j < GM_NWORDS; ++j) {
        uint word = 0u;
#pragma unroll 1
        for (int q = 0; q < 4; ++q) {
            const int b = b0 + 4 * j + q + 64 * GM_CH; // kept >= 0 for the division
            const int px = clamp(b / GM_CH - 64, -GM_R, width - 1 + GM_R), ch = b % GM_CH;
            const int sx = fwb_border_index(px, width);
            word |= ((sx < 0 || sy < 0) ? 0u : (uint)row[sx * GM_CH + ch]) << (8 * q);
        }
        w[j] = word;
    }
}


// The row pass over a work-item's window words of its row of a block of 8: the two 16-bit pairs it keeps for the
// column pass, output bytes (the row pass's matrix rows) g and g + 8 of the block's rows 2t and 2t + 1.
inline uint2 gm_rowpass(const uint *w, const uint4 *aRow, local float *scratch, int lane)
{
    gm_acc d = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
    for (int c = 0; c < GM_KC; ++c) {
        // Bytes 4c .. 4c + 3 of the work-item's window: k = 2t, 2t + 1 (bytes 0, 1) and 2t + 8, 2t + 9 (bytes 2, 3), each
        // the 16-bit float 1024 + b, less 1024.
        const uint2 b = (uint2)(ss_h2sub(fwb_prmt(w[c], 0x64646464u, 0x4140u), 0x64006400u),
                                ss_h2sub(fwb_prmt(w[c], 0x64646464u, 0x4342u), 0x64006400u));
        d = gm_mma(aRow[c], b, d, scratch, lane);
    }
    // Each sum (exact) to the nearest multiple of 1/8, exact in 16 bits.
    return (uint2)(ss_h2pack(rint(d.x * 8.0f) * 0.125f, rint(d.y * 8.0f) * 0.125f),
                   ss_h2pack(rint(d.z * 8.0f) * 0.125f, rint(d.w * 8.0f) * 0.125f));
}

kernel __attribute__((reqd_work_group_size(TILE_W, TILE_H, 1)))
void gaussian_tensor_f16(global const uchar *src, global uchar *dst, int width, int height, constant float *coeffs,
                         int radius, float4 params, int srcPitch, int dstPitch)
{
    local float scratch[GM_NW][GM_SCRATCH_FLOATS];
    const int lid = (int)(get_local_id(1) * TILE_W + get_local_id(0));
    const int warp = lid / 32, lane = lid % 32, g = lane >> 2, t = lane & 3;
    local float *mine = scratch[warp];
    const int widthBytes = width * GM_CH;
    uint4 aRow[GM_KC], aCol[2];
#pragma unroll
    for (int c = 0; c < GM_KC; ++c)
        aRow[c] = GM_A_OPERAND(gm_row_tap, coeffs, c, g, t);
#pragma unroll
    for (int c = 0; c < 2; ++c)
        aCol[c] = GM_A_OPERAND(gm_col_tap, coeffs, c, g, t);

    for (int it = 0; it < GM_ITER; ++it) {
        const int task = it * GM_NW + warp;
        const int col = task % GM_NCOL, seg = task / GM_NCOL;
        const int x0 = (int)get_group_id(0) * TILE_W * GM_CH + 16 * col;
        const int ys = (int)get_group_id(1) * GM_TH + seg * GM_SEGH;
        // A task past the tile (more warps than tasks) or past the row runs anyway when the products go through local
        // memory (every work-item at every barrier) and stores nothing.
        const bool active = task < GM_NTASK && x0 < widthBytes;
#if GM_MMA
        if (!active)
            continue;
#endif
        const bool fast = x0 >= GM_HALO && x0 + 16 + GM_HALO <= widthBytes && srcPitch % 8 == 0;
        // inner: every row the task reads or writes lies inside the picture (and the window inside the row), so its
        // loads and stores go through pointers stepped 8 rows at a time, without the border rule or checks: the
        // address arithmetic of a row is then one add where it was about 25 instructions (the tasks at the picture's
        // edges take the other way).
        const bool inner = fast && ys >= 8 && ys + GM_SEGH + 24 <= height && dstPitch % 4 == 0;
        const size_t in8 = 8 * (size_t)srcPitch, out8 = 8 * (size_t)dstPitch;
        global const uchar *pin = src + (inner ? (size_t)(ys - 8 + g) * (size_t)srcPitch + (size_t)(x0 - GM_HALO + GM_TB * t) : 0);
        global uchar *pout = dst + (inner ? (size_t)(ys + g) * (size_t)dstPitch + (size_t)(x0 + 4 * t) : 0);
        uint w[4][GM_NWORDS]; // rows ys - 8, ys, then each step's y0 + 8 and y0 + 16 (g-th row of each block)
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            if (inner)
                gm_words(pin + k * in8, w[k]);
            else
                gm_load(src, ys - 8 + 8 * k + g, x0, t, width, height, srcPitch, fast, w[k]);
        }
        pin += 4 * in8;
        uint2 above = gm_rowpass(w[0], aRow, mine, lane);
        uint2 here = gm_rowpass(w[1], aRow, mine, lane);
        for (int y0 = ys; y0 < ys + GM_SEGH; y0 += 16) {
            uint cur[2][GM_NWORDS];
#pragma unroll
            for (int k = 0; k < 2; ++k)
#pragma unroll
                for (int j = 0; j < GM_NWORDS; ++j)
                    cur[k][j] = w[2 + k][j];
            if (y0 + 16 < ys + GM_SEGH) { // the next step's rows, loaded before this step's products
#pragma unroll
                for (int k = 0; k < 2; ++k) {
                    if (inner)
                        gm_words(pin + k * in8, w[2 + k]);
                    else
                        gm_load(src, y0 + 24 + 8 * k + g, x0, t, width, height, srcPitch, fast, w[2 + k]);
                }
                pin += 2 * in8;
            }
            const uint2 next = gm_rowpass(cur[0], aRow, mine, lane);
            const uint2 after = gm_rowpass(cur[1], aRow, mine, lane);
            // Output columns b = 0 (the row pass's matrix rows 0-7) and 1 (8-15): k = rows y0 - 8 .. y0 + 23.
            gm_acc o[2];
#pragma unroll
            for (int b = 0; b < 2; ++b) {
                const gm_acc zero = {0.0f, 0.0f, 0.0f, 0.0f};
                o[b] = gm_mma(aCol[0], b ? (uint2)(above.y, here.y) : (uint2)(above.x, here.x), zero, mine, lane);
                o[b] = gm_mma(aCol[1], b ? (uint2)(next.y, after.y) : (uint2)(next.x, after.x), o[b], mine, lane);
            }
            above = next;
            here = after;
            if (!active)
                continue;
            // Work-item (g, t): rows y0 + g (o.x, o.y) and y0 + g + 8 (o.z, o.w), bytes 4t + 2b + i. Each value
            // rounded to the nearest integer in the low bits of 2^23 + v (v >= 0; at most 255, which the 16-bit taps,
            // whose sum may pass 1, could exceed by a fraction).
            uint word[2];
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const float v0 = fmin(h ? o[0].z : o[0].x, 255.0f), v1 = fmin(h ? o[0].w : o[0].y, 255.0f);
                const float v2 = fmin(h ? o[1].z : o[1].x, 255.0f), v3 = fmin(h ? o[1].w : o[1].y, 255.0f);
                const uint lo = fwb_prmt(as_uint(v0 + 8388608.0f), as_uint(v1 + 8388608.0f), 0x0040u);
                const uint hi = fwb_prmt(as_uint(v2 + 8388608.0f), as_uint(v3 + 8388608.0f), 0x0040u);
                word[h] = fwb_prmt(lo, hi, 0x5410u);
            }
            if (inner) {
                *(global uint *)pout = word[0];
                *(global uint *)(pout + out8) = word[1];
                pout += 2 * out8;
                continue;
            }
            const int x = x0 + 4 * t;
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int y = y0 + g + 8 * h;
                if (y >= height)
                    continue;
                global uchar *p = dst + (size_t)y * (size_t)dstPitch + x;
                if (x + 3 < widthBytes && dstPitch % 4 == 0) {
                    *(global uint *)p = word[h];
                } else {
                    for (int q = 0; q < 4 && x + q < widthBytes; ++q)
                        p[q] = (uchar)(word[h] >> (8 * q));
                }
            }
        }
    }
}

#endif
