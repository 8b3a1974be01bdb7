// cl-tune: times one Compute Lab kernel (kernels/workloads/matmul.cl or nbody.cl) built with any -D
// options and work-group shape, so that a tile or slice sweep runs in one process on a GPU machine
// without a catalogue entry per shape. The catalogue's rungs are then timed by filter-bench itself
// (matmul, nbody); this tool only says which defines to give them. Plain OpenCL C API, no project code.
//
//   g++ -O2 -std=c++17 scripts/tools/cl-tune.cpp -lOpenCL -o cl-tune
//   cl-tune matmul FILE KERNEL "DEFINES" N GX GY LX LY [REPEATS]   (GX, GY: global size; A, B, C are N x N, ld = N)
//   cl-tune nbody  FILE KERNEL "DEFINES" BODIES GX LX [REPEATS]
//
// Prints one line: kernel, defines, shape, median ms, GFLOPS (matmul: 2N^3; nbody: 20 flops per
// interaction, BODIES^2 interactions) and the check (CL_TUNE_BINARY=FILE also writes the program binary): matmul compares 256 entries of C against double
// sums; nbody compares 64 bodies' new positions against a double-precision step.
#include <CL/cl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

static void die(const char *what, cl_int err)
{
    std::fprintf(stderr, "cl-tune: %s failed (%d)\n", what, err);
    std::exit(2);
}
#define CK(x)                                                                                                      \
    do {                                                                                                           \
        cl_int e_ = (x);                                                                                           \
        if (e_ != CL_SUCCESS)                                                                                      \
            die(#x, e_);                                                                                           \
    } while (0)

struct Ctx
{
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
};

static Ctx open(void)
{
    cl_uint np = 0;
    CK(clGetPlatformIDs(0, nullptr, &np));
    std::vector<cl_platform_id> ps(np);
    CK(clGetPlatformIDs(np, ps.data(), nullptr));
    const char *want = std::getenv("CL_TUNE_PLATFORM"); // substring of the platform name, default: first GPU
    for (cl_platform_id p : ps) {
        char name[256] = {};
        clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
        if (want && !std::strstr(name, want))
            continue;
        cl_device_id d;
        if (clGetDeviceIDs(p, want ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &d, nullptr) != CL_SUCCESS)
            continue;
        cl_int err;
        Ctx c{d, clCreateContext(nullptr, 1, &d, nullptr, nullptr, &err), nullptr};
        if (err)
            die("clCreateContext", err);
        c.q = clCreateCommandQueue(c.ctx, d, CL_QUEUE_PROFILING_ENABLE, &err);
        if (err)
            die("clCreateCommandQueue", err);
        return c;
    }
    std::fprintf(stderr, "cl-tune: no device\n");
    std::exit(2);
}

static cl_kernel build(const Ctx &c, const std::string &file, const std::string &kernel, const std::string &defines)
{
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string src = ss.str();
    const char *text = src.c_str();
    cl_int err;
    cl_program p = clCreateProgramWithSource(c.ctx, 1, &text, nullptr, &err);
    if (err)
        die("clCreateProgramWithSource", err);
    if (clBuildProgram(p, 1, &c.dev, defines.c_str(), nullptr, nullptr) != CL_SUCCESS) {
        size_t n = 0;
        clGetProgramBuildInfo(p, c.dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
        std::string log(n, '\0');
        clGetProgramBuildInfo(p, c.dev, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
        std::fprintf(stderr, "build failed (%s):\n%s\n", defines.c_str(), log.c_str());
        std::exit(1);
    }
    if (const char *path = std::getenv("CL_TUNE_BINARY")) { // the program binary (PTX on NVIDIA), for ptxas -v
        size_t size = 0;
        clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr);
        std::vector<unsigned char> bin(size);
        unsigned char *ptr = bin.data();
        clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr);
        std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char *>(bin.data()), std::streamsize(size));
    }
    cl_kernel k = clCreateKernel(p, kernel.c_str(), &err);
    if (err)
        die("clCreateKernel", err);
    return k;
}

static cl_mem buffer(const Ctx &c, size_t bytes, const void *data)
{
    cl_int err;
    cl_mem m = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                              const_cast<void *>(data), &err);
    if (err)
        die("clCreateBuffer", err);
    return m;
}

// Median of `repeats` launches after one warm-up, in ms (profiling events).
static double timeLaunches(const Ctx &c, cl_kernel k, cl_uint dims, const size_t *g, const size_t *l, int repeats)
{
    std::vector<double> ms;
    for (int r = -1; r < repeats; ++r) {
        cl_event ev;
        CK(clEnqueueNDRangeKernel(c.q, k, dims, nullptr, g, l, 0, nullptr, &ev));
        CK(clWaitForEvents(1, &ev));
        cl_ulong t0, t1;
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, nullptr);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, nullptr);
        clReleaseEvent(ev);
        if (r >= 0)
            ms.push_back((t1 - t0) * 1e-6);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

