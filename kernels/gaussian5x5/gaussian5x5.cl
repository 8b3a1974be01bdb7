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
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_gaussian5x5_private_array)
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
#endif

// Size known at compile time: both loops unroll and every weight becomes an immediate operand
// (seed 004's "simple port", 2.605 ms on an RTX 2060).
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_gaussian5x5_unrolled)
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
#endif

// Weights in __constant memory, loop bound still a runtime argument: no spill, but no unrolling
// either (seed 004: 3.48 ms against 2.605 ms for the unrolled port).
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_gaussian5x5_constant)
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
#endif

#if defined(TILE_W) && defined(TILE_H)
// The work-group stages its tile plus a 2-pixel halo in __local memory once, then every work-item
// reads its 25 neighbours from there. Seed 004: no gain (1.96 vs 1.63 ms) because L1 already
// serves the overlapping reads; on devices whose local memory is emulated it can only cost.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_gaussian5x5_local)
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
#endif

// Reads through an image2d_t and a sampler (the texture path and its cache); borders are remapped
// by hand so every border mode matches the reference exactly. gray8 -> CL_R, rgba8888 -> CL_RGBA.
constant sampler_t fwb_nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_gaussian5x5_image)
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
#endif

// The 8 pixels x0-2 .. x0+5 of one row, all inside the image; p points at pixel x0-2's first byte.
// gray8 and rgb888 use vload8/vload16 of uchar (8 and 24 bytes). rgba8888 pixels always start on a
// 4-byte boundary (buffers are allocated aligned), so they are read as whole uchar4 words: vload16
// may only assume byte alignment, and on the H100 its byte-by-byte loads made rgba8888 1.8x slower.
inline void gaussian5x5_row8(global const uchar *p, pixel_t px[8])
{
#if CHANNELS == 1
    const float8 v = convert_float8(vload8(0, p));
    px[0] = v.s0; px[1] = v.s1; px[2] = v.s2; px[3] = v.s3;
    px[4] = v.s4; px[5] = v.s5; px[6] = v.s6; px[7] = v.s7;
#elif CHANNELS == 3
    const float16 a = convert_float16(vload16(0, p));    // pixels 0..4 and the first byte of pixel 5
    const float8 b = convert_float8(vload8(0, p + 16)); // the rest of pixel 5, pixels 6 and 7
    px[0] = a.s012; px[1] = a.s345; px[2] = a.s678; px[3] = a.s9ab; px[4] = a.scde;
    px[5] = (float3)(a.sf, b.s0, b.s1); px[6] = b.s234; px[7] = b.s567;
#else
    global const uchar4 *q = (global const uchar4 *)p;
#pragma unroll
    for (int i = 0; i < 8; ++i)
        px[i] = convert_float4(q[i]);
#endif
}

