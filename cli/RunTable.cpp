// printTable and printSweepMatrix (see RunTable.h).
#include "RunTable.h"

#include "Devices.h"
#include "Image.h"
#include "Session.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace fwb::cli {

namespace {

std::string fmtMs(double ms)
{
    char b[32];
    std::snprintf(b, sizeof b, ms < 0 ? "-" : ms < 10 ? "%.3f" : ms < 1000 ? "%.2f" : "%.0f", ms);
    return b;
}

// "sigma=2 radius=3": a run's parameter values, shortest form.
std::string paramsText(const std::map<std::string, double> &params)
{
    std::string text;
    for (const auto &[name, value] : params) {
        char b[64];
        std::snprintf(b, sizeof b, "%s%s=%g", text.empty() ? "" : " ", name.c_str(), value);
        text += b;
    }
    return text.empty() ? "-" : text;
}

// "auto (16x8, tuned, block 4x8)": the launch shape, and the output block when it is not the variant's own.
std::string shapeLabel(const RunResult &r)
{
    const std::string label = launchShapeLabel(r.local, r.localSource);
    if (!r.block.isConcrete() || r.blockSource == LocalSource::Default)
        return label;
    const std::string block = "block " + r.block.toString();
    return label.back() == ')' ? label.substr(0, label.size() - 1) + ", " + block + ")" : label + " (" + block + ")";
}

} // namespace

void printTable(const DeviceInfo &device, double copyGBps, const Image &image, const std::string &source,
                const std::vector<RunResult> &results, bool showParams)
{
    // The leading columns name the run; a sweep adds its parameter values.
    auto lead = [&](const std::string &filter, const std::string &variant, const std::string &params,
                    const std::string &local) {
        char b[160];
        std::snprintf(b, sizeof b, "%-18s %-24s %s%-7s", filter.c_str(), variant.c_str(),
                      showParams ? (params + std::string(params.size() < 12 ? 12 - params.size() : 0, ' ') + " ").c_str()
                                 : "",
                      local.c_str());
        return std::string(b);
    };
    std::printf("Device: %s [%s]  copy bandwidth %.1f GB/s\n", device.summary().c_str(), device.spec().c_str(), copyGBps);
    std::printf("Image:  %dx%d %s (%s)\n", image.width(), image.height(), formatName(image.format()), source.c_str());
    const bool pinned = !results.empty() && results.front().transfer == "pinned";
    // One transfer line under each row when the copies are not plain pageable ones, or the image was tiled.
    const bool transferLines = std::any_of(results.begin(), results.end(), [](const RunResult &r) {
        return r.transfer != std::string("pageable") || r.tiles > 1 || r.uploadPctOfProbe >= 0;
    });
    std::printf("Copies: %s\n\n", transferLines ? "per row below (transfer mode, GB/s, % of the bandwidth probe, end to end)"
                                   : pinned ? "through pinned (page-locked) host buffers; the one memcpy into and out of "
                                            "them per run is staging_ms in --json, not in upload/download"
                                          : "straight from/to the image in ordinary (pageable) host memory");
    std::printf("%s %9s %8s %10s %19s %9s %8s %6s %9s %9s %9s %8s %8s %s\n",
                lead("filter", "variant", "params", "local").c_str(), "build ms", "upload", "kernel md", "(min..max)",
                "download", "GB/s", "%copy", "cpu1 ms", "cpuN ms", "opencv ms", "speedup", "e2e", "check");
    std::string fastestCpu;
    for (const RunResult &r : results) {
        const std::string head = lead(r.filter, r.variant, paramsText(r.params),
                                      r.baseline ? std::string("-") : shapeLabel(r));
        if (!r.ok()) {
            std::printf("%s %s%s: %s\n", head.c_str(),
                        r.expectedFailure ? "EXPECTED FAILURE" : r.unavailable ? "UNAVAILABLE" : "ERROR",
                        transferLines ? (" (" + r.transfer + ")").c_str() : "", r.error.c_str());
            if (!r.buildLog.empty())
                std::printf("build log:\n%s\n", r.buildLog.c_str());
            continue;
        }
        const std::string range = "(" + fmtMs(r.kernelMs.min) + ".." + fmtMs(r.kernelMs.max) + ")";
        char check[48];
        if (r.checked)
            std::snprintf(check, sizeof check, "%s (max diff %d)", r.matches ? "ok" : "MISMATCH", r.maxAbsDiff);
        else
            std::snprintf(check, sizeof check, "-");
        std::printf("%s %9s %8s %10s %19s %9s %8.1f %5.1f%% %9s %9s %9s %7.1fx %7.2fx %s\n", head.c_str(),
                    (fmtMs(r.buildMs) + (r.buildCached ? "*" : "")).c_str(), fmtMs(r.uploadMs).c_str(),
                    fmtMs(r.kernelMs.median).c_str(), range.c_str(), fmtMs(r.downloadMs).c_str(), r.gbps,
                    copyGBps > 0 ? 100.0 * r.gbps / copyGBps : 0.0, fmtMs(r.cpuSingleMs).c_str(),
                    fmtMs(r.cpuMultiMs).c_str(), fmtMs(r.openCvCpuMs).c_str(), r.speedupVsCpu,
                    r.speedupTotalVsCpu, check);
        if (!r.cpuBestLabel.empty())
            fastestCpu = r.cpuBestLabel;
        if (transferLines && !r.baseline) {
            auto pct = [](double p) { return p >= 0 ? " " + std::to_string(int(std::lround(p))) + "% of probe" : std::string(); };
            std::printf("    %-13s up %s ms %.2f GB/s%s, down %s ms %.2f GB/s%s, staging %s, end to end %s ms",
                        r.transfer.c_str(), fmtMs(r.uploadMs).c_str(), r.uploadGBps, pct(r.uploadPctOfProbe).c_str(),
                        fmtMs(r.downloadMs).c_str(), r.downloadGBps, pct(r.downloadPctOfProbe).c_str(),
                        (fmtMs(r.stagingMs) + " ms"
                         + (r.transferNote.rfind("page-locked image", 0) == 0 ? " (image page-locked)" : ""))
                            .c_str(),
                        fmtMs(r.endToEndMs).c_str());
            if (r.tiles > 1)
                std::printf("; %d tiles of %dx%d (halo %d) on %d queues, overlap %.0f%% (stages %s ms in %s ms)",
                            r.tiles, r.tileWidth, r.tileHeight, r.tileHalo, r.streams, r.overlapPct,
                            fmtMs(r.stagesMs).c_str(), fmtMs(r.totalMs).c_str());
            std::printf("%s\n", r.reuploaded ? "" : "; upload skipped: image resident");
        }
        if (!r.outputNote.empty() && !r.baseline)
            std::printf("    output: %s\n", r.outputNote.c_str());
    }
    if (!fastestCpu.empty())
        std::printf("\nFastest CPU code (the speedups' baseline): %s.", fastestCpu.c_str());
    std::printf("\nTimes in ms: kernel = device time from profiling events (median of repeats); build * = cached "
                "binary.\nGB/s = (input + output bytes) / kernel time; %%copy = that against this device's own "
                "buffer-copy bandwidth.\nspeedup = fastest CPU time (ours or OpenCV's, all threads) / kernel median; "
                "e2e = the same / (upload + kernel + download).\nopencv_cpu / opencv_tapi rows: OpenCV on the CPU and "
                "through OpenCL on this device, wall time per call (T-API: up to cv::ocl::finish());\nnpp row: NVIDIA's NPP "
                "library on the same GPU, CUDA event time per call (picture uploaded once).\n");
}

