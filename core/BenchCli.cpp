// filter-bench: device listing, catalogue listing and timed, checked runs with a table or JSON out.
#include "BenchCli.h"

#include "AtomicFile.h"
#include "Catalogue.h"
#include "Devices.h"
#include "Error.h"
#include "Inspector.h"
#include "Json.h"
#include "Session.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <vector>

namespace fwb {

namespace {

const char *kUsage =
    "usage: filter-bench <command> [options]\n"
    "commands:\n"
    "  devices [--json]              list every OpenCL device (the default is marked *)\n"
    "  list [--json]                 list filters, variants, parameters and descriptions\n"
    "  run --filter NAME[,NAME..]|all [options]   run variants, time them and check them against the CPU\n"
    "  inspect [options]             work-group inspector (seed 001): ids and sizes at the NDRange corners\n"
    "run options:\n"
    "  --variant NAME|all            variant to run (default: all)\n"
    "  --device SPEC                 P:D, gpu, cpu or a name substring (default: best GPU, else CPU)\n"
    "  --local WxH|auto              work-group shape (default: auto = NULL local size)\n"
    "  --input FILE | --synthetic WxH   image file (Qt builds) or the built-in test card (default 1920x1080)\n"
    "  --format gray8|rgb888|rgba8888   pixel layout the kernels see (default gray8)\n"
    "  --param NAME=VALUE[,VALUE..]  filter parameter, e.g. sigma=1.5 (repeatable); a list sweeps it,\n"
    "                                e.g. --filter recursive_gaussian,gaussian --param sigma=1,2,4,8,16,32\n"
    "  --border reflect101|replicate|constant   border rule (default reflect101)\n"
    "  --fast-math                   build with -cl-fast-relaxed-math where the variant uses such math\n"
    "  --repeat N  --warmup N        timed repeats (default 10) and untimed warm-up runs (default 2)\n"
    "  --output FILE [--overwrite]   save the result of a single variant (never over the input)\n"
    "  --check                       fail (exit 1) unless every result matches the CPU reference\n"
    "  --no-cpu-single               skip timing the single-threaded CPU reference (the check still runs)\n"
    "  --transfer pageable|pinned    host memory for upload/download: the image itself (default) or\n"
    "                                page-locked staging buffers (seed 004's pinned-memory transfers)\n"
    "  --cache-dir DIR|-  --kernel-dir DIR   program-binary cache folder; folder of edited .cl files\n"
    "  --json                        one JSON object instead of the table\n"
    "  --json-file FILE              also write that JSON object to FILE (the table still prints)\n"
    "inspect options:\n"
    "  --global WxH | --synthetic WxH   NDRange size, or an image whose interior (W-2)x(H-2) is launched\n"
    "                                (default --synthetic 640x480: global 638x478, as in seed 001)\n"
    "  --local WxH|auto              work-group shape (default auto); e.g. 16x16 to see the CL 1.2 failure\n"
    "  --cl20                        build with -cl-std=CL2.0 (non-uniform groups, get_enqueued_local_size)\n"
    "  --device SPEC  --cache-dir DIR|-  --json   as for run\n";

// "a,b,c" -> {"a", "b", "c"} (empty items dropped).
std::vector<std::string> splitList(const std::string &text)
{
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        if (comma > start)
            items.push_back(text.substr(start, comma - start));
        start = comma + 1;
    }
    return items;
}

struct Args
{
    std::vector<std::string> items;
    std::size_t pos = 0;
    bool more() const { return pos < items.size(); }
};

int usageError(const std::string &message)
{
    std::fprintf(stderr, "filter-bench: %s\n", message.c_str());
    return 2;
}

int cmdDevices(bool json)
{
    const std::vector<DeviceInfo> devices = listDevices();
    const int def = defaultDeviceIndex(devices);
    if (json) {
        JsonWriter j;
        j.beginObject().key("default");
        def >= 0 ? j.value(devices[std::size_t(def)].spec()) : j.null();
        j.key("devices").beginArray();
        for (const DeviceInfo &d : devices)
            writeDeviceJson(j, d);
        j.endArray().endObject();
        std::printf("%s\n", j.str().c_str());
        return 0;
    }
    if (devices.empty()) {
        std::printf("No OpenCL platform or device found. Install a driver (e.g. pocl-opencl-icd for the CPU).\n");
        return 0;
    }
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const DeviceInfo &d = devices[i];
        std::printf("%s %s  %s\n", int(i) == def ? "*" : " ", d.spec().c_str(), d.summary().c_str());
        std::printf("      platform %s | %s | %s\n", d.platformName.c_str(), d.openclVersion.c_str(), d.openclCVersion.c_str());
        std::string items;
        for (std::size_t s : d.maxWorkItemSizes)
            items += (items.empty() ? "" : "x") + std::to_string(s);
        std::printf("      %u compute units @ %u MHz | max work-group %zu (items %s) | local mem %llu KiB (%s)\n",
                    d.computeUnits, d.maxClockMHz, d.maxWorkGroupSize, items.c_str(),
                    static_cast<unsigned long long>(d.localMemSize >> 10), d.localMemDedicated ? "dedicated" : "emulated in global");
        std::printf("      global mem %llu MiB | max alloc %llu MiB | images %s | non-uniform work-groups %s | timer %zu ns\n",
                    static_cast<unsigned long long>(d.globalMemSize >> 20), static_cast<unsigned long long>(d.maxAllocSize >> 20),
                    d.imageSupport ? "yes" : "no", d.nonUniformWorkGroups ? "yes" : "no", d.timerResolutionNs);
        std::printf("      preferred vector width char/short/int/float/double: %u/%u/%u/%u/%u%s\n",
                    d.preferredVectorWidthChar, d.preferredVectorWidthShort, d.preferredVectorWidthInt,
                    d.preferredVectorWidthFloat, d.preferredVectorWidthDouble, d.isEmulator ? " | emulator" : "");
    }
    return 0;
}

