// Session without Qt: each filter's baseline variant on the test card matches the CPU reference, whole
// and in forced tiles, on the default OpenCL device (PoCL in CI). The Qt-free build's smoke test of the
// whole run path (program build, launch plan, transfers, tiles, check).
#include "Catalogue.h"
#include "Check.h"
#include "Devices.h"
#include "Image.h"
#include "Session.h"

#include <cstdio>

using namespace fwb;

int main()
{
    const std::vector<DeviceInfo> devices = listDevices();
    if (devices.empty()) {
        std::printf("plain_session: skipped (no OpenCL device)\n");
        return 0;
    }
    const DeviceInfo &device = devices[std::size_t(std::max(0, defaultDeviceIndex(devices)))];
    Session session(device);
    const Image card = makeTestCard(67, 45, PixelFormat::Rgba8888); // odd sizes: partial work-groups
    int runs = 0;
    for (const FilterSpec &filter : catalogue()) {
        const VariantSpec *variant = baselineVariant(filter);
        CHECK(variant != nullptr);
        if (!variant)
            continue;
        RunRequest request;
        request.filter = filter.name;
        request.variant = variant->name;
        request.params.format = PixelFormat::Gray8;
        request.repeat = 1;
        request.warmup = 0;
        request.cpuSingle = false;
        request.openCvCpuBaseline = false;
        RunResult whole = session.run(card, request);
        if (whole.unavailable)
            continue;
        ++runs;
        if (!whole.error.empty() || !whole.matches)
            plain::fail(__FILE__, __LINE__, filter.name + "/" + variant->name + ": " + whole.error
                                                + " max diff " + std::to_string(whole.maxAbsDiff));
        if (!filter.tileable)
            continue;
        request.tileWidth = 16;
        request.tileHeight = 13;
        RunResult tiled = session.run(card, request);
        if (tiled.unavailable)
            continue;
        if (!tiled.error.empty() || !tiled.matches || tiled.tiles < 2)
            plain::fail(__FILE__, __LINE__, filter.name + "/" + variant->name + " in tiles: " + tiled.error + " ("
                                                + std::to_string(tiled.tiles) + " tiles)");
    }
    CHECK(runs >= 5);
    std::printf("plain_session: %d filters on %s\n", runs, device.name.c_str());
    return plain::finish("plain_session");
}
