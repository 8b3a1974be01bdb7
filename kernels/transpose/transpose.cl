// transpose.cl: transpose as an operation on 8-bit pixels (gray8, rgb888 via vload3, rgba8888): the
// output is height x width. Entries transpose_{naive,local,local_diagonal,local_padded}_u8 come from
// transpose.clh (seed 000's ladder plus seed 002's padded tile).
#include "common.clh"
#include "pixels8.clh"

#define TRANSPOSE_SUFFIX u8
#define TRANSPOSE_IN_T uchar
#define TRANSPOSE_OUT_T uchar
#define TRANSPOSE_ELEM_T upix_t
#define TRANSPOSE_LOAD(buf, index) fwb_load8(buf, index)
#define TRANSPOSE_STORE(buf, index, value) fwb_store8(buf, index, value)
#include "transpose.clh"

#if defined(BLOCK_W) && defined(BLOCK_H) && (defined(FWB_WANT_transpose_roofline_u8) || (!defined(FWB_ONLY_ENTRIES) && BLOCK_W == 16))
// Roofline rung: one work-item moves a whole 16x16-pixel block (BLOCK_W x BLOCK_H, built 16x16) with
// 16-byte loads and stores and transposes it in registers - no __local memory, no barrier. Per
// work-item: 16 input rows of 16 bytes (gray8) / 64 bytes (rgba8888) in flight at once, then 16
// output rows of the same width. A warp spread over 16 blocks across and 2 down (auto 16x16 groups)
// reads 256-byte (gray8) / 1 KiB (rgba) row runs and writes 32-byte / 128-byte runs: whole 32-byte
// sectors both ways, so each byte crosses the memory bus once.
// Launch: one work-item per block (global ceil(W/16) x ceil(H/16)); a launch of one work-item per
// pixel (the plain Transposed geometry) is still correct, the surplus work-items return at once.
// Rows are inPitch / outPitch bytes apart: the session pads them to 128 bytes where the whole image sits in
// device buffers (VariantSpec::rowAlign), so odd sizes take the aligned path too, edge blocks included
// (they read and write the rows' padding). Where it cannot (tiles, mapped memory), whole blocks of rows
// that are not 16-byte aligned: gray8 rows arrive as funnel-shifted
// aligned words and leave as whole-word stores with ragged byte/short ends (H100 6719x4481: 0.073-0.084 ms,
// 0.218 with vload16/vstore16, which the compiler splits into 16 byte accesses each); rgba8888 moves
// 4-byte pixels with vload4/vstore4. Partial blocks at the right/bottom edges and rgb888 take the
// per-pixel path.
#if BLOCK_W != 16 || BLOCK_H != 16
#error "transpose_roofline_u8 is written for 16x16 blocks"
#endif

#if CHANNELS == 1
// Column c of the 16x16 byte block r[0..15] (component `c` of each row): one output row.
#define FWB_T16_COL(c) (uchar16)(r[0].c, r[1].c, r[2].c, r[3].c, r[4].c, r[5].c, r[6].c, r[7].c,          \
                                 r[8].c, r[9].c, r[10].c, r[11].c, r[12].c, r[13].c, r[14].c, r[15].c)
#define FWB_T16_STORE(j, c)                                                                                   \
    if ((j) < jn)                                                                                            \
    o[(j) * ostride] = FWB_T16_COL(c)
