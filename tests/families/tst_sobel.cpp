// sobel: every variant x format x border against the single-threaded CPU reference (the variant table
// of FamilyTables.h), the exact |gx| / |gy| outputs, and the strips rung's block edges.
#include "Catalogue.h"
#include "Session.h"
#include "FamilyTables.h"
#include "SessionSuite.h"
#include "StreamForms.h"

#include <memory>
#include <utility>
#include <vector>

using namespace fwb;
using namespace fwb::test;

class TestSobel : public fwb::test::FamilySuite
{
    Q_OBJECT

private slots:
    void matchesCpuReference_data();

    void stripsBlockEdges_data();
    void stripsBlockEdges();

    void streamNvidiaForm_data();
    void streamNvidiaForm();

    void wideOutput_data();
    void wideOutput();
    void wideOutputLimits();
    void stripsBuiltForOneOutput();
    void pixelGatherSameBytes();
};

void TestSobel::matchesCpuReference_data()
{
    addReferenceColumns();
    addVariantRows("sobel");
    // The exact integer axes (|gx|, |gy|), tested at 0.
    for (const char *variant : {"naive", "local_tiled", "separable"})
        for (int output : {0, 1})
            addReferenceRow(QString::asprintf("sobel/%s/output%d", variant, output), "sobel", variant,
                            PixelFormat::Rgb888, BorderMode::Reflect101, 259, 194, QString("output=%1").arg(output), 0);
}

void TestSobel::stripsBlockEdges_data()
{
    addBlockEdgeColumns();
    // |gx| and |gy| exact (0), the magnitude within the filter's tolerance.
    addBlockEdgeRows("sobel", "strips", {"output=0", "output=1"}, 0);
    addBlockEdgeRows("sobel", "strips", {"output=2"});
    addBlockEdgeRows("sobel", "stream", {"output=0", "output=1"}, 0, true);
    addBlockEdgeRows("sobel", "stream", {"output=2"}, -1, true);
}

void TestSobel::stripsBlockEdges() { verifyBlockEdgeRow(*m_session); }

// The stream rung as NVIDIA builds it (tests/support/StreamForms.h): its views by byte permutes there. |gx| and
// the magnitude (which takes |gy| too).
void TestSobel::streamNvidiaForm_data() { addNvidiaStreamRows("sobel", {"output=0", "output=2"}); }

void TestSobel::streamNvidiaForm() { verifyNvidiaStreamRow(*m_session); }

// Outputs 3 and 4: gx and gy as signed 16-bit numbers (NPP's output), every value exact, on every variant (the
// stream rung also as NVIDIA builds it), every border, widths 1 to 40 and odd sizes, rows padded (pageable and
// pinned: 16-bit rows padded to 32 bytes) and packed (zero copy), the picture that of output 0 or 1.
void TestSobel::wideOutput_data()
{
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("output");
    QTest::addColumn<int>("border");
    QTest::addColumn<QString>("force");
    for (const VariantSpec &v : findFilter("sobel")->variants)
        for (int output : {3, 4})
            for (BorderMode border : allBorderModes())
                if (output == 3 || border == BorderMode::Reflect101) // gy: the other axis, one border
                    QTest::newRow(QByteArray(v.name.c_str()) + "/output" + QByteArray::number(output) + "/"
                                  + borderModeName(border))
                        << QString::fromStdString(v.name) << output << int(border) << QString();
    for (int output : {3, 4})
        QTest::newRow(QByteArray("stream/nvidia-form/output") + QByteArray::number(output))
            << QString("stream") << output << int(BorderMode::Replicate) << QString("-DS3_UNROLL_ROWS=1 -DS3_VIEWS_BY_WORDS=1");
}

