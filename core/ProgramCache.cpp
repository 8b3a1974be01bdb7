// Program build + binary cache (seed 000: "build once per process, save binaries, rebuild when the
// driver or hardware changed"). The disk folder is shared by every process of the user: entries are
// written to a temp file and renamed into place (a reader sees the old file, the new one or none,
// never half of one), checked before they reach the driver, and bounded by an LRU sweep after each
// write. Concurrent sweeps are harmless: removing a file another process already removed is ignored,
// and a reader that opened an entry keeps its bytes when the entry is unlinked.
#include "ProgramCache.h"

#include "AtomicFile.h"
#include "BuildDiagnostics.h"
#include "Error.h"
#include "FaultInjection.h"
#include "Hash.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fwb {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'F', 'W', 'B', 'P', 'R', 'O', 'G', '1'};
constexpr std::size_t kKeyChars = 16;
constexpr std::size_t kHeaderBytes = sizeof kMagic + kKeyChars + 8 + 8;
// Larger files are not read at all: no driver binary is a gigabyte, and a hostile file must not
// make us allocate one.
constexpr std::uint64_t kMaxEntryBytes = 1ull << 30;
const char *const kLimitFile = "limit";

void putU64(std::vector<unsigned char> &out, std::uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        out.push_back(static_cast<unsigned char>(v >> (8 * i)));
}

std::uint64_t getU64(const unsigned char *p)
{
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
}

std::uint64_t payloadHash(const void *data, std::size_t size)
{
    Fnv1a hash;
    hash.add(data, size);
    return hash.value();
}

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
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec || size == 0 || size > kMaxEntryBytes)
        return false;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    bytes.resize(static_cast<std::size_t>(size));
    in.read(reinterpret_cast<char *>(bytes.data()), static_cast<std::streamsize>(size));
    bytes.resize(static_cast<std::size_t>(in.gcount()));
    return !bytes.empty();
}

bool isEntryName(const std::string &name)
{
    return name.size() == kKeyChars + 4 && name.compare(kKeyChars, 4, ".bin") == 0;
}

bool isTempName(const std::string &name)
{
    return name.find(".bin.tmp") != std::string::npos;
}

std::int64_t unixSeconds(fs::file_time_type time)
{
    const auto system = std::chrono::time_point_cast<std::chrono::seconds>(
        time - fs::file_time_type::clock::now() + std::chrono::system_clock::now());
    return system.time_since_epoch().count();
}

std::atomic<bool> g_warnedNoCache{false};

} // namespace

const char *programOriginName(ProgramOrigin origin)
{
    switch (origin) {
    case ProgramOrigin::Memory: return "memory";
    case ProgramOrigin::Disk: return "disk";
    case ProgramOrigin::Compiled: return "compiled";
    }
    return "?";
}

std::vector<unsigned char> encodeCacheEntry(const std::string &key, const void *binary, std::size_t size)
{
    std::vector<unsigned char> out;
    out.reserve(kHeaderBytes + size);
    out.insert(out.end(), kMagic, kMagic + sizeof kMagic);
    std::string paddedKey = key.substr(0, kKeyChars);
    paddedKey.resize(kKeyChars, '0');
    out.insert(out.end(), paddedKey.begin(), paddedKey.end());
    putU64(out, size);
    putU64(out, payloadHash(binary, size));
    const auto *bytes = static_cast<const unsigned char *>(binary);
    out.insert(out.end(), bytes, bytes + size);
    return out;
}

bool decodeCacheEntry(const unsigned char *data, std::size_t size, const std::string &key,
                      std::vector<unsigned char> *binary, std::string *problem)
{
    auto fail = [&](const char *why) {
        if (problem)
            *problem = why;
        return false;
    };
    if (size < kHeaderBytes)
        return fail("shorter than the entry header");
    if (std::memcmp(data, kMagic, sizeof kMagic) != 0)
        return fail("not a program-cache entry (bad magic)");
    const std::string storedKey(reinterpret_cast<const char *>(data) + sizeof kMagic, kKeyChars);
    if (!key.empty() && storedKey != key)
        return fail("entry key does not match its file name");
    const std::uint64_t payloadSize = getU64(data + sizeof kMagic + kKeyChars);
    const std::uint64_t storedHash = getU64(data + sizeof kMagic + kKeyChars + 8);
    if (payloadSize == 0)
        return fail("empty binary");
    if (payloadSize != size - kHeaderBytes)
        return fail(payloadSize > size - kHeaderBytes ? "truncated" : "trailing bytes after the binary");
    if (payloadHash(data + kHeaderBytes, std::size_t(payloadSize)) != storedHash)
        return fail("checksum mismatch");
    if (binary)
        binary->assign(data + kHeaderBytes, data + size);
    return true;
}

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

