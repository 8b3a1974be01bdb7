// filter-bench run: the planned runs (filters x variants x swept parameters) on one device, timed and
// checked against the CPU reference, as a table or JSON; optionally the single result as an image.
#include "Verb.h"

#include "AtomicFile.h"
#include "Devices.h"
#include "Error.h"
#include "ImageIo.h"
#include "IsolatedRun.h"
#include "OptionValues.h"
#include "ResultJson.h"
#include "RunPlan.h"
#include "RunTable.h"
#include "Session.h"
#include "TuningDb.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <vector>

namespace fwb::cli {

namespace {

// keepRunSessions (Verb.h): the session prepare --serve's runs share, and what it was made for.
struct KeptSession
{
    bool keep = false;
    std::string key;
    std::unique_ptr<Session> session;
};
KeptSession &kept()
{
    static KeptSession k;
    return k;
}

// The session of this run: the kept one when keepRunSessions is on and it was made for the same device,
// program cache, kernel folder and tuning choice; else a new one (kept, or owned by `own`).
Session &keptSessionFor(const DeviceInfo &device, const SessionOptions &options, bool noTuned, std::unique_ptr<Session> &own)
{
    KeptSession &k = kept();
    if (!k.keep) {
        own = std::make_unique<Session>(device, options);
        return *own;
    }
    const std::string key = device.spec() + "\n" + device.name + "\n" + options.cacheDir + "\n" + options.kernelDir
                            + (noTuned ? "\nno-tuned" : "\ntuned");
    if (!k.session || k.key != key) {
        k.session.reset();
        k.session = std::make_unique<Session>(device, options);
        k.key = key;
    }
    return *k.session;
}

// Drops the kept session unless dismissed: a run that throws or returns a failure leaves none behind.
struct SessionKeeper
{
    bool ok = false;
    ~SessionKeeper()
    {
        if (!ok)
            kept().session.reset();
    }
};

struct RunOptions
{
    std::string filterName, variantName = "all", deviceSpec, input, synthetic, output, cacheDir, kernelDir, jsonFile;
    std::vector<std::string> paramAssignments;
    int repeat = 10, warmup = 2;
    std::string transferText;
    bool transferGiven = false; // given, even as '' (refused then)
    std::optional<SizeWxH> tile, block;
    long long maxAllocMib = 0; // 0: not given
    bool json = false, check = false, overwrite = false, fastMath = false, noCpuSingle = false;
    bool baselines = false, noBaselines = false;
    bool noTuned = false; // --no-tuned: auto ignores the work-group tuning database
    bool flushCache = false; // --flush-cache: DRAM-bound kernel times (RunRequest::flushCache)
    bool noCopyProbe = false; // --no-copy-probe (internal): prepare's builds, no copy bandwidth (0)
    std::string userVariant; // run in the helper process (IsolatedRun)
    std::optional<double> timeoutS;
    std::string formatText = "gray8", borderText = "reflect101", localText = "auto";
};

// Everything run checks before any work (Verb::check), parsed into what the run then uses.
struct CheckedRun
{
    IsolatedRun isolated; // --user-variant, --timeout, a kernel folder: the rows go to the helper
    std::string filterName, variantName; // the user variant's base stands in for --filter/--variant
    RunRequest request;   // repeat, warmup, transfer, tiles, block, local, format, border
    std::vector<TransferMode> modes;
    std::vector<PlannedRun> plan;
    bool sweeping = false;
    long syntheticW = 1920, syntheticH = 1080; // the test card's size when there is no --input
};

CheckedRun checkRun(const RunOptions &o, ImageIo *io)
{
    CheckedRun c;
    // --user-variant / --timeout: every row runs in the helper process, stopped when over time.
    c.isolated = isolatedRun(o.userVariant, o.timeoutS, o.deviceSpec, o.cacheDir, o.kernelDir, !o.noTuned);
    const IsolatedRun &isolated = c.isolated;
    if (isolated.kernel && !o.filterName.empty() && o.filterName != isolated.kernel->baseFilter)
        throw Error("user variant " + isolated.kernel->name + " is a " + isolated.kernel->baseFilter + " variant, not "
                    + o.filterName);
    c.filterName = isolated.kernel ? isolated.kernel->baseFilter : o.filterName;
    c.variantName = isolated.kernel ? isolated.kernel->baseVariant : o.variantName;
    const std::string &filterName = c.filterName, &variantName = c.variantName, &input = o.input,
                      &synthetic = o.synthetic, &output = o.output, &jsonFile = o.jsonFile;
    RunRequest &request = c.request;
    request.repeat = o.repeat;
    request.warmup = o.warmup;
    request.flushCache = o.flushCache;
    request.params.fastMath = o.fastMath;
    request.cpuSingle = !o.noCpuSingle;
    std::vector<TransferMode> &modes = c.modes;
    modes = {TransferMode::Pageable};
    if (o.transferText == "all") {
        modes = allTransferModes();
    } else if (o.transferGiven || !o.transferText.empty()) {
        const auto mode = parseTransferMode(o.transferText);
        if (!mode)
            throw Error("--transfer '" + o.transferText + "' must be pageable, pinned, zero_copy, output_mapped, svm or all");
        modes = {*mode};
    }
    request.transfer = modes.front();
    if (o.tile) {
        request.tileWidth = int(o.tile->w);
        request.tileHeight = int(o.tile->h);
    }
    if (o.maxAllocMib > 0)
        request.maxAllocBytes = std::uint64_t(o.maxAllocMib) << 20;
    // --block WxH: the output block per work-item of the block variants (Geometry::Blocks), instead of the
    // variant's own (the kernels take it as -DBLOCK_W / -DBLOCK_H; a shape a kernel cannot make fails its
    // build with the kernel's own message). For trying other shapes, as --local does for work-groups.
    if (o.block)
        request.block = LocalSize{int(o.block->w), int(o.block->h)}; // the session builds the variant with it (withOutputBlock)
    if (request.block.isConcrete() && !o.userVariant.empty())
        throw Error("--block cannot be combined with --user-variant (a user variant keeps its own block)");
    if (filterName.empty())
        throw Error("run needs --filter NAME (see filter-bench list)");
    const std::vector<const FilterSpec *> filters = selectFilters(filterName);
    applyLayoutOptions(o.formatText, o.borderText, o.localText, request);
    request.check = true;
    request.keepOutput = !output.empty();
    c.plan = planRuns(filters, variantName, o.paramAssignments, request.params);
    const std::vector<PlannedRun> &plan = c.plan;
    c.sweeping = plan.back().combo > 0 || filters.size() > 1;
    if (!input.empty() && !synthetic.empty())
        throw Error("use either --input or --synthetic, not both");
    if (!output.empty()) {
        if (plan.size() != 1)
            throw Error("--output needs a single filter, --variant and parameter value (one result is saved)");
        if (!io)
            throw Error("this build has no image file support (FWB_WITH_QT=OFF): --output is unavailable");
        if (std::string problem = io->saveProblem(output); !problem.empty())
            throw Error("--output " + problem); // before the run, not after it
    }
    checkImagePath(io, "--input", input);
    checkOutputFiles({{"--output", output}, {"--json-file", jsonFile}}, {input}, o.overwrite);

    if (input.empty()) { // the test card: its size checked here, drawn when the run starts
        checkSyntheticSize(synthetic, c.syntheticW, c.syntheticH, channelCount(request.params.format));
    } else if (!io) {
        throw Error("this build has no image file support (FWB_WITH_QT=OFF): use --synthetic WxH");
    }
    return c;
}

int cmdRun(const RunOptions &o, ImageIo *io)
{
    const CheckedRun c = checkRun(o, io);
    const IsolatedRun &isolated = c.isolated;
    const std::string &variantName = c.variantName, &input = o.input, &output = o.output, &jsonFile = o.jsonFile,
                      &deviceSpec = o.deviceSpec, &cacheDir = o.cacheDir, &kernelDir = o.kernelDir;
    const bool json = o.json, check = o.check;
    RunRequest request = c.request;
    const std::vector<DeviceInfo> devices = listDevices();
    const DeviceInfo device = selectDevice(devices, deviceSpec);
    // Without --transfer, the fastest way measured for the kind of device (fastestTransferFor).
    const bool defaultPinned = !o.transferGiven && o.transferText.empty()
                               && fastestTransferFor(device) == TransferMode::Pinned;
    std::vector<TransferMode> modes = c.modes;
    if (defaultPinned) {
        modes = {TransferMode::Pinned};
        request.transfer = TransferMode::Pinned;
    }
    const std::vector<PlannedRun> &plan = c.plan;
    const bool sweeping = c.sweeping;
    const auto format = parsePixelFormat(o.formatText); // checked above
    const auto border = parseBorderMode(o.borderText);

    // The image: a file or the deterministic test card. With --transfer pinned alone (in this process) it
    // lives in page-locked memory from the start, made once the session exists (below): the decoder
    // writes into it (ImageIo::loadInto), and the copies and the streamed tiles DMA straight from and
    // into it: no staging memcpy.
    const bool pinnedImage = !isolated.enabled && modes.size() == 1 && modes.front() == TransferMode::Pinned;
    Image image;
    std::string source;
    long syntheticW = 0, syntheticH = 0;
    auto loadInput = [&](const ImageIo::Allocate &allocate) {
        std::string error;
        if (!io->loadInto(input, allocate, image, error))
            throw Error("cannot load " + input + ": " + error);
        source = input;
    };
    if (!input.empty()) {
        if (!pinnedImage)
            loadInput(ImageIo::plainImage);
    } else {
        if (!pinnedImage)
            image = makeTestCard(int(c.syntheticW), int(c.syntheticH), *format);
        syntheticW = c.syntheticW;
        syntheticH = c.syntheticH;
        source = "test card";
    }

    SessionOptions sessionOptions;
    sessionOptions.cacheDir = cacheDir;
    sessionOptions.kernelDir = kernelDir;
    // auto launches use the tuning database's shape for this device/variant/format/size class (filled
    // by filter-bench tune); a damaged database is a warning, never a failure.
    auto tuning = std::make_shared<TuningDb>(TuningDb::defaultPath(cacheDir));
    if (std::string warning; !o.noTuned && !tuning->load(&warning))
        std::fprintf(stderr, "filter-bench: warning: %s\n", warning.c_str());
    if (!o.noTuned)
        sessionOptions.tunedLocal = TuningDb::lookup(tuning);
    std::unique_ptr<Session> ownSession;
    Session &session = keptSessionFor(device, sessionOptions, o.noTuned, ownSession);
    SessionKeeper keeper; // a run that fails drops a kept session: its device may be lost
    if (pinnedImage && !input.empty()) { // decoded straight into page-locked memory, in the run's format
        std::string pinError;
        loadInput([&](int w, int h, PixelFormat) {
            try {
                return session.pinnedImage(w, h, *format);
            } catch (const Error &e) { // ordinary memory then: the copies go through staging, as without it
                pinError = e.what();
                return Image(w, h, *format);
            }
        });
        if (!pinError.empty())
            std::fprintf(stderr, "filter-bench: warning: %s; staging copies instead\n", pinError.c_str());
    } else if (pinnedImage) { // outside the timed repeats: the test card drawn into page-locked memory
        const int w = int(syntheticW), h = int(syntheticH);
        try {
            Image pinned = session.pinnedImage(w, h, *format);
            drawTestCard(pinned);
            image = std::move(pinned);
        } catch (const Error &e) { // ordinary memory then: the copies go through staging, as without it
            std::fprintf(stderr, "filter-bench: warning: %s; staging copies instead\n", e.what());
            image = makeTestCard(w, h, *format);
        }
    }
    // Prepare's runs (core/PrepareQueue.h's prepareRunArgs) only build: the copy probe (2 x 256 MiB copied
    // six times) was most of a window's child start on PoCL, where the builds race the clock.
    const double copyGBps = o.noCopyProbe ? 0.0 : session.copyBandwidthGBps();
    // With --transfer, the bandwidth probe (once per device per process) gives every copy its % of the ceiling.
    const Session::BandwidthProbe *probe = o.transferText.empty() ? nullptr : &session.bandwidthProbe();

    // Our variants, then OpenCV's rows for the same filter and parameters (opencv_cpu on every CPU
    // thread, opencv_tapi on this device), by default when every variant runs.
    const bool withBaselines = !o.noBaselines && (o.baselines || variantName == "all");
    std::vector<RunResult> results;
    std::vector<PlannedRun> shown; // the plan as the rows came out (baseline rows included)
    std::size_t groupStart = 0; // the first row of this filter and parameter set
    for (std::size_t i = 0; i < plan.size(); ++i) {
        const PlannedRun &planned = plan[i];
        if (i == 0 || plan[i - 1].filter != planned.filter || plan[i - 1].combo != planned.combo)
            groupStart = results.size();
        request.filter = planned.filter->name;
        request.variant = planned.variant;
        request.params = planned.params;
        // OpenCV's rows close the group: its opencv_cpu row's time is the one every row divides by (below),
        // so the rows do not time OpenCV themselves first.
        const bool openCvRows = withBaselines && openCvUnsupportedReason(*planned.filter, planned.params)
                                                         .find("no equivalent") == std::string::npos;
        request.openCvCpuBaseline = !openCvRows;
        bool skip = false; // an "all" sweep with --block runs the block variants only
        if (request.block.isConcrete()) {
            const VariantSpec *spec = planned.filter->variant(planned.variant);
            const bool blocks = spec && makesBlocks(*spec);
            if (!blocks && variantName != "all")
                throw Error("--block: " + planned.filter->name + "/" + planned.variant
                            + " makes one output per work-item (only block variants take --block)");
            skip = !blocks;
        }
        for (TransferMode mode : skip ? std::vector<TransferMode>{} : modes) { // --transfer all: one row per mode
            request.transfer = mode;
            results.push_back(isolated.enabled ? isolated.run(image, request) : session.run(image, request));
            shown.push_back(planned);
        }
        request.transfer = modes.front();
        const bool lastOfGroup = i + 1 == plan.size() || plan[i + 1].filter != planned.filter
                                 || plan[i + 1].combo != planned.combo;
        if (openCvRows && lastOfGroup) {
            double openCvMs = -1;
            for (Baseline baseline : {Baseline::OpenCvCpu, Baseline::OpenCvTapi, Baseline::Npp}) {
                results.push_back(session.runBaseline(image, request, baseline));
                shown.push_back(planned);
                shown.back().variant = baselineName(baseline);
                if (baseline == Baseline::OpenCvCpu && results.back().ok())
                    openCvMs = results.back().kernelMs.median;
            }
            // The opencv_cpu row measured OpenCV's CPU code too: every row of the group takes OpenCV's time
            // (the CPU timing store's figure, refreshed below), so the table's fastest-CPU line and the
            // OpenCV row show one number.
            if (openCvMs > 0)
                for (std::size_t k = groupStart; k < results.size(); ++k)
                    if (results[k].cpuMultiMs > 0 && results[k].openCvCpuMs <= 0)
                        setCpuBest(results[k], openCvMs);
        }
    }
    // Every CPU figure as the process's CPU timing store has it after the last measurement (CpuTimings.h:
    // the best median of every measurement of the same work), one CPU time per work in the table and JSON.
    for (RunResult &r : results)
        refreshCpuFigures(r);

    // What a row could not honour (a tuned shape or block this device or kernel cannot take) and ran
    // without instead: a warning, not a failure.
    for (const RunResult &r : results)
        if (!r.warning.empty())
            std::fprintf(stderr, "filter-bench: warning: %s: %s\n", r.variant.c_str(), r.warning.c_str());

    // Exit status: unavailable/expected outcomes are fine in an "all" sweep, never for a named variant.
    int status = 0;
    std::string reason;
    for (const RunResult &r : results) {
        const bool explained = r.expectedFailure
                               || (r.unavailable && (variantName == "all" || r.baseline || modes.size() > 1));
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
        Json j = Json::object();
        j["device"] = deviceJson(device);
        j["copy_gbps"] = jsonNumber(copyGBps);
        j["image"] = Json::object({{"width", image.width()},
                                   {"height", image.height()},
                                   {"format", formatName(*format)},
                                   {"source", source}});
        j["border"] = borderModeName(*border);
        j["repeat"] = request.repeat;
        j["warmup"] = request.warmup;
        j["flush_cache"] = request.flushCache;
        j["transfer"] = defaultPinned ? std::string("pinned")
                        : o.transferText.empty() ? std::string("pageable")
                                                 : o.transferText;
        if (probe)
            j["probe"] = bandwidthProbeJson(*probe);
        Json &list = j["results"] = Json::array();
        for (const RunResult &r : results)
            list.push_back(runResultJson(r));
        j["ok"] = status == 0;
        const std::string text = dumpJson(j);
        if (json)
            std::printf("%s\n", text.c_str());
        if (!jsonFile.empty()) {
            std::string error;
            const std::string line = text + "\n";
            if (!writeFileAtomically(jsonFile, line.data(), line.size(), &error)) {
                status = 1;
                reason = error;
            }
        }
    }
    if (!json) {
        printTable(device, copyGBps, image.convertedTo(*format), source, results, sweeping);
        if (plan.back().combo > 0)
            printSweepMatrix(shown, results);
        if (defaultPinned)
            std::printf("Transfers: the image in page-locked memory (the default on a discrete GPU; "
                        "--transfer pageable for ordinary copies).\n");
    }
    if (status != 0)
        std::fprintf(stderr, "filter-bench: %s\n", reason.c_str());
    keeper.ok = status == 0;
    return status;
}

} // namespace

void keepRunSessions(bool keep)
{
    kept().keep = keep;
    if (!keep) {
        kept().session.reset();
        kept().key.clear();
    }
}

namespace {

void addRunOptions(CLI::App &c, RunOptions &o)
{
    c.add_option("--filter", o.filterName, "filters to run, in this order (all: the whole catalogue;\n"
                                           "see filter-bench list)")
        ->type_name("NAME[,NAME..]|all");
    c.add_option("--variant", o.variantName, "variant to run (default: all)")->type_name("NAME|all");
    addDeviceOption(c, o.deviceSpec);
    addLocalOption(c, o.localText, "work-group shape (default: auto = the project's shape for the device,\n"
                                   "e.g. 32x8 on GPUs; driver = NULL local size, the runtime picks)");
    c.add_option("--input", o.input, "image file to filter (PNG, JPEG; Qt builds also TIFF, WebP, BMP, ...)")
        ->type_name("FILE");
    addSyntheticOption(c, o.synthetic, "the built-in test card at this size instead (default 1920x1080)");
    c.add_option("--format", o.formatText, "pixel layout the kernels see (default gray8)")
        ->type_name("gray8|rgb888|rgba8888");
    c.add_option("--param", o.paramAssignments,
                 "filter parameter, e.g. sigma=1.5 (repeatable); a list sweeps it,\n"
                 "e.g. --filter recursive_gaussian,gaussian --param sigma=1,2,4,8,16,32")
        ->type_name("NAME=VALUE[,VALUE..]")
        ->expected(1)
        ->allow_extra_args(false) // one NAME=VALUES per --param: a following word is not another value
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    c.add_option("--border", o.borderText, "border rule (default reflect101)")
        ->type_name("reflect101|replicate|constant");
    c.add_flag("--fast-math", o.fastMath, "build with -cl-fast-relaxed-math where the variant uses such math");
    addCountOption(c, "--repeat", o.repeat, 1, "timed repeats (default 10)");
    addCountOption(c, "--warmup", o.warmup, 0, "untimed warm-up runs (default 2)");
    c.add_option("--output", o.output, "save the result of a single variant (never over the input)")
        ->type_name("FILE");
    c.add_flag("--overwrite", o.overwrite, "let --output and --json-file replace an existing file");
    c.add_flag("--check", o.check, "fail (exit 1) unless every result matches the CPU reference");
    c.add_flag("--no-cpu-single", o.noCpuSingle,
               "skip timing the single-threaded CPU reference (the check still runs)");
    c.add_option("--transfer", o.transferText,
                 "how the image moves (seed 004's table): pageable copies (the default, except on a\n"
                 "discrete GPU: pinned there), pinned\n"
                 "(image and result in page-locked memory), zero_copy (kernel on host-visible\n"
                 "memory), output_mapped, svm; all = one row per mode (one ordinary image:\n"
                 "pinned copies through page-locked staging there)")
        ->type_name("pageable|pinned|zero_copy|output_mapped|svm|all")
        ->each([&o](const std::string &) { o.transferGiven = true; });
    // --block, --tile and --max-alloc-mib refuse '' themselves, with the form they need.
    addSizeOption(c, "--block", o.block, kMaxOutputBlockSide,
                  [](const std::string &text) {
                      return "--block '" + text + "' is not of the form WxH with sides 1.."
                             + std::to_string(kMaxOutputBlockSide) + ", e.g. 16x8";
                  },
                  "output pixels across x rows down per work-item for the block variants\n"
                  "(strips, sorted_columns, forgetful...) instead of the variant's own; with --variant all\n"
                  "only the block variants run",
                  EmptyValue::Refused);
    addSizeOption(c, "--tile", o.tile, kMaxImageSide,
                  [](const std::string &text) {
                      return "--tile '" + text + "' is not of the form WxH with sides >= 1, e.g. 1024x1024";
                  },
                  "process the image in tiles of WxH output pixels, with halos, streamed over\n"
                  "several queues (default: only when the image does not fit the device)",
                  EmptyValue::Refused);
    c.add_option("--max-alloc-mib", o.maxAllocMib, "pretend the device allows at most N MiB in one allocation (tiles then)")
        ->type_name("N")
        ->transform(wholeNumberIn(
            1, 1ll << 30,
            [](const std::string &text) { return "--max-alloc-mib '" + text + "' must be a whole number of MiB >= 1"; },
            EmptyValue::Refused));
    c.add_flag("--baselines", o.baselines,
               "add OpenCV's rows (opencv_cpu, opencv_tapi) for a single --variant too\n"
               "(default: with --variant all, for every filter OpenCV also has)");
    c.add_flag("--no-baselines", o.noBaselines, "no OpenCV rows");
    c.add_flag("--no-tuned", o.noTuned, "ignore the work-group tuning database (auto = the project's default)");
    c.add_flag("--flush-cache", o.flushCache,
               "before every launch write a scratch buffer several times the device's cache, so kernels\n"
               "(and the NPP row) find none of the image there: DRAM-bound kernel times");
    c.add_flag("--no-copy-probe", o.noCopyProbe, "do not measure the copy bandwidth (internal: prepare's builds)")->group("");
    addCacheDirOption(c, o.cacheDir);
    c.add_option("--kernel-dir", o.kernelDir, "folder of edited .cl files (used instead of the built-in ones)")
        ->type_name("DIR")
        ->check(CLI::ExistingDirectory); // a mistyped folder must not fall back to the built-in kernels silently
    c.add_option("--user-variant", o.userVariant,
                 "run a saved user variant (see filter-bench user-variants) in the helper\n"
                 "process; its base filter and variant stand in for --filter/--variant")
        ->type_name("NAME|PATH");
    addTimeoutOption(c, o.timeoutS,
                     "run each variant in the helper process and stop it after S seconds\n"
                     "(exit 1: '... did not finish within S s and was stopped'; default 10\n"
                     "with --user-variant)");
    addJsonFlag(c, o.json, "one JSON object instead of the table");
    c.add_option("--json-file", o.jsonFile, "also write that JSON object to FILE (the table still prints)")
        ->type_name("FILE");
}

} // namespace

Verb runVerb(CLI::App &root, ImageIo *io)
{
    Verb verb = optionsVerb(root, "run",
                            "run variants, time them and check them against the CPU",
                            addRunOptions, checkRun, cmdRun, io);
    verb.unknownArgument = [](const std::string &argument) {
        return "unknown option '" + argument + "' (see filter-bench --help)";
    };
    return verb;
}

} // namespace fwb::cli
