// gaussian_tensor.cl: the sigma <= 2 Gaussian (radius <= 6, gray8 and rgba8888) with both passes as 16-bit matrix
// multiply-adds, the work NVIDIA's tensor cores do (PTX mma.sync.m16n8k16, f16 inputs, f32 sums; sm_80 and later).
// A separable filter is two matrix products: a row pass R = T_x . I over a segment of a row (T_x: the taps on a
// band, one output per matrix row) and a column pass O = T_y . R. One warp (32 work-items) owns a column of the
// picture 16 pixels across and slides down it 16 output rows a step, one channel at a time:
//  - the row pass filters 8 input rows at a time, a product (16 output pixels x 16 window pixels) . (16 window
//    pixels x 8 rows) per 16 window pixels: the window is 32 pixels (8 a side), two products per channel. rgba8888
//    first gathers one channel's bytes of a work-item's pixels by byte permutes (a 4x4 byte transpose), so every
//    channel uses the same tap matrix and no product multiplies the zeros a byte-wise tap matrix would hold between
//    a channel's bytes (an earlier form, 16 bytes a column, loaded 4x the bytes it wrote and took twice the
//    products);
//  - its f32 results, rounded to 16-bit floats, sit in each work-item's registers exactly where the column pass's
//    second operand wants them (the accumulator's layout of a m16n8 product is the B operand's of the next, with
//    the 8 rows as the k dimension), so the two passes need no local memory and no shuffle;
//  - the column pass takes 32 row results (16 output rows and 8 rows of halo above and below) in two products
//    per 8 output pixels and channel.
// Every sum is exact, so the result is the same bits whatever order the products are added in: on the tensor cores
// or through local memory, wherever a pixel falls in its column (tiles, other sizes). Bytes enter as 16-bit floats
// (one byte permute to 1024 + b under the exponent of 1024, one 16-bit subtraction of 1024); the row taps are
// multiples of 2^-14, so the row sums (under 256) are multiples of 2^-14 and exact in 32 bits; they are rounded to
// multiples of 1/8 (exact in 16 bits below 256); the column taps are multiples of 2^-13, so the column sums are
// multiples of 2^-16 under 256: 24 bits, exact too. The window pixels' order in k is free (the tap matrix follows
// it): each work-item's 16-bit pairs are 8 consecutive pixels of one row, one aligned load; the row pass's output
// rows are ordered so that the column pass leaves each work-item 4 consecutive output pixels of a row, one store.
// Error against the exact filter (sigma 2, the worst case): the row taps so rounded move a row sum by at most 0.22
// of a level, its rounding to 1/8 by 0.0625, the column taps by 0.32: under 0.61, within the filter's ±1.
// Elsewhere than NVIDIA sm_80+ (PoCL in the tests, older NVIDIA GPUs) each product is computed by the work-items
// of the warp through local memory from the very same operand registers (GM_MMA 0), so the CPU tests check the
// operand layouts, the tap matrices and the conversions this kernel gives the tensor cores.
// Needs TILE_W a multiple of 16, TILE_W * TILE_H a multiple of 32, BLOCK_W 1, and each warp's share of
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
#if TILE_W % 16 != 0 || (TILE_W * TILE_H) % 32 != 0 || BLOCK_W != 1
#error "tensor_f16 needs a work-group 16 pixels across (or a multiple) and a multiple of 32 work-items"
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
// A warp's column is 16 pixels across (16 bytes in gray8, 64 in rgba8888), filtered one channel at a time: a
// channel's window is 32 pixels (8 a side, radius <= 6 needing 6), two 16-pixel chunks, so the row pass takes two
// products per channel and 8 rows whatever the layout, and the same tap matrices serve every channel.
#define GM_HP 8                              // window pixels on each side of the 16 output pixels
#define GM_HALO (GM_HP * GM_CH)              // the same in bytes
#define GM_KC 2                              // 16-pixel chunks of the window: products per channel and 8 rows
#define GM_CB (16 * GM_CH)                   // bytes of a column
#define GM_TB (8 * GM_CH)                    // window bytes of one work-item and row (8 pixels)
#define GM_NWORDS (GM_TB / 4)
#define GM_OB (4 * GM_CH)                    // output bytes of one work-item and row (4 pixels)
#define GM_LOADALIGN (GM_TB < 16 ? GM_TB : 16) // the fast loads' width (uint2 in gray8, uint4 in rgba8888)
#define GM_LS (TILE_W * TILE_H)
#define GM_NW (GM_LS / 32)                   // warps of the group
#define GM_NCOL (TILE_W / 16)                // 16-pixel columns of the tile
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
inline gm_acc gm_mma(uint4 a, uint2 b, gm_acc c)
{
    gm_acc d;
    __asm__("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%10,%11,%12,%13};"
                     : "=f"(d.x), "=f"(d.y), "=f"(d.z), "=f"(d.w)
                     : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(b.x), "r"(b.y), "f"(c.x), "f"(c.y), "f"(c.z),
                       "f"(c.w));
    return d;
}
#else
// The same products by the warp's 32 work-items through local memory (GM_MMA 0), a batch of products at a time:
// each work-item posts the operand registers it would hand the tensor cores (A once: the tap matrices; B per
// product), and after a barrier takes its four results of each product by the fragment layout: A's element (m, k) is
// in work-item 4 (m % 8) + (k % 8) / 2, register (m >= 8) + 2 (k >= 8), half k % 2; B's (k, n) in work-item
// 4n + (k % 8) / 2, register (k >= 8), half k % 2; D's (g, 2t + i) and (g + 8, 2t + i) are work-item 4g + t's x + i
// and z + i. Batches alternate between two buffers (a post writes the one the take before last read, a barrier
// ago), so a step holds two barriers and the task one more: a barrier per product, inside the unrolled channel and
// chunk loops, took PoCL 3.1 12-38 s to compile the kernel (every barrier splits the work-group function).
#define GM_NB (4 * GM_CH) // B operands of a batch: (2 blocks x 2 chunks) or (2 output halves x 2 chunks) per channel
typedef struct {
    uint4 a[4][32];         // the work-items' A registers: the row taps' two chunks, the column taps' two
    uint2 b[2][GM_NB][32];  // two batches' B registers
} gm_scratch;
inline float gm_half(uint word, int hi) { return ss_h2f(hi ? word >> 16 : word); }
inline float gm_elem_a(local const gm_scratch *s, int a, int m, int k)
{
    const uint4 r = s->a[a][4 * (m & 7) + ((k & 7) >> 1)];
    const uint word = m >= 8 ? (k >= 8 ? r.w : r.y) : (k >= 8 ? r.z : r.x);
    return gm_half(word, k & 1);
}
// C + A_a . B (product p of batch buffer `buf`) as work-item lane's four results.
inline gm_acc gm_emul(local const gm_scratch *s, int a, int buf, int p, gm_acc c, int lane)
{
    const int g = lane >> 2, t = lane & 3;
#pragma unroll 1
    for (int k = 0; k < 16; ++k) {
        const float a0 = gm_elem_a(s, a, g, k), a1 = gm_elem_a(s, a, g + 8, k);
        const uint2 r0 = s->b[buf][p][8 * t + ((k & 7) >> 1)], r1 = s->b[buf][p][8 * t + 4 + ((k & 7) >> 1)];
        const float b0 = gm_half(k >= 8 ? r0.y : r0.x, k & 1), b1 = gm_half(k >= 8 ? r1.y : r1.x, k & 1);
        c.x = fma(a0, b0, c.x);
        c.y = fma(a0, b1, c.y);
        c.z = fma(a1, b0, c.z);
        c.w = fma(a1, b1, c.w);
    }
    return c;
}
#endif

