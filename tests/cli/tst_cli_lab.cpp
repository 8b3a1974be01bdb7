// filter-bench matmul and nbody (the Compute Lab verbs) end to end: their JSON (results with the
// variant, kernel_ms, gflops or steps_per_s and interactions_per_s, % of the FP32 peak), the table,
// bad input (sizes, memory, malformed work-group shapes) as exit 2 with one clear line, never a driver
// error, and shapes that cannot launch as failed runs (exit 1), as filter-bench run has them.
#include "SessionSuite.h"
#include "TestSupport.h"

#include "ClBlastBaseline.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

class TestCliLab : public fwb::test::BenchSuite
{
    Q_OBJECT

private slots:
    void help();
    void matmulJson();
    void matmulTable();
    void matmulShapeRefusedInSweep();
    void matmulClBlast();
    void nbodyJson();
    void nbodyTable();
    void badInput_data();
    void badInput();
    void shapeRefused_data();
    void shapeRefused();

private:
    void verifyRefusal(int code, Outcome &o);
};

// The row's `args` refused: exit `code`, the row's `line` as the one line of stderr, never a driver
// error; the outcome in `o`, for the row's own checks.
void TestCliLab::verifyRefusal(int code, Outcome &o)
{
    QFETCH(QStringList, args);
    QFETCH(QString, line);
    o = bench(args);
    QCOMPARE(o.code, code);
    QVERIFY2(saysOneLine(o, line), o.err.constData());
    QVERIFY2(!o.err.contains("CL_"), o.err.constData()); // never a driver error
}

void TestCliLab::help()
{
    const Outcome all = bench({"--help"});
    QCOMPARE(all.code, 0);
    QVERIFY2(all.out.contains("\nmatmul\n") && all.out.contains("\nnbody\n"), all.out.constData());
    const Outcome m = bench({"matmul", "--help"});
    QCOMPARE(m.code, 0);
    for (const char *option : {"--n", "--variant", "--device", "--local", "--repeat", "--warmup", "--json", "--no-check"})
        QVERIFY2(m.out.contains(option), option);
    const Outcome b = bench({"nbody", "--help"});
    QCOMPARE(b.code, 0);
    for (const char *option : {"--bodies", "--steps", "--variant", "--fast-math", "--local", "--json"})
        QVERIFY2(b.out.contains(option), option);
}

// Every rung at two awkward sizes (not multiples of 4, 8, 16 or 128), checked, with GFLOPS.
void TestCliLab::matmulJson()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL platform on this machine");
    const Outcome o = bench({"matmul", "--n", "67,130", "--variant", "all", "--repeat", "1", "--warmup", "0", "--json",
                             "--no-baselines"});
    QVERIFY2(o.code == 0, o.err.constData());
    const QJsonObject root = QJsonDocument::fromJson(o.out).object();
    QCOMPARE(root.value("workload").toString(), QStringLiteral("matmul"));
    const double peak = root.value("fp32_peak").toObject().value("gflops").toDouble();
    QVERIFY2(peak > 0, o.out.left(2000).constData());
    QVERIFY(root.value("ok").toBool());
    QCOMPARE(root.value("sizes").toArray().size(), 2);
    const QJsonArray results = root.value("results").toArray();
    const int variants = int(fwb::findWorkload("matmul")->variants.size());
    QVERIFY(results.size() >= 2 * variants);
    int ours = 0;
    for (const QJsonValue &value : results) {
        const QJsonObject r = value.toObject();
        const QString name = r.value("variant").toString();
        if (r.value("baseline").toBool()) // clblast, when the build has it: fine either way
            continue;
        ++ours;
        QVERIFY2(r.value("error").isNull(), qPrintable(name + ": " + r.value("error").toString()));
        QVERIFY2(r.value("matches").toBool(), qPrintable(name));
        QVERIFY(!r.value("unavailable").toBool());
        QVERIFY(r.value("kernel_ms").toObject().value("median").toDouble() > 0);
        QVERIFY(r.value("gflops").toDouble() > 0);
        QCOMPARE(r.value("gflops").toDouble(), r.value("metric_value").toDouble());
        QVERIFY(qAbs(r.value("pct_of_fp32_peak").toDouble() - 100 * r.value("gflops").toDouble() / peak) < 1e-3 * r.value("pct_of_fp32_peak").toDouble()); // JSON numbers keep 6 digits
        const double n = r.value("params").toObject().value("n").toDouble();
        QVERIFY(n == 67 || n == 130);
    }
    QCOMPARE(ours, 2 * variants);
}

