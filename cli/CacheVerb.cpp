// filter-bench cache: the program-binary cache folder (summary, --list, --clear, --max-mib N).
#include "Verb.h"

#include "Error.h"
#include "JsonIo.h"
#include "PreparedRecord.h"
#include "ProgramCache.h"

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <memory>

namespace fwb::cli {

namespace {

struct CacheOptions
{
    std::string dir;
    bool list = false, clear = false, json = false;
    long long maxMib = -1;
};

std::string mib(std::uint64_t bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MiB", double(bytes) / double(1 << 20));
    return text;
}

std::string seconds(double ms)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s", ms / 1000.0);
    return text;
}

std::string localTime(std::int64_t unixSeconds)
{
    const std::time_t t = static_cast<std::time_t>(unixSeconds);
    std::tm tm{};
    localtime_r(&t, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &tm);
    return text;
}

// cache's check before any work (Verb::check): the folder it would look at or change.
std::string checkCache(const CacheOptions &o)
{
    const std::string dir = o.dir.empty() ? ProgramCache::defaultDiskDir() : o.dir == "-" ? std::string() : o.dir;
    if (dir.empty())
        throw Error("no program cache folder (disabled with '-' or FWB_CACHE_DIR=-, and no HOME)");
    return dir;
}

int cmdCache(const CacheOptions &o)
{
    const std::string dir = checkCache(o);
    if (o.maxMib >= 0) {
        std::string error;
        if (!ProgramCache::storeMaxBytes(dir, std::uint64_t(o.maxMib) << 20, &error))
            throw Error(error);
    }
    std::size_t cleared = 0;
    if (o.clear) {
        std::string error;
        cleared = ProgramCache::clearDir(dir, &error);
        if (!error.empty())
            throw Error(error);
    }
    std::error_code ec;
    if (!o.clear && o.maxMib < 0 && std::filesystem::exists(dir, ec) && !ProgramCache::isCacheDir(dir))
        std::fprintf(stderr, "filter-bench: warning: %s\n", ProgramCache::notCacheMessage(dir).c_str());
    const std::uint64_t limit = ProgramCache::storedMaxBytes(dir);
    const std::size_t evicted = o.maxMib >= 0 ? ProgramCache::evict(dir, limit) : 0;
    const std::vector<CacheEntryInfo> entries = ProgramCache::listEntries(dir);
    std::uint64_t total = 0;
    std::size_t invalid = 0;
    for (const CacheEntryInfo &e : entries) {
        total += e.bytes;
        invalid += e.valid ? 0 : 1;
    }

    const std::vector<PreparedDevice> prepared = readPreparedDevices(dir);
    if (o.json) {
        Json j = Json::object();
        j["folder"] = dir;
        Json &devices = j["prepared"] = Json::array();
        for (const PreparedDevice &d : prepared) {
            const PreparedBuild *slowest = d.slowest();
            devices.push_back({{"device", d.device}, {"driver", d.driver}, {"platform", d.platform},
                               {"prepared_at", d.preparedAt}, {"programs", d.builds.size()}, {"failed", d.failed()},
                               {"driver_cache", d.driverCache},
                               {"slowest", slowest ? Json{{"filter", slowest->filter}, {"variant", slowest->variant},
                                                          {"format", slowest->format},
                                                          {"build_ms", jsonNumber(slowest->buildMs)}}
                                                   : Json()}});
        }
        j["entries"] = entries.size();
        j["bytes"] = total;
        j["max_bytes"] = limit;
        j["invalid"] = invalid;
        if (o.clear)
            j["cleared"] = cleared;
        if (o.maxMib >= 0)
            j["evicted"] = evicted;
        if (o.list) {
            Json &list = j["list"] = Json::array();
            for (const CacheEntryInfo &e : entries) // oldest use first: the next to be evicted
                list.push_back({{"key", e.key}, {"bytes", e.bytes}, {"last_used", e.lastUsedUnix},
                                {"valid", e.valid}, {"problem", e.problem}});
        }
        std::printf("%s\n", dumpJson(j).c_str());
        return 0;
    }
    if (o.clear)
        std::printf("cleared %zu entr%s\n", cleared, cleared == 1 ? "y" : "ies");
    if (o.maxMib >= 0)
        std::printf("limit set to %lld MiB; evicted %zu entr%s\n", o.maxMib, evicted, evicted == 1 ? "y" : "ies");
    std::printf("program cache %s: %zu entr%s, %s of %s%s\n", dir.c_str(), entries.size(),
                entries.size() == 1 ? "y" : "ies", mib(total).c_str(), mib(limit).c_str(),
                invalid ? (", " + std::to_string(invalid) + " invalid (rebuilt on next use)").c_str() : "");
    if (prepared.empty())
        std::printf("prepared devices: none ('filter-bench prepare' builds every program ahead of time)\n");
    for (const PreparedDevice &d : prepared) {
        const PreparedBuild *slowest = d.slowest();
        std::printf("prepared: %s (driver %s) at %s: %zu programs%s%s%s\n", d.device.c_str(), d.driver.c_str(),
                    d.preparedAt.c_str(), d.builds.size(),
                    d.failed() ? (", " + std::to_string(d.failed()) + " failed").c_str() : "",
                    slowest ? (", slowest " + slowest->filter + "/" + slowest->variant + " " + slowest->format + " "
                               + seconds(slowest->buildMs))
                                  .c_str()
                            : "",
                    d.driverCache ? " (the driver's own kernel cache holds them)" : "");
    }
    if (o.list) {
        std::printf("  %-16s  %10s  %-19s  %s\n", "key", "bytes", "last used", "state");
        for (const CacheEntryInfo &e : entries)
            std::printf("  %-16s  %10llu  %-19s  %s\n", e.key.c_str(), static_cast<unsigned long long>(e.bytes),
                        localTime(e.lastUsedUnix).c_str(), e.valid ? "ok" : e.problem.c_str());
    }
    return 0;
}

void addCacheOptions(CLI::App &c, CacheOptions &o)
{
    c.add_flag("--list", o.list, "one line per entry, least recently used first (evicted first)");
    c.add_flag("--clear", o.clear, "remove every entry");
    c.add_option("--max-mib", o.maxMib, "keep the folder under N MiB (stored in the folder; evicts now;\n"
                                        "$FWB_CACHE_MAX_MIB overrides it; default 256)")
        ->type_name("N")
        ->check(CLI::Range(0LL, 1LL << 40));
    addCacheDirOption(c, o.dir);
    addJsonFlag(c, o.json, "one JSON object instead of the text");
}

} // namespace

Verb cacheVerb(CLI::App &root)
{
    return optionsVerb(root, "cache",
                       "show the program-binary cache (entries, size, limit); --list, --clear, --max-mib",
                       addCacheOptions, checkCache, cmdCache);
}

} // namespace fwb::cli