// Output pixel (from the 16) of the row pass's matrix row m: m = 2t + i + 8b holds pixel 4t + 2b + i, so that the
// column pass leaves work-item t the pixels 4t .. 4t + 3 of its rows.
inline int gm_out_px(int m) { return 4 * ((m & 7) >> 1) + 2 * (m >> 3) + (m & 1); }
// Window pixel (from the column's first pixel less GM_HP) of chunk c's k: a work-item's pairs are 8 consecutive
// pixels of its row (GM_TB bytes, one load), pixels 4c .. 4c + 3 of them in chunk c.
inline int gm_window_px(int c, int k) { return 8 * ((k & 7) >> 1) + 4 * c + 2 * (k >> 3) + (k & 1); }

// The row pass's tap at (matrix row m, chunk c's k): the tap at that window pixel's distance from the output pixel,
// or 0; the same for every channel. Taps are rounded to multiples of 2^-q (then to 16 bits, which keeps them
// multiples of 2^-q: a 16-bit float of 2^(11-q) or more has no smaller step, and one below it is a multiple of 2^-q
// with 11 bits or fewer).
inline float gm_quantize(float tap, float scale) { return rint(tap * scale) / scale; }
inline float gm_row_tap(constant float *coeffs, int m, int c, int k)
{
    const int d = gm_window_px(c, k) - GM_HP - gm_out_px(m); // pixels from the output pixel
    return d < -GM_R || d > GM_R ? 0.0f : gm_quantize(coeffs[d + GM_R], 16384.0f);
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

// A work-item's GM_TB window bytes at p as words, by GM_LOADALIGN-byte loads (p a multiple of it).
inline void gm_words(global const uchar *p, uint *w)
{
#if GM_LOADALIGN == 16
#pragma unroll
    for (int j = 0; j < GM_TB / 16; ++j) {
        const uint4 v = ((global const uint4 *)p)[j];
        w[4 * j] = v.x;
        w[4 * j + 1] = v.y;
        w[4 * j + 2] = v.z;
        w[4 * j + 3] = v.w;
    }
#else
    const uint2 v = *(global const uint2 *)p;
    w[0] = v.x;
    w[1] = v.y;
#endif
}

// A work-item's GM_TB window bytes of row y (border-mapped) for the column whose output bytes start at x0, as words.
// fast: the whole window inside the row and rows GM_LOADALIGN-byte aligned (the warp's choice, so no work-item diverges).
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


// Chunk c's B operand for channel ch from a work-item's window words: its pixels 4c, 4c + 1 (k = 2t, 2t + 1) and
// 4c + 2, 4c + 3 (k = 2t + 8, 2t + 9) of that channel, each the 16-bit float 1024 + b (one byte permute a pair, under
// the exponent byte 0x64), less 1024. rgba8888 first gathers a channel pair's bytes of two pixels into one word.
inline uint2 gm_bytes_b(const uint *w, int c, int ch)
{
#if GM_CH == 1
    const uint x01 = w[c], x23 = w[c];
    const uint s01 = 0x4140u, s23 = 0x4342u;
#else
    const uint sel = ch < 2 ? 0x5140u : 0x7362u; // (p0 ch, p1 ch, p0 ch + 1, p1 ch + 1) of channels 0-1 or 2-3
    const uint x01 = fwb_prmt(w[4 * c], w[4 * c + 1], sel), x23 = fwb_prmt(w[4 * c + 2], w[4 * c + 3], sel);
    const uint s01 = (ch & 1) ? 0x4342u : 0x4140u, s23 = s01;
#endif
    return (uint2)(ss_h2sub(fwb_prmt(x01, 0x64646464u, s01), 0x64006400u),
                   ss_h2sub(fwb_prmt(x23, 0x64646464u, s23), 0x64006400u));
}

// Each row-pass sum (exact) to the nearest multiple of 1/8, exact in 16 bits: the two 16-bit pairs a work-item keeps
// for the column pass, output pixels (the row pass's matrix rows) g and g + 8 of a block's rows 2t and 2t + 1.
inline uint2 gm_round_pairs(gm_acc d)
{
    return (uint2)(ss_h2pack(rint(d.x * 8.0f) * 0.125f, rint(d.y * 8.0f) * 0.125f),
                   ss_h2pack(rint(d.z * 8.0f) * 0.125f, rint(d.w * 8.0f) * 0.125f));
}
// The column pass's B operand for output pixels b = 0 (the row pass's matrix rows 0-7) or 1 (8-15) from the row
// results of two blocks of 8 rows (k = their 16 rows).
inline uint2 gm_col_b(uint2 r0, uint2 r1, int b) { return b ? (uint2)(r0.y, r1.y) : (uint2)(r0.x, r1.x); }

#if GM_MMA
// The row pass of channel ch over a work-item's window words of its row of a block of 8.
inline uint2 gm_rowpass(const uint *w, int ch, const uint4 *aRow)
{
    gm_acc d = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
    for (int c = 0; c < GM_KC; ++c)
        d = gm_mma(aRow[c], gm_bytes_b(w, c, ch), d);
    return gm_round_pairs(d);
}
#else
// The row pass of two blocks of 8 rows (window words w0, w1), every channel, as one batch of products: post its B
// operands (p = (block * GM_CH + channel) * 2 + chunk), then after a barrier take the results.
inline void gm_post_rows(const uint *w0, const uint *w1, local gm_scratch *s, int buf, int lane)
{
#pragma unroll 1
    for (int p = 0; p < GM_NB; ++p) {
        const int blk = p / (2 * GM_CH), ch = (p / 2) % GM_CH, c = p % 2;
        s->b[buf][p][lane] = gm_bytes_b(blk ? w1 : w0, c, ch);
    }
}
inline void gm_take_rows(local const gm_scratch *s, int buf, uint2 *r0, uint2 *r1, int lane)
{
#pragma unroll 1
    for (int q = 0; q < 2 * GM_CH; ++q) { // q = block * GM_CH + channel
        const gm_acc zero = {0.0f, 0.0f, 0.0f, 0.0f};
        const uint2 r = gm_round_pairs(gm_emul(s, 1, buf, 2 * q + 1, gm_emul(s, 0, buf, 2 * q, zero, lane), lane));
        if (q < GM_CH)
            r0[q] = r;
        else
            r1[q - GM_CH] = r;
    }
}
// The column pass of a step, every channel and both output halves (q = channel * 2 + half), as one batch.
inline void gm_post_cols(const uint2 *above, const uint2 *here, const uint2 *next, const uint2 *after,
                         local gm_scratch *s, int buf, int lane)
{
#pragma unroll 1
    for (int q = 0; q < 2 * GM_CH; ++q) {
        const int ch = q / 2, b = q % 2;
        s->b[buf][2 * q][lane] = gm_col_b(above[ch], here[ch], b);
        s->b[buf][2 * q + 1][lane] = gm_col_b(next[ch], after[ch], b);
    }
}
inline void gm_take_cols(local const gm_scratch *s, int buf, gm_acc *o, int lane)
{
#pragma unroll 1
    for (int q = 0; q < 2 * GM_CH; ++q) {
        const gm_acc zero = {0.0f, 0.0f, 0.0f, 0.0f};
        o[q] = gm_emul(s, 3, buf, 2 * q + 1, gm_emul(s, 2, buf, 2 * q, zero, lane), lane);
    }
}
#endif

// Four results as bytes of a word: each rounded to the nearest integer in the low bits of 2^23 + v (v >= 0; at most
// 255, which the 16-bit taps, whose sum may pass 1, could exceed by a fraction).
inline uint gm_pack4(float v0, float v1, float v2, float v3)
{
    const uint lo = fwb_prmt(as_uint(fmin(v0, 255.0f) + 8388608.0f), as_uint(fmin(v1, 255.0f) + 8388608.0f), 0x0040u);
    const uint hi = fwb_prmt(as_uint(fmin(v2, 255.0f) + 8388608.0f), as_uint(fmin(v3, 255.0f) + 8388608.0f), 0x0040u);
    return fwb_prmt(lo, hi, 0x5410u);
}

kernel __attribute__((reqd_work_group_size(TILE_W, TILE_H, 1)))
void gaussian_tensor_f16(global const uchar *src, global uchar *dst, int width, int height, constant float *coeffs,
                         int radius, float4 params, int srcPitch, int dstPitch)
{
    const int lid = (int)(get_local_id(1) * TILE_W + get_local_id(0));
    const int warp = lid / 32, lane = lid % 32, g = lane >> 2, t = lane & 3;
    const int widthBytes = width * GM_CH;
    uint4 aRow[GM_KC], aCol[2];
#pragma unroll
    for (int c = 0; c < GM_KC; ++c)
        aRow[c] = GM_A_OPERAND(gm_row_tap, coeffs, c, g, t);
#pragma unroll
    for (int c = 0; c < 2; ++c)
        aCol[c] = GM_A_OPERAND(gm_col_tap, coeffs, c, g, t);
#if !GM_MMA
    local gm_scratch scratch[GM_NW];
    local gm_scratch *mine = &scratch[warp];
#pragma unroll
    for (int c = 0; c < 2; ++c) {
        mine->a[c][lane] = aRow[c];
        mine->a[2 + c][lane] = aCol[c];
    }
    int ph = 0; // batches posted: the next one's buffer is ph % 2 (the first barrier also covers A)
#endif

    for (int it = 0; it < GM_ITER; ++it) {
        const int task = it * GM_NW + warp;
        const int col = task % GM_NCOL, seg = task / GM_NCOL;
        const int x0 = ((int)get_group_id(0) * TILE_W + 16 * col) * GM_CH; // the column's first output byte
        const int ys = (int)get_group_id(1) * GM_TH + seg * GM_SEGH;
        // A task past the tile (more warps than tasks) or past the row runs anyway when the products go through local
        // memory (every work-item at every barrier) and stores nothing.
        const bool active = task < GM_NTASK && x0 < widthBytes;
#if GM_MMA
        if (!active)
            continue;
#endif
        const bool fast = x0 >= GM_HALO && x0 + GM_CB + GM_HALO <= widthBytes && srcPitch % GM_LOADALIGN == 0;
        // inner: every row the task reads or writes lies inside the picture (and the window inside the row), so its
        // loads and stores go through pointers stepped 8 rows at a time, without the border rule or checks: the
        // address arithmetic of a row is then one add where it was about 25 instructions (the tasks at the picture's
        // edges take the other way).
        const bool inner = fast && ys >= 8 && ys + GM_SEGH + 24 <= height && dstPitch % GM_OB == 0;
        const size_t in8 = 8 * (size_t)srcPitch, out8 = 8 * (size_t)dstPitch;
        global const uchar *pin = src + (inner ? (size_t)(ys - 8 + g) * (size_t)srcPitch + (size_t)(x0 - GM_HALO + GM_TB * t) : 0);
        global uchar *pout = dst + (inner ? (size_t)(ys + g) * (size_t)dstPitch + (size_t)(x0 + GM_OB * t) : 0);
        uint w[4][GM_NWORDS]; // rows ys - 8, ys, then each step's y0 + 8 and y0 + 16 (g-th row of each block)
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            if (inner)
                gm_words(pin + k * in8, w[k]);
            else
                gm_load(src, ys - 8 + 8 * k + g, x0, t, width, height, srcPitch, fast, w[k]);
        }
        pin += 4 * in8;
        uint2 above[GM_CH], here[GM_CH];
#if GM_MMA
#pragma unroll
        for (int ch = 0; ch < GM_CH; ++ch) {
            above[ch] = gm_rowpass(w[0], ch, aRow);
            here[ch] = gm_rowpass(w[1], ch, aRow);
        }
#else
        gm_post_rows(w[0], w[1], mine, ph & 1, lane);
        barrier(CLK_LOCAL_MEM_FENCE);
        gm_take_rows(mine, ph++ & 1, above, here, lane);
#endif
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
            // Per channel: the row pass of the step's two new blocks of 8 rows, then the column pass, output pixels
            // b = 0 (the row pass's matrix rows 0-7) and 1 (8-15), k = rows y0 - 8 .. y0 + 23.
            gm_acc o[GM_CH][2];
#if GM_MMA
#pragma unroll
            for (int ch = 0; ch < GM_CH; ++ch) {
                const uint2 next = gm_rowpass(cur[0], ch, aRow);
                const uint2 after = gm_rowpass(cur[1], ch, aRow);
#pragma unroll
                for (int b = 0; b < 2; ++b) {
                    const gm_acc zero = {0.0f, 0.0f, 0.0f, 0.0f};
                    o[ch][b] = gm_mma(aCol[1], gm_col_b(next, after, b), gm_mma(aCol[0], gm_col_b(above[ch], here[ch], b), zero));
                }
                above[ch] = next;
                here[ch] = after;
            }
#else
            uint2 next[GM_CH], after[GM_CH];
            gm_post_rows(cur[0], cur[1], mine, ph & 1, lane);
            barrier(CLK_LOCAL_MEM_FENCE);
            gm_take_rows(mine, ph++ & 1, next, after, lane);
            gm_post_cols(above, here, next, after, mine, ph & 1, lane);
            barrier(CLK_LOCAL_MEM_FENCE);
            gm_take_cols(mine, ph++ & 1, &o[0][0], lane);
#pragma unroll
            for (int ch = 0; ch < GM_CH; ++ch) {
                above[ch] = next[ch];
                here[ch] = after[ch];
            }
#endif
            if (!active)
                continue;
            // Work-item (g, t): rows y0 + g (o.x, o.y) and y0 + g + 8 (o.z, o.w), pixels 4t + 2b + i, as GM_CH words a
            // row: gray8 the 4 pixels, rgba8888 one pixel's 4 channels a word.
            uint word[2][GM_CH];
#pragma unroll
            for (int h = 0; h < 2; ++h) {
#if GM_CH == 1
                word[h][0] = gm_pack4(h ? o[0][0].z : o[0][0].x, h ? o[0][0].w : o[0][0].y, h ? o[0][1].z : o[0][1].x,
                                      h ? o[0][1].w : o[0][1].y);
#else
#pragma unroll
                for (int q = 0; q < 4; ++q) {
                    float v[4];
#pragma unroll
                    for (int ch = 0; ch < 4; ++ch) {
                        const gm_acc a = o[ch][q >> 1];
                        v[ch] = h ? ((q & 1) ? a.w : a.z) : ((q & 1) ? a.y : a.x);
                    }
                    word[h][q] = gm_pack4(v[0], v[1], v[2], v[3]);
                }
#endif
            }
            if (inner) {
#pragma unroll
                for (int h = 0; h < 2; ++h) {
#if GM_CH == 1
                    *(global uint *)(pout + h * out8) = word[h][0];
#else
                    *(global uint4 *)(pout + h * out8) = (uint4)(word[h][0], word[h][1], word[h][2], word[h][3]);
#endif
                }
                pout += 2 * out8;
                continue;
            }
            const int x = x0 + GM_OB * t;
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int y = y0 + g + 8 * h;
                if (y >= height)
                    continue;
                global uchar *p = dst + (size_t)y * (size_t)dstPitch + x;
#pragma unroll
                for (int j = 0; j < GM_CH; ++j) {
                    if (x + 4 * j + 3 < widthBytes && dstPitch % 4 == 0) {
                        *(global uint *)(p + 4 * j) = word[h][j];
                    } else {
                        for (int q = 0; q < 4 && x + 4 * j + q < widthBytes; ++q)
                            p[4 * j + q] = (uchar)(word[h][j] >> (8 * q));
                    }
                }
            }
        }
    }
}

#endif
