// filter-bench cpu-bench: our multi-threaded CPU code (each filter's cpuReference with threads > 1, the fast
// CPU path) against OpenCV's CPU call for the same filter, parameters, border and format, timed in the same
// process, in alternating rounds, with no OpenCL device involved. The numbers behind "the CPU to beat" and
// scripts/cpu-vs-opencv.sh.
#include "Verb.h"

#include "RunPlan.h" // splitList

#include "Catalogue.h"
#include "Error.h"
#include "Image.h"
#include "JsonIo.h"
#include "OpenCvBaseline.h"
#include "OptionValues.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>
#include <thread>

namespace fwb::cli {

namespace {

struct CpuBenchOptions
{
    std::string filters = "opencv"; // "opencv": every filter OpenCV also has
    std::string formats = "gray8,rgba8888";
    std::string size = "3840x2160";
    std::string border = "reflect101";
    std::vector<std::string> params;
    int threads = 0;
    int repeat = 9;
    int rounds = 3;
    bool json = false;
};

struct Checked
{
    std::vector<const FilterSpec *> filters;
    std::vector<PixelFormat> formats;
    long w = 0, h = 0;
    BorderMode border = BorderMode::Reflect101;
    int threads = 1;
};

Checked checkCpuBench(const CpuBenchOptions &o)
{
    Checked c;
    if (o.filters == "opencv" || o.filters == "all") {
        for (const FilterSpec &f : catalogue())
            if (o.filters == "all" || f.openCv.call != OpenCvEquivalent::Call::None)
                c.filters.push_back(&f);
    } else {
        for (const std::string &name : splitList(o.filters)) {
            const FilterSpec *f = findFilter(name);
            if (!f)
                throw Error("--filter: unknown filter '" + name + "' (see filter-bench list)");
            c.filters.push_back(f);
        }
    }
    for (const std::string &name : splitList(o.formats)) {
        const auto format = parsePixelFormat(name);
        if (!format)
            throw Error("--format: unknown pixel format '" + name + "' (gray8, rgb888, rgba8888)");
        c.formats.push_back(*format);
    }
    if (c.filters.empty() || c.formats.empty())
        throw Error("cpu-bench: no filter or no format to time");
    if (!parseSize(o.size, 65536, c.w, c.h))
        throw Error("--synthetic '" + o.size + "' must be WxH with both sides from 1 to 65536");
    const auto border = parseBorderMode(o.border);
    if (!border)
        throw Error("--border: unknown border rule '" + o.border + "'");
    c.border = *border;
    if (o.repeat < 1 || o.repeat > 1000 || o.rounds < 1 || o.rounds > 100)
        throw Error("--repeat must be 1..1000 and --rounds 1..100");
    c.threads = o.threads > 0 ? o.threads : int(std::max(1u, std::thread::hardware_concurrency()));
    for (const FilterSpec *f : c.filters) {
        FilterParams probe;
        for (const std::string &assignment : o.params)
            if (f->params.size() && assignment.find('=') != std::string::npos) {
                const std::string key = assignment.substr(0, assignment.find('='));
                for (const ParamSpec &p : f->params)
                    if (p.key == key)
                        if (std::string err = applyParam(*f, probe, assignment); !err.empty())
                            throw Error("--param " + assignment + ": " + err);
            }
    }
    return c;
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

double minOf(const std::vector<double> &v) { return v.empty() ? 0 : *std::min_element(v.begin(), v.end()); }

int cmdCpuBench(const CpuBenchOptions &o)
{
    const Checked c = checkCpuBench(o);
    Json rows = Json::array();
    if (!o.json)
        std::printf("cpu-bench %ldx%ld, %d threads, %s border, %d rounds x %d repeats (%s)\n%-20s %-9s %9s %9s %9s %9s "
                    "%7s %5s\n",
                    c.w, c.h, c.threads, o.border.c_str(), o.rounds, o.repeat, openCvVersion().c_str(), "filter",
                    "format", "ours min", "ours med", "cv min", "cv med", "ratio", "diff");
    for (const FilterSpec *filter : c.filters)
        for (PixelFormat format : c.formats) {
            FilterParams params;
            params.border = c.border;
            params.format = format;
            for (const std::string &assignment : o.params) {
                const std::string key = assignment.substr(0, assignment.find('='));
                for (const ParamSpec &p : filter->params)
                    if (p.key == key)
                        applyParam(*filter, params, assignment);
            }
            const Image src = makeTestCard(int(c.w), int(c.h), format);
            Image ours = filter->transposesOutput ? Image(int(c.h), int(c.w), format) : Image(int(c.w), int(c.h), format);
            std::vector<double> oursMs, cvMs;
            std::string cvError, call;
            Image cvOut;
            for (int round = 0; round < o.rounds; ++round) {
                for (int i = 0; i < o.repeat + (round == 0 ? 1 : 0); ++i) { // one warm-up in the first round
                    if (filter->copySourceToDst)
                        ours = src;
                    const auto t0 = std::chrono::steady_clock::now();
                    filter->cpuReference(src, ours, params, c.threads);
                    const double ms =
                        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
                    if (round > 0 || i > 0)
                        oursMs.push_back(ms);
                }
                if (!cvError.empty())
                    continue;
                OpenCvRun run = runOpenCvCpu(src, *filter, params, c.threads, o.repeat, 1);
                if (run.unavailable || !run.error.empty()) {
                    cvError = run.error.empty() ? "unavailable" : run.error;
                    continue;
                }
                cvMs.insert(cvMs.end(), run.opMs.begin(), run.opMs.end());
                call = run.call;
                cvOut = std::move(run.output);
            }
            const bool haveCv = cvError.empty() && !cvMs.empty();
            const int diff = haveCv ? maxAbsDiff(ours, cvOut) : -1;
            const double ratio = haveCv ? median(oursMs) / median(cvMs) : 0;
            Json row;
            row["filter"] = filter->name;
            row["format"] = formatName(format);
            row["threads"] = c.threads;
            row["ours_ms"] = {{"min", jsonNumber(minOf(oursMs))}, {"median", jsonNumber(median(oursMs))}};
            row["opencv_ms"] = haveCv ? Json{{"min", jsonNumber(minOf(cvMs))}, {"median", jsonNumber(median(cvMs))}}
                                      : Json(nullptr);
            row["ratio_ours_over_opencv"] = haveCv ? jsonNumber(ratio) : Json(nullptr);
            row["max_abs_diff_vs_opencv"] = haveCv ? Json(diff) : Json(nullptr);
            row["opencv_tolerance"] = filter->openCv.tolerance;
            row["opencv_call"] = haveCv ? Json(call) : Json(cvError);
            rows.push_back(row);
            if (!o.json) {
                if (haveCv)
                    std::printf("%-20s %-9s %9.2f %9.2f %9.2f %9.2f %7.2f %5d\n", filter->name.c_str(),
                                formatName(format), minOf(oursMs), median(oursMs), minOf(cvMs), median(cvMs),
                                ratio, diff);
                else
                    std::printf("%-20s %-9s %9.2f %9.2f  OpenCV: %s\n", filter->name.c_str(), formatName(format),
                                minOf(oursMs), median(oursMs), cvError.c_str());
                std::fflush(stdout);
            }
        }
    if (o.json) {
        Json j;
        j["image"] = {{"width", c.w}, {"height", c.h}, {"source", "test card"}};
        j["border"] = o.border;
        j["threads"] = c.threads;
        j["hardware_threads"] = int(std::thread::hardware_concurrency());
        j["rounds"] = o.rounds;
        j["repeat"] = o.repeat;
        j["opencv"] = openCvVersion();
        j["rows"] = rows;
        std::printf("%s\n", dumpJson(j).c_str());
    }
    return 0;
}

void addCpuBenchOptions(CLI::App &c, CpuBenchOptions &o)
{
    c.add_option("--filter", o.filters, "filters to time (default opencv: every filter OpenCV also has; all)")
        ->type_name("NAME[,NAME..]|opencv|all");
    c.add_option("--format", o.formats, "pixel formats (default gray8,rgba8888)")->type_name("FORMAT[,FORMAT..]");
    addSyntheticOption(c, o.size, "size of the built-in test card (default 3840x2160)");
    c.add_option("--border", o.border, "border rule (default reflect101)")->type_name("reflect101|replicate|constant");
    c.add_option("--param", o.params, "filter parameter NAME=VALUE for the filters that have it (repeatable)")
        ->type_name("NAME=VALUE");
    c.add_option("--threads", o.threads, "threads for both (default: the hardware's)")->type_name("N");
    c.add_option("--repeat", o.repeat, "timed calls per round and side (default 9)")->type_name("N");
    c.add_option("--rounds", o.rounds, "alternating rounds, ours then OpenCV's (default 3)")->type_name("N");
    addJsonFlag(c, o.json, "one JSON object instead of the table");
}

} // namespace

Verb cpuBenchVerb(CLI::App &root)
{
    return optionsVerb(root, "cpu-bench",
                       "our multi-threaded CPU code against OpenCV's CPU call, same filter and image, in one process",
                       addCpuBenchOptions, checkCpuBench, cmdCpuBench);
}

} // namespace fwb::cli