int cmdList(bool json)
{
    if (json) {
        JsonWriter j;
        j.beginObject().key("filters").beginArray();
        for (const FilterSpec &f : catalogue())
            writeFilterJson(j, f);
        j.endArray().endObject();
        std::printf("%s\n", j.str().c_str());
        return 0;
    }
    for (const FilterSpec &f : catalogue()) {
        std::printf("%s - %s\n  %s\n", f.name.c_str(), f.title.c_str(), f.description.c_str());
        for (const ParamSpec &p : f.params)
            std::printf("  --param %s=<%g..%g> (default %g): %s\n", p.key.c_str(), p.minimum, p.maximum, p.defaultValue,
                        p.help.c_str());
        std::printf("  tolerance: %s\n", f.toleranceNote.c_str());
        for (const VariantSpec &v : f.variants) {
            std::printf("    %-24s %s\n", v.name.c_str(), v.title.c_str());
            std::printf("      %s\n", v.description.c_str());
            if (!v.seedNote.empty())
                std::printf("      measured: %s\n", v.seedNote.c_str());
        }
        std::printf("\n");
    }
    return 0;
}

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
    std::printf("Copies: %s\n\n", pinned ? "through pinned (page-locked) host buffers; the one memcpy into and out of "
                                            "them per run is staging_ms in --json, not in upload/download"
                                          : "straight from/to the image in ordinary (pageable) host memory");
    std::printf("%s %9s %8s %10s %19s %9s %8s %6s %9s %9s %8s %s\n", lead("filter", "variant", "params", "local").c_str(),
                "build ms", "upload", "kernel md", "(min..max)", "download", "GB/s", "%copy", "cpu1 ms", "cpuN ms",
                "speedup", "check");
    for (const RunResult &r : results) {
        const std::string head = lead(r.filter, r.variant, paramsText(r.params), r.local.toString());
        if (!r.ok()) {
            std::printf("%s %s: %s\n", head.c_str(),
                        r.expectedFailure ? "EXPECTED FAILURE" : r.unavailable ? "UNAVAILABLE" : "ERROR", r.error.c_str());
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
        std::printf("%s %9s %8s %10s %19s %9s %8.1f %5.1f%% %9s %9s %7.1fx %s\n", head.c_str(),
                    (fmtMs(r.buildMs) + (r.buildCached ? "*" : "")).c_str(), fmtMs(r.uploadMs).c_str(),
                    fmtMs(r.kernelMs.median).c_str(), range.c_str(), fmtMs(r.downloadMs).c_str(), r.gbps,
                    copyGBps > 0 ? 100.0 * r.gbps / copyGBps : 0.0, fmtMs(r.cpuSingleMs).c_str(),
                    fmtMs(r.cpuMultiMs).c_str(), r.speedupVsCpu, check);
    }
    std::printf("\nTimes in ms: kernel = device time from profiling events (median of repeats); build * = cached "
                "binary.\nGB/s = (input + output bytes) / kernel time; %%copy = that against this device's own "
                "buffer-copy bandwidth.\nspeedup = multi-threaded CPU time / kernel median (transfers excluded; "
                "see total_ms in --json).\n");
}

