// deviceJson, runResultJson and filterJson (see ResultJson.h).
#include "ResultJson.h"

#include "Catalogue.h"
#include "Devices.h"
#include "Session.h"

#include <cstdint>

namespace fwb {

namespace {

// Empty text is "not there": null.
Json textOrNull(const std::string &text) { return text.empty() ? Json(nullptr) : Json(text); }

// Negative means "not measured": null.
Json measuredOrNull(double value) { return value < 0 ? Json(nullptr) : jsonNumber(value); }

} // namespace

Json deviceJson(const DeviceInfo &d)
{
    Json j = Json::object();
    j["spec"] = d.spec();
    j["name"] = d.name;
    j["vendor"] = d.vendor;
    j["type"] = deviceKindName(d.kind);
    j["platform"] = d.platformName;
    j["platform_version"] = d.platformVersion;
    j["driver_version"] = d.driverVersion;
    j["opencl_version"] = d.openclVersion;
    j["opencl_c_version"] = d.openclCVersion;
    j["opencl_c_max"] = std::to_string(d.openclCMajor) + "." + std::to_string(d.openclCMinor);
    j["compute_units"] = std::int64_t(d.computeUnits);
    j["max_clock_mhz"] = std::int64_t(d.maxClockMHz);
    j["max_work_group_size"] = std::int64_t(d.maxWorkGroupSize);
    Json &items = j["max_work_item_sizes"] = Json::array();
    for (std::size_t s : d.maxWorkItemSizes)
        items.push_back(std::int64_t(s));
    j["local_mem_bytes"] = std::int64_t(d.localMemSize);
    j["local_mem_type"] = d.localMemDedicated ? "local" : "global";
    j["global_mem_bytes"] = std::int64_t(d.globalMemSize);
    j["max_alloc_bytes"] = std::int64_t(d.maxAllocSize);
    j["image_support"] = d.imageSupport;
    j["non_uniform_work_groups"] = d.nonUniformWorkGroups;
    j["host_unified_memory"] = d.hostUnifiedMemory;
    Json &widths = j["preferred_vector_width"] = Json::object();
    widths["char"] = std::int64_t(d.preferredVectorWidthChar);
    widths["short"] = std::int64_t(d.preferredVectorWidthShort);
    widths["int"] = std::int64_t(d.preferredVectorWidthInt);
    widths["float"] = std::int64_t(d.preferredVectorWidthFloat);
    widths["double"] = std::int64_t(d.preferredVectorWidthDouble);
    j["timer_resolution_ns"] = std::int64_t(d.timerResolutionNs);
    j["emulator"] = d.isEmulator;
    return j;
}

Json runResultJson(const RunResult &r)
{
    Json j = Json::object();
    j["filter"] = r.filter;
    j["variant"] = r.variant;
    Json &params = j["params"] = Json::object();
    for (const auto &[name, value] : r.params)
        params[name] = jsonNumber(value);
    j["format"] = r.format;
    j["border"] = textOrNull(r.border);
    j["device"] = r.device;
    j["device_spec"] = r.deviceSpec;
    j["local"] = r.local.toString();
    j["local_source"] = localSourceName(r.localSource);
    j["local_label"] = launchShapeLabel(r.local, r.localSource);
    const bool block = r.block.isConcrete(); // block variants: the output block per work-item, and whose
    j["block"] = block ? Json(r.block.toString()) : Json();
    j["block_source"] = block ? Json(localSourceName(r.blockSource)) : Json();
    j["global"] = Json::array({std::int64_t(r.global[0]), std::int64_t(r.global[1])});
    j["build_options"] = r.buildOptions;
    j["build_ms"] = jsonNumber(r.buildMs);
    j["build_cached"] = r.buildCached;
    j["build_origin"] = r.buildOrigin;
    j["transfer"] = r.transfer;
    j["transfer_note"] = textOrNull(r.transferNote);
    j["staging_ms"] = jsonNumber(r.stagingMs);
    j["upload_ms"] = jsonNumber(r.uploadMs);
    j["upload_gbps"] = jsonNumber(r.uploadGBps);
    j["upload_pct_of_probe"] = measuredOrNull(r.uploadPctOfProbe);
    j["download_gbps"] = jsonNumber(r.downloadGBps);
    j["download_pct_of_probe"] = measuredOrNull(r.downloadPctOfProbe);
    j["end_to_end_ms"] = jsonNumber(r.endToEndMs);
    j["reuploaded"] = r.reuploaded;
    j["tiles"] = r.tiles;
    j["tile_size"] = r.tiles > 1 || r.tileWidth > 0 ? Json(std::to_string(r.tileWidth) + "x" + std::to_string(r.tileHeight))
                                                    : Json(nullptr);
    j["tile_halo"] = r.tileHalo;
    j["streams"] = r.streams;
    j["overlap_pct"] = jsonNumber(r.overlapPct);
    j["stages_ms"] = jsonNumber(r.stagesMs);
    j["kernel_ms"] = Json::object(
        {{"min", jsonNumber(r.kernelMs.min)}, {"median", jsonNumber(r.kernelMs.median)}, {"max", jsonNumber(r.kernelMs.max)}});
    Json &passes = j["pass_ms"] = Json::array();
    for (double ms : r.passMs)
        passes.push_back(jsonNumber(ms));
    j["download_ms"] = jsonNumber(r.downloadMs);
    j["total_ms"] = jsonNumber(r.totalMs);
    j["mpix_per_s"] = jsonNumber(r.mpixPerS);
    j["bytes_moved"] = jsonNumber(r.bytesMoved);
    j["gbps"] = jsonNumber(r.gbps);
    j["cpu_ms"] = Json::object({{"single", measuredOrNull(r.cpuSingleMs)},
                                {"multi", measuredOrNull(r.cpuMultiMs)},
                                {"threads", r.cpuThreads},
                                {"opencv", measuredOrNull(r.openCvCpuMs)},
                                {"best", measuredOrNull(r.cpuBestMs)},
                                {"best_label", textOrNull(r.cpuBestLabel)}});
    j["speedup_vs_cpu"] = jsonNumber(r.speedupVsCpu);
    j["speedup_total_vs_cpu"] = jsonNumber(r.speedupTotalVsCpu);
    if (r.baseline) {
        j["baseline"] = true;
        j["baseline_call"] = textOrNull(r.baselineCall);
    }
    if (!r.metricName.empty()) {
        j["metric"] = r.metricName;
        j["metric_value"] = jsonNumber(r.metricValue);
        j["max_error"] = jsonNumber(r.maxError);
        j["check_detail"] = textOrNull(r.checkDetail);
    }
    j["checked"] = r.checked;
    j["max_abs_diff"] = r.maxAbsDiff;
    j["mean_abs_diff"] = jsonNumber(r.meanAbsDiff);
    j["tolerance"] = r.tolerance;
    j["matches"] = r.matches;
    j["expected_failure"] = r.expectedFailure;
    j["unavailable"] = r.unavailable;
    j["error"] = textOrNull(r.error);
    j["error_code"] = textOrNull(r.errorCode);
    j["warning"] = textOrNull(r.warning);
    if (!r.buildLog.empty())
        j["build_log"] = r.buildLog;
    return j;
}

Json filterJson(const FilterSpec &f)
{
    Json j = Json::object();
    j["name"] = f.name;
    j["title"] = f.title;
    j["description"] = f.description;
    j["has_border"] = f.hasBorder;
    j["tolerance"] = f.tolerance;
    j["tolerance_note"] = f.toleranceNote;
    Json &params = j["params"] = Json::array();
    for (const ParamSpec &p : f.params) {
        Json param = Json::object();
        param["name"] = p.key;
        param["label"] = p.label;
        param["help"] = p.help;
        param["default"] = jsonNumber(p.defaultValue);
        param["min"] = jsonNumber(p.minimum);
        param["max"] = jsonNumber(p.maximum);
        param["step"] = jsonNumber(p.step);
        param["integer"] = p.integer;
        params.push_back(std::move(param));
    }
    Json &variants = j["variants"] = Json::array();
    for (const VariantSpec &v : f.variants) {
        Json variant = Json::object();
        variant["name"] = v.name;
        variant["title"] = v.title;
        variant["kernel_file"] = v.kernelFile;
        Json &entries = variant["entry_points"] = Json::array();
        for (const PassSpec &p : v.passes)
            entries.push_back(p.entry);
        variant["uses_images"] = v.usesImages;
        variant["tiled_local"] = v.tiledLocal;
        variant["needs_non_uniform"] = v.needsNonUniform;
        Json &formats = variant["formats"] = Json::array();
        for (PixelFormat fmt : v.formats.empty() ? allPixelFormats() : v.formats)
            formats.push_back(formatName(fmt));
        variant["description"] = v.description;
        variant["seed_note"] = v.seedNote;
        variant["plain_words"] = v.plainWords;
        variants.push_back(std::move(variant));
    }
    return j;
}

} // namespace fwb
