// filter-bench devices and list: the OpenCL devices, and the filter catalogue, as text or JSON.
#include "Verb.h"

#include "Catalogue.h"
#include "Devices.h"
#include "ResultJson.h"
#include "Session.h"

#include <cstdio>
#include <vector>

namespace fwb::cli {

namespace {

// The bandwidth probe for one device (a session opened for it), and what SVM it offers; the error
// when the device cannot be opened.
struct ProbeLine
{
    Session::BandwidthProbe probe;
    std::string svm;
};
ProbeLine probeDevice(const DeviceInfo &device)
{
    ProbeLine line;
    try {
        Session session(device);
        line.probe = session.bandwidthProbe();
        session.transferUnavailableReason(TransferMode::Svm, nullptr, &line.svm);
    } catch (const std::exception &e) {
        line.probe.error = e.what();
    }
    return line;
}

int cmdDevices(bool json, bool probe)
{
    const std::vector<DeviceInfo> devices = listDevices();
    const int def = defaultDeviceIndex(devices);
    if (json) {
        Json j = Json::object();
        j["default"] = def >= 0 ? Json(devices[std::size_t(def)].spec()) : Json(nullptr);
        Json &list = j["devices"] = Json::array();
        for (const DeviceInfo &d : devices) {
            list.push_back(deviceJson(d));
            if (probe && !d.isEmulator) {
                const ProbeLine line = probeDevice(d);
                list.back()["probe"] = bandwidthProbeJson(line.probe);
                list.back()["svm"] = line.svm;
            }
        }
        std::printf("%s\n", dumpJson(j).c_str());
        return 0;
    }
    if (devices.empty()) {
        std::printf("No OpenCL platform or device found. Install a driver (e.g. pocl-opencl-icd for the CPU).\n");
        return 0;
    }
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const DeviceInfo &d = devices[i];
        std::printf("%s %s  %s\n", int(i) == def ? "*" : " ", d.spec().c_str(), d.summary().c_str());
        std::printf("      platform %s | %s | %s\n", d.platformName.c_str(), d.openclVersion.c_str(), d.openclCVersion.c_str());
        std::string items;
        for (std::size_t s : d.maxWorkItemSizes)
            items += (items.empty() ? "" : "x") + std::to_string(s);
        std::printf("      %u compute units @ %u MHz | max work-group %zu (items %s) | local mem %llu KiB (%s)\n",
                    d.computeUnits, d.maxClockMHz, d.maxWorkGroupSize, items.c_str(),
                    static_cast<unsigned long long>(d.localMemSize >> 10), d.localMemDedicated ? "dedicated" : "emulated in global");
        std::printf("      global mem %llu MiB | max alloc %llu MiB | images %s | non-uniform work-groups %s | timer %zu ns\n",
                    static_cast<unsigned long long>(d.globalMemSize >> 20), static_cast<unsigned long long>(d.maxAllocSize >> 20),
                    d.imageSupport ? "yes" : "no", d.nonUniformWorkGroups ? "yes" : "no", d.timerResolutionNs);
        std::printf("      preferred vector width char/short/int/float/double: %u/%u/%u/%u/%u%s\n",
                    d.preferredVectorWidthChar, d.preferredVectorWidthShort, d.preferredVectorWidthInt,
                    d.preferredVectorWidthFloat, d.preferredVectorWidthDouble, d.isEmulator ? " | emulator" : "");
        if (probe && !d.isEmulator) {
            const ProbeLine line = probeDevice(d);
            const Session::BandwidthProbe &p = line.probe;
            if (!p.error.empty()) {
                std::printf("      probe failed: %s\n", p.error.c_str());
                continue;
            }
            std::printf("      probe (%zu MiB, GB/s): device copy %.1f | host->device pageable %.1f, pinned %.1f | "
                        "device->host pageable %.1f, pinned %.1f | kernel reading host memory (zero copy) %.1f\n",
                        p.bytes >> 20, p.deviceCopyGBps, p.h2dPageableGBps, p.h2dPinnedGBps, p.d2hPageableGBps,
                        p.d2hPinnedGBps, p.zeroCopyReadGBps);
            std::printf("      svm: %s\n", line.svm.c_str());
        }
    }
    return 0;
}

int cmdList(bool json)
{
    if (json) {
        Json j = Json::object();
        Json &filters = j["filters"] = Json::array();
        for (const FilterSpec &f : catalogue())
            filters.push_back(filterJson(f));
        std::printf("%s\n", dumpJson(j).c_str());
        return 0;
    }
    for (const FilterSpec &f : catalogue()) {
        std::printf("%s - %s\n  %s\n", f.name.c_str(), f.title.c_str(), f.description.c_str());
        for (const ParamSpec &p : f.params)
            std::printf("  --param %s=<%g..%g> (default %g): %s\n", p.key.c_str(), p.minimum, p.maximum, p.defaultValue,
                        p.help.c_str());
        std::printf("  tolerance: %s\n", f.toleranceNote.c_str());
        for (const VariantSpec &v : f.variants) {
            std::printf("    %-24s %s\n", v.name.c_str(), v.title.c_str());
            std::printf("      %s\n", v.description.c_str());
            if (!v.seedNote.empty())
                std::printf("      measured: %s\n", v.seedNote.c_str());
        }
        std::printf("\n");
    }
    return 0;
}

// The wording devices and list have always used for an argument they do not take.
std::function<std::string(const std::string &)> unknownOptionForPlain(const std::string &verb)
{
    return [verb](const std::string &argument) { return "unknown option '" + argument + "' for " + verb; };
}

} // namespace

Verb devicesVerb(CLI::App &root)
{
    auto json = std::make_shared<bool>(false);
    auto probe = std::make_shared<bool>(false);
    Verb verb;
    verb.command = addVerbCommand(root, "devices", "list every OpenCL device (the default is marked *)");
    addJsonFlag(*verb.command, *json, "one JSON object instead of the text");
    verb.command->add_flag("--probe", *probe,
                           "measure each device's copy bandwidths: device copy, host<->device pageable and\n"
                           "pinned, a kernel reading host memory (zero copy)");
    verb.run = [json, probe] { return cmdDevices(*json, *probe); };
    verb.unknownArgument = unknownOptionForPlain("devices");
    return verb;
}

Verb listVerb(CLI::App &root)
{
    auto json = std::make_shared<bool>(false);
    Verb verb;
    verb.command = addVerbCommand(root, "list", "list filters, variants, parameters and descriptions");
    addJsonFlag(*verb.command, *json, "one JSON object instead of the text");
    verb.run = [json] { return cmdList(*json); };
    verb.unknownArgument = unknownOptionForPlain("list");
    return verb;
}

} // namespace fwb::cli
