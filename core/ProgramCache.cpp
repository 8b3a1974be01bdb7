// Program build + binary cache (seed 000: "build once per process, save binaries, rebuild when the
// driver or hardware changed"). Disk writes go to a temp file and are renamed into place.
#include "ProgramCache.h"

#include "AtomicFile.h"
#include "BuildDiagnostics.h"
#include "Error.h"
#include "Hash.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fwb {

namespace fs = std::filesystem;

const char *programOriginName(ProgramOrigin origin)
{
    switch (origin) {
    case ProgramOrigin::Memory: return "memory";
    case ProgramOrigin::Disk: return "disk";
    case ProgramOrigin::Compiled: return "compiled";
    }
    return "?";
}

ProgramCache::ProgramCache(std::string diskDir)
    : m_diskDir(diskDir.empty() ? defaultDiskDir() : diskDir == "-" ? std::string() : diskDir)
{}

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

bool readFile(const fs::path &path, std::vector<unsigned char> &bytes)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return !bytes.empty();
}

} // namespace

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
    const fs::path file = m_diskDir.empty() ? fs::path() : fs::path(m_diskDir) / (key + ".bin");
    bi.cacheFile = file.string();
    {
        std::lock_guard lock(m_mutex);
        if (auto it = m_programs.find(memoryKey.str()); it != m_programs.end()) {
            bi.origin = ProgramOrigin::Memory;
            bi.buildMs = msSince(start);
            return it->second;
        }
    }

    std::vector<unsigned char> binary;
    if (!file.empty() && readFile(file, binary)) {
        try {
            cl::Program::Binaries binaries{binary};
            std::vector<cl_int> status;
            cl::Program program(context, {device}, binaries, &status);
            program.build({device}, options.c_str());
            bi.origin = ProgramOrigin::Disk;
            bi.buildMs = msSince(start);
            std::lock_guard lock(m_mutex);
            m_programs.emplace(memoryKey.str(), program);
            return program;
        } catch (const cl::Error &) {
            bi.rebuiltAfterBadBinary = true; // stale or corrupt entry: rebuild from source below
        }
    }

    cl::Program program(context, source);
    try {
        program.build({device}, options.c_str());
    } catch (const cl::Error &e) {
        std::string log = buildLogOf(program, device);
        const std::string first = firstBuildError(log); // "gaussian5x5.cl:119:5: error: ..." (#line)
        throw Error("kernel build failed (" + clErrorName(e.err()) + ")" + (first.empty() ? "" : ": " + first)
                        + (options.empty() ? "" : " with options '" + options + "'"),
                    e.err(), log);
    }
    bi.origin = ProgramOrigin::Compiled;
    if (!file.empty()) {
        try {
            std::vector<std::vector<unsigned char>> binaries = program.getInfo<CL_PROGRAM_BINARIES>();
            // A failed write (read-only cache folder) only costs a rebuild next time.
            if (!binaries.empty() && !binaries.front().empty())
                writeFileAtomically(file, binaries.front().data(), binaries.front().size());
        } catch (const cl::Error &) {
            // Some drivers cannot export binaries; the in-memory cache still works.
        }
    }
    bi.buildMs = msSince(start);
    std::lock_guard lock(m_mutex);
    m_programs.emplace(memoryKey.str(), program);
    return program;
}

} // namespace fwb
