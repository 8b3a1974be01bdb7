// The work-group inspector (seed 001's 638x478 launch geometry): its corner table under CL 1.2 rules,
// the expected failure, non-uniform CL 2.0 groups, and filter-bench inspect --json.
#include "Catalogue.h"
#include "Session.h"
#include "SessionSuite.h"
#include "TestSupport.h"
#include "Inspector.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

using namespace fwb;
using namespace fwb::test;

class TestInspector : public SessionSuite
{
    Q_OBJECT

private slots:
    void inspectorCornerTable_data();
    void inspectorCornerTable();
    void inspectorRefusesNonDividingShapeOnCl12();
    void inspectorNonUniformCl20();
    void cliInspectJson();
    void cliInspectExpectedFailure();
};

// What the launch geometry implies: corner ids are the NDRange corners, every group under CL 1.2 rules
// has the same (dividing) size, enqueued = local, num_groups x local = global, corner group ids.
void TestInspector::inspectorCornerTable_data()
{
    QTest::addColumn<int>("globalW");
    QTest::addColumn<int>("globalH");
    QTest::addColumn<QString>("local");
    QTest::addRow("638x478/auto") << 638 << 478 << "auto";
    QTest::addRow("638x478/2x2") << 638 << 478 << "2x2";
    QTest::addRow("640x480/16x16") << 640 << 480 << "16x16";
    QTest::addRow("256x8/64x4") << 256 << 8 << "64x4";
    QTest::addRow("1x1/auto") << 1 << 1 << "auto";
}

void TestInspector::inspectorCornerTable()
{
    QFETCH(int, globalW);
    QFETCH(int, globalH);
    QFETCH(QString, local);
    InspectRequest request;
    request.global[0] = std::size_t(globalW);
    request.global[1] = std::size_t(globalH);
    request.local = parseLocal(local);
    const InspectResult r = inspectWorkGroups(m_device, request);
    QVERIFY2(r.ok(), r.error.c_str());
    QVERIFY(!r.enqueuedFromBuiltin);
    const std::size_t lastX = std::size_t(globalW - 1), lastY = std::size_t(globalH - 1);
    const std::size_t expectedIds[4][2] = {{0, 0}, {lastX, 0}, {0, lastY}, {lastX, lastY}};
    const std::size_t ls0 = r.corners[0].localSize[0], ls1 = r.corners[0].localSize[1];
    if (!request.local.isAuto()) {
        QCOMPARE(ls0, std::size_t(request.local.width));
        QCOMPARE(ls1, std::size_t(request.local.height));
    }
    QVERIFY(ls0 >= 1 && ls1 >= 1);
    QCOMPARE(std::size_t(globalW) % ls0, std::size_t(0)); // CL 1.2: groups divide the NDRange
    QCOMPARE(std::size_t(globalH) % ls1, std::size_t(0));
    QCOMPARE(r.numGroups[0] * ls0, std::size_t(globalW));
    QCOMPARE(r.numGroups[1] * ls1, std::size_t(globalH));
    for (int c = 0; c < 4; ++c) {
        const CornerSample &s = r.corners[std::size_t(c)];
        QVERIFY(s.recorded);
        QCOMPARE(s.globalId[0], expectedIds[c][0]);
        QCOMPARE(s.globalId[1], expectedIds[c][1]);
        QCOMPARE(s.localSize[0], ls0); // uniform: every group the same size
        QCOMPARE(s.localSize[1], ls1);
        QCOMPARE(s.enqueuedLocalSize[0], s.localSize[0]); // on CL 1.2 enqueued == local
        QCOMPARE(s.enqueuedLocalSize[1], s.localSize[1]);
        QCOMPARE(s.groupId[0], s.globalId[0] / ls0);
        QCOMPARE(s.groupId[1], s.globalId[1] / ls1);
    }
    const std::string table = formatCornerTable(r);
    QVERIFY(table.find("get_enqueued_local_size()") != std::string::npos);
    QVERIFY(table.find("Bottom right") != std::string::npos);
    QVERIFY(table.find("undefined") != std::string::npos); // CL 1.2 has no get_enqueued_local_size
}

void TestInspector::inspectorRefusesNonDividingShapeOnCl12()
{
    InspectRequest request; // 638x478
    request.local = LocalSize{16, 16};
    const InspectResult r = inspectWorkGroups(m_device, request);
    QVERIFY(!r.ok());
    QVERIFY(r.expectedFailure);
    QCOMPARE(r.errorCode, std::string("CL_INVALID_WORK_GROUP_SIZE"));
    QVERIFY2(r.error.find("OpenCL 1.2") != std::string::npos, r.error.c_str());
}

