// A CUDA twin of box `stream` gray8 (kernels/box/box.cl + kernels/shared/stream3x3.clh, NVIDIA's form: rows
// unrolled, l/r views one byte permute a word, BOX_SWAR arithmetic), for Nsight Compute only: the OpenCL
// kernel cannot be profiled (issue 27 allows a CUDA twin to learn a kernel's shape, never as a result).
// Interior strips only (the twin's picture is 6720x4480 and its row ends clamp their neighbour loads), replicate
// rows by clamping. Kernels: copy (the rung's launch, 4 rows a thread), loads (the rung's 18 loads, no
// arithmetic), rung (the catalogue's arithmetic), lean (the row pass from the raw words: no views).
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#ifndef BH
#define BH 4
#endif
__device__ __forceinline__ uint32_t prmt(uint32_t a, uint32_t b, uint32_t s)
{
    uint32_t d;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(s));
    return d;
}
struct Raw { uint4 a, b, c; };
__device__ __forceinline__ Raw load_row(const uint8_t *__restrict__ src, int pitch, int height, int y, int x0)
{
    const uint8_t *row = src + (size_t)min(max(y, 0), height - 1) * (size_t)pitch;
    Raw r;
    r.a = *(const uint4 *)(row + max(x0 - 16, 0));
    r.b = *(const uint4 *)(row + x0);
    r.c = *(const uint4 *)(row + min(x0 + 16, pitch - 16));
    return r;
}
#define EV(w) ((w) & 0x00FF00FFu)
#define OD(w) (((w) >> 8) & 0x00FF00FFu)
struct RowT { uint32_t e[4], o[4]; };
// The catalogue's row pass: l and r views (s3_cat_words), then even/odd sums.
__device__ __forceinline__ RowT row_views(const Raw &q)
{
    const uint32_t w[6] = {q.a.w, q.b.x, q.b.y, q.b.z, q.b.w, q.c.x};
    RowT t;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const uint32_t l = prmt(w[k], w[k + 1], 0x6543u), c = w[k + 1], r = prmt(w[k + 1], w[k + 2], 0x4321u);
        const uint32_t m = EV(c) + OD(c);
        t.e[k] = m + EV(l);
        t.o[k] = m + OD(r);
    }
    return t;
}
// The lean row pass: even outputs [b-1+b0+b1, b1+b2+b3] = E + O + [b-1, b1], odd [b0+b1+b2, b2+b3+b4] = E + O + [b2, b4],
// the outer pixels by one byte permute of the neighbouring words' halves.
__device__ __forceinline__ RowT row_lean(const Raw &q)
{
    const uint32_t w[6] = {q.a.w, q.b.x, q.b.y, q.b.z, q.b.w, q.c.x};
    uint32_t E[6], O[6];
#pragma unroll
    for (int k = 0; k < 6; ++k) {
        E[k] = prmt(w[k], 0u, 0x4240u);
        O[k] = prmt(w[k], 0u, 0x4341u);
    }
    RowT t;
#pragma unroll
    for (int k = 1; k < 5; ++k) {
        const uint32_t s = E[k] + O[k];
        t.e[k - 1] = s + prmt(O[k - 1], O[k], 0x5432u);
        t.o[k - 1] = s + prmt(E[k], E[k + 1], 0x5432u);
    }
    return t;
}
__device__ __forceinline__ uint32_t mean_word(uint32_t e, uint32_t o)
{
    const uint32_t le = (e & 0xFFFFu) * 7282u + 29128u, lo = (o & 0xFFFFu) * 7282u + 29128u;
    const uint32_t he = (uint32_t)(((uint64_t)e * 7282u + ((uint64_t)29128u << 16)) >> 32);
    const uint32_t ho = (uint32_t)(((uint64_t)o * 7282u + ((uint64_t)29128u << 16)) >> 32);
    return prmt(prmt(le, lo, 0x0062u), prmt(he, ho, 0x4000u), 0x7610u);
}
template <int MODE> // 0 copy, 1 loads, 2 rung, 3 lean
__global__ void __launch_bounds__(128) k(const uint8_t *__restrict__ src, uint8_t *__restrict__ dst, int width, int height, int pitch)
{
    const int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 16, y0 = (blockIdx.y * blockDim.y + threadIdx.y) * BH;
    if (x0 >= width || y0 >= height)
        return;
    if (MODE == 0) {
        uint4 v[BH];
#pragma unroll
        for (int i = 0; i < BH; ++i)
            v[i] = *(const uint4 *)(src + (size_t)min(y0 + i, height - 1) * pitch + x0);
#pragma unroll
        for (int i = 0; i < BH; ++i)
            if (y0 + i < height)
                *(uint4 *)(dst + (size_t)(y0 + i) * pitch + x0) = v[i];
        return;
    }
    Raw q[BH + 2];
#pragma unroll
    for (int i = 0; i < BH + 2; ++i)
        q[i] = load_row(src, pitch, height, y0 - 1 + i, x0);
    if (MODE == 1) {
#pragma unroll
        for (int i = 0; i < BH; ++i) {
            uint4 v = q[i + 1].b;
            const uint4 m = make_uint4((q[i].a.x ^ q[i + 2].c.x ^ q[i].c.x ^ q[i + 2].a.x) & 0x01010101u, 0u, 0u, 0u);
            v.x ^= m.x;
            if (y0 + i < height)
                *(uint4 *)(dst + (size_t)(y0 + i) * pitch + x0) = v;
        }
        return;
    }
    RowT r[BH + 2];
#pragma unroll
    for (int i = 0; i < BH + 2; ++i)
        r[i] = MODE == 2 ? row_views(q[i]) : row_lean(q[i]);
#pragma unroll
    for (int i = 0; i < BH; ++i) {
        uint32_t o[4];
#pragma unroll
        for (int w = 0; w < 4; ++w)
            o[w] = mean_word(r[i].e[w] + r[i + 1].e[w] + r[i + 2].e[w], r[i].o[w] + r[i + 1].o[w] + r[i + 2].o[w]);
        if (y0 + i < height)
            *(uint4 *)(dst + (size_t)(y0 + i) * pitch + x0) = make_uint4(o[0], o[1], o[2], o[3]);
    }
}

