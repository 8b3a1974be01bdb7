// nbody (seed 002's particle simulation; kernels/workloads/nbody.cl): all-pairs gravity, k time steps per run,
// its initial cloud, the CPU reference (single- and multi-threaded, bit-identical) and the check.
#include "../NBodyLive.h"
#include "../ThreadPool.h"
#include "../families/shared/FastCpu.h"
#include "../Workload.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <thread>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define FWB_NBODY_AVX2 1
#endif

namespace fwb {

namespace {

// Shared with the kernels through -D (the same float values on host and device).
constexpr float kDt = 0.001f;
constexpr float kSoftening2 = 0.0025f; // eps = 0.05 in units of the cloud's radius

struct Body
{
    float p[4]; // x, y, z, mass
    float v[4]; // vx, vy, vz, unused
};

// A uniform ball of radius 1 and total mass 1 (G = 1), turning slowly about z with a little random
// motion: one crossing time is about 1, so a step of 0.001 moves a body about a thousandth of the cloud.
std::vector<Body> initialCloud(std::size_t n)
{
    std::vector<Body> bodies(n);
    std::uint32_t state = 10000u + std::uint32_t(n);
    auto uniform = [&state] { // [-1, 1)
        state = state * 1664525u + 1013904223u;
        return float(state >> 8) * (2.0f / 16777216.0f) - 1.0f;
    };
    for (Body &b : bodies) {
        float x, y, z;
        do {
            x = uniform();
            y = uniform();
            z = uniform();
        } while (x * x + y * y + z * z > 1.0f);
        b.p[0] = x;
        b.p[1] = y;
        b.p[2] = z;
        b.p[3] = 1.0f / float(n);
        b.v[0] = -0.5f * y + 0.1f * uniform();
        b.v[1] = 0.5f * x + 0.1f * uniform();
        b.v[2] = 0.1f * uniform();
        b.v[3] = 0.0f;
    }
    return bodies;
}

// One step for bodies [first, last): the same formula and order as the kernels (j ascending), in float,
// so any split over threads gives bit-identical results. Eight bodies at a time, one per vector lane:
// each lane still sums its own body's pulls in j order with the same IEEE operations (sqrt and divide
// are correctly rounded in vector form too, and no multiply-add is fused), so the result is the
// one-body-at-a-time loop's to the bit, but the compiler can keep eight bodies in one register - the
// CPU side of the N-body demo is then the processor's vector code, not a scalar loop (this file is
// built with -fno-math-errno: std::sqrt of a positive sum sets no errno, and with errno kept the
// compiler could not vectorise it).
constexpr std::size_t kLanes = 8;

// Bodies i0 .. last-1 (at most kLanes of them); a group past `last` repeats body last-1 in its spare
// lanes, whose sums are dropped.
FWB_VECTOR_CLONES
void stepLanes(const Body *__restrict in, std::size_t n, std::size_t i0, std::size_t last,
               float *__restrict acc /* 3 x kLanes */)
{
    float px[kLanes], py[kLanes], pz[kLanes], ax[kLanes] = {}, ay[kLanes] = {}, az[kLanes] = {};
    for (std::size_t l = 0; l < kLanes; ++l) {
        const Body &b = in[std::min(i0 + l, last - 1)];
        px[l] = b.p[0];
        py[l] = b.p[1];
        pz[l] = b.p[2];
    }
    for (std::size_t j = 0; j < n; ++j) {
        const float jx = in[j].p[0], jy = in[j].p[1], jz = in[j].p[2], jm = in[j].p[3];
        for (std::size_t l = 0; l < kLanes; ++l) {
            const float dx = jx - px[l], dy = jy - py[l], dz = jz - pz[l];
            const float inv = 1.0f / std::sqrt(dx * dx + dy * dy + dz * dz + kSoftening2);
            const float s = jm * inv * inv * inv;
            ax[l] += dx * s;
            ay[l] += dy * s;
            az[l] += dz * s;
        }
    }
    for (std::size_t l = 0; l < kLanes; ++l) {
        acc[l] = ax[l];
        acc[kLanes + l] = ay[l];
        acc[2 * kLanes + l] = az[l];
    }
}

#ifdef FWB_NBODY_AVX2
// stepLanes written out in AVX2 intrinsics, eight bodies in one register: the compiler's own
// vectorisation of the lane loop above interleaved x, y and z across three registers and took three
// square roots and three divides per pull of eight (and kept the sums on the stack), a third of the
// speed. The same IEEE operations in the same order (no multiply-add is fused), so bit-identical.
__attribute__((target("avx2"))) void stepLanesAvx2(const Body *__restrict in, std::size_t n, std::size_t i0,
                                                  std::size_t last, float *__restrict acc /* 3 x kLanes */)
{
    static_assert(kLanes == 8, "one AVX register of bodies");
    alignas(32) float px[kLanes], py[kLanes], pz[kLanes];
    for (std::size_t l = 0; l < kLanes; ++l) {
        const Body &b = in[std::min(i0 + l, last - 1)];
        px[l] = b.p[0];
        py[l] = b.p[1];
        pz[l] = b.p[2];
    }
    const __m256 x = _mm256_load_ps(px), y = _mm256_load_ps(py), z = _mm256_load_ps(pz);
    const __m256 eps2 = _mm256_set1_ps(kSoftening2), one = _mm256_set1_ps(1.0f);
    __m256 ax = _mm256_setzero_ps(), ay = _mm256_setzero_ps(), az = _mm256_setzero_ps();
    for (std::size_t j = 0; j < n; ++j) {
        const __m256 dx = _mm256_sub_ps(_mm256_set1_ps(in[j].p[0]), x);
        const __m256 dy = _mm256_sub_ps(_mm256_set1_ps(in[j].p[1]), y);
        const __m256 dz = _mm256_sub_ps(_mm256_set1_ps(in[j].p[2]), z);
        const __m256 r2 = _mm256_add_ps(
            _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)), _mm256_mul_ps(dz, dz)), eps2);
        const __m256 inv = _mm256_div_ps(one, _mm256_sqrt_ps(r2));
        const __m256 s = _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(in[j].p[3]), inv), inv), inv);
        ax = _mm256_add_ps(ax, _mm256_mul_ps(dx, s));
        ay = _mm256_add_ps(ay, _mm256_mul_ps(dy, s));
        az = _mm256_add_ps(az, _mm256_mul_ps(dz, s));
    }
    _mm256_storeu_ps(acc, ax);
    _mm256_storeu_ps(acc + kLanes, ay);
    _mm256_storeu_ps(acc + 2 * kLanes, az);
}
#endif