// Four horizontally adjacent outputs per work-item (NDRange ceil(W/4) x H): the four 5x5 windows
// overlap, so each of the 5 rows needs only the 8 pixels x0-2 .. x0+5, fetched with one or two
// vector loads instead of 20 single-pixel ones, and the 4 results leave in one wide store. A single
// byte of output per work-item left the H100 at 11% of its copy bandwidth.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_gaussian5x5_vectorized)
kernel void gaussian5x5_vectorized(global const uchar *src, global uchar *dst, int width, int height,
                                   constant float *coeffs, int radius, float4 params)
{
    const int x0 = 4 * (int)get_global_id(0), y = get_global_id(1);
    if (x0 >= width || y >= height)
        return;
    const float filter[25] = {FWB_WEIGHTS};
    // Columns x0-2 .. x0+5 all inside: vector loads. Otherwise (left/right edge, or the last partial
    // group of a width that is not a multiple of 4) each pixel goes through the border rule.
    const bool columnsInside = x0 >= 2 && x0 + 6 <= width;
    pixel_t sum[4] = {PIXEL_ZERO, PIXEL_ZERO, PIXEL_ZERO, PIXEL_ZERO};
#pragma unroll
    for (int dy = 0; dy < 5; ++dy) {
        // Rows are remapped once per row (cheap), so rows above and below the image still load wide.
        const int sy = fwb_border_index(y + dy - 2, height);
        pixel_t px[8];
        if (sy < 0) { // constant border: the whole row reads 0
#pragma unroll
            for (int i = 0; i < 8; ++i)
                px[i] = PIXEL_ZERO;
        } else if (columnsInside) {
            gaussian5x5_row8(src + (size_t)(sy * width + x0 - 2) * CHANNELS, px);
        } else {
#pragma unroll
            for (int i = 0; i < 8; ++i) {
                const int sx = fwb_border_index(x0 - 2 + i, width);
                px[i] = sx < 0 ? PIXEL_ZERO : fwb_load(src, sy * width + sx);
            }
        }
        // Same (dy, dx) summation order per output as the other variants and the CPU reference.
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int dx = 0; dx < 5; ++dx)
                sum[i] += filter[dy * 5 + dx] * px[i + dx];
    }
    const int index = y * width + x0;
    global uchar *out = dst + (size_t)index * CHANNELS;
    if (x0 + 4 <= width) { // a full group: one wide store (gray8 4 bytes, rgb888 12, rgba8888 16)
#if CHANNELS == 1
        vstore4(convert_uchar4_sat((float4)(sum[0], sum[1], sum[2], sum[3]) + 0.5f), 0, out);
#elif CHANNELS == 3
        const uchar3 c0 = convert_uchar3_sat(sum[0] + 0.5f), c1 = convert_uchar3_sat(sum[1] + 0.5f);
        const uchar3 c2 = convert_uchar3_sat(sum[2] + 0.5f), c3 = convert_uchar3_sat(sum[3] + 0.5f);
        vstore8((uchar8)(c0, c1, c2.s01), 0, out);
        vstore4((uchar4)(c2.s2, c3), 0, out + 8);
#else
        global uchar4 *q = (global uchar4 *)out; // aligned words, as for the loads
#pragma unroll
        for (int i = 0; i < 4; ++i)
            q[i] = convert_uchar4_sat(sum[i] + 0.5f);
#endif
    } else {
        // Constant indices (unrolled, guarded) keep sum[] in registers; a runtime bound could spill it.
#pragma unroll
        for (int i = 0; i < 4; ++i)
            if (x0 + i < width)
                fwb_store(dst, index + i, sum[i]);
    }
}
#endif

#ifdef FWB_G0
#if defined(FWB_WANT_gaussian5x5_stream)
#if defined(BLOCK_W) && defined(BLOCK_H) && CHANNELS != 3
// Streaming rung (gray8 and rgba8888): stream3x3.clh's strips with a 5x5 window (S3_R 2), 16 bytes across
// and BLOCK_H rows down, every row's loads issued together, the border rule's pixels put in by constant
// lanes at the rows' ends. The arithmetic is strips_half2's, operation for operation, in pairs of 16-bit
// floats (separable_strips.clh's SS_HALF2 explains the bound: within ±1 of the exact result): bytes enter
// as (1024 + b) - 1024, each output pair is five fused multiply-adds along x (the leftmost tap first) and
// five down y on the taps / 255, the last saturating to [0, 1], and x 255 + 1024 puts the byte in each
// half's low bits. A vector's bytes are converted to pairs once; the views one and two pixels over are
// then pairs of those pairs (gray8: a half-word permute for the odd shift) or the same pairs (rgba8888:
// a pixel is two pairs).
#define S3_R 2
#define S3_ROW_T uint8 // the row filtered along x: 8 pairs (16 bytes)
#include "half2.clh"

