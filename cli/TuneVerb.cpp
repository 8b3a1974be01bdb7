// filter-bench tune: every valid work-group shape for one variant (or all), the best one saved to the
// tuning database that auto launches then use ("auto (16x16, tuned)"); a heat map table or JSON.
// --blocks: block variants' output blocks first (each at the default shape), then the shapes at the best.
#include "Verb.h"

#include "OptionValues.h"

#include "BenchInput.h"
#include "Error.h"
#include "ProgramCache.h"
#include "ResultJson.h"
#include "RunPlan.h"
#include "Tuner.h"

#include <algorithm>
#include <cstdio>

namespace fwb::cli {

namespace {

struct TuneVerbOptions
{
    BenchInputOptions in;
    std::string variant;
    std::string shapes;
    bool tuneBlocks = false; // --blocks given (with or without a list)
    std::string blocks;      // its list; empty: tuneBlocks()'s
    int maxItems = 1024;
    bool dryRun = false;
};

// A block tune's first stage: one line per block, its time at the default shape or why it was refused.
void printBlockStage(const TuneResult &t)
{
    std::printf("\n%s / %s: output blocks at the default shape (kernel ms; '*' best)\n", t.filter.c_str(),
                t.variant.c_str());
    for (const TuneCell &c : t.cells)
        if (c.blockStage && c.ok())
            std::printf("  block %-7s %-8s %.4g%s\n", c.block.toString().c_str(), c.local.toString().c_str(),
                        c.kernelMs, &t.cells[t.best] == &c ? "*" : "");
        else if (c.blockStage)
            std::printf("  block %-7s refused: %s\n", c.block.toString().c_str(), c.refusal.c_str());
}

void printHeatMap(const TuneResult &t)
{
    if (t.tunedBlocks())
        printBlockStage(t);
    const bool shapesRan = std::any_of(t.cells.begin(), t.cells.end(), [](const TuneCell &c) { return !c.blockStage; });
    const std::string block = t.tunedBlocks() && shapesRan ? ", block " + t.cells.back().block.toString() : "";
    std::printf("\n%s / %s%s  (kernel ms; '-' refused, '*' best)\n%8s", t.filter.c_str(), t.variant.c_str(),
                block.c_str(), "h \\ w");
    for (int w : t.widths)
        std::printf(" %8d", w);
    std::printf("\n");
    for (int h : t.heights) {
        std::printf("%8d", h);
        for (int w : t.widths) {
            const TuneCell *c = t.cell(w, h);
            if (!c) {
                std::printf(" %8s", "");
            } else if (!c->ok()) {
                std::printf(" %8s", "-");
            } else {
                char cell[32];
                std::snprintf(cell, sizeof cell, "%.4g%s", c->kernelMs, t.best >= 0 && &t.cells[t.best] == c ? "*" : "");
                std::printf(" %8s", cell);
            }
        }
        std::printf("\n");
    }
    if (t.best >= 0) {
        const TuneCell &best = t.cells[t.best];
        std::printf("best: %s%s, %.4g ms", best.local.toString().c_str(),
                    t.tunedBlocks() ? (", block " + best.block.toString()).c_str() : "", best.kernelMs);
        if (t.defaultRun.ok())
            std::printf("; default %s, %.4g ms (%.2fx)%s",
                        launchShapeLabel(t.defaultRun.local, t.defaultRun.localSource).c_str(),
                        t.defaultRun.kernelMs.median, t.speedupOverDefault(),
                        t.defaultIsBest() ? ": the default is best, no shape tried beat it" : "");
        std::printf("\n");
    } else {
        std::printf("no shape ran%s\n", t.cells.empty() ? "" : (": " + t.cells.front().refusal).c_str());
    }
}

// tune's checks before any work (Verb::check): the options parsed; which variants can run here is
// the device's question (cmdTune).
TuneOptions checkTune(const TuneVerbOptions &o, ImageIo *io)
{
    const CheckedBench checked = checkBench(o.in, io, "tune");
    if (o.variant.empty())
        throw Error("tune needs --variant NAME or --variant all");
    TuneOptions options;
    options.maxItems = o.maxItems;
    options.shapes = parseShapeList(o.shapes);
    options.tuneBlocks = o.tuneBlocks;
    for (const std::string &text : splitList(o.blocks)) {
        long w = 0, h = 0;
        if (!parseSize(text, kMaxOutputBlockSide, w, h))
            throw Error("--blocks: '" + text + "' is not an output block WxH with sides 1.."
                        + std::to_string(kMaxOutputBlockSide) + ", e.g. 4x8,8x8,16x8");
        options.blocks.push_back(LocalSize{int(w), int(h)});
    }
    if (o.variant != "all") {
        const std::vector<std::string> names = splitList(o.variant);
        if (names.empty())
            throw Error("--variant '" + o.variant + "' names no variant");
        for (const std::string &v : names) {
            const VariantSpec *spec = checked.filter->variant(v);
            if (!spec)
                throw Error("filter " + checked.filter->name + " has no variant '" + v + "'");
            if (o.tuneBlocks && !makesBlocks(*spec))
                throw Error("--blocks: " + checked.filter->name + "/" + v
                            + " makes one output per work-item (only block variants take --blocks)");
        }
    }
    return options;
}

int cmdTune(const TuneVerbOptions &o, ImageIo *io)
{
    const TuneOptions options = checkTune(o, io);
    // --cache-dir names the folder tuning.json is written into: only a program cache's (or a new or
    // empty folder, which becomes one), never someone's folder that happens to hold a tuning.json.
    if (!o.dryRun && !o.in.cacheDir.empty() && o.in.cacheDir != "-")
        if (std::string error; !ProgramCache::markCacheDir(o.in.cacheDir, &error))
            throw Error(error + "; not writing tuning.json there");
    BenchSetup setup = prepareBench(o.in, io, "tune");
    std::vector<std::string> variants;
    if (o.variant == "all") {
        for (const VariantSpec &v : setup.filter->variants)
            if (variantUnavailableReason(v, setup.device, setup.request.params.format).empty())
                variants.push_back(v.name);
    } else {
        for (const std::string &v : splitList(o.variant)) {
            const VariantSpec *spec = setup.filter->variant(v);
            if (std::string why = variantUnavailableReason(*spec, setup.device, setup.request.params.format); !why.empty())
                throw Error("variant " + v + " cannot run here: " + why);
            variants.push_back(variantNameNow(*setup.filter, v));
        }
    }
    setup.tuning->setEnabled(false); // the tuner measures the untuned default
    Session session(setup.device, benchSessionOptions(o.in, setup));
    std::vector<TuneResult> tunes;
    for (const std::string &v : variants) {
        RunRequest request = setup.request;
        request.variant = v;
        tunes.push_back(tuneVariant(session, setup.image, request, options, nullptr,
                                    [&](const TuneCell &cell, int done, int total) {
                                        if (!o.in.json)
                                            std::fprintf(stderr, "\r%s: %d/%d %s", v.c_str(), done, total,
                                                         options.tuneBlocks ? "runs" : "shapes");
                                    }));
        if (!o.in.json)
            std::fprintf(stderr, "\n");
        if (const auto entry = tuningEntry(setup.device, tunes.back(), setup.request.params.format))
            setup.tuning->put(*entry);
    }
    std::string saveError;
    const bool saved = o.dryRun || setup.tuning->save(&saveError);
    int status = 0;
    if (!saved)
        status = 1;
    for (const TuneResult &t : tunes)
        if (t.best < 0)
            status = 1;

    if (o.in.json) {
        Json j = Json::object();
        j["device"] = deviceJson(setup.device);
        j["image"] = Json::object({{"width", setup.image.width()},
                                   {"height", setup.image.height()},
                                   {"format", formatName(setup.request.params.format)},
                                   {"source", setup.source}});
        j["database"] = setup.tuning->path().string();
        j["saved"] = saved && !o.dryRun;
        Json &list = j["tunes"] = Json::array();
        for (const TuneResult &t : tunes)
            list.push_back(tuneJson(t));
        j["ok"] = status == 0;
        std::printf("%s\n", dumpJson(j).c_str());
    } else {
        std::printf("tune: %s on %s, %dx%d %s (%s), size class %s\n", setup.filter->name.c_str(),
                    setup.device.summary().c_str(), setup.image.width(), setup.image.height(),
                    formatName(setup.request.params.format), setup.source.c_str(),
                    imageSizeClass(setup.image.width(), setup.image.height()).c_str());
        for (const TuneResult &t : tunes)
            printHeatMap(t);
        if (o.dryRun)
            std::printf("\n(--dry-run: the tuning database was not changed)\n");
        else if (saved)
            std::printf("\nsaved to %s\n", setup.tuning->path().string().c_str());
    }
    if (!saved)
        std::fprintf(stderr, "filter-bench: cannot save the tuning database: %s\n", saveError.c_str());
    return status;
}

} // namespace

Verb tuneVerb(CLI::App &root, ImageIo *io)
{
    auto o = std::make_shared<TuneVerbOptions>();
    Verb verb;
    CLI::App &c = *(verb.command = addVerbCommand(root, "tune",
                                                  "try every work-group shape (--blocks: output block too); save the best"));
    addBenchInputOptions(c, o->in, "one JSON object (each tune's cells, best shape, block and default)", 5);
    c.add_option("--variant", o->variant, "variant(s) to tune, or all that run here")->type_name("NAME[,NAME..]|all");
    c.add_option("--max-items", o->maxItems, "largest work-group tried, in work-items (default 1024)")
        ->type_name("N")
        ->check(CLI::Range(1, 65536));
    c.add_option("--shapes", o->shapes, "try only these shapes, e.g. 8x8,16x16,32x8")->type_name("WxH[,WxH..]");
    CLI::Option *blocks = c.add_option("--blocks", o->blocks,
                 "block variants: tune the output block per work-item too, in\n"
                 "two stages: each block at the default shape, then the shapes\n"
                 "at the fastest block (default blocks 4, 8, 16, 32 bytes across\n"
                 "x 1..32 rows; blocks a kernel cannot make are refused)")
        ->type_name("[WxH[,WxH..]]")
        ->expected(0, 1);
    c.add_flag("--dry-run", o->dryRun, "measure and print, but leave the tuning database as it is");
    verb.check = [o, io, blocks] {
        o->tuneBlocks = blocks->count() > 0;
        checkTune(*o, io);
    };
    verb.run = [o, io, blocks] {
        o->tuneBlocks = blocks->count() > 0;
        return cmdTune(*o, io);
    };
    verb.unknownArgument = unknownOptionFor("tune");
    return verb;
}

} // namespace fwb::cli
