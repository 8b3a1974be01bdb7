// Program build + binary cache (seed 000: "build once per process, save binaries, rebuild when the
// driver or hardware changed"): the in-memory map per context, the disk entry's read and write around
// the build, and the key. The folder itself (entry frame, seal, marker, LRU sweep) is
// ProgramCacheFolder.cpp.
#include "ProgramCache.h"
#include "ProgramCacheEntry.h"
#include "StderrCapture.h"

#include "AtomicFile.h"
#include "BuildDiagnostics.h"
#include "Names.h"
#include "Error.h"
#include "FaultInjection.h"
#include "Hash.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace fwb {

namespace fs = std::filesystem;

using programcache::readEntryFile;
using programcache::sealedPayload;
using programcache::sealSecret;
using programcache::unsealPayload;

namespace {

double msSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::string buildLogOf(const cl::Program &program, const cl::Device &device)
{
    try {
        return program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
    } catch (const cl::Error &) {
        return {};
    }
}

// Every kernel of a loaded binary must be one the source defines, and there must be one: another
// program's valid binary under this key would otherwise fail later as CL_INVALID_KERNEL_NAME.
bool kernelsMatchSource(const cl::Program &program, const std::string &source)
{
    std::string names;
    try {
        names = program.getInfo<CL_PROGRAM_KERNEL_NAMES>();
    } catch (const cl::Error &) {
        return false;
    }
    std::size_t count = 0;
    std::size_t start = 0;
    while (start <= names.size()) {
        const std::size_t end = std::min(names.find(';', start), names.size());
        const std::string name = names.substr(start, end - start);
        start = end + 1;
        if (name.empty())
            continue;
        ++count;
        bool found = false;
        for (std::size_t at = source.find(name); at != std::string::npos && !found; at = source.find(name, at + 1)) {
            const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
            const bool before = at == 0 || !word(source[at - 1]);
            const bool after = at + name.size() >= source.size() || !word(source[at + name.size()]);
            found = before && after;
        }
        if (!found)
            return false;
    }
    return count > 0;
}

std::atomic<bool> g_warnedNoCache{false};

} // namespace

constexpr EnumName<ProgramOrigin> kProgramOrigins[] = {
    {ProgramOrigin::Memory, "memory"},
    {ProgramOrigin::Disk, "disk"},
    {ProgramOrigin::Compiled, "compiled"},
};

const char *programOriginName(ProgramOrigin origin) { return nameIn(kProgramOrigins, origin); }

ProgramCache::ProgramCache(std::string diskDir)
    : m_diskDir(diskDir.empty() ? defaultDiskDir() : diskDir == "-" ? std::string() : diskDir)
{
    if (!m_diskDir.empty())
        m_maxBytes = storedMaxBytes(m_diskDir);
}

std::string ProgramCache::diskDir() const
{
    std::lock_guard lock(m_mutex);
    return m_diskDir;
}

void ProgramCache::disableDisk(const std::string &why)
{
    {
        std::lock_guard lock(m_mutex);
        m_diskDir.clear();
    }
    if (!g_warnedNoCache.exchange(true))
        std::fprintf(stderr, "warning: %s; running without a program cache\n", why.c_str());
}

std::string ProgramCache::defaultDiskDir()
{
    if (const char *dir = std::getenv("FWB_CACHE_DIR"); dir && *dir)
        return std::string(dir) == "-" ? std::string() : std::string(dir);
    if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return (fs::path(xdg) / "opencl-filter-workbench" / "programs").string();
    if (const char *home = std::getenv("HOME"); home && *home)
        return (fs::path(home) / ".cache" / "opencl-filter-workbench" / "programs").string();
    return {};
}

bool ProgramCache::keepsBinaries(const DeviceInfo &info)
{
    if (const char *env = std::getenv("FWB_CACHE_BINARIES"); env && *env) {
        const std::string value = env;
        if (value == "always")
            return true;
        static std::atomic<bool> warned{false};
        if (value != "auto" && !warned.exchange(true))
            std::fprintf(stderr, "warning: FWB_CACHE_BINARIES '%s' is not 'auto' or 'always'; using auto\n", env);
    }
    if (info.platformName.find("Portable Computing Language") == std::string::npos)
        return true;
    const char *pocl = std::getenv("POCL_KERNEL_CACHE");
    return pocl && std::string(pocl) == "0"; // PoCL without its own cache: ours is the only one
}

std::string ProgramCache::cacheKey(const DeviceInfo &info, const std::string &source, const std::string &options)
{
    Fnv1a hash;
    hash.add(info.platformName);
    hash.add(info.platformVersion);
    hash.add(info.name);
    hash.add(info.driverVersion);
    hash.add(info.openclVersion);
    hash.add(source);
    hash.add(options);
    return hash.hex();
}

