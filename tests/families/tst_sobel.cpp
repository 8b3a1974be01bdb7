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

QTEST_GUILESS_MAIN(TestSobel)
#include "tst_sobel.moc"
