// What `filter-bench prepare` built for each device, kept beside the program cache (prepared.json):
// `cache` lists the prepared devices, `list --build-times` each variant's cold build time on one.
#pragma once

#include "Devices.h"

#include <string>
#include <vector>

namespace fwb {

struct PreparedBuild
{
    std::string filter, variant, format;
    std::string origin;   // "compiled", "disk cache", ... (ProgramOrigin's name); "" when it failed
    double buildMs = -1;  // the cold build's time when origin is "compiled" (else the load's)
    std::string error;
    std::string key;      // the program cache's key of the build (ProgramCache::cacheKey), empty if unknown
    std::string options;  // its build options (with today's source they give the key again: alreadyPrepared)
    double wallMs = 0;    // the child's whole run (start, build, one launch), not recorded
    bool fromRecord = false; // prepare found it prepared (alreadyPrepared): no child ran; the row is the
                             // record's own, kept as it was. Not recorded
};

struct PreparedDevice
{
    std::string key;        // platform | device | driver: the same device after a driver update is another
    std::string device, deviceSpec, platform, driver;
    std::string preparedAt; // UTC, ISO 8601, of the latest prepare
    double wallS = 0;       // that prepare's wall time
    int jobs = 0;
    bool driverCache = false; // the driver keeps the programs (PoCL), not filter-bench's cache
    std::vector<PreparedBuild> builds;

    std::size_t failed() const;
    const PreparedBuild *slowest() const; // the slowest cold build, or null
};

std::string preparedKey(const DeviceInfo &device);

// Every record in the cache folder (none when the file is absent or unreadable: it is only a record).
std::vector<PreparedDevice> readPreparedDevices(const std::string &cacheDir);
const PreparedDevice *findPrepared(const std::vector<PreparedDevice> &devices, const DeviceInfo &device);

// Adds a prepare's builds to the device's record (a rebuilt program replaces its row; a program
// found already cached keeps the cold time recorded before) and writes the file atomically.
bool recordPrepared(const std::string &cacheDir, const DeviceInfo &device, bool driverCache,
                    const std::vector<PreparedBuild> &builds, double wallS, int jobs, std::string *error = nullptr);

} // namespace fwb
