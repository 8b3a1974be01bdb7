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
#define mp_op fwb_max_u16x2 // two 16-bit halves at once (the packed rung's and gray8 stream's pixel pairs)
#define mp_op4 fwb_max_u16x2_4
#else
#define MORPH_OP(a, b) min(a, b)
#define MORPH_IDENTITY UPIX_MAX
#define mp_op fwb_min_u16x2
#define mp_op4 fwb_min_u16x2_4
#endif
#define MORPH_K (2 * MORPH_RADIUS + 1)

// Every window pixel read from global memory: (2r+1)^2 reads and min/max per output pixel.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_morph_naive)
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
#endif

// A square window's min is the min over rows of the min along each row: a row pass then a column
// pass, 2(2r+1) reads per pixel instead of (2r+1)^2 - exact, border rule included, because the
// border maps x and y independently.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_morph_rows)
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
#endif

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_morph_columns)
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
#endif

#if defined(TILE_W) && defined(TILE_H)
#define MORPH_TW (TILE_W + 2 * MORPH_RADIUS)
#define MORPH_TH (TILE_H + 2 * MORPH_RADIUS)
// One launch: the tile plus an r-pixel halo is staged in __local, reduced along rows into a second
// local array (MORPH_TH x TILE_W), then along columns - the separable split without the global
// round trip. Local memory grows as (16 + 2r)^2 raw pixels: 23 KiB for rgba8888 at r = 30.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_morph_local)
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
#endif

#if defined(BLOCK_W) && defined(BLOCK_H)
#include "byte_strips.clh"
#define MORPH_NL BS_HALO_VECTORS(MORPH_RADIUS * CHANNELS) // whole halo vectors on each side
#define MORPH_NV (BS_NC + 2 * MORPH_NL)
#if MORPH_DILATE
#define MORPH_VIDENTITY ((bs_u8v)(0))
#else
#define MORPH_VIDENTITY ((bs_u8v)(255))
#endif
// Keep the 2r+1 row results of the window in registers while sliding down when they fit (small r),
// else recompute them per output row from cached input rows.
#ifndef MORPH_RING
#define MORPH_RING (MORPH_K * BS_NC <= 20)
#endif

// The row pass for one input row: BS_NC vectors of min/max over x-r .. x+r (byte-shifted copies of
// the registers loaded once), the border rule on x already in the loaded halo.
inline void morph_row_op(global const uchar *src, int width, int height, int pitch, int y, int x0, bs_u8v *out)
{
    bs_u8v v[MORPH_NV];
    bs_load_row_p(src, width, height, pitch, y, x0, MORPH_NL, MORPH_NV, v);
#pragma unroll
    for (int j = 0; j < BS_NC; ++j) {
        const int pos = (MORPH_NL + j) * BS_VW;
        bs_u8v acc = v[MORPH_NL + j];
#pragma unroll
        for (int dx = 1; dx <= MORPH_RADIUS; ++dx) {
            acc = MORPH_OP(acc, bs_at(v, pos - dx * CHANNELS, MORPH_NV));
            acc = MORPH_OP(acc, bs_at(v, pos + dx * CHANNELS, MORPH_NV));
        }
        out[j] = acc;
    }
}

