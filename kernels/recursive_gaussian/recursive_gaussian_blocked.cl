// recursive_gaussian_blocked.cl: the recursive Gaussian's blocked rungs (variants "blocked" and
// "blocked_staged_rows"): the same Young & van Vliet recursions as recursive_gaussian.cl's column loop,
// with the same boundary condition, cut into segments with carries instead of transposing the picture.
#include "common.clh"
#include "pixels8.clh"
#include "recursive_gaussian_common.clh"
// ---- Blocked rung (variant "blocked"): no transposes, segments of every line with carries ----------
// Nehab et al. 2011 ("GPU-efficient recursive filtering and summed-area tables"), for the forward and
// backward 3rd-order recursions. A line (a byte column for the vertical pass; one channel of a row for
// the horizontal pass) of N samples is cut into segments of IIR_SEG samples; the ragged one is the
// FIRST (rows [0, L0), L0 = N - (nseg - 1) * IIR_SEG), so every segment whose carry anyone needs has
// full length and one 3x3 matrix each (host-computed in double, see blockedMatrices() in
// core/families/recursive_gaussian/RecursiveGaussian.cpp):
//   M  = A^L: the state after L steps of the homogeneous recursion from a state (3-tap companion);
//   R  = backward-from-zero of the forward homogeneous response from a state, read at the head;
//   Rl = R + (M 1) m0^T for the last segment, whose backward pass starts at its own last forward value.
// Three kernels per direction, all memory access coalesced across lanes:
//   tails: per (lane, segment) the forward run from zero state (segment 0: from the boundary state,
//          exact) -> tail Tz; the backward run of that from zero (the last segment: from its last
//          forward value) -> head Hz. Written to the carry area (6 floats per boundary and lane).
//   scan:  per lane, sequentially over the boundaries: S(k+1) = Tz(k) + M S(k) forward, then
//          E(k) = Hz(k+1) + R S(k+1) + M E(k+1) backward (Rl for the last). Cheap: 6 floats per L samples.
//   apply: per (lane, segment) the forward recursion from S(k) and the backward from E(k), exactly
//          FWB_IIR_COLUMN_BODY's operations, the segment held in registers.
// The vertical result is kept as 8.8 fixed point (ushort, error <= 1/512) in the first half of the
// float scratch buffer TmpA; the carries live in its second half (<= 24/IIR_SEG bytes per sample).
// Work-items: lanes x segments (6720x4480 rgba8888: 26880 x 140 for the columns, 17920 x 210 for the
// rows) instead of the W of a whole-column pass; each kernel takes work from a grid-stride loop, so
// the NDRange (Geometry::Blocks) only needs to be about that large.
// RG_UNROLL: the segment loops (IIR_SEG samples held in v[]) unrolled where a GPU needs them so (the
// segment in registers); on PoCL (FWB_PTX 0) rolled, the segment in memory: the same operations in the
// same order, the same bytes, and the unrolled copies only cost compile time (blocked_transposed's first
// launch took 9 s cold on PoCL 3.1). -DRG_UNROLL_SEGMENTS=1 forces the unrolled form.
#ifndef RG_UNROLL_SEGMENTS
#define RG_UNROLL_SEGMENTS FWB_PTX
#endif
#if RG_UNROLL_SEGMENTS
#define RG_UNROLL _Pragma("unroll")
#else
#define RG_UNROLL _Pragma("unroll 1")
#endif
#ifndef IIR_SEG
#define IIR_SEG 32
#endif
// The host sends the matrices for 32- and 64-sample segments (appendBlockedMatrices), in that order.
#if IIR_SEG == 32
#define RG_MATRICES 4
#elif IIR_SEG == 64
#define RG_MATRICES 58
#else
#error "IIR_SEG must be 32 or 64 (the lengths the host computes carry matrices for)"
#endif
#ifndef IIR_SCAN_BATCH
#define IIR_SCAN_BATCH 8 // boundaries whose carries a scan work-item loads before it runs through them
#endif

inline int rg_task_first(void) { return (int)(get_global_id(1) * get_global_size(0) + get_global_id(0)); }
inline int rg_task_step(void) { return (int)(get_global_size(0) * get_global_size(1)); }

