// erode and dilate: every variant x pixel format on 259x194 and edge sizes (plus 640x480 in gray8) exact
// against the single-threaded CPU reference, the replicate / constant border rules, and large radii.
#include "Catalogue.h"
#include "Session.h"
#include "TestSupport.h"

#include <memory>
#include <utility>
#include <vector>

using namespace fwb;
using namespace fwb::test;

class TestMorphology : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void matchesReference_data();
    void matchesReference();
    void borderModes_data();
    void borderModes();
    void largeRadius_data();
    void largeRadius();

    void roofline_data();
    void roofline();

private:
    DeviceInfo m_device;
    std::unique_ptr<Session> m_session;
};

void TestMorphology::initTestCase()
{
    FWB_REQUIRE_DEVICE(device);
    m_device = device;
    m_session = std::make_unique<Session>(m_device);
    qInfo("device under test: %s", m_device.summary().c_str());
}

void TestMorphology::cleanupTestCase() { m_session.reset(); }

// One row per variant x format; the sizes run inside the row (same program for all).
void TestMorphology::matchesReference_data()
{
    addAllSizesColumns();
    addAllSizesRows("erode");
    addAllSizesRows("dilate");
}

void TestMorphology::matchesReference() { verifyAllSizesRow(*m_session); }

// Border rules on 259x194 (reflect101 is the default above).
void TestMorphology::borderModes_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<int>("border");
    QTest::addColumn<int>("format");
    for (const char *name : {"erode", "dilate"})
        for (BorderMode b : {BorderMode::Replicate, BorderMode::Constant}) {
            const QByteArray row = QByteArray(name) + "/" + borderModeName(b);
            QTest::newRow(row.constData()) << QString(name) << int(b) << int(PixelFormat::Gray8);
        }
    QTest::newRow("erode/constant/rgb888") << "erode" << int(BorderMode::Constant) << int(PixelFormat::Rgb888);
}

void TestMorphology::borderModes()
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

void TestMorphology::roofline_data()
{
    addBlockEdgeColumns();
    // r = 1, 2 keep the row results in registers for every format, r = 9 only for gray8, r = 30 never
    // (halo of several vectors, recomputed rows).
    addBlockEdgeRows("erode", "roofline", {"radius=1", "radius=2", "radius=9"});
    addBlockEdgeRows("dilate", "roofline", {"radius=2", "radius=30"});
    addBlockEdgeRows("erode", "cpu_rows", {"radius=1", "radius=2"});
    addBlockEdgeRows("dilate", "cpu_rows", {"radius=1", "radius=4"});
}

void TestMorphology::roofline() { verifyBlockEdgeRow(*m_session); }

QTEST_GUILESS_MAIN(TestMorphology)
#include "tst_morphology.moc"