// --filter a,b | all: the filters a run covers, in the order given (all: catalogue order).
std::vector<const FilterSpec *> selectFilters(const std::string &names)
{
    std::vector<const FilterSpec *> filters;
    if (names == "all") {
        for (const FilterSpec &f : catalogue())
            filters.push_back(&f);
        return filters;
    }
    for (const std::string &name : splitList(names)) {
        const FilterSpec *filter = findFilter(name);
        if (!filter) {
            std::string known;
            for (const FilterSpec &f : catalogue())
                known += (known.empty() ? "" : ", ") + f.name;
            throw Error("unknown filter '" + name + "' (known: " + known + ", all)");
        }
        filters.push_back(filter);
    }
    if (filters.empty())
        throw Error("--filter '" + names + "' names no filter");
    return filters;
}

bool takesParam(const FilterSpec &filter, const std::string &key)
{
    return std::any_of(filter.params.begin(), filter.params.end(), [&](const ParamSpec &p) { return p.key == key; });
}

// One run of the plan: a filter's variant with one combination of the swept parameter values.
struct PlannedRun
{
    const FilterSpec *filter = nullptr;
    std::string variant;
    FilterParams params;
    int combo = 0; // index of the parameter combination (0 when nothing is swept)
};

// Expands --variant and --param NAME=v1,v2,... (a sweep) into runs: every combination of the swept
// values (first --param varies slowest), and within it every filter and variant. A parameter applies
// to each filter that has it; one that no chosen filter takes is an error, as is any bad value.
std::vector<PlannedRun> planRuns(const std::vector<const FilterSpec *> &filters, const std::string &variantName,
                                 const std::vector<std::string> &assignments, const FilterParams &base)
{
    std::vector<std::pair<std::string, std::vector<std::string>>> swept; // key -> values
    for (const std::string &a : assignments) {
        const std::size_t eq = a.find('=');
        if (eq == std::string::npos || eq == 0)
            throw Error("parameter '" + a + "' is not of the form name=value");
        const std::string key = a.substr(0, eq);
        std::vector<std::string> values = splitList(a.substr(eq + 1));
        if (values.empty())
            throw Error("parameter " + key + " has no value");
        bool anyTakesIt = false;
        for (const FilterSpec *f : filters) {
            FilterParams probe;
            if (!takesParam(*f, key))
                continue;
            anyTakesIt = true;
            for (const std::string &v : values)
                if (std::string problem = applyParam(*f, probe, key + "=" + v); !problem.empty())
                    throw Error(problem);
        }
        if (!anyTakesIt) {
            FilterParams scratch;
            if (filters.size() == 1) // the filter's own message lists what it takes
                throw Error(applyParam(*filters.front(), scratch, a));
            throw Error("none of the chosen filters has a parameter '" + key + "'");
        }
        swept.emplace_back(key, std::move(values));
    }
    if (variantName != "all")
        for (const FilterSpec *f : filters)
            if (!f->variant(variantName)) {
                std::string names;
                for (const VariantSpec &v : f->variants)
                    names += (names.empty() ? "" : ", ") + v.name;
                throw Error("unknown variant '" + variantName + "' of filter " + f->name + " (known: " + names
                            + ", all)");
            }

    std::size_t combos = 1;
    for (const auto &entry : swept)
        combos *= entry.second.size();
    if (combos * filters.size() > 10000)
        throw Error("the sweep asks for more than 10000 runs; narrow it");
    std::vector<PlannedRun> plan;
    for (std::size_t c = 0; c < combos; ++c) {
        // Mixed-radix digits of c, the last --param varying fastest.
        std::vector<std::string> chosen(swept.size());
        std::size_t rest = c;
        for (std::size_t i = swept.size(); i-- > 0;) {
            chosen[i] = swept[i].second[rest % swept[i].second.size()];
            rest /= swept[i].second.size();
        }
        for (const FilterSpec *f : filters) {
            FilterParams params = base;
            for (std::size_t i = 0; i < swept.size(); ++i)
                if (takesParam(*f, swept[i].first))
                    applyParam(*f, params, swept[i].first + "=" + chosen[i]); // validated above
            for (const VariantSpec &v : f->variants)
                if (variantName == "all" || v.name == variantName)
                    plan.push_back({f, v.name, params, int(c)});
        }
    }
    return plan;
}

