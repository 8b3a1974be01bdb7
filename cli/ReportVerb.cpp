// filter-bench report: a race, a work-group tuning of the winning variant and a parameter sweep on one
// image, written as one self-contained HTML file (inline SVG charts, PNG thumbnails in Qt builds).
#include "Verb.h"

#include "AtomicFile.h"
#include "BenchInput.h"
#include "Error.h"
#include "ImageIo.h"
#include "Report.h"
#include "RunPlan.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#if __has_include("BuildVersion.h")
#include "BuildVersion.h" // FWB_VERSION_LINE
#else
#define FWB_VERSION_LINE "(version unknown)"
#endif

namespace fwb::cli {

namespace {

struct ReportVerbOptions
{
    BenchInputOptions in;
    std::string out, tuneVariant, sweep, shapes;
    int maxItems = 1024;
    bool overwrite = false, kernelOnly = false, noBaselines = false;
};

// A box-filtered copy at most `side` pixels on its longer side (thumbnails stay small in the file).
Image thumbnail(const Image &src, int side)
{
    const int step = std::max(1, (std::max(src.width(), src.height()) + side - 1) / side);
    const int w = std::max(1, src.width() / step), h = std::max(1, src.height() / step), c = src.channels();
    Image out(w, h, src.format());
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int k = 0; k < c; ++k) {
                unsigned sum = 0;
                for (int dy = 0; dy < step; ++dy)
                    for (int dx = 0; dx < step; ++dx)
                        sum += src.row(y * step + dy)[(x * step + dx) * c + k];
                out.row(y)[x * c + k] = std::uint8_t(sum / unsigned(step * step));
            }
    return out;
}

// PNG bytes through the front end's image writer (a temp file: ImageIo writes files only).
bool encodePng(ImageIo &io, const Image &image, std::string &png, std::string &error)
{
    const std::filesystem::path tmp = std::filesystem::temp_directory_path()
                                      / ("fwb-report-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand()) + ".png");
    if (!io.save(tmp.string(), image, error))
        return false;
    std::ifstream file(tmp, std::ios::binary);
    std::ostringstream bytes;
    bytes << file.rdbuf();
    png = bytes.str();
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    return !png.empty();
}

std::string commandLine()
{
    std::ifstream file("/proc/self/cmdline", std::ios::binary);
    std::vector<std::string> args;
    std::string arg;
    while (std::getline(file, arg, '\0'))
        args.push_back(arg);
    if (!args.empty())
        args.front() = std::filesystem::path(args.front()).filename().string();
    return shellCommandLine(args);
}

// report's checks before any work (Verb::check): the output file, the base request, the tuner's and
// the sweep's options (the checks tune makes, made here too and before the race, not after it).
struct CheckedReport
{
    std::vector<LocalSize> shapes;
    std::string sweepParam; // empty: no sweep
    std::vector<double> sweepValues;
};

CheckedReport checkReport(const ReportVerbOptions &o, ImageIo *io)
{
    if (o.out.empty())
        throw Error("report needs --out FILE.html");
    checkImagePath(io, "--input", o.in.input);
    checkOutputFiles({{"--out", o.out}}, {o.in.input}, o.overwrite);
    const CheckedBench checked = checkBench(o.in, io, "report");
    const FilterSpec &filter = *checked.filter;
    CheckedReport c;
    c.shapes = parseShapeList(o.shapes);
    if (!o.tuneVariant.empty() && o.tuneVariant != "none" && !filter.variant(o.tuneVariant))
        throw Error("filter " + filter.name + " has no variant '" + o.tuneVariant + "'");
    if (o.sweep != "none") {
        if (o.sweep.empty()) {
            c.sweepParam = defaultSweepParam(filter);
            for (const ParamSpec &p : filter.params)
                if (p.key == c.sweepParam)
                    c.sweepValues = sweepValues(std::max(p.minimum, p.integer ? 1.0 : 0.5),
                                                std::min(p.maximum, p.integer ? 16.0 : 16.0), 6, p.integer);
        } else {
            const std::size_t eq = o.sweep.find('=');
            if (eq == std::string::npos)
                throw Error("--sweep '" + o.sweep + "' must be NAME=V1,V2,.. or none");
            c.sweepParam = o.sweep.substr(0, eq);
            if (splitList(o.sweep.substr(eq + 1)).empty())
                throw Error("--sweep '" + o.sweep + "' names no value (NAME=V1,V2,.. or none)");
            for (const std::string &v : splitList(o.sweep.substr(eq + 1))) {
                FilterParams check = checked.request.params;
                if (std::string error = applyParam(filter, check, c.sweepParam + "=" + v); !error.empty())
                    throw Error(error);
                c.sweepValues.push_back(check.values[c.sweepParam]);
            }
        }
    }
    return c;
}

int cmdReport(const ReportVerbOptions &o, ImageIo *io)
{
    const CheckedReport checked = checkReport(o, io);
    BenchSetup setup = prepareBench(o.in, io, "report");
    const std::vector<LocalSize> &shapes = checked.shapes;
    const std::string &sweepParam = checked.sweepParam;
    const std::vector<double> &sweepValuesList = checked.sweepValues;
    const RaceMetric metric = o.kernelOnly ? RaceMetric::KernelOnly : RaceMetric::EndToEnd;
    Session session(setup.device, benchSessionOptions(o.in, setup));
    auto say = [](const char *what) { std::fprintf(stderr, "report: %s\n", what); };

    ReportData data;
    data.title = "OpenCL Filter Workbench report: " + setup.filter->title;
    data.device = setup.device;
    data.metric = metric;
    data.toolVersion = "filter-bench " FWB_VERSION_LINE;
    data.commandLine = commandLine();
    {
        const std::time_t now = std::time(nullptr);
        char text[32];
        std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
        data.generatedAt = text;
    }
    data.settings = {{"Filter", setup.filter->name + " (" + setup.filter->title + ")"},
                     {"Image", std::to_string(setup.image.width()) + "x" + std::to_string(setup.image.height()) + " "
                                   + setup.source},
                     {"Pixel format", formatName(setup.request.params.format)},
                     {"Border", borderModeName(setup.request.params.border)},
                     {"Repeats", std::to_string(setup.request.repeat) + " timed, " + std::to_string(setup.request.warmup)
                                     + " warm-up"},
                     {"Work-group", o.in.noTuned ? "auto (tuning database ignored)" : "auto (tuning database used)"}};
    for (const ParamSpec &p : setup.filter->params) {
        char value[32];
        std::snprintf(value, sizeof value, "%g", setup.filter->param(setup.request.params, p.key));
        data.settings.emplace_back(p.label, value);
    }

    say("race");
    RunRequest raceRequest = setup.request;
    raceRequest.keepOutput = io != nullptr;
    RaceOptions raceOptions;
    raceOptions.baselines = !o.noBaselines;
    data.race = runRace(session, setup.image, raceRequest, raceOptions);
    const RaceResult &race = *data.race;

    // Tune the fastest of our own variants (or the one named).
    std::string tuneName = o.tuneVariant.empty() || o.tuneVariant == "none" ? o.tuneVariant
                                                                             : variantNameNow(*setup.filter, o.tuneVariant);
    if (tuneName.empty())
        for (int i : race.ranking(RaceMetric::KernelOnly))
            if (!race.entries[i].baseline && race.entries[i].ok()) {
                tuneName = race.entries[i].name;
                break;
            }
    if (!tuneName.empty() && tuneName != "none") {
        if (!setup.filter->variant(tuneName))
            throw Error("filter " + setup.filter->name + " has no variant '" + tuneName + "'");
        say("tuning");
        TuneOptions tuneOptions;
        tuneOptions.maxItems = o.maxItems;
        tuneOptions.shapes = shapes;
        RunRequest request = setup.request;
        request.variant = tuneName;
        setup.tuning->setEnabled(false);
        data.tune = tuneVariant(session, setup.image, request, tuneOptions);
        setup.tuning->setEnabled(!o.in.noTuned);
    }
    if (!sweepParam.empty() && sweepValuesList.size() >= 2) {
        say("sweep");
        data.sweep = runSweep(session, setup.image, setup.request, sweepParam, sweepValuesList);
    }

    if (!io) {
        data.imagesNote = "No thumbnails: this filter-bench was built without Qt (no PNG encoder).";
    } else {
        std::string error;
        auto add = [&](const std::string &caption, const Image &image) {
            ReportImage item{caption, {}};
            if (!image.isNull() && encodePng(*io, thumbnail(image, 320), item.png, error))
                data.images.push_back(std::move(item));
        };
        add("Input (" + setup.source + ")", setup.image.convertedTo(setup.request.params.format));
        const int win = race.winner(RaceMetric::KernelOnly);
        for (int i : race.ranking(RaceMetric::KernelOnly)) {
            const RaceEntry &e = race.entries[i];
            if (!e.baseline && e.ok() && !e.result.output.isNull()) {
                add("Output of " + e.name + (i == win ? " (fastest)" : ""), e.result.output);
                break;
            }
        }
        if (data.images.empty())
            data.imagesNote = "No thumbnails: " + error;
    }

    const std::string html = reportHtml(data);
    std::string error;
    if (!writeFileAtomically(o.out, html.data(), html.size(), &error))
        throw Error("cannot write " + o.out + ": " + error);
    std::printf("report: %s (%zu bytes)\n", o.out.c_str(), html.size());
    return 0;
}

void addReportOptions(CLI::App &c, ReportVerbOptions &o)
{
    addBenchInputOptions(c, o.in, "(ignored: the report is HTML)", 5);
    c.add_option("--out", o.out, "the HTML file to write")->type_name("FILE.html");
    c.add_flag("--overwrite", o.overwrite, "replace an existing --out file");
    c.add_flag("--kernel-only", o.kernelOnly, "rank the race by kernel time (default: end to end)");
    c.add_flag("--no-baselines", o.noBaselines, "no OpenCV rows in the race");
    c.add_option("--tune-variant", o.tuneVariant, "variant to tune (default: the race's fastest kernel; none: skip)")
        ->type_name("NAME|none");
    c.add_option("--shapes", o.shapes, "tune only these shapes, e.g. 8x8,16x16")->type_name("WxH[,WxH..]");
    c.add_option("--max-items", o.maxItems, "largest work-group tried (default 1024)")
        ->type_name("N")
        ->check(CLI::Range(1, 65536)); // as tune
    c.add_option("--sweep", o.sweep, "parameter and values to sweep (default: sigma or radius over 6 values;\n"
                                     "none: skip)")
        ->type_name("NAME=V1,V2,..|none");
}

} // namespace

Verb reportVerb(CLI::App &root, ImageIo *io)
{
    return optionsVerb(root, "report",
                       "race, tune and sweep one filter; write one self-contained HTML file",
                       addReportOptions, checkReport, cmdReport, io);
}

} // namespace fwb::cli
