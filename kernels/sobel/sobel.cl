// sobel.cl: Sobel edge filter, gx = [-1 0 1; -2 0 2; -1 0 1], gy its transpose, in exact integers.
// params.x picks the output: 0 = |gx| / 4, 1 = |gy| / 4, 2 = sqrt(gx^2 + gy^2) / 4 (rounded,
// saturated at 255). Dividing by 4, the sum of the positive weights, maps |gx| and |gy| (0..1020)
// onto 0..255 without clipping; the magnitude clips only above 1020 (strong diagonal edges). Outputs 3
// and 4 (gray8 only) write gx and gy as signed 16-bit numbers, two bytes a pixel: the output buffer is
// twice the input's size and its rows dstPitch bytes apart, as NPP's and OpenCV's 16-bit Sobel.
#include "integer_pixels.clh"

inline ipixel_t fwb_iabs(ipixel_t v) { return max(v, -v); }

// The output asked for: a constant where the program is built for it (-DFWB_PARAM_OUTPUT: the strips and stream
// rungs' paramDefines, so that their unrolled rows hold one output's arithmetic), else the run-time argument.
#ifdef FWB_PARAM_OUTPUT
#define SOBEL_OUTPUT(params) FWB_PARAM_OUTPUT
#else
#define SOBEL_OUTPUT(params) ((int)(params).x)
#endif

// rgba8888: alpha is not an edge to find. It passes through unchanged (the input's alpha at the output
// pixel), so an opaque photo stays opaque; the CPU reference does the same.
#if CHANNELS == 4
#define SOBEL_SET_ALPHA(v, a) ((v).w = (a))
#define SOBEL_ALPHA_OF(p) ((int)(p).w)
#else
#define SOBEL_SET_ALPHA(v, a) ((void)(a))
#define SOBEL_ALPHA_OF(p) 0
#endif

// alpha: the input's alpha at this pixel (ignored unless CHANNELS == 4).
inline void sobel_store(global uchar *dst, int index, ipixel_t gx, ipixel_t gy, float4 params, int alpha)
{
    const int output = SOBEL_OUTPUT(params);
#if CHANNELS == 1
    if (output >= 3) { // 3 = gx, 4 = gy as signed 16-bit numbers (NPP's and OpenCV's CV_16S), gray8 only
        ((global short *)dst)[index] = (short)(output == 3 ? gx : gy);
        return;
    }
#endif
    if (output == 0 || output == 1) {
        ipixel_t v = (fwb_iabs(output == 0 ? gx : gy) + 2) / 4;
        SOBEL_SET_ALPHA(v, alpha);
        fwb_store_int(dst, index, v);
    } else {
        pixel_t v = sqrt(CONVERT_PIXEL(gx * gx + gy * gy)) * 0.25f;
        SOBEL_SET_ALPHA(v, (float)alpha);
        fwb_store(dst, index, v);
    }
}

// p00..p22: the 3x3 neighbourhood, row-major (first digit the row).
#define SOBEL_GX(p00, p01, p02, p10, p12, p20, p21, p22) ((p02 + 2 * p12 + p22) - (p00 + 2 * p10 + p20))
#define SOBEL_GY(p00, p01, p02, p10, p12, p20, p21, p22) ((p20 + 2 * p21 + p22) - (p00 + 2 * p01 + p02))

// Nine reads per pixel straight from global memory (the cache serves the overlap).
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_sobel_naive)
kernel void sobel_naive(global const uchar *src, global uchar *dst, int width, int height,
                        constant float *coeffs, int radius, float4 params)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    ipixel_t p[3][3];
    if (x >= 1 && x + 1 < width && y >= 1 && y + 1 < height) {
        for (int dy = 0; dy < 3; ++dy)
            for (int dx = 0; dx < 3; ++dx)
                p[dy][dx] = fwb_load_int(src, (y + dy - 1) * width + x + dx - 1);
    } else {
        for (int dy = 0; dy < 3; ++dy)
            for (int dx = 0; dx < 3; ++dx)
                p[dy][dx] = fwb_load_int_border(src, x + dx - 1, y + dy - 1, width, height);
    }
    const ipixel_t gx = SOBEL_GX(p[0][0], p[0][1], p[0][2], p[1][0], p[1][2], p[2][0], p[2][1], p[2][2]);
    const ipixel_t gy = SOBEL_GY(p[0][0], p[0][1], p[0][2], p[1][0], p[1][2], p[2][0], p[2][1], p[2][2]);
    sobel_store(dst, y * width + x, gx, gy, params, SOBEL_ALPHA_OF(p[1][1]));
}
#endif