int main(int argc, char **argv)
{
    const int W = 6720, H = 4480, P = W;
    const bool once = argc > 1; // under the profiler: each kernel once
    std::vector<uint8_t> h(size_t(P) * H);
    uint32_t s = 12345;
    for (auto &v : h) { s = s * 1664525u + 1013904223u; v = uint8_t(s >> 24); }
    uint8_t *src, *dst, *big0, *big1;
    cudaMalloc(&src, h.size()); cudaMalloc(&dst, h.size());
    const size_t bigN = 256u << 20;
    cudaMalloc(&big0, bigN); cudaMalloc(&big1, bigN);
    cudaMemcpy(src, h.data(), h.size(), cudaMemcpyHostToDevice);
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    auto timeit = [&](auto launch) {
        std::vector<float> t;
        for (int i = 0; i < (once ? 1 : 25); ++i) {
            cudaEventRecord(e0); launch(); cudaEventRecord(e1); cudaEventSynchronize(e1);
            float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms);
        }
        if (!once) t.erase(t.begin(), t.begin() + 5);
        std::sort(t.begin(), t.end());
        return t[t.size() / 2];
    };
    const float copyMs = timeit([&] { cudaMemcpy(big1, big0, bigN, cudaMemcpyDeviceToDevice); });
    const double copyGBs = 2.0 * bigN / copyMs / 1e6;
    if (!once) printf("256 MiB device copy: %.4f ms, %.0f GB/s\n", copyMs, copyGBs);
    dim3 blk(16, 8), grd((W / 16 + 15) / 16, (H / BH + 7) / 8);
    const char *names[] = {"copy", "loads", "rung", "lean"};
    std::vector<uint8_t> out(h.size());
    for (int m = 0; m < 4; ++m) {
        cudaMemset(dst, 0, h.size());
        const float ms = timeit([&] {
            if (m == 0) k<0><<<grd, blk>>>(src, dst, W, H, P);
            if (m == 1) k<1><<<grd, blk>>>(src, dst, W, H, P);
            if (m == 2) k<2><<<grd, blk>>>(src, dst, W, H, P);
            if (m == 3) k<3><<<grd, blk>>>(src, dst, W, H, P);
        });
        cudaMemcpy(out.data(), dst, out.size(), cudaMemcpyDeviceToHost);
        long bad = -1;
        if (m >= 2) { // the interior against a plain 3x3 rounded mean
            bad = 0;
            for (int y = 1; y < H - 1; y += 7)
                for (int x = 1; x < W - 1; ++x) {
                    int sum = 0;
                    for (int dy = -1; dy <= 1; ++dy) for (int dx = -1; dx <= 1; ++dx) sum += h[size_t(y + dy) * P + x + dx];
                    bad += out[size_t(y) * P + x] != (2 * sum + 9) / 18;
                }
        }
        if (!once)
            printf("BH=%d %-6s %.4f ms  %5.1f%% of copy  mismatches %ld\n", BH, names[m], ms, 100.0 * 2.0 * W * H / ms / 1e6 / copyGBs, bad);
    }
    printf("%s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
