// JsonWriter implementation and the JSON shapes of DeviceInfo, RunResult and FilterSpec
// (shared by `filter-bench --json` and the workbench's run-log export).
#include "Json.h"

#include "Catalogue.h"
#include "Devices.h"
#include "Session.h"

#include <cmath>
#include <cstdio>

namespace fwb {

void JsonWriter::separator()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (!m_first.empty()) {
        if (!m_first.back())
            m_out += ',';
        m_first.back() = false;
    }
}

JsonWriter &JsonWriter::beginObject()
{
    separator();
    m_out += '{';
    m_first.push_back(true);
    return *this;
}

JsonWriter &JsonWriter::endObject()
{
    m_out += '}';
    m_first.pop_back();
    return *this;
}

JsonWriter &JsonWriter::beginArray()
{
    separator();
    m_out += '[';
    m_first.push_back(true);
    return *this;
}

JsonWriter &JsonWriter::endArray()
{
    m_out += ']';
    m_first.pop_back();
    return *this;
}

JsonWriter &JsonWriter::key(const std::string &name)
{
    separator();
    m_out += escape(name);
    m_out += ':';
    m_afterKey = true;
    return *this;
}

std::string JsonWriter::escape(const std::string &text)
{
    std::string out = "\"";
    for (unsigned char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                char buffer[8];
                std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
                out += buffer;
            } else {
                out += char(c);
            }
        }
    }
    return out + "\"";
}

JsonWriter &JsonWriter::value(const std::string &text)
{
    separator();
    m_out += escape(text);
    return *this;
}

JsonWriter &JsonWriter::value(const char *text) { return value(std::string(text ? text : "")); }

JsonWriter &JsonWriter::value(double number)
{
    if (!std::isfinite(number))
        return null();
    separator();
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.6g", number);
    m_out += buffer;
    return *this;
}

JsonWriter &JsonWriter::value(std::int64_t number)
{
    separator();
    m_out += std::to_string(number);
    return *this;
}

JsonWriter &JsonWriter::value(bool flag)
{
    separator();
    m_out += flag ? "true" : "false";
    return *this;
}

JsonWriter &JsonWriter::null()
{
    separator();
    m_out += "null";
    return *this;
}

void writeDeviceJson(JsonWriter &j, const DeviceInfo &d)
{
    j.beginObject();
    j.key("spec").value(d.spec());
    j.key("name").value(d.name);
    j.key("vendor").value(d.vendor);
    j.key("type").value(deviceKindName(d.kind));
    j.key("platform").value(d.platformName);
    j.key("platform_version").value(d.platformVersion);
    j.key("driver_version").value(d.driverVersion);
    j.key("opencl_version").value(d.openclVersion);
    j.key("opencl_c_version").value(d.openclCVersion);
    j.key("opencl_c_max").value(std::to_string(d.openclCMajor) + "." + std::to_string(d.openclCMinor));
    j.key("compute_units").value(std::int64_t(d.computeUnits));
    j.key("max_clock_mhz").value(std::int64_t(d.maxClockMHz));
    j.key("max_work_group_size").value(std::int64_t(d.maxWorkGroupSize));
    j.key("max_work_item_sizes").beginArray();
    for (std::size_t s : d.maxWorkItemSizes)
        j.value(std::int64_t(s));
    j.endArray();
    j.key("local_mem_bytes").value(std::int64_t(d.localMemSize));
    j.key("local_mem_type").value(d.localMemDedicated ? "local" : "global");
    j.key("global_mem_bytes").value(std::int64_t(d.globalMemSize));
    j.key("max_alloc_bytes").value(std::int64_t(d.maxAllocSize));
    j.key("image_support").value(d.imageSupport);
    j.key("non_uniform_work_groups").value(d.nonUniformWorkGroups);
    j.key("host_unified_memory").value(d.hostUnifiedMemory);
    j.key("preferred_vector_width").beginObject();
    j.key("char").value(std::int64_t(d.preferredVectorWidthChar));
    j.key("short").value(std::int64_t(d.preferredVectorWidthShort));
    j.key("int").value(std::int64_t(d.preferredVectorWidthInt));
    j.key("float").value(std::int64_t(d.preferredVectorWidthFloat));
    j.key("double").value(std::int64_t(d.preferredVectorWidthDouble));
    j.endObject();
    j.key("timer_resolution_ns").value(std::int64_t(d.timerResolutionNs));
    j.key("emulator").value(d.isEmulator);
    j.endObject();
}

