// median3x3 and median5x5: every variant x pixel format exact against the single-threaded CPU reference
// (the variant table of FamilyTables.h; replicate / constant in gray8), the block edges, and the rgba8888
// shapes of the roofline and forgetful rungs (a channel or row loop, or unrolled) on noise in all four channels.
#include "Catalogue.h"
#include "Session.h"
#include "FamilyTables.h"
#include "SessionSuite.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

using namespace fwb;
using namespace fwb::test;

class TestMedian : public fwb::test::FamilySuite
{
    Q_OBJECT

private slots:
    void matchesCpuReference_data();

    void sortedColumnsBlockEdges_data();
    void sortedColumnsBlockEdges();

    void rgbaShapes_data();
    void rgbaShapes();

    void streamNvidiaForm_data();
    void streamNvidiaForm();
};

// Every variant x format (reflect101) and the replicate / constant rules in gray8, from the catalogue.
void TestMedian::matchesCpuReference_data()
{
    addReferenceColumns();
    addVariantRows("median3x3", {.otherBordersInGray8Only = true});
    addVariantRows("median5x5", {.otherBordersInGray8Only = true});
}

void TestMedian::sortedColumnsBlockEdges_data()
{
    addBlockEdgeColumns();
    addBlockEdgeRows("median3x3", "sorted_columns", {""});
    addBlockEdgeRows("median5x5", "sorted_columns", {""});
    addBlockEdgeRows("median3x3", "cpu_rows", {""});
    addBlockEdgeRows("median3x3", "stream", {""});
    for (const char *name : {"median3x3", "median5x5"})
        // forgetful_u16x2_ptx is forgetful_u16x2 off NVIDIA (the reference and border rows above run it too)
        for (const char *variant : {"forgetful", "forgetful_w16", "forgetful_u16x2"})
            addBlockEdgeRows(name, variant, {""});
}

void TestMedian::sortedColumnsBlockEdges() { verifyBlockEdgeRow(*m_session); }

namespace {

// The catalogue's rgba8888 shape of a variant (core/families/median/Median.cpp, kRgbaShapes): the define's
// name without _DEFAULT ("MF_CHANNEL_LOOP") and its value, or an empty name where the variant has none.
std::pair<std::string, int> rgbaShapeOf(const VariantSpec &v)
{
    for (const std::string &d : v.defines)
        for (const char *name : {"MF_CHANNEL_LOOP", "MR_ROW_LOOP"})
            if (d.rfind(std::string(name) + "_DEFAULT=", 0) == 0)
                return {name, d.back() - '0'};
    return {};
}

// Independent 8-bit noise in every channel, alpha too (the test card's alpha is all 255, so a loop that
// ran or put back the wrong channel could pass there).
Image noiseImage(int w, int h, std::uint32_t seed, PixelFormat format = PixelFormat::Rgba8888)
{
    Image image(w, h, format);
    for (int y = 0; y < h; ++y)
        for (int i = 0; i < w * channelCount(format); ++i) {
            seed = seed * 1664525u + 1013904223u;
            image.row(y)[i] = std::uint8_t(seed >> 24);
        }
    return image;
}

// FWB_EXTRA_BUILD_OPTIONS set for one row and given back after it, a failed check included.
struct ExtraBuildOptions
{
    QByteArray previous = qgetenv("FWB_EXTRA_BUILD_OPTIONS");
    explicit ExtraBuildOptions(const QString &options) { qputenv("FWB_EXTRA_BUILD_OPTIONS", options.toUtf8()); }
    ~ExtraBuildOptions()
    {
        if (previous.isNull())
            qunsetenv("FWB_EXTRA_BUILD_OPTIONS");
        else
            qputenv("FWB_EXTRA_BUILD_OPTIONS", previous);
    }
    ExtraBuildOptions(const ExtraBuildOptions &) = delete;
    ExtraBuildOptions &operator=(const ExtraBuildOptions &) = delete;
};

} // namespace

