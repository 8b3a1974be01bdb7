// Session without Qt: each filter's baseline variant on the test card matches the CPU reference, whole
// and in forced tiles, on the default OpenCL device (PoCL in CI). The Qt-free build's smoke test of the
// whole run path (program build, launch plan, transfers, tiles, check). And the CPU code's time, the
// speed-ups' baseline, is a warm one: the first call (cold pages, sleeping pool threads) is not it.
#include "Catalogue.h"
#include "Check.h"
#include "Devices.h"
#include "Image.h"
#include "Session.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

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

    int wideRuns = 0;
    // Sobel's 16-bit outputs (gx, gy as NPP gives them) through the whole run path, each transfer layout the
    // output buffer is sized for (rows padded, packed, mapped): every value exact, the picture that of output 0/1.
    for (const char *variant : {"naive", "stream"})
        for (int output : {3, 4})
            for (TransferMode mode : {TransferMode::Pageable, TransferMode::Pinned, TransferMode::ZeroCopy,
                                      TransferMode::OutputMapped}) {
                RunRequest request;
                request.filter = "sobel";
                request.variant = variant;
                request.params.format = PixelFormat::Gray8;
                request.params.values["output"] = output;
                request.transfer = mode;
                request.repeat = 1;
                request.warmup = 0;
                request.cpuSingle = false;
                request.openCvCpuBaseline = false;
                const RunResult wide = session.run(card, request);
                if (wide.unavailable && mode != TransferMode::Pageable)
                    continue; // a mode this device lacks (said why in wide.error)
                ++wideRuns;
                const std::string what = std::string("sobel/") + variant + " output " + std::to_string(output) + " "
                                         + transferModeName(mode);
                if (!wide.error.empty() || !wide.matches || wide.maxAbsDiff != 0 || wide.outputNote.empty())
                    plain::fail(__FILE__, __LINE__, what + ": " + wide.error + " max diff " + std::to_string(wide.maxAbsDiff));
                request.params.values["output"] = output - 3;
                const RunResult eight = session.run(card, request);
                CHECK(eight.matches && maxAbsDiff(wide.output, eight.output) == 0);
                CHECK(wide.bytesMoved == 3.0 * double(card.width()) * double(card.height()));
            }

    // A filter whose first call is slow (as a cold one is): the multi-threaded time is the median of the
    // calls after it, the one-thread oracle's time is its one call, and the output is the first call's.
    FilterSpec slowStart = *findFilter("box");
    int calls = 0;
    const auto fast = slowStart.cpuReference;
    slowStart.cpuReference = [&calls, fast](const Image &src, Image &dst, const FilterParams &params, int threads) {
        if (calls++ == 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
        fast(src, dst, params, threads);
    };
    FilterParams params;
    params.format = PixelFormat::Rgba8888;
    double multiMs = 0, againMs = 0, singleMs = 0;
    const Image multi = session.cpuReference(card, slowStart, params, 2, &multiMs);
    CHECK(calls >= 3); // the first, then at least two timed
    CHECK(multiMs >= 0 && multiMs < 100);
    const int callsBefore = calls;
    session.cpuReference(card, slowStart, params, 2, &againMs); // cached: neither computed nor timed again
    CHECK(calls == callsBefore && againMs == multiMs);
    calls = 0;
    const Image single = session.cpuReference(card, slowStart, params, 1, &singleMs);
    CHECK(calls == 1 && singleMs >= 300);
    CHECK(multi.sizeBytes() == single.sizeBytes()
          && std::equal(multi.data(), multi.data() + multi.sizeBytes(), single.data()));

    CHECK(wideRuns >= 4);
    std::printf("plain_session: %d filters, %d 16-bit Sobel runs on %s\n", runs, wideRuns, device.name.c_str());
    return plain::finish("plain_session");
}
