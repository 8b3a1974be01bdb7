// Fault injection hooks (see FaultInjection.h).
#include "FaultInjection.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace fwb::fault {

namespace {

constexpr int kSteps = 4;

struct State
{
    std::atomic<bool> armed{false};
    std::atomic<long> calls[kSteps]{};
    std::atomic<long> failAt[kSteps]{}; // 0: never
};

State &state()
{
    static State s;
    return s;
}

std::atomic<int> g_liveBuffers{0};
std::atomic<bool> g_initialized{false}; // FWB_FAULT read (or reset() called)

bool stepFromName(const std::string &name, Step &step)
{
    static const std::pair<const char *, Step> names[] = {
        {"alloc", Step::Alloc}, {"build", Step::Build}, {"launch", Step::Launch}, {"read", Step::Read}};
    for (const auto &[text, value] : names)
        if (name == text) {
            step = value;
            return true;
        }
    return false;
}

void CL_CALLBACK bufferReleased(cl_mem, void *)
{
    g_liveBuffers.fetch_sub(1, std::memory_order_relaxed);
}

} // namespace

const char *stepName(Step step)
{
    switch (step) {
    case Step::Alloc: return "buffer allocation";
    case Step::Build: return "program build";
    case Step::Launch: return "kernel launch";
    case Step::Read: return "read";
    }
    return "?";
}

void reset(const std::string &spec)
{
    g_initialized = true;
    State &s = state();
    bool any = false;
    for (int i = 0; i < kSteps; ++i) {
        s.calls[i] = 0;
        s.failAt[i] = 0;
    }
    std::istringstream in(spec);
    std::string item;
    while (std::getline(in, item, ',')) {
        const std::size_t colon = item.find(':');
        Step step;
        char *end = nullptr;
        const long n = colon == std::string::npos ? 0 : std::strtol(item.c_str() + colon + 1, &end, 10);
        if (colon == std::string::npos || !stepFromName(item.substr(0, colon), step) || n < 1 || *end != '\0') {
            std::fprintf(stderr, "warning: FWB_FAULT: ignoring '%s' (use alloc:N, build:N, launch:N or read:N)\n",
                         item.c_str());
            continue;
        }
        s.failAt[int(step)] = n;
        any = true;
    }
    s.armed = any;
}

void resetFromEnvironment()
{
    const char *spec = std::getenv("FWB_FAULT");
    reset(spec ? spec : "");
}

void check(Step step)
{
    if (!g_initialized.load(std::memory_order_acquire) && !g_initialized.exchange(true))
        resetFromEnvironment();
    State &s = state();
    if (!s.armed.load(std::memory_order_relaxed))
        return;
    const int i = int(step);
    const long call = ++s.calls[i];
    if (call != s.failAt[i])
        return;
    switch (step) {
    case Step::Alloc: throw cl::Error(CL_MEM_OBJECT_ALLOCATION_FAILURE, "buffer allocation (clCreateBuffer, injected fault)");
    case Step::Build: throw cl::Error(CL_BUILD_PROGRAM_FAILURE, "program build (clBuildProgram, injected fault)");
    case Step::Launch: throw cl::Error(CL_OUT_OF_RESOURCES, "kernel launch (clEnqueueNDRangeKernel, injected fault)");
    case Step::Read: throw cl::Error(CL_OUT_OF_HOST_MEMORY, "read (clEnqueueReadBuffer, injected fault)");
    }
}

void trackMemory(const cl::Memory &memory)
{
    if (memory() && clSetMemObjectDestructorCallback(memory(), bufferReleased, nullptr) == CL_SUCCESS)
        g_liveBuffers.fetch_add(1, std::memory_order_relaxed);
}

int liveBuffers()
{
    return g_liveBuffers.load(std::memory_order_relaxed);
}

} // namespace fwb::fault