#if defined(TILE_W) && defined(TILE_H)
// The work-group stages its tile plus a 1-pixel halo in __local memory, then reads the nine
// neighbours from there. As with seed 004's 5x5 tile, the cache usually serves these overlapping
// reads already; the copy and the barrier are the price.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_sobel_local)
kernel void sobel_local(global const uchar *src, global uchar *dst, int width, int height,
                        constant float *coeffs, int radius, float4 params)
{
#if CHANNELS == 4
    // Four bytes a pixel in local memory: one 32-bit load per neighbour (an int4 tile whose alpha lane
    // is unused lets the compiler split each load into three).
    local uchar4 tileBytes[TILE_H + 2][TILE_W + 2];
#define SOBEL_TILE_PUT(ty, tx, v) (tileBytes[ty][tx] = convert_uchar4(v))
#define tile_at(ty, tx) convert_int4(tileBytes[ty][tx])
#else
    local ipixel_t tileInts[TILE_H + 2][TILE_W + 2];
#define SOBEL_TILE_PUT(ty, tx, v) (tileInts[ty][tx] = (v))
#define tile_at(ty, tx) tileInts[ty][tx]
#endif
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int originX = (int)get_group_id(0) * TILE_W - 1;
    const int originY = (int)get_group_id(1) * TILE_H - 1;
    for (int ty = ly; ty < TILE_H + 2; ty += TILE_H)
        for (int tx = lx; tx < TILE_W + 2; tx += TILE_W)
            SOBEL_TILE_PUT(ty, tx, fwb_load_int_border(src, originX + tx, originY + ty, width, height));
    barrier(CLK_LOCAL_MEM_FENCE);
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    const ipixel_t gx = SOBEL_GX(tile_at(ly, lx), tile_at(ly, lx + 1), tile_at(ly, lx + 2), tile_at(ly + 1, lx),
                                 tile_at(ly + 1, lx + 2), tile_at(ly + 2, lx), tile_at(ly + 2, lx + 1), tile_at(ly + 2, lx + 2));
    const ipixel_t gy = SOBEL_GY(tile_at(ly, lx), tile_at(ly, lx + 1), tile_at(ly, lx + 2), tile_at(ly + 1, lx),
                                 tile_at(ly + 1, lx + 2), tile_at(ly + 2, lx), tile_at(ly + 2, lx + 1), tile_at(ly + 2, lx + 2));
    sobel_store(dst, y * width + x, gx, gy, params, SOBEL_ALPHA_OF(tile_at(ly + 1, lx + 1)));
#undef SOBEL_TILE_PUT
#undef tile_at
}
#endif
#endif

// Separable, pass 1 of 2: Sobel = [1 2 1] smoothing x [-1 0 1] derivative. Per pixel the row pass
// keeps both 1-D results as 16-bit integers, side by side in the 4-byte-per-channel scratch buffer:
// d = p(x+1) - p(x-1) at short-vector index 2i and s = p(x-1) + 2p(x) + p(x+1) at 2i+1.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_sobel_separable_h)
kernel void sobel_separable_h(global const uchar *src, global short *tmp, int width, int height,
                              constant float *coeffs, int radius, float4 params)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    const int row = y * width;
    const ipixel_t left = fwb_load_int_row(src, row, x - 1, width);
    const ipixel_t centre = fwb_load_int(src, row + x);
    const ipixel_t right = fwb_load_int_row(src, row, x + 1, width);
    const int i = row + x;
    ipixel_t d = right - left;
    SOBEL_SET_ALPHA(d, SOBEL_ALPHA_OF(centre)); // rgba8888: the alpha lane carries the input's alpha to pass 2
    fwb_stores(tmp, 2 * i, CONVERT_SPIXEL(d));
    fwb_stores(tmp, 2 * i + 1, CONVERT_SPIXEL(left + 2 * centre + right));
}
#endif

