// Stencil experiment harness: st PLATFORM DEVICE CLFILE CONFIGFILE [W H]
// config lines: name kernel "build options" lx ly rowsPerItem bytesPerItem op
// (op -1 copy, 0 erode, 1 dilate, 2 3x3 mean, 3 3x3 median, 4 sigma-2 Gaussian within 1)
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define CK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { fprintf(stderr, "%s:%d err %d\n", __FILE__, __LINE__, e_); exit(1); } } while (0)

// op 4: the sigma-2 Gaussian (radius 6, replicate), rows then columns in double, rounded.
static void gaussian2(const std::vector<unsigned char> &in, std::vector<unsigned char> &out, int w, int h)
{
    double tap[13], sum = 0;
    for (int d = -6; d <= 6; ++d)
        sum += tap[d + 6] = std::exp(-d * d / 8.0);
    for (double &t : tap)
        t /= sum;
    std::vector<double> rows(in.size());
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            double a = 0;
            for (int d = -6; d <= 6; ++d)
                a += tap[d + 6] * in[y * w + std::clamp(x + d, 0, w - 1)];
            rows[y * w + x] = a;
        }
    out.assign(in.size(), 0);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            double a = 0;
            for (int d = -6; d <= 6; ++d)
                a += tap[d + 6] * rows[std::clamp(y + d, 0, h - 1) * w + x];
            out[y * w + x] = (unsigned char)std::lround(std::clamp(a, 0.0, 255.0));
        }
}

static void reference(const std::vector<unsigned char> &in, std::vector<unsigned char> &out, int w, int h, int op)
{
    if (op == 4)
        return gaussian2(in, out, w, h);
    out.assign(in.size(), 0);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            int mn = 255, mx = 0, sum = 0, n = 0, v9[9];
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    int v = in[std::clamp(y + dy, 0, h - 1) * w + std::clamp(x + dx, 0, w - 1)];
                    mn = std::min(mn, v);
                    mx = std::max(mx, v);
                    sum += v;
                    v9[n++] = v;
                }
            std::nth_element(v9, v9 + 4, v9 + 9);
            out[y * w + x] = op == 0 ? mn : op == 1 ? mx : op == 2 ? (sum + 4) / 9 : v9[4];
        }
}