static int matmul(int argc, char **argv)
{
    const std::string file = argv[2], kernel = argv[3], defines = argv[4];
    const int n = std::atoi(argv[5]);
    const size_t g[2] = {size_t(std::atol(argv[6])), size_t(std::atol(argv[7]))};
    const size_t l[2] = {size_t(std::atol(argv[8])), size_t(std::atol(argv[9]))};
    const int repeats = argc > 10 ? std::atoi(argv[10]) : 5;
    Ctx c = open();
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> a(size_t(n) * n), b(size_t(n) * n), out(size_t(n) * n);
    for (float &v : a)
        v = u(rng);
    for (float &v : b)
        v = u(rng);
    cl_mem da = buffer(c, a.size() * 4, a.data()), db = buffer(c, b.size() * 4, b.data()),
           dc = buffer(c, out.size() * 4, nullptr);
    cl_kernel k = build(c, file, kernel, defines);
    CK(clSetKernelArg(k, 0, sizeof da, &da));
    CK(clSetKernelArg(k, 1, sizeof db, &db));
    CK(clSetKernelArg(k, 2, sizeof dc, &dc));
    CK(clSetKernelArg(k, 3, sizeof n, &n));
    CK(clSetKernelArg(k, 4, sizeof n, &n));
    const double ms = timeLaunches(c, k, 2, g, l, repeats);
    CK(clEnqueueReadBuffer(c.q, dc, CL_TRUE, 0, out.size() * 4, out.data(), 0, nullptr, nullptr));
    double worst = 0;
    for (int s = 0; s < 256; ++s) {
        const int i = int(rng() % n), j = int(rng() % n);
        double sum = 0;
        for (int kk = 0; kk < n; ++kk)
            sum += double(a[size_t(i) * n + kk]) * double(b[size_t(kk) * n + j]);
        worst = std::max(worst, std::fabs(sum - out[size_t(i) * n + j]) / std::sqrt(double(n)));
    }
    const bool ok = worst < 1e-4;
    std::printf("%s\t%s\tg=%zux%zu l=%zux%zu\tn=%d\t%.4f ms\t%.1f GFLOPS\t%s (worst %.2e)\n", kernel.c_str(),
                defines.c_str(), g[0], g[1], l[0], l[1], n, ms, 2.0 * n * double(n) * n / (ms * 1e6),
                ok ? "ok" : "WRONG", worst);
    return ok ? 0 : 1;
}

static int nbody(int argc, char **argv)
{
    const std::string file = argv[2], kernel = argv[3], defines = argv[4];
    const int n = std::atoi(argv[5]);
    const size_t g = size_t(std::atol(argv[6])), l = size_t(std::atol(argv[7]));
    const int repeats = argc > 8 ? std::atoi(argv[8]) : 5;
    Ctx c = open();
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> pos(size_t(n) * 4), vel(size_t(n) * 4, 0.0f), outPos(size_t(n) * 4);
    for (int i = 0; i < n; ++i) {
        pos[4 * i] = u(rng), pos[4 * i + 1] = u(rng), pos[4 * i + 2] = u(rng);
        pos[4 * i + 3] = 1.0f / n;
    }
    cl_mem dp = buffer(c, pos.size() * 4, pos.data()), dv = buffer(c, vel.size() * 4, vel.data()),
           dp2 = buffer(c, pos.size() * 4, nullptr), dv2 = buffer(c, vel.size() * 4, nullptr);
    cl_kernel k = build(c, file, kernel, defines);
    CK(clSetKernelArg(k, 0, sizeof dp, &dp));
    CK(clSetKernelArg(k, 1, sizeof dv, &dv));
    CK(clSetKernelArg(k, 2, sizeof dp2, &dp2));
    CK(clSetKernelArg(k, 3, sizeof dv2, &dv2));
    CK(clSetKernelArg(k, 4, sizeof n, &n));
    size_t maxItems = 0;
    clGetKernelWorkGroupInfo(k, c.dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof maxItems, &maxItems, nullptr);
    std::fprintf(stderr, "CL_KERNEL_WORK_GROUP_SIZE %zu\n", maxItems);
    const double ms = timeLaunches(c, k, 1, &g, &l, repeats);
    CK(clEnqueueReadBuffer(c.q, dp2, CL_TRUE, 0, outPos.size() * 4, outPos.data(), 0, nullptr, nullptr));
    // The defines carry DT and SOFTENING2 (as the catalogue's -D options do); the check reads them back.
    const auto defineOf = [&](const char *name, double fallback) {
        const std::string key = std::string("-D") + name + "=";
        const size_t at = defines.find(key);
        return at == std::string::npos ? fallback : std::atof(defines.c_str() + at + key.size());
    };
    const double dt = defineOf("DT", 0.01), soft = defineOf("SOFTENING2", 0.01);
    double worst = 0;
    for (int s = 0; s < 64; ++s) {
        const int i = int(rng() % n);
        double acc[3] = {0, 0, 0};
        for (int j = 0; j < n; ++j) {
            double d[3];
            for (int q = 0; q < 3; ++q)
                d[q] = double(pos[4 * j + q]) - pos[4 * i + q];
            const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + soft, inv = 1.0 / std::sqrt(r2);
            for (int q = 0; q < 3; ++q)
                acc[q] += d[q] * pos[4 * j + 3] * inv * inv * inv;
        }
        for (int q = 0; q < 3; ++q) {
            const double v = acc[q] * dt, p = pos[4 * i + q] + v * dt;
            worst = std::max(worst, std::fabs(p - outPos[4 * i + q]));
        }
    }
    const bool ok = worst < 1e-5;
    const double inter = double(n) * n;
    std::printf("%s\t%s\tg=%zu l=%zu\tbodies=%d\t%.4f ms\t%.1f GFLOPS\t%.3e interactions/s\t%s (worst %.2e)\n",
                kernel.c_str(), defines.c_str(), g, l, n, ms, 20.0 * inter / (ms * 1e6), inter / (ms * 1e-3),
                ok ? "ok" : "WRONG", worst);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "matmul" && argc >= 10)
        return matmul(argc, argv);
    if (mode == "nbody" && argc >= 8)
        return nbody(argc, argv);
    std::fprintf(stderr, "usage: cl-tune matmul FILE KERNEL DEFINES N GX GY LX LY [REPEATS]\n"
                         "       cl-tune nbody FILE KERNEL DEFINES BODIES GX LX [REPEATS]\n");
    return 2;
}
