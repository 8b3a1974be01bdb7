// median3x3 and median5x5: every variant x pixel format exact against the single-threaded CPU reference
// (the variant table of FamilyTables.h; replicate / constant in gray8), and the block edges.
#include "Catalogue.h"
#include "Session.h"
#include "FamilyTables.h"
#include "SessionSuite.h"

#include <memory>
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
    for (const char *name : {"median3x3", "median5x5"})
        // forgetful_u16x2_ptx is forgetful_u16x2 off NVIDIA (the reference and border rows above run it too)
        for (const char *variant : {"forgetful", "forgetful_w16", "forgetful_u16x2"})
            addBlockEdgeRows(name, variant, {""});
}

void TestMedian::sortedColumnsBlockEdges() { verifyBlockEdgeRow(*m_session); }

QTEST_GUILESS_MAIN(TestMedian)
#include "tst_median.moc"
