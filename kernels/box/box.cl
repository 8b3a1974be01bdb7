// box.cl: box blurs. Seed 001's interior-only 3x3 blur (one kernel, three launch rules) and the
// full-image blur of any radius with borders: naive 2-D, separable (two 1-D passes through a float
// scratch buffer), and sliding window (running sums: cost independent of the radius).
// All arithmetic is on exact integer sums, rounded once: every variant matches the CPU bit for bit.
#include "integer_pixels.clh"

// Seed 001's interior box on stream3x3.clh's strips (box3x3_interior_stream, at the end): only that
// section in its program.
#if defined(FWB_WANT_box3x3_interior_stream) && !defined(BOX_RADIUS) && CHANNELS != 3 && defined(BLOCK_W) && defined(BLOCK_H)
#define FWB_BOX_INTERIOR_STREAM
#endif

// Seed 001 (Intel, BoxBlur.cl): global size (width-2) x (height-2), one work-item per interior
// pixel; the border pixels keep their input values (the host copies src to dst first). The guard
// only matters for the rounded-up (uniform_padded) launch; exact and non-uniform launches never
// create surplus work-items.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_box3x3_interior)
kernel void box3x3_interior(global const uchar *src, global uchar *dst, int width, int height,
                            constant float *coeffs, int radius, float4 params)
{
    const int x = (int)get_global_id(0) + 1, y = (int)get_global_id(1) + 1;
    if (x >= width - 1 || y >= height - 1)
        return;
    ipixel_t sum = IPIXEL_ZERO;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            sum += fwb_load_int(src, (y + dy) * width + x + dx);
    fwb_store_int(dst, y * width + x, fwb_div_round(sum, 9));
}
#endif

// (2r+1)^2 reads per pixel: cost grows with the square of the radius. Pixels whose window lies
// inside the image skip the border arithmetic.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_box_naive)
kernel void box_naive(global const uchar *src, global uchar *dst, int width, int height,
                      constant float *coeffs, int radius, float4 params)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    const int side = 2 * radius + 1;
    ipixel_t sum = IPIXEL_ZERO;
    if (x >= radius && x + radius < width && y >= radius && y + radius < height) {
        for (int dy = -radius; dy <= radius; ++dy) {
            const int row = (y + dy) * width + x;
            for (int dx = -radius; dx <= radius; ++dx)
                sum += fwb_load_int(src, row + dx);
        }
    } else {
        for (int dy = -radius; dy <= radius; ++dy)
            for (int dx = -radius; dx <= radius; ++dx)
                sum += fwb_load_int_border(src, x + dx, y + dy, width, height);
    }
    fwb_store_int(dst, y * width + x, fwb_div_round(sum, side * side));
}
#endif

// Pass 1 of 2: horizontal sums of 2r+1 pixels into a float scratch buffer (exact: at most
// 101 * 255, far below 2^24). 2(2r+1) reads per pixel over both passes instead of (2r+1)^2.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_box_separable_h)
kernel void box_separable_h(global const uchar *src, global float *tmp, int width, int height,
                            constant float *coeffs, int radius, float4 params)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    const int row = y * width;
    ipixel_t sum = IPIXEL_ZERO;
    if (x >= radius && x + radius < width) {
        for (int dx = -radius; dx <= radius; ++dx)
            sum += fwb_load_int(src, row + x + dx);
    } else {
        for (int dx = -radius; dx <= radius; ++dx)
            sum += fwb_load_int_row(src, row, x + dx, width);
    }
    fwb_store_f32(tmp, row + x, CONVERT_PIXEL(sum));
}
#endif

// Pass 2 of 2: vertical sums of the row sums, one rounding division at the end.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_box_separable_v)
kernel void box_separable_v(global const float *tmp, global uchar *dst, int width, int height,
                            constant float *coeffs, int radius, float4 params)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    const int side = 2 * radius + 1;
    pixel_t sum = PIXEL_ZERO;
    for (int dy = -radius; dy <= radius; ++dy)
        sum += fwb_loadf_column(tmp, x, y + dy, width, height);
    fwb_store_int(dst, y * width + x, fwb_div_round(CONVERT_IPIXEL(sum), side * side));
}
#endif

