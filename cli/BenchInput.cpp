// Shared setup of the race, tune and report verbs (see BenchInput.h).
#include "BenchInput.h"

#include "Error.h"
#include "ImageIo.h"
#include "OptionValues.h"
#include "RunPlan.h"
#include "Verb.h"

#include <cstdio>
#include <cstdlib>

namespace fwb::cli {

void addBenchInputOptions(CLI::App &c, BenchInputOptions &o, const std::string &jsonDescription, int defaultRepeat)
{
    c.add_option("--filter", o.filterName, "the filter (see filter-bench list)")->type_name("NAME");
    addDeviceOption(c, o.deviceSpec);
    c.add_option("--input", o.input, "image file to filter (PNG, JPEG; Qt builds also TIFF, WebP, BMP, ...)")
        ->type_name("FILE");
    addSyntheticOption(c, o.synthetic, "the built-in test card at this size instead (default 1920x1080)");
    c.add_option("--format", o.formatText, "pixel layout the kernels see (default gray8)")
        ->type_name("gray8|rgb888|rgba8888");
    c.add_option("--border", o.borderText, "border rule (default reflect101)")
        ->type_name("reflect101|replicate|constant");
    c.add_option("--param", o.paramAssignments, "filter parameter, e.g. sigma=1.5 (repeatable)")
        ->type_name("NAME=VALUE")
        ->expected(1)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    o.repeat = defaultRepeat;
    addCountOption(c, "--repeat", o.repeat, 1, "timed repeats per run (default " + std::to_string(defaultRepeat) + ")");
    addCountOption(c, "--warmup", o.warmup, 0, "untimed warm-up runs (default 1)");
    c.add_flag("--no-tuned", o.noTuned, "ignore the work-group tuning database (auto = the project's default)");
    addCacheDirOption(c, o.cacheDir);
    c.add_option("--kernel-dir", o.kernelDir, "folder of edited .cl files (used instead of the built-in ones;\n"
                                              "every run then goes to the helper process, as --timeout)")
        ->type_name("DIR")
        ->check(CLI::ExistingDirectory); // a mistyped folder must not fall back to the built-in kernels silently
    addTimeoutOption(c, o.timeoutS,
                     "run each variant in the helper process and stop it after S seconds\n"
                     "(the row fails: '... did not finish within S s and was stopped'; default 10\n"
                     "with --kernel-dir or FWB_KERNEL_DIR)");
    addJsonFlag(c, o.json, jsonDescription);
}

CheckedBench checkBench(const BenchInputOptions &o, ImageIo *io, const std::string &verb)
{
    CheckedBench c;
    if (o.filterName.empty())
        throw Error(verb + " needs --filter NAME (see filter-bench list)");
    c.filter = findFilter(o.filterName);
    if (!c.filter)
        selectFilters(o.filterName); // throws with the list of known filters
    if (!c.filter)
        throw Error(verb + " takes one filter, not '" + o.filterName + "'");
    RunRequest &r = c.request;
    r.filter = c.filter->name;
    applyLayoutOptions(o.formatText, o.borderText, o.localText, r);
    r.repeat = o.repeat;
    r.warmup = o.warmup;
    r.keepOutput = false;
    for (const std::string &assignment : o.paramAssignments)
        if (std::string error = applyParam(*c.filter, r.params, assignment); !error.empty())
            throw Error(error);

    if (!o.input.empty() && !o.synthetic.empty())
        throw Error("use either --input or --synthetic, not both");
    if (!o.input.empty()) {
        if (!io)
            throw Error("this build has no image file support (FWB_WITH_QT=OFF): use --synthetic WxH");
    } else {
        checkSyntheticSize(o.synthetic, c.syntheticW, c.syntheticH);
    }
    // Edited kernels run in the helper, as with filter-bench run: one that writes out of bounds costs
    // that process, never this one.
    c.isolated = isolatedRun({}, o.timeoutS, o.deviceSpec, o.cacheDir, o.kernelDir, !o.noTuned);
    return c;
}

BenchSetup prepareBench(const BenchInputOptions &o, ImageIo *io, const std::string &verb)
{
    CheckedBench c = checkBench(o, io, verb);
    BenchSetup s;
    s.filter = c.filter;
    s.request = c.request;
    s.isolated = std::move(c.isolated);
    if (!o.input.empty()) {
        std::string error;
        if (!io->load(o.input, s.image, error))
            throw Error("cannot load " + o.input + ": " + error);
        s.source = o.input;
    } else {
        s.image = makeTestCard(int(c.syntheticW), int(c.syntheticH), s.request.params.format);
        s.source = "test card";
    }
    s.device = selectDevice(listDevices(), o.deviceSpec);
    s.isolated.deviceSpec = s.device.spec(); // the very device this process chose
    s.tuning = std::make_shared<TuningDb>(TuningDb::defaultPath(o.cacheDir));
    if (!s.tuning->load(&s.tuningWarning))
        std::fprintf(stderr, "filter-bench: warning: %s\n", s.tuningWarning.c_str());
    s.tuning->setEnabled(!o.noTuned);
    return s;
}

SessionOptions benchSessionOptions(const BenchInputOptions &o, const BenchSetup &setup)
{
    SessionOptions options;
    options.cacheDir = o.cacheDir;
    options.kernelDir = o.kernelDir;
    options.tunedLocal = TuningDb::lookup(setup.tuning);
    if (setup.isolated.enabled)
        options.runElsewhere = [isolated = setup.isolated, tuning = setup.tuning](
                                   const Image &input, const RunRequest &request, const std::atomic<bool> *cancel) {
            IsolatedRun now = isolated;
            // The tuner measures the untuned default (it switches the database off): the helper then too.
            now.tuningDb = tuning->enabled() ? tuning->path().string() : std::string();
            return now.run(input, request, cancel);
        };
    return options;
}

std::vector<LocalSize> parseShapeList(const std::string &text)
{
    std::vector<LocalSize> shapes;
    for (const std::string &item : splitList(text)) {
        std::string error;
        const auto shape = LocalSize::parse(item, &error);
        if (!shape || !shape->isConcrete())
            throw Error("--shapes: '" + item + "' is not a WxH shape" + (error.empty() ? "" : " (" + error + ")"));
        shapes.push_back(*shape);
    }
    if (!text.empty() && shapes.empty())
        throw Error("--shapes '" + text + "' names no shape");
    return shapes;
}

std::string shellCommandLine(const std::vector<std::string> &args)
{
    std::string line;
    for (const std::string &a : args) {
        if (!line.empty())
            line += ' ';
        const bool plain = !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                              "0123456789-_=.,:/+@%") == std::string::npos;
        if (plain) {
            line += a;
        } else {
            line += '\'';
            for (char c : a)
                line += c == '\'' ? std::string("'\\''") : std::string(1, c);
            line += '\'';
        }
    }
    return line;
}

} // namespace fwb::cli
