// The run schema (to_json/from_json of RunRequest and RunResult), deviceJson, runResultJson and
// filterJson (see ResultJson.h).
#include "ResultJson.h"

#include "Catalogue.h"
#include "Devices.h"
#include "Error.h"
#include "Session.h"

#include <concepts>
#include <cstdint>
#include <cstdio>
#include <type_traits>

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

// The schema's two directions over one field list (schemaFields, one per type): each field is named
// there once, in the order its key comes out, with the form it takes. Writer puts the fields into a JSON
// object; Reader takes them back, a missing or null key leaving the field as it is (its default).
struct Writer
{
    Json &j;

    template <typename T> void field(const char *key, const T &value) { j[key] = value; }
    // A key the reader cannot do without (Reader: j.at(key), which throws when it is missing).
    template <typename T> void required(const char *key, const T &value) { j[key] = value; }
    void text(const char *key, const std::string &value) { j[key] = textOrNull(value); }
    void measured(const char *key, double value) { j[key] = measuredOrNull(value); }
    // A work-group or block shape by its text, and where it came from; null where `present` is false.
    void shape(const char *key, const LocalSize &value, bool present = true)
    {
        j[key] = present ? Json(value.toString()) : Json();
    }
    void source(const char *key, LocalSource value, bool present = true)
    {
        j[key] = present ? Json(localSourceName(value)) : Json();
    }
    // A required enum by its name; the reader takes an unknown name as `fallback`.
    template <typename E, typename Name, typename Parse>
    void named(const char *key, const E &value, Name name, Parse, E)
    {
        j[key] = name(value);
    }
    template <typename Fields> void object(const char *key, const Fields &fields)
    {
        Writer inner{j[key] = Json::object()};
        fields(inner);
    }
    // Keys written only where `written` holds (read back whenever they are there).
    template <typename Fields> void when(bool written, const Fields &fields)
    {
        if (written)
            fields(*this);
    }
    // A key written from other fields, never read back.
    template <typename Value> void derived(const char *key, const Value &value) { j[key] = value(); }
    // A key with a form of its own: write(field) gives its JSON, read(value, field) takes it back (value:
    // the key's JSON, nullptr when it is missing or null).
    template <typename T, typename Write, typename Read>
    void custom(const char *key, const T &field, const Write &write, const Read &)
    {
        j[key] = write(field);
    }
};

struct Reader
{
    const Json &j;

    template <typename T> void field(const char *key, T &value) { readField(j, key, value); }
    template <typename T> void required(const char *key, T &value) { j.at(key).get_to(value); }
    void text(const char *key, std::string &value) { readField(j, key, value); }
    void measured(const char *key, double &value) { readField(j, key, value); }
    void shape(const char *key, LocalSize &value, bool = true)
    {
        value = LocalSize::parse(textOf(j, key)).value_or(LocalSize{});
    }
    void source(const char *key, LocalSource &value, bool = true) { value = localSourceOf(textOf(j, key)); }
    template <typename E, typename Name, typename Parse>
    void named(const char *key, E &value, Name, Parse parse, E fallback)
    {
        value = parse(j.at(key).template get<std::string>()).value_or(fallback);
    }
    template <typename Fields> void object(const char *key, const Fields &fields)
    {
        if (const Json *value = member(j, key)) {
            Reader inner{*value};
            fields(inner);
        }
    }
    template <typename Fields> void when(bool, const Fields &fields) { fields(*this); }
    template <typename Value> void derived(const char *, const Value &) {}
    template <typename T, typename Write, typename Read>
    void custom(const char *key, T &field, const Write &, const Read &read)
    {
        read(member(j, key), field);
    }
};

// The fields of T, const T for the writer.
template <typename R, typename T> concept Fields = std::same_as<std::remove_const_t<R>, T>;

template <typename Io, Fields<RunRequest> R> void schemaFields(Io &io, R &r)
{
    io.required("filter", r.filter);
    io.required("variant", r.variant);
    io.required("params", r.params.values);
    io.named("border", r.params.border, borderModeName, parseBorderMode, BorderMode::Reflect101);
    io.named("format", r.params.format, formatName, parsePixelFormat, PixelFormat::Gray8);
    io.field("fast_math", r.params.fastMath);
    io.shape("local", r.local);
    io.shape("block", r.block); // "auto": the variant's own (or a tuned one)
    io.field("repeat", r.repeat);
    io.field("warmup", r.warmup);
    io.field("check", r.check);
    io.field("cpu_single", r.cpuSingle);
    io.field("keep_output", r.keepOutput);
    io.field("opencv_cpu", r.openCvCpuBaseline);
    io.field("cpu_baseline", r.cpuBaseline);
    io.custom(
        "transfer", r.transfer, [](TransferMode mode) { return Json(transferModeName(mode)); },
        [](const Json *value, TransferMode &mode) {
            std::string transfer;
            if (value)
                value->get_to(transfer);
            if (transfer.empty())
                return;
            const std::optional<TransferMode> named = parseTransferMode(transfer);
            if (!named)
                throw Error("unknown transfer mode '" + transfer + "'");
            mode = *named;
        });
    io.field("tile_width", r.tileWidth);
    io.field("tile_height", r.tileHeight);
    io.field("max_alloc_bytes", r.maxAllocBytes);
    io.field("allow_tiles", r.allowTiles);
    io.field("streams", r.streams);
    io.field("flush_cache", r.flushCache);
}

