// The matmul workload (seed 003's ladder, seed 002's tiles, the register-blocked rungs): every variant
// against the double-precision host product on sizes that end mid-tile, mid-float4 and mid-float8,
// one size checked by the spot-check path, and checks that must fail.
#include "Session.h"
#include "TestSupport.h"
#include "SessionSuite.h"
#include "Workload.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace fwb;

namespace {

const char *const kLadder[] = {"naive",          "coalesced",        "private_sum",           "row_per_item",
                               "row_in_private", "column_in_local",  "float4",                "float4_hoisted",
                               "float8",         "tiled_local",      "register_blocked",      "register_blocked_wide",
                               "register_blocked_padded",            "register_blocked_prefetch", "warp_tiled",
                               "column_strips"};

// One timed repeat for a check; the ladder's table times three after a warm-up.
RunResult runMatmul(Session &session, const std::string &variant, int n, LocalSize local = {}, int repeat = 1,
                    int warmup = 0)
{
    WorkloadRequest request;
    request.workload = "matmul";
    request.variant = variant;
    request.params["n"] = n;
    request.local = local;
    request.repeat = repeat;
    request.warmup = warmup;
    return session.runWorkload(request);
}

QByteArray describe(const RunResult &r)
{
    return QByteArray(r.variant.c_str()) + " n=" + QByteArray::number(r.params.count("n") ? r.params.at("n") : -1)
           + ": error '" + QByteArray(r.error.c_str()) + "' check: " + QByteArray(r.checkDetail.c_str())
           + (r.buildLog.empty() ? QByteArray() : "\n" + QByteArray(r.buildLog.c_str()));
}

void setFloat(std::vector<std::uint8_t> &bytes, std::size_t i, float value)
{
    std::memcpy(bytes.data() + i * sizeof(float), &value, sizeof value);
}

} // namespace

class TestMatmul : public fwb::test::DeviceSuite
{
    Q_OBJECT

private slots:
    void catalogueEntries();
    void variantsMatchReference_data();
    void variantsMatchReference();
    void wrongOutputIsCaught_data();
    void wrongOutputIsCaught();
    void tiledVariantsRefuseOtherShapes();
    void ladderTable();
};

void TestMatmul::catalogueEntries()
{
    const WorkloadSpec *w = findWorkload("matmul");
    QVERIFY(w);
    QCOMPARE(w->metricName, std::string("GFLOPS"));
    QCOMPARE(w->resolvedParams({}).at("n"), 2000.0);
    QCOMPARE(w->variants.size(), std::size(kLadder));
    for (std::size_t i = 0; i < std::size(kLadder); ++i) {
        const VariantSpec &v = w->variants[i];
        QCOMPARE(v.name, std::string(kLadder[i])); // the seed's order, then the rungs past it
        QVERIFY2(!v.description.empty() && !v.seedNote.empty(), v.name.c_str());
        QCOMPARE(v.kernelFile, std::string("matmul.cl"));
    }
    // The work counted is the true 2n^3, whatever a variant pads to.
    const auto params = w->resolvedParams({{"n", 100}});
    QCOMPARE(w->setup(*w->variant("register_blocked"), params).work, 2e6);
    QCOMPARE(w->setup(*w->variant("naive"), params).work, 2e6);
}

void TestMatmul::variantsMatchReference_data()
{
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("n");
    for (const char *variant : kLadder)
        for (int n : {1, 7, 33, 64, 100})
            QTest::addRow("%s/%d", variant, n) << variant << n;
    // Above 512 the check switches to the seed's spot checks plus row and column sums.
    for (const char *variant : {"tiled_local", "float8", "register_blocked_prefetch", "warp_tiled"})
        QTest::addRow("%s/600 spot-checked", variant) << variant << 600;
    // Past one 128x128 block, ending mid-block and mid-slab: several groups, warps and slabs in play.
    for (int n : {129, 200})
        QTest::addRow("warp_tiled/%d", n) << "warp_tiled" << n;
    QTest::addRow("warp_tiled/1000 spot-checked") << "warp_tiled" << 1000;
}

void TestMatmul::variantsMatchReference()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL platform");
    QFETCH(QString, variant);
    QFETCH(int, n);
    Session session(m_device);
    const RunResult r = runMatmul(session, variant.toStdString(), n);
    QVERIFY2(r.ok(), describe(r).constData());
    QVERIFY(r.checked);
    QVERIFY2(r.matches, describe(r).constData());
    QCOMPARE(r.metricName, std::string("GFLOPS"));
    QVERIFY(r.metricValue > 0);
    QVERIFY(r.kernelMs.median > 0);
    QVERIFY(r.local.isConcrete());
    QVERIFY(r.checkDetail.find(n <= 512 ? "every element" : "random elements") != std::string::npos);
}