void TestCliLab::matmulTable()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL platform on this machine");
    const Outcome o = bench({"matmul", "--n", "40", "--variant", "tiled_local", "--repeat", "1"});
    QVERIFY2(o.code == 0, o.err.constData());
    QVERIFY2(o.out.startsWith("matmul on ") && o.out.contains("\nn = 40\n") && o.out.contains("GFLOPS"),
             o.out.constData());
    QVERIFY2(o.out.contains("\ntiled_local ") && o.out.contains(" ok (err "), o.out.constData());
}

// A shape the tiled rungs are not compiled for: with --variant all they show as unavailable, the rest run.
void TestCliLab::matmulShapeRefusedInSweep()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL platform on this machine");
    const Outcome o = bench({"matmul", "--n", "33", "--local", "8x8", "--repeat", "1", "--warmup", "0", "--json"});
    QVERIFY2(o.code == 0, o.err.constData());
    const QJsonArray results = QJsonDocument::fromJson(o.out).object().value("results").toArray();
    bool sawRefused = false, sawRun = false;
    for (const QJsonValue &value : results) {
        const QJsonObject r = value.toObject();
        if (r.value("variant").toString() == QLatin1String("tiled_local")) {
            QVERIFY(r.value("unavailable").toBool());
            QVERIFY2(r.value("error").toString().contains("compiled for work-groups of 16x16"),
                     qPrintable(r.value("error").toString()));
            sawRefused = true;
        }
        if (r.value("variant").toString() == QLatin1String("private_sum")) {
            QCOMPARE(r.value("local").toString(), QStringLiteral("8x8"));
            QVERIFY(r.value("matches").toBool());
            sawRun = true;
        }
    }
    QVERIFY(sawRefused && sawRun);
}

// The clblast row: CLBlast's SGEMM on the session's queue, checked like a rung (builds without
// CLBlast show it as unavailable, which is not a failure).
void TestCliLab::matmulClBlast()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL platform on this machine");
    const Outcome o = bench({"matmul", "--n", "96", "--variant", "clblast", "--repeat", "1", "--json"});
    QVERIFY2(o.code == 0, o.err.constData());
    const QJsonArray results = QJsonDocument::fromJson(o.out).object().value("results").toArray();
    QCOMPARE(results.size(), 1);
    const QJsonObject r = results.first().toObject();
    QCOMPARE(r.value("variant").toString(), QStringLiteral("clblast"));
    QVERIFY(r.value("baseline").toBool());
    if (fwb::haveClBlast()) {
        QVERIFY2(r.value("error").isNull() && r.value("matches").toBool(), qPrintable(r.value("error").toString()));
        QVERIFY(r.value("gflops").toDouble() > 0);
        QCOMPARE(r.value("pct_of_clblast").toDouble(), 100.0);
    } else {
        QVERIFY(r.value("unavailable").toBool());
    }
}

void TestCliLab::nbodyJson()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL platform on this machine");
    const Outcome o = bench({"nbody", "--bodies", "300", "--steps", "3", "--repeat", "1", "--json"});
    QVERIFY2(o.code == 0, o.err.constData());
    const QJsonObject root = QJsonDocument::fromJson(o.out).object();
    QCOMPARE(root.value("workload").toString(), QStringLiteral("nbody"));
    QCOMPARE(root.value("steps").toInt(), 3);
    const QJsonArray results = root.value("results").toArray();
    QCOMPARE(results.size(), int(fwb::findWorkload("nbody")->variants.size()));
    for (const QJsonValue &value : results) {
        const QJsonObject r = value.toObject();
        const QString name = r.value("variant").toString();
        QVERIFY2(r.value("error").isNull() && r.value("matches").toBool(), qPrintable(name));
        const double kernelMs = r.value("kernel_ms").toObject().value("median").toDouble();
        QVERIFY(kernelMs > 0);
        QVERIFY(qAbs(r.value("steps_per_s").toDouble() - 3 / (kernelMs * 1e-3)) < 1e-3 * r.value("steps_per_s").toDouble());
        QVERIFY(r.value("interactions_per_s").toDouble() > 0);
        QVERIFY(qAbs(r.value("gflops").toDouble() - 20e-9 * r.value("interactions_per_s").toDouble()) < 1e-3 * r.value("gflops").toDouble());
        QVERIFY(r.value("cpu_steps_per_s").toDouble() > 0);
        QVERIFY(r.value("pct_of_fp32_peak").toDouble() > 0);
        QVERIFY2(r.value("check_detail").toString().contains("energy drift"), qPrintable(name));
    }
}

