// Work-group tuner (see Tuner.h).
#include "Tuner.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace fwb {

const TuneCell *TuneResult::cell(int w, int h) const
{
    for (const TuneCell &c : cells)
        if (!c.blockStage && c.local.width == w && c.local.height == h)
            return &c;
    return nullptr;
}

double TuneResult::speedupOverDefault() const
{
    if (best < 0 || !defaultRun.ok() || defaultRun.kernelMs.median <= 0)
        return 0;
    return defaultRun.kernelMs.median / cells[best].kernelMs;
}

int preferredWorkGroupMultiple(const DeviceInfo &device)
{
    std::string vendor = device.vendor + " " + device.platformName;
    std::transform(vendor.begin(), vendor.end(), vendor.begin(), [](unsigned char c) { return std::tolower(c); });
    if (device.kind == DeviceKind::Cpu)
        return 8;
    if (vendor.find("nvidia") != std::string::npos)
        return 32;
    if (vendor.find("amd") != std::string::npos || vendor.find("advanced micro") != std::string::npos)
        return 64;
    return 16;
}

std::vector<LocalSize> tuneShapes(const DeviceInfo &device, const VariantSpec &variant, const TuneOptions &options)
{
    const int deviceMax = device.maxWorkGroupSize ? int(device.maxWorkGroupSize) : 256;
    const int maxItems = std::max(1, std::min(options.maxItems, deviceMax));
    const int multiple = options.preferredMultiple > 0 ? options.preferredMultiple : preferredWorkGroupMultiple(device);
    const bool columnsOnly = std::all_of(variant.passes.begin(), variant.passes.end(),
                                         [](const PassSpec &p) { return p.geometry == Geometry::Columns; });
    std::set<int> widths;
    for (int w = 1; w <= maxItems; w *= 2)
        widths.insert(w);
    for (int k = 3; k * multiple <= maxItems && k <= 8; ++k)
        widths.insert(k * multiple);
    const int maxW = device.maxWorkItemSizes.size() > 0 ? int(device.maxWorkItemSizes[0]) : maxItems;
    const int maxH = device.maxWorkItemSizes.size() > 1 ? int(device.maxWorkItemSizes[1]) : maxItems;
    std::vector<LocalSize> shapes;
    for (int h = 1; h <= (columnsOnly ? 1 : maxItems); h *= 2)
        for (int w : widths)
            if (w * h <= maxItems && w * h >= options.minItems && w <= maxW && h <= maxH)
                shapes.push_back(LocalSize{w, h});
    return shapes;
}

std::vector<LocalSize> tuneBlocks(PixelFormat format)
{
    const int channels = channelCount(format);
    std::vector<LocalSize> blocks;
    for (int h = 1; h <= 32; h *= 2)
        for (int bytes = 4; bytes <= 32; bytes *= 2)
            blocks.push_back(LocalSize{channels == 3 ? bytes / 4 : bytes / channels, h});
    return blocks;
}