void TestMatmul::wrongOutputIsCaught_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("col");
    QTest::addColumn<float>("delta");
    QTest::newRow("full check, one element") << 100 << 57 << 3 << 0.01f;
    QTest::newRow("full check, NaN") << 33 << 32 << 32 << NAN;
    // Spot checks: the last row is compared in full; elsewhere the row/column sums catch a bad block.
    QTest::newRow("spot check, last row") << 600 << 599 << 17 << 0.01f;
    QTest::newRow("spot check, inside") << 600 << 123 << 456 << 10.0f;
}

// A check that cannot fail proves nothing: give the checker a correct product with one element off.
void TestMatmul::wrongOutputIsCaught()
{
    QFETCH(int, n);
    QFETCH(int, row);
    QFETCH(int, col);
    QFETCH(float, delta);
    const WorkloadSpec *w = findWorkload("matmul");
    QVERIFY(w);
    const auto params = w->resolvedParams({{"n", double(n)}});
    const WorkloadProblem problem = w->setup(*w->variant("naive"), params);
    std::vector<float> a(std::size_t(n) * n), b(std::size_t(n) * n);
    std::memcpy(a.data(), problem.buffers[0].data.data(), a.size() * 4);
    std::memcpy(b.data(), problem.buffers[1].data.data(), b.size() * 4);
    std::vector<WorkloadBuffer> results = problem.buffers;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            double sum = 0;
            for (int k = 0; k < n; ++k)
                sum += double(a[std::size_t(i) * n + k]) * b[std::size_t(k) * n + j];
            setFloat(results[2].data, std::size_t(i) * n + j, float(sum));
        }
    QVERIFY2(w->check(problem, results, params).matches, "the exact product must pass");
    float wrong;
    std::memcpy(&wrong, results[2].data.data() + (std::size_t(row) * n + col) * 4, 4);
    setFloat(results[2].data, std::size_t(row) * n + col, wrong + delta);
    const WorkloadCheck check = w->check(problem, results, params);
    QVERIFY2(!check.matches, check.detail.c_str());
}

void TestMatmul::tiledVariantsRefuseOtherShapes()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL platform");
    Session session(m_device);
    RunResult r = runMatmul(session, "tiled_local", 40, LocalSize{8, 8});
    QVERIFY(!r.ok());
    QCOMPARE(r.errorCode, std::string("invalid work-group shape"));
    QVERIFY2(r.error.find("16x16") != std::string::npos, r.error.c_str());
    r = runMatmul(session, "tiled_local", 40, LocalSize{16, 16});
    QVERIFY2(r.ok() && r.matches, describe(r).constData());
    QCOMPARE(r.localSource, LocalSource::User);
    r = runMatmul(session, "register_blocked", 40);
    QVERIFY2(r.ok() && r.matches, describe(r).constData());
    QCOMPARE(r.local, (LocalSize{16, 16}));
    QCOMPARE(r.global[0], std::size_t(16)); // 40 padded to one 128x128 block
    // warp_tiled: 1-D groups of 8 warps, one per 128x128 block of C (200 pads to 256: 2x2 blocks).
    r = runMatmul(session, "warp_tiled", 200);
    QVERIFY2(r.ok() && r.matches, describe(r).constData());
    QCOMPARE(r.local, (LocalSize{256, 1}));
    QCOMPARE(r.global[0], std::size_t(512));
    QCOMPARE(r.global[1], std::size_t(2));
    r = runMatmul(session, "warp_tiled", 40, LocalSize{16, 16});
    QVERIFY(!r.ok());
    QCOMPARE(r.errorCode, std::string("invalid work-group shape"));
}

// The ladder as a table, for measurements: FWB_MATMUL_BENCH_N=1024 [FWB_MATMUL_BENCH_VARIANTS=a,b]
// runs every (or the listed) variant once after a warm-up and prints GFLOPS. Skipped otherwise.
void TestMatmul::ladderTable()
{
    const char *sizeText = std::getenv("FWB_MATMUL_BENCH_N");
    if (!sizeText)
        QSKIP("set FWB_MATMUL_BENCH_N to print the ladder's GFLOPS");
    if (!m_haveDevice)
        QSKIP("no OpenCL platform");
    const int n = std::atoi(sizeText);
    const char *only = std::getenv("FWB_MATMUL_BENCH_VARIANTS");
    Session session(m_device);
    std::printf("matmul n=%d on %s\n%-28s %10s %10s %s\n", n, m_device.name.c_str(), "variant", "kernel ms", "GFLOPS",
                "check");
    for (const char *variant : kLadder) {
        if (only && std::string(",") .append(only).append(",").find(std::string(",") + variant + ",") == std::string::npos)
            continue;
        const RunResult r = runMatmul(session, variant, n, {}, 3, 1);
        std::printf("%-28s %10.3f %10.2f %s %s\n", variant, r.kernelMs.median, r.metricValue,
                    r.ok() ? (r.matches ? "ok" : "MISMATCH") : "error:", r.ok() ? r.checkDetail.c_str() : r.error.c_str());
        std::fflush(stdout);
    }
}

QTEST_GUILESS_MAIN(TestMatmul)
#include "tst_matmul.moc"
