// median3x3 and median5x5: every variant x pixel format exact against the single-threaded CPU reference
// (the variant table of FamilyTables.h; replicate / constant in gray8), the block edges, and the rgba8888
// shapes of the roofline and forgetful rungs (a channel or row loop, or unrolled) on noise in all four channels.
#include "Catalogue.h"
#include "Session.h"
#include "FamilyTables.h"
#include "SessionSuite.h"
#include "StreamForms.h"

#include <algorithm>
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

    void forcedShapes_data();
    void forcedShapes();

    void streamNvidiaForm_data();
    void streamNvidiaForm();
    void streamEndsRolledSameBytes();
    void pixelGatherSameBytes();
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

} // namespace

// Every median variant with an rgba8888 shape switch. Roofline (MR_ROW_LOOP, the catalogue's shape on every
// device): that shape under every border, the other under reflect101. Forgetful rungs (MF_CHANNEL_LOOP, the
// catalogue's shape on NVIDIA only, so forced here through FWB_EXTRA_BUILD_OPTIONS, as
// scripts/median-shape-ab.sh builds them): the catalogue's loop under every border; the other loop, the
// byte permutes NVIDIA takes the planes with (MF_PLANE_PRMT, emulated here), both with NVIDIA's own copy of
// the loop for interior strips (MF_INSIDE_COPY), the step without the channel loop as NVIDIA would build it
// (MF_ROW_WORDS, MF_ROLL_LOOPS off: CPUs' own form of that step) and this device's own shape under reflect101. Each at the
// block this CPU device builds and at the one a GPU builds where they differ, with rows padded and packed.
// And median5x5's gray8 forgetful rungs with their rows as NVIDIA builds them (-DMF_ROW_WORDS=0 -DMF_ROLL_LOOPS=0:
// through byte arrays or MF_WORDS' permutes, unrolled; the unpacked rung's rolled, MF_ROLL_GRAY8), where this device
// takes them as words in rolled loops
// (the catalogue's and the block-edge rows run that one): every border on the unpacked and the _ptx rung,
// reflect101 on the others.
void TestMedian::forcedShapes_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("format");
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
                QTest::newRow(QByteArray(name) + "/" + v.name.c_str() + "/rgba8888/" + borderModeName(border)
                              + (force.empty() ? "/catalogue" : force.c_str()))
                    << QString(name) << QString::fromStdString(v.name) << int(PixelFormat::Rgba8888) << int(border)
                    << QString::fromStdString(force);
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
            // The interior strips' own copy of the loop is NVIDIA's (MF_INSIDE_COPY, kernels/median/
            // median_forgetful.clh): the rows with the other loop and NVIDIA's permutes build it here too, where
            // the variant does not switch it off itself.
            const bool ownCopy = std::find(v.defines.begin(), v.defines.end(), "MF_INSIDE_COPY=0") == v.defines.end();
            const std::string copy = channels && ownCopy ? " -DMF_INSIDE_COPY=1" : "";
            std::vector<std::string> forced{channels ? std::string() : "-DMR_ROW_LOOP=" + std::to_string(1 - value)};
            if (channels)
                forced.push_back((everyBorder == "-DMF_CHANNEL_LOOP=2" ? "-DMF_CHANNEL_LOOP=1" : "-DMF_CHANNEL_LOOP=2")
                                 + copy);
            // The permutes where NVIDIA takes them (not the portable pair): 5x5 in the loop inside each step (its
            // sorted pair goes back into the words too), 3x3 in the loop around the strip.
            const bool five = std::string(name) == "median5x5";
            if (channels && (v.name == (five ? "forgetful" : "forgetful_w16") || v.name == "forgetful_u16x2_ptx"))
                forced.push_back((five ? "-DMF_CHANNEL_LOOP=1 -DMF_PLANE_PRMT=1" : "-DMF_CHANNEL_LOOP=2 -DMF_PLANE_PRMT=1")
                                 + copy);
            // The step without the channel loop as NVIDIA would build it (-DMF_CHANNEL_LOOP=0, with its interior
            // copy): its rows through byte arrays (or MF_WORDS' permutes) and unrolled, where this device's own
            // shape takes the rows as words in rolled loops (MF_ROW_WORDS, MF_ROLL_LOOPS: CPUs only): the unpacked,
            // the portable pair's and the _ptx rung's packing.
            if (channels && (v.name == "forgetful" || v.name == (five ? "forgetful_u16x2_ptx" : "forgetful_u16x2")))
                forced.push_back("-DMF_CHANNEL_LOOP=0 -DMF_ROW_WORDS=0 -DMF_ROLL_LOOPS=0" + copy);
            for (const std::string &force : forced)
                add(BorderMode::Reflect101, force);
        }
    QVERIFY(switches >= 10); // roofline and the four forgetful rungs of both sizes
    // The rungs NVIDIA builds with their gray8 rows in rolled loops too (MF_ROLL_GRAY8: the unpacked forgetful one).
    const auto rolledOnGpus = [](const char *variant) {
        const std::vector<std::string> &d = findFilter("median5x5")->variant(variant)->defines;
        return std::find(d.begin(), d.end(), "MF_ROLL_GRAY8=1") != d.end();
    };
    for (const char *variant : {"forgetful", "forgetful_w16", "forgetful_u16x2", "forgetful_u16x2_ptx"})
        for (BorderMode border : allBorderModes())
            if (border == BorderMode::Reflect101 || std::string(variant) == "forgetful"
                || std::string(variant) == "forgetful_u16x2_ptx")
                QTest::newRow(QByteArray("median5x5/") + variant + "/gray8/" + borderModeName(border) + "/rows-nvidia")
                    << QString("median5x5") << QString(variant) << int(PixelFormat::Gray8) << int(border)
                    << QString(rolledOnGpus(variant) ? "-DMF_ROW_WORDS=0" : "-DMF_ROW_WORDS=0 -DMF_ROLL_LOOPS=0");
}

