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

// Every rung calls rsqrt: under -cl-fast-relaxed-math the compiler makes it the hardware's approximate
// reciprocal square root by itself. native_rsqrt was slower than that on an H100 (unrolled 256x1 at
// 100,000 bodies: 1.51e12 against 1.75e12 interactions/s; split_sum 1.62e12 against 1.94e12), not faster.

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
// 8 so the compiler can interleave independent interactions.
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
                INTERACT(acc[b], p[b], q, rsqrt)
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

#if defined(BODIES) && defined(SLICES) && defined(TILE)
#ifndef PER_ITEM
#define PER_ITEM 1
#endif
#define GROUP_BODIES (BODIES * PER_ITEM)
#define GROUP_ITEMS (BODIES * SLICES)
// Past the seed: several work-items per body (GPU Gems 3, ch. 31.4.3), for when n bodies are too few
// work-groups to fill the GPU. A group of BODIES x SLICES work-items (local id = slice * BODIES + b)
// owns GROUP_BODIES = BODIES * PER_ITEM bodies, the j range is cut into SLICES equal runs of whole
// tiles, and work-item (slice, b) sums the pull of its slice on bodies b, b + BODIES, .. (PER_ITEM of
// them, so each body read serves PER_ITEM interactions). Per step each slice's BODIES work-items stage
// TILE bodies of their slice in local memory (zero-mass bodies past n pull with exactly 0); with
// BODIES a multiple of 32 a warp holds one slice, so all its lanes read the same tile word (a
// broadcast). Local memory rather than uniform global reads through the cache: a broadcast from local
// memory has the shorter latency and leaves the L1 to the staging loads, and the barriers cost little
// once a tile serves TILE * PER_ITEM interactions per work-item. The interaction is INTERACT's: with the
// squared distance as three chained multiply-adds from the softening term (one instruction fewer),
// tiled_local ran 12% slower on an H100 (1.55e12 against 1.76e12 interactions/s at 100,000 bodies, fast
// math): the chain is longer. Finally the slices' partial sums meet in local memory and the group's
// work-items integrate its bodies, one each in turn.
__kernel __attribute__((reqd_work_group_size(GROUP_ITEMS, 1, 1))) void
nbody_split(__global const float4 *pos, __global const float4 *vel, __global float4 *posOut, __global float4 *velOut,
            int n)
{
    const int lid = get_local_id(0);
    const int b = lid % BODIES;
    const int slice = lid / BODIES;
    const int first = get_group_id(0) * GROUP_BODIES; // the group's first body
    __local float4 tile[SLICES][TILE];
    __local float4 partial[SLICES][GROUP_BODIES];
    float4 p[PER_ITEM];
    float3 acc[PER_ITEM];
#pragma unroll
    for (int q = 0; q < PER_ITEM; ++q) {
        const int i = first + b + q * BODIES;
        p[q] = i < n ? pos[i] : (float4)(0.0f);
        acc[q] = (float3)(0.0f);
    }
    // Bodies per slice: n / SLICES rounded up to whole tiles, so every slice takes the same number of
    // steps and every work-item reaches every barrier.
    const int span = (n + SLICES * TILE - 1) / (SLICES * TILE) * TILE;
    for (int base = slice * span; base < (slice + 1) * span; base += TILE) {
        for (int k = b; k < TILE; k += BODIES) {
            const int j = base + k;
            tile[slice][k] = j < n ? pos[j] : (float4)(0.0f);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll 8
        for (int k = 0; k < TILE; ++k) {
            const float4 body = tile[slice][k];
#pragma unroll
            for (int q = 0; q < PER_ITEM; ++q)
                INTERACT(acc[q], p[q], body, rsqrt)
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#pragma unroll
    for (int q = 0; q < PER_ITEM; ++q)
        partial[slice][b + q * BODIES] = (float4)(acc[q], 0.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = lid; r < GROUP_BODIES; r += GROUP_ITEMS) {
        const int i = first + r;
        if (i >= n)
            break;
        float3 sum = partial[0][r].xyz;
        for (int s = 1; s < SLICES; ++s)
            sum += partial[s][r].xyz;
        integrate(i, pos[i], sum, vel, posOut, velOut);
    }
}
#endif // BODIES, SLICES, TILE