// Roofline rung: one launch, the separable split kept in registers. A work-item owns BLOCK_W pixels
// across and BLOCK_H rows down as whole byte vectors (16 gray8 pixels, or 4 rgba8888 pixels, per
// 16-byte min/max). Each input row is loaded once as aligned vectors plus a halo and reduced along x
// from byte-shifted copies; the column pass takes the min/max of the last 2r+1 row results, kept in
// registers while the work-item slides down (small r; for large r they are recomputed from the
// cached rows). Exact, border rule included (x and y map independently).
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_morph_roofline)
kernel void morph_roofline(global const uchar *restrict src, global uchar *restrict dst, int width, int height,
                           constant float *coeffs, int radius, float4 params, int srcPitch, int dstPitch)
{
    const int x0 = (int)get_global_id(0) * BLOCK_W, y0 = (int)get_global_id(1) * BLOCK_H;
    if (x0 >= width || y0 >= height)
        return;
#if MORPH_RING
    bs_u8v ring[MORPH_K][BS_NC];
#pragma unroll
    for (int k = 0; k < MORPH_K - 1; ++k)
        morph_row_op(src, width, height, srcPitch, y0 - MORPH_RADIUS + k, x0, ring[k]);
    // Every row of the block is computed (row loads follow the border rule, so they stay inside the
    // buffer) and only the store clips: a loop without exits, unrolled, lets the compiler issue the next
    // rows' loads (restrict: they cannot alias the stores) while the current row computes.
#pragma unroll
    for (int i = 0; i < BLOCK_H; ++i) {
        const int y = y0 + i;
        morph_row_op(src, width, height, srcPitch, y + MORPH_RADIUS, x0, ring[MORPH_K - 1]);
        bs_u8v o[BS_NC];
#pragma unroll
        for (int j = 0; j < BS_NC; ++j) {
            bs_u8v acc = ring[0][j];
#pragma unroll
            for (int k = 1; k < MORPH_K; ++k)
                acc = MORPH_OP(acc, ring[k][j]);
            o[j] = acc;
        }
        bs_store_row_p(dst, width, height, dstPitch, y, x0, o);
#pragma unroll
        for (int k = 0; k < MORPH_K - 1; ++k)
#pragma unroll
            for (int j = 0; j < BS_NC; ++j)
                ring[k][j] = ring[k + 1][j];
    }
#else
    for (int i = 0; i < BLOCK_H; ++i) {
        const int y = y0 + i;
        bs_u8v o[BS_NC];
#pragma unroll
        for (int j = 0; j < BS_NC; ++j)
            o[j] = MORPH_VIDENTITY;
        for (int dy = -MORPH_RADIUS; dy <= MORPH_RADIUS; ++dy) {
            bs_u8v r[BS_NC];
            morph_row_op(src, width, height, srcPitch, y + dy, x0, r);
#pragma unroll
            for (int j = 0; j < BS_NC; ++j)
                o[j] = MORPH_OP(o[j], r[j]);
        }
        bs_store_row_p(dst, width, height, dstPitch, y, x0, o);
    }
#endif
}
#endif

// Packed rung (gray8, radius 1): a work-item owns 16 pixels across (one aligned 16-byte vector) and
// BLOCK_H rows down. A row's four 32-bit words are min/maxed two pixels at a time as 16-bit halves: a
// half whose high byte is the pixel (the low byte is whatever sits beside it) orders by that byte, so
// the high byte of a 16x2 min/max is the min/max of the two pixels. The word w itself holds pixels 1
// and 3 that way, w << 8 pixels 0 and 2, and one funnel shift with the neighbouring word the pixels
// one step left or right: the 3-wide row pass is one shift, two funnel shifts and three 16x2 min/max
// per four pixels, kept as "even" and "odd" words; the column pass is two min/max per word and row,
// and one byte permute joins the high bytes back into four pixels. On NVIDIA the 16x2 min/max and
// the permute are single instructions (inline PTX); elsewhere portable ushort2 min/max and shifts,
// so the CPU tests check this very arithmetic. Exact; the row loads and stores are byte_strips'
// (border rule on both axes, edge blocks gathered byte by byte).
#if CHANNELS == 1 && MORPH_RADIUS == 1 && BS_VW == 16 && BS_NC == 1 \
    && (!defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_morph_packed))

// The 3-wide row pass of word k: even holds pixels 0 and 2, odd pixels 1 and 3 (high bytes of the halves).
inline void ps_row(const uint *w, int k, uint *even, uint *odd)
{
    const uint here = w[k + 1];
    const uint both = mp_op(here << 8, here);          // pixels (0, 1) and (2, 3)
    const uint before = (here << 16) | (w[k] >> 16);   // highs: pixels -1 and 1
    const uint after = (here >> 8) | (w[k + 2] << 24); // highs: pixels 2 and 4
    *even = mp_op(both, before);
    *odd = mp_op(both, after);
}
// The column pass, and the high bytes of the halves joined: (even.b1, odd.b1, even.b3, odd.b3).
inline uint ps_column(uint e0, uint e1, uint e2, uint o0, uint o1, uint o2);
#include "packed_strips.clh"
inline uint ps_column(uint e0, uint e1, uint e2, uint o0, uint o1, uint o2)
{
    return fwb_prmt(mp_op(mp_op(e0, e1), e2), mp_op(mp_op(o0, o1), o2), 0x7351u);
}