void stepRange(const std::vector<Body> &in, std::vector<Body> &out, std::size_t first, std::size_t last)
{
    const std::size_t n = in.size();
    auto finish = [&](std::size_t i, float ax, float ay, float az) {
        Body &b = out[i];
        const float px = in[i].p[0], py = in[i].p[1], pz = in[i].p[2];
        b.v[0] = in[i].v[0] + ax * kDt;
        b.v[1] = in[i].v[1] + ay * kDt;
        b.v[2] = in[i].v[2] + az * kDt;
        b.v[3] = in[i].v[3];
        b.p[0] = px + b.v[0] * kDt;
        b.p[1] = py + b.v[1] * kDt;
        b.p[2] = pz + b.v[2] * kDt;
        b.p[3] = in[i].p[3];
    };
#ifdef FWB_NBODY_AVX2
    static const bool avx2 = __builtin_cpu_supports("avx2");
#endif
    for (std::size_t i = first; i < last; i += kLanes) {
        float acc[3 * kLanes];
#ifdef FWB_NBODY_AVX2
        if (avx2)
            stepLanesAvx2(in.data(), n, i, last, acc);
        else
#endif
            stepLanes(in.data(), n, i, last, acc);
        for (std::size_t l = 0; l < kLanes && i + l < last; ++l)
            finish(i + l, acc[l], acc[kLanes + l], acc[2 * kLanes + l]);
    }
}

template <typename Fn>
void parallelRanges(std::size_t n, int threads, Fn fn)
{
    threads = std::max(1, std::min<int>(threads, int(std::max<std::size_t>(1, n / 16))));
    if (threads == 1) {
        fn(std::size_t(0), n);
        return;
    }
    // One range per thread on the shared pool (the energy's per-body sums make later bodies cheaper, but
    // a split never changes a result: each body's sum is its own).
    hostThreadPool().parallelFor(
        threads, [&](int t) { fn(n * std::size_t(t) / std::size_t(threads), n * std::size_t(t + 1) / std::size_t(threads)); },
        threads);
}

void simulate(std::vector<Body> &bodies, int steps, int threads)
{
    std::vector<Body> next(bodies.size());
    for (int s = 0; s < steps; ++s) {
        parallelRanges(bodies.size(), threads, [&](std::size_t a, std::size_t b) { stepRange(bodies, next, a, b); });
        bodies.swap(next);
    }
}

