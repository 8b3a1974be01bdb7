// The bases of Qt Test suites that share their fixture. SessionSuite: the functions all run on one
// Session on the device under test - opened in initTestCase (the suite skips only without an OpenCL
// platform), closed in cleanupTestCase. FamilySuite: a family suite (tests/families), whose
// matchesCpuReference runs the variant table of FamilyTables.h that the suite's own
// matchesCpuReference_data() fills. DeviceSuite: the device under test, if any (m_haveDevice), for
// suites that also check what needs no device. Qt Test runs a base class's initTestCase/cleanupTestCase
// for the derived suite.
#pragma once

#include "TestSupport.h"

#include <QObject>

#include <memory>

namespace fwb::test {

class SessionSuite : public QObject
{
    Q_OBJECT

protected:
    DeviceInfo m_device;
    std::unique_ptr<Session> m_session;

private slots:
    void initTestCase();
    void cleanupTestCase();
};

class FamilySuite : public SessionSuite
{
    Q_OBJECT

private slots:
    void matchesCpuReference();
};

class DeviceSuite : public QObject
{
    Q_OBJECT

protected:
    DeviceInfo m_device;
    bool m_haveDevice = false;

private slots:
    void initTestCase();
};

} // namespace fwb::test
