// The tuning database's save (core/TuningDb) merges under a lock: two writers that loaded the same file
// (a tuner in the window and filter-bench tune, or two windows) each keep their own new shapes and the
// other's; an entry both hold is the saving writer's. Concurrent saves from several threads lose none. An
// entry saved under a variant's former name is found under today's.
#include "Check.h"
#include "TuningDb.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

using namespace fwb;
namespace fs = std::filesystem;

namespace {

TuningEntry entry(const std::string &variant, int localX)
{
    TuningEntry e;
    e.key = {"platform", "device", "driver", "gaussian5x5", variant, "gray8", "hd"};
    e.local = LocalSize{localX, 8};
    e.kernelMs = 0.5;
    e.width = 1920;
    e.height = 1080;
    return e;
}

} // namespace

int main()
{
    const fs::path dir = fs::temp_directory_path() / ("fwb-plain-tuning-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path file = dir / "tuning.json";

    // Two writers that loaded the same (empty) file: both entries survive both saves.
    TuningDb a(file), b(file);
    CHECK(a.load() && b.load());
    a.put(entry("strips_half2", 32));
    b.put(entry("strips", 16));
    CHECK(a.save());
    CHECK(b.save());
    TuningDb reread(file);
    CHECK(reread.load());
    CHECK_EQ(reread.entries().size(), std::size_t(2));
    CHECK(reread.find(entry("strips_half2", 0).key).has_value());
    CHECK(reread.find(entry("strips", 0).key).has_value());

    // The same key in both: the later save's shape stands.
    a.put(entry("strips", 64));
    CHECK(a.save());
    CHECK(reread.load());
    const auto strips = reread.find(entry("strips", 0).key);
    CHECK(strips && strips->local.width == 64);

    // Eight writers at once, each with its own entry: all eight (and the two above) are in the file.
    std::vector<std::thread> writers;
    for (int t = 0; t < 8; ++t)
        writers.emplace_back([&, t] {
            TuningDb db(file);
            db.load();
            db.put(entry("writer" + std::to_string(t), 8 * (t + 1)));
            if (!db.save())
                std::fprintf(stderr, "writer %d could not save\n", t);
        });
    for (std::thread &w : writers)
        w.join();
    CHECK(reread.load());
    CHECK_EQ(reread.entries().size(), std::size_t(10));

    // A shape saved under a variant's former name (gaussian5x5's roofline, now strips: issue 23) is
    // found under today's name, by either name through TuningKey::of, and saved back under today's.
    {
        const fs::path former = dir / "former.json";
        std::ofstream(former) << R"({"version":1,"entries":[{"platform":"platform","device":"device",)"
                                 R"("driver":"driver","filter":"gaussian5x5","variant":"roofline","format":"gray8",)"
                                 R"("size_class":"hd","local":"16x4"}]})";
        TuningDb db(former);
        CHECK(db.load());
        const auto found = db.find(entry("strips", 0).key);
        CHECK(found && found->local.width == 16);
        DeviceInfo device;
        device.platformName = "platform";
        device.name = "device";
        device.driverVersion = "driver";
        CHECK(TuningKey::of(device, "gaussian5x5", "roofline", PixelFormat::Gray8, 1920, 1080) == entry("strips", 0).key);
        CHECK(db.save());
        std::ifstream in(former);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        CHECK(text.find("\"strips\"") != std::string::npos && text.find("roofline") == std::string::npos);
    }
    fs::remove_all(dir);
    return fwb::plain::finish("plain_tuning_merge");
}