// Sliding window, pass 1: one work-item walks whole rows keeping a running sum (add the pixel
// entering the window, subtract the one leaving): 2 reads per pixel whatever the radius.
// The launch is 1-D over `width` work-items (Geometry::Columns), so each strides over rows
// y, y + global size, ...; on a GPU neighbouring work-items read addresses a row apart
// (uncoalesced), which is why the column pass below is the fast one there.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_box_sliding_rows)
kernel void box_sliding_rows(global const uchar *src, global float *tmp, int width, int height,
                             constant float *coeffs, int radius, float4 params)
{
    for (int y = get_global_id(0); y < height; y += get_global_size(0)) {
        const int row = y * width;
        ipixel_t sum = IPIXEL_ZERO;
        for (int dx = -radius; dx <= radius; ++dx)
            sum += fwb_load_int_row(src, row, dx, width);
        for (int x = 0; x < width; ++x) {
            fwb_store_f32(tmp, row + x, CONVERT_PIXEL(sum));
            sum += fwb_load_int_row(src, row, x + radius + 1, width) - fwb_load_int_row(src, row, x - radius, width);
        }
    }
}
#endif

// Sliding window, pass 2: one work-item per column, running sum down the column. Neighbouring
// work-items touch neighbouring addresses on every step (coalesced on a GPU).
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_box_sliding_cols)
kernel void box_sliding_cols(global const float *tmp, global uchar *dst, int width, int height,
                             constant float *coeffs, int radius, float4 params)
{
    const int x = get_global_id(0);
    if (x >= width)
        return;
    const int area = (2 * radius + 1) * (2 * radius + 1);
    ipixel_t sum = IPIXEL_ZERO;
    for (int dy = -radius; dy <= radius; ++dy)
        sum += CONVERT_IPIXEL(fwb_loadf_column(tmp, x, dy, width, height));
    for (int y = 0; y < height; ++y) {
        fwb_store_int(dst, y * width + x, fwb_div_round(sum, area));
        sum += CONVERT_IPIXEL(fwb_loadf_column(tmp, x, y + radius + 1, width, height))
               - CONVERT_IPIXEL(fwb_loadf_column(tmp, x, y - radius, width, height));
    }
}
#endif

#if defined(FWB_BOX_INTERIOR_STREAM)
// (the streaming interior box: see the end of the file)
#elif defined(BLOCK_W) && defined(BLOCK_H) && !defined(BOX_RADIUS) && CHANNELS != 3 && !defined(RF_INT)
// gray8 and rgba8888: the strips of separable_strips.clh with taps of 1 (the sums of 1 + b * 2^-15 are
// exact in float, so SS_VALUE gives the integer sum s exactly). (2s + 9) / 18 truncated is round(s / 9) exactly: 2s + 9 is odd, so the quotient lies at least
// 1/18 away from an integer, and truncating q is rounding q - 1/2 to nearest, done in the mantissa.
#define SS_R 1
#define SS_TAP(t) 1.0f
#define SS_INTERIOR
#define SS_FINISH(o) (as_uint((2.0f * SS_VALUE(o) + 9.0f) * (1.0f / 18.0f) + 8388607.5f) & 255u)
#include "separable_strips.clh"

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_box3x3_interior_roofline)
kernel void box3x3_interior_roofline(global const uchar *src, global uchar *dst, int width, int height,
                                     constant float *coeffs, int radius, float4 params, int srcPitch, int dstPitch)
{
    ss_separable(src, dst, width, height, srcPitch, dstPitch, coeffs);
}
#endif
#elif defined(BLOCK_W) && defined(BLOCK_H) && !defined(BOX_RADIUS)
#define RF_R 1
#include "roofline.clh"

