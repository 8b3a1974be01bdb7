// recursive_gaussian.cl: seed 000's recursive (IIR) Gaussian - Young & van Vliet (1995), 3rd order,
// one work-item per column running a forward then a backward pass - and the float transposes that
// turn the row pass into a column pass. Pipeline: columns(u8 -> float) -> transpose -> columns
// (float) -> transpose (float -> u8, rounded). Cost per pixel is fixed (3 feedback taps each way),
// whatever sigma is.
//
// Boundary condition (not the BORDER define): each pass starts in the steady state of a constant
// signal - the forward pass as if the column continued forever before its first pixel with that
// pixel's value, the backward pass as if it continued after its end with the last forward value.
// The CPU reference (RecursiveMedianMorphology.cpp) mirrors this in float, operation for operation.
// The blocked rungs (no transposes) are recursive_gaussian_blocked.cl.
#include "common.clh"
#include "pixels8.clh"

#include "recursive_gaussian_common.clh"

// Filters column x of a width x height image in place in `out`: forward w[n] = B x[n] + a1 w[n-1] +
// a2 w[n-2] + a3 w[n-3], then backward y[n] = B w[n] + a1 y[n+1] + a2 y[n+2] + a3 y[n+3]. The loop
// is sequential down the column - the part seed 000 says cannot fill a GPU - but neighbouring
// work-items read neighbouring addresses at every step (coalesced).
#define FWB_IIR_COLUMN_BODY(LOAD_INPUT)                                                            \
    const int x = get_global_id(0);                                                                \
    if (x >= width)                                                                                \
        return;                                                                                    \
    pixel_t w1 = LOAD_INPUT(in, x), w2 = w1, w3 = w1;                                              \
    for (int y = 0; y < height; ++y) {                                                             \
        const int i = y * width + x;                                                               \
        const pixel_t w0 = k.s0 * LOAD_INPUT(in, i) + (k.s1 * w1 + k.s2 * w2 + k.s3 * w3);         \
        fwb_storef(out, i, w0);                                                                    \
        w3 = w2;                                                                                   \
        w2 = w1;                                                                                   \
        w1 = w0;                                                                                   \
    }                                                                                              \
    pixel_t y1 = w1, y2 = w1, y3 = w1;                                                             \
    for (int y = height - 1; y >= 0; --y) {                                                        \
        const int i = y * width + x;                                                               \
        const pixel_t y0 = k.s0 * fwb_loadf(out, i) + (k.s1 * y1 + k.s2 * y2 + k.s3 * y3);         \
        fwb_storef(out, i, y0);                                                                    \
        y3 = y2;                                                                                   \
        y2 = y1;                                                                                   \
        y1 = y0;                                                                                   \
    }

// Coefficients from the host (double precision, rounded to float once) in the __constant table.
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_iir_columns_u8)
kernel void iir_columns_u8(global const uchar *in, global float *out, int width, int height,
                           constant float *coeffs, int radius, float4 params)
{
    const float4 k = vload4(0, coeffs);
    FWB_IIR_COLUMN_BODY(fwb_load)
}
#endif

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_iir_columns_f32)
kernel void iir_columns_f32(global const float *in, global float *out, int width, int height,
                            constant float *coeffs, int radius, float4 params)
{
    const float4 k = vload4(0, coeffs);
    FWB_IIR_COLUMN_BODY(fwb_loadf)
}
#endif

// Same, coefficients derived on the device from sigma = params.s0 (every work-item, once).
#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_iir_columns_u8_device_coeffs)
kernel void iir_columns_u8_device_coeffs(global const uchar *in, global float *out, int width, int height,
                                         constant float *coeffs, int radius, float4 params)
{
    const float4 k = fwb_yvv_coefficients(params.s0);
    FWB_IIR_COLUMN_BODY(fwb_load)
}
#endif

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_iir_columns_f32_device_coeffs)
kernel void iir_columns_f32_device_coeffs(global const float *in, global float *out, int width, int height,
                                          constant float *coeffs, int radius, float4 params)
{
    const float4 k = fwb_yvv_coefficients(params.s0);
    FWB_IIR_COLUMN_BODY(fwb_loadf)
}
#endif

