// LessonSteps: the guided lesson's steps (Help ▸ Show the Lesson) as values: for each step one title,
// one chart (bars whose length is proportional to the number printed beside them) and one plain
// sentence, all computed from measured numbers, live (this computer) or recorded (data/measurements).
// Seed 004's story on the catalogue's lesson filter (FilterSpec::lessonFilter): the plain port against
// the best CPU code, the slow private list and its fix, the copies against the computing (pageable and
// page-locked), the rung that reaches the memory limit, the verdict from picture to picture, and a
// live step with frames per second.
//
// No Qt and no OpenCL here: the window (LessonWindow) draws these values, and the tests feed numbers
// in directly (a device slower than the CPU must never be called faster).
#pragma once

#include "Devices.h"
#include "MeasurementRecord.h"
#include "Race.h"
#include "Session.h"

#include <string>
#include <vector>

namespace fwb {

// Everything one column of the lesson shows: the runs of one device on one picture.
struct LessonFigures
{
    bool recorded = false;   // from a kept record, not measured on this computer
    std::string provenance;  // recorded: "NVIDIA H100 80GB HBM3, driver 550.54.15, 2026-11-26"
    std::string deviceName;
    DeviceKind deviceKind = DeviceKind::Other;
    int width = 0, height = 0;
    std::string format;
    double copyGBps = 0;            // the device's own memory speed (0: not measured)
    std::vector<RunResult> pageable; // one per variant, ordinary (pageable) copies
    std::vector<RunResult> pinned;   // the same with page-locked memory (may be empty)
    double cpuMs = -1;               // the CPU to beat: the fastest real CPU code of the run
    std::string cpuTitle;            // "OpenCV on 2 CPU threads"
    int cpuMeasurements = 0;         // cpuMs is the best median of this many measurements (CpuTimings.h)

    bool empty() const { return pageable.empty(); }
    const RunResult *find(const std::string &variant, bool pinnedRun = false) const;
    // The run with the shortest kernel time (the computing alone), nullptr when none ran.
    const RunResult *fastestKernel() const;
    // The pageable run with the shortest time from picture to picture, and its pinned twin.
    const RunResult *fastestEndToEnd(bool pinnedRun = false) const;
};

// The lesson's figures from a live race on this computer (every variant of the plan, ordinary copies,
// with the CPU rows) and, when run, the race of the same variants from page-locked memory.
LessonFigures lessonFiguresFromRaces(const RaceResult &pageable, const RaceResult *pinned = nullptr);
// ... from kept records (recorded = true, provenance "device, driver x, date"); the CPU to beat is the
// fastest CPU figure the record holds (on the computer the record was made on).
LessonFigures lessonFiguresFromRecords(const RecordPair &records);
// "OpenCV on 16 CPU threads" from a result's cpu_ms.best_label ("OpenCV 4.6.0, 16 threads").
std::string lessonCpuTitle(const std::string &bestLabel);

// Which variants tell which part of the story, from the catalogue: the family is the one flagged
// lessonFilter; the plain port is its baseline (isBaseline); the memory-limit rungs are the block variants (makesBlocks); the slow private
// array and its fix are the variants whose VariantSpec::lessonRole is Spill and SpillFix.
struct LessonPlan
{
    std::string filter;     // the lesson filter (empty: the catalogue flags none)
    std::string port;       // the baseline variant
    std::string spill;      // LessonRole::Spill: the weights in a private array
    std::string spillFix;   // LessonRole::SpillFix: the same weights in constant memory
    std::vector<std::string> rungs; // the block variants, catalogue order
    // Every variant the live measurement runs, in catalogue order (port, spill, fix, rungs).
    std::vector<std::string> variants() const;
};
LessonPlan lessonPlan();

struct LessonBarPart
{
    std::string label; // "copy in", "computing", "copy out", "other"
    double value = 0;
};

struct LessonBar
{
    std::string label;               // "Best CPU code (OpenCV on 2 CPU threads)"
    std::vector<LessonBarPart> parts; // one part: a plain bar; several: stacked, left to right
    bool highlight = false;
    bool isLimit = false;            // a limit no run can beat (drawn hatched), not a run
    double total() const;
};

struct LessonStepView
{
    std::string title;    // the step's question
    std::string sentence; // the one plain sentence, from the numbers
    std::string note;     // a second line where honesty needs it (same processor, format differs)
    std::string unit = "milliseconds"; // or "frames per second"
    bool higherIsBetter = false;       // frames per second
    std::vector<LessonBar> bars;
    bool missing = false; // the figures lack what this step needs (sentence says what)
};

enum class LessonStep { Port, Spill, Copies, MemoryLimit, Verdict, Live, Count };
inline constexpr int kLessonStepCount = int(LessonStep::Count);
std::string lessonStepTitle(LessonStep step);
LessonStepView lessonStep(LessonStep step, const LessonFigures &figures, const LessonPlan &plan = lessonPlan());

// "0.042 ms"-style number for a sentence: 3 significant digits, at least one decimal below 100.
std::string lessonMs(double ms);
// "12 times faster than", "1.4 times slower than", "about as fast as" (a ≥ 1.1x difference to count).
std::string lessonCompare(double ourMs, double theirMs);
// What "the device" is in a sentence: "the graphics card" for a GPU, else "the device".
std::string lessonDeviceWord(const LessonFigures &figures);
// For a device that is this very processor: the plain note every speed sentence carries. Else empty.
std::string lessonSameProcessorNote(const LessonFigures &figures);

} // namespace fwb