// Lines of one direction: lane count, samples per line, where sample n of lane l sits.
inline int rg_lanes(bool vertical, int width, int height) { return (vertical ? width : height) * CHANNELS; }
inline int rg_samples(bool vertical, int width, int height) { return vertical ? height : width; }
inline int rg_index(bool vertical, int lane, int n, int width)
{
    const int rowBytes = width * CHANNELS;
    return vertical ? n * rowBytes + lane : (lane / CHANNELS) * rowBytes + n * CHANNELS + lane % CHANNELS;
}
// The carry area: floats after the 8.8 intermediate (2 bytes per sample, rounded up to 16 bytes).
inline global float *rg_carries(global uchar *scratch, int width, int height)
{
    const size_t samples = (size_t)width * (size_t)height * CHANNELS; // up to 2^31: 2 * samples needs 64 bits
    return (global float *)(scratch + ((2 * samples + 15) / 16) * 16);
}
// Where sample n of vertical lane l goes in the transposed picture (height wide, width tall): pixel
// (x, y) = (l / CHANNELS, n) becomes pixel (y, x), its channels in place.
inline int rg_tindex(int lane, int n, int height)
{
    return ((lane / CHANNELS) * height + n) * CHANNELS + lane % CHANNELS;
}
// A sample of the 8-bit input, or (in16) of the 8.8 fixed-point intermediate.
inline float rg_load(bool in16, global const uchar *in, int index)
{
    return in16 ? (float)((global const ushort *)in)[index] * (1.0f / 256.0f) : (float)in[index];
}
// What rg_apply writes: the 8.8 intermediate or the 8-bit result.
#define RG_OUT_88 0
#define RG_OUT_U8 1

#define RG_STEP(v, p1, p2, p3) (k.s0 * (v) + (k.s1 * (p1) + k.s2 * (p2) + k.s3 * (p3)))

inline void rg_tails(bool vertical, bool in16, global const uchar *in, global uchar *scratch, int width, int height,
                     float4 k)
{
    const int lanes = rg_lanes(vertical, width, height), n = rg_samples(vertical, width, height);
    const int nseg = (n + IIR_SEG - 1) / IIR_SEG;
    if (nseg < 2)
        return; // one segment: the apply kernel runs it from the boundary states alone
    const int l0 = n - (nseg - 1) * IIR_SEG;
    global float *carry = rg_carries(scratch, width, height);
    for (int t = rg_task_first(); t < lanes * nseg; t += rg_task_step()) {
        const int lane = t % lanes, seg = t / lanes;
        const int len = seg == 0 ? l0 : IIR_SEG, start = seg == 0 ? 0 : l0 + (seg - 1) * IIR_SEG;
        float v[IIR_SEG];
RG_UNROLL
        for (int i = 0; i < IIR_SEG; ++i)
            v[i] = i < len ? rg_load(in16, in, rg_index(vertical, lane, start + i, width)) : 0.0f;
        float s1 = seg == 0 ? v[0] : 0.0f, s2 = s1, s3 = s1;
RG_UNROLL
        for (int i = 0; i < IIR_SEG; ++i) {
            if (i < len) {
                const float w0 = RG_STEP(v[i], s1, s2, s3);
                v[i] = w0;
                s3 = s2;
                s2 = s1;
                s1 = w0;
            }
        }
        if (seg < nseg - 1) { // forward carry of boundary `seg` (segment 0: already the true state)
            carry[(seg * 6 + 0) * lanes + lane] = s1;
            carry[(seg * 6 + 1) * lanes + lane] = s2;
            carry[(seg * 6 + 2) * lanes + lane] = s3;
        }
        if (seg == 0)
            continue; // nobody needs segment 0's head
        float y1 = seg == nseg - 1 ? s1 : 0.0f, y2 = y1, y3 = y1;
RG_UNROLL
        for (int i = IIR_SEG - 1; i >= 0; --i) {
            const float y0 = RG_STEP(v[i], y1, y2, y3);
            y3 = y2;
            y2 = y1;
            y1 = y0;
        }
        const int b = seg - 1; // backward carry of boundary seg - 1
        carry[(b * 6 + 3) * lanes + lane] = y1;
        carry[(b * 6 + 4) * lanes + lane] = y2;
        carry[(b * 6 + 5) * lanes + lane] = y3;
    }
}

