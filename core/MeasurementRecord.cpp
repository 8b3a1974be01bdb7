#include "MeasurementRecord.h"

#include "JsonIo.h"
#include "ResultJson.h"

#include <algorithm>
#include <cstdlib>
#include <system_error>
#include <tuple>

#ifndef FWB_SOURCE_MEASUREMENTS_DIR
#define FWB_SOURCE_MEASUREMENTS_DIR ""
#endif

namespace fwb {

namespace fs = std::filesystem;

const RunResult *MeasurementRecord::result(const std::string &variant) const
{
    for (const RunResult &r : results)
        if (r.variant == variant)
            return &r;
    return nullptr;
}

std::string MeasurementRecord::provenance() const
{
    std::string text = deviceName;
    if (!driverVersion.empty())
        text += ", driver " + driverVersion;
    if (!date.empty())
        text += ", " + date;
    return text;
}

namespace {

std::string text(const Json &j, const char *key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

double number(const Json &j, const char *key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

DeviceKind kindFromName(const std::string &name)
{
    for (DeviceKind k : {DeviceKind::Gpu, DeviceKind::Cpu, DeviceKind::Accelerator, DeviceKind::Other})
        if (name == deviceKindName(k))
            return k;
    return DeviceKind::Other;
}

bool fail(std::string *error, const std::string &reason)
{
    if (error)
        *error = reason;
    return false;
}

} // namespace

bool loadMeasurementRecord(const fs::path &path, MeasurementRecord &out, std::string *error)
{
    std::string why;
    const std::optional<Json> parsed = parseJsonFile(path, &why);
    if (!parsed)
        return fail(error, why);
    const Json &j = *parsed;
    const std::string where = path.string() + ": ";
    if (!j.is_object())
        return fail(error, where + "not a JSON object");
    const auto record = j.find("record");
    if (record == j.end() || !record->is_object())
        return fail(error, where + "no \"record\" key (commit, date, command): not a kept measurement");
    const auto device = j.find("device");
    if (device == j.end() || !device->is_object() || text(*device, "name").empty())
        return fail(error, where + "no device name");
    const auto results = j.find("results");
    if (results == j.end() || !results->is_array() || results->empty())
        return fail(error, where + "no results");

    MeasurementRecord r;
    r.path = path.string();
    r.deviceName = text(*device, "name");
    r.driverVersion = text(*device, "driver_version");
    r.deviceKind = kindFromName(text(*device, "type"));
    r.copyGBps = number(j, "copy_gbps");
    if (const auto image = j.find("image"); image != j.end() && image->is_object()) {
        r.width = int(number(*image, "width"));
        r.height = int(number(*image, "height"));
        r.format = text(*image, "format");
        r.imageSource = text(*image, "source");
    }
    r.border = text(j, "border");
    r.transfer = text(j, "transfer");
    r.repeat = int(number(j, "repeat"));
    r.commit = text(*record, "commit");
    r.date = text(*record, "date");
    r.command = text(*record, "command");
    if (r.date.empty())
        return fail(error, where + "the \"record\" key has no date");
    try {
        for (const Json &row : *results)
            r.results.push_back(row.get<RunResult>());
    } catch (const std::exception &e) {
        return fail(error, where + "a result does not read: " + e.what());
    }
    if (r.format.empty())
        r.format = r.results.front().format;
    if (r.transfer.empty())
        r.transfer = r.results.front().transfer;
    out = std::move(r);
    return true;
}

std::vector<MeasurementRecord> loadMeasurementRecords(const fs::path &dir, std::vector<std::string> *errors)
{
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec) && it->path().extension() == ".json")
            files.push_back(it->path());
    if (ec && errors)
        errors->push_back(dir.string() + ": " + ec.message());
    std::sort(files.begin(), files.end());
    std::vector<MeasurementRecord> records;
    for (const fs::path &file : files) {
        MeasurementRecord r;
        std::string error;
        if (loadMeasurementRecord(file, r, &error))
            records.push_back(std::move(r));
        else if (errors)
            errors->push_back(error);
    }
    return records;
}

std::vector<fs::path> measurementDirCandidates(const fs::path &exeDir)
{
    std::vector<fs::path> dirs;
    if (const char *env = std::getenv("FWB_MEASUREMENTS_DIR"); env && *env)
        dirs.emplace_back(env);
    fs::path exe = exeDir;
    if (exe.empty()) {
        std::error_code ec;
        const fs::path self = fs::read_symlink("/proc/self/exe", ec);
        if (!ec)
            exe = self.parent_path();
    }
    if (!exe.empty())
        dirs.push_back(exe / ".." / "share" / "opencl-filter-workbench" / "measurements");
    if (*FWB_SOURCE_MEASUREMENTS_DIR)
        dirs.emplace_back(FWB_SOURCE_MEASUREMENTS_DIR);
    return dirs;
}

fs::path findMeasurementDir(const fs::path &exeDir)
{
    for (const fs::path &dir : measurementDirCandidates(exeDir)) {
        std::error_code ec;
        if (fs::is_directory(dir, ec))
            return dir.lexically_normal();
    }
    return {};
}

RecordPair pickRecords(const std::vector<MeasurementRecord> &records, const std::string &filter,
                       const std::string &format)
{
    // The pageable record to show: the asked format first, then a GPU's, then the newest.
    auto score = [&](const MeasurementRecord &r) {
        return std::tuple(r.format == format, r.deviceKind == DeviceKind::Gpu, r.date);
    };
    RecordPair pick;
    for (const MeasurementRecord &r : records) {
        if (r.filter() != filter || r.transfer != "pageable")
            continue;
        if (!pick.pageable || score(r) > score(*pick.pageable))
            pick.pageable = &r;
    }
    if (!pick.pageable)
        return pick;
    pick.formatMatches = pick.pageable->format == format;
    for (const MeasurementRecord &r : records)
        if (r.filter() == filter && r.transfer == "pinned" && r.deviceName == pick.pageable->deviceName
            && r.format == pick.pageable->format && (!pick.pinned || r.date > pick.pinned->date))
            pick.pinned = &r;
    return pick;
}

} // namespace fwb
