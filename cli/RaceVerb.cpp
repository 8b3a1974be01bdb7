// filter-bench race: every variant of one filter plus the CPU and OpenCV rows on one image, as a table or
// JSON. By default (as the window's race) the device's versions are ranked by their filtering time alone,
// the copies every version pays alike said once, and the end-to-end verdict against the CPU beside it;
// --end-to-end ranks every row by its whole time, copies included.
#include "Verb.h"

#include "BenchInput.h"
#include "Error.h"
#include "Race.h"
#include "ResultJson.h"
#include "RunPlan.h"

#include <cstdio>

namespace fwb::cli {

namespace {

struct RaceVerbOptions
{
    BenchInputOptions in;
    std::string variants;
    bool kernelOnly = false, endToEnd = false, noBaselines = false, noCpu = false;
};

std::string msText(double ms)
{
    char text[32];
    if (ms <= 0)
        return "-";
    std::snprintf(text, sizeof text, ms >= 100 ? "%.1f ms" : ms >= 1 ? "%.3f ms" : "%.4f ms", ms);
    return text;
}

// race's checks before any work (Verb::check).
void checkRace(const RaceVerbOptions &o, ImageIo *io)
{
    if (o.kernelOnly && o.endToEnd)
        throw Error("--kernel-only and --end-to-end rank by different times: give one of them");
    const CheckedBench checked = checkBench(o.in, io, "race");
    for (const std::string &v : splitList(o.variants))
        if (!checked.filter->variant(v))
            throw Error("filter " + checked.filter->name + " has no variant '" + v + "'");
}

int cmdRace(const RaceVerbOptions &o, ImageIo *io)
{
    checkRace(o, io);
    const BenchSetup setup = prepareBench(o.in, io, "race");
    RaceOptions options;
    options.baselines = !o.noBaselines;
    options.cpuRows = !o.noCpu;
    for (const std::string &v : splitList(o.variants))
        options.variants.push_back(variantNameNow(*setup.filter, v));
    const RaceMetric metric = o.endToEnd ? RaceMetric::EndToEnd : RaceMetric::KernelOnly;
    Session session(setup.device, benchSessionOptions(o.in, setup));
    const RaceResult race = runRace(session, setup.image, setup.request, options, nullptr,
                                    [&](const RaceEntry &e, int done, int total) {
                                        if (!o.in.json)
                                            std::fprintf(stderr, "[%d/%d] %s\n", done, total, e.name.c_str());
                                    });

    for (const RaceEntry &e : race.entries)
        if (!e.result.warning.empty())
            std::fprintf(stderr, "filter-bench: warning: %s: %s\n", e.name.c_str(), e.result.warning.c_str());
    int status = 0;
    std::string reason;
    for (const RaceEntry &e : race.entries) {
        const RunResult &r = e.result;
        if (!r.ok() && !r.unavailable && !r.expectedFailure && reason.empty())
            reason = e.name + ": " + r.error;
        else if (r.ok() && r.checked && !r.matches && reason.empty())
            reason = e.name + " does not match the CPU reference (max diff " + std::to_string(r.maxAbsDiff) + ")";
    }
    if (!reason.empty())
        status = 1;

    if (o.in.json) {
        Json j = Json::object();
        j["device"] = deviceJson(setup.device);
        j["source"] = setup.source;
        j["border"] = borderModeName(setup.request.params.border);
        j["repeat"] = setup.request.repeat;
        j["tuned"] = !o.in.noTuned;
        j["race"] = raceJson(race, metric);
        j["ok"] = status == 0;
        std::printf("%s\n", dumpJson(j).c_str());
    } else {
        std::printf("race: %s on %s\n", setup.filter->name.c_str(), setup.device.summary().c_str());
        const bool kernel = metric == RaceMetric::KernelOnly;
        std::printf("image: %dx%d %s (%s), %s, median of %d\n", race.width, race.height, race.format.c_str(),
                    setup.source.c_str(),
                    kernel ? "the device's versions ranked by their filtering time alone (the copies are the same "
                             "for every version: below)"
                           : "every row ranked end to end, copies included",
                    setup.request.repeat);
        std::printf("\n %2s  %-28s %12s %12s  %-18s  %s\n", "#", "variant", "end to end", kernel ? "filtering" : "kernel",
                    "work-group", kernel ? "vs the fastest version" : "vs the CPU to beat");
        int rank = 0;
        const int winner = race.winner(metric);
        bool cpuBlock = false;
        for (int i : race.ranking(metric)) {
            const RaceEntry &e = race.entries[i];
            const bool ran = e.timeMs(metric) > 0;
            if (kernel && ran && e.onHost && !cpuBlock) { // the CPU rows: their whole time, no copies
                std::printf("\n     on the CPU (no copies: end to end is the whole time)\n");
                cpuBlock = true;
            }
            const bool ranked = ran && !(kernel && e.onHost) && !e.isCheckingReference();
            std::string shape = ran && !e.onHost && !e.baseline ? launchShapeLabel(e.result.local, e.result.localSource)
                                                                : std::string();
            std::string note;
            if (!ran)
                note = (e.result.unavailable ? "unavailable: " : "failed: ") + e.result.error;
            else if (e.isCheckingReference())
                note = race.referenceReused ? "checks every result, not in the race (computed before, reused)"
                                            : "checks every result, not in the race";
            else if (e.name == race.cpuReferenceName)
                note = "the CPU to beat";
            else if (kernel && e.onDevice())
                note = i == winner ? "the fastest" : race.versusFastestWords(e);
            else
                note = race.speedupSentence(e, metric);
            if (ran && e.result.checked && !e.result.matches)
                note += " (DOES NOT MATCH the CPU reference)";
            std::printf(" %2s  %-28s %12s %12s  %-18s  %s%s\n", ranked ? std::to_string(++rank).c_str() : "",
                        e.name.c_str(), ran ? msText(e.timeMs(RaceMetric::EndToEnd)).c_str() : "-",
                        ran && !e.onHost ? msText(e.timeMs(RaceMetric::KernelOnly)).c_str() : "-", shape.c_str(),
                        note.c_str(), i == winner ? "  <- winner" : "");
        }
        std::printf("\n");
        if (const std::string copies = race.sharedCopySentence(); !copies.empty())
            std::printf("%s.\n", copies.c_str());
        if (const std::string output = race.outputSentence(); !output.empty())
            std::printf("%s.\n", output.c_str());
        if (const std::string verdict = race.endToEndSentence(); !verdict.empty())
            std::printf("%s\n", verdict.c_str());
        if (const std::string pinned = race.pinnedSentence(); !pinned.empty())
            std::printf("%s\n", pinned.c_str());
        if (race.cpuReferenceMs > 0)
            std::printf("the CPU to beat: %s (%s), %s\n", race.cpuReferenceTitle.c_str(), race.cpuReferenceName.c_str(),
                        msText(race.cpuReferenceMs).c_str());
        if (const std::string note = race.sameProcessorNote(); !note.empty())
            std::printf("%s\n", note.c_str());
        if (race.memoryFloorMs > 0)
            std::printf("memory limit: %s (bytes moved at the device's copy bandwidth, %.1f GB/s)\n",
                        msText(race.memoryFloorMs).c_str(), race.copyGBps);
        if (winner >= 0)
            std::printf("winner: %s - %s\n", race.entries[winner].name.c_str(),
                        raceWhy(race.filter, race.entries[winner]).c_str());
    }
    if (status != 0)
        std::fprintf(stderr, "filter-bench: %s\n", reason.c_str());
    return status;
}

void addRaceOptions(CLI::App &c, RaceVerbOptions &o)
{
    addBenchInputOptions(c, o.in, "one JSON object (rows cpu_single, cpu_multi and OpenCV's marked baseline: true)",
                         10);
    c.add_option("--variant", o.variants, "race only these variants (default: all)")->type_name("NAME[,NAME..]");
    c.add_flag("--kernel-only", o.kernelOnly,
               "rank the device's versions by their filtering time alone (the default; the copies, the same for "
               "every version, are said once, with the end-to-end verdict against the CPU)");
    c.add_flag("--end-to-end", o.endToEnd, "rank every row by its whole time, copies included");
    c.add_flag("--no-baselines", o.noBaselines, "no OpenCV rows");
    c.add_flag("--no-cpu", o.noCpu, "no cpu_single / cpu_multi rows (the single thread is slow on big images)");
}

} // namespace

Verb raceVerb(CLI::App &root, ImageIo *io)
{
    return optionsVerb(root, "race",
                       "every variant of a filter plus the CPU and OpenCV, fastest first",
                       addRaceOptions, checkRace, cmdRace, io);
}

} // namespace fwb::cli
