// median3x3 and median5x5: every variant x pixel format on 259x194 and edge sizes (plus 640x480 in gray8)
// exact against the single-threaded CPU reference, and the replicate / constant border rules.
#include "Catalogue.h"
#include "Session.h"
#include "TestSupport.h"

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
    void borderModes_data();
    void borderModes();

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

// One row per variant x format; the sizes run inside the row (same program for all).
void TestMedian::matchesReference_data()
{
    addAllSizesColumns();
    addAllSizesRows("median3x3");
    addAllSizesRows("median5x5");
}

void TestMedian::matchesReference() { verifyAllSizesRow(*m_session); }

// Border rules on 259x194 (reflect101 is the default above).
void TestMedian::borderModes_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<int>("border");
    QTest::addColumn<int>("format");
    for (const char *name : {"median3x3", "median5x5"})
        for (BorderMode b : {BorderMode::Replicate, BorderMode::Constant}) {
            const QByteArray row = QByteArray(name) + "/" + borderModeName(b);
            QTest::newRow(row.constData()) << QString(name) << int(b) << int(PixelFormat::Gray8);
        }
}

void TestMedian::borderModes()
{
    QFETCH(QString, filter);
    QFETCH(int, border);
    QFETCH(int, format);
    const FilterSpec *spec = findFilter(filter.toStdString());
    QVERIFY(spec && spec->hasBorder);
    for (const VariantSpec &v : spec->variants) {
        RunRequest req = oneShotRequest(spec->name, v.name, PixelFormat(format));
        req.params.border = BorderMode(border);
        const RunResult r = runOnTestCard(*m_session, req, 259, 194);
        QVERIFY2(r.ok() && r.matches, (QByteArray(v.name.c_str()) + " " + describe(r, 259, 194)).constData());
    }
}

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