// Every median variant with an rgba8888 shape switch. Roofline (MR_ROW_LOOP, the catalogue's shape on every
// device): that shape under every border, the other under reflect101. Forgetful rungs (MF_CHANNEL_LOOP, the
// catalogue's shape on NVIDIA only, so forced here through FWB_EXTRA_BUILD_OPTIONS, as
// scripts/median-shape-ab.sh builds them): the catalogue's loop under every border; the other loop, the
// byte permutes NVIDIA takes the planes with (MF_PLANE_PRMT, emulated here) and this device's own shape
// under reflect101. Each at the block this CPU device builds and at the one a GPU builds where they differ,
// with rows padded and packed.
void TestMedian::rgbaShapes_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("border");
    QTest::addColumn<QString>("force"); // empty: the catalogue's shape (as this device takes it)
    int switches = 0;
    for (const char *name : {"median3x3", "median5x5"})
        for (const VariantSpec &v : findFilter(name)->variants) {
            const auto [define, value] = rgbaShapeOf(v);
            if (define.empty())
                continue;
            ++switches;
            const auto add = [&](BorderMode border, const std::string &force) {
                QTest::newRow(QByteArray(name) + "/" + v.name.c_str() + "/" + borderModeName(border)
                              + (force.empty() ? "/catalogue" : force.c_str()))
                    << QString(name) << QString::fromStdString(v.name) << int(border) << QString::fromStdString(force);
            };
            const bool channels = define == "MF_CHANNEL_LOOP";
            const std::string everyBorder = channels ? (value ? "-DMF_CHANNEL_LOOP=" + std::to_string(value) : "-DMF_CHANNEL_LOOP=2")
                                                     : std::string();
            // Each shape's own code does not depend on the border rule (the rows come through the same loaders):
            // the other rules on one unpacked and one packed forgetful rung (each PoCL build takes seconds).
            const bool allBorders = !channels || v.name == "forgetful" || v.name == "forgetful_u16x2_ptx";
            for (BorderMode border : allBorderModes())
                if (allBorders || border == BorderMode::Reflect101)
                    add(border, everyBorder);
            std::vector<std::string> forced{channels ? std::string() : "-DMR_ROW_LOOP=" + std::to_string(1 - value)};
            if (channels)
                forced.push_back(everyBorder == "-DMF_CHANNEL_LOOP=2" ? "-DMF_CHANNEL_LOOP=1" : "-DMF_CHANNEL_LOOP=2");
            // The permutes where NVIDIA takes them (not the portable pair): 5x5 in the loop inside each step (its
            // sorted pair goes back into the words too), 3x3 in the loop around the strip.
            const bool five = std::string(name) == "median5x5";
            if (channels && (v.name == (five ? "forgetful" : "forgetful_w16") || v.name == "forgetful_u16x2_ptx"))
                forced.push_back(five ? "-DMF_CHANNEL_LOOP=1 -DMF_PLANE_PRMT=1" : "-DMF_CHANNEL_LOOP=2 -DMF_PLANE_PRMT=1");
            for (const std::string &force : forced)
                add(BorderMode::Reflect101, force);
        }
    QVERIFY(switches >= 10); // roofline and the four forgetful rungs of both sizes
}

