#include "PreparedRecord.h"

#include "AtomicFile.h"
#include "Catalogue.h"
#include "JsonIo.h"
#include "ProgramCache.h"
#include "UtcTime.h"

#include <algorithm>
#include <ctime>
#include <filesystem>

namespace fwb {

namespace {

constexpr const char *kFile = "prepared.json";
constexpr const char *kLockFile = "prepared.json.lock";
constexpr std::uint64_t kMaxBytes = 16u << 20;

template <class T>
T field(const Json &j, const char *key, T fallback)
{
    const auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return fallback;
    try {
        return it->get<T>();
    } catch (const std::exception &) {
        return fallback;
    }
}

PreparedDevice deviceFrom(const Json &j)
{
    PreparedDevice d;
    d.key = field<std::string>(j, "key", "");
    d.device = field<std::string>(j, "device", "");
    d.deviceSpec = field<std::string>(j, "device_spec", "");
    d.platform = field<std::string>(j, "platform", "");
    d.driver = field<std::string>(j, "driver", "");
    d.preparedAt = field<std::string>(j, "prepared_at", "");
    d.wallS = field<double>(j, "wall_s", 0);
    d.jobs = field<int>(j, "jobs", 0);
    d.driverCache = field<bool>(j, "driver_cache", false);
    if (const auto it = j.find("builds"); it != j.end() && it->is_array())
        for (const Json &b : *it) {
            if (!b.is_object())
                continue;
            PreparedBuild build;
            build.filter = field<std::string>(b, "filter", "");
            build.variant = currentVariantName(build.filter, field<std::string>(b, "variant", "")); // a former name: today's
            build.format = field<std::string>(b, "format", "");
            build.origin = field<std::string>(b, "origin", "");
            build.buildMs = field<double>(b, "build_ms", -1);
            build.error = field<std::string>(b, "error", "");
            build.key = field<std::string>(b, "key", "");
            build.options = field<std::string>(b, "options", "");
            d.builds.push_back(build);
        }
    return d;
}

Json deviceJson(const PreparedDevice &d)
{
    Json builds = Json::array();
    for (const PreparedBuild &b : d.builds)
        builds.push_back({{"filter", b.filter}, {"variant", b.variant}, {"format", b.format},
                          {"origin", b.origin.empty() ? Json() : Json(b.origin)},
                          {"build_ms", b.buildMs >= 0 ? jsonNumber(b.buildMs) : Json()},
                          {"error", b.error.empty() ? Json() : Json(b.error)},
                          {"key", b.key.empty() ? Json() : Json(b.key)},
                          {"options", b.key.empty() ? Json() : Json(b.options)}});
    return {{"key", d.key}, {"device", d.device}, {"device_spec", d.deviceSpec}, {"platform", d.platform},
            {"driver", d.driver}, {"prepared_at", d.preparedAt}, {"wall_s", jsonNumber(d.wallS)}, {"jobs", d.jobs},
            {"driver_cache", d.driverCache}, {"builds", builds}};
}

} // namespace

std::size_t PreparedDevice::failed() const
{
    return std::size_t(std::count_if(builds.begin(), builds.end(), [](const PreparedBuild &b) { return !b.error.empty(); }));
}

const PreparedBuild *PreparedDevice::slowest() const
{
    const PreparedBuild *best = nullptr;
    for (const PreparedBuild &b : builds)
        if (b.error.empty() && b.origin == "compiled" && (!best || b.buildMs > best->buildMs))
            best = &b;
    return best;
}

std::string preparedKey(const DeviceInfo &device)
{
    return device.platformName + " | " + device.name + " | " + device.driverVersion;
}

std::vector<PreparedDevice> readPreparedDevices(const std::string &cacheDir)
{
    std::vector<PreparedDevice> devices;
    if (cacheDir.empty() || cacheDir == "-")
        return devices;
    std::string text;
    if (!readRegularFile(std::filesystem::path(cacheDir) / kFile, kMaxBytes, text))
        return devices;
    const std::optional<Json> j = parseJson(text, kFile);
    if (!j || !j->is_object())
        return devices;
    if (const auto it = j->find("devices"); it != j->end() && it->is_array())
        for (const Json &d : *it)
            if (d.is_object())
                devices.push_back(deviceFrom(d));
    return devices;
}

const PreparedDevice *findPrepared(const std::vector<PreparedDevice> &devices, const DeviceInfo &device)
{
    const std::string key = preparedKey(device);
    for (const PreparedDevice &d : devices)
        if (d.key == key)
            return &d;
    return nullptr;
}

bool recordPrepared(const std::string &cacheDir, const DeviceInfo &device, bool driverCache,
                    const std::vector<PreparedBuild> &builds, double wallS, int jobs, std::string *error)
{
    if (cacheDir.empty() || cacheDir == "-")
        return true; // no cache folder: nothing to record beside it
    std::error_code ec;
    std::filesystem::create_directories(cacheDir, ec);
    // Only into a program cache (or a folder that becomes one): never a file in someone's own folder.
    if (!ProgramCache::markCacheDir(cacheDir, error))
        return false;
    // Read, merge and write under one lock: another window or prepare writing between our read and
    // our rename would otherwise lose its rows (each row is merged by its filter, variant and format).
    const FileLock lock(std::filesystem::path(cacheDir) / kLockFile);
    if (!lock.locked()) {
        if (error)
            *error = lock.error();
        return false;
    }
    std::vector<PreparedDevice> devices = readPreparedDevices(cacheDir);
    const std::string key = preparedKey(device);
    auto it = std::find_if(devices.begin(), devices.end(), [&](const PreparedDevice &d) { return d.key == key; });
    if (it == devices.end()) {
        devices.emplace_back();
        it = devices.end() - 1;
        it->key = key;
    }
    PreparedDevice &d = *it;
    d.device = device.name;
    d.deviceSpec = device.spec();
    d.platform = device.platformName;
    d.driver = device.driverVersion;
    d.preparedAt = utcNow();
    d.wallS = wallS;
    d.jobs = jobs;
    d.driverCache = driverCache;
    for (const PreparedBuild &b : builds) {
        auto old = std::find_if(d.builds.begin(), d.builds.end(), [&](const PreparedBuild &o) {
            return o.filter == b.filter && o.variant == b.variant && o.format == b.format;
        });
        if (old == d.builds.end())
            d.builds.push_back(b);
        else if (b.origin == "compiled" || !b.error.empty() || old->origin != "compiled")
            *old = b; // a cold build (or a failure) is news; a cache hit keeps the cold time seen before
        else if (!b.key.empty()) {
            old->key = b.key; // and says which program the cache holds now
            old->options = b.options;
        }
    }
    Json all = Json::array();
    for (const PreparedDevice &each : devices)
        all.push_back(deviceJson(each));
    const std::string text = dumpJson(Json{{"version", 1}, {"devices", all}}) + "\n";
    return writeFileAtomically(std::filesystem::path(cacheDir) / kFile, text.data(), text.size(), error);
}

} // namespace fwb
