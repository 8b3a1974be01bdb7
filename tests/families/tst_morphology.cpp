// erode and dilate: every variant x pixel format exact against the single-threaded CPU reference (the
// variant table of FamilyTables.h; replicate / constant in gray8), large radii, and the block edges.
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

class TestMorphology : public fwb::test::FamilySuite
{
    Q_OBJECT

private slots:
    void matchesCpuReference_data();
    void largeRadius_data();
    void largeRadius();

    void stripsBlockEdges_data();
    void stripsBlockEdges();

    void erodeStreamNvidiaForm_data();
    void erodeStreamNvidiaForm();
    void pixelGatherSameBytes();
    void dilateStreamNvidiaForm_data();
    void dilateStreamNvidiaForm();
};

// Every variant x format (reflect101) and the replicate / constant rules in gray8, from the catalogue;
// the constant rule in a colour layout too.
void TestMorphology::matchesCpuReference_data()
{
    addReferenceColumns();
    addVariantRows("erode", {.otherBordersInGray8Only = true});
    addVariantRows("dilate", {.otherBordersInGray8Only = true});
    for (const VariantSpec &v : findFilter("erode")->variants)
        addReferenceRow(QString::asprintf("erode/%s/rgb888/constant", v.name.c_str()), "erode",
                        QString::fromStdString(v.name), PixelFormat::Rgb888, BorderMode::Constant, 259, 194, {}, -1);
}

// Radius 30 (the maximum) and an odd-sized one, with a non-default border and colour layouts.
void TestMorphology::largeRadius_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<int>("radius");
    QTest::addColumn<int>("format");
    QTest::addColumn<int>("border");
    QTest::newRow("erode/r30/rgba8888/replicate") << "erode" << 30 << int(PixelFormat::Rgba8888)
                                                  << int(BorderMode::Replicate);
    QTest::newRow("dilate/r7/rgb888/reflect101") << "dilate" << 7 << int(PixelFormat::Rgb888)
                                                 << int(BorderMode::Reflect101);
}

void TestMorphology::largeRadius()
{
    QFETCH(QString, filter);
    QFETCH(int, radius);
    QFETCH(int, format);
    QFETCH(int, border);
    const FilterSpec *spec = findFilter(filter.toStdString());
    QVERIFY(spec);
    for (const VariantSpec &v : spec->variants)
        for (const auto &[w, h] : {std::pair{259, 194}, std::pair{7, 5}}) {
            if (!v.formats.empty()
                && std::find(v.formats.begin(), v.formats.end(), PixelFormat(format)) == v.formats.end())
                continue; // a layout it does not take
            RunRequest req = oneShotRequest(spec->name, v.name, PixelFormat(format));
            req.params.values["radius"] = radius;
            req.params.border = BorderMode(border);
            const RunResult r = runOnTestCard(*m_session, req, w, h);
            if (v.maxRadius > 0 && radius > v.maxRadius) { // cpu_rows: small radii only, and it says so
                QVERIFY2(r.unavailable && r.error.find("radius up to") != std::string::npos, r.error.c_str());
                continue;
            }
            QVERIFY2(r.ok() && r.matches, (QByteArray(v.name.c_str()) + " " + describe(r, w, h)).constData());
        }
}

void TestMorphology::stripsBlockEdges_data()
{
    addBlockEdgeColumns();
    // r = 1, 2 keep the row results in registers for every format, r = 9 only for gray8, r = 30 never
    // (halo of several vectors, recomputed rows).
    addBlockEdgeRows("erode", "strips", {"radius=1", "radius=2", "radius=9"});
    addBlockEdgeRows("dilate", "strips", {"radius=2", "radius=30"});
    addBlockEdgeRows("erode", "cpu_rows", {"radius=1", "radius=2"});
    addBlockEdgeRows("dilate", "cpu_rows", {"radius=1", "radius=4"});
    // The packed rung (3x3, gray8): its own and byte_strips' edge paths, in 2x2 groups as well.
    addBlockEdgeRows("erode", "packed", {"radius=1"}, -1, true);
    addBlockEdgeRows("dilate", "packed", {"radius=1"}, -1, true);
    addBlockEdgeRows("erode", "stream", {"radius=1"}, 0, true);
    addBlockEdgeRows("dilate", "stream", {"radius=1"}, 0, true);
}

void TestMorphology::stripsBlockEdges() { verifyBlockEdgeRow(*m_session); }

// The gray8 stream rung as NVIDIA builds it (tests/support/StreamForms.h): on stream3x3.clh's halves there (the
// views by words switch them on: morphology.cl), two pixels per 16x2 min/max. (NVIDIA's rgba8888 form keeps the
// byte shuffle's views, which the forced options would replace: not run here.)
void TestMorphology::erodeStreamNvidiaForm_data() { addNvidiaStreamRows("erode", {"radius=1"}, {PixelFormat::Gray8}); }

void TestMorphology::erodeStreamNvidiaForm() { verifyNvidiaStreamRow(*m_session); }

void TestMorphology::dilateStreamNvidiaForm_data() { addNvidiaStreamRows("dilate", {"radius=1"}, {PixelFormat::Gray8}); }

void TestMorphology::dilateStreamNvidiaForm() { verifyNvidiaStreamRow(*m_session); }

// The strips rung's edge blocks by whole pixels (BS_PIXEL_GATHER, kernels/shared/byte_strips.clh).
void TestMorphology::pixelGatherSameBytes() { verifyPixelGather(*m_session, "erode", "strips"); }

QTEST_GUILESS_MAIN(TestMorphology)
#include "tst_morphology.moc"
