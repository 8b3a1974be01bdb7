// vector_add (seed 002): c = a + b over n floats, two variants; the smallest compute workload.
#include "../Workload.h"
#include "FloatBytes.h"

#include <cmath>

namespace fwb {

void registerVectorAdd(std::vector<WorkloadSpec> &out)
{
    WorkloadSpec w;
    w.name = "vector_add";
    w.title = "Vector add";
    w.description = "c = a + b over n floats: one read of a and b and one write of c per element, so its "
                    "speed is the memory bandwidth. Seed 002's first GPU program.";
    w.params = {{"n", "Elements", "How many floats each vector holds.", 1 << 20, 1, 1 << 28, 1, true}};
    w.metricName = "Gelem/s";
    w.metricScale = 1e9;
    w.toleranceNote = "exact: one float addition per element, the same on every device";
    w.setup = [](const VariantSpec &variant, const std::map<std::string, double> &params) {
        const std::size_t n = std::size_t(params.at("n"));
        std::vector<float> a(n), b(n);
        std::uint32_t state = 12345u; // fixed LCG: the same inputs on every run and device
        for (std::size_t i = 0; i < n; ++i) {
            state = state * 1664525u + 1013904223u;
            a[i] = float(state >> 8) * (1.0f / 16777216.0f);
            state = state * 1664525u + 1013904223u;
            b[i] = float(state >> 8) * (1.0f / 16777216.0f) - 0.5f;
        }
        WorkloadProblem problem;
        problem.buffers = {{"a", floatBytes(a), true, false},
                           {"b", floatBytes(b), true, false},
                           {"c", std::vector<std::uint8_t>(n * sizeof(float)), false, true}};
        problem.intArgs = {std::int32_t(n)};
        const bool four = variant.name == "float4";
        WorkloadPass pass;
        pass.global[0] = four ? (n + 3) / 4 : n;
        problem.passes = {pass};
        problem.work = double(n);
        problem.bytesMoved = 3.0 * double(n) * sizeof(float);
        return problem;
    };
    w.check = [](const WorkloadProblem &problem, const std::vector<WorkloadBuffer> &results,
                 const std::map<std::string, double> &) {
        WorkloadCheck check;
        const std::size_t n = problem.buffers[0].data.size() / sizeof(float);
        for (std::size_t i = 0; i < n; ++i) {
            const float expected = floatAt(problem.buffers[0].data, i) + floatAt(problem.buffers[1].data, i);
            check.maxError = std::max(check.maxError, double(std::fabs(floatAt(results[2].data, i) - expected)));
        }
        check.tolerance = 0;
        check.matches = check.maxError <= check.tolerance;
        check.detail = "every element compared with the host sum";
        return check;
    };

    VariantSpec v;
    v.kernelFile = "vector_add.cl";
    v.name = "scalar";
    v.title = "One element per work-item";
    v.passes = {{"vector_add_scalar"}};
    v.description = "Each work-item adds one pair of floats: 4-byte loads and stores, the simplest mapping.";
    v.seedNote = "Seed 002's C++ AMP example, ported.";
    w.variants.push_back(v);

    v.name = "float4";
    v.title = "Four elements per work-item";
    v.passes = {{"vector_add_float4"}};
    v.description = "Each work-item adds four neighbouring pairs with 16-byte vector loads and stores, so a "
                    "quarter as many work-items issue the same bytes in wider transactions.";
    v.seedNote = "Seed 002 recommends 128-bit (float4) accesses.";
    w.variants.push_back(v);

    out.push_back(std::move(w));
}

} // namespace fwb
