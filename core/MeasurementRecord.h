// MeasurementRecord: results of a real device kept in the repository (data/measurements/), so that a
// computer without that device can still show what it measured, always as "recorded on <device>,
// driver <x>, <date> - not measured on this computer" (issue 24: honest without a GPU).
//
// A record file is data/measurements/<device-slug>/<filter>-<format>-<transfer>.json: exactly the
// JSON object `filter-bench run --json-file F` writes (device{name, driver_version, type, ...},
// copy_gbps, image{width, height, format, source}, border, repeat, transfer, results[...] in the run
// schema of ResultJson.h) plus one top-level key "record": {"commit", "date" (YYYY-MM-DD), "command"}.
// Qt-free: the window's lesson and any front end read it through here.
#pragma once

#include "Devices.h"
#include "Session.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace fwb {

struct MeasurementRecord
{
    std::string path;           // the file it came from
    std::string deviceName;     // "NVIDIA H100 80GB HBM3"
    std::string driverVersion;  // "550.54.15"
    DeviceKind deviceKind = DeviceKind::Other;
    double copyGBps = 0;        // the device's copy bandwidth in that run (0: not measured)
    int width = 0, height = 0;  // the picture's size
    std::string format;         // "gray8", "rgba8888"
    std::string imageSource;    // "synthetic 6720x4480", a file name
    std::string border;
    std::string transfer;       // "pageable", "pinned", ...
    int repeat = 0;
    std::string commit, date, command; // the "record" key: which code, which day, which command
    std::vector<RunResult> results;    // one per variant (the run schema's from_json)

    // The result of that variant (by its name or a former one), nullptr when the record has none.
    const RunResult *result(const std::string &variant) const;
    // The filter the results are of ("" when none).
    std::string filter() const { return results.empty() ? std::string() : results.front().filter; }
    // "NVIDIA H100 80GB HBM3, driver 550.54.15, 2026-11-26"
    std::string provenance() const;
};

// Reads one record file. False and a sentence in *error when the file cannot be read, is not JSON,
// lacks the "record" key, its date or a device name, or holds no results.
bool loadMeasurementRecord(const std::filesystem::path &path, MeasurementRecord &out, std::string *error = nullptr);

// Every record under dir/<device-slug>/*.json, sorted by path; files that fail are skipped and their
// reasons appended to *errors.
std::vector<MeasurementRecord> loadMeasurementRecords(const std::filesystem::path &dir,
                                                      std::vector<std::string> *errors = nullptr);

// Where the records are looked for, first that exists wins: $FWB_MEASUREMENTS_DIR, then beside an
// installed executable (<exeDir>/../share/opencl-filter-workbench/measurements), then the source
// tree's data/measurements (a build folder's executables). exeDir: the running program's folder
// ("" : /proc/self/exe's).
std::vector<std::filesystem::path> measurementDirCandidates(const std::filesystem::path &exeDir = {});
// The first candidate that is a folder; empty when none.
std::filesystem::path findMeasurementDir(const std::filesystem::path &exeDir = {});

// The records of one device that fit a lesson: the same filter, the pageable run and (when kept) the
// pinned one. Records of the asked format come first; another format of the filter is taken when the
// asked one was not recorded (formatMatches says so).
struct RecordPair
{
    const MeasurementRecord *pageable = nullptr;
    const MeasurementRecord *pinned = nullptr;
    bool formatMatches = false;
    bool found() const { return pageable != nullptr; }
};
RecordPair pickRecords(const std::vector<MeasurementRecord> &records, const std::string &filter,
                       const std::string &format);

// The records found by findMeasurementDir(), read once per folder and process (thread-safe: the list
// is shared and never changes; a changed FWB_MEASUREMENTS_DIR reads the new folder). Empty when none.
std::shared_ptr<const std::vector<MeasurementRecord>> installedMeasurementRecords();

// What one device's records say of one variant: its kernel time in each recorded format (the
// pageable runs; kernel time does not depend on the transfer), where the catalogue's descriptions
// used to carry perishable figures in prose.
struct VariantRecord
{
    struct Figure
    {
        std::string format; // "gray8"
        double kernelMs = 0; // median of the record's repeats
        double pctCopy = -1; // of that run's device copy bandwidth (-1: not measured)
    };
    const MeasurementRecord *record = nullptr; // the first of the device's records (provenance, picture)
    std::string params;                        // "radius 2" (the parameters as run; "" when none)
    std::vector<Figure> figures;               // gray8 first, then rgba8888, ...
};
// One entry per recorded device that has this variant, GPUs first; the newest record of each format.
std::vector<VariantRecord> variantRecords(const std::vector<MeasurementRecord> &records, const std::string &filter,
                                          const std::string &variant);
// "NVIDIA H100 80GB HBM3 (driver 580.159.04, 2026-11-26), 1920x1080 test card, radius 2: kernel 0.0155 ms
// gray8 (46% of its copy bandwidth), 0.0611 ms rgba8888 (47%)". Plain text.
std::string variantRecordSentence(const VariantRecord &record);

} // namespace fwb