void writeRunResultJson(JsonWriter &j, const RunResult &r)
{
    auto numberOrNull = [&](double v) { v < 0 ? j.null() : j.value(v); };
    j.beginObject();
    j.key("filter").value(r.filter);
    j.key("variant").value(r.variant);
    j.key("params").beginObject();
    for (const auto &[name, value] : r.params)
        j.key(name).value(value);
    j.endObject();
    j.key("format").value(r.format);
    j.key("border");
    r.border.empty() ? j.null() : j.value(r.border);
    j.key("device").value(r.device);
    j.key("device_spec").value(r.deviceSpec);
    j.key("local").value(r.local.toString());
    j.key("global").beginArray().value(std::int64_t(r.global[0])).value(std::int64_t(r.global[1])).endArray();
    j.key("build_options").value(r.buildOptions);
    j.key("build_ms").value(r.buildMs);
    j.key("build_cached").value(r.buildCached);
    j.key("build_origin").value(r.buildOrigin);
    j.key("transfer").value(r.transfer);
    j.key("staging_ms").value(r.stagingMs);
    j.key("upload_ms").value(r.uploadMs);
    j.key("kernel_ms").beginObject();
    j.key("min").value(r.kernelMs.min).key("median").value(r.kernelMs.median).key("max").value(r.kernelMs.max);
    j.endObject();
    j.key("pass_ms").beginArray();
    for (double ms : r.passMs)
        j.value(ms);
    j.endArray();
    j.key("download_ms").value(r.downloadMs);
    j.key("total_ms").value(r.totalMs);
    j.key("mpix_per_s").value(r.mpixPerS);
    j.key("bytes_moved").value(r.bytesMoved);
    j.key("gbps").value(r.gbps);
    j.key("cpu_ms").beginObject();
    j.key("single");
    numberOrNull(r.cpuSingleMs);
    j.key("multi");
    numberOrNull(r.cpuMultiMs);
    j.key("threads").value(r.cpuThreads);
    j.endObject();
    j.key("speedup_vs_cpu").value(r.speedupVsCpu);
    j.key("speedup_total_vs_cpu").value(r.speedupTotalVsCpu);
    j.key("checked").value(r.checked);
    j.key("max_abs_diff").value(r.maxAbsDiff);
    j.key("mean_abs_diff").value(r.meanAbsDiff);
    j.key("tolerance").value(r.tolerance);
    j.key("matches").value(r.matches);
    j.key("expected_failure").value(r.expectedFailure);
    j.key("unavailable").value(r.unavailable);
    j.key("error");
    r.error.empty() ? j.null() : j.value(r.error);
    j.key("error_code");
    r.errorCode.empty() ? j.null() : j.value(r.errorCode);
    if (!r.buildLog.empty())
        j.key("build_log").value(r.buildLog);
    j.endObject();
}

void writeFilterJson(JsonWriter &j, const FilterSpec &f)
{
    j.beginObject();
    j.key("name").value(f.name);
    j.key("title").value(f.title);
    j.key("description").value(f.description);
    j.key("has_border").value(f.hasBorder);
    j.key("tolerance").value(f.tolerance);
    j.key("tolerance_note").value(f.toleranceNote);
    j.key("params").beginArray();
    for (const ParamSpec &p : f.params) {
        j.beginObject();
        j.key("name").value(p.key).key("label").value(p.label).key("help").value(p.help);
        j.key("default").value(p.defaultValue).key("min").value(p.minimum).key("max").value(p.maximum);
        j.key("step").value(p.step).key("integer").value(p.integer);
        j.endObject();
    }
    j.endArray();
    j.key("variants").beginArray();
    for (const VariantSpec &v : f.variants) {
        j.beginObject();
        j.key("name").value(v.name).key("title").value(v.title);
        j.key("kernel_file").value(v.kernelFile);
        j.key("entry_points").beginArray();
        for (const PassSpec &p : v.passes)
            j.value(p.entry);
        j.endArray();
        j.key("uses_images").value(v.usesImages);
        j.key("tiled_local").value(v.tiledLocal);
        j.key("needs_non_uniform").value(v.needsNonUniform);
        j.key("formats").beginArray();
        for (PixelFormat fmt : v.formats.empty() ? allPixelFormats() : v.formats)
            j.value(formatName(fmt));
        j.endArray();
        j.key("description").value(v.description);
        j.key("seed_note").value(v.seedNote);
        j.endObject();
    }
    j.endArray();
    j.endObject();
}

} // namespace fwb
