// SessionSuite, FamilySuite and DeviceSuite (SessionSuite.h): the device under test (and its one
// Session) for the suite's lifetime, and the family suites' variant table.
#include "SessionSuite.h"

#include "FamilyTables.h"

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

} // namespace fwb::test
