// Report: one self-contained HTML file (XHTML-compatible, charts as inline SVG, images as PNG data
// URIs, no network) with the device, the settings, the race, the duel, the tuning heat map, the sweep chart,
// thumbnails, the tool version and the command line that reproduces it.
#pragma once

#include "Devices.h"
#include "Race.h"
#include "Sweep.h"
#include "Tuner.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fwb {

struct ReportImage
{
    std::string caption;
    std::string png; // encoded PNG bytes
};

// One run of the session that made the report (the window's run log, a duel's two sides).
struct ReportRun
{
    std::string device; // where it ran: a device name or "CPU reference (...)"
    RunResult result;
};

struct ReportData
{
    std::string title;
    DeviceInfo device;
    std::vector<std::pair<std::string, std::string>> settings; // shown in this order
    std::optional<RaceResult> race;
    RaceMetric metric = RaceMetric::EndToEnd;
    std::optional<TuneResult> tune;
    std::optional<SweepResult> sweep;
    std::vector<ReportRun> runs;     // the session's runs, in order (empty: no section)
    std::vector<ReportRun> duel;     // a duel's two sides, left then right (else no section)
    std::vector<ReportImage> images; // empty in Qt-free builds (no PNG encoder)
    std::string imagesNote;          // why there are none, when there are none
    std::string toolVersion;
    std::string commandLine;
    std::string generatedAt;
};

std::string htmlEscape(const std::string &text);
std::string base64Encode(const std::string &bytes);

// The charts on their own (also usable by the GUI's export).
std::string raceSvg(const RaceResult &race, RaceMetric metric);
std::string tuneHeatMapSvg(const TuneResult &tune);
std::string sweepSvg(const SweepResult &sweep);

std::string reportHtml(const ReportData &data);

// The k-th line colour of a chart with several series ("#1f77b4"): 20 distinct colours, then again (the
// report's sweep and the window's sweep page draw with them).
std::string seriesColour(std::size_t k);
constexpr std::size_t kSeriesColourCount = 20;

} // namespace fwb
