// The work-group tuning database as JSON in the cache folder (see TuningDb.h).
#include "TuningDb.h"

#include "AtomicFile.h"
#include "Catalogue.h"
#include "JsonIo.h"
#include "ProgramCache.h"
#include "UtcTime.h"

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <stdexcept>

namespace fwb {

std::string imageSizeClass(int width, int height)
{
    const double mp = double(width) * double(height) / 1e6;
    return mp < 0.25 ? "tiny" : mp < 1 ? "small" : mp < 4 ? "hd" : mp < 16 ? "large" : "huge";
}

TuningKey TuningKey::of(const DeviceInfo &device, const std::string &filter, const std::string &variant,
                        PixelFormat format, int width, int height)
{
    // A former variant name finds the shape tuned under today's (and is saved under it).
    return TuningKey{device.platformName, device.name, device.driverVersion, filter,
                     currentVariantName(filter, variant), formatName(format), imageSizeClass(width, height)};
}

TuningDb::TuningDb(std::filesystem::path file) : m_path(file.empty() ? defaultPath() : std::move(file)) {}

std::filesystem::path TuningDb::defaultPath(const std::string &cacheDir)
{
    if (cacheDir == "-")
        return {};
    std::filesystem::path dir = cacheDir.empty() ? ProgramCache::defaultDiskDir() : cacheDir;
    if (dir.empty())
        return {};
    if (cacheDir.empty() && dir.filename() == "programs") // beside the program binaries, not among them
        dir = dir.parent_path();
    return dir / "tuning.json";
}

namespace {

constexpr int kFormatVersion = 1;

Json keyJson(const TuningKey &k)
{
    return Json::object({{"platform", k.platform},
                         {"device", k.device},
                         {"driver", k.driver},
                         {"filter", k.filter},
                         {"variant", k.variant},
                         {"format", k.format},
                         {"size_class", k.sizeClass}});
}

// Numbers read without undefined behaviour: nlohmann's get<int> on 1e300 converts a double that no
// int holds (UBSan: float-cast-overflow; found by tests/fuzz/fuzz_tuning_db). A wrong type or an
// out-of-range value throws, and load() skips the entry; a missing field or null is 0 (a NaN time
// is saved as null).
int sizeField(const Json &j, const char *key)
{
    if (!j.contains(key) || j[key].is_null())
        return 0;
    const Json &v = j[key];
    if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > kMaxImageSide)
        throw std::runtime_error(std::string("bad \"") + key + "\"");
    return int(v.get<std::int64_t>());
}

double msField(const Json &j, const char *key)
{
    if (!j.contains(key) || j[key].is_null())
        return 0;
    if (!j[key].is_number())
        throw std::runtime_error(std::string("bad \"") + key + "\"");
    return j[key].get<double>();
}

// Throws nlohmann's exceptions on a malformed entry (caught by load()).
TuningEntry entryFromJson(const Json &j)
{
    TuningEntry e;
    e.key.platform = j.at("platform").get<std::string>();
    e.key.device = j.at("device").get<std::string>();
    e.key.driver = j.at("driver").get<std::string>();
    e.key.filter = j.at("filter").get<std::string>();
    e.key.variant = currentVariantName(e.key.filter, j.at("variant").get<std::string>()); // saved under a former name
    e.key.format = j.at("format").get<std::string>();
    e.key.sizeClass = j.at("size_class").get<std::string>();
    std::string error;
    const auto local = LocalSize::parse(j.at("local").get<std::string>(), &error);
    if (!local || !local->isConcrete())
        throw std::runtime_error("bad local size '" + j.at("local").get<std::string>() + "'");
    e.local = *local;
    if (j.contains("block") && !j["block"].is_null()) { // block tunes only; older files have none
        const std::string text = j["block"].get<std::string>();
        const auto block = LocalSize::parse(text);
        if (!block || !block->isConcrete() || block->width > kMaxOutputBlockSide || block->height > kMaxOutputBlockSide)
            throw std::runtime_error("bad block '" + text + "'");
        e.block = *block;
    }
    e.kernelMs = msField(j, "kernel_ms");
    e.defaultMs = msField(j, "default_ms");
    e.defaultLocal = j.value("default_local", std::string());
    e.width = sizeField(j, "width");
    e.height = sizeField(j, "height");
    e.when = j.value("when", std::string());
    return e;
}

// The entries of a tuning file's document; false with `why` when it is not one (no "entries" list).
// Malformed entries are skipped and counted.
bool readEntries(const Json &doc, std::vector<TuningEntry> &out, int &skipped, std::string *why = nullptr)
{
    if (!doc.is_object() || !doc.contains("entries") || !doc["entries"].is_array()) {
        if (why)
            *why = "no \"entries\" list";
        return false;
    }
    for (const Json &item : doc["entries"]) {
        try {
            out.push_back(entryFromJson(item));
        } catch (const std::exception &) {
            ++skipped;
        }
    }
    return true;
}

} // namespace

