// The self-contained HTML report (see Report.h). Written as XHTML (every element closed, only the
// XML entities) so an XML reader can check it as well as a browser can show it.
#include "Report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace fwb {

std::string htmlEscape(const std::string &text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t')
                out += ' ';
            else
                out += c;
        }
    }
    return out;
}

std::string base64Encode(const std::string &bytes)
{
    static const char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const unsigned v = (unsigned char)bytes[i] << 16 | (unsigned char)bytes[i + 1] << 8 | (unsigned char)bytes[i + 2];
        out += table[v >> 18 & 63];
        out += table[v >> 12 & 63];
        out += table[v >> 6 & 63];
        out += table[v & 63];
    }
    if (i < bytes.size()) {
        unsigned v = (unsigned char)bytes[i] << 16;
        if (i + 1 < bytes.size())
            v |= (unsigned char)bytes[i + 1] << 8;
        out += table[v >> 18 & 63];
        out += table[v >> 12 & 63];
        out += i + 1 < bytes.size() ? table[v >> 6 & 63] : '=';
        out += '=';
    }
    return out;
}

namespace {

std::string fmt(const char *format, double value)
{
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

std::string ms(double value)
{
    if (value <= 0)
        return "-";
    return value >= 100 ? fmt("%.0f ms", value) : value >= 1 ? fmt("%.2f ms", value) : fmt("%.3f ms", value);
}

std::string num(double v) { return fmt("%.1f", v); }

// How wide a line of 12 px sans-serif text is at most (0.62 em per character, bold included): the charts
// size their margins from their own labels, so that no label is cut at the SVG's edge.
int textWidth(const std::string &text)
{
    int chars = 0;
    for (unsigned char c : text)
        chars += (c & 0xC0) != 0x80 ? 1 : 0; // UTF-8: count code points, not bytes
    return int(std::ceil(chars * 12 * 0.62));
}

// Blue to red through yellow, t in [0, 1] (0 fastest).
std::string heatColour(double t)
{
    t = std::clamp(t, 0.0, 1.0);
    const int r = int(std::lround(t < 0.5 ? 60 + t * 2 * 195 : 255));
    const int g = int(std::lround(t < 0.5 ? 160 + t * 2 * 60 : 220 - (t - 0.5) * 2 * 170));
    const int b = int(std::lround(t < 0.5 ? 230 - t * 2 * 170 : 60));
    char text[16];
    std::snprintf(text, sizeof text, "#%02x%02x%02x", r, g, b);
    return text;
}

// Tableau's ten, then ten darker ones (a sweep of two families draws twelve lines and more).
const char *const kSeriesColours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                                      "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39",
                                      "#7b4173", "#5254a3", "#e7ba52", "#ad494a", "#6b6ecf", "#000000"};

} // namespace

