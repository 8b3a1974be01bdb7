// The work-group tuning database: the best shape the tuner found per platform, device, driver,
// filter/variant, pixel format and image-size class, as JSON in the cache folder. The default launch
// (auto) uses an entry when one matches (SessionOptions::tunedLocal) and says so: "auto (32x8, tuned)";
// an entry from a block tune also names the output block the run then builds ("block 4x8", tuned).
// A damaged file is ignored with a warning and rewritten on the next save; it never stops a run.
#pragma once

#include "Session.h"

#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace fwb {

// "tiny" (< 0.25 MP), "small" (< 1 MP), "hd" (< 4 MP: 1920x1080), "large" (< 16 MP: 4K),
// "huge" (6720x4480 and up). Shapes tuned on one class are not trusted for another.
std::string imageSizeClass(int width, int height);

struct TuningKey
{
    std::string platform, device, driver, filter, variant, format, sizeClass;
    static TuningKey of(const DeviceInfo &device, const std::string &filter, const std::string &variant,
                        PixelFormat format, int width, int height);
    bool operator==(const TuningKey &) const = default;
};

struct TuningEntry
{
    TuningKey key;
    LocalSize local;        // the best shape found
    LocalSize block;        // block variants tuned with --blocks: the best output block; 0x0: the variant's own
    double kernelMs = 0;    // its median kernel time
    double defaultMs = 0;   // the default launch's (auto, untuned) on the same image; 0 unknown
    std::string defaultLocal; // what that default launched, e.g. "32x8"
    int width = 0, height = 0; // the image it was tuned on
    std::string when;       // UTC, ISO 8601
};

class TuningDb
{
public:
    // `file` empty: defaultPath().
    explicit TuningDb(std::filesystem::path file = {});

    // <cacheDir>/tuning.json; cacheDir empty: the program cache's default folder ($FWB_CACHE_DIR,
    // $XDG_CACHE_HOME/opencl-filter-workbench, ~/.cache/...). "-" (no disk cache): no file.
    static std::filesystem::path defaultPath(const std::string &cacheDir = {});
    const std::filesystem::path &path() const { return m_path; }

    // Reads the file. A missing file is an empty database; a damaged one (bad JSON, wrong shape) is
    // ignored: returns false with `warning` naming the file and the problem, the database is empty
    // and the next save() rewrites the file. Entries that are malformed are skipped with a warning.
    bool load(std::string *warning = nullptr);
    bool save(std::string *error = nullptr) const; // atomic write

    std::optional<TuningEntry> find(const TuningKey &key) const;
    void put(const TuningEntry &entry); // replaces an entry with the same key
    std::vector<TuningEntry> entries() const;

    // A SessionOptions::tunedLocal hook reading this database (shared: the tuner may add entries while
    // a session uses it). While `enabled` is false it answers nothing (--no-tuned, the tuner's own
    // default-launch measurement).
    static TunedLocalLookup lookup(std::shared_ptr<TuningDb> db);
    void setEnabled(bool enabled) { m_enabled = enabled; }
    bool enabled() const { return m_enabled; }

private:
    std::filesystem::path m_path;
    mutable std::mutex m_mutex;
    std::vector<TuningEntry> m_entries;
    std::atomic<bool> m_enabled{true};
};

} // namespace fwb