// -cl-std=CL2.0: seed 001's 14x16 / 16x14 / 14x14 edge groups where supported; elsewhere a clear reason.
void TestInspector::inspectorNonUniformCl20()
{
    InspectRequest request;
    request.local = LocalSize{16, 16};
    request.cl20 = true;
    const InspectResult r = inspectWorkGroups(m_device, request);
    if (m_device.openclCMajor < 2 || !m_device.nonUniformWorkGroups) {
        QVERIFY(!r.ok());
        QVERIFY(r.unavailable || r.expectedFailure);
        QVERIFY2(r.error.find("non-uniform") != std::string::npos || r.error.find("OpenCL C 2.0") != std::string::npos,
                 r.error.c_str());
        return;
    }
    QVERIFY2(r.ok(), r.error.c_str());
    QVERIFY(r.enqueuedFromBuiltin);
    const std::size_t sizes[4][2] = {{16, 16}, {14, 16}, {16, 14}, {14, 14}};
    for (int c = 0; c < 4; ++c) {
        QCOMPARE(r.corners[std::size_t(c)].localSize[0], sizes[c][0]);
        QCOMPARE(r.corners[std::size_t(c)].localSize[1], sizes[c][1]);
        QCOMPARE(r.corners[std::size_t(c)].enqueuedLocalSize[0], std::size_t(16));
        QCOMPARE(r.corners[std::size_t(c)].enqueuedLocalSize[1], std::size_t(16));
    }
    QCOMPARE(r.numGroups[0], std::size_t(40));
    QCOMPARE(r.numGroups[1], std::size_t(30));
}

namespace {

QJsonObject runInspectCli(const QStringList &args, int *exitCode)
{
    QProcess process;
    process.start(QStringLiteral(FWB_FILTER_BENCH), QStringList{"inspect"} + args + QStringList{"--json"});
    if (!process.waitForFinished(120000)) {
        process.kill();
        *exitCode = -1;
        return {};
    }
    *exitCode = process.exitCode();
    return QJsonDocument::fromJson(process.readAllStandardOutput()).object();
}

} // namespace

void TestInspector::cliInspectJson()
{
    int exitCode = -1;
    const QJsonObject j = runInspectCli({"--device", QString::fromStdString(m_device.spec()), "--global", "640x480",
                                         "--local", "16x16"},
                                        &exitCode);
    QCOMPARE(exitCode, 0);
    QCOMPARE(j.value("ok").toBool(), true);
    QCOMPARE(j.value("global").toArray(), (QJsonArray{640, 480}));
    QCOMPARE(j.value("num_groups").toArray(), (QJsonArray{40, 30}));
    const QJsonArray corners = j.value("corners").toArray();
    QCOMPARE(corners.size(), 4);
    const QJsonArray ids[4] = {{0, 0}, {639, 0}, {0, 479}, {639, 479}};
    for (int c = 0; c < 4; ++c) {
        const QJsonObject corner = corners.at(c).toObject();
        QCOMPARE(corner.value("global_id").toArray(), ids[c]);
        QCOMPARE(corner.value("local_size").toArray(), (QJsonArray{16, 16}));
        QCOMPARE(corner.value("enqueued_local_size").toArray(), (QJsonArray{16, 16}));
    }
}

void TestInspector::cliInspectExpectedFailure()
{
    int exitCode = -1;
    const QJsonObject j = runInspectCli({"--device", QString::fromStdString(m_device.spec()), "--synthetic", "640x480",
                                         "--local", "16x16"},
                                        &exitCode);
    QCOMPARE(exitCode, 0); // the explained outcome, not a tool failure
    QCOMPARE(j.value("global").toArray(), (QJsonArray{638, 478}));
    QCOMPARE(j.value("ok").toBool(), false);
    QCOMPARE(j.value("expected_failure").toBool(), true);
    QCOMPARE(j.value("error_code").toString(), QString("CL_INVALID_WORK_GROUP_SIZE"));
    QVERIFY(j.value("error").toString().contains("does not divide"));

    QProcess bad;
    bad.start(QStringLiteral(FWB_FILTER_BENCH), {"inspect", "--global", "12by4"});
    QVERIFY(bad.waitForFinished(60000));
    QCOMPARE(bad.exitCode(), 2);
}

QTEST_GUILESS_MAIN(TestInspector)
#include "tst_inspector.moc"