#define G5_MAGIC 0x64006400u // (1024, 1024)
// Bytes 0, 1 (lo) or 2, 3 (hi) of a word as a pair of halves, exactly: each byte under the magic's high byte
// (one byte permute, fwb_prmt), then the magic off.
inline uint g5_lo(uint x) { return ss_h2sub(fwb_prmt(x, G5_MAGIC, 0x7150u), G5_MAGIC); }
inline uint g5_hi(uint x) { return ss_h2sub(fwb_prmt(x, G5_MAGIC, 0x7352u), G5_MAGIC); }
#define G5_TAP(t) ((t) == 0 ? FWB_G0 : (t) == 1 ? FWB_G1 : (t) == 2 ? FWB_G2 : (t) == 3 ? FWB_G3 : FWB_G4)

// a, b, c: the 16 bytes before the strip, the strip's, the 16 after (their 2 pixels next to it count).
inline uint8 s3_row(uchar16 a, uchar16 b, uchar16 c)
{
    const uint4 wa = as_uint4(a), wb = as_uint4(b), wc = as_uint4(c);
    // q[k + 4]: bytes (2k, 2k + 1) of the strip as a pair, k = -4 .. 11 (before and after it: a and c).
    const uint q[16] = {g5_lo(wa.z), g5_hi(wa.z), g5_lo(wa.w), g5_hi(wa.w),
                        g5_lo(wb.x), g5_hi(wb.x), g5_lo(wb.y), g5_hi(wb.y),
                        g5_lo(wb.z), g5_hi(wb.z), g5_lo(wb.w), g5_hi(wb.w),
                        g5_lo(wc.x), g5_hi(wc.x), g5_lo(wc.y), g5_hi(wc.y)};
    uint h[8];
#pragma unroll
    for (int p = 0; p < 8; ++p) {
        uint acc = 0u;
#pragma unroll
        for (int t = 0; t < 5; ++t) {
            // The pair of bytes (2p + (t - 2) CHANNELS, + 1): pair q[p + 4 + (t - 2) CHANNELS / 2], or for an
            // odd gray8 shift the high half of one pair and the low half of the next.
            const int j = 2 * p + (t - 2) * CHANNELS + 8; // its first byte, counted from q[0]'s
            const uint pair = j % 2 == 0 ? q[j / 2] : (q[j / 2] >> 16) | (q[j / 2 + 1] << 16);
            acc = ss_h2fma(ss_h2pair(G5_TAP(t), G5_TAP(t)), pair, acc);
        }
        h[p] = acc;
    }
    return (uint8)(h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]);
}

inline uchar16 s3_column(uint8 r0, uint8 r1, uint8 r2, uint8 r3, uint8 r4, uchar16 centre, float4 params)
{
    const uint rows[5][8] = {{r0.s0, r0.s1, r0.s2, r0.s3, r0.s4, r0.s5, r0.s6, r0.s7},
                             {r1.s0, r1.s1, r1.s2, r1.s3, r1.s4, r1.s5, r1.s6, r1.s7},
                             {r2.s0, r2.s1, r2.s2, r2.s3, r2.s4, r2.s5, r2.s6, r2.s7},
                             {r3.s0, r3.s1, r3.s2, r3.s3, r3.s4, r3.s5, r3.s6, r3.s7},
                             {r4.s0, r4.s1, r4.s2, r4.s3, r4.s4, r4.s5, r4.s6, r4.s7}};
    uint v[8];
#pragma unroll
    for (int p = 0; p < 8; ++p) {
        uint acc = 0u;
#pragma unroll
        for (int t = 0; t < 4; ++t)
            acc = ss_h2fma(ss_h2pair(G5_TAP(t) * (1.0f / 255.0f), G5_TAP(t) * (1.0f / 255.0f)), rows[t][p], acc);
        acc = ss_h2fma_sat(ss_h2pair(G5_TAP(4) * (1.0f / 255.0f), G5_TAP(4) * (1.0f / 255.0f)), rows[4][p], acc);
        v[p] = ss_h2fma(acc, 0x5bf85bf8u, G5_MAGIC); // x 255 + 1024: the byte in each half's low bits
    }
    // Each pair's two bytes (its halves' low bytes), two pairs a word: one byte permute.
    return as_uchar16((uint4)(fwb_prmt(v[0], v[1], 0x6420u), fwb_prmt(v[2], v[3], 0x6420u), fwb_prmt(v[4], v[5], 0x6420u),
                              fwb_prmt(v[6], v[7], 0x6420u)));
}
#include "stream3x3.clh"

