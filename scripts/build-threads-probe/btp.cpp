// build-threads-probe: does an OpenCL driver build programs in parallel inside one process?
// Issue 25 asks `prepare` to use threads where the driver builds in parallel, else helper processes.
// Builds the same source N times (each with its own -DFWB_NONCE, so no cache can answer), first one
// after another, then from N threads on one context, then from N threads with a context each, and
// prints every build's seconds and each round's wall time.
//
//   g++ -O2 -std=c++20 btp.cpp -o btp -lOpenCL -pthread
//   CUDA_CACHE_DISABLE=1 ./btp PLATFORM FILE "BUILD OPTIONS" N
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using Clock = std::chrono::steady_clock;

static double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

static double build(cl_context ctx, cl_device_id dev, const std::string &src, const std::string &options)
{
    const char *s = src.c_str();
    cl_int err = 0;
    const auto t0 = Clock::now();
    cl_program p = clCreateProgramWithSource(ctx, 1, &s, nullptr, &err);
    err = clBuildProgram(p, 1, &dev, options.c_str(), nullptr, nullptr);
    const double seconds = since(t0);
    if (err != CL_SUCCESS) {
        size_t n = 0;
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
        std::string log(n, 0);
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
        fprintf(stderr, "build failed (%d): %s\n", err, log.substr(0, 2000).c_str());
        exit(1);
    }
    clReleaseProgram(p);
    return seconds;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: btp PLATFORM FILE \"OPTIONS\" N\n");
        return 2;
    }
    const int platform = atoi(argv[1]), n = atoi(argv[4]);
    std::ifstream f(argv[2]);
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string src = ss.str(), options = argv[3];
    cl_platform_id plats[8];
    cl_uint np = 0;
    clGetPlatformIDs(8, plats, &np);
    cl_device_id dev;
    clGetDeviceIDs(plats[platform], CL_DEVICE_TYPE_ALL, 1, &dev, nullptr);
    char name[256];
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, nullptr);
    printf("device %s, %d builds a round\n", name, n);
    cl_int err = 0;
    cl_context shared = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    const auto nonce = [&](const char *round, int i) { return options + " -DFWB_NONCE=" + round + std::to_string(i); };
    build(shared, dev, src, nonce("w", 0)); // warm the compiler's own start
    std::vector<double> each(n);
    auto t0 = Clock::now();
    for (int i = 0; i < n; ++i)
        each[i] = build(shared, dev, src, nonce("s", i));
    double wall = since(t0), sum = 0;
    for (double s : each)
        sum += s;
    const double serialWall = wall;
    printf("serial        wall %7.2f s  builds summed %7.2f s  first %.2f s\n", wall, sum, each[0]);
    for (int round = 0; round < 2; ++round) {
        std::vector<std::thread> threads;
        t0 = Clock::now();
        for (int i = 0; i < n; ++i)
            threads.emplace_back([&, i, round] {
                cl_context ctx = shared;
                if (round == 1)
                    ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, nullptr);
                each[i] = build(ctx, dev, src, nonce(round ? "c" : "t", i));
                if (round == 1)
                    clReleaseContext(ctx);
            });
        for (auto &t : threads)
            t.join();
        wall = since(t0);
        sum = 0;
        for (double s : each)
            sum += s;
        printf("%-13s wall %7.2f s  builds summed %7.2f s  serial wall / this wall: x%.1f\n",
               round ? "threads+ctx" : "threads", wall, sum, serialWall / wall);
    }
    return 0;
}