void TestCliLab::nbodyTable()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL platform on this machine");
    const Outcome o = bench({"nbody", "--bodies", "200", "--steps", "2", "--variant", "naive", "--repeat", "1"});
    QVERIFY2(o.code == 0, o.err.constData());
    QVERIFY2(o.out.startsWith("nbody on ") && o.out.contains("\nbodies = 200, 2 steps per run\n")
                 && o.out.contains("steps/s") && o.out.contains("\nnaive "),
             o.out.constData());
}

void TestCliLab::badInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("line"); // the start of the one stderr line
    QTest::newRow("n zero") << QStringList{"matmul", "--n", "0"} << "--n '0' must be a whole number from 1 to 32768";
    QTest::newRow("n negative") << QStringList{"matmul", "--n", "-5"} << "--n '-5' must be a whole number from 1 to 32768";
    QTest::newRow("n not a number") << QStringList{"matmul", "--n", "big"} << "--n 'big' must be a whole number";
    QTest::newRow("n list with a hole") << QStringList{"matmul", "--n", "64,,128"} << "--n '' must be a whole number";
    QTest::newRow("n too big") << QStringList{"matmul", "--n", "40000"} << "--n '40000' must be a whole number from 1 to 32768";
    QTest::newRow("unknown variant") << QStringList{"matmul", "--variant", "fastest"}
                                     << "matmul has no variant 'fastest' (use all or one of: naive, ";
    QTest::newRow("repeat zero") << QStringList{"matmul", "--repeat", "0"} << "--repeat '0' must be a whole number >= 1";
    QTest::newRow("bodies zero") << QStringList{"nbody", "--bodies", "0"} << "--bodies '0' must be a whole number from 1 to 2097152";
    QTest::newRow("steps zero") << QStringList{"nbody", "--steps", "0"} << "--steps '0' must be a whole number >= 1";
    QTest::newRow("unknown option") << QStringList{"nbody", "--n", "5"} << "unknown option '--n' for nbody";
    if (!m_haveDevice)
        return;
    // These need the device's limits (PoCL: 2 GiB per buffer, 4096 work-items per group).
    QTest::newRow("n too big for the device") << QStringList{"matmul", "--n", "30000", "--device", "cpu"}
                                              << "--n 30000: each matrix needs ";
    QTest::newRow("local malformed") << QStringList{"matmul", "--n", "64", "--local", "16by16"} << "--local: ";
}

// A well-formed work-group shape that cannot launch fails the runs (exit 1, the reason on stderr), as
// filter-bench run's rows do; it is not bad usage (issue 29, item 20).
void TestCliLab::shapeRefused_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("line"); // the start of the last stderr line
    QTest::newRow("local too many items") << QStringList{"matmul", "--n", "64", "--local", "128x64", "--device", "cpu"}
                                          << "naive: --local 128x64: work-group 128x64 has 8192 work-items, more than the device's";
    QTest::newRow("local wrong for a tiled rung") << QStringList{"matmul", "--n", "64", "--variant", "tiled_local", "--local", "8x8"}
                                                  << "tiled_local: variant tiled_local is compiled for work-groups of 16x16";
    QTest::newRow("local 2-D for nbody") << QStringList{"nbody", "--bodies", "64", "--variant", "naive", "--local", "8x8"}
                                         << "naive: work-group 8x8 is 2-D";
}

void TestCliLab::shapeRefused()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL platform on this machine");
    Outcome o;
    verifyRefusal(1, o);
}

void TestCliLab::badInput()
{
    Outcome o;
    verifyRefusal(2, o);
    QVERIFY2(o.out.isEmpty(), o.out.constData());
}

QTEST_GUILESS_MAIN(TestCliLab)
#include "tst_cli_lab.moc"
