#include "LessonSteps.h"

#include "Catalogue.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace fwb {

namespace {

std::string format(const char *pattern, double value)
{
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

std::string capitalised(std::string text)
{
    if (!text.empty())
        text[0] = char(std::toupper(static_cast<unsigned char>(text[0])));
    return text;
}

std::string times(double ratio)
{
    return format(ratio >= 10 ? "%.0f" : "%.1f", ratio) + " times";
}

std::string ms(double value)
{
    return lessonMs(value) + " milliseconds";
}

// A run's picture-to-picture time (copies included); 0 when unknown.
double endToEnd(const RunResult &r)
{
    return r.endToEndMs > 0 ? r.endToEndMs : r.totalMs;
}

bool ran(const RunResult &r)
{
    return r.ok() && !r.unavailable && r.kernelMs.median > 0;
}

LessonBar bar(std::string label, double value, bool highlight = false)
{
    LessonBar b;
    b.label = std::move(label);
    b.parts.push_back({"", value});
    b.highlight = highlight;
    return b;
}

// The copy, computing and leftover parts of one run, picture to picture.
LessonBar tripBar(std::string label, const RunResult &r)
{
    LessonBar b;
    b.label = std::move(label);
    const double total = endToEnd(r);
    const double kernel = r.kernelMs.median;
    b.parts = {{"copy in", r.uploadMs}, {"computing", kernel}, {"copy out", r.downloadMs}};
    const double other = total - r.uploadMs - kernel - r.downloadMs;
    if (other > total * 0.005)
        b.parts.push_back({"preparing the copies", other});
    return b;
}

LessonStepView missing(LessonStepView view, const std::string &what)
{
    view.missing = true;
    view.sentence = what;
    return view;
}

} // namespace

const RunResult *LessonFigures::find(const std::string &variant, bool pinnedRun) const
{
    for (const RunResult &r : pinnedRun ? pinned : pageable)
        if (r.variant == variant && ran(r))
            return &r;
    return nullptr;
}

const RunResult *LessonFigures::fastestKernel() const
{
    const RunResult *best = nullptr;
    for (const RunResult &r : pageable)
        if (ran(r) && !r.baseline && (!best || r.kernelMs.median < best->kernelMs.median))
            best = &r;
    return best;
}

const RunResult *LessonFigures::fastestEndToEnd(bool pinnedRun) const
{
    const RunResult *best = nullptr;
    for (const RunResult &r : pinnedRun ? pinned : pageable)
        if (ran(r) && !r.baseline && endToEnd(r) > 0 && (!best || endToEnd(r) < endToEnd(*best)))
            best = &r;
    return best;
}

std::string lessonCpuTitle(const std::string &label)
{
    const std::size_t comma = label.find(", ");
    std::string threads = comma == std::string::npos ? std::string() : label.substr(comma + 2);
    if (const std::size_t t = threads.find(" thread"); t != std::string::npos)
        threads.insert(t, " CPU");
    const std::string who = label.rfind("OpenCV", 0) == 0 ? "OpenCV" : "our C++ code";
    return threads.empty() ? who : who + " on " + threads;
}

namespace {

// The device and picture a race or a record was made with (both name them alike).
template <class Source> void takeDeviceAndPicture(LessonFigures &f, const Source &source)
{
    f.deviceName = source.deviceName;
    f.deviceKind = source.deviceKind;
    f.width = source.width;
    f.height = source.height;
    f.format = source.format;
    f.copyGBps = source.copyGBps;
}

} // namespace

LessonFigures lessonFiguresFromRaces(const RaceResult &race, const RaceResult *pinned)
{
    LessonFigures f;
    takeDeviceAndPicture(f, race);
    f.cpuMs = race.cpuReferenceMs;
    f.cpuTitle = race.cpuReferenceTitle;
    f.cpuMeasurements = race.cpuReferenceMeasurements;
    for (const RaceEntry &e : race.entries)
        if (!e.baseline && !e.onHost)
            f.pageable.push_back(e.result);
    if (pinned)
        for (const RaceEntry &e : pinned->entries)
            if (!e.baseline && !e.onHost)
                f.pinned.push_back(e.result);
    return f;
}

LessonFigures lessonFiguresFromRecords(const RecordPair &records)
{
    LessonFigures f;
    if (!records.pageable)
        return f;
    const MeasurementRecord &r = *records.pageable;
    f.recorded = true;
    f.provenance = r.provenance();
    takeDeviceAndPicture(f, r);
    f.pageable = r.results;
    if (records.pinned)
        f.pinned = records.pinned->results;
    for (const MeasurementRecord *m : {records.pageable, records.pinned})
        if (m)
            for (const RunResult &x : m->results)
                if (x.cpuBestMs > 0 && (f.cpuMs <= 0 || x.cpuBestMs < f.cpuMs)) {
                    f.cpuMs = x.cpuBestMs;
                    f.cpuTitle = lessonCpuTitle(x.cpuBestLabel);
                    f.cpuMeasurements = x.cpuMeasurements;
                }
    return f;
}

std::vector<std::string> LessonPlan::variants() const
{
    std::vector<std::string> out;
    const FilterSpec *f = findFilter(filter);
    if (!f)
        return out;
    for (const VariantSpec &v : f->variants) // catalogue order, each once
        if (v.name == port || v.name == spill || v.name == spillFix
            || std::find(rungs.begin(), rungs.end(), v.name) != rungs.end())
            out.push_back(v.name);
    return out;
}

LessonPlan lessonPlan()
{
    LessonPlan plan;
    const FilterSpec *f = lessonFilter();
    if (!f)
        return plan;
    plan.filter = f->name;
    if (const VariantSpec *base = baselineVariant(*f))
        plan.port = base->name;
    for (const VariantSpec &v : f->variants) {
        if (makesBlocks(v))
            plan.rungs.push_back(v.name);
        // Seed 004's pair, as the catalogue marks it: the weights in a private array (spilled) and in
        // constant memory (its fix).
        if (v.lessonRole == LessonRole::Spill)
            plan.spill = v.name;
        if (v.lessonRole == LessonRole::SpillFix)
            plan.spillFix = v.name;
    }
    return plan;
}

double LessonBar::total() const
{
    double sum = 0;
    for (const LessonBarPart &p : parts)
        sum += std::max(0.0, p.value);
    return sum;
}

std::string lessonMs(double value)
{
    if (value >= 100)
        return format("%.0f", value);
    if (value >= 10)
        return format("%.1f", value);
    if (value >= 1)
        return format("%.2f", value);
    if (value >= 0.01)
        return format("%.3f", value);
    return format("%.4f", value);
}

std::string lessonCompare(double ourMs, double theirMs)
{
    if (ourMs <= 0 || theirMs <= 0)
        return "not comparable with";
    const double ratio = theirMs / ourMs;
    if (ratio >= 1.1)
        return times(ratio) + " faster than";
    if (ratio <= 1 / 1.1)
        return times(1 / ratio) + " slower than";
    return "about as fast as";
}

std::string lessonDeviceWord(const LessonFigures &f)
{
    return f.deviceKind == DeviceKind::Gpu ? "the graphics card" : "the device";
}

std::string lessonSameProcessorNote(const LessonFigures &f)
{
    if (f.deviceKind != DeviceKind::Cpu)
        return {};
    return "Here the \u201cdevice\u201d is this computer's own processor, programmed a second way: both sides "
           "run on the same chip, and no graphics card takes part.";
}

std::string lessonStepTitle(LessonStep step)
{
    switch (step) {
    case LessonStep::Port: return "1. The plain way against the best CPU code";
    case LessonStep::Spill: return "2. Where the 25 blur weights are kept";
    case LessonStep::Copies: return "3. Moving the picture against computing it";
    case LessonStep::MemoryLimit: return "4. How close to the memory's speed limit?";
    case LessonStep::Verdict: return "5. The verdict, from picture in to picture out";
    case LessonStep::Live: return "6. See the speed";
    case LessonStep::Count: break;
    }
    return {};
}

LessonStepView lessonStep(LessonStep step, const LessonFigures &f, const LessonPlan &plan)
{
    LessonStepView v;
    v.title = lessonStepTitle(step);
    if (f.empty())
        return missing(v, "Nothing has been measured yet.");
    const std::string dev = lessonDeviceWord(f);
    const std::string cpuName = "the best CPU code" + (f.cpuTitle.empty() ? std::string() : " (" + f.cpuTitle + ")");
    const std::string cpuBar = "Best CPU code" + (f.cpuTitle.empty() ? std::string() : " (" + f.cpuTitle + ")");
    v.note = lessonSameProcessorNote(f);
    // The CPU time as the race page and the timing panel show it (the process's CPU timing store): said
    // as what it is where it is the best of several.
    const std::string cpuTakes = ms(f.cpuMs) + (f.cpuMeasurements > 1 ? ", the " + cpuTimingWords(f.cpuMeasurements)
                                                                        : std::string());

    switch (step) {
    case LessonStep::Port: {
        const RunResult *port = f.find(plan.port);
        if (!port || f.cpuMs <= 0)
            return missing(v, !port ? "The plain way did not run, so there is nothing to compare."
                                    : "The CPU code was not timed, so there is nothing to compare.");
        const double k = port->kernelMs.median;
        v.sentence = "Written the plain way, " + dev + " blurs the picture in " + ms(k) + ", "
                     + lessonCompare(k, f.cpuMs) + " " + cpuName + ", which takes " + cpuTakes
                     + " (the computing alone: moving the picture comes in step 3).";
        v.bars = {bar(cpuBar, f.cpuMs), bar(capitalised(dev) + ", the plain way", k, true)};
        return v;
    }
    case LessonStep::Spill: {
        const RunResult *port = f.find(plan.port);
        const RunResult *spill = f.find(plan.spill);
        const RunResult *fix = f.find(plan.spillFix);
        if (!port || !spill)
            return missing(v, "The runs this step compares did not all finish.");
        const double p = port->kernelMs.median, s = spill->kernelMs.median;
        v.bars = {bar("The plain way", p), bar("Weights in a private list for each worker", s, true)};
        if (fix)
            v.bars.push_back(bar("Weights in one shared list", fix->kernelMs.median));
        if (s >= p * 1.1) {
            v.sentence = "Keeping the 25 blur weights in a private list for each worker makes the same blur take "
                         + ms(s) + ", " + times(s / p) + " slower than the plain way"
                         + (f.deviceKind == DeviceKind::Gpu ? ", because a graphics card keeps that list in slow memory"
                                                            : "");
            if (fix) {
                const double x = fix->kernelMs.median;
                v.sentence += x * 1.1 <= s ? "; one shared list of weights brings it down to " + ms(x) + "."
                                           : "; one shared list of weights did not help here (" + ms(x) + ").";
            } else {
                v.sentence += ".";
            }
        } else {
            v.sentence = "On " + dev + ", keeping the 25 blur weights in a private list for each worker costs "
                         "nothing: " + ms(s) + ", " + lessonCompare(s, p) + " the plain way (" + ms(p) + ").";
        }
        return v;
    }
    case LessonStep::Copies: {
        const RunResult *r = f.fastestKernel();
        if (!r)
            return missing(v, "No run finished.");
        const RunResult *pin = f.find(r->variant, true);
        // Moving the picture: everything from picture in to picture out that is not the computing (the
        // copies and getting them ready), as the bar shows it.
        const double k = r->kernelMs.median, copy = std::max(0.0, endToEnd(*r) - k);
        v.bars = {tripBar("Ordinary memory", *r)};
        if (pin)
            v.bars.push_back(tripBar("Page-locked memory", *pin));
        if (copy >= k * 1.1)
            v.sentence = "Moving the picture to " + dev + " and back takes " + ms(copy) + ", " + times(copy / k)
                         + " as long as computing it (" + ms(k) + ")";
        else if (k >= copy * 1.1)
            v.sentence = "Computing the picture (" + ms(k) + ") takes " + times(k / copy)
                         + " as long as moving it to " + dev + " and back (" + ms(copy) + ")";
        else
            v.sentence = "Moving the picture to " + dev + " and back (" + ms(copy)
                         + ") takes about as long as computing it (" + ms(k) + ")";
        if (pin) {
            const double a = endToEnd(*r), b = endToEnd(*pin);
            v.sentence += b * 1.1 <= a ? "; from page-locked memory, which stays put while it is copied, the whole "
                                         "trip takes " + ms(b) + " instead of " + ms(a) + "."
                                       : "; page-locked memory, which stays put while it is copied, did not shorten "
                                         "the whole trip here (" + ms(b) + " against " + ms(a) + ").";
        } else {
            v.sentence += ".";
        }
        if (f.deviceKind == DeviceKind::Cpu)
            v.note += (v.note.empty() ? "" : " ") + std::string("Its \u201ccopies\u201d stay inside this computer's "
                                                                 "own memory.");
        return v;
    }
    case LessonStep::MemoryLimit: {
        const RunResult *best = f.fastestKernel();
        const RunResult *port = f.find(plan.port);
        if (!best)
            return missing(v, "No run finished.");
        const double b = best->kernelMs.median;
        if (port && port != best)
            v.bars.push_back(bar("The plain way", port->kernelMs.median));
        v.bars.push_back(bar("The fastest way measured", b, true));
        if (const FilterSpec *filter = findFilter(best->filter))
            if (const VariantSpec *spec = filter->variant(best->variant); spec && !spec->plainWords.empty())
                v.note = "The fastest way: " + spec->plainWords + (v.note.empty() ? "" : " " + v.note);
        if (f.copyGBps <= 0 || best->bytesMoved <= 0) {
            v.sentence = "The fastest way takes " + ms(b) + "; how fast this device's memory is was not "
                         "measured, so its limit is not known.";
            return v;
        }
        const double floor = best->bytesMoved / (f.copyGBps * 1e6);
        LessonBar limit = bar("Reading and writing the picture once, at full memory speed", floor);
        limit.isLimit = true;
        v.bars.push_back(limit);
        const double ratio = b / floor;
        if (ratio < 1)
            v.sentence = "The fastest way takes " + ms(b) + ", even less than the " + ms(floor)
                         + " that reading the picture once and writing it once through main memory needs (it fits "
                           "in a quicker store): now " + dev + " only waits for the picture to move.";
        else if (ratio <= 2)
            v.sentence = "The fastest way takes " + ms(b) + ", close to the " + ms(floor)
                         + " that just reading the picture once and writing it once needs: now " + dev
                         + " only waits for the picture to move.";
        else
            v.sentence = "The fastest way takes " + ms(b) + ", still " + times(ratio) + " the " + ms(floor)
                         + " that just reading the picture once and writing it once would need: " + dev
                         + " does more than wait for the picture to move.";
        return v;
    }
    case LessonStep::Verdict: {
        const RunResult *e = f.fastestEndToEnd(false);
        const RunResult *ep = f.fastestEndToEnd(true);
        if (!e || f.cpuMs <= 0)
            return missing(v, !e ? "No run finished." : "The CPU code was not timed, so there is no verdict.");
        const bool pinnedWins = ep && endToEnd(*ep) < endToEnd(*e);
        const double d = pinnedWins ? endToEnd(*ep) : endToEnd(*e);
        v.bars = {bar(cpuBar, f.cpuMs), bar(capitalised(dev) + ", ordinary memory, copies included", endToEnd(*e),
                                            !pinnedWins)};
        if (ep)
            v.bars.push_back(bar(capitalised(dev) + ", page-locked memory, copies included", endToEnd(*ep), pinnedWins));
        v.sentence = "From picture in to picture out, copies included, " + dev + " takes " + ms(d)
                     + (pinnedWins ? " (from page-locked memory)" : "") + ": " + lessonCompare(d, f.cpuMs) + " "
                     + cpuName + ", which takes " + cpuTakes + ".";
        return v;
    }
    case LessonStep::Live: {
        v.unit = "frames per second";
        v.higherIsBetter = true;
        const RunResult *e = f.fastestEndToEnd(false);
        const RunResult *ep = f.fastestEndToEnd(true);
        if (!e || f.cpuMs <= 0)
            return missing(v, "Nothing to show yet.");
        const double d = ep && endToEnd(*ep) < endToEnd(*e) ? endToEnd(*ep) : endToEnd(*e);
        const double cpuFps = 1000 / f.cpuMs, devFps = 1000 / d;
        v.bars = {bar(cpuBar, cpuFps), bar(capitalised(dev) + ", copies included", devFps, true)};
        const std::string picture = f.width > 0 ? "a " + std::to_string(f.width) + "\u00d7" + std::to_string(f.height)
                                                      + " picture"
                                                : std::string("the picture");
        v.sentence = "At these speeds " + cpuName + " filters " + format("%.0f", cpuFps) + " frames per second of "
                     + picture + ", and " + dev + " " + format("%.0f", devFps) + ", copies included.";
        return v;
    }
    case LessonStep::Count: break;
    }
    return v;
}

} // namespace fwb