void TestMedian::rgbaShapes()
{
    QFETCH(QString, filter);
    QFETCH(QString, variant);
    QFETCH(int, border);
    QFETCH(QString, force);
    const VariantSpec &v = *findFilter(filter.toStdString())->variant(variant.toStdString());
    RunRequest request = oneShotRequest(filter.toStdString(), variant.toStdString(), PixelFormat::Rgba8888);
    request.params.border = BorderMode(border);
    request.keepOutput = false;
    const ExtraBuildOptions extra(force);
    // Rows padded to 16 bytes (the default transfer) and packed (zero copy: a row's own size, so at odd widths
    // no strip takes the aligned path and the last block of a row is cut short).
    std::vector<RunRequest> shapes{request, request};
    shapes.back().transfer = TransferMode::ZeroCopy;
    const int gpuW = v.blockWidthFor(PixelFormat::Rgba8888, false);
    if (gpuW != v.blockWidthFor(PixelFormat::Rgba8888, true) && BorderMode(border) == BorderMode::Reflect101) {
        shapes.push_back(request);
        shapes.back().block = LocalSize{gpuW, v.blockHeight};
    }
    std::uint32_t seed = 1;
    for (const RunRequest &each : shapes)
        for (const auto &[w, h] : std::vector<std::pair<int, int>>{{1, 1}, {7, 5}, {35, 19}, {67, 45}}) {
            const RunResult r = m_session->run(noiseImage(w, h, seed++), each);
            const QByteArray what = "block " + QByteArray(r.block.toString().c_str()) + ", " + r.transfer.c_str() + ", "
                                    + describe(r, w, h);
            QVERIFY2(r.ok() && r.checked && r.matches, what.constData());
            // The shape asked for is the one built: the forced define, or the catalogue's own.
            const std::string opts = r.buildOptions;
            QVERIFY2(force.isEmpty() ? opts.find("_DEFAULT=") != std::string::npos
                                     : opts.find(force.toStdString()) != std::string::npos,
                     opts.c_str());
        }
}

// median3x3 `stream` as NVIDIA builds it (kernels/median/median_stream.clh): the rows unrolled, two output rows a
// step in gray8 (MD_PAIR_ROWS), the l/r views made by byte permutes (emulated here); PoCL builds the rolled loop,
// one row a step (the reference rows). On noise (every byte independent: the row and column passes must pick the
// right neighbours), every border rule, every width to 40 and odd heights, rows padded and packed.
void TestMedian::streamNvidiaForm_data()
{
    QTest::addColumn<int>("format");
    QTest::addColumn<int>("border");
    for (PixelFormat format : {PixelFormat::Gray8, PixelFormat::Rgba8888})
        for (BorderMode border : allBorderModes())
            QTest::newRow(QByteArray(formatName(format)) + "/" + borderModeName(border)) << int(format) << int(border);
}

void TestMedian::streamNvidiaForm()
{
    QFETCH(int, format);
    QFETCH(int, border);
    const QString force = "-DS3_UNROLL_ROWS=1 -DS3_VIEWS_BY_WORDS=1";
    const ExtraBuildOptions extra(force);
    RunRequest request = oneShotRequest("median3x3", "stream", PixelFormat(format));
    request.params.border = BorderMode(border);
    request.keepOutput = false;
    std::vector<RunRequest> layouts{request, request};
    layouts.back().transfer = TransferMode::ZeroCopy;
    // The GPU's block where it differs from this CPU device's (rgba8888: 8 rows down on GPUs).
    const VariantSpec &v = *findFilter("median3x3")->variant("stream");
    const int gpuW = v.blockWidthFor(PixelFormat(format), false), gpuH = v.blockHeightFor(PixelFormat(format), false);
    if (gpuW != v.blockWidthFor(PixelFormat(format), true) || gpuH != v.blockHeightFor(PixelFormat(format), true)) {
        layouts.push_back(request);
        layouts.back().block = LocalSize{gpuW, gpuH};
    }
    std::uint32_t seed = 7;
    for (const RunRequest &each : layouts)
        for (const auto &[w, h] : withEveryWidthTo40({{1, 1}, {67, 45}, {259, 37}}, {1, 2, 9})) {
            const RunResult r = m_session->run(noiseImage(w, h, seed++, PixelFormat(format)), each);
            const QByteArray what = QByteArray(r.transfer.c_str()) + ", " + describe(r, w, h);
            QVERIFY2(r.ok() && r.checked && r.matches, what.constData());
            QVERIFY2(r.buildOptions.find(force.toStdString()) != std::string::npos, r.buildOptions.c_str());
        }
}

QTEST_GUILESS_MAIN(TestMedian)
#include "tst_median.moc"
