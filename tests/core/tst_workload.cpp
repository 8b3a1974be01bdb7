// Compute workloads (core/Workload.h): a second kind of catalogue entry runs through the same
// session, launch-shape rules, profiling and checking as the filters - shown with vector_add.
#include "Session.h"
#include "TestSupport.h"
#include "SessionSuite.h"
#include "Workload.h"

#include <cstring>

using namespace fwb;

class TestWorkload : public fwb::test::DeviceSuite
{
    Q_OBJECT

private slots:
    void catalogueEntries();
    void variantsMatchReference_data();
    void variantsMatchReference();
    void launchShapes_data();
    void launchShapes();
    void wrongOutputIsCaught();
    void errorsAreValues();
};

void TestWorkload::catalogueEntries()
{
    const WorkloadSpec *w = findWorkload("vector_add");
    QVERIFY(w);
    QVERIFY(!findWorkload("no_such_workload"));
    QCOMPARE(w->variants.size(), std::size_t(2));
    for (const VariantSpec &v : w->variants) {
        QVERIFY2(!v.description.empty(), v.name.c_str());
        QVERIFY(w->variant(v.name) == &v);
    }
    const auto params = w->resolvedParams({});
    QCOMPARE(params.at("n"), double(1 << 20));
    QCOMPARE(w->resolvedParams({{"n", 7}}).at("n"), 7.0);
}

void TestWorkload::variantsMatchReference_data()
{
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("n");
    for (const char *variant : {"scalar", "float4"})
        for (int n : {1, 3, 7, 1000, 65537, 1000003})
            QTest::addRow("%s/%d", variant, n) << variant << n;
}

void TestWorkload::variantsMatchReference()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL platform");
    QFETCH(QString, variant);
    QFETCH(int, n);
    Session session(m_device);
    WorkloadRequest request;
    request.workload = "vector_add";
    request.variant = variant.toStdString();
    request.params["n"] = n;
    request.repeat = 2;
    request.warmup = 0;
    const RunResult r = session.runWorkload(request);
    QVERIFY2(r.ok(), r.error.c_str());
    QVERIFY(r.checked);
    QVERIFY2(r.matches, r.checkDetail.c_str());
    QCOMPARE(r.maxError, 0.0);
    QCOMPARE(r.metricName, std::string("Gelem/s"));
    QVERIFY(r.metricValue > 0);
    QVERIFY(r.kernelMs.median > 0);
    QCOMPARE(r.params.at("n"), double(n));
    QVERIFY(r.local.isConcrete());
    QCOMPARE(r.localSource, LocalSource::Default);
}

void TestWorkload::launchShapes_data()
{
    QTest::addColumn<QString>("local");
    QTest::addColumn<int>("source");
    QTest::newRow("auto") << "auto" << int(LocalSource::Default);
    QTest::newRow("driver") << "driver" << int(LocalSource::Driver);
    QTest::newRow("user 64") << "64" << int(LocalSource::User);
}

void TestWorkload::launchShapes()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL platform");
    QFETCH(QString, local);
    QFETCH(int, source);
    Session session(m_device);
    WorkloadRequest request;
    request.workload = "vector_add";
    request.variant = "scalar";
    request.params["n"] = 1001; // not a multiple of any work-group: the global size is rounded up
    request.local = test::parseLocal(local);
    request.repeat = 1;
    request.warmup = 0;
    const RunResult r = session.runWorkload(request);
    QVERIFY2(r.ok(), r.error.c_str());
    QVERIFY(r.matches);
    QCOMPARE(int(r.localSource), source);
    if (r.local.isConcrete())
        QCOMPARE(r.global[0] % std::size_t(r.local.width), std::size_t(0));
    else
        QCOMPARE(r.global[0], std::size_t(1001));
}

// A check that cannot fail proves nothing: feed the checker a wrong result directly.
void TestWorkload::wrongOutputIsCaught()
{
    const WorkloadSpec *w = findWorkload("vector_add");
    QVERIFY(w);
    const auto params = w->resolvedParams({{"n", 100}});
    const WorkloadProblem problem = w->setup(*w->variant("scalar"), params);
    std::vector<WorkloadBuffer> results = problem.buffers;
    for (std::size_t i = 0; i < 100; ++i) {
        float a, b;
        std::memcpy(&a, problem.buffers[0].data.data() + 4 * i, 4);
        std::memcpy(&b, problem.buffers[1].data.data() + 4 * i, 4);
        const float c = a + b + (i == 57 ? 0.25f : 0.0f);
        std::memcpy(results[2].data.data() + 4 * i, &c, 4);
    }
    const WorkloadCheck check = w->check(problem, results, params);
    QVERIFY(!check.matches);
    QVERIFY(check.maxError >= 0.2);
}

void TestWorkload::errorsAreValues()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL platform");
    Session session(m_device);
    WorkloadRequest request;
    request.workload = "nope";
    QVERIFY(session.runWorkload(request).error.find("unknown workload") != std::string::npos);
    request.workload = "vector_add";
    request.variant = "nope";
    QVERIFY(session.runWorkload(request).error.find("unknown variant") != std::string::npos);
    request.variant = "scalar";
    request.params["n"] = 100;
    request.local = LocalSize{4096, 4096};
    const RunResult r = session.runWorkload(request);
    QVERIFY(!r.ok());
    QCOMPARE(r.errorCode, std::string("invalid work-group shape"));
}

QTEST_GUILESS_MAIN(TestWorkload)
#include "tst_workload.moc"
