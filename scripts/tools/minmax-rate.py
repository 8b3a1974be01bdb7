#!/usr/bin/env python3
# minmax-rate: instructions per clock per SM of the min/max forms a byte median can use, on a CUDA GPU (CuPy,
# inline PTX): 32-bit integer, packed 16x2 integer, packed f16x2, 32-bit float, and byte permutes. Each thread
# runs 16 independent chains (no latency bound), 2 instructions per chain per iteration; the time is the median
# of 5 launches (CUDA events). Prints one line per form: ops/clk/SM at the SM clock the driver reports.
import cupy as cp

FORMS = {
    "min/max.u32": ("min.u32", "max.u32"),
    "min/max.u16x2": ("min.u16x2", "max.u16x2"),
    "min/max.f16x2": ("min.f16x2", "max.f16x2"),
    "min/max.f32": ("min.f32", "max.f32"),
    "prmt.b32": ("prmt.b32", "prmt.b32"),
}
SRC = r'''
extern "C" __global__ void k(unsigned *out, unsigned b, unsigned c, int iters) {
    unsigned a[16];
    #pragma unroll
    for (int i = 0; i < 16; ++i) a[i] = (threadIdx.x * 2654435761u) ^ (i * 40503u);
    for (int it = 0; it < iters; ++it) {
        #pragma unroll
        for (int i = 0; i < 16; ++i) {
            asm volatile("OPA %0, %0, %1ARG3;" : "+r"(a[i]) : "r"(b), "r"(c));
            asm volatile("OPB %0, %0, %1ARG3;" : "+r"(a[i]) : "r"(c), "r"(b));
        }
    }
    unsigned s = 0;
    #pragma unroll
    for (int i = 0; i < 16; ++i) s ^= a[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
'''
dev = cp.cuda.Device(0)
clock_khz = cp.cuda.runtime.deviceGetAttribute(cp.cuda.runtime.cudaDevAttrClockRate, 0)
sms = dev.attributes["MultiProcessorCount"]
print("SMs %d, clock %.0f MHz (cudaDevAttrClockRate)" % (sms, clock_khz / 1e3))
blocks, threads, iters = sms * 16, 256, 2048
out = cp.zeros(blocks * threads, dtype=cp.uint32)
for name, (opa, opb) in FORMS.items():
    arg3 = ", %2" if opa.startswith("prmt") else ""
    src = SRC.replace("OPA", opa).replace("OPB", opb).replace("ARG3", arg3)
    if opa.endswith("f32"):
        src = src.replace('"+r"', '"+f"').replace('"r"(b), "r"(c)', '"f"(__uint_as_float(b)), "f"(__uint_as_float(c))') \
                 .replace('"r"(c), "r"(b)', '"f"(__uint_as_float(c)), "f"(__uint_as_float(b))')
        src = src.replace("unsigned a[16]", "float a[16]").replace("s ^= a[i]", "s ^= __float_as_uint(a[i])") \
                 .replace("a[i] = (threadIdx.x * 2654435761u) ^ (i * 40503u)", "a[i] = (float)(threadIdx.x + i)")
    kern = cp.RawKernel(src, "k", options=("-arch=sm_90",))
    args = (out, cp.uint32(0x00400080), cp.uint32(0x00200010 if not opa.startswith("prmt") else 0x3210), cp.int32(iters))
    kern((blocks,), (threads,), args)
    ts = []
    for _ in range(5):
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record(); kern((blocks,), (threads,), args); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e))
    ms = sorted(ts)[2]
    ops = blocks * threads * iters * 32
    per_clk_sm = ops / (ms * 1e-3) / sms / (clock_khz * 1e3)
    print("%-15s %8.3f ms  %6.1f ops/clk/SM" % (name, ms, per_clk_sm))
