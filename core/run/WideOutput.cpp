// 16-bit signed outputs (FilterSpec::wideOutput: Sobel's gx and gy as NPP and OpenCV's CV_16S give them):
// the raw download (a Gray8 image twice as wide, tightly packed, holding the little-endian int16 values)
// checked exactly against the family's wide reference, and the family's 8-bit picture of it, which is what is
// shown and saved. The reference is computed once a run, for the first picture's check and the last.
#include "runtime/SessionImpl.h"

#include <cmath>
#include <cstring>

namespace fwb {

WideOutput::WideOutput(const Image &src, const FilterSpec &filter, const FilterParams &params)
    : m_src(src), m_filter(filter), m_params(params)
{}

std::vector<std::int16_t> WideOutput::values(const Image &raw)
{
    std::vector<std::int16_t> v(raw.sizeBytes() / 2);
    std::memcpy(v.data(), raw.data(), v.size() * 2);
    return v;
}

const std::vector<std::int16_t> &WideOutput::reference()
{
    if (!m_haveReference) {
        m_filter.wideReference(m_src, m_reference, m_params);
        m_haveReference = true;
    }
    return m_reference;
}

void WideOutput::check(const std::vector<std::int16_t> &values, RunResult &r)
{
    const std::vector<std::int16_t> &want = reference();
    r.checked = true;
    r.tolerance = 0;
    if (want.size() != values.size()) {
        r.maxAbsDiff = -1;
        r.matches = false;
        return;
    }
    int worst = 0;
    double sum = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const int d = std::abs(int(values[i]) - int(want[i]));
        worst = std::max(worst, d);
        sum += d;
    }
    r.maxAbsDiff = worst;
    r.meanAbsDiff = values.empty() ? 0.0 : sum / double(values.size());
    r.matches = worst == 0;
}

Image WideOutput::view(const std::vector<std::int16_t> &values, int width, int height) const
{
    Image picture(width, height, PixelFormat::Gray8);
    m_filter.wideView(values.data(), picture, m_params);
    return picture;
}

void WideOutput::deliverFirst(Image &raw, const std::uint8_t *downloaded, bool check, const RunResult &sofar,
                              const Session::FirstOutput &firstOutput)
{
    if (downloaded != raw.data()) // pinned staging: the last repeat's copy is the one timed (stagingMs)
        std::memcpy(raw.data(), downloaded, raw.sizeBytes());
    const int w = raw.width() / 2, h = raw.height();
    const std::vector<std::int16_t> got = values(raw);
    RunResult r = sofar;
    Image referencePicture;
    if (check) {
        this->check(got, r);
        referencePicture = view(reference(), w, h);
    }
    firstOutput(view(got, w, h), referencePicture, r);
}

} // namespace fwb
