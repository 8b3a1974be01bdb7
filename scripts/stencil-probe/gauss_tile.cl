// Prototype (session 21): the sigma-2 Gaussian (radius 6, gray8, replicate) with its row results in local
// memory instead of registers. A work-group owns a tile TW bytes across and TH rows down. Phase 1: every
// (input row, 16-byte chunk) of the tile's TH + 12 rows is filtered along the row in 32-bit floats and
// rounded once to 16-bit pairs (cvt.rn.f16x2.f32) into local memory. Phase 2: each work-item slides down one
// pair column of a segment of rows, its 13-row window in registers, the column taps in f16x2 as the
// catalogue's strips_half2. Needs -DTW (bytes, a multiple of 16, dividing the width), -DTH, local size
// LS (= the work-group's items, a multiple of TW / 2) and kernels/shared on the include path.
#include "common.clh"
#include "half2.clh"
#define R 6
#define NR (TH + 2 * R)
#define WC (TW / 2)        // pair columns of a tile
#define NSEG (LS / WC)     // row segments in phase 2
#define SEGH (TH / NSEG)

inline float gtap(int d) { return exp(-(float)(d * d) / 8.0f); }

kernel __attribute__((reqd_work_group_size(LS, 1, 1)))
void wrap(global const uchar *restrict src, global uchar *restrict dst, int width, int height, int pitch)
{
    local uint lt[NR][WC];
    const int lid = get_local_id(0);
    const int x0 = get_group_id(0) * TW, y0 = get_group_id(1) * TH;
    float sum = 0.0f;
    for (int d = -R; d <= R; ++d)
        sum += gtap(d);
    float tap[2 * R + 1];
#pragma unroll
    for (int d = 0; d <= 2 * R; ++d)
        tap[d] = gtap(d - R) / sum;
    // Phase 1.
    for (int t = lid; t < NR * (TW / 16); t += LS) {
        const int row = t / (TW / 16), ch = t % (TW / 16);
        const int sy = clamp(y0 - R + row, 0, height - 1);
        const int xb = x0 + ch * 16;
        global const uchar *p = src + (size_t)sy * pitch;
        const uint4 c = *(global const uint4 *)(p + xb);
        uint2 l = xb >= 8 ? *(global const uint2 *)(p + xb - 8) : (uint2)((c.x & 0xffu) * 0x01010101u);
        uint2 r = xb + 24 <= width ? *(global const uint2 *)(p + xb + 16) : (uint2)((c.w >> 24) * 0x01010101u);
        const uint w[8] = {l.x, l.y, c.x, c.y, c.z, c.w, r.x, r.y}; // bytes xb - 8 .. xb + 23
        float f[28];
#pragma unroll
        for (int j = 0; j < 28; ++j) { // byte xb - 6 + j = byte 2 + j of w
            const int b = 2 + j;
            f[j] = as_float(fwb_prmt(w[b / 4], 0x4b000000u, 0x7440u | (uint)(b % 4))) - 8388608.0f;
        }
        uint4 h[2];
        uint hv[8];
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            float a0 = tap[0] * f[2 * k], a1 = tap[0] * f[2 * k + 1];
#pragma unroll
            for (int d = 1; d <= 2 * R; ++d) {
                a0 = fma(tap[d], f[2 * k + d], a0);
                a1 = fma(tap[d], f[2 * k + 1 + d], a1);
            }
            hv[k] = ss_h2pack(a0, a1);
        }
        *(local uint4 *)&lt[row][ch * 8] = (uint4)(hv[0], hv[1], hv[2], hv[3]);
        *(local uint4 *)&lt[row][ch * 8 + 4] = (uint4)(hv[4], hv[5], hv[6], hv[7]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Phase 2.
    uint tapY[2 * R + 1];
#pragma unroll
    for (int d = 0; d <= 2 * R; ++d)
        tapY[d] = ss_h2pair(tap[d] * (1.0f / 255.0f), tap[d] * (1.0f / 255.0f));
    const uint magic = 0x64006400u, to255 = 0x5bf85bf8u;
    const int col = lid % WC, r0 = (lid / WC) * SEGH;
    uint win[2 * R + 1];
#pragma unroll
    for (int k = 0; k < 2 * R; ++k)
        win[k] = lt[r0 + k][col];
#pragma unroll
    for (int i = 0; i < SEGH; ++i) {
        win[2 * R] = lt[r0 + 2 * R + i][col];
        uint acc = 0u;
#pragma unroll
        for (int k = 0; k < 2 * R; ++k)
            acc = ss_h2fma(tapY[k], win[k], acc);
        acc = ss_h2fma_sat(tapY[2 * R], win[2 * R], acc);
        const uint v = ss_h2fma(acc, to255, magic);
        const int y = y0 + r0 + i;
        if (y < height)
            *(global ushort *)(dst + (size_t)y * pitch + x0 + 2 * col) = (ushort)((v & 255u) | ((v >> 8) & 0xff00u));
#pragma unroll
        for (int k = 0; k < 2 * R; ++k)
            win[k] = win[k + 1];
    }
}