int main(int argc, char **argv)
{
    int pi = atoi(argv[1]), di = atoi(argv[2]);
    std::ifstream f(argv[3]);
    std::stringstream ss;
    ss << f.rdbuf();
    std::string src = ss.str();
    int W = argc > 6 ? atoi(argv[5]) : 6720, Hh = argc > 6 ? atoi(argv[6]) : 4480;
    cl_uint np;
    cl_platform_id plats[8];
    CK(clGetPlatformIDs(8, plats, &np));
    cl_device_id devs[8];
    cl_uint nd;
    CK(clGetDeviceIDs(plats[pi], CL_DEVICE_TYPE_ALL, 8, devs, &nd));
    cl_device_id dev = devs[di];
    char name[256];
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, nullptr);
    printf("device %s  image %dx%d gray8\n", name, W, Hh);
    cl_int err;
    cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    CK(err);
    cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, qp, &err);
    CK(err);
    const int pitch = (W + 15) / 16 * 16;
    const size_t bytes = (size_t)pitch * Hh;
    std::vector<unsigned char> in(bytes), out(bytes);
    unsigned s = 12345;
    for (int y = 0; y < Hh; ++y)
        for (int x = 0; x < W; ++x) {
            s = s * 1103515245u + 12345u;
            // a smooth-ish test card plus noise
            in[(size_t)y * pitch + x] = (unsigned char)(((x * 255 / W) ^ (y * 255 / Hh)) + ((s >> 16) & 31));
        }
    std::vector<unsigned char> packed(W * Hh);
    for (int y = 0; y < Hh; ++y)
        memcpy(&packed[(size_t)y * W], &in[(size_t)y * pitch], W);
    const int NROT = 8;
    std::vector<cl_mem> bin(NROT), bout(NROT);
    for (int i = 0; i < NROT; ++i) {
        bin[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, in.data(), &err);
        CK(err);
        bout[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
        CK(err);
    }
    std::vector<unsigned char> ref[5];
    std::ifstream cf(argv[4]);
    std::string line;
    while (std::getline(cf, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        // name kernel "opts" lx ly rows bytes op
        std::string nm, kn, opts;
        std::istringstream ls(line);
        ls >> nm >> kn;
        auto q1 = line.find('"'), q2 = line.find('"', q1 + 1);
        opts = line.substr(q1 + 1, q2 - q1 - 1);
        std::istringstream rest(line.substr(q2 + 1));
        int lx, ly, rows, bpi, op;
        rest >> lx >> ly >> rows >> bpi >> op;
        const char *srcp = src.c_str();
        cl_program prog = clCreateProgramWithSource(ctx, 1, &srcp, nullptr, &err);
        CK(err);
        std::string o = opts + " -cl-std=CL3.0";
        if (clBuildProgram(prog, 1, &dev, o.c_str(), nullptr, nullptr) != CL_SUCCESS) {
            size_t n;
            clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
            std::string logs(n, 0);
            clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, logs.data(), nullptr);
            printf("%-28s BUILD FAILED %s\n", nm.c_str(), logs.substr(0, 1500).c_str());
            continue;
        }
        if (const char *dumpDir = getenv("DUMP")) {
            size_t bs = 0;
            clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof bs, &bs, nullptr);
            std::string bin(bs, 0);
            unsigned char *bp = (unsigned char *)bin.data();
            clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bp, &bp, nullptr);
            std::ofstream(std::string(dumpDir) + "/" + nm + ".ptx") << bin;
        }
        cl_kernel k = clCreateKernel(prog, kn.c_str(), &err);
        CK(err);
        size_t gx = ((W + bpi - 1) / bpi + lx - 1) / lx * lx;
        size_t gy = ((Hh + rows - 1) / rows + ly - 1) / ly * ly;
        size_t g[2] = {gx, gy}, l[2] = {(size_t)lx, (size_t)ly};
        auto launch = [&](int i, cl_event *ev) {
            CK(clSetKernelArg(k, 0, sizeof(cl_mem), &bin[i]));
            CK(clSetKernelArg(k, 1, sizeof(cl_mem), &bout[i]));
            CK(clSetKernelArg(k, 2, sizeof(int), &W));
            CK(clSetKernelArg(k, 3, sizeof(int), &Hh));
            CK(clSetKernelArg(k, 4, sizeof(int), &pitch));
            CK(clEnqueueNDRangeKernel(q, k, 2, nullptr, g, l, 0, nullptr, ev));
        };
        auto timeit = [&](bool rotate) {
            std::vector<double> t;
            for (int r = 0; r < 3; ++r)
                launch(0, nullptr);
            for (int r = 0; r < 24; ++r) {
                cl_event ev;
                launch(rotate ? r % NROT : 0, &ev);
                CK(clWaitForEvents(1, &ev));
                cl_ulong a, b;
                clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &a, nullptr);
                clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &b, nullptr);
                t.push_back((b - a) * 1e-6);
                clReleaseEvent(ev);
            }
            std::sort(t.begin(), t.end());
            return t[t.size() / 2];
        };
        double ms = timeit(false), msr = timeit(true);
        // check
        CK(clEnqueueReadBuffer(q, bout[0], CL_TRUE, 0, bytes, out.data(), 0, nullptr, nullptr));
        std::string verdict = "copy";
        if (op >= 0) {
            if (ref[op].empty())
                reference(packed, ref[op], W, Hh, op);
            long bad = 0;
            int first = -1;
            for (int y = 0; y < Hh; ++y)
                for (int x = 0; x < W; ++x)
                    if (std::abs(out[(size_t)y * pitch + x] - ref[op][(size_t)y * W + x]) > (op == 4 ? 1 : 0)) {
                        if (first < 0)
                            first = y * W + x;
                        ++bad;
                    }
            verdict = bad ? "MISMATCH " + std::to_string(bad) + " first@" + std::to_string(first % W) + "," + std::to_string(first / W) : "ok";
        } else {
            verdict = memcmp(out.data(), in.data(), bytes) ? "MISMATCH" : "ok";
        }
        const double mb = 2.0 * W * Hh / 1e6;
        printf("%-28s %-8s l=%3dx%-2d rows=%2d  %.4f ms (%5.0f GB/s)  rotated %.4f ms (%5.0f GB/s)  %s\n", nm.c_str(),
               kn.c_str(), lx, ly, rows, ms, mb / ms, msr, mb / msr, verdict.c_str());
        fflush(stdout);
        clReleaseKernel(k);
        clReleaseProgram(prog);
    }
    return 0;
}
