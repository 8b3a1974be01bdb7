// lab-bench: a Qt-free table of compute-workload variants (matmul, nbody, ...) on one device, for
// measurements where the Qt Test suites cannot be built; the filter-bench verbs will supersede it.
// Usage: lab-bench WORKLOAD PARAM=VALUE[,VALUE...] [PARAM=VALUE ...] [variants=a,b] [fast=1] [repeat=3]
#include "Devices.h"
#include "Session.h"
#include "Workload.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char **argv)
{
    using namespace fwb;
    if (argc < 2 || !findWorkload(argv[1])) {
        std::fprintf(stderr, "usage: lab-bench WORKLOAD [param=v1,v2] [variants=a,b] [fast=1] [repeat=3]\n");
        return 2;
    }
    const WorkloadSpec &workload = *findWorkload(argv[1]);
    std::string sweepKey;
    std::vector<double> sweep{0};
    std::map<std::string, double> params;
    std::string variants;
    bool fast = false;
    int repeat = 3;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto eq = arg.find('=');
        const std::string key = arg.substr(0, eq), value = eq == std::string::npos ? "" : arg.substr(eq + 1);
        if (key == "variants")
            variants = "," + value + ",";
        else if (key == "fast")
            fast = value == "1";
        else if (key == "repeat")
            repeat = std::atoi(value.c_str());
        else if (value.find(',') != std::string::npos) {
            sweepKey = key;
            sweep.clear();
            std::stringstream list(value);
            for (std::string item; std::getline(list, item, ',');)
                sweep.push_back(std::atof(item.c_str()));
        } else
            params[key] = std::atof(value.c_str());
    }
    const std::vector<DeviceInfo> devices = listDevices();
    if (devices.empty()) {
        std::fprintf(stderr, "no OpenCL device\n");
        return 1;
    }
    const char *spec = std::getenv("FWB_TEST_DEVICE");
    Session session(selectDevice(devices, spec ? spec : ""));
    std::printf("%s on %s\n", workload.name.c_str(), devices.empty() ? "?" : selectDevice(devices, spec ? spec : "").name.c_str());
    for (double value : sweep) {
        if (!sweepKey.empty())
            params[sweepKey] = value;
        for (const VariantSpec &v : workload.variants) {
            if (!variants.empty() && variants.find("," + v.name + ",") == std::string::npos)
                continue;
            WorkloadRequest request;
            request.workload = workload.name;
            request.variant = v.name;
            request.params = params;
            request.fastMath = fast;
            request.repeat = repeat;
            request.warmup = 1;
            const RunResult r = session.runWorkload(request);
            std::string sizes;
            for (const auto &[key, val] : r.params)
                sizes += key + "=" + std::to_string(long(val)) + " ";
            std::printf("%s%-26s %10.3f ms (min %.3f) %12.2f %s  local %s  cpu %.1f ms x%d / %.1f ms x1  %s\n    %s\n",
                        sizes.c_str(), v.name.c_str(), r.kernelMs.median, r.kernelMs.min, r.metricValue,
                        r.metricName.c_str(), r.local.toString().c_str(), r.cpuMultiMs, r.cpuThreads, r.cpuSingleMs,
                        r.ok() ? (r.matches ? "ok" : "MISMATCH") : ("ERROR " + r.error).c_str(),
                        r.ok() ? r.checkDetail.c_str() : r.buildLog.substr(0, 2000).c_str());
            std::fflush(stdout);
        }
    }
    return 0;
}