// Roofline rung of seed 001's interior 3x3 box: a work-item owns BLOCK_W pixels across (16-byte
// chunks) x BLOCK_H rows down and slides down its strip loading every input row once (one 16-byte load
// plus a 1-pixel halo), keeping the last two rows' horizontal 3-sums in registers: 3 + 3 adds per
// output channel, one 16-byte store per output row. The launch covers the whole image (ceil(W/BLOCK_W)
// x ceil(H/BLOCK_H)); the one-pixel frame keeps its input value (dst starts as a copy of src): rows 0 and
// H-1 are not written, and in columns 0 and W-1 the store puts the input pixel back, so every store stays
// one wide write. Sums are exact integers in float; (2s + 9) / 18 truncated is round(s / 9) exactly (2s + 9
// is odd, so the quotient is at least 1/18 away from an integer, far beyond float error). With -DRF_INT
// (gray8/rgba8888) the sums run in 16-bit integer lanes instead and divide by a multiply and shift:
// floor((2s + 9) / 18) == ((2s + 9) * 3641) >> 16 for every 2s + 9 <= 4599 (error under 0.0074, remainder at
// most 17/18). Measured on the H100 at 6720x4480 it changed nothing (0.076 vs 0.078 ms gray8, 8-row strips)
// and PoCL ran it slower (102 vs 29 ms at 3360x2240 on a busy 2-core host), so float lanes are the default.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_box3x3_interior_roofline)
kernel void box3x3_interior_roofline(global const uchar *src, global uchar *dst, int width, int height,
                                     constant float *coeffs, int radius, float4 params, int srcPitch, int dstPitch)
{
    const int y0 = (int)get_global_id(1) * BLOCK_H;
    if (y0 >= height)
        return;
    const int16 lane = (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (int c = 0; c < RF_CHUNKS; ++c) {
        const int x0 = rf_chunk_x(c);
        if (x0 >= width)
            break;
        const int16 px = x0 + lane / CHANNELS;
        const char16 frame = convert_char16((px == 0) | (px == width - 1)); // lanes that keep their input
        const bool anyFrame = x0 == 0 || x0 + RF_PX >= width;
        rf_v16 h0 = 0, h1 = 0, mid = 0;
#pragma unroll
        for (int i = 0; i < BLOCK_H + 2; ++i) {
            const int y = y0 - 1 + i; // input row; output row y - 1 once three rows are in
            if (y - 1 >= height - 1)
                break;
            RF_ROW_DECL(row);
            rf_load_row(src, fwb_border_index(y, height), x0, width, srcPitch, RF_ROW_ARG(row));
            const rf_v16 centre = RF_WINDOW(row, 1);
            const rf_v16 h = RF_WINDOW(row, 0) + centre + RF_WINDOW(row, 2);
            if (i >= 2 && y - 1 >= 1) {
#if RF_IS_INT
                uchar16 b = convert_uchar16(((convert_uint16(h0 + h1 + h) * 2u + 9u) * 3641u) >> 16);
                if (anyFrame)
                    b = select(b, convert_uchar16(mid), frame);
#else
                uchar16 b = convert_uchar16_sat((2.0f * (h0 + h1 + h) + 9.0f) * (1.0f / 18.0f));
                if (anyFrame)
                    b = select(b, convert_uchar16_sat(mid), frame);
#endif
                rf_store_chunk(dst, y - 1, x0, width, dstPitch, b);
            }
            h0 = h1;
            h1 = h;
            mid = centre;
        }
    }
}
#endif
#undef RF_R
#endif

#if defined(BLOCK_W) && defined(BLOCK_H) && defined(BOX_RADIUS) && !defined(TILE_W) && CHANNELS != 3 && BOX_RADIUS <= 2 \
    && !defined(BOX_PACKED)
// Box of radius 1 or 2 on the strips of separable_strips.clh (taps of 1: the sums are exact integers).
// (2s + area) / (2 area) truncated is the reference's rounded mean: 2s + area is odd, so the quotient lies
// at least 1 / (2 area) away from an integer, and truncating q is rounding q - 1/2, done in the mantissa.
#define SS_R BOX_RADIUS
#define SS_TAP(t) 1.0f
#define BOX_AREA ((2 * BOX_RADIUS + 1) * (2 * BOX_RADIUS + 1))
#define SS_FINISH(o) (as_uint((2.0f * SS_VALUE(o) + (float)BOX_AREA) * (1.0f / (2.0f * BOX_AREA)) + 8388607.5f) & 255u)
#include "separable_strips.clh"

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_box_strips)
kernel void box_strips(global const uchar *src, global uchar *dst, int width, int height, constant float *coeffs,
                       int radius, float4 params, int srcPitch, int dstPitch)
{
    ss_separable(src, dst, width, height, srcPitch, dstPitch, coeffs);
}
#endif
#endif

#if defined(TILE_W) && defined(TILE_H) && defined(BOX_RADIUS) && defined(BLOCK_W) && defined(BLOCK_H)
// Roofline rung of the box of any radius: both passes fused through __local memory with running sums
// (kernels/shared/fused_separable.clh): no scratch buffer in global memory, cost nearly flat in the radius.
#define FS_R BOX_RADIUS
#define FS_BOX 1
#define FS_NAME box_roofline
#include "fused_separable.clh"
#endif

#if defined(BOX_PACKED) && defined(BLOCK_W) && defined(BLOCK_H) && BOX_RADIUS == 1 && CHANNELS == 1 \
    && (!defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_box_packed))
