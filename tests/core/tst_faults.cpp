// Faults during a run (FWB_FAULT hooks, core/FaultInjection.h): the Nth buffer allocation, program
// build, kernel launch or read fails with the driver's own error code; the result names the step and
// the code, the next run on the same session succeeds, and no device buffer outlives its session.
#include "FaultInjection.h"
#include "Session.h"
#include "TestSupport.h"

#include <QProcess>
#include <QTemporaryDir>

#include <utility>

using namespace fwb;

class TestFaults : public QObject
{
    Q_OBJECT

private slots:
    void cleanup() { fault::reset(""); }
    void recovers_data();
    void recovers();
    void everyMemoryObjectGoesWithItsSession();
    void malformedSpecInjectsNothing();
    void cliReportsTheStep();
    void labAndInspectReportTheStep_data();
    void labAndInspectReportTheStep();
};

void TestFaults::recovers_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("step");
    QTest::newRow("alloc") << "alloc:2" << "CL_MEM_OBJECT_ALLOCATION_FAILURE" << "buffer allocation";
    QTest::newRow("build") << "build:1" << "CL_BUILD_PROGRAM_FAILURE" << "kernel build failed";
    QTest::newRow("launch") << "launch:1" << "CL_OUT_OF_RESOURCES" << "kernel launch";
    QTest::newRow("read") << "read:1" << "CL_OUT_OF_HOST_MEMORY" << "read";
}

void TestFaults::recovers()
{
    FWB_REQUIRE_DEVICE(info);
    QFETCH(QString, spec);
    QFETCH(QString, code);
    QFETCH(QString, step);
    const int liveBefore = fault::liveBuffers();
    const Image input = makeTestCard(37, 23, PixelFormat::Gray8);
    const RunRequest request = test::oneShotRequest("box3x3_interior", "uniform_padded");
    SessionOptions options;
    options.cacheDir = "-"; // every session builds from source: build:1 is this session's build
    // What a session that never failed holds after the same run (every buffer, image and page-locked block
    // it made is counted): the failed session must hold exactly that much after its next run.
    int clean = -1;
    {
        fault::reset("");
        Session session(info, options);
        QVERIFY(session.run(input, request).ok());
        clean = fault::liveBuffers() - liveBefore;
    }
    QVERIFY2(clean >= 3, "Src, Dst and the coefficient table are counted");
    QTRY_COMPARE(fault::liveBuffers(), liveBefore);
    {
        Session session(info, options);
        fault::reset(spec.toStdString());
        const RunResult failed = session.run(input, request);
        QVERIFY2(!failed.ok(), "the injected fault must fail the run");
        QCOMPARE(QString::fromStdString(failed.errorCode), code);
        QVERIFY2(QString::fromStdString(failed.error).contains(step), failed.error.c_str());
        QVERIFY2(QString::fromStdString(failed.error).contains(code), failed.error.c_str());

        const RunResult next = session.run(input, request); // the fault fires once
        QVERIFY2(next.ok() && next.matches, test::describe(next, 37, 23).constData());
        // Nothing left over from the failure. QTRY: the runtime releases a memory object (and our counter
        // hears of it) only once the commands that use it are done, and the failed run's kernel may still
        // be running on a loaded machine (seen on 2 cores under a parallel build: 5 counted, then 3).
        QTRY_COMPARE(fault::liveBuffers() - liveBefore, clean);
    }
    QTRY_COMPARE(fault::liveBuffers(), liveBefore); // the session's buffers went with it
}

// Every kind of memory object a run makes - pool buffers, staging and host-visible blocks, page-locked
// images, image2d objects, tile slots on several queues, the coefficient table - goes with its session.
void TestFaults::everyMemoryObjectGoesWithItsSession()
{
    FWB_REQUIRE_DEVICE(info);
    fault::reset("");
    const int liveBefore = fault::liveBuffers();
    const Image input = makeTestCard(61, 43, PixelFormat::Rgba8888);
    {
        Session session(info);
        for (TransferMode mode : {TransferMode::Pageable, TransferMode::Pinned, TransferMode::ZeroCopy,
                                  TransferMode::OutputMapped}) {
            for (const char *variant : {"unrolled_constant", "image2d"}) {
                RunRequest request = test::oneShotRequest("gaussian5x5", variant, PixelFormat::Rgba8888);
                request.transfer = mode;
                const RunResult whole = session.run(input, request);
                QVERIFY2(whole.ok() || whole.unavailable, whole.error.c_str());
                request.tileWidth = 16;
                request.tileHeight = 16;
                const RunResult tiled = session.run(input, request);
                QVERIFY2(tiled.ok() || tiled.unavailable, tiled.error.c_str());
            }
        }
        const Image pageLocked = session.pinnedImage(61, 43, PixelFormat::Rgba8888);
        QVERIFY(fault::liveBuffers() > liveBefore);
    }
    QTRY_COMPARE(fault::liveBuffers(), liveBefore);
}