void printSweepMatrix(const std::vector<PlannedRun> &plan, const std::vector<RunResult> &results)
{
    std::vector<std::string> rows, columns;
    std::map<std::pair<std::string, int>, std::string> cells;
    for (std::size_t i = 0; i < plan.size() && i < results.size(); ++i) {
        const RunResult &r = results[i];
        const std::string row = r.filter + "/" + r.variant;
        if (std::find(rows.begin(), rows.end(), row) == rows.end())
            rows.push_back(row);
        if (std::size_t(plan[i].combo) >= columns.size())
            columns.push_back(paramsText(r.params));
        cells[{row, plan[i].combo}] = r.ok() ? fmtMs(r.kernelMs.median) + (r.matches ? "" : "!")
                                             : (r.unavailable ? "u" : r.expectedFailure ? "e" : "x");
    }
    std::size_t width = 10;
    for (const std::string &c : columns)
        width = std::max(width, c.size() + 1);
    std::printf("\nKernel median ms over the sweep (! = mismatch, x = error, u = unavailable, e = expected failure):\n");
    std::printf("%-44s", "filter/variant");
    for (const std::string &c : columns)
        std::printf(" %*s", int(width), c.c_str());
    std::printf("\n");
    for (const std::string &row : rows) {
        std::printf("%-44s", row.c_str());
        for (std::size_t c = 0; c < columns.size(); ++c) {
            const auto it = cells.find({row, int(c)});
            std::printf(" %*s", int(width), it == cells.end() ? "" : it->second.c_str());
        }
        std::printf("\n");
    }
}

} // namespace fwb::cli