kernel void gaussian5x5_stream(global const uchar *restrict src, global uchar *restrict dst, int width, int height,
                               constant float *coeffs, int radius, float4 params, int srcPitch, int dstPitch)
{
    s3_strip(src, dst, width, height, srcPitch, dstPitch, params);
}
#endif
#elif CHANNELS != 3 && defined(BLOCK_W) && defined(BLOCK_H)
#define SS_R 2
#define SS_TAP(t) ((t) == 0 ? FWB_G0 : (t) == 1 ? FWB_G1 : (t) == 2 ? FWB_G2 : (t) == 3 ? FWB_G3 : FWB_G4)
#include "separable_strips.clh"

// Roofline rung, gray8 and rgba8888: see separable_strips.clh. Each work-item filters a strip of
// BLOCK_W pixels x BLOCK_H rows with the five 1-D taps (-DFWB_G0..G4, whose products are the 25 weights).
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_gaussian5x5_roofline)
kernel void gaussian5x5_roofline(global const uchar *src, global uchar *dst, int width, int height,
                                 constant float *coeffs, int radius, float4 params, int srcPitch, int dstPitch)
{
    ss_separable(src, dst, width, height, srcPitch, dstPitch, coeffs);
}
#endif
#elif CHANNELS == 3
#define RF_R 2
#include "roofline.clh"

// Roofline rung: each work-item computes BLOCK_W pixels across (16-byte chunks: 16 gray8 or 4 rgba8888
// pixels) x BLOCK_H rows down. It walks down its strip loading every input row once (one 16-byte load
// plus the 2-pixel halo), filters it along x with the five 1-D taps (-DFWB_G0..G4, whose products are
// the 25 weights), keeps the last five row results in registers and combines them along y: each input
// byte is fetched about (BLOCK_H + 4) / BLOCK_H times, 10 multiply-adds per output channel instead of
// 25, one 16-byte store per output row. Rows are border-mapped once each; columns near the left and
// right edges go through the border rule pixel by pixel inside rf_load_row.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_gaussian5x5_roofline)
kernel void gaussian5x5_roofline(global const uchar *src, global uchar *dst, int width, int height,
                                 constant float *coeffs, int radius, float4 params, int srcPitch, int dstPitch)
{
    const int y0 = (int)get_global_id(1) * BLOCK_H;
    if (y0 >= height)
        return;
    for (int c = 0; c < RF_CHUNKS; ++c) {
        const int x0 = rf_chunk_x(c);
        if (x0 >= width)
            break;
        float16 h0 = 0.0f, h1 = 0.0f, h2 = 0.0f, h3 = 0.0f;
#pragma unroll
        for (int i = 0; i < BLOCK_H + 4; ++i) {
            const int y = y0 - 2 + i; // input row; output row y - 2 once four rows are in
            if (y - 2 >= height)
                break;
            RF_ROW_DECL(row);
            rf_load_row(src, fwb_border_index(y, height), x0, width, srcPitch, RF_ROW_ARG(row));
            const float16 h = FWB_G0 * RF_WINDOW(row, 0) + FWB_G1 * RF_WINDOW(row, 1) + FWB_G2 * RF_WINDOW(row, 2)
                              + FWB_G3 * RF_WINDOW(row, 3) + FWB_G4 * RF_WINDOW(row, 4);
            if (i >= 4) {
                const float16 v = FWB_G0 * h0 + FWB_G1 * h1 + FWB_G2 * h2 + FWB_G3 * h3 + FWB_G4 * h;
                rf_store_chunk(dst, y - 2, x0, width, dstPitch, convert_uchar16_sat(v + 0.5f));
            }
            h0 = h1;
            h1 = h2;
            h2 = h3;
            h3 = h;
        }
    }
}
#endif
#endif // CHANNELS
#endif
