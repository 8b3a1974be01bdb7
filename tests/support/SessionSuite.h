// The bases of Qt Test suites that share their fixture. SessionSuite: the functions all run on one
// Session on the device under test - opened in initTestCase (the suite skips only without an OpenCL
// platform), closed in cleanupTestCase. FamilySuite: a family suite (tests/families), whose
// matchesCpuReference runs the variant table of FamilyTables.h that the suite's own
// matchesCpuReference_data() fills. DeviceSuite: the device under test, if any (m_haveDevice), for
// suites that also check what needs no device. BenchSuite: a suite of filter-bench end to end
// (tests/cli): filter-bench there, the suite's temporary folder (m_dir), whether there is a device under
// test (m_haveDevice: a check that needs one skips without); bench() runs filter-bench (BenchProcess.h),
// saysOneLine() checks the one-line message of a refusal. Qt Test runs a base class's
// initTestCase/cleanupTestCase for the derived suite.
#pragma once

#include "BenchProcess.h"
#include "TestSupport.h"

#include <QObject>
#include <QTemporaryDir>

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

class BenchSuite : public QObject
{
    Q_OBJECT

protected:
    using Outcome = BenchOutcome;
    static Outcome bench(const QStringList &args) { return runBench(args); }
    // A refusal's stderr: one line (one newline) that starts "filter-bench: " + line.
    static bool saysOneLine(const Outcome &o, const QString &line)
    {
        return o.err.startsWith(("filter-bench: " + line).toUtf8()) && o.err.count('\n') == 1;
    }
    QTemporaryDir m_dir;
    bool m_haveDevice = false;

private slots:
    void initTestCase();
};

} // namespace fwb::test
