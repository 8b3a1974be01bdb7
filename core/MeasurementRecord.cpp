#include "MeasurementRecord.h"

#include "Catalogue.h"
#include "JsonIo.h"
#include "ResultJson.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <system_error>
#include <tuple>

#ifndef FWB_SOURCE_MEASUREMENTS_DIR
#define FWB_SOURCE_MEASUREMENTS_DIR ""
#endif

namespace fwb {

namespace fs = std::filesystem;

const RunResult *MeasurementRecord::result(const std::string &asked) const
{
    const std::string variant = currentVariantName(filter(), asked); // a former name finds today's
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
        for (RunResult &result : r.results) // a record kept under a variant's former name reads as today's
            result.variant = currentVariantName(result.filter, result.variant);
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

std::shared_ptr<const std::vector<MeasurementRecord>> installedMeasurementRecords()
{
    static std::mutex mutex;
    static std::string loadedFrom;
    static std::shared_ptr<const std::vector<MeasurementRecord>> records;
    const fs::path dir = findMeasurementDir();
    std::lock_guard lock(mutex);
    if (!records || loadedFrom != dir.string()) {
        records = std::make_shared<const std::vector<MeasurementRecord>>(
            dir.empty() ? std::vector<MeasurementRecord>{} : loadMeasurementRecords(dir));
        loadedFrom = dir.string();
    }
    return records;
}

namespace {

int formatOrder(const std::string &format)
{
    return format == "gray8" ? 0 : format == "rgba8888" ? 1 : 2;
}

std::string formatMs(double ms)
{
    char text[32];
    std::snprintf(text, sizeof text, ms < 0.1 ? "%.4f" : ms < 10 ? "%.3f" : "%.1f", ms);
    return text;
}

std::string paramsText(const std::map<std::string, double> &params)
{
    std::string text;
    for (const auto &[key, value] : params) {
        char number[32];
        std::snprintf(number, sizeof number, "%g", value);
        text += (text.empty() ? "" : ", ") + key + " " + number;
    }
    return text;
}

} // namespace

std::vector<VariantRecord> variantRecords(const std::vector<MeasurementRecord> &records, const std::string &filter,
                                          const std::string &variant)
{
    // device -> format -> the newest pageable record holding a result of this variant
    std::map<std::string, std::map<std::string, const MeasurementRecord *>> byDevice;
    for (const MeasurementRecord &r : records) {
        if (r.filter() != filter || r.transfer != "pageable")
            continue;
        const RunResult *result = r.result(variant);
        if (!result || !result->ok() || result->kernelMs.median <= 0)
            continue;
        const MeasurementRecord *&slot = byDevice[r.deviceName][r.format];
        if (!slot || r.date > slot->date)
            slot = &r;
    }
    std::vector<VariantRecord> out;
    for (const auto &[device, formats] : byDevice) {
        VariantRecord entry;
        std::vector<const MeasurementRecord *> picked;
        for (const auto &[format, record] : formats)
            picked.push_back(record);
        std::sort(picked.begin(), picked.end(), [](const MeasurementRecord *a, const MeasurementRecord *b) {
            return formatOrder(a->format) < formatOrder(b->format);
        });
        entry.record = picked.front();
        entry.params = paramsText(picked.front()->result(variant)->params);
        for (const MeasurementRecord *record : picked) {
            const RunResult &result = *record->result(variant);
            VariantRecord::Figure figure;
            figure.format = record->format;
            figure.kernelMs = result.kernelMs.median;
            if (record->copyGBps > 0 && result.gbps > 0)
                figure.pctCopy = 100.0 * result.gbps / record->copyGBps;
            entry.figures.push_back(figure);
        }
        out.push_back(std::move(entry));
    }
    std::stable_sort(out.begin(), out.end(), [](const VariantRecord &a, const VariantRecord &b) {
        return (a.record->deviceKind == DeviceKind::Gpu) > (b.record->deviceKind == DeviceKind::Gpu);
    });
    return out;
}

std::string variantRecordSentence(const VariantRecord &entry)
{
    const MeasurementRecord &r = *entry.record;
    std::string text = r.deviceName + " (";
    if (!r.driverVersion.empty())
        text += "driver " + r.driverVersion + ", ";
    text += r.date + "), " + std::to_string(r.width) + "x" + std::to_string(r.height)
            + (r.imageSource.empty() ? "" : " " + r.imageSource) + (entry.params.empty() ? "" : ", " + entry.params)
            + ": kernel";
    for (std::size_t i = 0; i < entry.figures.size(); ++i) {
        const VariantRecord::Figure &f = entry.figures[i];
        text += (i ? ", " : " ") + formatMs(f.kernelMs) + " ms " + f.format;
        if (f.pctCopy >= 0)
            text += " (" + std::to_string(int(f.pctCopy + 0.5)) + (i ? "%)" : "% of its copy bandwidth)");
    }
    return text;
}

} // namespace fwb
