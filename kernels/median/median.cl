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
    // rows' loads (restrict: they cannot alias the stores) while the current row computes.
#pragma unroll
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

#if defined(BLOCK_W) && defined(BLOCK_H)
// ---- Forgetful rung: every comparison shared by the neighbouring outputs that need it -------------------
// A work-item owns BLOCK_W pixels across and slides down BLOCK_H rows, two output rows per step. The
// min/max program of one step comes from kernels/median/median_blocks.clh (generated and checked with the 0-1
// principle by scripts/median_networks.py): the two rows' columns share their common rows (sorted once;
// 5x5 carries the sorted pair of rows y-1, y over from the step above), each output row merges in its one
// extra row; along the row, outputs x and x+1 share their N-1 common columns, merged once and kept only
// for the ranks that can still be the median (the values certainly below or above it are forgotten, only
// their count kept; 5x5 builds those cores from column pairs that two cores share), and each output takes
// one rank of (core, its own extra column): min over i of max(A_i, B_k-i). Pixels are upix_t (uchar,
// uchar3, uchar4: a channel per lane), so gray8, rgb888 and rgba8888 run the same program. Exact.
#include "median_blocks.clh"
// MEDIAN_PACKED (gray8 and rgba8888; rgb888 runs unpacked): two 8-bit values in the 16-bit halves of a
// uint, so one 16x2 min/max does two of them. gray8: the block is two halves of MF_BW pixels, pixel c of
// each half in one word; rgba8888: channels (R, G) and (B, A) of a pixel in two words, run as two
// planes. 1: portable ushort2 min/max (a compiler may or may not map it to one packed instruction);
// 2: on NVIDIA, PTX min.u16x2 / max.u16x2 (one instruction on sm_90, H100), elsewhere as 1.
#ifndef MEDIAN_PACKED
#define MEDIAN_PACKED 0
#endif
#if MEDIAN_PACKED && (CHANNELS == 1 || CHANNELS == 4)
#define MF_PACKED 1
typedef uint mf_t;
#if CHANNELS == 1 // MF_BW = BLOCK_W / 2, spelled out: it is pasted into the network's name
#if BLOCK_W == 32
#define MF_BW 16
#elif BLOCK_W == 16
#define MF_BW 8
#else
#define MF_BW 4
#endif
#define MF_PLANES 1
#else
#define MF_BW BLOCK_W
#define MF_PLANES 2
#endif
#if MEDIAN_PACKED == 2 && FWB_PTX
inline uint mf_min2(uint a, uint b)
{
    uint d;
    __asm__("min.u16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}
inline uint mf_max2(uint a, uint b)
{
    uint d;
    __asm__("max.u16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}
#else
inline uint mf_min2(uint a, uint b) { return as_uint(min(as_ushort2(a), as_ushort2(b))); }
inline uint mf_max2(uint a, uint b) { return as_uint(max(as_ushort2(a), as_ushort2(b))); }
#endif
#if MEDIAN_PACKED == 2 && BS_VW == 16 && !(MEDIAN_SIZE == 3 && CHANNELS == 1)
// MF_WORDS: the PTX rung packs and unpacks whole 32-bit words with byte permutes. mf_prmt(a, b, sel) is
// PTX prmt.b32: byte i of the result is byte (sel >> 4i) & 7 of the 8 bytes b:a (one instruction on
// NVIDIA; elsewhere the same bytes by shifts, so the CPU tests check this very packing). Each 16-bit half
// holds its 8-bit value twice (v * 257): as monotone in v as v itself, so the 16x2 min/max order the
// values exactly and byte 0 (or 1) of a half is the answer; but a half then comes from one source byte
// alone, so a packed word is one permute of two loaded words, without clearing bytes (the byte-array
// path below extracts and re-joins bytes: PRMT plus SHF or LOP3 per word in the SASS). H100, 6720x4480, replicate,
// the same run: median5x5 gray8 0.112 ms vs 0.127 with the byte arrays, rgba8888 0.434 vs 0.523, median3x3
// rgba8888 0.188 vs 0.198; median3x3 gray8 0.061 vs 0.056 (there the compiler loaded and addressed more
// words than the byte arrays needed), so 3x3 gray8 keeps the byte arrays.
#define MF_WORDS 1
#if FWB_PTX
inline uint mf_prmt(uint a, uint b, uint sel)
{
    uint d;
    __asm__("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(sel));
    return d;
}
#else
inline uint mf_prmt(uint a, uint b, uint sel)
{
    const ulong x = ((ulong)b << 32) | a;
    uint d = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i)
        d |= (uint)((x >> (8 * ((sel >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return d;
}
#endif
// Selector of (a's byte ra twice, b's byte rb twice): two halves v * 257.
#define MF_SEL2(ra, rb) ((uint)(ra) * 0x11u | (uint)(4 + (rb)) * 0x1100u)
#else
#define MF_WORDS 0
#endif
#define MF_MIN mf_min2
#define MF_MAX mf_max2
#else
#define MF_PACKED 0
#define MF_WORDS 0
typedef upix_t mf_t;
#define MF_BW BLOCK_W
#define MF_PLANES 1
#define MF_MIN min
#define MF_MAX max
#endif
#define MF_C (MF_BW + 2 * MEDIAN_R) // values of a row a plane reads (its block plus the halo)
#if MEDIAN_SIZE == 3
#define MF_NET BS_CAT(MEDIAN3_BLOCK, MF_BW)
#else
#define MF_NET BS_CAT(MEDIAN5_BLOCK, MF_BW)
#endif
#if !(MF_BW == 4 || MF_BW == 8 || MF_BW == 16) || MF_BW * (MF_PACKED && CHANNELS == 1 ? 2 : 1) != BLOCK_W
#error "median_forgetful has networks for 4, 8 and 16 columns (scripts/median_networks.py makes others)"
#endif
#if BLOCK_H % 2 != 0
#error "median_forgetful computes two rows per step: BLOCK_H must be even"
#endif
#if CHANNELS == 1
#define MF_GET(b, i) ((b)[i])
#define MF_PUT(v, b, i) ((b)[i] = (v))
#elif CHANNELS == 3
#define MF_GET(b, i) vload3(0, (b) + (i))
#define MF_PUT(v, b, i) vstore3((v), 0, (b) + (i))
#else
#define MF_GET(b, i) vload4(0, (b) + (i))
#define MF_PUT(v, b, i) vstore4((v), 0, (b) + (i))
#endif
inline uint mf_pack(uchar lo, uchar hi) { return (uint)lo | ((uint)hi << 16); }

// Row y's values for columns x0 - R .. x0 + MF_BW + R - 1 of every plane (border rules on both axes).
__attribute__((always_inline)) inline void mf_load_row(global const uchar *src, int width, int height, int pitch, int y, int x0,
                                                       const bool inside, mf_t px[MF_PLANES][MF_C])
{
    bs_u8v v[MEDIAN_NV];
    if (inside)
        bs_load_row_inside(src, height, pitch, y, x0, MEDIAN_NL, MEDIAN_NV, v);
    else
        bs_load_row_p(src, width, height, pitch, y, x0, MEDIAN_NL, MEDIAN_NV, v);
    const int base = MEDIAN_NL * BS_VW - MEDIAN_R * CHANNELS; // byte of column 0 (pixel x0 - R)
#if MF_WORDS
    uint w[MEDIAN_NV * BS_VW / 4]; // the row's bytes as words: byte i is byte i % 4 of w[i / 4]
#pragma unroll
    for (int k = 0; k < MEDIAN_NV; ++k)
        vstore4(as_uint4(v[k]), k, w); // BS_VW is 16 here (MF_BW >= 4 pixels of 4 bytes, or 8 of 1)
#pragma unroll
    for (int c = 0; c < MF_C; ++c) {
#if CHANNELS == 1
        const int i = base + c, j = base + c + MF_BW;
        px[0][c] = mf_prmt(w[i / 4], w[j / 4], MF_SEL2(i % 4, j % 4));
#else
        const uint p = w[(base + c * 4) / 4]; // pixel c: R, G, B, A (base is a multiple of 4)
        px[0][c] = mf_prmt(p, p, MF_SEL2(0, 1));
        px[1][c] = mf_prmt(p, p, MF_SEL2(2, 3));
#endif
    }
#else
    uchar b[MEDIAN_NV * BS_VW];
#pragma unroll
    for (int k = 0; k < MEDIAN_NV; ++k)
        BS_VSTORE(v[k], k, b);
#pragma unroll
    for (int c = 0; c < MF_C; ++c) {
#if !MF_PACKED
        px[0][c] = MF_GET(b, base + c * CHANNELS);
#elif CHANNELS == 1
        px[0][c] = mf_pack(b[base + c], b[base + c + MF_BW]);
#else
        px[0][c] = mf_pack(b[base + c * 4], b[base + c * 4 + 1]);
        px[1][c] = mf_pack(b[base + c * 4 + 2], b[base + c * 4 + 3]);
#endif
    }
#endif
}

__attribute__((always_inline)) inline void mf_store_row(global uchar *dst, int width, int height, int pitch, int y, int x0,
                                                        const bool inside, mf_t o[MF_PLANES][MF_BW])
{
    bs_u8v v[BS_NC];
#if MF_WORDS
    uint w[BS_BYTES / 4];
#if CHANNELS == 1
    // Four outputs c .. c+3 hold pixels c .. c+3 (byte 0) and c+MF_BW .. (byte 2): two permutes pair them
    // up, two more make the words of bytes c .. c+3 and c+MF_BW .. c+MF_BW+3.
#pragma unroll
    for (int c = 0; c < MF_BW; c += 4) {
        const uint lo = mf_prmt(o[0][c], o[0][c + 1], 0x6240u), hi = mf_prmt(o[0][c + 2], o[0][c + 3], 0x6240u);
        w[c / 4] = mf_prmt(lo, hi, 0x5410u);
        w[(c + MF_BW) / 4] = mf_prmt(lo, hi, 0x7632u);
    }
#else
#pragma unroll
    for (int c = 0; c < MF_BW; ++c)
        w[c] = mf_prmt(o[0][c], o[1][c], 0x6420u); // R, G from plane 0, B, A from plane 1
#endif
#pragma unroll
    for (int k = 0; k < BS_NC; ++k)
        v[k] = as_uchar16(vload4(k, w));
#else
    uchar b[BS_BYTES];
#pragma unroll
    for (int c = 0; c < MF_BW; ++c) {
#if !MF_PACKED
        MF_PUT(o[0][c], b, c * CHANNELS);
#elif CHANNELS == 1
        b[c] = (uchar)o[0][c];
        b[c + MF_BW] = (uchar)(o[0][c] >> 16);
#else
        b[c * 4] = (uchar)o[0][c];
        b[c * 4 + 1] = (uchar)(o[0][c] >> 16);
        b[c * 4 + 2] = (uchar)o[1][c];
        b[c * 4 + 3] = (uchar)(o[1][c] >> 16);
#endif
    }
#pragma unroll
    for (int k = 0; k < BS_NC; ++k)
        v[k] = BS_VLOAD(k, b);
#endif
    if (inside)
        bs_store_row_inside(dst, height, pitch, y, x0, v);
    else
        bs_store_row_p(dst, width, height, pitch, y, x0, v);
}

// MF_INSIDE_COPY=0: rgba8888 without the interior strip's own copy, for a program that is too big to be worth it
// (median5x5 forgetful_w16: NVIDIA built it in 44.7 s with the copy, 21.8 s without, and it ran 10.05 ->
// 9.51 ms; the others lose 7-33% without it).
#ifndef MF_INSIDE_COPY
#define MF_INSIDE_COPY 1
#endif
// One strip; `inside` (a compile-time constant in each copy): bs_strip_inside() holds, so every row is
// whole aligned vectors (no x checks, no byte-gather path in the loop).
__attribute__((always_inline)) inline void mf_strip(global const uchar *restrict src, global uchar *restrict dst, int width,
                                                    int height, int srcPitch, int dstPitch, int x0, int y0, const bool inside)
{
    // r0 .. r5: rows y - R .. y + R + 1 of the current step (3x3 uses r0 .. r3); pl / ph: 5x5's sorted
    // pair of rows y - 1, y (the network leaves the next step's pair, rows y + 1, y + 2, there).
    mf_t r0[MF_PLANES][MF_C], r1[MF_PLANES][MF_C], r2[MF_PLANES][MF_C], r3[MF_PLANES][MF_C];
    mf_t r4[MF_PLANES][MF_C], r5[MF_PLANES][MF_C], pl[MF_PLANES][MF_C], ph[MF_PLANES][MF_C];
    mf_t o0[MF_PLANES][MF_BW], o1[MF_PLANES][MF_BW];
    mf_load_row(src, width, height, srcPitch, y0 - MEDIAN_R, x0, inside, r0);
    mf_load_row(src, width, height, srcPitch, y0 - MEDIAN_R + 1, x0, inside, r1);
#if MEDIAN_SIZE == 5
    mf_load_row(src, width, height, srcPitch, y0, x0, inside, r2);
    mf_load_row(src, width, height, srcPitch, y0 + 1, x0, inside, r3);
#pragma unroll
    for (int p = 0; p < MF_PLANES; ++p)
#pragma unroll
        for (int c = 0; c < MF_C; ++c) {
            pl[p][c] = MF_MIN(r1[p][c], r2[p][c]);
            ph[p][c] = MF_MAX(r1[p][c], r2[p][c]);
        }
#endif
    for (int i = 0; i < BLOCK_H; i += 2) {
        const int y = y0 + i;
        if (y >= height)
            break;
#if MEDIAN_SIZE == 5
        mf_load_row(src, width, height, srcPitch, y + 2, x0, inside, r4);
        mf_load_row(src, width, height, srcPitch, y + 3, x0, inside, r5);
#else
        mf_load_row(src, width, height, srcPitch, y + 1, x0, inside, r2);
        mf_load_row(src, width, height, srcPitch, y + 2, x0, inside, r3);
#endif
#pragma unroll
        for (int p = 0; p < MF_PLANES; ++p)
            MF_NET(r0[p], r1[p], r2[p], r3[p], r4[p], r5[p], pl[p], ph[p], o0[p], o1[p])
        mf_store_row(dst, width, height, dstPitch, y, x0, inside, o0);
        mf_store_row(dst, width, height, dstPitch, y + 1, x0, inside, o1);
        // Slide down two rows: what the next step still reads raw.
#pragma unroll
        for (int p = 0; p < MF_PLANES; ++p)
#pragma unroll
            for (int c = 0; c < MF_C; ++c) {
#if MEDIAN_SIZE == 5
                r0[p][c] = r2[p][c]; // rows y - 1 .. y + 2 live on only through the sorted pair pl / ph, but
                r2[p][c] = r4[p][c]; // rows y and y + 2 are the next steps' extra rows, and y + 3 is raw
                r3[p][c] = r5[p][c];
#else
                r0[p][c] = r2[p][c];
                r1[p][c] = r3[p][c];
#endif
            }
    }
}

// srcPitch / dstPitch: bytes from one row to the next. The session pads rows to 16 bytes where the whole
// image sits in device buffers (VariantSpec::rowAlign), so odd widths keep the aligned vector loads and
// stores: with packed rows of an odd width every row took the vloadN path, which NVIDIA's compiler splits
// into byte loads (H100 6719x4481 gray8: forgetful_u16x2_ptx 0.311 ms against 0.080 at 6720x4480).
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_median_forgetful)
kernel void median_forgetful(global const uchar *restrict src, global uchar *restrict dst, int width, int height,
                             constant float *coeffs, int radius, float4 params, int srcPitch, int dstPitch)
{
    const int x0 = (int)get_global_id(0) * BLOCK_W, y0 = (int)get_global_id(1) * BLOCK_H;
    if (x0 >= width || y0 >= height)
        return;
#if CHANNELS == 4 && MF_INSIDE_COPY
    // rgba8888: interior strips run their own copy, without x checks or byte gathers in the loop. H100,
    // 6720x4480, replicate, the same run: median3x3 0.188 -> 0.142 ms, median5x5 0.434 -> 0.386. gray8
    // keeps one copy (median3x3 0.056 -> 0.061 with two: more code for the loop to fetch; 5x5 unchanged).
    if (bs_strip_inside(width, srcPitch, dstPitch, x0, MEDIAN_NL, MEDIAN_NV)) {
        mf_strip(src, dst, width, height, srcPitch, dstPitch, x0, y0, true);
        return;
    }
#endif
    mf_strip(src, dst, width, height, srcPitch, dstPitch, x0, y0, false);
}
#endif
#endif