// The scan runs in double where the device has it (yvv_t above): at large sigma the carry matrices
// entries reach ~500 (sigma 50: M's first row 246, -468, 222) against states of ~255, so a float
// product loses ~0.01 per boundary and the chain amplifies it (simulated: 10 levels off at 4480
// samples, against 0.04 in double and the float reference's own 0.16). The matrices come from the
// host as float pairs (hi + lo, 48 bits); the carries are stored as floats, like the states of the
// column loop. Without fp64 the scan is float and large sigma loses accuracy.
typedef struct
{
    yvv_t m[9];
} rg_mat3;

inline rg_mat3 rg_matrix(constant float *coeffs, int which)
{
    rg_mat3 r;
    for (int i = 0; i < 9; ++i)
        r.m[i] = (yvv_t)coeffs[RG_MATRICES + which * 9 + i] + (yvv_t)coeffs[RG_MATRICES + 27 + which * 9 + i];
    return r;
}

// r = a + m s (3-vectors as x, y, z).
#define RG_MULADD(r, a, mat, s)                                                                    \
    do {                                                                                           \
        const yvv_t t0 = (a##0) + ((mat).m[0] * (s##0) + (mat).m[1] * (s##1) + (mat).m[2] * (s##2)); \
        const yvv_t t1 = (a##1) + ((mat).m[3] * (s##0) + (mat).m[4] * (s##1) + (mat).m[5] * (s##2)); \
        const yvv_t t2 = (a##2) + ((mat).m[6] * (s##0) + (mat).m[7] * (s##1) + (mat).m[8] * (s##2)); \
        r##0 = t0;                                                                                 \
        r##1 = t1;                                                                                 \
        r##2 = t2;                                                                                 \
    } while (0)

inline void rg_scan(bool vertical, global uchar *scratch, int width, int height, constant float *coeffs)
{
    const int lanes = rg_lanes(vertical, width, height), n = rg_samples(vertical, width, height);
    const int nseg = (n + IIR_SEG - 1) / IIR_SEG;
    if (nseg < 2)
        return;
    const int nb = nseg - 1; // boundaries 0 .. nb - 1
    const rg_mat3 M = rg_matrix(coeffs, 0), R = rg_matrix(coeffs, 1), Rl = rg_matrix(coeffs, 2);
    global float *carry = rg_carries(scratch, width, height);
    for (int lane = rg_task_first(); lane < lanes; lane += rg_task_step()) {
        global float *c = carry + lane;
#define RG_C(j, q) c[((j) * 6 + (q)) * lanes]
        // Forward: f(j) = Tz(j) + M f(j - 1), f(0) exact. A batch's loads first, then its chain.
        yvv_t s0 = RG_C(0, 0), s1 = RG_C(0, 1), s2 = RG_C(0, 2);
        for (int j0 = 1; j0 < nb; j0 += IIR_SCAN_BATCH) {
            float tz0[IIR_SCAN_BATCH], tz1[IIR_SCAN_BATCH], tz2[IIR_SCAN_BATCH];
RG_UNROLL
            for (int i = 0; i < IIR_SCAN_BATCH; ++i) {
                const bool in = j0 + i < nb;
                tz0[i] = in ? RG_C(j0 + i, 0) : 0.0f;
                tz1[i] = in ? RG_C(j0 + i, 1) : 0.0f;
                tz2[i] = in ? RG_C(j0 + i, 2) : 0.0f;
            }
RG_UNROLL
            for (int i = 0; i < IIR_SCAN_BATCH; ++i) {
                if (j0 + i < nb) {
                    const yvv_t a0 = tz0[i], a1 = tz1[i], a2 = tz2[i];
                    RG_MULADD(s, a, M, s);
                    RG_C(j0 + i, 0) = (float)s0;
                    RG_C(j0 + i, 1) = (float)s1;
                    RG_C(j0 + i, 2) = (float)s2;
                }
            }
        }
        // Backward: e(nb - 1) = Hz + Rl f(nb - 1); e(j) = Hz(j + 1) + R f(j) + M e(j + 1). s = f(nb - 1)
        // in full precision; f(j) below nb - 1 comes back from the (float) store.
        yvv_t e0, e1, e2;
        {
            const yvv_t a0 = RG_C(nb - 1, 3), a1 = RG_C(nb - 1, 4), a2 = RG_C(nb - 1, 5);
            RG_MULADD(e, a, Rl, s);
        }
        RG_C(nb - 1, 3) = (float)e0;
        RG_C(nb - 1, 4) = (float)e1;
        RG_C(nb - 1, 5) = (float)e2;
        for (int j0 = nb - 2; j0 >= 0; j0 -= IIR_SCAN_BATCH) {
            float hz0[IIR_SCAN_BATCH], hz1[IIR_SCAN_BATCH], hz2[IIR_SCAN_BATCH];
            float f0[IIR_SCAN_BATCH], f1[IIR_SCAN_BATCH], f2[IIR_SCAN_BATCH];
RG_UNROLL
            for (int i = 0; i < IIR_SCAN_BATCH; ++i) {
                const bool in = j0 - i >= 0;
                hz0[i] = in ? RG_C(j0 - i, 3) : 0.0f;
                hz1[i] = in ? RG_C(j0 - i, 4) : 0.0f;
                hz2[i] = in ? RG_C(j0 - i, 5) : 0.0f;
                f0[i] = in ? RG_C(j0 - i, 0) : 0.0f;
                f1[i] = in ? RG_C(j0 - i, 1) : 0.0f;
                f2[i] = in ? RG_C(j0 - i, 2) : 0.0f;
            }
RG_UNROLL
            for (int i = 0; i < IIR_SCAN_BATCH; ++i) {
                if (j0 - i >= 0) {
                    const yvv_t h0 = hz0[i], h1 = hz1[i], h2 = hz2[i], g0 = f0[i], g1 = f1[i], g2 = f2[i];
                    yvv_t a0, a1, a2;
                    RG_MULADD(a, h, R, g);
                    RG_MULADD(e, a, M, e);
                    RG_C(j0 - i, 3) = (float)e0;
                    RG_C(j0 - i, 4) = (float)e1;
                    RG_C(j0 - i, 5) = (float)e2;
                }
            }
        }
#undef RG_C
    }
}

// The backward sweep's starting state (y1, y2, y3) for segment `seg` of a line: at the line's end its
// last forward value held (FWB_IIR_COLUMN_BODY), elsewhere the carries the scan left for it.
inline void rg_backward_state(global const float *carry, int seg, int nseg, int lanes, int lane, float last,
                              float *y1, float *y2, float *y3)
{
    if (seg == nseg - 1) {
        *y1 = *y2 = *y3 = last;
    } else {
        *y1 = carry[(seg * 6 + 3) * lanes + lane];
        *y2 = carry[(seg * 6 + 4) * lanes + lane];
        *y3 = carry[(seg * 6 + 5) * lanes + lane];
    }
}

inline void rg_apply(bool vertical, bool in16, int outMode, global const uchar *in, global uchar *out,
                     global uchar *scratch, int width, int height, float4 k)
{
    const int lanes = rg_lanes(vertical, width, height), n = rg_samples(vertical, width, height);
    const int nseg = (n + IIR_SEG - 1) / IIR_SEG;
    const int l0 = n - (nseg - 1) * IIR_SEG;
    global const float *carry = rg_carries(scratch, width, height);
    for (int t = rg_task_first(); t < lanes * nseg; t += rg_task_step()) {
        const int lane = t % lanes, seg = t / lanes;
        const int len = seg == 0 ? l0 : IIR_SEG, start = seg == 0 ? 0 : l0 + (seg - 1) * IIR_SEG;
        float v[IIR_SEG];
RG_UNROLL
        for (int i = 0; i < IIR_SEG; ++i)
            v[i] = i < len ? rg_load(in16, in, rg_index(vertical, lane, start + i, width)) : 0.0f;
        float s1, s2, s3;
        if (seg == 0) {
            s1 = s2 = s3 = v[0];
        } else {
            const int f = seg - 1;
            s1 = carry[(f * 6 + 0) * lanes + lane];
            s2 = carry[(f * 6 + 1) * lanes + lane];
            s3 = carry[(f * 6 + 2) * lanes + lane];
        }
RG_UNROLL
        for (int i = 0; i < IIR_SEG; ++i) {
            if (i < len) {
                const float w0 = RG_STEP(v[i], s1, s2, s3);
                v[i] = w0;
                s3 = s2;
                s2 = s1;
                s1 = w0;
            }
        }
        float y1, y2, y3;
        rg_backward_state(carry, seg, nseg, lanes, lane, s1, &y1, &y2, &y3);
RG_UNROLL
        for (int i = IIR_SEG - 1; i >= 0; --i) {
            if (i < len) {
                const float y0 = RG_STEP(v[i], y1, y2, y3);
                const int index = rg_index(vertical, lane, start + i, width);
                if (outMode == RG_OUT_88)
                    ((global ushort *)out)[index] = convert_ushort_sat_rte(y0 * 256.0f);
                else
                    out[index] = convert_uchar_sat(y0 + 0.5f);
                y3 = y2;
                y2 = y1;
                y1 = y0;
            }
        }
    }
}

// rg_apply for vertical lanes, its results written transposed (rg_tindex): as the 8.8 intermediate, or
// (out8) as the 8-bit result. Written straight, each of a warp's lanes would store its sample in another
// row of the turned picture (32 rows per store: 0.54-0.59 ms a pass on an H100 at 6720x4480 gray8). So a
// work-group takes its tasks together - up to RG_T_LANES neighbouring lanes at one segment - runs them into
// a __local tile, and stores the tile row by row of the turned picture: neighbouring work-items,
// neighbouring addresses. Any work-group shape: lanes past the group's size wait for its next round; the
// loop's trip count is the same for the whole group, so every work-item reaches every barrier.
#define RG_T_LANES 128
#define RG_T_PITCH (RG_T_LANES + 2) // a tile row: +2, so that a lane's samples fall in different banks
inline void rg_apply_t(bool in16, bool out8, global const uchar *in, global uchar *out, global uchar *scratch,
                       int width, int height, float4 k, local ushort *tile)
{
    const int lanes = width * CHANNELS, n = height;
    const int nseg = (n + IIR_SEG - 1) / IIR_SEG;
    const int l0 = n - (nseg - 1) * IIR_SEG;
    global const float *carry = rg_carries(scratch, width, height);
    const int items = (int)(get_local_size(0) * get_local_size(1));
    const int me = (int)(get_local_id(1) * get_local_size(0) + get_local_id(0));
    const int perGroup = min(items, RG_T_LANES);
    const int laneGroups = (lanes + perGroup - 1) / perGroup;
    const int group = (int)(get_group_id(1) * get_num_groups(0) + get_group_id(0));
    const int groups = (int)(get_num_groups(0) * get_num_groups(1));
    for (int task = group; task < laneGroups * nseg; task += groups) {
        const int seg = task / laneGroups, lane0 = (task % laneGroups) * perGroup;
        const int here = min(perGroup, lanes - lane0);
        const int len = seg == 0 ? l0 : IIR_SEG, start = seg == 0 ? 0 : l0 + (seg - 1) * IIR_SEG;
        if (me < here) {
            const int lane = lane0 + me;
            float v[IIR_SEG];
RG_UNROLL
            for (int i = 0; i < IIR_SEG; ++i)
                v[i] = i < len ? rg_load(in16, in, rg_index(true, lane, start + i, width)) : 0.0f;
            float s1, s2, s3;
            if (seg == 0) {
                s1 = s2 = s3 = v[0];
            } else {
                const int f = seg - 1;
                s1 = carry[(f * 6 + 0) * lanes + lane];
                s2 = carry[(f * 6 + 1) * lanes + lane];
                s3 = carry[(f * 6 + 2) * lanes + lane];
            }
RG_UNROLL
            for (int i = 0; i < IIR_SEG; ++i) {
                if (i < len) {
                    const float w0 = RG_STEP(v[i], s1, s2, s3);
                    v[i] = w0;
                    s3 = s2;
                    s2 = s1;
                    s1 = w0;
                }
            }
            float y1, y2, y3;
            rg_backward_state(carry, seg, nseg, lanes, lane, s1, &y1, &y2, &y3);
RG_UNROLL
            for (int i = IIR_SEG - 1; i >= 0; --i) {
                if (i < len) {
                    const float y0 = RG_STEP(v[i], y1, y2, y3);
                    tile[i * RG_T_PITCH + me] = out8 ? (ushort)convert_uchar_sat(y0 + 0.5f) : convert_ushort_sat_rte(y0 * 256.0f);
                    y3 = y2;
                    y2 = y1;
                    y1 = y0;
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        // The tile's samples in the turned picture's order: pixel (of the group's lanes), sample, channel.
        // Where lane0 is a whole pixel, consecutive e are consecutive addresses.
        const int pixels = (here + CHANNELS - 1) / CHANNELS;
        for (int e = me; e < pixels * len * CHANNELS; e += items) {
            const int p = e / (len * CHANNELS), rest = e % (len * CHANNELS);
            const int i = rest / CHANNELS, at = p * CHANNELS + rest % CHANNELS;
            if (at < here) {
                const int index = rg_tindex(lane0 + at, start + i, height);
                if (out8)
                    out[index] = (uchar)tile[i * RG_T_PITCH + at];
                else
                    ((global ushort *)out)[index] = tile[i * RG_T_PITCH + at];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

// Passes (slots): columns_tails (Src -> TmpA carries), columns_scan (TmpA), columns_apply (Src -> TmpA
// 8.8 image, reading TmpA's carries), rows_tails (TmpA), rows_scan (TmpA), rows_apply (TmpA -> Dst).
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_iir_blocked_columns_tails)
kernel void iir_blocked_columns_tails(global const uchar *in, global uchar *scratch, int width, int height,
                                      constant float *coeffs, int radius, float4 params)
{
    rg_tails(true, false, in, scratch, width, height, vload4(0, coeffs));
}
#endif

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_iir_blocked_columns_scan)
kernel void iir_blocked_columns_scan(global uchar *unused, global uchar *scratch, int width, int height,
                                     constant float *coeffs, int radius, float4 params)
{
    rg_scan(true, scratch, width, height, coeffs);
}
#endif

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_iir_blocked_columns_apply)
kernel void iir_blocked_columns_apply(global const uchar *in, global uchar *scratch, int width, int height,
                                      constant float *coeffs, int radius, float4 params)
{
    rg_apply(true, false, RG_OUT_88, in, scratch, scratch, width, height, vload4(0, coeffs));
}
#endif

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_iir_blocked_rows_tails)
kernel void iir_blocked_rows_tails(global uchar *unused, global uchar *scratch, int width, int height,
                                   constant float *coeffs, int radius, float4 params)
{
    rg_tails(false, true, scratch, scratch, width, height, vload4(0, coeffs));
}
#endif

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_iir_blocked_rows_scan)
kernel void iir_blocked_rows_scan(global uchar *unused, global uchar *scratch, int width, int height,
                                  constant float *coeffs, int radius, float4 params)
{
    rg_scan(false, scratch, width, height, coeffs);
}
#endif

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_iir_blocked_rows_apply)
kernel void iir_blocked_rows_apply(global uchar *scratch, global uchar *out, int width, int height,
                                   constant float *coeffs, int radius, float4 params)
{
    rg_apply(false, true, RG_OUT_U8, scratch, out, scratch, width, height, vload4(0, coeffs));
}
#endif

// ---- blocked_transposed: both directions down columns -----------------------------------------------
// The column kernels are the fast ones (a warp's lanes are neighbouring bytes of one row: every load and
// store coalesced, nothing staged). So the column pass writes its 8.8 result transposed (pixel (x, y)
// to (y, x): each work-item's segment becomes a run of consecutive samples of one output row), the row
// pass runs as a column pass over that picture (height wide, width tall: the session swaps the sizes
// after a Transposed pass) and writes its 8-bit result transposed back. TmpA holds the transposed 8.8
// picture and, after it, each direction's carries in turn (the first direction's are spent once its
// apply kernel has run). Passes: columns_tails (Src -> TmpA), columns_scan, columns_apply_t (Src -> TmpA,
// Transposed), tcolumns_tails (TmpA), columns_scan, tcolumns_apply_t (TmpA -> Dst, Transposed).
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_iir_blocked_columns_apply_t)
kernel void iir_blocked_columns_apply_t(global const uchar *in, global uchar *scratch, int width, int height,
                                        constant float *coeffs, int radius, float4 params)
{
    local ushort tile[IIR_SEG * RG_T_PITCH];
    rg_apply_t(false, false, in, scratch, scratch, width, height, vload4(0, coeffs), tile);
}
#endif

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_iir_blocked_tcolumns_tails)
kernel void iir_blocked_tcolumns_tails(global const uchar *in, global uchar *scratch, int width, int height,
                                       constant float *coeffs, int radius, float4 params)
{
    rg_tails(true, true, in, scratch, width, height, vload4(0, coeffs));
}
#endif

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_iir_blocked_tcolumns_apply_t)
kernel void iir_blocked_tcolumns_apply_t(global uchar *scratch, global uchar *out, int width, int height,
                                         constant float *coeffs, int radius, float4 params)
{
    local ushort tile[IIR_SEG * RG_T_PITCH];
    rg_apply_t(true, true, scratch, out, scratch, width, height, vload4(0, coeffs), tile);
}
#endif

// ---- blocked_staged_rows: the row passes through __local memory ----------------------------------
// In iir_blocked_rows_* a warp's 32 work-items are 32 (row, channel) lanes (gray8: 32 rows), so every
// load and store touches up to 32 cache lines: coalesced in bytes moved, but one L1 wavefront per line,
// about one per sample in gray8. Here a work-group takes a chunk of one row - up to RG_TILE_ITEMS / CHANNELS
// consecutive segments, all channels - loads its samples in order (neighbouring work-items,
// neighbouring addresses) into a __local tile, runs each (segment, channel) from the tile (padded one
// float every IIR_SEG, so a warp's 32 segments fall in 32 banks), and the apply kernel writes its results
// back to the tile and stores the 8-bit row in order. Same operations, same carries as rows_*.
#ifndef RG_TILE_ITEMS
#define RG_TILE_ITEMS (8192 / IIR_SEG) // (segment, channel) tasks per chunk: 8192 samples, a 33 KiB tile
#endif
#define RG_TILE_FLOATS (RG_TILE_ITEMS * IIR_SEG + RG_TILE_ITEMS)
// One float of padding per segment length: neighbouring segments' samples i fall in different banks.
inline int rg_pad(int k) { return k + k / IIR_SEG; }

// which: 0 tails, 1 apply.
inline void rg_rows_staged(int which, global const uchar *in, global uchar *out, global uchar *scratch, int width,
                           int height, float4 k, local float *tile)
{
    const int n = width, lanes = height * CHANNELS;
    const int nseg = (n + IIR_SEG - 1) / IIR_SEG;
    if (which == 0 && nseg < 2)
        return;
    const int l0 = n - (nseg - 1) * IIR_SEG;
    const int items = (int)(get_local_size(0) * get_local_size(1));
    const int lid = (int)(get_local_id(1) * get_local_size(0) + get_local_id(0));
    const int segsPerChunk = max(1, min(items, RG_TILE_ITEMS) / CHANNELS);
    const int chunksPerRow = (nseg + segsPerChunk - 1) / segsPerChunk;
    const int groups = (int)(get_num_groups(0) * get_num_groups(1));
    global float *carry = rg_carries(scratch, width, height);
    global const ushort *in16 = (global const ushort *)in;
    for (int chunk = (int)(get_group_id(1) * get_num_groups(0) + get_group_id(0)); chunk < height * chunksPerRow;
         chunk += groups) {
        const int row = chunk / chunksPerRow, seg0 = (chunk % chunksPerRow) * segsPerChunk;
        const int segEnd = min(nseg, seg0 + segsPerChunk);
        const int p0 = seg0 == 0 ? 0 : l0 + (seg0 - 1) * IIR_SEG, p1 = l0 + (segEnd - 1) * IIR_SEG;
        const int base = (row * width + p0) * CHANNELS, count = (p1 - p0) * CHANNELS;
        for (int i = lid; i < count; i += items)
            tile[rg_pad(i)] = (float)in16[base + i] * (1.0f / 256.0f);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int task = lid; task < (segEnd - seg0) * CHANNELS; task += items) {
            const int c = task % CHANNELS, seg = seg0 + task / CHANNELS, lane = row * CHANNELS + c;
            const int len = seg == 0 ? l0 : IIR_SEG, start = seg == 0 ? 0 : l0 + (seg - 1) * IIR_SEG;
            const int t0 = (start - p0) * CHANNELS + c; // tile index of the segment's first sample
            float v[IIR_SEG];
RG_UNROLL
            for (int i = 0; i < IIR_SEG; ++i)
                v[i] = i < len ? tile[rg_pad(t0 + i * CHANNELS)] : 0.0f;
            float s1, s2, s3;
            if (which == 0 || seg == 0) {
                s1 = seg == 0 ? v[0] : 0.0f;
                s2 = s3 = s1;
            } else {
                s1 = carry[((seg - 1) * 6 + 0) * lanes + lane];
                s2 = carry[((seg - 1) * 6 + 1) * lanes + lane];
                s3 = carry[((seg - 1) * 6 + 2) * lanes + lane];
            }
RG_UNROLL
            for (int i = 0; i < IIR_SEG; ++i) {
                if (i < len) {
                    const float w0 = RG_STEP(v[i], s1, s2, s3);
                    v[i] = w0;
                    s3 = s2;
                    s2 = s1;
                    s1 = w0;
                }
            }
            if (which == 0) {
                if (seg < nseg - 1) {
                    carry[(seg * 6 + 0) * lanes + lane] = s1;
                    carry[(seg * 6 + 1) * lanes + lane] = s2;
                    carry[(seg * 6 + 2) * lanes + lane] = s3;
                }
                if (seg == 0)
                    continue;
                float y1 = seg == nseg - 1 ? s1 : 0.0f, y2 = y1, y3 = y1;
RG_UNROLL
                for (int i = IIR_SEG - 1; i >= 0; --i) {
                    const float y0 = RG_STEP(v[i], y1, y2, y3);
                    y3 = y2;
                    y2 = y1;
                    y1 = y0;
                }
                carry[((seg - 1) * 6 + 3) * lanes + lane] = y1;
                carry[((seg - 1) * 6 + 4) * lanes + lane] = y2;
                carry[((seg - 1) * 6 + 5) * lanes + lane] = y3;
            } else {
                float y1, y2, y3;
                rg_backward_state(carry, seg, nseg, lanes, lane, s1, &y1, &y2, &y3);
RG_UNROLL
                for (int i = IIR_SEG - 1; i >= 0; --i) {
                    if (i < len) {
                        const float y0 = RG_STEP(v[i], y1, y2, y3);
                        tile[rg_pad(t0 + i * CHANNELS)] = y0; // only this task's own samples
                        y3 = y2;
                        y2 = y1;
                        y1 = y0;
                    }
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (which == 1) {
            for (int i = lid; i < count; i += items)
                out[base + i] = convert_uchar_sat(tile[rg_pad(i)] + 0.5f);
            barrier(CLK_LOCAL_MEM_FENCE); // the next chunk's loads overwrite the tile
        }
    }
}

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_iir_blocked_rows_staged_tails)
kernel void iir_blocked_rows_staged_tails(global uchar *unused, global uchar *scratch, int width, int height,
                                          constant float *coeffs, int radius, float4 params)
{
    local float tile[RG_TILE_FLOATS];
    rg_rows_staged(0, scratch, scratch, scratch, width, height, vload4(0, coeffs), tile);
}
#endif

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_iir_blocked_rows_staged_apply)
kernel void iir_blocked_rows_staged_apply(global uchar *scratch, global uchar *out, int width, int height,
                                          constant float *coeffs, int radius, float4 params)
{
    local float tile[RG_TILE_FLOATS];
    rg_rows_staged(1, scratch, out, scratch, width, height, vload4(0, coeffs), tile);
}
#endif
