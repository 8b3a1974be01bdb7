// box (naive, separable, sliding window): every variant x format x border on 259x194, every variant x
// format on 1x1 and 7x5, 640x480 gray8, and radius extremes, against the single-threaded CPU reference.
#include "Catalogue.h"
#include "Session.h"
#include "TestSupport.h"

#include <memory>

using namespace fwb;
using namespace fwb::test;

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
    addBlockEdgeColumns();
    addBlockEdgeRows("box", "roofline", {"radius=1", "radius=3", "radius=50"});
}

void TestBox::rooflineBlockEdges()
{
    verifyBlockEdgeRow(*m_session);
}

QTEST_GUILESS_MAIN(TestBox)
#include "tst_box.moc"
