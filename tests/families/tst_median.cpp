// median3x3 and median5x5: every variant x pixel format exact against the single-threaded CPU reference
// (the variant table of FamilyTables.h; replicate / constant in gray8), and the block edges.
#include "Catalogue.h"
#include "Session.h"
#include "FamilyTables.h"

#include <memory>
#include <utility>
#include <vector>

using namespace fwb;
using namespace fwb::test;

class TestMedian : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void matchesReference_data();
    void matchesReference();

    void roofline_data();
    void roofline();

private:
    DeviceInfo m_device;
    std::unique_ptr<Session> m_session;
};

void TestMedian::initTestCase()
{
    FWB_REQUIRE_DEVICE(device);
    m_device = device;
    m_session = std::make_unique<Session>(m_device);
    qInfo("device under test: %s", m_device.summary().c_str());
}

void TestMedian::cleanupTestCase() { m_session.reset(); }

// Every variant x format (reflect101) and the replicate / constant rules in gray8, from the catalogue.
void TestMedian::matchesReference_data()
{
    addReferenceColumns();
    addVariantRows("median3x3", {.otherBordersInGray8Only = true});
    addVariantRows("median5x5", {.otherBordersInGray8Only = true});
}

void TestMedian::matchesReference() { verifyReferenceRow(*m_session, m_device); }

void TestMedian::roofline_data()
{
    addBlockEdgeColumns();
    addBlockEdgeRows("median3x3", "roofline", {""});
    addBlockEdgeRows("median5x5", "roofline", {""});
    addBlockEdgeRows("median3x3", "cpu_rows", {""});
    for (const char *name : {"median3x3", "median5x5"})
        // forgetful_u16x2_ptx is forgetful_u16x2 off NVIDIA (the reference and border rows above run it too)
        for (const char *variant : {"forgetful", "forgetful_w16", "forgetful_u16x2"})
            addBlockEdgeRows(name, variant, {""});
}

void TestMedian::roofline() { verifyBlockEdgeRow(*m_session); }

QTEST_GUILESS_MAIN(TestMedian)
#include "tst_median.moc"