std::string raceSvg(const RaceResult &race, RaceMetric metric)
{
    const std::vector<int> order = race.ranking(metric);
    std::vector<int> ran;
    for (int i : order)
        if (race.entries[i].timeMs(metric) > 0)
            ran.push_back(i);
    // Each bar's label (its time and sentence) right of it, its title left of the bars: both margins as
    // wide as their longest text (issue 24: long titles were clipped on the left).
    std::vector<std::string> labels(race.entries.size());
    int titlesW = 0, labelsW = 0;
    for (int i : ran) {
        const RaceEntry &e = race.entries[i];
        std::string label = ms(e.timeMs(metric));
        if (const std::string words = race.speedupSentence(e, metric); !words.empty())
            label += ", " + words;
        else if (e.isCheckingReference())
            label += ", used to check every result (not in the race)";
        titlesW = std::max(titlesW, textWidth(e.title));
        labelsW = std::max(labelsW, textWidth(label));
        labels[std::size_t(i)] = std::move(label);
    }
    const std::string captionScale = "time, log scale: each grid line is 10\u00d7 the one before it (bar length is "
                                     "not proportional to time); shorter is faster";
    const int rowH = 26, top = 10, plotW = 440;
    const int left = std::max(120, titlesW + 14), right = std::max(120, labelsW + 12);
    const int width = std::max(left + plotW + right, left + textWidth(captionScale) + 10);
    const int barsBottom = top + rowH * int(std::max<std::size_t>(1, ran.size()));
    const bool floorShown = metric == RaceMetric::KernelOnly && race.memoryFloorMs > 0;
    // + the axis's tick labels, the memory limit's own line (it sat on the caption) and the caption
    const int height = barsBottom + top + 36 + (floorShown ? 14 : 0);
    double maxMs = 0;
    for (int i : ran)
        maxMs = std::max(maxMs, race.entries[i].timeMs(metric));
    if (metric == RaceMetric::KernelOnly && race.memoryFloorMs > 0)
        maxMs = std::max(maxMs, race.memoryFloorMs);
    // Log scale: a race spans 1000x (one thread vs the best kernel); linear bars would hide the winners.
    const double lo = maxMs > 0 ? std::pow(10, std::floor(std::log10(std::max(1e-4, maxMs / 1e5)))) : 1;
    const double minMs = [&] {
        double m = maxMs;
        for (int i : ran)
            m = std::min(m, race.entries[i].timeMs(metric));
        return std::max(lo, std::pow(10, std::floor(std::log10(std::max(m, 1e-6)))) / 2);
    }();
    const double span = std::log10(maxMs * 1.05) - std::log10(minMs);
    auto x = [&](double v) { return left + plotW * (std::log10(std::max(v, minMs)) - std::log10(minMs)) / span; };
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"" + std::to_string(width)
                    + "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) + " "
                    + std::to_string(height) + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    // The log axis, labelled: a grid line and its time at every power of ten (issue 24: an unlabelled log
    // scale drew a bar "259x slower" only 3.2x as long as the winner's).
    for (double d = std::pow(10, std::ceil(std::log10(minMs) - 1e-9)); d <= maxMs * 1.05; d *= 10) {
        s += "<line x1=\"" + num(x(d)) + "\" y1=\"" + std::to_string(top) + "\" x2=\"" + num(x(d)) + "\" y2=\""
             + std::to_string(barsBottom + 4) + "\" stroke=\"#ccc\"/>\n";
        s += "<text x=\"" + num(x(d)) + "\" y=\"" + std::to_string(barsBottom + 17) + "\" text-anchor=\"middle\" fill=\"#666\">"
             + htmlEscape(ms(d)) + "</text>\n";
    }
    const int winner = race.winner(metric);
    int row = 0;
    for (int i : ran) {
        const RaceEntry &e = race.entries[i];
        const double t = e.timeMs(metric);
        const int y = top + row * rowH;
        const std::string fill = i == winner ? "#2e9d44" : e.baseline ? "#9a9a9a" : "#3b78c2";
        s += "<text x=\"" + std::to_string(left - 6) + "\" y=\"" + std::to_string(y + 17)
             + "\" text-anchor=\"end\"" + (i == winner ? " font-weight=\"bold\"" : "") + ">" + htmlEscape(e.title)
             + "</text>\n";
        s += "<rect x=\"" + std::to_string(left) + "\" y=\"" + std::to_string(y + 3) + "\" width=\""
             + num(std::max(1.0, x(t) - left)) + "\" height=\"" + std::to_string(rowH - 6) + "\" fill=\"" + fill
             + "\"><title>" + htmlEscape(e.name + ": " + ms(t)) + "</title></rect>\n";
        const std::string &label = labels[std::size_t(i)];
        s += "<text x=\"" + num(x(t) + 6) + "\" y=\"" + std::to_string(y + 17) + "\">" + htmlEscape(label)
             + "</text>\n";
        ++row;
    }
    if (floorShown) {
        const double fx = x(race.memoryFloorMs);
        s += "<line x1=\"" + num(fx) + "\" y1=\"" + std::to_string(top) + "\" x2=\"" + num(fx) + "\" y2=\""
             + std::to_string(barsBottom + 20) + "\" stroke=\"#c0392b\" stroke-dasharray=\"5,3\"/>\n";
        s += "<text x=\"" + num(fx + 3) + "\" y=\"" + std::to_string(barsBottom + 31) + "\" fill=\"#c0392b\">memory limit "
             + htmlEscape(ms(race.memoryFloorMs)) + "</text>\n";
    }
    s += "<text x=\"" + std::to_string(left) + "\" y=\"" + std::to_string(height - 5)
         + "\" fill=\"#666\">" + htmlEscape(captionScale) + "</text>\n";
    s += "</svg>\n";
    return s;
}