void TestMedian::forcedShapes()
{
    QFETCH(QString, filter);
    QFETCH(QString, variant);
    QFETCH(int, format);
    QFETCH(int, border);
    QFETCH(QString, force);
    const VariantSpec &v = *findFilter(filter.toStdString())->variant(variant.toStdString());
    RunRequest request = oneShotRequest(filter.toStdString(), variant.toStdString(), PixelFormat(format));
    request.params.border = BorderMode(border);
    request.keepOutput = false;
    const ExtraBuildOptions extra(force);
    // Rows padded to 16 bytes (the default transfer) and packed (zero copy: a row's own size, so at odd widths
    // no strip takes the aligned path and the last block of a row is cut short).
    std::vector<RunRequest> shapes{request, request};
    shapes.back().transfer = TransferMode::ZeroCopy;
    const int gpuW = v.blockWidthFor(PixelFormat(format), false), gpuH = v.blockHeightFor(PixelFormat(format), false);
    if ((gpuW != v.blockWidthFor(PixelFormat(format), true) || gpuH != v.blockHeightFor(PixelFormat(format), true))
        && BorderMode(border) == BorderMode::Reflect101) {
        shapes.push_back(request);
        shapes.back().block = LocalSize{gpuW, gpuH};
    }
    std::uint32_t seed = 1;
    for (const RunRequest &each : shapes)
        for (const auto &[w, h] : std::vector<std::pair<int, int>>{{1, 1}, {7, 5}, {35, 19}, {67, 45}}) {
            const RunResult r = m_session->run(noiseImage(w, h, seed++, PixelFormat(format)), each);
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

// median3x3 `stream` as NVIDIA builds it (tests/support/StreamForms.h): gray8 two output rows a step
// (MD_PAIR_ROWS, kernels/median/median_stream.clh) where the rows are unrolled.
void TestMedian::streamNvidiaForm_data() { addNvidiaStreamRows("median3x3"); }

void TestMedian::streamNvidiaForm() { verifyNvidiaStreamRow(*m_session); }

void TestMedian::streamEndsRolledSameBytes() { verifyStreamEndsRolled(*m_session, "median3x3"); }

// The edge blocks by whole pixels (BS_PIXEL_GATHER, kernels/shared/byte_strips.clh) in both kernels that load rows
// through it: the forgetful rungs' and the roofline's.
void TestMedian::pixelGatherSameBytes()
{
    verifyPixelGather(*m_session, "median3x3", "forgetful");
    verifyPixelGather(*m_session, "median3x3", "sorted_columns");
}

QTEST_GUILESS_MAIN(TestMedian)
#include "tst_median.moc"