// Packed rung of the 3x3 box in gray8: a work-item owns 16 pixels across (one aligned 16-byte vector)
// and BLOCK_H rows down (byte_strips.clh's row loads: the border rule on both axes, edge blocks gathered).
// Sums run two pixels at a time in the 16-bit halves of 32-bit words: a row word's even pixels
// (w & 0x00ff00ff) and odd pixels ((w >> 8) & 0x00ff00ff), each half then shifted by one pixel with a
// funnel shift from the neighbouring word, give the 3-wide row sums in two adds per half (at most 765);
// three rows' sums add to at most 2295, still inside a half. The rounded mean (2s + 9) / 18 is
// floor((s + 4) * 7282 / 2^16) for every s up to 2295 (checked exhaustively), one multiply per pixel,
// and one byte permute joins the four results. Exact. The strips: kernels/shared/packed_strips.clh.
// The 3-wide row sums of word k: even holds pixels 0 and 2, odd pixels 1 and 3 (low bytes of the halves).
inline void ps_row(const uint *w, int k, uint *even, uint *odd)
{
    const uint e = w[k + 1] & 0x00FF00FFu, o = (w[k + 1] >> 8) & 0x00FF00FFu;
    const uint before = (o << 16) | (w[k] >> 24);                // pixels -1 and 1
    const uint after = (e >> 16) | ((w[k + 2] & 0xFFu) << 16);   // pixels 2 and 4
    *even = e + o + before;
    *odd = o + e + after;
}
inline uint bp_mean(uint s) // both 16-bit halves: (s + 4) / 9 rounded as the reference rounds
{
    const uint lo = (((s & 0xFFFFu) + 4u) * 7282u) >> 16, hi = (((s >> 16) + 4u) * 7282u) >> 16;
    return lo | (hi << 16);
}
inline uint ps_column(uint e0, uint e1, uint e2, uint o0, uint o1, uint o2);
#include "packed_strips.clh"
// Three rows' sums, the means, and the low bytes joined: (even.b0, odd.b0, even.b2, odd.b2).
inline uint ps_column(uint e0, uint e1, uint e2, uint o0, uint o1, uint o2)
{
    return fwb_prmt(bp_mean(e0 + e1 + e2), bp_mean(o0 + o1 + o2), 0x6240u);
}

kernel void box_packed(global const uchar *src, global uchar *dst, int width, int height, constant float *coeffs,
                       int radius, float4 params, int srcPitch, int dstPitch)
{
    ps_strip(src, dst, width, height, srcPitch, dstPitch);
}
#endif

// Streaming rung of the 3x3 mean (gray8 and rgba8888): stream3x3.clh's strips, 16 bytes across and
// BLOCK_H rows down, every row's loads issued together; 16-bit row sums of the three views (at most 765),
// three rows' sums (at most 2295) and the rounded mean (2s + 9) / 18 as floor((s + 4) * 7282 / 2^16), one
// multiply-high per byte (box_packed's rounding, checked exhaustively). Exact. The interior box
// (box3x3_interior_stream) is the same with the one-pixel frame keeping its input (S3_KEEP_FRAME).
#if defined(BLOCK_W) && defined(BLOCK_H) && (BLOCK_W * CHANNELS <= 16 || defined(FWB_WANT_box_stream)) && BOX_RADIUS == 1 && CHANNELS != 3 \
        && !defined(BOX_PACKED) && (!defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_box_stream)) \
    || defined(FWB_BOX_INTERIOR_STREAM)