std::string tuneHeatMapSvg(const TuneResult &tune)
{
    const int cw = 64, ch = 30, left = 60, top = 40;
    const int width = left + cw * int(tune.widths.size()) + 20, height = top + ch * int(tune.heights.size()) + 40;
    double lo = 0, hi = 0;
    for (const TuneCell &c : tune.cells)
        if (c.ok()) {
            lo = lo == 0 ? c.kernelMs : std::min(lo, c.kernelMs);
            hi = std::max(hi, c.kernelMs);
        }
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"" + std::to_string(width)
                    + "\" height=\"" + std::to_string(height) + "\" font-family=\"sans-serif\" font-size=\"11\">\n";
    s += "<text x=\"" + std::to_string(left) + "\" y=\"14\">work-group width \u2192</text>\n";
    s += "<text x=\"4\" y=\"" + std::to_string(top - 6) + "\">height \u2193</text>\n";
    for (std::size_t i = 0; i < tune.widths.size(); ++i)
        s += "<text x=\"" + std::to_string(left + int(i) * cw + cw / 2) + "\" y=\"" + std::to_string(top - 6)
             + "\" text-anchor=\"middle\">" + std::to_string(tune.widths[i]) + "</text>\n";
    for (std::size_t j = 0; j < tune.heights.size(); ++j) {
        const int y = top + int(j) * ch;
        s += "<text x=\"" + std::to_string(left - 6) + "\" y=\"" + std::to_string(y + ch / 2 + 4)
             + "\" text-anchor=\"end\">" + std::to_string(tune.heights[j]) + "</text>\n";
        for (std::size_t i = 0; i < tune.widths.size(); ++i) {
            const int x = left + int(i) * cw;
            const TuneCell *c = tune.cell(tune.widths[i], tune.heights[j]);
            if (!c)
                continue;
            const bool best = tune.best >= 0 && &tune.cells[tune.best] == c;
            const double t = c->ok() && hi > lo ? (std::log(c->kernelMs) - std::log(lo)) / (std::log(hi) - std::log(lo)) : 0;
            const std::string fill = c->ok() ? heatColour(t) : "#d0d0d0";
            const std::string tip = c->local.toString() + ": " + (c->ok() ? ms(c->kernelMs) : c->refusal);
            s += "<rect x=\"" + std::to_string(x + 1) + "\" y=\"" + std::to_string(y + 1) + "\" width=\""
                 + std::to_string(cw - 2) + "\" height=\"" + std::to_string(ch - 2) + "\" fill=\"" + fill + "\""
                 + (best ? " stroke=\"#000\" stroke-width=\"3\"" : "") + "><title>" + htmlEscape(tip)
                 + "</title></rect>\n";
            s += "<text x=\"" + std::to_string(x + cw / 2) + "\" y=\"" + std::to_string(y + ch / 2 + 4)
                 + "\" text-anchor=\"middle\"" + (c->ok() ? "" : " fill=\"#777\"") + ">"
                 + htmlEscape(c->ok() ? fmt(c->kernelMs >= 10 ? "%.1f" : "%.3g", c->kernelMs) : "\u2014")
                 + "</text>\n";
        }
    }
    s += "<text x=\"" + std::to_string(left) + "\" y=\"" + std::to_string(height - 12)
         + "\" fill=\"#666\">kernel ms per shape; grey: refused (hover for the reason); outlined: best</text>\n";
    s += "</svg>\n";
    return s;
}