// Roofline rung of the column pass: the same recursion, operation for operation (FWB_IIR_COLUMN_BODY),
// but the loads are batched. The plain loop has one load in flight per work-item, and a column pass
// has only W work-items (6720 for a 6720-wide image: ~1.6 warps per H100 SM), so it waits on memory
// latency at every row. Here each work-item loads the next IIR_CHUNK rows into registers before it
// runs the recursion over the current IIR_CHUNK rows: IIR_CHUNK loads are in flight while it computes,
// in both the forward sweep (input) and the backward sweep (the forward results it stored).
#ifndef IIR_CHUNK
#if CHANNELS == 1
#define IIR_CHUNK 32 // H100, 6720x4480 gray8: 16 rows 2.22 ms, 32 rows 1.53 ms, 48 or 64 no better
#else
#define IIR_CHUNK 24 // H100, 6720x4480 rgba8888: 16 rows 2.70 ms, 24 rows 2.49 ms, 32 rows 2.82 ms (spills)
#endif
#endif
// IIR_UNROLL_CHUNKS: the chunk loops unrolled where a GPU needs them so (the chunks in registers, the loads in
// flight together); on PoCL (FWB_PTX 0) rolled, the chunks in memory, as the blocked rungs' segments
// (RG_UNROLL_SEGMENTS): the same operations in the same order, the same bytes. Unrolled, the four chunk loops of
// each column kernel were most of what PoCL 3.1 compiled: the tiled program's first batched_columns run took
// 6.4-7.0 CPU s cold on this 2-core machine, 3.1 rolled (rgba8888 5.5 -> 2.9), its PoCL kernels as fast
// (1920x1080: gray8 104-109 ms against 111-115 unrolled, rgba8888 212-232 against 202-223, this machine's noise
// about 20%; docs/data/session29-2026-11-28/pocl). -DIIR_UNROLL_CHUNKS=1 forces it (tst_recursive_gaussian).
#ifndef IIR_UNROLL_CHUNKS
#define IIR_UNROLL_CHUNKS FWB_PTX
#endif
#if IIR_UNROLL_CHUNKS
#define IIR_UNROLL _Pragma("unroll")
#else
#define IIR_UNROLL _Pragma("unroll 1")
#endif
#define FWB_IIR_BATCHED_BODY(LOAD_INPUT)                                                           \
    const int x = get_global_id(0);                                                                \
    if (x >= width)                                                                                \
        return;                                                                                    \
    pixel_t cur[IIR_CHUNK], next[IIR_CHUNK];                                                       \
    IIR_UNROLL for (int c = 0; c < IIR_CHUNK; ++c)                                                 \
        cur[c] = c < height ? LOAD_INPUT(in, c * width + x) : (pixel_t)(0.0f);                     \
    pixel_t w1 = cur[0], w2 = w1, w3 = w1;                                                         \
    for (int y0 = 0; y0 < height; y0 += IIR_CHUNK) {                                               \
        IIR_UNROLL for (int c = 0; c < IIR_CHUNK; ++c) {                                           \
            const int y = y0 + IIR_CHUNK + c;                                                      \
            next[c] = y < height ? LOAD_INPUT(in, y * width + x) : (pixel_t)(0.0f);                \
        }                                                                                          \
        IIR_UNROLL for (int c = 0; c < IIR_CHUNK; ++c) {                                           \
            if (y0 + c < height) {                                                                 \
                const pixel_t w0 = k.s0 * cur[c] + (k.s1 * w1 + k.s2 * w2 + k.s3 * w3);            \
                fwb_storef(out, (y0 + c) * width + x, w0);                                         \
                w3 = w2;                                                                           \
                w2 = w1;                                                                           \
                w1 = w0;                                                                           \
            }                                                                                      \
        }                                                                                          \
        IIR_UNROLL for (int c = 0; c < IIR_CHUNK; ++c) cur[c] = next[c];                           \
    }                                                                                              \
    /* Backward: chunks of rows [top - IIR_CHUNK, top), from the bottom up. */                     \
    IIR_UNROLL for (int c = 0; c < IIR_CHUNK; ++c) {                                               \
        const int y = height - 1 - c;                                                              \
        cur[c] = y >= 0 ? fwb_loadf(out, y * width + x) : (pixel_t)(0.0f);                         \
    }                                                                                              \
    pixel_t y1 = w1, y2 = w1, y3 = w1;                                                             \
    for (int top = height - 1; top >= 0; top -= IIR_CHUNK) {                                       \
        IIR_UNROLL for (int c = 0; c < IIR_CHUNK; ++c) {                                           \
            const int y = top - IIR_CHUNK - c;                                                     \
            next[c] = y >= 0 ? fwb_loadf(out, y * width + x) : (pixel_t)(0.0f);                    \
        }                                                                                          \
        IIR_UNROLL for (int c = 0; c < IIR_CHUNK; ++c) {                                           \
            if (top - c >= 0) {                                                                    \
                const pixel_t y0 = k.s0 * cur[c] + (k.s1 * y1 + k.s2 * y2 + k.s3 * y3);            \
                fwb_storef(out, (top - c) * width + x, y0);                                        \
                y3 = y2;                                                                           \
                y2 = y1;                                                                           \
                y1 = y0;                                                                           \
            }                                                                                      \
        }                                                                                          \
        IIR_UNROLL for (int c = 0; c < IIR_CHUNK; ++c) cur[c] = next[c];                           \
    }

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_iir_columns_batched_u8)
kernel void iir_columns_batched_u8(global const uchar *in, global float *out, int width, int height,
                                   constant float *coeffs, int radius, float4 params)
{
    const float4 k = vload4(0, coeffs);
    FWB_IIR_BATCHED_BODY(fwb_load)
}
#endif

#if !defined(FWB_ONLY_ENTRIES) || defined(FWB_WANT_iir_columns_batched_f32)
kernel void iir_columns_batched_f32(global const float *in, global float *out, int width, int height,
                                    constant float *coeffs, int radius, float4 params)
{
    const float4 k = vload4(0, coeffs);
    FWB_IIR_BATCHED_BODY(fwb_loadf)
}
#endif

// Float -> float transposes (between the two column passes): transpose_<variant>_f32.
#define TRANSPOSE_SUFFIX f32
#define TRANSPOSE_IN_T float
#define TRANSPOSE_OUT_T float
#define TRANSPOSE_ELEM_T pixel_t
#define TRANSPOSE_LOAD(buf, index) fwb_loadf(buf, index)
#define TRANSPOSE_STORE(buf, index, value) fwb_storef(buf, index, value)
#include "transpose.clh"
#undef TRANSPOSE_SUFFIX
#undef TRANSPOSE_IN_T
#undef TRANSPOSE_OUT_T
#undef TRANSPOSE_STORE

// Float -> 8-bit transposes (the last pass, rounding like every kernel): transpose_<variant>_f32_u8.
#define TRANSPOSE_SUFFIX f32_u8
#define TRANSPOSE_IN_T float
#define TRANSPOSE_OUT_T uchar
#define TRANSPOSE_STORE(buf, index, value) fwb_store(buf, index, value)
#include "transpose.clh"