// Separable, pass 2 of 2: gx = [1 2 1] down the column of d, gy = [-1 0 1] down the column of s.
// Six reads per pixel over the two passes instead of nine, at the cost of a scratch round trip.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_sobel_separable_v)
kernel void sobel_separable_v(global const short *tmp, global uchar *dst, int width, int height,
                              constant float *coeffs, int radius, float4 params)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    const int up = fwb_border_index(y - 1, height), down = fwb_border_index(y + 1, height);
    const int i = y * width + x;
    const ipixel_t dUp = up < 0 ? IPIXEL_ZERO : CONVERT_IPIXEL(fwb_loads(tmp, 2 * (up * width + x)));
    const ipixel_t sUp = up < 0 ? IPIXEL_ZERO : CONVERT_IPIXEL(fwb_loads(tmp, 2 * (up * width + x) + 1));
    const ipixel_t dDown = down < 0 ? IPIXEL_ZERO : CONVERT_IPIXEL(fwb_loads(tmp, 2 * (down * width + x)));
    const ipixel_t sDown = down < 0 ? IPIXEL_ZERO : CONVERT_IPIXEL(fwb_loads(tmp, 2 * (down * width + x) + 1));
    const ipixel_t dCentre = CONVERT_IPIXEL(fwb_loads(tmp, 2 * i));
    sobel_store(dst, i, dUp + 2 * dCentre + dDown, sDown - sUp, params, SOBEL_ALPHA_OF(dCentre));
}
#endif

#if defined(BLOCK_W) && defined(BLOCK_H)
#include "byte_strips.clh"
#define SOBEL_NL BS_HALO_VECTORS(CHANNELS) // whole vectors of halo on each side (one pixel is needed)
#define SOBEL_NV (BS_NC + 2 * SOBEL_NL)
// Keep the three input rows in registers while sliding down (else re-read two of them, from cache).
#ifndef SOBEL_RING
#define SOBEL_RING 1
#endif
// A row vector seen as 32-bit words (one rgba8888 pixel each), for the alpha pass-through.
#if BS_VW == 16
#define SOBEL_AS_U32V as_uint4
#define SOBEL_AS_U8V as_uchar16
#elif BS_VW == 8
#define SOBEL_AS_U32V as_uint2
#define SOBEL_AS_U8V as_uchar8
#else
#define SOBEL_AS_U32V as_uint
#define SOBEL_AS_U8V as_uchar4
#endif

#if CHANNELS == 1
// Pixels x .. x + BS_VW - 1 of row y as signed 16-bit numbers (outputs 3 and 4), clipped to the image; rows lie
// `pitch` bytes apart.
inline void sobel_store_s16(global uchar *dst, int width, int height, int pitch, int y, int x, bs_s16v v)
{
    if (y >= height)
        return;
    global short *row = (global short *)(dst + (size_t)y * (size_t)pitch);
    if (x + BS_VW <= width) {
        BS_VSTORE(v, 0, row + x);
        return;
    }
    short values[BS_VW];
    BS_VSTORE(v, 0, values);
    for (int i = 0; i < BS_VW && x + i < width; ++i)
        row[x + i] = values[i];
}
#endif