cl::Program ProgramCache::get(const cl::Context &context, const cl::Device &device, const DeviceInfo &info,
                              const std::string &source, const std::string &options, BuildInfo *buildInfo)
{
    BuildInfo local;
    BuildInfo &bi = buildInfo ? *buildInfo : local;
    bi = BuildInfo{};
    const auto start = std::chrono::steady_clock::now();
    const std::string key = cacheKey(info, source, options);
    // The in-memory map is per context: programs cannot move between contexts.
    std::ostringstream memoryKey;
    memoryKey << static_cast<const void *>(context()) << '/' << key;
    const bool keep = keepsBinaries(info);
    bi.driverCached = !keep;
    const std::string dir = keep ? diskDir() : std::string();
    const fs::path file = dir.empty() ? fs::path() : fs::path(dir) / (key + ".bin");
    bi.cacheFile = file.string();
    {
        std::lock_guard lock(m_mutex);
        if (auto it = m_programs.find(memoryKey.str()); it != m_programs.end()) {
            bi.origin = ProgramOrigin::Memory;
            bi.buildMs = msSince(start);
            return it->second;
        }
    }

    std::vector<unsigned char> bytes, payload, binary;
    const std::string secret = dir.empty() ? std::string() : sealSecret(dir);
    if (!file.empty() && readEntryFile(file, bytes)) {
        if (decodeCacheEntry(bytes.data(), bytes.size(), key, &payload) && unsealPayload(secret, key, payload, &binary)) {
            try {
                cl::Program::Binaries binaries{binary};
                std::vector<cl_int> status;
                cl::Program program(context, {device}, binaries, &status);
                program.build({device}, options.c_str());
                if (!kernelsMatchSource(program, source))
                    throw cl::Error(CL_INVALID_BINARY, "cached binary holds other kernels");
                bi.origin = ProgramOrigin::Disk;
                bi.buildMs = msSince(start);
                std::error_code ec; // LRU: a hit makes the entry the most recently used
                fs::last_write_time(file, fs::file_time_type::clock::now(), ec);
                std::lock_guard lock(m_mutex);
                m_programs.emplace(memoryKey.str(), program);
                return program;
            } catch (const cl::Error &) {
            }
        }
        bi.rebuiltAfterBadBinary = true; // stale, corrupt or foreign entry: rebuild from source below
    }

    cl::Program program(context, source);
    // PoCL's compiler prints "N warnings generated." on the process's stderr (issue 24: it reached the
    // terminal of every window and filter-bench run); its warnings themselves are in the build log. The
    // count is dropped after a build that succeeds and joins the log of one that fails; anything else
    // printed meanwhile goes on to stderr.
    StderrCapture printed(info.platformName.find("Portable Computing Language") != std::string::npos);
    try {
        fault::check(fault::Step::Build); // FWB_FAULT=build:N (builds from source only; hits are not builds)
        program.build({device}, options.c_str());
        takeCompilerCountLines(printed.finish());
    } catch (const cl::Error &e) {
        std::string log = buildLogOf(program, device) + takeCompilerCountLines(printed.finish());
        const std::string first = firstBuildError(log); // "gaussian5x5.cl:119:5: error: ..." (#line)
        throw Error("kernel build failed (" + clErrorName(e.err()) + ")" + (first.empty() ? "" : ": " + first)
                        + (options.empty() ? "" : " with options '" + options + "'"),
                    e.err(), log);
    }
    bi.origin = ProgramOrigin::Compiled;
    if (!file.empty()) {
        std::vector<std::vector<unsigned char>> binaries;
        try {
            binaries = program.getInfo<CL_PROGRAM_BINARIES>();
        } catch (const cl::Error &) {
            // Some drivers cannot export binaries; the in-memory cache still works.
        }
        std::string error;
        if (!binaries.empty() && !binaries.front().empty() && !markCacheDir(dir, &error)) {
            disableDisk(error);
        } else if (!binaries.empty() && !binaries.front().empty()) {
            const std::vector<unsigned char> sealed = sealedPayload(sealSecret(dir), key, binaries.front());
            const std::vector<unsigned char> entry = encodeCacheEntry(key, sealed.data(), sealed.size());
            if (writeFileAtomically(file, entry.data(), entry.size(), &error))
                evict(dir, m_maxBytes, file.string());
            else
                disableDisk("program cache folder " + dir + " is not writable (" + error + ")");
        }
    }
    bi.buildMs = msSince(start);
    std::lock_guard lock(m_mutex);
    m_programs.emplace(memoryKey.str(), program);
    return program;
}

} // namespace fwb
