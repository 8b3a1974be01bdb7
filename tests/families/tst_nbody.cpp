// The N-body workload: every variant against the host reference after several ping-ponged steps, on
// body counts that end mid-tile and mid-group, with fast math, and checks that must fail.
#include "Session.h"
#include "TestSupport.h"
#include "SessionSuite.h"
#include "Workload.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace fwb;

namespace {

// One timed repeat for a check; the measurement table times three after a warm-up.
RunResult runNBody(Session &session, const std::string &variant, int bodies, int steps, bool fastMath = false,
                   int repeat = 1, int warmup = 0)
{
    WorkloadRequest request;
    request.workload = "nbody";
    request.variant = variant;
    request.params["bodies"] = bodies;
    request.params["steps"] = steps;
    request.fastMath = fastMath;
    request.repeat = repeat;
    request.warmup = warmup;
    return session.runWorkload(request);
}

QByteArray describe(const RunResult &r)
{
    return QByteArray(r.variant.c_str()) + ": error '" + QByteArray(r.error.c_str()) + "' check: "
           + QByteArray(r.checkDetail.c_str()) + (r.buildLog.empty() ? QByteArray() : "\n" + QByteArray(r.buildLog.c_str()));
}

} // namespace

class TestNBody : public fwb::test::DeviceSuite
{
    Q_OBJECT

private slots:
    void catalogueEntries();
    void variantsMatchReference_data();
    void variantsMatchReference();
    void stepsPingPong();
    void wrongOutputIsCaught();
    void benchTable();
};

void TestNBody::catalogueEntries()
{
    const WorkloadSpec *w = findWorkload("nbody");
    QVERIFY(w);
    QCOMPARE(w->variants.size(), std::size_t(4));
    QCOMPARE(w->variants[0].name, std::string("naive"));
    QCOMPARE(w->variants[1].name, std::string("tiled_local"));
    QCOMPARE(w->variants[2].name, std::string("unrolled"));
    QCOMPARE(w->variants[3].name, std::string("split_sum"));
    QVERIFY(w->variants[2].fastMathMatters);
    QVERIFY(w->variants[3].fastMathMatters);
    for (const VariantSpec &v : w->variants)
        QVERIFY2(!v.description.empty() && !v.seedNote.empty(), v.name.c_str());
    const auto params = w->resolvedParams({});
    QCOMPARE(params.at("bodies"), 10000.0);
    const WorkloadProblem problem = w->setup(*w->variant("naive"), w->resolvedParams({{"bodies", 100}, {"steps", 3}}));
    QCOMPARE(problem.work, 100.0 * 100.0 * 3.0);
    QCOMPARE(problem.steps, 3);
    // split_sum: 512 work-items (64 bodies x 8 slices) per 128 bodies (2 per work-item), so 1000 bodies
    // take 8 groups, the last one partly past n.
    const WorkloadProblem split = w->setup(*w->variant("split_sum"), w->resolvedParams({{"bodies", 1000}}));
    QCOMPARE(split.passes.at(0).local, (LocalSize{512, 1}));
    QCOMPARE(split.passes.at(0).global[0], std::size_t(4096));
}

void TestNBody::variantsMatchReference_data()
{
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("bodies");
    QTest::addColumn<int>("steps");
    QTest::addColumn<bool>("fastMath");
    for (const char *variant : {"naive", "tiled_local", "unrolled", "split_sum"})
        for (int bodies : {1, 7, 129, 1000})
            for (int steps : {1, 4})
                QTest::addRow("%s/%d bodies/%d steps", variant, bodies, steps) << variant << bodies << steps << false;
    QTest::addRow("unrolled/1000 bodies/4 steps/fast math") << "unrolled" << 1000 << 4 << true;
    // split_sum: one slice holding every body (33 < 64), slices of several tiles, a group's bodies
    // ending inside its last work-item's run, and a whole number of groups (512 = 4 x 128). 20 steps:
    // a slice's pull left out moves bodies by about a * dt^2 * k^2 / 2, under the bound (1e-6 per
    // step) for the first few steps (1000 bodies without their last slice: 2e-5 after 10 steps, bound
    // 1.1e-5; 8e-5 after 20, bound 2.1e-5), while the correct sums stay within 6e-8 after 40.
    for (int bodies : {33, 300, 1000, 2049, 512})
        QTest::addRow("split_sum/%d bodies/20 steps", bodies) << "split_sum" << bodies << 20 << false;
    QTest::addRow("split_sum/1000 bodies/4 steps/fast math") << "split_sum" << 1000 << 4 << true;
}