TuneResult tuneVariant(Session &session, const Image &input, const RunRequest &base, const TuneOptions &options,
                       const std::atomic<bool> *cancel, const TuneProgress &progress)
{
    TuneResult tune;
    tune.filter = base.filter;
    tune.variant = base.variant;
    tune.format = formatName(base.params.format);
    tune.width = input.width();
    tune.height = input.height();
    const FilterSpec *filter = findFilter(base.filter);
    const VariantSpec *variant = filter ? filter->variant(base.variant) : nullptr;
    if (!variant || input.isNull())
        return tune;
    std::vector<LocalSize> shapes = options.shapes.empty() ? tuneShapes(session.device(), *variant, options)
                                                           : options.shapes;
    std::set<int> widths, heights;
    for (const LocalSize &s : shapes) {
        widths.insert(s.width);
        heights.insert(s.height);
    }
    tune.widths.assign(widths.begin(), widths.end());
    tune.heights.assign(heights.begin(), heights.end());
    auto stop = [&] { return cancel && cancel->load(std::memory_order_relaxed); };

    RunRequest request = base;
    request.cpuSingle = false; // the oracle is cached after the first run; no need to time it again
    request.openCvCpuBaseline = false;
    request.keepOutput = false;
    if (options.measureDefault && !stop()) {
        request.local = LocalSize{};
        tune.defaultRun = session.run(input, request, cancel);
    }
    const bool blockTune = options.tuneBlocks && makesBlocks(*variant);
    const std::vector<LocalSize> blocks = !blockTune             ? std::vector<LocalSize>{}
                                          : options.blocks.empty() ? tuneBlocks(base.params.format)
                                                                   : options.blocks;
    const int total = int(blocks.size() + shapes.size());
    // Runs one cell as `request` asks (local, block); false when cancelled.
    auto tryCell = [&](TuneCell cell) {
        cell.refusal = session.checkLaunch(request, input.width(), input.height());
        if (cell.refusal.empty()) {
            cell.result = session.run(input, request, cancel);
            if (cell.result.cancelled)
                return false;
            if (cell.blockStage)
                cell.local = cell.result.local; // the default shape as it launched
            if (!cell.result.ok())
                cell.refusal = cell.result.error;
            else if (cell.result.checked && !cell.result.matches)
                cell.refusal = "wrong output (max difference " + std::to_string(cell.result.maxAbsDiff) + ")";
            else
                cell.kernelMs = cell.result.kernelMs.median;
        }
        tune.cells.push_back(std::move(cell));
        const int index = int(tune.cells.size()) - 1;
        if (tune.cells[index].ok() && (tune.best < 0 || tune.cells[index].kernelMs < tune.cells[tune.best].kernelMs))
            tune.best = index;
        if (progress)
            progress(tune.cells.back(), index + 1, total);
        return true;
    };
    bool cancelled = false;
    for (const LocalSize &block : blocks) { // stage 1: each block at the default shape
        request.local = LocalSize{};
        request.block = block;
        TuneCell cell;
        cell.block = block;
        cell.blockStage = true;
        if ((cancelled = stop() || !tryCell(cell)))
            break;
    }
    // The shapes (a block tune's stage 2: at the fastest block; none when no block ran).
    const bool shapesToo = !cancelled && (!blockTune || tune.best >= 0);
    if (blockTune && shapesToo)
        request.block = tune.cells[tune.best].block;
    for (const LocalSize &shape : shapesToo ? shapes : std::vector<LocalSize>{}) {
        request.local = shape;
        TuneCell cell;
        cell.local = shape;
        cell.block = request.block;
        if (stop() || !tryCell(cell))
            break;
    }
    tune.cancelled = stop();
    return tune;
}

std::optional<TuningEntry> tuningEntry(const DeviceInfo &device, const TuneResult &tune, PixelFormat format)
{
    if (tune.best < 0)
        return std::nullopt;
    TuningEntry e;
    e.key = TuningKey::of(device, tune.filter, tune.variant, format, tune.width, tune.height);
    e.local = tune.cells[tune.best].local;
    e.block = tune.cells[tune.best].block;
    e.kernelMs = tune.cells[tune.best].kernelMs;
    if (tune.defaultRun.ok()) {
        e.defaultMs = tune.defaultRun.kernelMs.median;
        e.defaultLocal = tune.defaultRun.local.toString();
    }
    e.width = tune.width;
    e.height = tune.height;
    return e;
}

Json tuneJson(const TuneResult &tune)
{
    Json j = Json::object();
    j["filter"] = tune.filter;
    j["variant"] = tune.variant;
    j["format"] = tune.format;
    j["image"] = Json::object({{"width", tune.width}, {"height", tune.height}});
    j["size_class"] = imageSizeClass(tune.width, tune.height);
    j["cancelled"] = tune.cancelled;
    const bool haveBest = tune.best >= 0;
    j["best"] = haveBest ? Json(tune.cells[tune.best].local.toString()) : Json();
    j["best_block"] = haveBest && tune.tunedBlocks() ? Json(tune.cells[tune.best].block.toString()) : Json();
    j["best_ms"] = haveBest ? jsonNumber(tune.cells[tune.best].kernelMs) : Json();
    const bool haveDefault = tune.defaultRun.ok();
    j["default"] = haveDefault ? Json(launchShapeLabel(tune.defaultRun.local, tune.defaultRun.localSource)) : Json();
    j["default_local_source"] = haveDefault ? Json(localSourceName(tune.defaultRun.localSource)) : Json();
    j["default_ms"] = haveDefault ? jsonNumber(tune.defaultRun.kernelMs.median) : Json();
    j["speedup_over_default"] = tune.speedupOverDefault() > 0 ? jsonNumber(tune.speedupOverDefault()) : Json();
    Json &cells = j["cells"] = Json::array();
    for (const TuneCell &c : tune.cells)
        cells.push_back(Json::object({{"stage", c.blockStage ? "block" : "local"},
                                      {"local", c.local.toString()},
                                      {"block", c.block.isConcrete() ? Json(c.block.toString()) : Json()},
                                      {"ms", c.ok() ? jsonNumber(c.kernelMs) : Json()},
                                      {"refusal", c.refusal.empty() ? Json() : Json(c.refusal)}}));
    return j;
}

} // namespace fwb