kernel void morph_packed(global const uchar *restrict src, global uchar *restrict dst, int width, int height,
                         constant float *coeffs, int radius, float4 params, int srcPitch, int dstPitch)
{
    ps_strip(src, dst, width, height, srcPitch, dstPitch);
}
#endif
#endif

// Streaming rung (3x3, gray8 and rgba8888): stream3x3.clh's strips, 16 bytes across and BLOCK_H rows
// down, every row's loads issued together; the row pass is the min/max of the three views, the column
// pass that of three row results. Exact.
#if defined(BLOCK_W) && defined(BLOCK_H) && (BLOCK_W * CHANNELS <= 16 || defined(FWB_WANT_morph_stream)) && MORPH_RADIUS == 1 && CHANNELS != 3 \
    && (!defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_morph_stream))
// gray8 on NVIDIA: stream3x3.clh's halves (S3_ROW_HALVES, which takes S3_VIEWS_BY_WORDS; the views themselves
// are not made): two pixels a word, each in the high byte of a 16-bit half (S3_HALVES_HIGH: a 16x2 min/max orders
// by the high byte whatever the low one holds, as the packed rung's), so one 16x2 min/max (fwb_min_u16x2) takes
// two pixels' at once. The row pass keeps an even output's min/max of pm, e, o and an odd one's of e, o, pp,
// sharing e, o's; the column pass two 16x2 min/max a word and one byte permute puts the four pixels back. H200,
// 6720x4480 (docs/data/session29-2026-11-28/c4, c6): erode 0.0250 -> 0.0214 ms (0.0222 with the pixels in the
// low bytes, which take a permute more a word), dilate alike (the uchar16 min/max of the views before; the views
// by words with uchar16 min/max, 0.0386). rgba8888 keeps the byte shuffle's views (S3_VIEWS_BY_WORDS 0), its
// program unchanged.
#ifndef S3_VIEWS_BY_WORDS
#define S3_VIEWS_BY_WORDS (FWB_PTX && CHANNELS == 1)
#endif
#ifndef MORPH_HALVES
#define MORPH_HALVES S3_VIEWS_BY_WORDS
#endif
#if MORPH_HALVES && CHANNELS == 1
typedef struct {
    uint4 e, o;
} morph_row_t;
#define S3_ROW_T morph_row_t
#define S3_ROW_HALVES
#define S3_HALVES_HIGH // each pixel in its half's high byte
inline morph_row_t s3_row_halves(uint4 pm, uint4 e, uint4 o, uint4 pp)
{
    const uint4 m = mp_op4(e, o);
    const morph_row_t r = {mp_op4(m, pm), mp_op4(m, pp)};
    return r;
}
inline uchar16 s3_column(morph_row_t above, morph_row_t here, morph_row_t below, uchar16 centre, float4 params)
{
    const uint4 e = mp_op4(mp_op4(above.e, here.e), below.e), o = mp_op4(mp_op4(above.o, here.o), below.o);
    return as_uchar16((uint4)(fwb_prmt(e.x, o.x, 0x7351u), fwb_prmt(e.y, o.y, 0x7351u), fwb_prmt(e.z, o.z, 0x7351u),
                              fwb_prmt(e.w, o.w, 0x7351u)));
}
#else
#define S3_ROW_T uchar16
inline uchar16 s3_row(uchar16 l, uchar16 c, uchar16 r) { return MORPH_OP(MORPH_OP(l, c), r); }
inline uchar16 s3_column(uchar16 above, uchar16 here, uchar16 below, uchar16 centre, float4 params)
{
    return MORPH_OP(MORPH_OP(above, here), below);
}
#endif
#include "stream3x3.clh"

kernel void morph_stream(global const uchar *restrict src, global uchar *restrict dst, int width, int height,
                         constant float *coeffs, int radius, float4 params, int srcPitch, int dstPitch)
{
    s3_strip(src, dst, width, height, srcPitch, dstPitch, params);
}
#endif
