// All-pairs N-body (seed 002's particle simulation): one time step per launch. Positions are float4
// (xyz, w = mass), velocities float4 (xyz, w unused); gravity with G = 1 and Plummer softening
// (SOFTENING2 = eps^2, so close pairs stay finite and a body's pull on itself is 0). The step is
// semi-implicit Euler: v += a * DT, then p += v * DT. The host swaps in/out buffers between steps.
// DT and SOFTENING2 arrive as -D defines (core/workloads/NBody.cpp).

// Adds body q's pull on a body at p to acc (the 20 flops the usual count assigns one interaction).
#define INTERACT(acc, p, q, RSQRT)                                                                     \
    {                                                                                                  \
        const float3 d = (q).xyz - (p).xyz;                                                            \
        const float inv = RSQRT(dot(d, d) + SOFTENING2);                                               \
        (acc) += d * ((q).w * inv * inv * inv);                                                        \
    }

inline void integrate(int i, float4 p, float3 acc, __global const float4 *vel, __global float4 *posOut,
                      __global float4 *velOut)
{
    float4 v = vel[i];
    v.xyz += acc * DT;
    p.xyz += v.xyz * DT;
    posOut[i] = p;
    velOut[i] = v;
}

// One work-item per body, reading every other body from global memory (through the caches).
__kernel void nbody_naive(__global const float4 *pos, __global const float4 *vel, __global float4 *posOut,
                          __global float4 *velOut, int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const float4 p = pos[i];
    float3 acc = (float3)(0.0f);
    for (int j = 0; j < n; ++j)
        INTERACT(acc, p, pos[j], rsqrt)
    integrate(i, p, acc, vel, posOut, velOut);
}

#ifdef TILE
// Seed 002's tiles: the work-group loads TILE bodies into local memory together (one each), waits,
// and every work-item reads them from there: one global read per body per group instead of per
// work-item. Past n the tile holds zero-mass bodies, which pull with exactly 0; work-items past n keep
// going so that every barrier is reached by the whole group.
__kernel void nbody_tiled_local(__global const float4 *pos, __global const float4 *vel, __global float4 *posOut,
                                __global float4 *velOut, int n)
{
    const int i = get_global_id(0);
    const int lid = get_local_id(0);
    __local float4 tile[TILE];
    const float4 p = i < n ? pos[i] : (float4)(0.0f);
    float3 acc = (float3)(0.0f);
    for (int base = 0; base < n; base += TILE) {
        const int j = base + lid;
        tile[lid] = j < n ? pos[j] : (float4)(0.0f);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; ++k)
            INTERACT(acc, p, tile[k], rsqrt)
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (i < n)
        integrate(i, p, acc, vel, posOut, velOut);
}

#ifdef PER_ITEM
// Past the seed: each work-item integrates PER_ITEM bodies (TILE apart, so loads stay contiguous), so
// each body read from local memory serves PER_ITEM interactions, and the inner loop is unrolled by
// 8 so the compiler can interleave independent interactions. With -cl-fast-relaxed-math the
// reciprocal square root is the hardware's approximate one (native_rsqrt).
#ifdef __FAST_RELAXED_MATH__
#define FAST_RSQRT native_rsqrt
#else
#define FAST_RSQRT rsqrt
#endif
__kernel void nbody_unrolled(__global const float4 *pos, __global const float4 *vel, __global float4 *posOut,
                             __global float4 *velOut, int n)
{
    const int lid = get_local_id(0);
    const int first = get_group_id(0) * TILE * PER_ITEM + lid;
    __local float4 tile[TILE];
    float4 p[PER_ITEM];
    float3 acc[PER_ITEM];
    for (int b = 0; b < PER_ITEM; ++b) {
        const int i = first + b * TILE;
        p[b] = i < n ? pos[i] : (float4)(0.0f);
        acc[b] = (float3)(0.0f);
    }
    for (int base = 0; base < n; base += TILE) {
        const int j = base + lid;
        tile[lid] = j < n ? pos[j] : (float4)(0.0f);
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll 8
        for (int k = 0; k < TILE; ++k) {
            const float4 q = tile[k];
            for (int b = 0; b < PER_ITEM; ++b)
                INTERACT(acc[b], p[b], q, FAST_RSQRT)
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int b = 0; b < PER_ITEM; ++b) {
        const int i = first + b * TILE;
        if (i < n)
            integrate(i, p[b], acc[b], vel, posOut, velOut);
    }
}
#endif // PER_ITEM
#endif // TILE