// Roofline rung: a work-item owns BLOCK_W pixels across and BLOCK_H rows down and keeps the three
// input rows it needs in registers as whole vectors, loading one new row per output row (SOBEL_RING). The vertical
// part comes first on aligned vectors (a = up + 2 mid + down, b = down - up, 16-bit), then gx and gy
// use byte-shifted copies of a and b: gx = a(x+1) - a(x-1), gy = b(x-1) + 2 b(x) + b(x+1). Same
// integers and the same rounding as sobel_store().
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_sobel_roofline)
// The block's rows; `wide` (a constant where it is called: one copy of the loop each) stores gx or gy as signed
// 16-bit numbers (outputs 3 and 4, gray8), else the output's bytes.
__attribute__((always_inline)) inline void sobel_roofline_rows(global const uchar *restrict src, global uchar *restrict dst,
                                                               int width, int height, int srcPitch, int dstPitch, int x0,
                                                               int y0, const int output, const int wide)
{
    bs_u8v r0[SOBEL_NV], r1[SOBEL_NV], r2[SOBEL_NV];
#if SOBEL_RING
    bs_load_row_p(src, width, height, srcPitch, y0 - 1, x0, SOBEL_NL, SOBEL_NV, r0);
    bs_load_row_p(src, width, height, srcPitch, y0, x0, SOBEL_NL, SOBEL_NV, r1);
#endif
    // Every row of the block is computed (row loads follow the border rule, so they stay inside the
    // buffer) and only the store clips: a loop without exits, unrolled, lets the compiler issue the next
    // rows' loads (restrict: they cannot alias the stores) while the current row computes.
#pragma unroll
    for (int i = 0; i < BLOCK_H; ++i) {
        const int y = y0 + i;
#if !SOBEL_RING
        bs_load_row_p(src, width, height, srcPitch, y - 1, x0, SOBEL_NL, SOBEL_NV, r0);
        bs_load_row_p(src, width, height, srcPitch, y, x0, SOBEL_NL, SOBEL_NV, r1);
#endif
        bs_load_row_p(src, width, height, srcPitch, y + 1, x0, SOBEL_NL, SOBEL_NV, r2);
        bs_s16v a[SOBEL_NV], b[SOBEL_NV];
#pragma unroll
        for (int k = 0; k < SOBEL_NV; ++k) {
            const bs_s16v up = BS_CONVERT_S16(r0[k]), down = BS_CONVERT_S16(r2[k]);
            a[k] = up + (bs_s16v)(2) * BS_CONVERT_S16(r1[k]) + down;
            b[k] = down - up;
        }
        bs_u8v o[BS_NC];
#pragma unroll
        for (int j = 0; j < BS_NC; ++j) {
            const int pos = (SOBEL_NL + j) * BS_VW;
            const bs_s16v gx = bs_at_s16(a, pos + CHANNELS, SOBEL_NV) - bs_at_s16(a, pos - CHANNELS, SOBEL_NV);
            const bs_s16v gy = bs_at_s16(b, pos - CHANNELS, SOBEL_NV) + (bs_s16v)(2) * b[SOBEL_NL + j]
                               + bs_at_s16(b, pos + CHANNELS, SOBEL_NV);
#if CHANNELS == 1
            if (wide) {
                sobel_store_s16(dst, width, height, dstPitch, y, x0 + j * BS_VW, output == 3 ? gx : gy);
                continue;
            }
#endif
            if (output == 0) {
                o[j] = BS_CONVERT_U8_SAT((abs(gx) + (bs_u16v)(2)) >> 2);
            } else if (output == 1) {
                o[j] = BS_CONVERT_U8_SAT((abs(gy) + (bs_u16v)(2)) >> 2);
            } else {
                const BS_CAT(int, BS_VW) ix = BS_CONVERT_INT(gx), iy = BS_CONVERT_INT(gy);
                o[j] = BS_CONVERT_U8_SAT(sqrt(BS_CONVERT_FLOAT(ix * ix + iy * iy)) * 0.25f + 0.5f);
            }
        }
#if CHANNELS == 4
        // Alpha passes through: every fourth byte (vectors start at whole pixels) from the centre row.
        const uint alphaMask = as_uint((uchar4)(0, 0, 0, 0xff));
#pragma unroll
        for (int j = 0; j < BS_NC; ++j)
            o[j] = SOBEL_AS_U8V((SOBEL_AS_U32V(o[j]) & ~alphaMask) | (SOBEL_AS_U32V(r1[SOBEL_NL + j]) & alphaMask));
#endif
        if (!wide)
            bs_store_row_p(dst, width, height, dstPitch, y, x0, o);
#if SOBEL_RING
#pragma unroll
        for (int k = 0; k < SOBEL_NV; ++k) {
            r0[k] = r1[k];
            r1[k] = r2[k];
        }
#endif
    }
}

kernel void sobel_roofline(global const uchar *restrict src, global uchar *restrict dst, int width, int height,
                           constant float *coeffs, int radius, float4 params, int srcPitch, int dstPitch)
{
    const int x0 = (int)get_global_id(0) * BLOCK_W, y0 = (int)get_global_id(1) * BLOCK_H;
    if (x0 >= width || y0 >= height)
        return;
    // Built per output (SOBEL_OUTPUT): H200 gray8 |gx| 0.0566 -> 0.0519 ms (docs/data/session31-2026-11-29/c1).
    const int output = SOBEL_OUTPUT(params);
#if CHANNELS == 1
    if (output >= 3) { // gx or gy as signed 16-bit numbers (see the top of this file): a copy of the loop of its own
        sobel_roofline_rows(src, dst, width, height, srcPitch, dstPitch, x0, y0, output, 1);
        return;
    }
#endif
    sobel_roofline_rows(src, dst, width, height, srcPitch, dstPitch, x0, y0, output, 0);
}
#endif
#endif