bool TuningDb::load(std::string *warning)
{
    std::lock_guard lock(m_mutex);
    m_entries.clear();
    std::error_code ec;
    if (m_path.empty() || !std::filesystem::exists(m_path, ec))
        return true;
    std::string error;
    const std::optional<Json> doc = parseJsonFile(m_path, &error);
    auto damaged = [&](const std::string &why) {
        if (warning)
            *warning = "tuning database " + m_path.string() + " is damaged (" + why
                       + "); ignoring it, it will be rewritten";
        return false;
    };
    if (!doc)
        return damaged(error);
    int skipped = 0;
    std::string why;
    if (!readEntries(*doc, m_entries, skipped, &why))
        return damaged(why);
    if (skipped > 0) {
        if (warning)
            *warning = "tuning database " + m_path.string() + ": skipped " + std::to_string(skipped)
                       + " malformed entr" + (skipped == 1 ? "y" : "ies");
        return false;
    }
    return true;
}

bool TuningDb::save(std::string *error) const
{
    if (m_path.empty()) {
        if (error)
            *error = "no tuning database file (the disk cache is off)";
        return false;
    }
    // Read, merge and write under one lock (the file's name + ".lock"): a tuner in the window and
    // filter-bench tune saving at once each keep their own shapes and the other's (an entry this process
    // holds replaces the file's one for the same key; entries only the file holds are kept).
    const FileLock fileLock(m_path.string() + ".lock");
    if (!fileLock.locked()) {
        if (error)
            *error = fileLock.error();
        return false;
    }
    std::vector<TuningEntry> onDisk; // a damaged file or entry: load() said so; it is not carried over
    std::error_code ec;
    int skipped = 0;
    if (std::filesystem::exists(m_path, ec))
        if (const std::optional<Json> old = parseJsonFile(m_path, nullptr))
            readEntries(*old, onDisk, skipped);
    Json doc = Json::object();
    doc["version"] = kFormatVersion;
    doc["note"] = "work-group shapes (and output blocks) found by filter-bench tune / the workbench's tuner";
    Json &list = doc["entries"] = Json::array();
    {
        std::lock_guard lock(m_mutex);
        std::vector<TuningEntry> all = m_entries;
        for (const TuningEntry &e : onDisk)
            if (std::none_of(m_entries.begin(), m_entries.end(), [&](const TuningEntry &mine) { return mine.key == e.key; }))
                all.push_back(e);
        for (const TuningEntry &e : all) {
            Json j = keyJson(e.key);
            j["local"] = e.local.toString();
            if (e.block.isConcrete())
                j["block"] = e.block.toString();
            j["kernel_ms"] = jsonNumber(e.kernelMs);
            j["default_ms"] = jsonNumber(e.defaultMs);
            j["default_local"] = e.defaultLocal;
            j["width"] = e.width;
            j["height"] = e.height;
            j["when"] = e.when;
            list.push_back(std::move(j));
        }
    }
    const std::string text = doc.dump(1) + "\n";
    return writeFileAtomically(m_path, text.data(), text.size(), error);
}

std::optional<TuningEntry> TuningDb::find(const TuningKey &key) const
{
    std::lock_guard lock(m_mutex);
    for (const TuningEntry &e : m_entries)
        if (e.key == key)
            return e;
    return std::nullopt;
}

void TuningDb::put(const TuningEntry &entry)
{
    std::lock_guard lock(m_mutex);
    TuningEntry copy = entry;
    if (copy.when.empty())
        copy.when = utcNow();
    for (TuningEntry &e : m_entries)
        if (e.key == entry.key) {
            e = copy;
            return;
        }
    m_entries.push_back(copy);
}

std::vector<TuningEntry> TuningDb::entries() const
{
    std::lock_guard lock(m_mutex);
    return m_entries;
}

TunedLocalLookup TuningDb::lookup(std::shared_ptr<TuningDb> db)
{
    return [db](const DeviceInfo &device, const RunRequest &request, int width,
                int height) -> std::optional<TunedLaunch> {
        if (!db || !db->enabled())
            return std::nullopt;
        const auto entry = db->find(TuningKey::of(device, request.filter, request.variant, request.params.format,
                                                  width, height));
        if (!entry)
            return std::nullopt;
        return TunedLaunch{entry->local, entry->block};
    };
}

} // namespace fwb
