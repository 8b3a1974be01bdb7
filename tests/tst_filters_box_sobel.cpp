// Box blurs (seed 001 interior launches, full-image ladder), separable Gaussian and Sobel against the
// single-threaded CPU reference; the CL 1.2 expected failure; the work-group inspector and its CLI.
#include "Catalogue.h"
#include "Inspector.h"
#include "Session.h"
#include "TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <memory>

using namespace fwb;

Q_DECLARE_METATYPE(fwb::PixelFormat)
Q_DECLARE_METATYPE(fwb::BorderMode)

namespace {

RunRequest quickRequest(const QString &filter, const QString &variant)
{
    RunRequest request;
    request.filter = filter.toStdString();
    request.variant = variant.toStdString();
    request.repeat = 1;
    request.warmup = 0;
    request.cpuSingle = false;
    request.check = true;
    request.keepOutput = false;
    return request;
}

LocalSize parseLocal(const QString &text)
{
    const auto local = LocalSize::parse(text.toStdString());
    return local ? *local : LocalSize{};
}

} // namespace

class TestFiltersBoxSobel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();

    void matchesCpuReference_data();
    void matchesCpuReference();

    void exactCl12RefusesNonDividingShape();
    void exactCl12RunsWhenShapeDivides_data();
    void exactCl12RunsWhenShapeDivides();

    void inspectorCornerTable_data();
    void inspectorCornerTable();
    void inspectorRefusesNonDividingShapeOnCl12();
    void inspectorNonUniformCl20();

    void cliInspectJson();
    void cliInspectExpectedFailure();

private:
    DeviceInfo m_device;
    std::unique_ptr<Session> m_session;
};

void TestFiltersBoxSobel::initTestCase()
{
    FWB_REQUIRE_DEVICE(device);
    m_device = device;
    m_session = std::make_unique<Session>(m_device);
    qInfo("device: %s", m_device.summary().c_str());
}

void TestFiltersBoxSobel::cleanupTestCase() { m_session.reset(); }

// Rows: every variant x format x border on 259x194; every variant x format on 1x1 and 7x5; every
// variant on 640x480 gray8; plus parameter extremes. Each row is one run against the CPU oracle.
void TestFiltersBoxSobel::matchesCpuReference_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<fwb::PixelFormat>("format");
    QTest::addColumn<fwb::BorderMode>("border");
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::addColumn<QString>("param");      // "key=value" or empty
    QTest::addColumn<int>("maxAllowedDiff"); // -1: the filter's tolerance

    const char *filters[] = {"box3x3_interior", "box", "gaussian", "sobel"};
    for (const char *name : filters) {
        const FilterSpec *filter = findFilter(name);
        QVERIFY2(filter, name);
        for (const VariantSpec &v : filter->variants) {
            for (PixelFormat format : allPixelFormats()) {
                const std::vector<BorderMode> borders =
                    filter->hasBorder ? allBorderModes() : std::vector<BorderMode>{BorderMode::Reflect101};
                for (BorderMode border : borders)
                    QTest::addRow("%s/%s/%s/%s/259x194", name, v.name.c_str(), formatName(format),
                                  borderModeName(border))
                        << QString(name) << QString::fromStdString(v.name) << format << border << 259 << 194
                        << QString() << -1;
                for (auto [w, h] : {std::pair{1, 1}, std::pair{7, 5}})
                    QTest::addRow("%s/%s/%s/%dx%d", name, v.name.c_str(), formatName(format), w, h)
                        << QString(name) << QString::fromStdString(v.name) << format << BorderMode::Reflect101 << w
                        << h << QString() << -1;
            }
            QTest::addRow("%s/%s/gray8/640x480", name, v.name.c_str())
                << QString(name) << QString::fromStdString(v.name) << PixelFormat::Gray8 << BorderMode::Reflect101
                << 640 << 480 << QString() << -1;
        }
    }
    // Parameter extremes: a radius wider than the image (reflect101 folds repeatedly), the smallest and
    // a large sigma, and the exact integer Sobel axes.
    for (const char *variant : {"naive", "separable", "sliding_window"}) {
        QTest::addRow("box/%s/radius50/67x45", variant) << "box" << variant << PixelFormat::Rgb888
                                                        << BorderMode::Reflect101 << 67 << 45 << "radius=50" << 0;
        QTest::addRow("box/%s/radius1/constant", variant) << "box" << variant << PixelFormat::Gray8
                                                          << BorderMode::Constant << 259 << 194 << "radius=1" << 0;
    }
    for (const char *variant : {"separable", "separable_local"}) {
        QTest::addRow("gaussian/%s/sigma0.3", variant) << "gaussian" << variant << PixelFormat::Gray8
                                                       << BorderMode::Reflect101 << 259 << 194 << "sigma=0.3" << -1;
        QTest::addRow("gaussian/%s/sigma7.5", variant) << "gaussian" << variant << PixelFormat::Rgba8888
                                                       << BorderMode::Replicate << 259 << 194 << "sigma=7.5" << -1;
    }
    for (const char *variant : {"naive", "local_tiled", "separable"})
        for (int output : {0, 1})
            QTest::addRow("sobel/%s/output%d", variant, output)
                << "sobel" << variant << PixelFormat::Rgb888 << BorderMode::Reflect101 << 259 << 194
                << QString("output=%1").arg(output) << 0;
}