std::string sweepSvg(const SweepResult &sweep)
{
    // The legend right of the plot, as wide as its longest title (issue 24: it was cut at 230 px).
    int legendW = 0;
    for (const SweepSeries &series : sweep.series)
        legendW = std::max(legendW, textWidth(series.title));
    const int left = 70, right = std::max(230, 36 + legendW + 8), top = 20, bottom = 50;
    const int width = left + 600 + right;
    const int height = std::max(380, top + 14 + 18 * int(sweep.series.size()) + bottom);
    double lo = 0, hi = 0;
    for (const SweepSeries &series : sweep.series)
        for (double t : series.kernelMs)
            if (t > 0) {
                lo = lo == 0 ? t : std::min(lo, t);
                hi = std::max(hi, t);
            }
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"" + std::to_string(width)
                    + "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) + " "
                    + std::to_string(height) + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    if (sweep.values.size() < 2 || hi <= 0) {
        s += "<text x=\"10\" y=\"20\">no sweep data</text>\n</svg>\n";
        return s;
    }
    const double ylo = std::pow(10, std::floor(std::log10(lo))), yhi = std::pow(10, std::ceil(std::log10(hi)));
    const double xlo = std::max(1e-6, sweep.values.front()), xhi = std::max(xlo * 1.0001, sweep.values.back());
    const int plotW = width - left - right, plotH = height - top - bottom;
    auto px = [&](double v) { return left + plotW * std::log(std::max(v, xlo) / xlo) / std::log(xhi / xlo); };
    auto py = [&](double t) { return top + plotH * (1 - std::log(t / ylo) / std::log(yhi / ylo)); };
    s += "<rect x=\"" + std::to_string(left) + "\" y=\"" + std::to_string(top) + "\" width=\"" + std::to_string(plotW)
         + "\" height=\"" + std::to_string(plotH) + "\" fill=\"none\" stroke=\"#999\"/>\n";
    for (double d = ylo; d <= yhi * 1.0001; d *= 10) {
        s += "<line x1=\"" + std::to_string(left) + "\" x2=\"" + std::to_string(left + plotW) + "\" y1=\"" + num(py(d))
             + "\" y2=\"" + num(py(d)) + "\" stroke=\"#e4e4e4\"/>\n";
        s += "<text x=\"" + std::to_string(left - 6) + "\" y=\"" + num(py(d) + 4) + "\" text-anchor=\"end\">"
             + htmlEscape(fmt("%g", d)) + "</text>\n";
    }
    for (double v : sweep.values)
        s += "<text x=\"" + num(px(v)) + "\" y=\"" + std::to_string(top + plotH + 16) + "\" text-anchor=\"middle\">"
             + htmlEscape(fmt("%g", v)) + "</text>\n";
    s += "<text x=\"" + std::to_string(left + plotW / 2) + "\" y=\"" + std::to_string(height - 8)
         + "\" text-anchor=\"middle\">" + htmlEscape(sweep.paramLabel.empty() ? sweep.param : sweep.paramLabel)
         + " (log scale)</text>\n";
    s += "<text x=\"14\" y=\"" + std::to_string(top + plotH / 2) + "\" transform=\"rotate(-90 14 "
         + std::to_string(top + plotH / 2) + ")\" text-anchor=\"middle\">kernel ms (log)</text>\n";
    for (std::size_t k = 0; k < sweep.series.size(); ++k) {
        const SweepSeries &series = sweep.series[k];
        const std::string colour = seriesColour(k);
        std::string points;
        for (std::size_t i = 0; i < sweep.values.size() && i < series.kernelMs.size(); ++i)
            if (series.kernelMs[i] > 0)
                points += num(px(sweep.values[i])) + "," + num(py(series.kernelMs[i])) + " ";
        if (!points.empty())
            s += "<polyline fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"2\" points=\"" + points + "\"/>\n";
        const int ly = top + 14 + int(k) * 18;
        s += "<line x1=\"" + std::to_string(left + plotW + 12) + "\" x2=\"" + std::to_string(left + plotW + 32)
             + "\" y1=\"" + std::to_string(ly - 4) + "\" y2=\"" + std::to_string(ly - 4) + "\" stroke=\"" + colour
             + "\" stroke-width=\"3\"/>\n";
        s += "<text x=\"" + std::to_string(left + plotW + 36) + "\" y=\"" + std::to_string(ly) + "\">"
             + htmlEscape(series.title) + "</text>\n";
    }
    s += "</svg>\n";
    return s;
}