std::vector<CacheEntryInfo> ProgramCache::listEntries(const std::string &dir)
{
    std::vector<CacheEntryInfo> entries;
    std::error_code ec;
    if (dir.empty())
        return entries;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (!isEntryName(name))
            continue;
        CacheEntryInfo e;
        e.file = it->path().string();
        e.key = name.substr(0, kKeyChars);
        std::error_code fileError;
        e.bytes = it->file_size(fileError);
        if (fileError)
            continue; // removed by another process meanwhile
        e.lastUsedUnix = unixSeconds(it->last_write_time(fileError));
        std::vector<unsigned char> bytes;
        if (!readFile(it->path(), bytes))
            e.problem = e.bytes > kMaxEntryBytes ? "larger than any program binary" : "unreadable or empty";
        else
            e.valid = decodeCacheEntry(bytes.data(), bytes.size(), e.key, nullptr, &e.problem);
        entries.push_back(std::move(e));
    }
    std::sort(entries.begin(), entries.end(), [](const CacheEntryInfo &a, const CacheEntryInfo &b) {
        return a.lastUsedUnix != b.lastUsedUnix ? a.lastUsedUnix < b.lastUsedUnix : a.key < b.key;
    });
    return entries;
}

std::size_t ProgramCache::clearDir(const std::string &dir, std::string *error)
{
    std::size_t removed = 0;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (!isEntryName(name) && !isTempName(name))
            continue;
        std::error_code removeError;
        if (fs::remove(it->path(), removeError) && isEntryName(name))
            ++removed;
        else if (removeError && error && error->empty())
            *error = "cannot remove " + it->path().string() + ": " + removeError.message();
    }
    if (ec && ec != std::errc::no_such_file_or_directory && error && error->empty())
        *error = "cannot read " + dir + ": " + ec.message();
    return removed;
}

std::uint64_t ProgramCache::storedMaxBytes(const std::string &dir)
{
    auto parseMib = [](const std::string &text, std::uint64_t &bytes) {
        char *end = nullptr;
        const unsigned long long mib = std::strtoull(text.c_str(), &end, 10);
        if (end == text.c_str() || mib > (1ull << 40))
            return false;
        bytes = std::uint64_t(mib) << 20;
        return true;
    };
    std::uint64_t bytes = kDefaultMaxBytes;
    if (const char *env = std::getenv("FWB_CACHE_MAX_MIB"); env && *env && parseMib(env, bytes))
        return bytes;
    std::ifstream in(fs::path(dir) / kLimitFile);
    std::string text;
    if (in && std::getline(in, text) && parseMib(text, bytes))
        return bytes;
    return kDefaultMaxBytes;
}

bool ProgramCache::storeMaxBytes(const std::string &dir, std::uint64_t bytes, std::string *error)
{
    const std::string text = std::to_string(bytes >> 20) + "\n";
    return writeFileAtomically(fs::path(dir) / kLimitFile, text.data(), text.size(), error);
}

std::size_t ProgramCache::evict(const std::string &dir, std::uint64_t maxBytes, const std::string &keep)
{
    std::vector<std::pair<fs::file_time_type, fs::path>> entries;
    std::uint64_t total = 0;
    const auto now = fs::file_time_type::clock::now();
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code fileError;
        const auto time = it->last_write_time(fileError);
        if (fileError)
            continue;
        if (isTempName(name)) {
            if (now - time > std::chrono::minutes(10))
                fs::remove(it->path(), fileError);
            continue;
        }
        if (!isEntryName(name))
            continue;
        const std::uintmax_t size = it->file_size(fileError);
        if (fileError)
            continue;
        total += size;
        if (it->path().string() != keep)
            entries.emplace_back(time, it->path());
    }
    std::sort(entries.begin(), entries.end());
    std::size_t removed = 0;
    for (const auto &[time, path] : entries) {
        if (total <= maxBytes)
            break;
        std::error_code fileError;
        const std::uintmax_t size = fs::file_size(path, fileError);
        if (fileError)
            continue;
        if (fs::remove(path, fileError))
            ++removed;
        total -= std::min<std::uint64_t>(total, size); // gone either way (another process may have won)
    }
    return removed;
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
    const std::string dir = diskDir();
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

    std::vector<unsigned char> bytes, binary;
    if (!file.empty() && readFile(file, bytes)) {
        if (decodeCacheEntry(bytes.data(), bytes.size(), key, &binary)) {
            try {
                cl::Program::Binaries binaries{binary};
                std::vector<cl_int> status;
                cl::Program program(context, {device}, binaries, &status);
                program.build({device}, options.c_str());
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
    try {
        fault::check(fault::Step::Build); // FWB_FAULT=build:N (builds from source only; hits are not builds)
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
        std::vector<std::vector<unsigned char>> binaries;
        try {
            binaries = program.getInfo<CL_PROGRAM_BINARIES>();
        } catch (const cl::Error &) {
            // Some drivers cannot export binaries; the in-memory cache still works.
        }
        if (!binaries.empty() && !binaries.front().empty()) {
            const std::vector<unsigned char> entry = encodeCacheEntry(key, binaries.front().data(), binaries.front().size());
            std::string error;
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
