// box (naive, separable, sliding window): every variant x format x border on 259x194, every variant x
// format on 1x1 and 7x5, 640x480 gray8, and radius extremes, against the single-threaded CPU reference.
#include "Catalogue.h"
#include "Session.h"
#include "TestSupport.h"

#include <memory>

using namespace fwb;
using namespace fwb::test;

namespace {

// The roofline rungs compute a block of pixels per work-item and guard the partial blocks at the right
// and bottom edges themselves: widths 1..40 (every remainder of a 16-pixel or 4-pixel block, with and
// without a full block, against the left and right edges at once) at heights 1, 9 and 17 (partial
// strips), plus 1x1, 7x5, 33x17 and 640x480, each within the filter's tolerance.
void verifyRooflineBlockEdges(Session &session, const char *filterName, PixelFormat format, BorderMode border,
                              const std::string &param)
{
    const FilterSpec *filter = findFilter(filterName);
    QVERIFY(filter);
    std::vector<std::pair<int, int>> sizes = {{1, 1}, {7, 5}, {33, 17}, {640, 480}};
    for (int w = 1; w <= 40; ++w)
        for (int h : {1, 9, 17})
            sizes.emplace_back(w, h);
    RunRequest request = fwb::test::oneShotRequest(filterName, "roofline", format);
    request.check = true;
    request.keepOutput = false;
    request.params.border = border;
    if (!param.empty())
        QCOMPARE(applyParam(*filter, request.params, param), std::string());
    for (const auto &[w, h] : sizes) {
        const RunResult r = session.run(makeTestCard(w, h, format), request);
        QVERIFY2(r.ok(), fwb::test::describe(r, w, h).constData());
        QVERIFY2(r.checked && r.matches, fwb::test::describe(r, w, h).constData());
    }
}

} // namespace

class TestBox : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void matchesCpuReference_data();
    void matchesCpuReference();
    void rooflineBlockEdges_data();
    void rooflineBlockEdges();

private:
    DeviceInfo m_device;
    std::unique_ptr<Session> m_session;
};

void TestBox::initTestCase()
{
    FWB_REQUIRE_DEVICE(device);
    m_device = device;
    m_session = std::make_unique<Session>(m_device);
    qInfo("device under test: %s", m_device.summary().c_str());
}

void TestBox::cleanupTestCase() { m_session.reset(); }

void TestBox::matchesCpuReference_data()
{
    addReferenceColumns();
    addReferenceRows("box");
    // Parameter extremes: a radius wider than the image (reflect101 folds repeatedly), the smallest radius.
    for (const char *variant : {"naive", "separable", "sliding_window", "roofline"}) {
        addReferenceRow(QString::asprintf("box/%s/radius50/67x45", variant), "box", variant, PixelFormat::Rgb888,
                        BorderMode::Reflect101, 67, 45, "radius=50", 0);
        addReferenceRow(QString::asprintf("box/%s/radius1/constant", variant), "box", variant, PixelFormat::Gray8,
                        BorderMode::Constant, 259, 194, "radius=1", 0);
    }
}

void TestBox::matchesCpuReference() { verifyReferenceRow(*m_session, m_device); }

void TestBox::rooflineBlockEdges_data()
{
    QTest::addColumn<int>("format");
    QTest::addColumn<int>("border");
    QTest::addColumn<QString>("param");
    const FilterSpec *filter = findFilter("box");
    QVERIFY(filter);
    const std::vector<BorderMode> borders =
        filter->hasBorder ? allBorderModes() : std::vector<BorderMode>{BorderMode::Reflect101};
    for (PixelFormat f : allPixelFormats())
        for (BorderMode b : borders)
            for (const char *param : {"radius=1", "radius=3", "radius=50"}) {
                const QByteArray name = QByteArray(formatName(f)) + "/" + borderModeName(b) + "/" + param;
                QTest::newRow(name.constData()) << int(f) << int(b) << QString(param);
            }
}

void TestBox::rooflineBlockEdges()
{
    QFETCH(int, format);
    QFETCH(int, border);
    QFETCH(QString, param);
    verifyRooflineBlockEdges(*m_session, "box", PixelFormat(format), BorderMode(border), param.toStdString());
}

QTEST_GUILESS_MAIN(TestBox)
#include "tst_box.moc"
