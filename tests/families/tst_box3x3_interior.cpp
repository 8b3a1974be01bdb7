// box3x3_interior (seed 001): every launch rule x format against the single-threaded CPU reference (the
// variant table of FamilyTables.h); the CL 1.2 expected failure and the exact sizes it accepts.
#include "Catalogue.h"
#include "Session.h"
#include "FamilyTables.h"
#include "SessionSuite.h"
#include "StreamForms.h"

#include <memory>

using namespace fwb;
using namespace fwb::test;

namespace {

// The runs below as the reference table makes them: one shot, checked, output not kept.
RunRequest referenceRequest(const char *filter, const char *variant)
{
    RunRequest request = oneShotRequest(filter, variant);
    request.keepOutput = false;
    return request;
}

} // namespace

class TestBox3x3Interior : public fwb::test::FamilySuite
{
    Q_OBJECT

private slots:
    void matchesCpuReference_data();
    void stripsBlockEdges_data();
    void stripsBlockEdges();
    void exactCl12RefusesNonDividingShape();
    void exactCl12RunsWhenShapeDivides_data();
    void exactCl12RunsWhenShapeDivides();
    void streamNvidiaForm_data();
    void streamNvidiaForm();
};

void TestBox3x3Interior::matchesCpuReference_data()
{
    addReferenceColumns();
    addVariantRows("box3x3_interior");
}

// Seed 001: 638x478 (the interior of 640x480) with local 16x16 under OpenCL 1.2 rules must be refused.
void TestBox3x3Interior::exactCl12RefusesNonDividingShape()
{
    RunRequest request = referenceRequest("box3x3_interior", "exact_cl12");
    request.local = LocalSize{16, 16};
    const RunResult r = m_session->run(makeTestCard(640, 480, PixelFormat::Gray8), request);
    QVERIFY(!r.ok());
    QVERIFY(r.expectedFailure);
    QCOMPARE(r.errorCode, std::string("CL_INVALID_WORK_GROUP_SIZE"));
    QVERIFY2(r.error.find("638x478") != std::string::npos, r.error.c_str());
    QVERIFY2(r.error.find("16x16") != std::string::npos, r.error.c_str());
}

void TestBox3x3Interior::exactCl12RunsWhenShapeDivides_data()
{
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::addColumn<QString>("local");
    QTest::addRow("640x480/auto") << 640 << 480 << "auto";  // the runtime picks a dividing shape
    QTest::addRow("640x480/2x2") << 640 << 480 << "2x2";    // 638 = 2 x 319, 478 = 2 x 239
    QTest::addRow("642x482/16x16") << 642 << 482 << "16x16"; // interior 640x480
}

void TestBox3x3Interior::exactCl12RunsWhenShapeDivides()
{
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(QString, local);
    RunRequest request = referenceRequest("box3x3_interior", "exact_cl12");
    request.local = parseLocal(local);
    const RunResult r = m_session->run(makeTestCard(width, height, PixelFormat::Rgba8888), request);
    QVERIFY2(r.ok(), r.error.c_str());
    QVERIFY(!r.expectedFailure);
    QCOMPARE(r.global[0], std::size_t(width - 2)); // exact: never rounded up
    QCOMPARE(r.global[1], std::size_t(height - 2));
    QCOMPARE(r.maxAbsDiff, 0);
    QVERIFY(r.matches);
}

void TestBox3x3Interior::stripsBlockEdges_data()
{
    addBlockEdgeColumns();
    addBlockEdgeRows("box3x3_interior", "strips", {""}, -1, true);
    addBlockEdgeRows("box3x3_interior", "stream", {""}, 0, true);
}

void TestBox3x3Interior::stripsBlockEdges()
{
    verifyBlockEdgeRow(*m_session);
}

// The stream rung as NVIDIA builds it (tests/support/StreamForms.h), its frame kept, as box's.
void TestBox3x3Interior::streamNvidiaForm_data() { addNvidiaStreamRows("box3x3_interior"); }

void TestBox3x3Interior::streamNvidiaForm() { verifyNvidiaStreamRow(*m_session); }

QTEST_GUILESS_MAIN(TestBox3x3Interior)
#include "tst_box3x3_interior.moc"