// Kinetic plus softened potential energy (the potential whose gradient the kernels use), in double.
double energy(const std::vector<Body> &bodies, int threads)
{
    const std::size_t n = bodies.size();
    std::vector<double> partial(std::size_t(std::max(1, threads)), 0.0);
    std::vector<double> perBody(n, 0.0);
    parallelRanges(n, threads, [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i < last; ++i) {
            const Body &b = bodies[i];
            double e = 0.5 * b.p[3] * (double(b.v[0]) * b.v[0] + double(b.v[1]) * b.v[1] + double(b.v[2]) * b.v[2]);
            for (std::size_t j = i + 1; j < n; ++j) {
                const double dx = double(bodies[j].p[0]) - b.p[0], dy = double(bodies[j].p[1]) - b.p[1],
                             dz = double(bodies[j].p[2]) - b.p[2];
                e -= double(b.p[3]) * bodies[j].p[3] / std::sqrt(dx * dx + dy * dy + dz * dz + kSoftening2);
            }
            perBody[i] = e;
        }
    });
    double total = 0;
    for (double e : perBody)
        total += e;
    return total;
}

std::vector<std::uint8_t> bodyBytes(const std::vector<Body> &bodies, bool positions)
{
    std::vector<std::uint8_t> bytes(bodies.size() * 4 * sizeof(float));
    for (std::size_t i = 0; i < bodies.size(); ++i)
        std::memcpy(bytes.data() + i * 16, positions ? bodies[i].p : bodies[i].v, 16);
    return bytes;
}

std::vector<Body> bodiesFrom(const std::vector<std::uint8_t> &pos, const std::vector<std::uint8_t> &vel)
{
    std::vector<Body> bodies(pos.size() / 16);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        std::memcpy(bodies[i].p, pos.data() + i * 16, 16);
        std::memcpy(bodies[i].v, vel.data() + i * 16, 16);
    }
    return bodies;
}

int defineValue(const VariantSpec &variant, const std::string &key, int fallback)
{
    for (const std::string &d : variant.defines)
        if (d.rfind(key + "=", 0) == 0)
            return std::stoi(d.substr(key.size() + 1));
    return fallback;
}

int hostThreads()
{
    return int(std::max(1u, std::thread::hardware_concurrency()));
}

double msSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

WorkloadProblem setupNBody(const VariantSpec &variant, const std::map<std::string, double> &params)
{
    const std::size_t n = std::size_t(params.at("bodies"));
    const int steps = int(params.at("steps"));
    const std::vector<Body> bodies = initialCloud(n);
    WorkloadProblem problem;
    const std::vector<std::uint8_t> scratch(n * 16);
    problem.buffers = {{"pos", bodyBytes(bodies, true), true, true},
                       {"vel", bodyBytes(bodies, false), true, true},
                       {"pos_next", scratch, false, false},
                       {"vel_next", scratch, false, false}};
    problem.intArgs = {std::int32_t(n)};
    char dt[32], eps[32];
    std::snprintf(dt, sizeof dt, "DT=%.9gf", double(kDt));
    std::snprintf(eps, sizeof eps, "SOFTENING2=%.9gf", double(kSoftening2));
    problem.defines = {dt, eps};
    WorkloadPass pass;
    pass.dims = 1;
    const int tile = defineValue(variant, "TILE", 0);
    const int perItem = defineValue(variant, "PER_ITEM", 1);
    const int slices = defineValue(variant, "SLICES", 0);
    if (slices > 0) { // split_sum: a group of BODIES x SLICES work-items per BODIES x PER_ITEM bodies
        const int groupBodies = defineValue(variant, "BODIES", 64);
        const std::size_t bodiesPerGroup = std::size_t(groupBodies) * std::size_t(perItem);
        pass.global[0] = (n + bodiesPerGroup - 1) / bodiesPerGroup * std::size_t(groupBodies * slices);
        pass.local = LocalSize{groupBodies * slices, 1};
    } else if (tile > 0) {
        const std::size_t bodiesPerGroup = std::size_t(tile) * std::size_t(perItem);
        pass.global[0] = (n + bodiesPerGroup - 1) / bodiesPerGroup * std::size_t(tile);
        pass.local = LocalSize{tile, 1};
    } else {
        pass.global[0] = n;
    }
    problem.passes = {pass};
    problem.steps = steps;
    problem.pingPong = {{0, 2}, {1, 3}};
    problem.work = double(n) * double(n) * double(steps);
    return problem;
}

