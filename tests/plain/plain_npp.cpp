// The `npp` baseline row. Every build: a filter NPP lacks, a border NPP cannot follow and a layout its
// Sobel cannot take each say why; built without NPP, the row says "built without NPP". Built with NPP
// on a machine whose OpenCL device is an NVIDIA GPU: NPP's row on odd-sized pictures matches our
// reference (erode/dilate/box/median/transpose exactly or within the family's tolerance, the median
// on the interior), in both layouts.
#include "Catalogue.h"
#include "Check.h"
#include "Devices.h"
#include "Image.h"
#include "NppBaseline.h"
#include "Session.h"

#include <cstdio>
#include <cstdlib>

using namespace fwb;

int main()
{
    const FilterSpec *iir = findFilter("recursive_gaussian");
    const FilterSpec *erode = findFilter("erode");
    const FilterSpec *sobel = findFilter("sobel");
    CHECK(iir && erode && sobel);
    if (!iir || !erode || !sobel)
        return plain::finish("plain_npp");
    FilterParams params;
    params.border = BorderMode::Replicate;
    CHECK(nppUnsupportedReason(*iir, params).find("no equivalent") != std::string::npos);
    if (nppVersion().empty()) {
        CHECK(nppUnsupportedReason(*erode, params).find("built without NPP") != std::string::npos);
        const OpenCvRun run = runNpp(makeTestCard(8, 8, PixelFormat::Gray8), *erode, params, NppTarget{}, 1, 0);
        CHECK(run.unavailable && run.error.find("built without NPP") != std::string::npos);
    } else {
        params.border = BorderMode::Reflect101;
        CHECK(nppUnsupportedReason(*erode, params).find("replicate") != std::string::npos);
        params.border = BorderMode::Replicate;
        params.format = PixelFormat::Rgba8888;
        CHECK(nppUnsupportedReason(*sobel, params).find("gray8") != std::string::npos);
    }

    // Built with NPP, on an NVIDIA GPU: the rows match the reference.
    const std::vector<DeviceInfo> devices = listDevices();
    const DeviceInfo *nvidia = nullptr;
    for (const DeviceInfo &d : devices)
        if (d.kind == DeviceKind::Gpu && d.vendor.find("NVIDIA") != std::string::npos)
            nvidia = &d;
    if (nppVersion().empty() || !nvidia) {
        std::printf("plain_npp: %s; the NPP rows were not run\n",
                    nppVersion().empty() ? "built without NPP" : "no NVIDIA OpenCL device");
        return plain::finish("plain_npp");
    }
    Session session(*nvidia);
    int matched = 0;
    for (const char *name : {"erode", "dilate", "box", "median3x3", "median5x5", "transpose", "gaussian5x5", "sobel"})
        for (PixelFormat format : {PixelFormat::Gray8, PixelFormat::Rgba8888}) {
            const FilterSpec *filter = findFilter(name);
            CHECK(filter != nullptr);
            if (!filter)
                continue;
            RunRequest request;
            request.filter = name;
            request.params.format = format;
            request.params.border = BorderMode::Replicate;
            if (std::string(name) == "sobel")
                request.params.values["output"] = 0;
            request.repeat = 2;
            request.warmup = 1;
            request.cpuSingle = false;
            request.openCvCpuBaseline = false;
            request.keepOutput = true;
            const Image card = makeTestCard(203, 97, format); // odd sizes, opaque
            const RunResult r = session.runBaseline(card, request, Baseline::Npp);
            if (r.unavailable)
                continue;
            ++matched;
            // NPP 13.0's single-channel nppiFilterGaussAdvancedBorder disagrees with its own four-channel
            // version and with ours by up to 104 levels inside the picture (H100, every size tried); the row
            // says MISMATCH on screen. Recorded here, not hidden: the other 15 rows must match.
            if (std::string(name) == "gaussian5x5" && format == PixelFormat::Gray8 && r.error.empty() && !r.matches) {
                std::printf("plain_npp: known NPP discrepancy: gaussian5x5 gray8 max diff %d\n", r.maxAbsDiff);
                continue;
            }
            if (!r.error.empty() || !r.checked || !r.matches) {
                std::string where; // the first pixel that differs, to tell a border from a systematic error
                const Image ref = session.cpuReference(card, *filter, request.params, 1, nullptr);
                for (int y = 0; y < ref.height() && where.empty() && !r.output.isNull(); ++y)
                    for (int x = 0; x < ref.width() * ref.channels() && where.empty(); ++x)
                        if (std::abs(int(ref.row(y)[x]) - int(r.output.row(y)[x])) > r.tolerance)
                            where = " first at byte " + std::to_string(x) + " of row " + std::to_string(y) + ": "
                                    + std::to_string(r.output.row(y)[x]) + " against "
                                    + std::to_string(ref.row(y)[x]);
                plain::fail(__FILE__, __LINE__, std::string(name) + " " + formatName(format) + ": " + r.error
                                                    + " max diff " + std::to_string(r.maxAbsDiff) + where + " via "
                                                    + r.baselineCall);
            }
        }
    CHECK(matched >= 14);
    std::printf("plain_npp: %d NPP rows checked on %s with %s\n", matched, nvidia->name.c_str(), nppVersion().c_str());
    return plain::finish("plain_npp");
}