void TestSobel::wideOutput()
{
    QFETCH(QString, variant);
    QFETCH(int, output);
    QFETCH(int, border);
    QFETCH(QString, force);
    const ExtraBuildOptions extra(force);
    const FilterSpec &spec = *findFilter("sobel");
    RunRequest request = oneShotRequest("sobel", variant.toStdString(), PixelFormat::Gray8);
    request.params.border = BorderMode(border);
    QCOMPARE(applyParam(spec, request.params, "output=" + std::to_string(output)), std::string());
    RunRequest picture = request; // the same picture from the 8-bit output of that axis
    QCOMPARE(applyParam(spec, picture.params, "output=" + std::to_string(output - 3)), std::string());
    std::vector<RunRequest> layouts{request, request, request};
    layouts[1].transfer = TransferMode::ZeroCopy;
    layouts[2].transfer = TransferMode::Pinned;
    if (variant == "stream") { // the rows a work-item a GPU takes for these outputs (VariantSpec::blockHeightGpuWide)
        layouts.push_back(request);
        layouts.back().block = LocalSize{16, findFilter("sobel")->variant("stream")->blockHeightGpuWide};
    }
    std::uint32_t seed = 5;
    for (std::size_t layout = 0; layout < layouts.size(); ++layout) {
        // Every width to 40 with rows padded; the other layouts at a few sizes (their code differs only in the pitch).
        const EdgeSizes sizes = layout == 0 ? withEveryWidthTo40({{1, 1}, {67, 45}, {259, 37}}, {3})
                                            : EdgeSizes{{1, 1}, {17, 3}, {67, 45}, {259, 37}};
        for (const auto &[w, h] : sizes) {
            const Image input = noiseImage(w, h, seed++, PixelFormat::Gray8);
            const RunResult r = m_session->run(input, layouts[layout]);
            QVERIFY2(r.ok() && r.checked && r.matches && r.maxAbsDiff == 0 && r.tolerance == 0, describe(r, w, h).constData());
            QVERIFY2(r.outputNote.find("16-bit") != std::string::npos, r.outputNote.c_str());
            QCOMPARE(r.bytesMoved, 3.0 * double(w) * double(h)); // one byte read, two written a pixel
            QCOMPARE(r.output.width(), w);
            QCOMPARE(r.output.format(), PixelFormat::Gray8);
            if (w == 67) { // the picture shown: that of the 8-bit output of the same axis
                const RunResult eight = m_session->run(input, picture);
                QVERIFY2(eight.ok() && eight.matches, describe(eight, w, h).constData());
                QCOMPARE(maxAbsDiff(r.output, eight.output), 0);
            }
        }
    }
}

// The 16-bit outputs are gray8 only (as NPP's), and not cut into tiles: both refused with the reason.
void TestSobel::wideOutputLimits()
{
    const FilterSpec &spec = *findFilter("sobel");
    RunRequest request = oneShotRequest("sobel", "stream", PixelFormat::Rgba8888);
    QCOMPARE(applyParam(spec, request.params, "output=3"), std::string());
    const RunResult rgba = m_session->run(noiseImage(40, 9, 1, PixelFormat::Rgba8888), request);
    QVERIFY(!rgba.ok() && rgba.unavailable);
    QVERIFY2(rgba.error.find("gray8") != std::string::npos, rgba.error.c_str());
    request.params.format = PixelFormat::Gray8;
    request.tileWidth = 32;
    request.tileHeight = 32;
    const RunResult tiled = m_session->run(noiseImage(67, 45, 2, PixelFormat::Gray8), request);
    QVERIFY(!tiled.ok());
    QVERIFY2(tiled.error.find("not cut into tiles") != std::string::npos, tiled.error.c_str());
}

// The strips rung is built for its output (the variant's paramDefines: -DFWB_PARAM_OUTPUT, kernels/sobel/sobel.cl),
// on noise: every output of both layouts, both border kinds, exact, the output's define in the build.
void TestSobel::stripsBuiltForOneOutput()
{
    const FilterSpec &spec = *findFilter("sobel");
    std::uint32_t seed = 11;
    for (PixelFormat format : {PixelFormat::Gray8, PixelFormat::Rgba8888})
        for (int output = 0; output <= (format == PixelFormat::Gray8 ? 4 : 2); ++output)
            for (BorderMode border : {BorderMode::Reflect101, BorderMode::Constant}) {
                const std::string option = "-DFWB_PARAM_OUTPUT=" + std::to_string(output);
                RunRequest request = oneShotRequest("sobel", "strips", format);
                request.params.border = border;
                QCOMPARE(applyParam(spec, request.params, "output=" + std::to_string(output)), std::string());
                for (const auto &[w, h] : std::vector<std::pair<int, int>>{{67, 45}, {5, 3}}) {
                    const RunResult r = m_session->run(noiseImage(w, h, seed++, format), request);
                    const QByteArray what = QByteArray(formatName(format)) + " output " + QByteArray::number(output) + " "
                                            + borderModeName(border) + " " + describe(r, w, h);
                    QVERIFY2(r.ok() && r.checked && r.matches, what.constData());
                    QVERIFY2(r.buildOptions.find(option) != std::string::npos, r.buildOptions.c_str());
                }
            }
}

// The strips rung's edge blocks by whole pixels (BS_PIXEL_GATHER, kernels/shared/byte_strips.clh).
void TestSobel::pixelGatherSameBytes() { verifyPixelGather(*m_session, "sobel", "strips", "output=0"); }

QTEST_GUILESS_MAIN(TestSobel)
#include "tst_sobel.moc"
