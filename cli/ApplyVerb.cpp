// filter-bench apply: one variant over many image files (files, folders, globs) into an output folder
// that mirrors them. A pipeline (ApplyPipeline): decode and encode on host threads, the device run on
// --queues Sessions per device (each used from its own thread) in page-locked memory, at most
// --max-inflight images in memory.
// Outputs are written atomically and never over an existing file (unless --overwrite), so an
// interrupted batch resumes where it stopped; --shard I/N splits a batch for a scheduler's array job.
#include "Verb.h"

#include "ApplyCheck.h"
#include "ApplyPipeline.h"
#include "OptionValues.h"

#include "Catalogue.h"
#include "Devices.h"
#include "Error.h"
#include "ImageIo.h"
#include "Session.h"
#include "TuningDb.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace fwb::cli {

namespace {

namespace fs = std::filesystem;

// --device: empty (the default device), all (allDevicesToSpreadOver: every GPU, else every device), or
// a list of specs ("0:0,0:0" runs two sessions on one device).
std::vector<DeviceInfo> selectDevices(const std::string &spec)
{
    const std::vector<DeviceInfo> devices = listDevices();
    if (spec == "all")
        return allDevicesToSpreadOver(devices);
    std::vector<DeviceInfo> chosen;
    std::size_t at = 0;
    do {
        const std::size_t comma = spec.find(',', at);
        chosen.push_back(selectDevice(devices, spec.substr(at, comma - at)));
        at = comma == std::string::npos ? comma : comma + 1;
    } while (at != std::string::npos);
    return chosen;
}

int cmdApply(const ApplyOptions &o, ImageIo *io)
{
    const CheckedApply c = checkApply(o, io);
    const std::vector<ApplyItem> &items = c.items;

    // Sessions: --queues per device (or list entry), each used only by its own device thread.
    SessionOptions sessionOptions;
    sessionOptions.cacheDir = o.cacheDir;
    auto tuning = std::make_shared<TuningDb>(TuningDb::defaultPath(o.cacheDir));
    if (std::string warning; !o.noTuned && !tuning->load(&warning))
        std::fprintf(stderr, "filter-bench: warning: %s\n", warning.c_str());
    if (!o.noTuned)
        sessionOptions.tunedLocal = TuningDb::lookup(tuning);
    std::vector<std::unique_ptr<Session>> sessions;
    const FilterSpec *filter = findFilter(c.request.filter);
    const VariantSpec *variant = filter ? filter->variant(c.request.variant) : nullptr;
    for (const DeviceInfo &device : selectDevices(o.deviceSpec)) {
        // A variant the device or layout cannot run is refused before any file is touched, not once per image.
        if (const std::string why = variant ? variantUnavailableReason(*variant, device, c.request.params.format) : "";
            !why.empty())
            throw Error(c.request.filter + " " + why + " on " + device.name);
        for (int q = 0, queues = o.queues > 0 ? o.queues : defaultQueues(device); q < queues; ++q)
            sessions.push_back(std::make_unique<Session>(device, sessionOptions));
    }

    std::error_code ec;
    fs::create_directories(o.outDir, ec);
    if (ec)
        throw Error("cannot make the --out folder " + o.outDir + ": " + ec.message());

    PipelineSettings settings;
    settings.request = c.request;
    // The pipeline's images are the sessions' page-locked ones: the copies DMA straight from and into them.
    settings.request.transfer = TransferMode::Pinned;
    settings.overwrite = o.overwrite;
    // Every core decodes or encodes; the device threads mostly wait for their device.
    settings.hostThreads = std::max(1u, std::thread::hardware_concurrency());
    settings.inflightGiven = c.maxInflight > 0;
    settings.maxInflight = c.maxInflight > 0 ? c.maxInflight
                                             : defaultMaxInflight(settings.hostThreads, unsigned(sessions.size()));
    io->setPngLevel(o.pngLevel >= 0 ? o.pngLevel : kApplyPngLevel);

    BatchReport report(items, o.json);
    if (o.shardText.size() && !o.json)
        std::fprintf(stderr, "filter-bench: shard %s: %zu of %zu inputs\n", o.shardText.c_str(), items.size(),
                     c.allInputs);
    const ApplyThreads threads = runApplyPipeline(items, settings, sessions, *io, report);
    return report.summarize(threads) ? 0 : 1;
}

void addApplyOptions(CLI::App &c, ApplyOptions &o)
{
    c.add_option("INPUT", o.inputs, "image files, folders (their PNG and JPEG files) or globs")
        ->type_name("FILE|DIR|GLOB");
    c.add_option("--filter", o.filterName, "the filter (see filter-bench list)")->type_name("NAME");
    c.add_option("--variant", o.variantName, "the variant to apply")->type_name("NAME");
    c.add_option("--param", o.paramAssignments, "filter parameter, e.g. sigma=1.5 (repeatable)")
        ->type_name("NAME=VALUE")
        ->expected(1)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    c.add_option("--border", o.borderText, "border rule (default reflect101)")
        ->type_name("reflect101|replicate|constant");
    c.add_option("--format", o.formatText, "pixel layout the kernels see and the outputs have\n"
                                           "(default rgba8888; rgb888: a colour JPEG's own three channels,\n"
                                           "a quarter fewer bytes to decode, copy and encode)")
        ->type_name("gray8|rgb888|rgba8888");
    c.add_option("--out", o.outDir, "folder for the results: the inputs' names relative to the\n"
                                    "folder they came from (made when missing)")
        ->type_name("DIR");
    c.add_option("--out-format", o.outFormat, "write this format instead of each input's own")->type_name("png|jpg");
    c.add_flag("--recursive", o.recursive, "take the files in the INPUT folders' subfolders too");
    c.add_flag("--overwrite", o.overwrite, "replace results already in --out (default: skip them, so an\n"
                                           "interrupted batch resumes)");
    c.add_option("--max-inflight", o.maxInflight, "images in memory at once, decoded to encoded (default one per\n"
                                                   "core and two per device thread, 4 to 64)")
        ->type_name("N")
        ->transform(wholeNumberIn("--max-inflight", 1, 1024));
    c.add_option("--device", o.deviceSpec, "P:D, gpu, cpu, a name substring, a list (0:0,1:0) or all:\n"
                                           "every GPU of the host (not the CPU device beside them), every\n"
                                           "device where there is no GPU (default: best GPU, else CPU)")
        ->type_name("SPEC[,SPEC..]|all");
    c.add_option("--queues", o.queues, "sessions per device, each with its queue and thread, so one image's\n"
                                       "copies and kernels overlap another's setup (default 2 on a GPU,\n"
                                       "1 on a CPU device)")
        ->type_name("N")
        ->transform(wholeNumberIn("--queues", 1, 16));
    c.add_option("--png-level", o.pngLevel, "zlib level of the PNGs written: 0 (fastest, largest) to 9\n"
                                            "(smallest, slowest); the pixels are the same at every level\n"
                                            "(default " + std::to_string(kApplyPngLevel) + ")")
        ->type_name("0-9")
        ->transform(wholeNumberIn("--png-level", 0, 9));
    c.add_option("--shard", o.shardText, "take every Nth input (sorted) from the Ith, 0-based: for\n"
                                         "job arrays (Slurm, GNU parallel over hosts)")
        ->type_name("I/N")
        ->check(shardUpTo(kMaxShards, [](const std::string &text) {
            return "--shard '" + text + "' must be I/N with 0 <= I < N, e.g. 0/4 (the first of four shards)";
        }));
    c.add_flag("--check", o.check, "compare each result with the CPU reference (a mismatch fails it)");
    c.add_flag("--no-tuned", o.noTuned, "ignore the work-group tuning database");
    addCacheDirOption(c, o.cacheDir);
    addJsonFlag(c, o.json, "one JSON line per image and a summary line");
}

} // namespace

Verb applyVerb(CLI::App &root, ImageIo *io)
{
    return optionsVerb(root, "apply", "apply one variant to many image files", addApplyOptions, checkApply, cmdApply,
                       io);
}

} // namespace fwb::cli