std::string seriesColour(std::size_t k)
{
    static_assert(std::size(kSeriesColours) == kSeriesColourCount);
    return kSeriesColours[k % kSeriesColourCount];
}

std::string reportHtml(const ReportData &d)
{
    std::string h;
    // Thumbnails on a checkerboard: a transparent picture's dark parts stay visible (issue 24); charts
    // wider than the page (long labels) shrink to it, their viewBox keeping the proportions.
    h += "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
         "<meta charset=\"utf-8\"/>\n<title>" + htmlEscape(d.title) + "</title>\n"
         "<style>\nbody{font-family:sans-serif;max-width:1000px;margin:2em auto;color:#222}\n"
         "table{border-collapse:collapse;margin:0.5em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}\n"
         "th{background:#f0f0f0}td.n{text-align:right}tr.win td{background:#e3f5e6;font-weight:bold}\n"
         ".why{font-style:italic}.thumbs figure{display:inline-block;margin:0 1em 1em 0}"
         ".thumbs img{max-width:300px;border:1px solid #ccc;"
         "background:repeating-conic-gradient(#ccc 0 25%,#fff 0 50%) 0 0/16px 16px}svg.chart{max-width:100%;height:auto}\n"
         "code{background:#f4f4f4;padding:2px 4px}\n"
         "</style>\n</head>\n<body>\n";
    h += "<h1>" + htmlEscape(d.title) + "</h1>\n";
    h += "<h2>Device</h2>\n<table>\n";
    auto row = [&](const std::string &k, const std::string &v) {
        h += "<tr><th>" + htmlEscape(k) + "</th><td>" + htmlEscape(v) + "</td></tr>\n";
    };
    row("Device", d.device.name);
    row("Kind", deviceKindName(d.device.kind));
    row("Vendor", d.device.vendor);
    row("Platform", d.device.platformName + " (" + d.device.platformVersion + ")");
    row("Driver", d.device.driverVersion);
    row("OpenCL", d.device.openclVersion);
    row("Compute units", std::to_string(d.device.computeUnits));
    h += "</table>\n<h2>Settings</h2>\n<table>\n";
    for (const auto &[k, v] : d.settings)
        row(k, v);
    h += "</table>\n";

    if (!d.runs.empty()) {
        h += "<h2>Runs</h2>\n<table>\n<tr><th>#</th><th>filter / variant</th><th>device</th><th>format</th>"
             "<th>parameters</th><th>kernel</th><th>end to end</th><th>work-group</th><th>check</th></tr>\n";
        int n = 0;
        for (const ReportRun &run : d.runs) {
            const RunResult &r = run.result;
            std::string params;
            for (const auto &[key, value] : r.params)
                params += (params.empty() ? "" : ", ") + key + "=" + fmt("%g", value);
            const std::string check = !r.ok() ? (r.unavailable ? "unavailable: " : "failed: ") + r.error
                                      : !r.checked ? "not checked"
                                      : r.matches ? "matches (max diff " + std::to_string(r.maxAbsDiff) + ")"
                                                  : "DIFFERS (max diff " + std::to_string(r.maxAbsDiff) + ")";
            h += "<tr><td class=\"n\">" + std::to_string(++n) + "</td><td><code>" + htmlEscape(r.filter + " / " + r.variant)
                 + "</code></td><td>" + htmlEscape(run.device) + "</td><td>" + htmlEscape(r.format) + "</td><td>"
                 + htmlEscape(params) + "</td><td class=\"n\">" + (r.ok() ? ms(r.kernelMs.median) : "-")
                 + "</td><td class=\"n\">" + (r.ok() && r.endToEndMs > 0 ? ms(r.endToEndMs) : "-") + "</td><td>"
                 + htmlEscape(r.ok() && !r.local.toString().empty() ? launchShapeLabel(r.local, r.localSource) : "")
                 + "</td><td>" + htmlEscape(check) + "</td></tr>\n";
        }
        h += "</table>\n";
    }
    if (d.race) {
        const RaceResult &race = *d.race;
        h += "<h2>Race: every variant of " + htmlEscape(race.filter) + "</h2>\n";
        h += "<p>" + std::string(d.metric == RaceMetric::EndToEnd ? "End to end (copies to and from the device included)"
                                                                   : "Kernel time only")
             + ", median of the timed repeats. " + (race.cancelled ? "The race was cancelled before the end. " : "")
             + "</p>\n";
        const int win = race.winner(d.metric);
        if (win >= 0)
            h += "<p>Winner: <b>" + htmlEscape(race.entries[win].title) + "</b> \u2014 <span class=\"why\">"
                 + htmlEscape(raceWhy(race.filter, race.entries[win])) + "</span></p>\n";
        h += raceSvg(race, d.metric);
        h += "<table>\n<tr><th>#</th><th>variant</th><th>end to end</th><th>kernel</th><th>vs the CPU</th>"
             "<th>work-group</th><th>check</th></tr>\n";
        int rank = 0;
        for (int i : race.ranking(d.metric)) {
            const RaceEntry &e = race.entries[i];
            const RunResult &r = e.result;
            const bool ran = e.timeMs(d.metric) > 0;
            std::string check = !r.ok() ? (r.unavailable ? "unavailable: " : "failed: ") + r.error
                                : !r.checked ? "not checked"
                                : r.matches ? "matches (max diff " + std::to_string(r.maxAbsDiff) + ")"
                                            : "DIFFERS (max diff " + std::to_string(r.maxAbsDiff) + ")";
            h += std::string(i == win ? "<tr class=\"win\">" : "<tr>") + "<td class=\"n\">"
                 + (ran ? std::to_string(++rank) : "") + "</td><td>" + htmlEscape(e.title) + " <code>"
                 + htmlEscape(e.name) + "</code></td><td class=\"n\">" + (ran ? ms(e.timeMs(RaceMetric::EndToEnd)) : "-")
                 + "</td><td class=\"n\">" + (ran ? ms(e.timeMs(RaceMetric::KernelOnly)) : "-") + "</td><td>"
                 + htmlEscape(ran ? race.speedupSentence(e, d.metric) : "") + "</td><td>"
                 + htmlEscape(e.onHost || !ran ? "" : launchShapeLabel(r.local, r.localSource)) + "</td><td>"
                 + htmlEscape(check) + "</td></tr>\n";
        }
        h += "</table>\n";
        h += "<p>The CPU to beat is " + htmlEscape(race.cpuReferenceTitle) + " (<code>" + htmlEscape(race.cpuReferenceName)
             + "</code>, " + htmlEscape(ms(race.cpuReferenceMs))
             + (race.cpuReferenceMeasurements > 0 ? ", " + cpuTimingWords(race.cpuReferenceMeasurements) : std::string())
             + "); the single-threaded reference only checks results"
             + (race.sameProcessorNote().empty() ? "" : ". " + htmlEscape(race.sameProcessorNote()))
             + (race.memoryFloorMs > 0 ? "; the memory limit (bytes the filter must move at the device's copy speed, "
                                             + fmt("%.0f GB/s", race.copyGBps) + ") is " + ms(race.memoryFloorMs)
                                       : std::string())
             + ".</p>\n";
    }
    if (d.duel.size() == 2) {
        // Issue 24: the duel's two sides were only two more rows of the run table.
        h += "<h2>Duel: two ways side by side</h2>\n<table>\n<tr><th>side</th><th>device</th><th>filter / variant</th>"
             "<th>kernel</th><th>end to end</th><th>check</th></tr>\n";
        const char *sides[] = {"left", "right"};
        double total[2] = {0, 0};
        for (int i = 0; i < 2; ++i) {
            const RunResult &r = d.duel[std::size_t(i)].result;
            total[i] = r.ok() ? (r.endToEndMs > 0 ? r.endToEndMs : r.totalMs) : 0;
            h += "<tr><td>" + std::string(sides[i]) + "</td><td>" + htmlEscape(d.duel[std::size_t(i)].device)
                 + "</td><td><code>" + htmlEscape(r.filter + " / " + r.variant) + "</code></td><td class=\"n\">"
                 + (r.ok() ? ms(r.kernelMs.median) : "-") + "</td><td class=\"n\">" + (total[i] > 0 ? ms(total[i]) : "-")
                 + "</td><td>" + htmlEscape(!r.ok() ? "failed: " + r.error : !r.checked ? "not checked"
                                            : r.matches ? "matches" : "DIFFERS")
                 + "</td></tr>\n";
        }
        h += "</table>\n";
        if (total[0] > 0 && total[1] > 0) {
            const int fast = total[0] <= total[1] ? 0 : 1;
            const double ratio = total[1 - fast] / total[fast];
            h += "<p>End to end, the " + std::string(sides[fast]) + " side (" + htmlEscape(d.duel[std::size_t(fast)].device)
                 + ", " + ms(total[fast]) + ") "
                 + (ratio < 1.05 ? std::string("is about as fast as")
                                 : "is " + fmt("%.1f", ratio) + "\u00d7 faster than")
                 + " the " + sides[1 - fast] + " (" + htmlEscape(d.duel[std::size_t(1 - fast)].device) + ", "
                 + ms(total[1 - fast]) + ").</p>\n";
        }
    }
    if (d.tune) {
        const TuneResult &t = *d.tune;
        h += "<h2>Work-group tuning: " + htmlEscape(t.filter + " / " + t.variant) + "</h2>\n";
        if (t.best >= 0) {
            h += "<p>Best shape <b>" + htmlEscape(t.cells[t.best].local.toString()) + "</b> at "
                 + htmlEscape(ms(t.cells[t.best].kernelMs));
            if (t.defaultRun.ok())
                h += "; the default launch (" + htmlEscape(launchShapeLabel(t.defaultRun.local, t.defaultRun.localSource))
                     + ") took " + htmlEscape(ms(t.defaultRun.kernelMs.median)) + " ("
                     + htmlEscape(fmt("%.2f\u00d7", t.speedupOverDefault())) + ")";
            h += ".</p>\n";
        }
        h += tuneHeatMapSvg(t);
    }
    if (d.sweep) {
        h += "<h2>Parameter sweep: " + htmlEscape(d.sweep->filter + " over " + d.sweep->param) + "</h2>\n";
        h += sweepSvg(*d.sweep);
    }
    h += "<h2>Images</h2>\n";
    if (d.images.empty()) {
        h += "<p>" + htmlEscape(d.imagesNote.empty() ? "No images." : d.imagesNote) + "</p>\n";
    } else {
        h += "<div class=\"thumbs\">\n";
        for (const ReportImage &image : d.images)
            h += "<figure><img alt=\"" + htmlEscape(image.caption) + "\" src=\"data:image/png;base64,"
                 + base64Encode(image.png) + "\"/><figcaption>" + htmlEscape(image.caption) + "</figcaption></figure>\n";
        h += "</div>\n";
    }
    h += "<h2>Reproduce</h2>\n<p><code>" + htmlEscape(d.commandLine) + "</code></p>\n";
    h += "<p>" + htmlEscape(d.toolVersion) + (d.generatedAt.empty() ? "" : ", " + htmlEscape(d.generatedAt))
         + "</p>\n</body>\n</html>\n";
    return h;
}

} // namespace fwb
