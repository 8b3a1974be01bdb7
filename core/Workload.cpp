// The compute-workload registry and its small helpers (the runner is Session::runWorkload).
#include "Workload.h"

#include "Names.h"

namespace fwb {

const VariantSpec *WorkloadSpec::variant(const std::string &variantName) const
{
    return findNamed(variants, variantName);
}

std::map<std::string, double> WorkloadSpec::resolvedParams(const std::map<std::string, double> &given) const
{
    std::map<std::string, double> values;
    for (const ParamSpec &p : params) {
        const auto it = given.find(p.key);
        values[p.key] = it != given.end() ? it->second : p.defaultValue;
    }
    return values;
}

const std::vector<WorkloadSpec> &workloads()
{
    static const std::vector<WorkloadSpec> all = [] {
        std::vector<WorkloadSpec> out;
        registerVectorAdd(out);
        registerMatmul(out);
        registerNBody(out);
        return out;
    }();
    return all;
}

const WorkloadSpec *findWorkload(const std::string &name) { return findNamed(workloads(), name); }

} // namespace fwb