#elif CHANNELS == 4
// Pixel column j = 4q + c of rows 4p..4p+3 (each input row is 4 uint4 = 16 pixels).
#define FWB_T4_PART(q, c, p) (uint4)(r[4 * (p)][q].c, r[4 * (p) + 1][q].c, r[4 * (p) + 2][q].c, r[4 * (p) + 3][q].c)
#define FWB_T4_STORE(q, c)                                                                                   \
    {                                                                                                        \
        global uint4 *row = o + (4 * (q) + fwb_comp_##c) * ostride;                                         \
        row[0] = FWB_T4_PART(q, c, 0);                                                                       \
        row[1] = FWB_T4_PART(q, c, 1);                                                                       \
        row[2] = FWB_T4_PART(q, c, 2);                                                                       \
        row[3] = FWB_T4_PART(q, c, 3);                                                                       \
    }
#define fwb_comp_x 0
#define fwb_comp_y 1
#define fwb_comp_z 2
#define fwb_comp_w 3
#endif

// A moved edge block's new pixels only: output row j (input column x0 + j) from keepX on, and in it
// the pixels of input rows y0 + k from keepY on, one store each from the transposed block t[k][j]
// (independent stores, no round trips). `pitch` is in units of ob's element.
#define FWB_T_STORE_NEW(ob, pitch, t)                                                                        \
    _Pragma("unroll") for (int j = 0; j < 16; ++j) if (x0 + j >= keepX)                                      \
        _Pragma("unroll") for (int k = 0; k < 16; ++k) if (y0 + k >= keepY) (ob)[(size_t)j * (pitch) + k] = (t)[k][j];

#if CHANNELS == 1
// 16 bytes at p of any alignment with the fewest stores that stay inside them: the ragged ends as a byte
// and/or a ushort, the middle as whole uints (4 stores for an aligned p, 5 or 6 otherwise, not 16). The
// offset is the same for every work-item of a warp here, so the switch does not diverge.
inline void fwb_store16_any(global uchar *p, uchar16 v)
{
    switch ((uint)(size_t)p & 3u) {
    case 0: {
        global uint *q = (global uint *)p;
        const uint4 u = as_uint4(v);
        q[0] = u.x; q[1] = u.y; q[2] = u.z; q[3] = u.w;
        break;
    }
    case 1: {
        p[0] = v.s0;
        *(global ushort *)(p + 1) = as_ushort(v.s12);
        global uint *q = (global uint *)(p + 3);
        q[0] = as_uint(v.s3456); q[1] = as_uint(v.s789a); q[2] = as_uint(v.sbcde);
        p[15] = v.sf;
        break;
    }
    case 2: {
        *(global ushort *)p = as_ushort(v.s01);
        global uint *q = (global uint *)(p + 2);
        q[0] = as_uint(v.s2345); q[1] = as_uint(v.s6789); q[2] = as_uint(v.sabcd);
        *(global ushort *)(p + 14) = as_ushort(v.sef);
        break;
    }
    default: {
        p[0] = v.s0;
        global uint *q = (global uint *)(p + 1);
        q[0] = as_uint(v.s1234); q[1] = as_uint(v.s5678); q[2] = as_uint(v.s9abc);
        *(global ushort *)(p + 13) = as_ushort(v.sde);
        p[15] = v.sf;
        break;
    }
    }
}

// 16 bytes at p of any alignment from five aligned uints, funnel-shifted into place (reads up to 4 bytes
// past the 16).
inline uchar16 fwb_load16_words(global const uchar *p)
{
    const uint off = (uint)(size_t)p & 3u, sh = off * 8u;
    global const uint *w = (global const uint *)(p - off);
    const uint w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4];
    return as_uchar16((uint4)((uint)(as_ulong((uint2)(w0, w1)) >> sh), (uint)(as_ulong((uint2)(w1, w2)) >> sh),
                              (uint)(as_ulong((uint2)(w2, w3)) >> sh), (uint)(as_ulong((uint2)(w3, w4)) >> sh)));
}
#endif

