// Compute workloads that are not image filters (seed 002's vector add, seed 003's matrix multiply,
// seed 002's N-body): catalogue entries as data, on the same variants, program cache, profiling,
// checking and result plumbing as the filters (Session::runWorkload), with their own inputs, size
// parameters, throughput metric and reference check.
#pragma once

#include "Catalogue.h"
#include "WorkGroup.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace fwb {

// One kernel buffer argument. Inputs carry their bytes; outputs are sized and read back after the
// run. Buffers are passed to every pass in this order, before the integer arguments.
struct WorkloadBuffer
{
    std::string name;               // "a", "b", "c"
    std::vector<std::uint8_t> data; // inputs: the contents; outputs: sized (contents ignored)
    bool input = true;
    bool output = false;
};

// One pass's NDRange; local 0x0 takes the project's default shape for the device (as filters do).
struct WorkloadPass
{
    std::size_t global[2] = {1, 1};
    int dims = 1;
    // Concrete when the kernel is compiled for one work-group shape (its __local tiles and register
    // blocks are sized by -D defines): auto launches exactly this, any other requested shape is refused.
    LocalSize local;
};

// What a workload's setup() makes of its size parameters for one variant.
struct WorkloadProblem
{
    std::vector<WorkloadBuffer> buffers;
    std::vector<std::int32_t> intArgs;  // appended after the buffers, in order
    std::vector<std::string> defines;   // -D options (without the -D), e.g. "N=2000"
    std::vector<WorkloadPass> passes;   // one per VariantSpec pass
    double work = 0;                    // units of the metric per run (flops, elements, interactions)
    double bytesMoved = 0;              // bytes a run must move at least (for GB/s), 0 if not bandwidth-bound
    // Time-stepped workloads (N-body): one run launches every pass `steps` times. After each step the
    // buffer arguments of each pair swap (ping-pong: a step reads one buffer and writes the other).
    // Uploads go to, and results come from, the buffer bound to each argument at that moment, so an
    // input+output argument holds the initial state before the run and the final state after it.
    int steps = 1;
    std::vector<std::pair<int, int>> pingPong;
};

// The outcome of comparing a run's outputs with the host reference.
struct WorkloadCheck
{
    bool matches = false;
    double maxError = 0;  // in the workload's own unit (absolute or relative, see toleranceNote)
    double tolerance = 0;
    std::string detail;   // e.g. "checked 64 random elements and every row sum"
    double cpuSingleMs = -1; // the host reference's time per run, when the check measured it (-1: not)
    double cpuMultiMs = -1;
    int cpuThreads = 0;
};

struct WorkloadSpec
{
    std::string name;  // "vector_add"
    std::string title; // "Vector add"
    std::string description;
    std::vector<ParamSpec> params; // size parameters: "n", "bodies", "steps"
    std::string metricName;        // "GFLOPS", "Gelem/s", "interactions/s"
    double metricScale = 1e9;      // metric = work / seconds / metricScale
    std::string toleranceNote;
    std::vector<VariantSpec> variants; // kernelFile, passes (entry points), defines, description, seedNote
    // Host inputs, output sizes, NDRanges and defines for one variant at these sizes.
    std::function<WorkloadProblem(const VariantSpec &, const std::map<std::string, double> &params)> setup;
    // Compares the outputs (same order as problem.buffers, outputs only filled) with the host reference.
    std::function<WorkloadCheck(const WorkloadProblem &, const std::vector<WorkloadBuffer> &results,
                                const std::map<std::string, double> &params)>
        check;

    const VariantSpec *variant(const std::string &variantName) const;
    // Every parameter's value: the given ones, defaults for the rest.
    std::map<std::string, double> resolvedParams(const std::map<std::string, double> &given) const;
};

struct WorkloadRequest
{
    std::string workload;
    std::string variant;
    std::map<std::string, double> params;
    LocalSize local;  // auto, driver or WxH, as for filters
    int repeat = 5;
    int warmup = 1;
    bool check = true;
    bool fastMath = false;
};

const std::vector<WorkloadSpec> &workloads();
const WorkloadSpec *findWorkload(const std::string &name);

// Registration hooks, one per workload family (core/workloads/*.cpp).
void registerVectorAdd(std::vector<WorkloadSpec> &out);
void registerMatmul(std::vector<WorkloadSpec> &out);
void registerNBody(std::vector<WorkloadSpec> &out);

// matmul: the row length (and, for the tiled rungs, the row count) a variant pads n x n matrices to,
// from its tile defines: what its setup allocates, for a memory check before any buffer is made.
std::size_t matmulPaddedN(const VariantSpec &variant, std::size_t n);

} // namespace fwb
