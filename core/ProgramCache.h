// ProgramCache: builds each (device, source, options) once per process and keeps binaries on disk.
#pragma once

#include "ClConfig.h"
#include "Devices.h"

#include <map>
#include <mutex>
#include <string>

namespace fwb {

enum class ProgramOrigin { Memory, Disk, Compiled };
const char *programOriginName(ProgramOrigin origin);

struct BuildInfo
{
    double buildMs = 0;                       // time this call spent building or loading
    ProgramOrigin origin = ProgramOrigin::Compiled;
    bool rebuiltAfterBadBinary = false;       // a disk entry existed but did not load
    std::string cacheFile;                    // disk entry used or written (empty if disk cache is off)
};

class ProgramCache
{
public:
    // diskDir: folder for binaries; "" means the default per-user folder
    // ($FWB_CACHE_DIR, else $XDG_CACHE_HOME/opencl-filter-workbench, else ~/.cache/...); "-" disables.
    explicit ProgramCache(std::string diskDir = {});

    // Throws fwb::Error (with the build log) when the source does not compile.
    cl::Program get(const cl::Context &context, const cl::Device &device, const DeviceInfo &info,
                    const std::string &source, const std::string &options, BuildInfo *buildInfo = nullptr);

    const std::string &diskDir() const { return m_diskDir; }
    static std::string defaultDiskDir();
    // Key over everything that changes the binary: platform, device, driver, source, options.
    static std::string cacheKey(const DeviceInfo &info, const std::string &source, const std::string &options);

private:
    std::string m_diskDir;
    std::mutex m_mutex;
    std::map<std::string, cl::Program> m_programs;
};

} // namespace fwb
