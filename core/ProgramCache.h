// ProgramCache: builds each (device, source, options) once per process and keeps binaries on disk, in
// a folder several processes may share, bounded in size (least recently used entries go first).
#pragma once

#include "ClConfig.h"
#include "Devices.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace fwb {

enum class ProgramOrigin { Memory, Disk, Compiled };
const char *programOriginName(ProgramOrigin origin);

struct BuildInfo
{
    double buildMs = 0;                       // time this call spent building or loading
    ProgramOrigin origin = ProgramOrigin::Compiled;
    bool rebuiltAfterBadBinary = false;       // a disk entry existed but did not load
    bool driverCached = false;                // the driver keeps its own disk cache of this program
                                              // (PoCL): none of ours, a later build from source is quick
    std::string cacheFile;                    // disk entry used or written (empty if disk cache is off)
};

// One disk entry, <key>.bin: "FWBPROG1", the 16-hex-digit key, the payload's size and FNV-1a hash
// (both 64-bit little-endian), then the payload. A reader checks all four, so a truncated, foreign
// or bit-flipped file is rebuilt, never handed to the driver. ProgramCache's payload is an 8-byte
// seal, then the driver's binary: the seal is a digest of the key and the exact bytes the driver
// produced, keyed by the folder's secret (CACHEDIR.TAG), so an entry whose frame was recomputed
// around other bytes (half a binary aborts PoCL inside clCreateProgramWithBinary) is rebuilt too.
// The seal guards against files this cache did not write, not against someone who reads the tag.
std::vector<unsigned char> encodeCacheEntry(const std::string &key, const void *binary, std::size_t size);
// Returns false with the reason in `problem` (when given); `key` empty accepts any key.
bool decodeCacheEntry(const unsigned char *data, std::size_t size, const std::string &key,
                      std::vector<unsigned char> *binary, std::string *problem = nullptr);

struct CacheEntryInfo
{
    std::string file;             // full path
    std::string key;              // file name without .bin
    std::uint64_t bytes = 0;
    std::int64_t lastUsedUnix = 0; // seconds; the file's modification time, refreshed on every hit
    bool valid = false;
    std::string problem;           // why it is not valid
};

class ProgramCache
{
public:
    static constexpr std::uint64_t kDefaultMaxBytes = 256ull << 20;

    // diskDir: folder for binaries; "" means the default per-user folder
    // ($FWB_CACHE_DIR, else $XDG_CACHE_HOME/opencl-filter-workbench, else ~/.cache/...); "-" disables.
    // The size bound is $FWB_CACHE_MAX_MIB, else the folder's stored limit, else 256 MiB.
    explicit ProgramCache(std::string diskDir = {});

    // Throws fwb::Error (with the build log) when the source does not compile. A folder that cannot
    // be written turns the disk cache off for this object with one warning on stderr per process.
    cl::Program get(const cl::Context &context, const cl::Device &device, const DeviceInfo &info,
                    const std::string &source, const std::string &options, BuildInfo *buildInfo = nullptr);

    std::string diskDir() const;
    bool diskEnabled() const { return !diskDir().empty(); }
    std::uint64_t maxBytes() const { return m_maxBytes; }
    void setMaxBytes(std::uint64_t bytes) { m_maxBytes = bytes; }

    static std::string defaultDiskDir();
    // Whether the disk cache keeps the driver's binary for this device. Not on PoCL while its own kernel
    // cache is on ($POCL_KERNEL_CACHE not 0): it keeps the program and every launch's work-group
    // specialisation there already, and fetching CL_PROGRAM_BINARIES makes it compile every kernel once
    // more for any work-group shape, which about doubles a first build (docs/MEASUREMENTS.md, "PoCL's own
    // cache"). FWB_CACHE_BINARIES=always keeps binaries for every device (the tests of the disk cache
    // on PoCL); FWB_CACHE_BINARIES=auto or unset is this rule.
    static bool keepsBinaries(const DeviceInfo &info);
    // Key over everything that changes the binary: platform, device, driver, source, options.
    static std::string cacheKey(const DeviceInfo &info, const std::string &source, const std::string &options);

    // The folder's marker, CACHEDIR.TAG (the Cache Directory Tagging signature, so backup tools skip
    // it, then a line naming filter-bench and the folder's seal secret). Only a folder with the marker
    // is a program cache: clearDir, evict and storeMaxBytes touch nothing elsewhere, and only files
    // the cache wrote there (entry or temp names, FWBPROG1 magic, regular files).
    static constexpr const char *kMarkerFile = "CACHEDIR.TAG";
    static bool isCacheDir(const std::string &dir);
    // Writes the marker into `dir` (creating it) when the folder is new, empty or holds only files a
    // program cache writes (an older cache without a marker); false with the reason otherwise.
    static bool markCacheDir(const std::string &dir, std::string *error = nullptr);
    // "DIR is not a filter-bench program cache (...)": the words for refusing a folder.
    static std::string notCacheMessage(const std::string &dir);

    // Folder operations (filter-bench cache). Entries oldest use first.
    static std::vector<CacheEntryInfo> listEntries(const std::string &dir);
    // Whether the folder holds a whole, sealed entry of this key (read and checked, not loaded).
    static bool hasValidEntry(const std::string &dir, const std::string &key);
    // Removes every entry and leftover temp file; returns how many entries went.
    static std::size_t clearDir(const std::string &dir, std::string *error = nullptr);
    // The bound for a folder: $FWB_CACHE_MAX_MIB, else the folder's "limit" file, else the default.
    static std::uint64_t storedMaxBytes(const std::string &dir);
    static bool storeMaxBytes(const std::string &dir, std::uint64_t bytes, std::string *error = nullptr);
    // Removes least recently used entries until the folder holds at most maxBytes (`keep` is spared)
    // and temp files older than ten minutes (writers that died); returns how many entries went.
    static std::size_t evict(const std::string &dir, std::uint64_t maxBytes, const std::string &keep = {});

private:
    void disableDisk(const std::string &why);

    mutable std::mutex m_mutex;
    std::string m_diskDir;
    std::uint64_t m_maxBytes = kDefaultMaxBytes;
    std::map<std::string, cl::Program> m_programs;
};

} // namespace fwb