// Bound on the largest position difference after k steps, in units of the cloud's radius. Host and
// device compute the same float formula; only rounding differs (FMA contraction, rsqrt's 2 ulp, or
// rsqrt's hardware approximation under fast math, about 2^-22 relative on NVIDIA). A step moves
// a body about 1e-3 and its velocity changes by about 1e-3, so rounding moves it by ~1e-10 per step
// plus the ulp of its coordinate (6e-8): PoCL lands within 3e-8 after 4 steps. 1e-6 per step leaves
// room for other devices while a body displaced by one wrong interaction (dt^2 * m / eps^2 per step,
// 4e-4 / n) or by a wrong update (v * dt = 1e-3) is caught at the sizes tested.
double positionTolerance(int steps)
{
    return 1e-6 * (1.0 + double(steps));
}

WorkloadCheck checkNBody(const WorkloadProblem &problem, const std::vector<WorkloadBuffer> &results,
                         const std::map<std::string, double> &params)
{
    const std::size_t n = std::size_t(params.at("bodies"));
    const int steps = int(params.at("steps"));
    const int threads = hostThreads();
    const std::vector<Body> initial = initialCloud(n);
    WorkloadCheck check;

    // The single-threaded reference times one step (its result is bit-identical to the threaded one).
    std::vector<Body> single = initial;
    auto start = std::chrono::steady_clock::now();
    simulate(single, 1, 1);
    check.cpuSingleMs = msSince(start) * steps;
    std::vector<Body> host = initial;
    start = std::chrono::steady_clock::now();
    simulate(host, steps, threads);
    check.cpuMultiMs = msSince(start);
    check.cpuThreads = threads;

    const std::vector<Body> device = bodiesFrom(results.at(0).data, results.at(1).data);
    double maxVelocityError = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c) {
            const double dp = std::fabs(double(device[i].p[c]) - host[i].p[c]);
            const double dv = std::fabs(double(device[i].v[c]) - host[i].v[c]);
            check.maxError = std::max(check.maxError, std::isfinite(dp) ? dp : INFINITY);
            maxVelocityError = std::max(maxVelocityError, std::isfinite(dv) ? dv : INFINITY);
        }
    check.tolerance = positionTolerance(steps);
    check.matches = check.maxError <= check.tolerance;

    const double e0 = energy(initial, threads);
    const double eDevice = energy(device, threads);
    const double eHost = energy(host, threads);
    char text[320];
    std::snprintf(text, sizeof text,
                  "positions after %d step%s vs the host reference: worst difference %.3g of the cloud radius "
                  "(bound %.3g), velocities %.3g; energy drift device %+.3g, host %+.3g (relative to |E0| = %.4g)",
                  steps, steps == 1 ? "" : "s", check.maxError, check.tolerance, maxVelocityError,
                  (eDevice - e0) / std::fabs(e0), (eHost - e0) / std::fabs(e0), std::fabs(e0));
    check.detail = text;
    return check;
}

} // namespace

void nbodyInitialState(std::size_t n, std::vector<float> &pos, std::vector<float> &vel)
{
    const std::vector<Body> bodies = initialCloud(n);
    pos.resize(n * 4);
    vel.resize(n * 4);
    for (std::size_t i = 0; i < n; ++i) {
        std::memcpy(&pos[i * 4], bodies[i].p, 16);
        std::memcpy(&vel[i * 4], bodies[i].v, 16);
    }
}

void nbodyStepsOnCpu(std::vector<float> &pos, std::vector<float> &vel, int steps, int threads)
{
    std::vector<Body> bodies(pos.size() / 4);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        std::memcpy(bodies[i].p, &pos[i * 4], 16);
        std::memcpy(bodies[i].v, &vel[i * 4], 16);
    }
    simulate(bodies, steps, threads > 0 ? threads : hostThreads());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        std::memcpy(&pos[i * 4], bodies[i].p, 16);
        std::memcpy(&vel[i * 4], bodies[i].v, 16);
    }
}

