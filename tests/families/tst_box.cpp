// box: every variant x format x border against the single-threaded CPU reference (the variant table of
// FamilyTables.h), radius extremes, strips' radius limit, and the block edges of the multi-pixel rungs.
#include "Catalogue.h"
#include "Session.h"
#include "FamilyTables.h"
#include "SessionSuite.h"
#include "StreamForms.h"

#include <memory>

using namespace fwb;
using namespace fwb::test;

class TestBox : public fwb::test::FamilySuite
{
    Q_OBJECT

private slots:
    void matchesCpuReference_data();
    void unavailableAboveItsRadius();
    void fusedLocalBlockEdges_data();
    void fusedLocalBlockEdges();
    void streamNvidiaForm_data();
    void streamNvidiaForm();
};

void TestBox::matchesCpuReference_data()
{
    addReferenceColumns();
    addVariantRows("box");
    // Parameter extremes: a radius wider than the image (reflect101 folds repeatedly), the smallest radius.
    for (const char *variant : {"naive", "separable", "sliding_window", "fused_local"}) {
        addReferenceRow(QString::asprintf("box/%s/radius50/67x45", variant), "box", variant, PixelFormat::Rgb888,
                        BorderMode::Reflect101, 67, 45, "radius=50", 0);
        addReferenceRow(QString::asprintf("box/%s/radius1/constant", variant), "box", variant, PixelFormat::Gray8,
                        BorderMode::Constant, 259, 194, "radius=1", 0);
    }
    // strips: radius 1 as well as 2 (the generic rows run its largest), every layout it takes; above 2 it
    // is unavailable with the reason (unavailableAboveItsRadius).
    for (PixelFormat format : {PixelFormat::Gray8, PixelFormat::Rgba8888})
        for (BorderMode border : allBorderModes())
            addReferenceRow(QString::asprintf("box/strips/radius1/%s/%s", formatName(format), borderModeName(border)),
                            "box", "strips", format, border, 259, 194, "radius=1", 0);
}

void TestBox::unavailableAboveItsRadius()
{
    verifyUnavailable(*m_session, "box", "strips", PixelFormat::Gray8, "radius=3", "radius up to 2");
}

void TestBox::fusedLocalBlockEdges_data()
{
    addBlockEdgeColumns();
    addBlockEdgeRows("box", "fused_local", {"radius=1", "radius=3", "radius=50"});
    addBlockEdgeRows("box", "strips", {"radius=1", "radius=2"}, -1, true);
    addBlockEdgeRows("box", "cpu_rows", {"radius=1", "radius=2"});
    addBlockEdgeRows("box", "packed", {"radius=1"}, -1, true);
    addBlockEdgeRows("box", "stream", {"radius=1"}, 0, true);
}

void TestBox::fusedLocalBlockEdges()
{
    verifyBlockEdgeRow(*m_session);
}

// The stream rung as NVIDIA builds it (tests/support/StreamForms.h): gray8's views by byte permutes there,
// which its two-pixels-a-word row pass reads (an even pixel's left neighbours from l, an odd one's right from r).
void TestBox::streamNvidiaForm_data() { addNvidiaStreamRows("box", {"radius=1"}); }

void TestBox::streamNvidiaForm() { verifyNvidiaStreamRow(*m_session); }

QTEST_GUILESS_MAIN(TestBox)
#include "tst_box.moc"
