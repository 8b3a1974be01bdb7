// The run schema (to_json/from_json of RunRequest and RunResult), deviceJson, runResultJson and
// filterJson (see ResultJson.h).
#include "ResultJson.h"

#include "Catalogue.h"
#include "Devices.h"
#include "Error.h"
#include "Session.h"

#include <cstdint>
#include <cstdio>

namespace fwb {

namespace {

// Empty text is "not there": null.
Json textOrNull(const std::string &text) { return text.empty() ? Json(nullptr) : Json(text); }

// Negative means "not measured": null.
Json measuredOrNull(double value) { return value < 0 ? Json(nullptr) : Json(value); }

// j[key] when it is there and not null.
const Json *member(const Json &j, const char *key)
{
    const auto it = j.find(key);
    return it == j.end() || it->is_null() ? nullptr : &*it;
}

// Sets `field` from j[key]; a missing or null key leaves it as it is (the default: empty text, or
// the "not measured" value).
template <typename T> void readField(const Json &j, const char *key, T &field)
{
    if (const Json *value = member(j, key))
        value->get_to(field);
}

std::string textOf(const Json &j, const char *key)
{
    std::string text;
    readField(j, key, text);
    return text;
}

LocalSource localSourceOf(const std::string &name)
{
    for (LocalSource source : {LocalSource::Default, LocalSource::Tuned, LocalSource::User, LocalSource::Driver})
        if (name == localSourceName(source))
            return source;
    return LocalSource::Default;
}

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

void to_json(Json &j, const RunRequest &r)
{
    j = Json::object();
    j["filter"] = r.filter;
    j["variant"] = r.variant;
    Json &params = j["params"] = Json::object();
    for (const auto &[key, value] : r.params.values)
        params[key] = value;
    j["border"] = borderModeName(r.params.border);
    j["format"] = formatName(r.params.format);
    j["fast_math"] = r.params.fastMath;
    j["local"] = r.local.toString();
    j["block"] = r.block.toString(); // "auto": the variant's own (or a tuned one)
    j["repeat"] = r.repeat;
    j["warmup"] = r.warmup;
    j["check"] = r.check;
    j["cpu_single"] = r.cpuSingle;
    j["keep_output"] = r.keepOutput;
    j["opencv_cpu"] = r.openCvCpuBaseline;
    j["cpu_baseline"] = r.cpuBaseline;
    j["transfer"] = transferModeName(r.transfer);
    j["tile_width"] = r.tileWidth;
    j["tile_height"] = r.tileHeight;
    j["max_alloc_bytes"] = r.maxAllocBytes;
    j["allow_tiles"] = r.allowTiles;
    j["streams"] = r.streams;
}

void from_json(const Json &j, RunRequest &r)
{
    r = RunRequest{};
    r.filter = j.at("filter").get<std::string>();
    r.variant = j.at("variant").get<std::string>();
    for (const auto &[key, value] : j.at("params").items())
        r.params.values[key] = value.get<double>();
    r.params.border = parseBorderMode(j.at("border").get<std::string>()).value_or(BorderMode::Reflect101);
    r.params.format = parsePixelFormat(j.at("format").get<std::string>()).value_or(PixelFormat::Gray8);
    readField(j, "fast_math", r.params.fastMath);
    r.local = LocalSize::parse(textOf(j, "local")).value_or(LocalSize{});
    r.block = LocalSize::parse(textOf(j, "block")).value_or(LocalSize{});
    readField(j, "repeat", r.repeat);
    readField(j, "warmup", r.warmup);
    readField(j, "check", r.check);
    readField(j, "cpu_single", r.cpuSingle);
    readField(j, "keep_output", r.keepOutput);
    readField(j, "opencv_cpu", r.openCvCpuBaseline);
    readField(j, "cpu_baseline", r.cpuBaseline);
    if (const std::string transfer = textOf(j, "transfer"); !transfer.empty()) {
        const std::optional<TransferMode> mode = parseTransferMode(transfer);
        if (!mode)
            throw Error("unknown transfer mode '" + transfer + "'");
        r.transfer = *mode;
    }
    readField(j, "tile_width", r.tileWidth);
    readField(j, "tile_height", r.tileHeight);
    readField(j, "max_alloc_bytes", r.maxAllocBytes);
    readField(j, "allow_tiles", r.allowTiles);
    readField(j, "streams", r.streams);
}

void to_json(Json &j, const RunResult &r)
{
    j = Json::object();
    j["filter"] = r.filter;
    j["variant"] = r.variant;
    Json &params = j["params"] = Json::object();
    for (const auto &[name, value] : r.params)
        params[name] = value;
    j["format"] = r.format;
    j["border"] = textOrNull(r.border);
    j["device"] = r.device;
    j["device_spec"] = r.deviceSpec;
    j["local"] = r.local.toString();
    j["local_source"] = localSourceName(r.localSource);
    j["local_label"] = launchShapeLabel(r.local, r.localSource); // derived: not read back
    const bool block = r.block.isConcrete(); // block variants: the output block per work-item, and whose
    j["block"] = block ? Json(r.block.toString()) : Json();
    j["block_source"] = block ? Json(localSourceName(r.blockSource)) : Json();
    j["global"] = Json::array({std::int64_t(r.global[0]), std::int64_t(r.global[1])});
    j["build_options"] = r.buildOptions;
    j["build_ms"] = r.buildMs;
    j["build_cached"] = r.buildCached;
    j["build_origin"] = r.buildOrigin;
    j["transfer"] = r.transfer;
    j["transfer_note"] = textOrNull(r.transferNote);
    j["staging_ms"] = r.stagingMs;
    j["upload_ms"] = r.uploadMs;
    j["upload_gbps"] = r.uploadGBps;
    j["upload_pct_of_probe"] = measuredOrNull(r.uploadPctOfProbe);
    j["download_gbps"] = r.downloadGBps;
    j["download_pct_of_probe"] = measuredOrNull(r.downloadPctOfProbe);
    j["end_to_end_ms"] = r.endToEndMs;
    j["reuploaded"] = r.reuploaded;
    j["tiles"] = r.tiles;
    j["tile_size"] = r.tiles > 1 || r.tileWidth > 0 ? Json(std::to_string(r.tileWidth) + "x" + std::to_string(r.tileHeight))
                                                    : Json(nullptr);
    j["tile_halo"] = r.tileHalo;
    j["streams"] = r.streams;
    j["overlap_pct"] = r.overlapPct;
    j["stages_ms"] = r.stagesMs;
    j["kernel_ms"] = Json::object(
        {{"min", r.kernelMs.min}, {"median", r.kernelMs.median}, {"max", r.kernelMs.max}});
    j["pass_ms"] = r.passMs;
    j["download_ms"] = r.downloadMs;
    j["total_ms"] = r.totalMs;
    j["mpix_per_s"] = r.mpixPerS;
    j["bytes_moved"] = r.bytesMoved;
    j["gbps"] = r.gbps;
    j["cpu_ms"] = Json::object({{"single", measuredOrNull(r.cpuSingleMs)},
                                {"multi", measuredOrNull(r.cpuMultiMs)},
                                {"threads", r.cpuThreads},
                                {"opencv", measuredOrNull(r.openCvCpuMs)},
                                {"best", measuredOrNull(r.cpuBestMs)},
                                {"best_label", textOrNull(r.cpuBestLabel)}});
    j["speedup_vs_cpu"] = r.speedupVsCpu;
    j["speedup_total_vs_cpu"] = r.speedupTotalVsCpu;
    if (r.baseline) {
        j["baseline"] = true;
        j["baseline_call"] = textOrNull(r.baselineCall);
    }
    if (!r.metricName.empty()) {
        j["metric"] = r.metricName;
        j["metric_value"] = r.metricValue;
        j["max_error"] = r.maxError;
        j["check_detail"] = textOrNull(r.checkDetail);
    }
    j["checked"] = r.checked;
    j["max_abs_diff"] = r.maxAbsDiff;
    j["mean_abs_diff"] = r.meanAbsDiff;
    j["tolerance"] = r.tolerance;
    j["matches"] = r.matches;
    j["expected_failure"] = r.expectedFailure;
    j["unavailable"] = r.unavailable;
    if (r.cancelled) // only a helper process's answer can say so: reports leave cancelled runs out
        j["cancelled"] = true;
    j["error"] = textOrNull(r.error);
    j["error_code"] = textOrNull(r.errorCode);
    j["warning"] = textOrNull(r.warning);
    if (!r.buildLog.empty())
        j["build_log"] = r.buildLog;
}

void from_json(const Json &j, RunResult &r)
{
    r = RunResult{};
    readField(j, "filter", r.filter);
    readField(j, "variant", r.variant);
    readField(j, "params", r.params);
    readField(j, "format", r.format);
    readField(j, "border", r.border);
    readField(j, "device", r.device);
    readField(j, "device_spec", r.deviceSpec);
    r.local = LocalSize::parse(textOf(j, "local")).value_or(LocalSize{});
    r.localSource = localSourceOf(textOf(j, "local_source"));
    r.block = LocalSize::parse(textOf(j, "block")).value_or(LocalSize{});
    r.blockSource = localSourceOf(textOf(j, "block_source"));
    if (const Json *global = member(j, "global")) {
        r.global[0] = global->at(0).get<std::size_t>();
        r.global[1] = global->at(1).get<std::size_t>();
    }
    readField(j, "build_options", r.buildOptions);
    readField(j, "build_ms", r.buildMs);
    readField(j, "build_cached", r.buildCached);
    readField(j, "build_origin", r.buildOrigin);
    readField(j, "transfer", r.transfer);
    readField(j, "transfer_note", r.transferNote);
    readField(j, "staging_ms", r.stagingMs);
    readField(j, "upload_ms", r.uploadMs);
    readField(j, "upload_gbps", r.uploadGBps);
    readField(j, "upload_pct_of_probe", r.uploadPctOfProbe);
    readField(j, "download_gbps", r.downloadGBps);
    readField(j, "download_pct_of_probe", r.downloadPctOfProbe);
    readField(j, "end_to_end_ms", r.endToEndMs);
    readField(j, "reuploaded", r.reuploaded);
    readField(j, "tiles", r.tiles);
    if (const std::string size = textOf(j, "tile_size"); !size.empty())
        std::sscanf(size.c_str(), "%dx%d", &r.tileWidth, &r.tileHeight);
    readField(j, "tile_halo", r.tileHalo);
    readField(j, "streams", r.streams);
    readField(j, "overlap_pct", r.overlapPct);
    readField(j, "stages_ms", r.stagesMs);
    if (const Json *kernel = member(j, "kernel_ms")) {
        readField(*kernel, "min", r.kernelMs.min);
        readField(*kernel, "median", r.kernelMs.median);
        readField(*kernel, "max", r.kernelMs.max);
    }
    readField(j, "pass_ms", r.passMs);
    readField(j, "download_ms", r.downloadMs);
    readField(j, "total_ms", r.totalMs);
    readField(j, "mpix_per_s", r.mpixPerS);
    readField(j, "bytes_moved", r.bytesMoved);
    readField(j, "gbps", r.gbps);
    if (const Json *cpu = member(j, "cpu_ms")) {
        readField(*cpu, "single", r.cpuSingleMs);
        readField(*cpu, "multi", r.cpuMultiMs);
        readField(*cpu, "threads", r.cpuThreads);
        readField(*cpu, "opencv", r.openCvCpuMs);
        readField(*cpu, "best", r.cpuBestMs);
        readField(*cpu, "best_label", r.cpuBestLabel);
    }
    readField(j, "speedup_vs_cpu", r.speedupVsCpu);
    readField(j, "speedup_total_vs_cpu", r.speedupTotalVsCpu);
    readField(j, "baseline", r.baseline);
    readField(j, "baseline_call", r.baselineCall);
    readField(j, "metric", r.metricName);
    readField(j, "metric_value", r.metricValue);
    readField(j, "max_error", r.maxError);
    readField(j, "check_detail", r.checkDetail);
    readField(j, "checked", r.checked);
    readField(j, "max_abs_diff", r.maxAbsDiff);
    readField(j, "mean_abs_diff", r.meanAbsDiff);
    readField(j, "tolerance", r.tolerance);
    readField(j, "matches", r.matches);
    readField(j, "expected_failure", r.expectedFailure);
    readField(j, "unavailable", r.unavailable);
    readField(j, "cancelled", r.cancelled);
    readField(j, "error", r.error);
    readField(j, "error_code", r.errorCode);
    readField(j, "warning", r.warning);
    readField(j, "build_log", r.buildLog);
}

Json reportNumbers(Json json)
{
    if (json.is_number_float())
        return jsonNumber(json.get<double>());
    if (json.is_structured())
        for (Json &element : json)
            element = reportNumbers(std::move(element));
    return json;
}

Json runResultJson(const RunResult &r) { return reportNumbers(Json(r)); }

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