void registerNBody(std::vector<WorkloadSpec> &out)
{
    WorkloadSpec w;
    w.name = "nbody";
    w.title = "N-body simulation";
    w.description = "Every body pulls on every other (all pairs, n^2 interactions per step) under gravity "
                    "with softening; positions and velocities are float4. An interaction is counted as 20 "
                    "floating-point operations, the usual convention, so GFLOPS = 20 x Ginteractions/s. "
                    "Seed 002: 10,000 bodies ran 2.5 steps/s on a CPU and 160 steps/s on a GPU (64x).";
    w.params = {{"bodies", "Bodies", "How many particles the cloud holds.", 10000, 1, 1 << 21, 1, true},
                {"steps", "Steps per run", "Time steps one run advances (each a launch; buffers ping-pong).", 10,
                 1, 10000, 1, true}};
    w.metricName = "Ginteractions/s";
    w.metricScale = 1e9;
    w.toleranceNote = "positions after k steps within 1e-6 * (k + 1) of the cloud's radius of the host "
                      "reference (same float formula; rounding, FMA and rsqrt's ulps are all that differ)";
    w.setup = setupNBody;
    w.check = checkNBody;

    VariantSpec v;
    v.kernelFile = "nbody.cl";
    v.name = "naive";
    v.title = "One body per work-item";
    v.passes = {{"nbody_naive"}};
    v.description = "Each work-item sums the pull of all n bodies on its own body, reading them from global "
                    "memory; neighbours read the same body at the same time, so the caches serve most reads.";
    v.seedNote = "Seed 002's GPU version: 160 steps/s at 10,000 bodies (1.6e10 interactions/s, 320 GFLOPS).";
    w.variants.push_back(v);

    v.name = "tiled_local";
    v.title = "Bodies staged in local memory";
    v.passes = {{"nbody_tiled_local"}};
    v.defines = {"TILE=256"};
    v.description = "The work-group loads 256 bodies into local memory together (one each), waits at a "
                    "barrier, and every work-item reads them from there: one global read per body per group "
                    "instead of per work-item.";
    v.fastMathMatters = true;
    v.seedNote = "Seed 002's 'tiles': the shared-memory version of its N-body sample. H100: 1.45e12 "
                 "interactions/s at 100,000 bodies (28.9 TFLOPS at 20 flops each, 45% of FP32 peak), 1.76e12 "
                 "(35.2 TFLOPS, 55%) with fast math, whose rsqrt is the hardware's approximation; 3,390 "
                 "steps/s at 10,000 bodies.";
    w.variants.push_back(v);

    v.name = "unrolled";
    v.title = "Several bodies per work-item, unrolled";
    v.passes = {{"nbody_unrolled"}};
    v.defines = {"TILE=128", "PER_ITEM=4"};
    v.fastMathMatters = true;
    v.description = "As tiled_local with 128-body tiles, and each work-item integrates 4 bodies, so each body "
                    "read from local memory serves 4 interactions; the inner loop is unrolled 8 times so "
                    "independent interactions interleave. With fast math the reciprocal square root is the "
                    "hardware's approximation: the check's worst difference shows its cost.";
    v.seedNote = "Past the seed (GPU Gems 3, ch. 31: several bodies per thread, unrolled loop). H100: 1.11e12 "
                 "interactions/s at 100,000 bodies, below tiled_local's 1.45e12: 4 bodies per work-item leave "
                 "too few work-groups (196 for 132 SMs) to hide latency.";
    w.variants.push_back(v);

    v.name = "split_sum";
    v.title = "Several work-items per body";
    v.passes = {{"nbody_split"}};
    v.defines = {"BODIES=64", "SLICES=8", "TILE=64", "PER_ITEM=2"};
    v.fastMathMatters = true;
    v.description = "For when the bodies are too few work-groups to fill the GPU: a group of 512 work-items "
                    "owns 128 bodies, the bodies are cut into 8 equal slices, and each work-item sums one "
                    "slice's pull on 2 bodies (so each body read from local memory serves 2 interactions, "
                    "and 100,000 bodies are 400,000 work-items instead of tiled_local's 100,000). Each slice "
                    "stages 64 bodies at a time in local memory, read by a whole warp at once (a broadcast); "
                    "at the end the 8 partial sums of each body meet in local memory and one work-item "
                    "integrates it. Its speed rests on fast math: the reciprocal square root becomes the "
                    "hardware's approximation.";
    v.seedNote = "Past the seed: GPU Gems 3, ch. 31.4.3 (multiple threads per body). H100, 100,000 bodies, "
                 "fast math, in a standalone harness: 8 slices of 64 bodies (512 work-items) 1.93e12 "
                 "interactions/s (38.7 TFLOPS at 20 flops each, 61% of the FP32 peak); every 256-item shape "
                 "tried (4 slices, 32 bodies x 8 slices, 1 or 2 bodies per work-item, 128-body tiles) "
                 "1.69e12-1.84e12; tiled_local 1.74e12.";
    w.variants.push_back(v);

    out.push_back(std::move(w));
}

} // namespace fwb