template <typename Io, Fields<RunResult> R> void schemaFields(Io &io, R &r)
{
    io.field("filter", r.filter);
    io.field("variant", r.variant);
    io.field("params", r.params);
    io.field("format", r.format);
    io.text("border", r.border);
    io.field("device", r.device);
    io.field("device_spec", r.deviceSpec);
    io.shape("local", r.local);
    io.source("local_source", r.localSource);
    io.derived("local_label", [&] { return launchShapeLabel(r.local, r.localSource); });
    // Block variants: the output block per work-item, and whose it is.
    io.shape("block", r.block, r.block.isConcrete());
    io.source("block_source", r.blockSource, r.block.isConcrete());
    io.custom(
        "global", r.global,
        [](const auto &global) { return Json::array({std::int64_t(global[0]), std::int64_t(global[1])}); },
        [](const Json *value, auto &global) {
            if (value) {
                global[0] = value->at(0).get<std::size_t>();
                global[1] = value->at(1).get<std::size_t>();
            }
        });
    io.field("build_options", r.buildOptions);
    io.field("build_ms", r.buildMs);
    io.field("build_cached", r.buildCached);
    io.field("build_origin", r.buildOrigin);
    io.field("transfer", r.transfer);
    io.text("transfer_note", r.transferNote);
    io.text("output_note", r.outputNote);
    io.field("staging_ms", r.stagingMs);
    io.field("upload_ms", r.uploadMs);
    io.field("upload_gbps", r.uploadGBps);
    io.measured("upload_pct_of_probe", r.uploadPctOfProbe);
    io.field("download_gbps", r.downloadGBps);
    io.measured("download_pct_of_probe", r.downloadPctOfProbe);
    io.field("end_to_end_ms", r.endToEndMs);
    io.field("reuploaded", r.reuploaded);
    io.field("tiles", r.tiles);
    io.custom(
        "tile_size", r,
        [](const RunResult &t) {
            const bool tiled = t.tiles > 1 || t.tileWidth > 0;
            return tiled ? Json(std::to_string(t.tileWidth) + "x" + std::to_string(t.tileHeight)) : Json(nullptr);
        },
        [](const Json *value, RunResult &t) {
            std::string size;
            if (value)
                value->get_to(size);
            if (!size.empty())
                std::sscanf(size.c_str(), "%dx%d", &t.tileWidth, &t.tileHeight);
        });
    io.field("tile_halo", r.tileHalo);
    io.field("streams", r.streams);
    io.field("overlap_pct", r.overlapPct);
    io.field("stages_ms", r.stagesMs);
    io.object("kernel_ms", [&](auto &kernel) {
        kernel.field("min", r.kernelMs.min);
        kernel.field("median", r.kernelMs.median);
        kernel.field("max", r.kernelMs.max);
    });
    io.field("pass_ms", r.passMs);
    io.field("download_ms", r.downloadMs);
    io.field("total_ms", r.totalMs);
    io.field("mpix_per_s", r.mpixPerS);
    io.field("bytes_moved", r.bytesMoved);
    io.field("gbps", r.gbps);
    io.object("cpu_ms", [&](auto &cpu) {
        cpu.measured("single", r.cpuSingleMs);
        cpu.measured("multi", r.cpuMultiMs);
        cpu.field("threads", r.cpuThreads);
        cpu.measured("opencv", r.openCvCpuMs);
        cpu.measured("best", r.cpuBestMs);
        cpu.text("best_label", r.cpuBestLabel);
        cpu.field("best_of", r.cpuMeasurements); // measurements "best" is the best median of (CpuTimings.h)
    });
    io.field("speedup_vs_cpu", r.speedupVsCpu);
    io.field("speedup_total_vs_cpu", r.speedupTotalVsCpu);
    io.when(r.baseline, [&](auto &baseline) {
        baseline.field("baseline", r.baseline);
        baseline.text("baseline_call", r.baselineCall);
    });
    io.when(!r.metricName.empty(), [&](auto &metric) {
        metric.field("metric", r.metricName);
        metric.field("metric_value", r.metricValue);
        metric.field("max_error", r.maxError);
        metric.text("check_detail", r.checkDetail);
    });
    io.field("checked", r.checked);
    io.field("max_abs_diff", r.maxAbsDiff);
    io.field("mean_abs_diff", r.meanAbsDiff);
    io.field("tolerance", r.tolerance);
    io.field("matches", r.matches);
    io.field("expected_failure", r.expectedFailure);
    io.field("unavailable", r.unavailable);
    // Only a helper process's answer can say so: reports leave cancelled runs out.
    io.when(r.cancelled, [&](auto &cancelled) { cancelled.field("cancelled", r.cancelled); });
    io.text("error", r.error);
    io.text("error_code", r.errorCode);
    io.text("warning", r.warning);
    io.when(!r.buildLog.empty(), [&](auto &log) { log.field("build_log", r.buildLog); });
}

template <typename T> void writeSchema(Json &j, const T &value)
{
    j = Json::object();
    Writer writer{j};
    schemaFields(writer, value);
}

template <typename T> void readSchema(const Json &j, T &value)
{
    value = T{};
    Reader reader{j};
    schemaFields(reader, value);
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

void to_json(Json &j, const RunRequest &r) { writeSchema(j, r); }
void from_json(const Json &j, RunRequest &r) { readSchema(j, r); }
void to_json(Json &j, const RunResult &r) { writeSchema(j, r); }
void from_json(const Json &j, RunResult &r) { readSchema(j, r); }

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
