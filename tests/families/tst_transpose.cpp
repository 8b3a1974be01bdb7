// transpose: every variant x pixel format exact against the single-threaded CPU reference (the variant
// table of FamilyTables.h), the height x width output, and the register_blocks rung's edges.
#include "Catalogue.h"
#include "Session.h"
#include "FamilyTables.h"
#include "SessionSuite.h"

#include <memory>

using namespace fwb;
using namespace fwb::test;

class TestTranspose : public fwb::test::FamilySuite
{
    Q_OBJECT

private slots:
    void matchesCpuReference_data();
    void transposeOutputIsHeightByWidth();
    void registerBlocksEdges_data();
    void registerBlocksEdges();
    void wordBlocksEdges_data();
    void wordBlocksEdges();
};

// Every variant x format from the catalogue (FamilyTables.h's variant table).
void TestTranspose::matchesCpuReference_data()
{
    addReferenceColumns();
    addVariantRows("transpose");
}

void TestTranspose::transposeOutputIsHeightByWidth()
{
    const FilterSpec *spec = findFilter("transpose");
    QVERIFY(spec && spec->transposesOutput);
    for (const VariantSpec &v : spec->variants) {
        if (!v.formats.empty())
            continue; // word_blocks: rgba8888 only (its rows below and in the variant table)
        const RunResult r = runOnTestCard(*m_session, oneShotRequest("transpose", v.name, PixelFormat::Rgb888), 259, 194);
        QVERIFY2(r.ok() && r.matches, describe(r, 259, 194).constData());
        QCOMPARE(r.output.width(), 194);
        QCOMPARE(r.output.height(), 259);
        QCOMPARE(r.output.format(), PixelFormat::Rgb888);
    }
}

void TestTranspose::registerBlocksEdges_data() { addFormatRows(); }

// The 16x16-block rung: the standard sizes, sizes whose rows are (and are not) 16-byte aligned so both
// the register path and the per-pixel path run, and every width 1..40 at a few heights (partial
// blocks at the right and bottom edges).
void TestTranspose::registerBlocksEdges()
{
    QFETCH(int, format);
    const RunRequest req = oneShotRequest("transpose", "register_blocks", PixelFormat(format));
    EdgeSizes sizes = kEdgeStandardSizes;
    sizes.insert(sizes.end(), {{16, 16}, {32, 48}, {48, 32}, {36, 20}, {64, 33}, {33, 64}, {80, 96}});
    for (const auto &[w, h] : withEveryWidthTo40(sizes, {1, 16, 17, 35})) {
        const RunResult r = runOnTestCard(*m_session, req, w, h);
        QVERIFY2(r.ok() && r.matches, describe(r, w, h).constData());
        QCOMPARE(r.output.width(), h);
        QCOMPARE(r.output.height(), w);
    }
    // Small work-groups (2x2 blocks): many groups, the edge blocks among whole ones in one launch.
    RunRequest small = req;
    small.local = parseLocal("2x2");
    for (const auto &[w, h] : std::vector<std::pair<int, int>>{{259, 194}, {97, 35}, {35, 97}, {64, 33}}) {
        const RunResult r = runOnTestCard(*m_session, small, w, h);
        QVERIFY2(r.ok() && r.matches, ("local 2x2, " + describe(r, w, h)).constData());
    }
}

// The 4x4-block rgba8888 rung: every width 1..40 at heights 1, 3, 9, 17 (every remainder of a block both
// ways, rows padded on the device so edge blocks take the aligned path in place), and 2x2 work-groups.
void TestTranspose::wordBlocksEdges_data()
{
    addBlockEdgeColumns();
    addBlockEdgeRows("transpose", "word_blocks", {""}, 0, true);
}

void TestTranspose::wordBlocksEdges() { verifyBlockEdgeRow(*m_session); }

QTEST_GUILESS_MAIN(TestTranspose)
#include "tst_transpose.moc"
