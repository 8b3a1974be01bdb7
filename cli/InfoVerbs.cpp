// filter-bench devices and list: the OpenCL devices, and the filter catalogue, as text or JSON.
#include "Verb.h"

#include "Catalogue.h"
#include "Devices.h"
#include "Error.h"
#include "JsonIo.h"
#include "MeasurementRecord.h"
#include "PreparedRecord.h"
#include "ProgramCache.h"
#include "ResultJson.h"
#include "Session.h"

#include <algorithm>
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

// A variant's figures in the kept records of real devices (data/measurements), where the
// descriptions once quoted them in prose: they stay true to the record they came from.
Json recordsJson(const std::vector<MeasurementRecord> &all, const std::string &filter, const std::string &variant)
{
    Json out = Json::array();
    for (const VariantRecord &entry : variantRecords(all, filter, variant)) {
        const MeasurementRecord &r = *entry.record;
        Json j = {{"device", r.deviceName}, {"driver", r.driverVersion}, {"date", r.date}, {"width", r.width},
                  {"height", r.height}, {"image", r.imageSource}, {"params", entry.params}, {"sentence", variantRecordSentence(entry)}};
        Json &ms = j["kernel_ms"] = Json::object();
        Json &pct = j["pct_of_copy"] = Json::object();
        for (const VariantRecord::Figure &f : entry.figures) {
            ms[f.format] = f.kernelMs;
            pct[f.format] = f.pctCopy >= 0 ? Json(f.pctCopy) : Json(nullptr);
        }
        out.push_back(std::move(j));
    }
    return out;
}

int cmdList(bool json)
{
    const std::shared_ptr<const std::vector<MeasurementRecord>> records = installedMeasurementRecords();
    if (json) {
        Json j = Json::object();
        Json &filters = j["filters"] = Json::array();
        for (const FilterSpec &f : catalogue()) {
            Json filter = filterJson(f);
            for (Json &variant : filter["variants"])
                variant["records"] = recordsJson(*records, f.name, variant["name"].get<std::string>());
            filters.push_back(std::move(filter));
        }
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
            for (const VariantRecord &entry : variantRecords(*records, f.name, v.name))
                std::printf("      recorded on %s\n", variantRecordSentence(entry).c_str());
        }
        std::printf("\n");
    }
    return 0;
}

struct BuildTimesOptions
{
    bool show = false;
    std::string deviceSpec, cacheDir;
};

// list --build-times: each variant's cold build time on one device, as its last prepare recorded it.
int cmdBuildTimes(const BuildTimesOptions &o, bool json)
{
    const DeviceInfo device = selectDevice(listDevices(), o.deviceSpec);
    const std::string dir = o.cacheDir.empty() ? ProgramCache::defaultDiskDir() : o.cacheDir;
    const std::vector<PreparedDevice> records = readPreparedDevices(dir);
    const PreparedDevice *record = findPrepared(records, device);
    if (!record)
        throw Error("no build times recorded for " + device.summary() + (dir == "-" || dir.empty() ? "" : " in " + dir)
                    + ": run 'filter-bench prepare --device " + device.spec() + "' first (it builds every program "
                    "and records each build's time)");
    std::vector<const PreparedBuild *> order;
    for (const PreparedBuild &b : record->builds)
        order.push_back(&b);
    std::stable_sort(order.begin(), order.end(), [](const PreparedBuild *a, const PreparedBuild *b) {
        const bool coldA = a->origin == "compiled", coldB = b->origin == "compiled";
        return coldA != coldB ? coldA : a->buildMs > b->buildMs;
    });
    if (json) {
        Json builds = Json::array();
        for (const PreparedBuild *b : order)
            builds.push_back({{"filter", b->filter}, {"variant", b->variant}, {"format", b->format},
                              {"cold_build_ms", b->origin == "compiled" && b->buildMs >= 0 ? jsonNumber(b->buildMs) : Json()},
                              {"origin", b->origin.empty() ? Json() : Json(b->origin)},
                              {"error", b->error.empty() ? Json() : Json(b->error)}});
        std::printf("%s\n", dumpJson(Json{{"device", record->device}, {"device_spec", device.spec()},
                                          {"driver", record->driver}, {"prepared_at", record->preparedAt},
                                          {"driver_cache", record->driverCache}, {"builds", builds}})
                                    .c_str());
        return 0;
    }
    std::printf("%s on %s (driver %s), recorded by prepare at %s\n",
                record->driverCache ? "build times through the driver's own kernel cache (a program it already held "
                                      "builds in a fraction of a second)"
                                    : "cold build times",
                record->device.c_str(), record->driver.c_str(), record->preparedAt.c_str());
    std::printf("%-20s %-26s %-9s %12s\n", "filter", "variant", "format", "cold build");
    for (const PreparedBuild *b : order)
        std::printf("%-20s %-26s %-9s %12s%s%s\n", b->filter.c_str(), b->variant.c_str(), b->format.c_str(),
                    !b->error.empty()                          ? "failed"
                    : b->origin == "compiled" && b->buildMs >= 0 ? (std::to_string(int(b->buildMs + 0.5)) + " ms").c_str()
                                                               : "not seen",
                    b->error.empty() ? "" : "  ", b->error.c_str());
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
    auto times = std::make_shared<BuildTimesOptions>();
    Verb verb;
    verb.command = addVerbCommand(root, "list", "list filters, variants, parameters and descriptions");
    addJsonFlag(*verb.command, *json, "one JSON object instead of the text");
    verb.command->add_flag("--build-times", times->show,
                           "each variant's cold build time on a device, slowest first, as 'filter-bench prepare'\n"
                           "recorded it");
    addDeviceOption(*verb.command, times->deviceSpec);
    addCacheDirOption(*verb.command, times->cacheDir);
    verb.run = [json, times] { return times->show ? cmdBuildTimes(*times, *json) : cmdList(*json); };
    verb.unknownArgument = unknownOptionForPlain("list");
    return verb;
}

} // namespace fwb::cli
