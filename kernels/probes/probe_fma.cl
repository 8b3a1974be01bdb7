// probe_fma.cl: the FP32 peak probe (core/ComputeProbe.cpp). Each work-item runs 32 independent
// multiply-add chains (eight float4s), so the arithmetic units, not the latency of one chain, set the
// pace; `m` and `add` arrive as arguments so the compiler cannot fold the loop, and the sum is
// written out so it cannot drop it. One iteration is 16 float4 mads = 64 multiply-adds = 128 flops.
__kernel void probe_fma(__global float *out, const int iterations, const float m)
{
    const float id = (float)get_global_id(0) * 1e-6f;
    float4 a = (float4)(id, id + 0.01f, id + 0.02f, id + 0.03f);
    float4 b = a + 0.1f, c = a + 0.2f, d = a + 0.3f, e = a + 0.4f, f = a + 0.5f, g = a + 0.6f, h = a + 0.7f;
    const float4 add = (float4)(m * 1e-3f);
    for (int i = 0; i < iterations; ++i) {
        a = mad(a, m, add); b = mad(b, m, add); c = mad(c, m, add); d = mad(d, m, add);
        e = mad(e, m, add); f = mad(f, m, add); g = mad(g, m, add); h = mad(h, m, add);
        a = mad(a, m, add); b = mad(b, m, add); c = mad(c, m, add); d = mad(d, m, add);
        e = mad(e, m, add); f = mad(f, m, add); g = mad(g, m, add); h = mad(h, m, add);
    }
    const float4 sum = ((a + b) + (c + d)) + ((e + f) + (g + h));
    out[get_global_id(0)] = sum.x + sum.y + sum.z + sum.w;
}
