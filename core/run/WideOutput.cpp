// 16-bit signed outputs (FilterSpec::wideOutput: Sobel's gx and gy as NPP and OpenCV's CV_16S give them):
// the raw download (a Gray8 image twice as wide holding the little-endian int16 values) checked exactly
// against the family's wide reference, and the family's 8-bit picture of it, which is what is shown and saved.
#include "runtime/SessionImpl.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace fwb {

namespace {

// The raw image's values, row after row (its rows may be padded; values are not).
std::vector<std::int16_t> wideValues(const Image &raw, int width, int height)
{
    std::vector<std::int16_t> values(std::size_t(width) * std::size_t(height));
    for (int y = 0; y < height; ++y)
        std::memcpy(values.data() + std::size_t(y) * std::size_t(width), raw.row(y), std::size_t(width) * 2);
    return values;
}

} // namespace

void checkWideOutput(const Image &src, const Image &raw, const FilterSpec &filter, const FilterParams &params, RunResult &r)
{
    const int w = raw.width() / 2, h = raw.height();
    std::vector<std::int16_t> reference;
    filter.wideReference(src, reference, params);
    const std::vector<std::int16_t> values = wideValues(raw, w, h);
    r.checked = true;
    r.tolerance = 0;
    if (reference.size() != values.size()) {
        r.maxAbsDiff = -1;
        r.matches = false;
        return;
    }
    int worst = 0;
    double sum = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const int d = std::abs(int(values[i]) - int(reference[i]));
        worst = std::max(worst, d);
        sum += d;
    }
    r.maxAbsDiff = worst;
    r.meanAbsDiff = values.empty() ? 0.0 : sum / double(values.size());
    r.matches = worst == 0;
}

Image wideOutputView(const Image &raw, const FilterSpec &filter, const FilterParams &params, int width, int height)
{
    Image view(width, height, PixelFormat::Gray8);
    const std::vector<std::int16_t> values = wideValues(raw, width, height);
    filter.wideView(values.data(), view, params);
    return view;
}

void deliverFirstWideOutput(const Image &src, Image &raw, const std::uint8_t *downloaded, const FilterSpec &filter,
                            const RunRequest &request, const RunResult &sofar, const Session::FirstOutput &firstOutput)
{
    if (downloaded != raw.data()) // pinned staging: the last repeat's copy is the one timed (stagingMs)
        std::memcpy(raw.data(), downloaded, raw.sizeBytes());
    RunResult r = sofar;
    Image reference;
    if (request.check) {
        checkWideOutput(src, raw, filter, request.params, r);
        std::vector<std::int16_t> values;
        filter.wideReference(src, values, request.params);
        reference = Image(raw.width() / 2, raw.height(), PixelFormat::Gray8);
        filter.wideView(values.data(), reference, request.params);
    }
    firstOutput(wideOutputView(raw, filter, request.params, raw.width() / 2, raw.height()), reference, r);
}

} // namespace fwb
