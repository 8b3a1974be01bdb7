// filter-bench as the suites start it: a child process with its arguments (and environment, when
// given), waited for up to ten minutes; its exit code (-1 when it never finished, -2 when it crashed)
// and both outputs.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace fwb::test {

struct BenchOutcome
{
    int code = -1;
    QByteArray out;
    QByteArray err;
};

// Starts `program` (filter-bench unless named) in `process`, so callers may set its environment or
// working folder first.
inline BenchOutcome runBench(QProcess &process, const QStringList &args, int timeoutMs = 600000,
                             const QString &program = QStringLiteral(FWB_FILTER_BENCH))
{
    process.start(program, args);
    BenchOutcome o;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return o;
    }
    o.code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    o.out = process.readAllStandardOutput();
    o.err = process.readAllStandardError();
    return o;
}

inline BenchOutcome runBench(const QStringList &args, int timeoutMs = 600000)
{
    QProcess process;
    return runBench(process, args, timeoutMs);
}

} // namespace fwb::test