// A sweep's summary: one row per filter/variant, one column per parameter combination, cells are
// the kernel median in ms ("x" failed, "u" unavailable) - e.g. recursive vs separable over sigma.
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

int cmdRun(Args &args, ImageIo *io)
{
    std::string filterName, variantName = "all", deviceSpec, input, synthetic, output, cacheDir, kernelDir, jsonFile;
    std::vector<std::string> paramAssignments;
    RunRequest request;
    request.repeat = 10;
    request.warmup = 2;
    bool json = false, check = false, overwrite = false;
    std::string formatText = "gray8", borderText = "reflect101", localText = "auto";
    auto needValue = [&](const std::string &flag, std::string &out) -> bool {
        if (!args.more())
            return false;
        out = args.items[args.pos++];
        (void)flag;
        return true;
    };
    while (args.more()) {
        const std::string flag = args.items[args.pos++];
        std::string value;
        auto take = [&](std::string &out) {
            if (!needValue(flag, out))
                throw Error("option " + flag + " needs a value");
        };
        if (flag == "--filter") take(filterName);
        else if (flag == "--variant") take(variantName);
        else if (flag == "--device") take(deviceSpec);
        else if (flag == "--local") take(localText);
        else if (flag == "--input") take(input);
        else if (flag == "--synthetic") take(synthetic);
        else if (flag == "--format") take(formatText);
        else if (flag == "--param") { take(value); paramAssignments.push_back(value); }
        else if (flag == "--border") take(borderText);
        else if (flag == "--repeat" || flag == "--warmup") {
            take(value);
            char *end = nullptr;
            const long n = std::strtol(value.c_str(), &end, 10);
            if (value.empty() || *end || n < (flag == "--repeat" ? 1 : 0) || n > 100000)
                throw Error(flag + " '" + value + "' must be a whole number" + (flag == "--repeat" ? " >= 1" : " >= 0"));
            (flag == "--repeat" ? request.repeat : request.warmup) = int(n);
        }
        else if (flag == "--output") take(output);
        else if (flag == "--overwrite") overwrite = true;
        else if (flag == "--check") check = true;
        else if (flag == "--json") json = true;
        else if (flag == "--json-file") take(jsonFile);
        else if (flag == "--fast-math") request.params.fastMath = true;
        else if (flag == "--no-cpu-single") request.cpuSingle = false;
        else if (flag == "--transfer") {
            take(value);
            if (value != "pageable" && value != "pinned")
                throw Error("--transfer '" + value + "' must be pageable or pinned");
            request.pinnedTransfers = value == "pinned";
        }
        else if (flag == "--cache-dir") take(cacheDir);
        else if (flag == "--kernel-dir") take(kernelDir);
        else throw Error("unknown option '" + flag + "' (see filter-bench --help)");
    }
    if (filterName.empty())
        throw Error("run needs --filter NAME (see filter-bench list)");
    const std::vector<const FilterSpec *> filters = selectFilters(filterName);
    const auto format = parsePixelFormat(formatText);
    if (!format)
        throw Error("unknown pixel format '" + formatText + "' (use gray8, rgb888 or rgba8888)");
    const auto border = parseBorderMode(borderText);
    if (!border)
        throw Error("unknown border mode '" + borderText + "' (use reflect101, replicate or constant)");
    std::string localError;
    const auto local = LocalSize::parse(localText, &localError);
    if (!local)
        throw Error(localError);
    request.local = *local;
    request.params.format = *format;
    request.params.border = *border;
    request.check = true;
    request.keepOutput = !output.empty();
    const std::vector<PlannedRun> plan = planRuns(filters, variantName, paramAssignments, request.params);
    const bool sweeping = plan.back().combo > 0 || filters.size() > 1;
    if (!input.empty() && !synthetic.empty())
        throw Error("use either --input or --synthetic, not both");
    if (!jsonFile.empty()) {
        std::error_code ec;
        if (std::filesystem::exists(jsonFile, ec) && !overwrite)
            throw Error("JSON file " + jsonFile + " exists; pass --overwrite to replace it");
    }
    if (!output.empty()) {
        if (plan.size() != 1)
            throw Error("--output needs a single filter, --variant and parameter value (one result is saved)");
        if (!io)
            throw Error("this build has no image file support (FWB_WITH_QT=OFF): --output is unavailable");
        std::error_code ec;
        if (!input.empty() && std::filesystem::equivalent(input, output, ec))
            throw Error("refusing to write the result over the input image " + input);
        if (std::filesystem::exists(output, ec) && !overwrite)
            throw Error("output file " + output + " exists; pass --overwrite to replace it");
    }

    // The image: a file (Qt builds) or the deterministic test card.
    Image image;
    std::string source;
    if (!input.empty()) {
        if (!io)
            throw Error("this build has no image file support (FWB_WITH_QT=OFF): use --synthetic WxH");
        std::string error;
        if (!io->load(input, image, error))
            throw Error("cannot load " + input + ": " + error);
        source = input;
    } else {
        long w = 1920, h = 1080;
        if (!synthetic.empty()) {
            char x = 0, tail = 0;
            if (std::sscanf(synthetic.c_str(), "%ld%c%ld%c", &w, &x, &h, &tail) != 3 || (x != 'x' && x != 'X'))
                throw Error("--synthetic '" + synthetic + "' is not of the form WxH, e.g. 1920x1080");
        }
        if (std::string problem = imageSizeProblem(w, h); !problem.empty())
            throw Error("--synthetic " + synthetic + ": " + problem);
        image = makeTestCard(int(w), int(h), *format);
        source = "test card";
    }

    const std::vector<DeviceInfo> devices = listDevices();
    const DeviceInfo device = selectDevice(devices, deviceSpec);
    SessionOptions sessionOptions;
    sessionOptions.cacheDir = cacheDir;
    sessionOptions.kernelDir = kernelDir;
    Session session(device, sessionOptions);
    const double copyGBps = session.copyBandwidthGBps();

    std::vector<RunResult> results;
    for (const PlannedRun &planned : plan) {
        request.filter = planned.filter->name;
        request.variant = planned.variant;
        request.params = planned.params;
        results.push_back(session.run(image, request));
    }

    // Exit status: unavailable/expected outcomes are fine in an "all" sweep, never for a named variant.
    int status = 0;
    std::string reason;
    for (const RunResult &r : results) {
        const bool explained = r.expectedFailure || (r.unavailable && variantName == "all");
        if (!r.ok() && !explained) {
            status = 1;
            if (reason.empty())
                reason = r.variant + ": " + r.error;
        }
        if (check && r.ok() && !r.matches) {
            status = 1;
            if (reason.empty())
                reason = r.variant + " does not match the CPU reference (max diff " + std::to_string(r.maxAbsDiff)
                         + ", tolerance " + std::to_string(r.tolerance) + ")";
        }
    }
    if (!output.empty() && !results.empty() && results.front().ok()) {
        std::string error;
        if (!io->save(output, results.front().output, error)) {
            status = 1;
            reason = "cannot save " + output + ": " + error;
        }
    }

    if (json || !jsonFile.empty()) {
        JsonWriter j;
        j.beginObject();
        j.key("device");
        writeDeviceJson(j, device);
        j.key("copy_gbps").value(copyGBps);
        j.key("image").beginObject();
        j.key("width").value(image.width()).key("height").value(image.height());
        j.key("format").value(formatName(*format)).key("source").value(source);
        j.endObject();
        j.key("border").value(borderModeName(*border));
        j.key("repeat").value(request.repeat).key("warmup").value(request.warmup);
        j.key("transfer").value(request.pinnedTransfers ? "pinned" : "pageable");
        j.key("results").beginArray();
        for (const RunResult &r : results)
            writeRunResultJson(j, r);
        j.endArray();
        j.key("ok").value(status == 0);
        j.endObject();
        if (json)
            std::printf("%s\n", j.str().c_str());
        if (!jsonFile.empty()) {
            std::string error;
            const std::string text = j.str() + "\n";
            if (!writeFileAtomically(jsonFile, text.data(), text.size(), &error)) {
                status = 1;
                reason = error;
            }
        }
    }
    if (!json) {
        printTable(device, copyGBps, image.convertedTo(*format), source, results, sweeping);
        if (plan.back().combo > 0)
            printSweepMatrix(plan, results);
    }
    if (status != 0)
        std::fprintf(stderr, "filter-bench: %s\n", reason.c_str());
    return status;
}