kernel void transpose_roofline_u8(global const uchar *in, global uchar *out, int width, int height,
                                  constant float *coeffs, int radius, float4 params, int inPitch, int outPitch)
{
    int x0 = get_global_id(0) * 16, y0 = get_global_id(1) * 16;
    if (x0 >= width || y0 >= height)
        return;
#if CHANNELS == 1
    // gray8 rows padded to whole blocks (16 bytes; the session pads transpose rows to 128 bytes, which also
    // keeps the warps' 128-byte output runs on whole cache lines at odd heights): every block takes the
    // aligned path where it lies, the ones over the right and bottom edges too. Input rows past the height
    // read the last row again (those bytes land in the output rows' padding); output rows past the width
    // are not written. One copy of the code for every block: no warp runs a second, slower path at the
    // edges (H100 6719x4481: 0.026 ms, 6720x4480 0.025; with moved edge blocks 0.029 / 0.027). rgba8888
    // keeps the moved blocks below: the clamps and guards cost its even size 8% (0.151 vs 0.140 ms), and
    // with 128-byte rows its odd size is within 1.07x of the even one anyway.
    if ((inPitch & 15) == 0 && (outPitch & 15) == 0) {
        const int jn = width - x0;        // output rows of this block that exist: j < jn
        const int kmax = height - 1 - y0; // input row y0 + k is row y0 + min(k, kmax)
        const int istride = inPitch / 16, ostride = outPitch / 16; // in uchar16 units
        global const uchar16 *i = (global const uchar16 *)in + y0 * istride + x0 / 16;
        uchar16 r[16];
#pragma unroll
        for (int k = 0; k < 16; ++k)
            r[k] = i[min(k, kmax) * istride];
        global uchar16 *o = (global uchar16 *)out + x0 * ostride + y0 / 16;
        FWB_T16_STORE(0, s0); FWB_T16_STORE(1, s1); FWB_T16_STORE(2, s2); FWB_T16_STORE(3, s3);
        FWB_T16_STORE(4, s4); FWB_T16_STORE(5, s5); FWB_T16_STORE(6, s6); FWB_T16_STORE(7, s7);
        FWB_T16_STORE(8, s8); FWB_T16_STORE(9, s9); FWB_T16_STORE(10, sa); FWB_T16_STORE(11, sb);
        FWB_T16_STORE(12, sc); FWB_T16_STORE(13, sd); FWB_T16_STORE(14, se); FWB_T16_STORE(15, sf);
        return;
    }
#endif
    // A block the image does not fill (right and bottom edges) moves back to end at the edge, where the
    // image is 16 pixels that way: a whole block, storing only the pixels from (keepX, keepY) on (its
    // neighbours store the rest). Every block of an image this size is in flight at once, so the kernel
    // lasts as long as its slowest block: edge blocks moved pixel by pixel made odd sizes 2-3x slower.
    const int keepX = x0, keepY = y0;
    if (x0 + 16 > width && width >= 16)
        x0 = width - 16;
    if (y0 + 16 > height && height >= 16)
        y0 = height - 16;
    const bool full = x0 + 16 <= width && y0 + 16 <= height;
    const bool moved = x0 != keepX || y0 != keepY;
#if CHANNELS == 1
    if (full) {
        // Rows not 16-byte aligned (odd sizes in packed rows, moved edge blocks): funnel-shifted aligned
        // words, or vload16 for the last blocks of the buffer (the words reach 4 bytes past the 16).
        uchar16 r[16];
        if ((size_t)(y0 + 15) * (size_t)inPitch + (size_t)x0 + 20 <= (size_t)inPitch * (size_t)height) {
#pragma unroll
            for (int k = 0; k < 16; ++k)
                r[k] = fwb_load16_words(in + (size_t)(y0 + k) * (size_t)inPitch + x0);
        } else {
#pragma unroll
            for (int k = 0; k < 16; ++k)
                r[k] = vload16(0, in + (size_t)(y0 + k) * (size_t)inPitch + x0);
        }
        global uchar *ob = out + (size_t)x0 * (size_t)outPitch + y0;
        if (!moved) { // columns out as whole words with ragged byte/short ends
#define FWB_T16_WSTORE(j, c) fwb_store16_any(ob + (size_t)(j) * (size_t)outPitch, FWB_T16_COL(c))
            FWB_T16_WSTORE(0, s0); FWB_T16_WSTORE(1, s1); FWB_T16_WSTORE(2, s2); FWB_T16_WSTORE(3, s3);
            FWB_T16_WSTORE(4, s4); FWB_T16_WSTORE(5, s5); FWB_T16_WSTORE(6, s6); FWB_T16_WSTORE(7, s7);
            FWB_T16_WSTORE(8, s8); FWB_T16_WSTORE(9, s9); FWB_T16_WSTORE(10, sa); FWB_T16_WSTORE(11, sb);
            FWB_T16_WSTORE(12, sc); FWB_T16_WSTORE(13, sd); FWB_T16_WSTORE(14, se); FWB_T16_WSTORE(15, sf);
#undef FWB_T16_WSTORE
        } else { // only the new pixels, byte by byte (independent stores: no round trips)
            uchar t[16][16];
#pragma unroll
            for (int k = 0; k < 16; ++k)
                vstore16(r[k], 0, t[k]);
            FWB_T_STORE_NEW(ob, (size_t)outPitch, t);
        }
        return;
    }
#elif CHANNELS == 4
    if (full && !moved && (inPitch & 15) == 0 && (outPitch & 15) == 0) { // packed rows of a width of 4n pixels
        const int istride = inPitch / 16, ostride = outPitch / 16; // in uint4 (4-pixel) units
        global const uint4 *i = (global const uint4 *)in + y0 * istride + x0 / 4;
        uint4 r[16][4];
#pragma unroll
        for (int k = 0; k < 16; ++k) {
            r[k][0] = i[k * istride];
            r[k][1] = i[k * istride + 1];
            r[k][2] = i[k * istride + 2];
            r[k][3] = i[k * istride + 3];
        }
        global uint4 *o = (global uint4 *)out + x0 * ostride + y0 / 4;
        FWB_T4_STORE(0, x) FWB_T4_STORE(0, y) FWB_T4_STORE(0, z) FWB_T4_STORE(0, w)
        FWB_T4_STORE(1, x) FWB_T4_STORE(1, y) FWB_T4_STORE(1, z) FWB_T4_STORE(1, w)
        FWB_T4_STORE(2, x) FWB_T4_STORE(2, y) FWB_T4_STORE(2, z) FWB_T4_STORE(2, w)
        FWB_T4_STORE(3, x) FWB_T4_STORE(3, y) FWB_T4_STORE(3, z) FWB_T4_STORE(3, w)
        return;
    }
    if (full) { // whole block, rows only 4-byte aligned (packed odd sizes, moved edge blocks): pixels as uints
        const size_t ipx = (size_t)inPitch / 4, opx = (size_t)outPitch / 4; // pitches in pixels
        global const uint *ip = (global const uint *)in + (size_t)y0 * ipx + x0;
        uint4 r[16][4];
#pragma unroll
        for (int k = 0; k < 16; ++k)
#pragma unroll
            for (int q = 0; q < 4; ++q)
                r[k][q] = vload4(q, ip + (size_t)k * ipx);
        global uint *ob = (global uint *)out + (size_t)x0 * opx + y0;
        if (!moved) {
#define FWB_T4_VSTORE(q, c)                                                                                  \
    {                                                                                                        \
        global uint *row = ob + (size_t)(4 * (q) + fwb_comp_##c) * opx;                                     \
        vstore4(FWB_T4_PART(q, c, 0), 0, row);                                                               \
        vstore4(FWB_T4_PART(q, c, 1), 1, row);                                                               \
        vstore4(FWB_T4_PART(q, c, 2), 2, row);                                                               \
        vstore4(FWB_T4_PART(q, c, 3), 3, row);                                                               \
    }
            FWB_T4_VSTORE(0, x) FWB_T4_VSTORE(0, y) FWB_T4_VSTORE(0, z) FWB_T4_VSTORE(0, w)
            FWB_T4_VSTORE(1, x) FWB_T4_VSTORE(1, y) FWB_T4_VSTORE(1, z) FWB_T4_VSTORE(1, w)
            FWB_T4_VSTORE(2, x) FWB_T4_VSTORE(2, y) FWB_T4_VSTORE(2, z) FWB_T4_VSTORE(2, w)
            FWB_T4_VSTORE(3, x) FWB_T4_VSTORE(3, y) FWB_T4_VSTORE(3, z) FWB_T4_VSTORE(3, w)
#undef FWB_T4_VSTORE
        } else { // only the new pixels, one by one (independent stores)
            uint t[16][16];
#pragma unroll
            for (int k = 0; k < 16; ++k)
#pragma unroll
                for (int q = 0; q < 4; ++q)
                    vstore4(r[k][q], q, t[k]);
            FWB_T_STORE_NEW(ob, opx, t);
        }
        return;
    }
#endif
    // Per-pixel path: images under 16 pixels on a side, rgb888 (from the block's own origin).
    x0 = keepX;
    y0 = keepY;
    const int bw = min(16, width - x0), bh = min(16, height - y0);
    for (int j = 0; j < bw; ++j)
        for (int k = 0; k < bh; ++k)
            fwb_store8(out + (size_t)(x0 + j) * (size_t)outPitch, y0 + k, fwb_load8(in + (size_t)(y0 + k) * (size_t)inPitch, x0 + j));
}
#endif

#if defined(BLOCK_W) && defined(BLOCK_H) && (defined(FWB_WANT_transpose_words_u8) || (!defined(FWB_ONLY_ENTRIES) && BLOCK_W == 4))
// Four-byte pixels' rung (rgba8888): one work-item moves a 4x4-pixel block, four 16-byte row loads and
// four 16-byte row stores of 32-bit words, transposed in 16 registers. register_blocks' 16x16 block is
// 256 words in rgba8888: few warps fit an SM, and its rgba8888 time (0.148 ms at 6720x4480 on the H100)
// stayed behind even the plain local tile (0.135). A warp of 8 blocks across and 4 down (auto 8x8
// groups) reads 128-byte runs of 16 input rows and writes 64-byte runs of 32 output rows: whole 32-byte
// sectors both ways. Rows padded to 16 bytes (the session pads them to 128): every block, the edge ones
// too, takes the aligned path in place (input rows past the height read the last row again, output
// rows past the width are skipped, the rest lands in the output rows' padding). Packed rows that are
// not (tiles, mapped memory) move pixel by pixel.
#if BLOCK_W != 4 || BLOCK_H != 4
#error "transpose_words_u8 is written for 4x4 blocks"
#endif
kernel void transpose_words_u8(global const uchar *in, global uchar *out, int width, int height,
                               constant float *coeffs, int radius, float4 params, int inPitch, int outPitch)
{
    const int x0 = get_global_id(0) * 4, y0 = get_global_id(1) * 4;
    if (x0 >= width || y0 >= height)
        return;
#if CHANNELS == 4
    if (((inPitch | outPitch) & 15) == 0) {
        const int kmax = height - 1 - y0; // input row y0 + k is row y0 + min(k, kmax)
        const int istride = inPitch / 16, ostride = outPitch / 16; // in uint4 (4-pixel) units
        global const uint4 *i = (global const uint4 *)in + (size_t)y0 * istride + x0 / 4;
        const uint4 a = i[0], b = i[min(1, kmax) * istride], c = i[min(2, kmax) * istride],
                    d = i[min(3, kmax) * istride];
        global uint4 *o = (global uint4 *)out + (size_t)x0 * ostride + y0 / 4;
        const int jn = width - x0; // output rows of this block that exist: j < jn
        o[0] = (uint4)(a.x, b.x, c.x, d.x);
        if (jn > 1)
            o[ostride] = (uint4)(a.y, b.y, c.y, d.y);
        if (jn > 2)
            o[2 * ostride] = (uint4)(a.z, b.z, c.z, d.z);
        if (jn > 3)
            o[3 * ostride] = (uint4)(a.w, b.w, c.w, d.w);
        return;
    }
#endif
    // Pixel by pixel: packed rows not 16-byte aligned (and the other layouts, which the catalogue does
    // not offer this rung).
    const int bw = min(4, width - x0), bh = min(4, height - y0);
    for (int j = 0; j < bw; ++j)
        for (int k = 0; k < bh; ++k)
            fwb_store8(out + (size_t)(x0 + j) * (size_t)outPitch, y0 + k,
                       fwb_load8(in + (size_t)(y0 + k) * (size_t)inPitch, x0 + j));
}
#endif
