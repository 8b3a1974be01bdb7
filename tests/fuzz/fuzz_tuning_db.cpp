// Fuzz target: the work-group tuning database (TuningDb::load through JsonIo's parseJsonFile), a JSON
// file in the cache folder that other versions, other processes and people edit. Beyond "no crash
// and no uncaught exception": every entry it keeps has a concrete shape, finds itself by its key, and
// survives a save and a reload unchanged.
#include "FuzzSupport.h"
#include "JsonIo.h"
#include "TuningDb.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    // The parser alone, on the same bytes: a failure names line and column.
    std::string parseError;
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    if (!fwb::parseJson(text, "fuzz.json", &parseError) && parseError.rfind("fuzz.json:", 0) != 0)
        std::abort();

    const auto path = fwb::fuzz::writeInput("tuning.json", data, size);
    fwb::TuningDb db(path);
    std::string warning;
    const bool clean = db.load(&warning);
    if (!clean && warning.empty())
        std::abort(); // a damaged file must be named in a warning
    const auto entries = db.entries();
    for (const fwb::TuningEntry &e : entries) {
        if (!e.local.isConcrete())
            std::abort();
        if (!db.find(e.key))
            std::abort();
        (void)e.local.toString();
    }
    if (!entries.empty()) {
        // A fresh file each time: save() merges with what the file already holds (another writer's
        // shapes), so the previous input's entries would otherwise come back.
        std::error_code ec;
        std::filesystem::remove(fwb::fuzz::scratchDir() / "tuning-saved.json", ec);
        fwb::TuningDb copy(fwb::fuzz::scratchDir() / "tuning-saved.json");
        for (const fwb::TuningEntry &e : entries)
            copy.put(e);
        if (!copy.save())
            std::abort();
        fwb::TuningDb reread(copy.path());
        if (!reread.load() || reread.entries().size() != copy.entries().size())
            std::abort();
    }
    return 0;
}