// Parses "WxH" (both >= 1) for --global / --synthetic.
bool parseSize(const std::string &text, long &w, long &h)
{
    char x = 0, tail = 0;
    return std::sscanf(text.c_str(), "%ld%c%ld%c", &w, &x, &h, &tail) == 3 && (x == 'x' || x == 'X') && w >= 1
           && h >= 1 && w <= kMaxImageSide && h <= kMaxImageSide;
}

// Seed 001's corner table: how the runtime split an NDRange into work-groups (or why it refused).
int cmdInspect(Args &args)
{
    std::string deviceSpec, globalText, syntheticText, localText = "auto", cacheDir;
    bool json = false;
    InspectRequest request;
    while (args.more()) {
        const std::string flag = args.items[args.pos++];
        auto take = [&](std::string &out) {
            if (!args.more())
                throw Error("option " + flag + " needs a value");
            out = args.items[args.pos++];
        };
        if (flag == "--device") take(deviceSpec);
        else if (flag == "--global") take(globalText);
        else if (flag == "--synthetic") take(syntheticText);
        else if (flag == "--local") take(localText);
        else if (flag == "--cache-dir") take(cacheDir);
        else if (flag == "--cl20") request.cl20 = true;
        else if (flag == "--json") json = true;
        else throw Error("unknown option '" + flag + "' for inspect (see filter-bench --help)");
    }
    if (!globalText.empty() && !syntheticText.empty())
        throw Error("use either --global or --synthetic, not both");
    long w = 640, h = 480;
    std::string origin = "interior of a 640x480 image";
    if (!globalText.empty()) {
        if (!parseSize(globalText, w, h))
            throw Error("--global '" + globalText + "' is not of the form WxH, e.g. 638x478");
        request.global[0] = std::size_t(w);
        request.global[1] = std::size_t(h);
        origin = "as given";
    } else {
        if (!syntheticText.empty() && !parseSize(syntheticText, w, h))
            throw Error("--synthetic '" + syntheticText + "' is not of the form WxH, e.g. 640x480");
        if (w < 3 || h < 3)
            throw Error("--synthetic " + syntheticText + " has no interior (needs at least 3x3)");
        request.global[0] = std::size_t(w - 2);
        request.global[1] = std::size_t(h - 2);
        origin = "interior of a " + std::to_string(w) + "x" + std::to_string(h) + " image";
    }
    std::string localError;
    const auto local = LocalSize::parse(localText, &localError);
    if (!local)
        throw Error(localError);
    request.local = *local;
    request.cacheDir = cacheDir;
    const DeviceInfo device = selectDevice(listDevices(), deviceSpec);
    const InspectResult r = inspectWorkGroups(device, request);
    const int status = r.ok() || r.expectedFailure ? 0 : 1;

    if (json) {
        auto pair = [](JsonWriter &j, const std::size_t v[2]) {
            j.beginArray().value(std::int64_t(v[0])).value(std::int64_t(v[1])).endArray();
        };
        JsonWriter j;
        j.beginObject();
        j.key("device");
        writeDeviceJson(j, device);
        j.key("global");
        pair(j, r.global);
        j.key("global_origin").value(origin);
        j.key("local").value(r.local.toString());
        j.key("cl20").value(r.cl20);
        j.key("build_options").value(r.buildOptions);
        j.key("ok").value(r.ok());
        j.key("expected_failure").value(r.expectedFailure);
        j.key("unavailable").value(r.unavailable);
        j.key("error").value(r.error);
        j.key("error_code").value(r.errorCode);
        if (r.ok()) {
            j.key("num_groups");
            pair(j, r.numGroups);
            j.key("enqueued_from_builtin").value(r.enqueuedFromBuiltin);
            j.key("corners").beginArray();
            for (const CornerSample &c : r.corners) {
                j.beginObject().key("name").value(c.name).key("recorded").value(c.recorded);
                j.key("global_id");
                pair(j, c.globalId);
                j.key("local_size");
                pair(j, c.localSize);
                j.key("enqueued_local_size");
                pair(j, c.enqueuedLocalSize);
                j.key("group_id");
                pair(j, c.groupId);
                j.endObject();
            }
            j.endArray();
        }
        j.endObject();
        std::printf("%s\n", j.str().c_str());
        return status;
    }
    std::printf("Device: %s [%s]\n", device.summary().c_str(), device.spec().c_str());
    std::printf("Global %zux%zu (%s), local %s, compiled %s\n\n", r.global[0], r.global[1], origin.c_str(),
                r.local.isAuto() ? "NULL (the runtime picks)" : r.local.toString().c_str(),
                r.cl20 ? "with -cl-std=CL2.0" : "with OpenCL 1.2 rules (no -cl-std)");
    if (!r.ok()) {
        std::printf("%s: %s\n", r.expectedFailure ? "EXPECTED FAILURE" : r.unavailable ? "UNAVAILABLE" : "ERROR",
                    r.error.c_str());
        if (!r.buildLog.empty())
            std::printf("build log:\n%s\n", r.buildLog.c_str());
        return status;
    }
    std::printf("%s\n", formatCornerTable(r).c_str());
    std::printf("work-groups: %zu x %zu (get_num_groups)%s\n", r.numGroups[0], r.numGroups[1],
                r.enqueuedFromBuiltin ? ""
                                      : "\nundefined: OpenCL C 1.2 has no get_enqueued_local_size (every group has "
                                        "the enqueued size there)");
    return status;
}

} // namespace