void TestFiltersBoxSobel::matchesCpuReference()
{
    QFETCH(QString, filter);
    QFETCH(QString, variant);
    QFETCH(fwb::PixelFormat, format);
    QFETCH(fwb::BorderMode, border);
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(QString, param);
    QFETCH(int, maxAllowedDiff);

    const FilterSpec *spec = findFilter(filter.toStdString());
    QVERIFY(spec);
    const VariantSpec *variantSpec = spec->variant(variant.toStdString());
    QVERIFY(variantSpec);
    RunRequest request = quickRequest(filter, variant);
    request.params.format = format;
    request.params.border = border;
    if (!param.isEmpty())
        QCOMPARE(applyParam(*spec, request.params, param.toStdString()), std::string());

    const RunResult r = m_session->run(makeTestCard(width, height, format), request);
    const std::string reason = variantUnavailableReason(*variantSpec, m_device, format);
    if (!reason.empty()) {
        // nonuniform_cl20 on a device without non-uniform work-groups (PoCL): listed, not run.
        QVERIFY(r.unavailable);
        QCOMPARE(r.error, reason);
        QVERIFY2(reason.find("non-uniform") != std::string::npos || reason.find("OpenCL C 2.0") != std::string::npos,
                 reason.c_str());
        return;
    }
    QVERIFY2(r.ok(), (r.error + "\n" + r.buildLog).c_str());
    QVERIFY(r.checked);
    const int allowed = maxAllowedDiff >= 0 ? maxAllowedDiff : spec->tolerance;
    QVERIFY2(r.maxAbsDiff >= 0 && r.maxAbsDiff <= allowed,
             qPrintable(QString("max diff %1, allowed %2").arg(r.maxAbsDiff).arg(allowed)));
    QVERIFY(r.matches);
}

// Seed 001: 638x478 (the interior of 640x480) with local 16x16 under OpenCL 1.2 rules must be refused.
void TestFiltersBoxSobel::exactCl12RefusesNonDividingShape()
{
    RunRequest request = quickRequest("box3x3_interior", "exact_cl12");
    request.local = LocalSize{16, 16};
    const RunResult r = m_session->run(makeTestCard(640, 480, PixelFormat::Gray8), request);
    QVERIFY(!r.ok());
    QVERIFY(r.expectedFailure);
    QCOMPARE(r.errorCode, std::string("CL_INVALID_WORK_GROUP_SIZE"));
    QVERIFY2(r.error.find("638x478") != std::string::npos, r.error.c_str());
    QVERIFY2(r.error.find("16x16") != std::string::npos, r.error.c_str());
}

void TestFiltersBoxSobel::exactCl12RunsWhenShapeDivides_data()
{
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::addColumn<QString>("local");
    QTest::addRow("640x480/auto") << 640 << 480 << "auto";  // the runtime picks a dividing shape
    QTest::addRow("640x480/2x2") << 640 << 480 << "2x2";    // 638 = 2 x 319, 478 = 2 x 239
    QTest::addRow("642x482/16x16") << 642 << 482 << "16x16"; // interior 640x480
}

void TestFiltersBoxSobel::exactCl12RunsWhenShapeDivides()
{
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(QString, local);
    RunRequest request = quickRequest("box3x3_interior", "exact_cl12");
    request.local = parseLocal(local);
    const RunResult r = m_session->run(makeTestCard(width, height, PixelFormat::Rgba8888), request);
    QVERIFY2(r.ok(), r.error.c_str());
    QVERIFY(!r.expectedFailure);
    QCOMPARE(r.global[0], std::size_t(width - 2)); // exact: never rounded up
    QCOMPARE(r.global[1], std::size_t(height - 2));
    QCOMPARE(r.maxAbsDiff, 0);
    QVERIFY(r.matches);
}

// What the launch geometry implies: corner ids are the NDRange corners, every group under CL 1.2 rules
// has the same (dividing) size, enqueued = local, num_groups x local = global, corner group ids.
void TestFiltersBoxSobel::inspectorCornerTable_data()
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

void TestFiltersBoxSobel::inspectorCornerTable()
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

void TestFiltersBoxSobel::inspectorRefusesNonDividingShapeOnCl12()
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
void TestFiltersBoxSobel::inspectorNonUniformCl20()
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

void TestFiltersBoxSobel::cliInspectJson()
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

void TestFiltersBoxSobel::cliInspectExpectedFailure()
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

QTEST_GUILESS_MAIN(TestFiltersBoxSobel)
#include "tst_filters_box_sobel.moc"