#ifdef FWB_BOX_INTERIOR_STREAM
#define S3_KEEP_FRAME
#endif
// BOX_SWAR (the default): the arithmetic two pixels per 32-bit word, in 16-bit halves, as Sobel's streaming
// rung does: a word's even bytes (w & 0x00ff00ff) and odd bytes ((w >> 8) & 0x00ff00ff). The row pass adds
// the three views in each half (up to 765); the column pass adds three rows (up to 2295) with one three-input
// add a word, and takes each half's rounded mean floor((s + 4) * 7282 / 2^16): the low half's by one
// multiply-add of the masked word (the mean lands in byte 2), the high half's by one 32 x 32 -> 64-bit
// multiply-add of the whole word (the mean is the product's upper word: the low half adds at most
// 2299 * 7282 / 2^32 < 1/256 to it, which moves the floor for no high half up to 2295, checked
// exhaustively); three byte permutes put a word's four means in place. gray8: an even pixel's left
// neighbour is an even byte of the l view and its right one an odd byte of c; an odd pixel's left
// neighbour an even byte of c and its right one an odd byte of r. rgba8888: a word is a pixel (R, B even;
// G, A odd), its neighbours the l and r views' words. BOX_SWAR 0: 16-bit lanes (ushort16). H200, 6720x4480
// (docs/data/session25-2026-11-28/c2, c3): rgba8888 0.0927 -> 0.0747 ms, gray8 (views a word at a time, below)
// 0.0282 -> 0.0249. CPUs keep the 16-bit lanes, which they vectorise (PoCL 3.1, 2 cores, 1280x720: gray8 0.32
// against 0.42 ms, rgba8888 1.05 against 1.29): the arithmetic follows the loop's form, stream3x3.clh's
// S3_UNROLL_ROWS (NVIDIA's, and the form tests/support/StreamForms.h forces on the CPU).
#ifndef BOX_SWAR
#ifdef S3_UNROLL_ROWS
#define BOX_SWAR S3_UNROLL_ROWS
#else
#define BOX_SWAR FWB_PTX
#endif
#endif
#if BOX_SWAR
typedef struct {
    uint4 e, o; // the sums of the even and of the odd bytes, two to a word
} box_row_t;
#define S3_ROW_T box_row_t
inline box_row_t s3_row(uchar16 l, uchar16 c, uchar16 r)
{
    const uint4 wl = as_uint4(l), wc = as_uint4(c), wr = as_uint4(r);
#if CHANNELS == 1
    const uint4 m = FWB_EVEN_BYTES(wc) + FWB_ODD_BYTES(wc);
    const box_row_t o = {m + FWB_EVEN_BYTES(wl), m + FWB_ODD_BYTES(wr)};
#else
    const box_row_t o = {FWB_EVEN_BYTES(wl) + FWB_EVEN_BYTES(wc) + FWB_EVEN_BYTES(wr),
                         FWB_ODD_BYTES(wl) + FWB_ODD_BYTES(wc) + FWB_ODD_BYTES(wr)};
#endif
    return o;
}
#if CHANNELS == 1
// gray8 from stream3x3.clh's halves (S3_ROW_HALVES, where the views are made by words): an even output's sum is
// pm + e + o, an odd one's e + o + pp.
#define S3_ROW_HALVES
inline box_row_t s3_row_halves(uint4 pm, uint4 e, uint4 o, uint4 pp)
{
    const uint4 m = e + o;
    const box_row_t r = {m + pm, m + pp};
    return r;
}
#endif
// The four rounded means of a word's pixels from the sums of its even (e) and odd (o) bytes, in place.
inline uint box_mean_word(uint e, uint o)
{
    const uint le = (e & 0xFFFFu) * 7282u + 29128u, lo = (o & 0xFFFFu) * 7282u + 29128u; // 29128 = 4 * 7282
    const uint he = (uint)(((ulong)e * 7282u + ((ulong)29128u << 16)) >> 32);
    const uint ho = (uint)(((ulong)o * 7282u + ((ulong)29128u << 16)) >> 32);
    return fwb_prmt(fwb_prmt(le, lo, 0x0062u), fwb_prmt(he, ho, 0x4000u), 0x7610u);
}
inline uchar16 s3_column(box_row_t above, box_row_t here, box_row_t below, uchar16 centre, float4 params)
{
    const uint4 e = above.e + here.e + below.e, o = above.o + here.o + below.o;
    return as_uchar16((uint4)(box_mean_word(e.x, o.x), box_mean_word(e.y, o.y), box_mean_word(e.z, o.z),
                              box_mean_word(e.w, o.w)));
}
// gray8's l and r views a word at a time (one byte permute each) on NVIDIA: with the byte shuffle the
// arithmetic above ran 8% slower than the 16-bit lanes (1,503 permutes in the program against 1,021; H200,
// 6720x4480, docs/data/session25-2026-11-28/c2, c3): 0.0282 -> 0.0249 ms, L2 flushed 0.0300 -> 0.0267.
#ifndef S3_VIEWS_BY_WORDS
#define S3_VIEWS_BY_WORDS FWB_PTX
#endif
#else
#define S3_ROW_T ushort16
inline ushort16 s3_row(uchar16 l, uchar16 c, uchar16 r)
{
    return convert_ushort16(l) + convert_ushort16(c) + convert_ushort16(r);
}
inline uchar16 s3_column(ushort16 above, ushort16 here, ushort16 below, uchar16 centre, float4 params)
{
    return convert_uchar16(mul_hi(above + here + below + (ushort16)(4), (ushort16)(7282)));
}
#endif
#include "stream3x3.clh"

kernel void box_stream(global const uchar *restrict src, global uchar *restrict dst, int width, int height,
                       constant float *coeffs, int radius, float4 params, int srcPitch, int dstPitch)
{
    s3_strip(src, dst, width, height, srcPitch, dstPitch, params);
}

#ifdef FWB_BOX_INTERIOR_STREAM
kernel void box3x3_interior_stream(global const uchar *restrict src, global uchar *restrict dst, int width,
                                   int height, constant float *coeffs, int radius, float4 params, int srcPitch,
                                   int dstPitch)
{
    s3_strip(src, dst, width, height, srcPitch, dstPitch, params);
}
#endif
#endif
