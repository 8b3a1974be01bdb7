// The base of the suites of filter-bench end to end (tests/cli): initTestCase checks that filter-bench
// is there and the suite's temporary folder (m_dir) is made, and notes whether there is a device under
// test (m_haveDevice: a check that needs one skips without); bench() runs filter-bench (BenchProcess.h),
// saysOneLine() checks the one-line message of a refusal.
#pragma once

#include "BenchProcess.h"

#include <QObject>
#include <QTemporaryDir>

namespace fwb::test {

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
