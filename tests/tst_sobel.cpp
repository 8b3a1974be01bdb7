// sobel (naive, local tile, separable): every variant x format x border on 259x194, every variant x
// format on 1x1 and 7x5, 640x480 gray8, and the exact |gx| / |gy| outputs, against the CPU reference.
#include "Catalogue.h"
#include "Session.h"
#include "TestSupport.h"

#include <memory>
#include <utility>
#include <vector>

using namespace fwb;
using namespace fwb::test;

// ---- The roofline rung: blocks of 16 x BLOCK_H outputs per work-item -----------------------------
// Every format x border x parameter set, each on 1x1, 7x5, 33x17, 259x194, 640x480 and on every width
// 1..40 at heights 1, 3 and 17 (so every partial block at the right and bottom edges runs), against the
// single-threaded CPU reference. maxAllowedDiff -1: the filter's tolerance.
static void addRooflineColumns()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<int>("format");
    QTest::addColumn<int>("border");
    QTest::addColumn<QString>("param");
    QTest::addColumn<int>("maxAllowedDiff");
}

static void addRooflineRows(const char *filter, const std::vector<std::pair<QString, int>> &paramSets)
{
    for (const auto &[param, allowed] : paramSets)
        for (PixelFormat format : allPixelFormats())
            for (BorderMode border : allBorderModes()) {
                const QString row = QString::asprintf("%s/roofline/%s/%s/", filter, formatName(format),
                                                      borderModeName(border)) + param;
                QTest::newRow(row.toUtf8().constData()) << QString(filter) << int(format) << int(border) << param
                                                        << allowed;
            }
}

static void verifyRooflineRow(Session &session)
{
    QFETCH(QString, filter);
    QFETCH(int, format);
    QFETCH(int, border);
    QFETCH(QString, param);
    QFETCH(int, maxAllowedDiff);
    const FilterSpec *spec = findFilter(filter.toStdString());
    QVERIFY(spec && spec->variant("roofline"));
    RunRequest req = oneShotRequest(spec->name, "roofline", PixelFormat(format));
    req.params.border = BorderMode(border);
    if (!param.isEmpty())
        QCOMPARE(applyParam(*spec, req.params, param.toStdString()), std::string());
    const int allowed = maxAllowedDiff >= 0 ? maxAllowedDiff : spec->tolerance;
    std::vector<std::pair<int, int>> sizes = {{1, 1}, {7, 5}, {33, 17}, {259, 194}, {640, 480}};
    for (int w = 1; w <= 40; ++w)
        for (int h : {1, 3, 17})
            sizes.emplace_back(w, h);
    for (const auto &[w, h] : sizes) {
        const RunResult r = runOnTestCard(session, req, w, h);
        QVERIFY2(r.ok() && r.checked, describe(r, w, h).constData());
        QVERIFY2(r.maxAbsDiff >= 0 && r.maxAbsDiff <= allowed && r.matches, describe(r, w, h).constData());
    }
}

class TestSobel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void matchesCpuReference_data();
    void matchesCpuReference();

    void roofline_data();
    void roofline();

private:
    DeviceInfo m_device;
    std::unique_ptr<Session> m_session;
};

void TestSobel::initTestCase()
{
    FWB_REQUIRE_DEVICE(device);
    m_device = device;
    m_session = std::make_unique<Session>(m_device);
    qInfo("device under test: %s", m_device.summary().c_str());
}

void TestSobel::cleanupTestCase() { m_session.reset(); }

void TestSobel::matchesCpuReference_data()
{
    addReferenceColumns();
    addReferenceRows("sobel");
    // The exact integer axes (|gx|, |gy|), tested at 0.
    for (const char *variant : {"naive", "local_tiled", "separable"})
        for (int output : {0, 1})
            addReferenceRow(QString::asprintf("sobel/%s/output%d", variant, output), "sobel", variant,
                            PixelFormat::Rgb888, BorderMode::Reflect101, 259, 194, QString("output=%1").arg(output), 0);
}

void TestSobel::matchesCpuReference() { verifyReferenceRow(*m_session, m_device); }

void TestSobel::roofline_data()
{
    addRooflineColumns();
    // |gx| and |gy| exact (0), the magnitude within the filter's tolerance.
    addRooflineRows("sobel", {{"output=0", 0}, {"output=1", 0}, {"output=2", -1}});
}

void TestSobel::roofline() { verifyRooflineRow(*m_session); }

QTEST_GUILESS_MAIN(TestSobel)
#include "tst_sobel.moc"