void TestFaults::malformedSpecInjectsNothing()
{
    FWB_REQUIRE_DEVICE(info);
    fault::reset("launch:0,bogus:3,read:x");
    SessionOptions options;
    options.cacheDir = "-";
    Session session(info, options);
    const RunResult r = session.run(makeTestCard(16, 16, PixelFormat::Gray8), test::oneShotRequest("box3x3_interior", "uniform_padded"));
    QVERIFY2(r.ok(), r.error.c_str());
}

// filter-bench: a fault fails the run (exit 1) with the step and the code on the row; the next
// process, without the fault, succeeds.
void TestFaults::cliReportsTheStep()
{
    FWB_REQUIRE_DEVICE(info);
    QTemporaryDir dir;
    const QStringList args{"run", "--filter", "box3x3_interior", "--variant", "uniform_padded", "--synthetic", "40x30",
                           "--repeat", "1", "--warmup", "0", "--cache-dir", dir.path()};
    QProcess bench;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("FWB_FAULT", "launch:1");
    bench.setProcessEnvironment(env);
    bench.start(QStringLiteral(FWB_FILTER_BENCH), args);
    QVERIFY(bench.waitForFinished(300000));
    const QByteArray all = bench.readAllStandardOutput() + bench.readAllStandardError();
    QCOMPARE(bench.exitCode(), 1);
    QVERIFY2(all.contains("kernel launch") && all.contains("CL_OUT_OF_RESOURCES"), all.constData());

    env.remove("FWB_FAULT");
    bench.setProcessEnvironment(env);
    bench.start(QStringLiteral(FWB_FILTER_BENCH), args);
    QVERIFY(bench.waitForFinished(300000));
    QVERIFY2(bench.exitCode() == 0, bench.readAllStandardError().constData());
}

// The same hooks fire in the Compute Lab verbs and the inspector (issue 29, item 20): the Nth buffer
// allocation, launch or read fails the run (exit 1) and the step and the code reach stderr.
void TestFaults::labAndInspectReportTheStep_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("step");
    const QStringList matmul{"matmul", "--n", "16", "--variant", "naive", "--repeat", "1", "--warmup", "0"};
    const QStringList nbody{"nbody", "--bodies", "16", "--steps", "1", "--variant", "naive", "--repeat", "1", "--warmup", "0"};
    const QStringList inspect{"inspect", "--global", "16x16", "--local", "8x8"};
    for (const auto &[verb, args] : {std::pair{QStringLiteral("matmul"), matmul}, std::pair{QStringLiteral("nbody"), nbody},
                                     std::pair{QStringLiteral("inspect"), inspect}}) {
        QTest::addRow("%s alloc", qPrintable(verb)) << args << "alloc:1" << "CL_MEM_OBJECT_ALLOCATION_FAILURE"
                                                    << "buffer allocation";
        QTest::addRow("%s launch", qPrintable(verb)) << args << "launch:1" << "CL_OUT_OF_RESOURCES" << "kernel launch";
        QTest::addRow("%s read", qPrintable(verb)) << args << "read:1" << "CL_OUT_OF_HOST_MEMORY" << "read";
    }
}

void TestFaults::labAndInspectReportTheStep()
{
    FWB_REQUIRE_DEVICE(info);
    QFETCH(QStringList, args);
    QFETCH(QString, spec);
    QFETCH(QString, code);
    QFETCH(QString, step);
    QProcess bench;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("FWB_FAULT", spec);
    bench.setProcessEnvironment(env);
    bench.start(QStringLiteral(FWB_FILTER_BENCH), args);
    QVERIFY(bench.waitForFinished(300000));
    const QByteArray err = bench.readAllStandardError();
    QVERIFY2(bench.exitStatus() == QProcess::NormalExit && bench.exitCode() == 1, err.constData());
    QVERIFY2(err.startsWith("filter-bench: ") && err.contains(step.toUtf8()) && err.contains(code.toUtf8()), err.constData());
}

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"
