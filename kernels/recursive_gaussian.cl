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
#include "common.clh"
#include "pixels8.clh"

// Keep a*b + c as two roundings so the device matches the CPU reference (OpenCL C contracts by default).
#pragma OPENCL FP_CONTRACT OFF

// Young-van Vliet coefficients (B, b1/b0, b2/b0, b3/b0) computed on the device: a sqrt and divisions,
// which -cl-fast-relaxed-math may replace with faster, less exact forms (issue 4 item 9). With fp64
// (cl_khr_fp64: NVIDIA, PoCL) the arithmetic is the host's own, double and correctly rounded, so the
// four floats come out bit-identical to youngVanVliet() in core/filters. In float, the taps differ from
// the host's by an ulp or two, and at large sigma (poles near 1) that shows: max diff 2 at sigma 32 on
// an H100, against the ±1 tolerance.
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double yvv_t;
#else
typedef float yvv_t;
#endif
inline float4 fwb_yvv_coefficients(float sigmaf)
{
    const yvv_t sigma = (yvv_t)sigmaf;
    const yvv_t q = sigma >= (yvv_t)2.5 ? (yvv_t)0.98711 * sigma - (yvv_t)0.96330
                                      : (yvv_t)3.97156 - (yvv_t)4.14554 * sqrt((yvv_t)1.0 - (yvv_t)0.26891 * sigma);
    const yvv_t q2 = q * q, q3 = q2 * q;
    const yvv_t b0 = (yvv_t)1.57825 + (yvv_t)2.44413 * q + (yvv_t)1.4281 * q2 + (yvv_t)0.422205 * q3;
    const yvv_t b1 = (yvv_t)2.44413 * q + (yvv_t)2.85619 * q2 + (yvv_t)1.26661 * q3;
    const yvv_t b2 = -((yvv_t)1.4281 * q2 + (yvv_t)1.26661 * q3);
    const yvv_t b3 = (yvv_t)0.422205 * q3;
    // B from the rounded taps, as the host does: it keeps each pass's gain at DC, B / (1 - a1 - a2 - a3),
    // at 1. B from its own formula would be accurate, but B is ~1e-4 at large sigma, so the taps'
    // rounding would move the gain (measured on an H100: max diff 5 at sigma 32). Both subtractions are
    // exact at large sigma (Sterbenz).
    const float a1 = (float)(b1 / b0), a2 = (float)(b2 / b0), a3 = (float)(b3 / b0);
    return (float4)((1.0f - a3) - (a1 + a2), a1, a2, a3);
}

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
kernel void iir_columns_u8(global const uchar *in, global float *out, int width, int height,
                           constant float *coeffs, int radius, float4 params)
{
    const float4 k = vload4(0, coeffs);
    FWB_IIR_COLUMN_BODY(fwb_load)
}

kernel void iir_columns_f32(global const float *in, global float *out, int width, int height,
                            constant float *coeffs, int radius, float4 params)
{
    const float4 k = vload4(0, coeffs);
    FWB_IIR_COLUMN_BODY(fwb_loadf)
}

// Same, coefficients derived on the device from sigma = params.s0 (every work-item, once).
kernel void iir_columns_u8_device_coeffs(global const uchar *in, global float *out, int width, int height,
                                         constant float *coeffs, int radius, float4 params)
{
    const float4 k = fwb_yvv_coefficients(params.s0);
    FWB_IIR_COLUMN_BODY(fwb_load)
}

kernel void iir_columns_f32_device_coeffs(global const float *in, global float *out, int width, int height,
                                          constant float *coeffs, int radius, float4 params)
{
    const float4 k = fwb_yvv_coefficients(params.s0);
    FWB_IIR_COLUMN_BODY(fwb_loadf)
}

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
#define FWB_IIR_BATCHED_BODY(LOAD_INPUT)                                                           \
    const int x = get_global_id(0);                                                                \
    if (x >= width)                                                                                \
        return;                                                                                    \
    pixel_t cur[IIR_CHUNK], next[IIR_CHUNK];                                                       \
    _Pragma("unroll") for (int c = 0; c < IIR_CHUNK; ++c)                                          \
        cur[c] = c < height ? LOAD_INPUT(in, c * width + x) : (pixel_t)(0.0f);                     \
    pixel_t w1 = cur[0], w2 = w1, w3 = w1;                                                         \
    for (int y0 = 0; y0 < height; y0 += IIR_CHUNK) {                                               \
        _Pragma("unroll") for (int c = 0; c < IIR_CHUNK; ++c) {                                    \
            const int y = y0 + IIR_CHUNK + c;                                                      \
            next[c] = y < height ? LOAD_INPUT(in, y * width + x) : (pixel_t)(0.0f);                \
        }                                                                                          \
        _Pragma("unroll") for (int c = 0; c < IIR_CHUNK; ++c) {                                    \
            if (y0 + c < height) {                                                                 \
                const pixel_t w0 = k.s0 * cur[c] + (k.s1 * w1 + k.s2 * w2 + k.s3 * w3);            \
                fwb_storef(out, (y0 + c) * width + x, w0);                                         \
                w3 = w2;                                                                           \
                w2 = w1;                                                                           \
                w1 = w0;                                                                           \
            }                                                                                      \
        }                                                                                          \
        _Pragma("unroll") for (int c = 0; c < IIR_CHUNK; ++c) cur[c] = next[c];                    \
    }                                                                                              \
    /* Backward: chunks of rows [top - IIR_CHUNK, top), from the bottom up. */                     \
    _Pragma("unroll") for (int c = 0; c < IIR_CHUNK; ++c) {                                        \
        const int y = height - 1 - c;                                                              \
        cur[c] = y >= 0 ? fwb_loadf(out, y * width + x) : (pixel_t)(0.0f);                         \
    }                                                                                              \
    pixel_t y1 = w1, y2 = w1, y3 = w1;                                                             \
    for (int top = height - 1; top >= 0; top -= IIR_CHUNK) {                                       \
        _Pragma("unroll") for (int c = 0; c < IIR_CHUNK; ++c) {                                    \
            const int y = top - IIR_CHUNK - c;                                                     \
            next[c] = y >= 0 ? fwb_loadf(out, y * width + x) : (pixel_t)(0.0f);                    \
        }                                                                                          \
        _Pragma("unroll") for (int c = 0; c < IIR_CHUNK; ++c) {                                    \
            if (top - c >= 0) {                                                                    \
                const pixel_t y0 = k.s0 * cur[c] + (k.s1 * y1 + k.s2 * y2 + k.s3 * y3);            \
                fwb_storef(out, (top - c) * width + x, y0);                                        \
                y3 = y2;                                                                           \
                y2 = y1;                                                                           \
                y1 = y0;                                                                           \
            }                                                                                      \
        }                                                                                          \
        _Pragma("unroll") for (int c = 0; c < IIR_CHUNK; ++c) cur[c] = next[c];                    \
    }

kernel void iir_columns_batched_u8(global const uchar *in, global float *out, int width, int height,
                                   constant float *coeffs, int radius, float4 params)
{
    const float4 k = vload4(0, coeffs);
    FWB_IIR_BATCHED_BODY(fwb_load)
}

kernel void iir_columns_batched_f32(global const float *in, global float *out, int width, int height,
                                    constant float *coeffs, int radius, float4 params)
{
    const float4 k = vload4(0, coeffs);
    FWB_IIR_BATCHED_BODY(fwb_loadf)
}

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
