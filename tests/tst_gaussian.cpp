// gaussian (separable, any sigma): every variant x format x border on 259x194, every variant x format on
// 1x1 and 7x5, 640x480 gray8, and sigma extremes, against the single-threaded CPU reference.
#include "Catalogue.h"
#include "Session.h"
#include "TestSupport.h"

#include <memory>

using namespace fwb;
using namespace fwb::test;

class TestGaussian : public QObject
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

void TestGaussian::initTestCase()
{
    FWB_REQUIRE_DEVICE(device);
    m_device = device;
    m_session = std::make_unique<Session>(m_device);
    qInfo("device under test: %s", m_device.summary().c_str());
}

void TestGaussian::cleanupTestCase() { m_session.reset(); }

void TestGaussian::matchesCpuReference_data()
{
    addReferenceColumns();
    addReferenceRows("gaussian");
    // Parameter extremes: the smallest and a large sigma.
    for (const char *variant : {"separable", "separable_local", "roofline"}) {
        addReferenceRow(QString::asprintf("gaussian/%s/sigma0.3", variant), "gaussian", variant, PixelFormat::Gray8,
                        BorderMode::Reflect101, 259, 194, "sigma=0.3", -1);
        addReferenceRow(QString::asprintf("gaussian/%s/sigma7.5", variant), "gaussian", variant,
                        PixelFormat::Rgba8888, BorderMode::Replicate, 259, 194, "sigma=7.5", -1);
    }
}

void TestGaussian::matchesCpuReference() { verifyReferenceRow(*m_session, m_device); }

void TestGaussian::rooflineBlockEdges_data()
{
    addBlockEdgeColumns();
    addBlockEdgeRows("gaussian", "roofline", {"sigma=0.3", "sigma=2", "sigma=7.5"});
}

void TestGaussian::rooflineBlockEdges()
{
    verifyBlockEdgeRow(*m_session);
}

QTEST_GUILESS_MAIN(TestGaussian)
#include "tst_gaussian.moc"