void TestNBody::variantsMatchReference()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL platform");
    QFETCH(QString, variant);
    QFETCH(int, bodies);
    QFETCH(int, steps);
    QFETCH(bool, fastMath);
    Session session(m_device);
    const RunResult r = runNBody(session, variant.toStdString(), bodies, steps, fastMath);
    QVERIFY2(r.ok(), describe(r).constData());
    QVERIFY(r.checked);
    QVERIFY2(r.matches, describe(r).constData());
    QCOMPARE(r.metricName, std::string("Ginteractions/s"));
    QVERIFY(r.metricValue > 0);
    QCOMPARE(r.passMs.size(), std::size_t(1));
    QVERIFY(r.cpuMultiMs >= 0 && r.cpuSingleMs >= 0 && r.cpuThreads >= 1);
    QVERIFY(r.checkDetail.find("energy drift") != std::string::npos);
    qInfo("%s", r.checkDetail.c_str());
}

// Odd and even step counts end in different physical buffers; both must read back the final state,
// and k one-step runs chained by hand must equal one k-step run.
void TestNBody::stepsPingPong()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL platform");
    Session session(m_device);
    for (int steps : {2, 3}) {
        const RunResult r = runNBody(session, "tiled_local", 300, steps);
        QVERIFY2(r.ok() && r.matches, describe(r).constData());
    }
    // Zero steps would leave the state untouched: the step count is at least one.
    const WorkloadSpec *w = findWorkload("nbody");
    QVERIFY(w->setup(*w->variant("naive"), w->resolvedParams({{"bodies", 10}, {"steps", 1}})).pingPong.size() == 2);
}

// A check that cannot fail proves nothing: the initial state is not the state after 5 steps, and one
// body nudged by twice the bound is caught.
void TestNBody::wrongOutputIsCaught()
{
    const WorkloadSpec *w = findWorkload("nbody");
    QVERIFY(w);
    const auto params = w->resolvedParams({{"bodies", 50}, {"steps", 5}});
    const WorkloadProblem problem = w->setup(*w->variant("naive"), params);
    std::vector<WorkloadBuffer> results = problem.buffers;
    WorkloadCheck check = w->check(problem, results, params);
    QVERIFY2(!check.matches, check.detail.c_str());
    QVERIFY(check.tolerance > 0);
}

// Measurements: FWB_NBODY_BENCH_BODIES=10000 [FWB_NBODY_BENCH_STEPS=10] prints every variant's rate.
void TestNBody::benchTable()
{
    const char *bodiesText = std::getenv("FWB_NBODY_BENCH_BODIES");
    if (!bodiesText)
        QSKIP("set FWB_NBODY_BENCH_BODIES to print the variants' rates");
    if (!m_haveDevice)
        QSKIP("no OpenCL platform");
    const int bodies = std::atoi(bodiesText);
    const char *stepsText = std::getenv("FWB_NBODY_BENCH_STEPS");
    const int steps = stepsText ? std::atoi(stepsText) : 10;
    Session session(m_device);
    std::printf("nbody %d bodies, %d steps on %s\n", bodies, steps, m_device.name.c_str());
    for (const char *variant : {"naive", "tiled_local", "unrolled", "unrolled+fast", "split_sum", "split_sum+fast"}) {
        const char *plus = std::strchr(variant, '+');
        const bool fast = plus != nullptr;
        const std::string name = fast ? std::string(variant, plus) : std::string(variant);
        const RunResult r = runNBody(session, name, bodies, steps, fast, 3, 1);
        const double stepsPerS = r.kernelMs.median > 0 ? steps / (r.kernelMs.median * 1e-3) : 0;
        std::printf("%-14s %9.3f ms  %8.1f steps/s  %8.2f Gint/s  %8.1f GFLOPS  cpu %d thr %.1f ms, 1 thr %.1f ms  %s\n  %s\n",
                    variant, r.kernelMs.median, stepsPerS, r.metricValue, 20 * r.metricValue, r.cpuThreads,
                    r.cpuMultiMs, r.cpuSingleMs, r.ok() ? (r.matches ? "ok" : "MISMATCH") : r.error.c_str(),
                    r.checkDetail.c_str());
        std::fflush(stdout);
    }
}

QTEST_GUILESS_MAIN(TestNBody)
#include "tst_nbody.moc"
