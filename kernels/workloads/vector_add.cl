// Seed 002's first GPU program, c = a + b over n floats: the smallest workload, used to show that
// the Compute Lab runs on the same catalogue, session, profiling and checking as the filters.

// One element per work-item; the global size is rounded up to the work-group, so guard the tail.
__kernel void vector_add_scalar(__global const float *a, __global const float *b, __global float *c, int n)
{
    const int i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}

// Four elements per work-item with 16-byte loads and stores; the last, partial group of four is
// added element by element.
__kernel void vector_add_float4(__global const float *a, __global const float *b, __global float *c, int n)
{
    const int i = get_global_id(0);
    const int first = i * 4;
    if (first + 3 < n) {
        vstore4(vload4(i, a) + vload4(i, b), i, c);
    } else {
        for (int k = first; k < n; ++k)
            c[k] = a[k] + b[k];
    }
}