// Streaming rung (gray8 and rgba8888): stream3x3.clh's strips, 16 bytes across and BLOCK_H rows down,
// every row's loads issued together. The arithmetic runs two pixels per 32-bit word, in 16-bit halves
// kept non-negative by a bias: a word's even bytes (w & 0x00ff00ff) and odd bytes ((w >> 8) & 0x00ff00ff)
// give the row pass d = right - left + 255 (0..510) and s = left + 2 centre + right (0..1020); the column
// pass gx + 1020 = d(above) + 2 d(here) + d(below) and gy + 1020 = s(below) - s(above) + 1020 (0..2040),
// |g| + 1020 = max(v, 2040 - v), and (|g| + 2) / 4 a subtraction, a shift and a mask: the reference's
// integers and rounding (sobel_store()), about a third of the operations of 16-bit lanes and half the
// registers. The magnitude takes each pixel's gx and gy out to float as sobel_store() does. rgba8888:
// alpha passes through from the centre row.
#if defined(BLOCK_W) && defined(BLOCK_H) && (BLOCK_W * CHANNELS <= 16 || defined(FWB_WANT_sobel_stream)) && CHANNELS != 3 \
    && (!defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_sobel_stream))
typedef struct {
    uint4 de, dodd, se, sodd; // d and s of the even and the odd bytes
} sobel_row_t;
#define S3_ROW_T sobel_row_t
inline sobel_row_t s3_row(uchar16 l, uchar16 c, uchar16 r)
{
    const uint4 wl = as_uint4(l), wc = as_uint4(c), wr = as_uint4(r);
    const uint4 le = FWB_EVEN_BYTES(wl), lo = FWB_ODD_BYTES(wl), re = FWB_EVEN_BYTES(wr), ro = FWB_ODD_BYTES(wr);
    sobel_row_t o = {re + (uint4)(0x00FF00FFu) - le, ro + (uint4)(0x00FF00FFu) - lo,
                     le + (FWB_EVEN_BYTES(wc) << 1) + re, lo + (FWB_ODD_BYTES(wc) << 1) + ro};
    return o;
}
#if CHANNELS == 1 && !(defined(FWB_PARAM_OUTPUT) && FWB_PARAM_OUTPUT >= 3)
// gray8 from stream3x3.clh's halves (S3_ROW_HALVES, where the views are made by words): an even output's left,
// centre and right pixels are pm, e and o, an odd one's e, o and pp. H200, 6720x4480 (docs/data/session29-2026-11-28/c4):
// |gx| 0.0275 -> 0.0267 ms, |gy| 0.0312 -> 0.0255, the magnitude 0.0442 -> 0.0368; not the 16-bit outputs 3 and 4
// (gx, gy), which it slowed (0.0292 -> 0.0366, 0.0299 -> 0.0330).
#define S3_ROW_HALVES
inline sobel_row_t s3_row_halves(uint4 pm, uint4 e, uint4 o, uint4 pp)
{
    const sobel_row_t r = {o + (uint4)(0x00FF00FFu) - pm, pp + (uint4)(0x00FF00FFu) - e, pm + (e << 1) + o,
                           e + (o << 1) + pp};
    return r;
}
#endif
// (|g| + 2) / 4 in both halves of v = g + 1020 (0..2040), back in the low byte of each half.
inline uint4 sobel_abs_quarter(uint4 v)
{
    const uint4 w = (uint4)(0x07F807F8u) - v;
    const uint4 m = (uint4)(as_uint(max(as_ushort2(v.x), as_ushort2(w.x))), as_uint(max(as_ushort2(v.y), as_ushort2(w.y))),
                            as_uint(max(as_ushort2(v.z), as_ushort2(w.z))), as_uint(max(as_ushort2(v.w), as_ushort2(w.w))));
    return ((m - (uint4)(0x03FA03FAu)) >> 2) & (uint4)(0x00FF00FFu);
}
// The halves of v (g + 1020) as gx or gy, even bytes first.
inline float16 sobel_halves(uint4 e, uint4 o)
{
    const int16 g = (int16)((int)(e.x & 0xFFFFu), (int)(o.x & 0xFFFFu), (int)(e.x >> 16), (int)(o.x >> 16),
                            (int)(e.y & 0xFFFFu), (int)(o.y & 0xFFFFu), (int)(e.y >> 16), (int)(o.y >> 16),
                            (int)(e.z & 0xFFFFu), (int)(o.z & 0xFFFFu), (int)(e.z >> 16), (int)(o.z >> 16),
                            (int)(e.w & 0xFFFFu), (int)(o.w & 0xFFFFu), (int)(e.w >> 16), (int)(o.w >> 16)) - (int16)(1020);
    return convert_float16(g * g);
}
#if defined(FWB_PARAM_OUTPUT) && FWB_PARAM_OUTPUT >= 3 && CHANNELS == 1
// Outputs 3 and 4: the strip's 16 values of gx or gy as signed 16-bit numbers (stream3x3.clh stores 32 bytes
// a row). v = g + 1020 in the halves of the even (e) and odd (o) bytes' words: pixels 0 and 2 in e.x, 1 and 3 in o.x.
#define S3_WIDE_OUT 1
// Word by word: the halves of pixels 0 and 1 joined by a byte permute (fwb_prmt), then 1020 off both halves at
// once: each half's top bit set first so that the subtraction borrows nothing across them (v < 2^15), then
// flipped back, which leaves g in two's complement.
inline uint sobel_signed_word(uint even, uint odd, uint sel)
{
    return ((fwb_prmt(even, odd, sel) | 0x80008000u) - 0x03FC03FCu) ^ 0x80008000u;
}
inline short16 sobel_signed(uint4 e, uint4 o)
{
    return as_short16((uint8)(sobel_signed_word(e.x, o.x, 0x5410), sobel_signed_word(e.x, o.x, 0x7632),
                              sobel_signed_word(e.y, o.y, 0x5410), sobel_signed_word(e.y, o.y, 0x7632),
                              sobel_signed_word(e.z, o.z, 0x5410), sobel_signed_word(e.z, o.z, 0x7632),
                              sobel_signed_word(e.w, o.w, 0x5410), sobel_signed_word(e.w, o.w, 0x7632)));
}
inline short16 s3_column(sobel_row_t above, sobel_row_t here, sobel_row_t below, uchar16 centre, float4 params)
{
    if (FWB_PARAM_OUTPUT == 3)
        return sobel_signed(above.de + (here.de << 1) + below.de, above.dodd + (here.dodd << 1) + below.dodd);
    return sobel_signed(below.se + (uint4)(0x03FC03FCu) - above.se, below.sodd + (uint4)(0x03FC03FCu) - above.sodd);
}
#else
inline uchar16 s3_column(sobel_row_t above, sobel_row_t here, sobel_row_t below, uchar16 centre, float4 params)
{
    const int output = SOBEL_OUTPUT(params); // built per output: one path in the loop
    const uint4 gxe = above.de + (here.de << 1) + below.de, gxo = above.dodd + (here.dodd << 1) + below.dodd;
    const uint4 gye = below.se + (uint4)(0x03FC03FCu) - above.se, gyo = below.sodd + (uint4)(0x03FC03FCu) - above.sodd;
    uchar16 o;
    if (output == 0) {
        o = as_uchar16(sobel_abs_quarter(gxe) | (sobel_abs_quarter(gxo) << 8));
    } else if (output == 1) {
        o = as_uchar16(sobel_abs_quarter(gye) | (sobel_abs_quarter(gyo) << 8));
    } else {
        o = convert_uchar16_sat(sqrt(sobel_halves(gxe, gxo) + sobel_halves(gye, gyo)) * 0.25f + 0.5f);
    }
#if CHANNELS == 4
    const uint alphaMask = as_uint((uchar4)(0, 0, 0, 0xff));
    o = as_uchar16((as_uint4(o) & ~alphaMask) | (as_uint4(centre) & alphaMask));
#endif
    return o;
}
#endif
// The l and r views one byte permute per word on NVIDIA (stream3x3.clh's S3_VIEWS_BY_WORDS): H100, 6720x4480,
// flushed, two rounds (docs/data/session21-2026-11-27/c5): gray8 0.0356 -> 0.0328 ms, rgba8888 0.0961 -> 0.0930.
// (The min/max rungs stay on the byte shuffle: with the permutes their gray8 ran 30-40% slower. Box took the
// permutes with its two-pixels-a-word arithmetic in session 25: box.cl.)
#ifndef S3_VIEWS_BY_WORDS
#define S3_VIEWS_BY_WORDS FWB_PTX
#endif
#include "stream3x3.clh"

kernel void sobel_stream(global const uchar *restrict src, global uchar *restrict dst, int width, int height,
                         constant float *coeffs, int radius, float4 params, int srcPitch, int dstPitch)
{
    s3_strip(src, dst, width, height, srcPitch, dstPitch, params);
}
#endif
