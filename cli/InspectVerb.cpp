// filter-bench inspect: seed 001's work-group inspector - how the runtime split an NDRange into
// work-groups (or why it refused), as a corner table or JSON.
#include "Verb.h"

#include "OptionValues.h"

#include "Devices.h"
#include "Error.h"
#include "Image.h"
#include "Inspector.h"
#include "ResultJson.h"

#include <cstdio>

namespace fwb::cli {

namespace {

struct InspectOptions
{
    std::string deviceSpec, globalText, syntheticText, localText = "auto", cacheDir;
    bool json = false, cl20 = false;
};

// [w, h] of a size pair.
Json pairJson(const std::size_t v[2]) { return Json::array({std::int64_t(v[0]), std::int64_t(v[1])}); }

// inspect's checks before any work (Verb::check): the request it would launch; `origin` says where
// the global size came from.
InspectRequest checkInspect(const InspectOptions &o, std::string *origin = nullptr)
{
    const std::string &globalText = o.globalText, &syntheticText = o.syntheticText, &localText = o.localText;
    InspectRequest request;
    request.cl20 = o.cl20;
    if (!globalText.empty() && !syntheticText.empty())
        throw Error("use either --global or --synthetic, not both");
    long w = 640, h = 480;
    std::string where = "interior of a 640x480 image";
    if (!globalText.empty()) {
        if (!parseSize(globalText, kMaxImageSide, w, h))
            throw Error("--global '" + globalText + "' is not of the form WxH, e.g. 638x478");
        request.global[0] = std::size_t(w);
        request.global[1] = std::size_t(h);
        where = "as given";
    } else {
        if (!syntheticText.empty() && !parseSize(syntheticText, kMaxImageSide, w, h))
            throw Error("--synthetic '" + syntheticText + "' is not of the form WxH, e.g. 640x480");
        if (w < 3 || h < 3)
            throw Error("--synthetic " + syntheticText + " has no interior (needs at least 3x3)");
        request.global[0] = std::size_t(w - 2);
        request.global[1] = std::size_t(h - 2);
        where = "interior of a " + std::to_string(w) + "x" + std::to_string(h) + " image";
    }
    std::string localError;
    const auto local = LocalSize::parse(localText, &localError);
    if (!local)
        throw Error(localError);
    request.local = *local;
    request.cacheDir = o.cacheDir;
    if (origin)
        *origin = where;
    return request;
}

// Seed 001's corner table: how the runtime split an NDRange into work-groups (or why it refused).
int cmdInspect(const InspectOptions &o)
{
    std::string origin;
    const InspectRequest request = checkInspect(o, &origin);
    const bool json = o.json;
    const DeviceInfo device = selectDevice(listDevices(), o.deviceSpec);
    const InspectResult r = inspectWorkGroups(device, request);
    const int status = r.ok() || r.expectedFailure ? 0 : 1;

    if (json) {
        Json j = Json::object();
        j["device"] = deviceJson(device);
        j["global"] = pairJson(r.global);
        j["global_origin"] = origin;
        j["local"] = r.local.toString();
        j["cl20"] = r.cl20;
        j["build_options"] = r.buildOptions;
        j["ok"] = r.ok();
        j["expected_failure"] = r.expectedFailure;
        j["unavailable"] = r.unavailable;
        j["error"] = r.error;
        j["error_code"] = r.errorCode;
        if (r.ok()) {
            j["num_groups"] = pairJson(r.numGroups);
            j["enqueued_from_builtin"] = r.enqueuedFromBuiltin;
            Json &corners = j["corners"] = Json::array();
            for (const CornerSample &c : r.corners)
                corners.push_back(Json::object({{"name", c.name},
                                                {"recorded", c.recorded},
                                                {"global_id", pairJson(c.globalId)},
                                                {"local_size", pairJson(c.localSize)},
                                                {"enqueued_local_size", pairJson(c.enqueuedLocalSize)},
                                                {"group_id", pairJson(c.groupId)}}));
        }
        std::printf("%s\n", dumpJson(j).c_str());
        if (status != 0) // the one-line reason on stderr with --json too, as every verb gives it
            std::fprintf(stderr, "filter-bench: %s\n", r.error.c_str());
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
        if (status != 0) // a real failure: the one-line reason on stderr too, as every verb gives it
            std::fprintf(stderr, "filter-bench: %s\n", r.error.c_str());
        return status;
    }
    std::printf("%s\n", formatCornerTable(r).c_str());
    std::printf("work-groups: %zu x %zu (get_num_groups)%s\n", r.numGroups[0], r.numGroups[1],
                r.enqueuedFromBuiltin ? ""
                                      : "\nundefined: OpenCL C 1.2 has no get_enqueued_local_size (every group has "
                                        "the enqueued size there)");
    return status;
}

void addInspectOptions(CLI::App &c, InspectOptions &o)
{
    c.add_option("--global", o.globalText, "NDRange size to launch")->type_name("WxH");
    addSyntheticOption(c, o.syntheticText, "or an image whose interior (W-2)x(H-2) is launched\n"
                                           "(default --synthetic 640x480: global 638x478, as in seed 001)");
    addLocalOption(c, o.localText, "work-group shape (default auto); e.g. 16x16 to see the CL 1.2 failure");
    c.add_flag("--cl20", o.cl20, "build with -cl-std=CL2.0 (non-uniform groups, get_enqueued_local_size)");
    addDeviceOption(c, o.deviceSpec);
    addCacheDirOption(c, o.cacheDir);
    addJsonFlag(c, o.json, "one JSON object instead of the table");
}

} // namespace

Verb inspectVerb(CLI::App &root)
{
    return optionsVerb(root, "inspect",
                       "work-group inspector (seed 001): ids and sizes at the NDRange corners",
                       addInspectOptions, [](const InspectOptions &x) { checkInspect(x); }, cmdInspect);
}

} // namespace fwb::cli
