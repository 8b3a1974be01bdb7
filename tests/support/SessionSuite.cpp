// SessionSuite, FamilySuite, DeviceSuite and BenchSuite (SessionSuite.h): the device under test (and its
// one Session) for the suite's lifetime, the family suites' variant table, filter-bench for the CLI's.
#include "SessionSuite.h"

#include "FamilyTables.h"

#include <QFileInfo>

namespace fwb::test {

void SessionSuite::initTestCase()
{
    FWB_REQUIRE_DEVICE(device);
    m_device = device;
    m_session = std::make_unique<Session>(m_device);
    qInfo("device under test: %s", m_device.summary().c_str());
}

void SessionSuite::cleanupTestCase() { m_session.reset(); }

void FamilySuite::matchesCpuReference() { verifyReferenceRow(*m_session, m_device); }

void DeviceSuite::initTestCase() { m_haveDevice = testDevice(m_device); }

void BenchSuite::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QFileInfo::exists(QStringLiteral(FWB_FILTER_BENCH)));
    DeviceInfo device;
    m_haveDevice = testDevice(device);
}

} // namespace fwb::test
