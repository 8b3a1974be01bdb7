// Alpha through the filters (issue 24, defect 1): a colour Sobel must not run on the alpha channel
// (an opaque photo came out fully transparent), and an opaque rgba8888 picture stays opaque through
// every filter and variant of the catalogue: the plain CPU reference, the fast CPU path, the device
// kernels and OpenCV's rows. Tiny pictures (blocks and tiles cut at odd edges), default parameters.
#include "Catalogue.h"
#include "OpenCvBaseline.h"
#include "Session.h"
#include "SessionSuite.h"
#include "TestSupport.h"

#include <algorithm>
#include <utility>

using namespace fwb;
using namespace fwb::test;

namespace {

// The test card with an alpha that varies from pixel to pixel (every value 0..255 occurs).
Image cardWithVaryingAlpha(int width, int height)
{
    Image image = makeTestCard(width, height, PixelFormat::Rgba8888);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            image.row(y)[4 * x + 3] = std::uint8_t((x * 7 + y * 13) & 255);
    return image;
}

// "" when every alpha byte of out equals expected's (or 255 when expected is null), else where not.
QByteArray alphaMismatch(const Image &out, const Image *expected, const char *path)
{
    if (out.isNull())
        return QByteArray(path) + ": no output";
    for (int y = 0; y < out.height(); ++y)
        for (int x = 0; x < out.width(); ++x) {
            const int got = out.row(y)[4 * x + 3];
            const int want = expected ? expected->row(y)[4 * x + 3] : 255;
            if (got != want)
                return QByteArray(path) + QString::asprintf(": alpha at (%d, %d) is %d, expected %d", x, y, got, want).toUtf8();
        }
    return {};
}

// Sizes a variant limited to small radii runs at (as the reference tables do), else the defaults.
void applyVariantLimit(const FilterSpec &filter, const VariantSpec &v, FilterParams &params)
{
    if (v.maxRadius <= 0)
        return;
    const bool bySigma = std::any_of(filter.params.begin(), filter.params.end(),
                                     [](const ParamSpec &p) { return p.key == "sigma"; });
    const std::string assignment = bySigma ? "sigma=" + std::to_string((v.maxRadius - 0.05) / 3.0)
                                           : "radius=" + std::to_string(v.maxRadius);
    applyParam(filter, params, assignment);
}

} // namespace

class TestAlpha : public SessionSuite
{
    Q_OBJECT

private slots:
    void sobelKeepsAlpha_data();
    void sobelKeepsAlpha();
    void opaqueStaysOpaque_data();
    void opaqueStaysOpaque();
};

void TestAlpha::sobelKeepsAlpha_data()
{
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("output");
    const FilterSpec *sobel = findFilter("sobel");
    QVERIFY(sobel);
    for (const VariantSpec &v : sobel->variants)
        for (int output : {0, 1, 2})
            QTest::newRow(QString::asprintf("%s/output%d", v.name.c_str(), output).toUtf8().constData())
                << QString::fromStdString(v.name) << output;
}

// Every path keeps the input's alpha, pixel for pixel, whatever the alpha is.
void TestAlpha::sobelKeepsAlpha()
{
    QFETCH(QString, variant);
    QFETCH(int, output);
    const FilterSpec *sobel = findFilter("sobel");
    RunRequest request = oneShotRequest("sobel", variant.toStdString(), PixelFormat::Rgba8888);
    QCOMPARE(applyParam(*sobel, request.params, "output=" + std::to_string(output)), std::string());
    request.keepOutput = true;
    request.check = true;
    for (auto [w, h] : {std::pair{37, 23}, std::pair{5, 3}}) {
        const Image input = cardWithVaryingAlpha(w, h);
        for (int threads : {1, 2}) {
            Image out(w, h, PixelFormat::Rgba8888);
            sobel->cpuReference(input, out, request.params, threads); // 1: the plain reference, 2: the fast path
            const QByteArray bad = alphaMismatch(out, &input, threads == 1 ? "reference" : "fast CPU path");
            QVERIFY2(bad.isEmpty(), bad.constData());
        }
        const RunResult r = m_session->run(input, request);
        QVERIFY2(r.ok(), describe(r, w, h).constData());
        const QByteArray bad = alphaMismatch(r.output, &input, "device kernel");
        QVERIFY2(bad.isEmpty(), bad.constData());
        QVERIFY2(r.matches, describe(r, w, h).constData());
        for (Baseline b : {Baseline::OpenCvCpu, Baseline::OpenCvTapi}) {
            const RunResult cv = m_session->runBaseline(input, request, b);
            if (cv.unavailable)
                continue; // built without OpenCV, or no OpenCL in OpenCV
            QVERIFY2(cv.ok(), cv.error.c_str());
            const QByteArray badCv = alphaMismatch(cv.output, &input, baselineName(b));
            QVERIFY2(badCv.isEmpty(), badCv.constData());
        }
    }
}

void TestAlpha::opaqueStaysOpaque_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QString>("variant");
    for (const FilterSpec &f : catalogue())
        for (const VariantSpec &v : f.variants)
            QTest::newRow((f.name + "/" + v.name).c_str()) << QString::fromStdString(f.name)
                                                          << QString::fromStdString(v.name);
}

// An opaque picture (alpha 255 everywhere) is opaque after every filter, on every path, with the default
// border rule (reflect101: with the constant border 0 a smoothing filter fades the edge pixels' alpha,
// as it does their colours).
void TestAlpha::opaqueStaysOpaque()
{
    QFETCH(QString, filter);
    QFETCH(QString, variant);
    const FilterSpec *spec = findFilter(filter.toStdString());
    const VariantSpec *v = spec->variant(variant.toStdString());
    QVERIFY(spec && v);
    RunRequest request = oneShotRequest(spec->name, v->name, PixelFormat::Rgba8888);
    applyVariantLimit(*spec, *v, request.params);
    request.keepOutput = true;
    const int w = 21, h = 13;
    const Image input = makeTestCard(w, h, PixelFormat::Rgba8888);
    const int ow = spec->transposesOutput ? h : w, oh = spec->transposesOutput ? w : h;
    for (int threads : {1, 2}) {
        Image out(ow, oh, PixelFormat::Rgba8888);
        if (spec->copySourceToDst)
            out = input;
        spec->cpuReference(input, out, request.params, threads); // 1: the plain reference, 2: the fast path
        const QByteArray bad = alphaMismatch(out, nullptr, threads == 1 ? "reference" : "fast CPU path");
        QVERIFY2(bad.isEmpty(), bad.constData());
    }
    const RunResult r = m_session->run(input, request);
    if (r.unavailable) {
        qInfo("%s/%s not run here: %s", qPrintable(filter), qPrintable(variant), r.error.c_str());
    } else {
        QVERIFY2(r.ok(), describe(r, w, h).constData());
        const QByteArray bad = alphaMismatch(r.output, nullptr, "device kernel");
        QVERIFY2(bad.isEmpty(), bad.constData());
    }
    if (v != &spec->variants.front())
        return; // OpenCV's rows do not depend on the variant
    for (Baseline b : {Baseline::OpenCvCpu, Baseline::OpenCvTapi}) {
        const RunResult cv = m_session->runBaseline(input, request, b);
        if (cv.unavailable)
            continue;
        QVERIFY2(cv.ok(), cv.error.c_str());
        const QByteArray bad = alphaMismatch(cv.output, nullptr, baselineName(b));
        QVERIFY2(bad.isEmpty(), bad.constData());
    }
}

QTEST_GUILESS_MAIN(TestAlpha)
#include "tst_alpha.moc"