int runBenchCli(int argc, char **argv, ImageIo *io)
{
    Args args;
    for (int i = 1; i < argc; ++i)
        args.items.emplace_back(argv[i]);
    if (!args.more() || args.items[0] == "--help" || args.items[0] == "-h" || args.items[0] == "help") {
        std::fputs(kUsage, args.more() ? stdout : stderr);
        return args.more() ? 0 : 2;
    }
    const std::string command = args.items[args.pos++];
    try {
        if (command == "devices" || command == "list") {
            bool json = false;
            while (args.more()) {
                const std::string flag = args.items[args.pos++];
                if (flag == "--json")
                    json = true;
                else
                    return usageError("unknown option '" + flag + "' for " + command);
            }
            return command == "devices" ? cmdDevices(json) : cmdList(json);
        }
        if (command == "run")
            return cmdRun(args, io);
        if (command == "inspect")
            return cmdInspect(args);
        return usageError("unknown command '" + command + "' (use devices, list, run or inspect; --help for more)");
    } catch (const Error &e) {
        std::string message = e.what();
        if (e.clCode())
            message += " (" + clErrorName(e.clCode()) + ")";
        return usageError(message);
    } catch (const std::exception &e) {
        return usageError(std::string("unexpected error: ") + e.what());
    }
}

} // namespace fwb
