// OpenCV baselines (core/OpenCvBaseline.h): opencv_cpu and opencv_tapi rows agree with our CPU
// reference (±1) for every filter OpenCV has, every layout and border it takes, and say clearly why
// when they cannot run; speedups are taken against the faster of our CPU code and OpenCV's.
#include "OpenCvBaseline.h"
#include "Session.h"
#include "TestSupport.h"

using namespace fwb;

class TestOpenCvBaseline : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void matchesReference_data();
    void matchesReference();
    void unsupportedSaysWhy();
    void speedupUsesFastestCpu();

private:
    DeviceInfo m_device;
    bool m_haveDevice = false;
};

void TestOpenCvBaseline::initTestCase()
{
    m_haveDevice = test::testDevice(m_device);
}

void TestOpenCvBaseline::matchesReference_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QString>("param");
    QTest::addColumn<int>("format");
    QTest::addColumn<int>("border");
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    struct Case { const char *filter, *param; };
    const Case cases[] = {{"gaussian5x5", "sigma=1"}, {"gaussian5x5", "sigma=3"}, {"gaussian", "sigma=2"},
                          {"box", "radius=1"},        {"box", "radius=4"},        {"sobel", "output=0"},
                          {"sobel", "output=1"},      {"sobel", "output=2"},      {"median3x3", ""},
                          {"median5x5", ""},          {"erode", "radius=1"},      {"dilate", "radius=2"},
                          {"transpose", ""}};
    for (const Case &c : cases)
        for (PixelFormat format : {PixelFormat::Gray8, PixelFormat::Rgba8888, PixelFormat::Rgb888})
            for (BorderMode border : allBorderModes()) {
                const bool median = QByteArray(c.filter).startsWith("median");
                if (median && border != BorderMode::Replicate)
                    continue; // cv::medianBlur replicates only; unsupportedSaysWhy covers the others
                if (QByteArray(c.filter) == "median5x5" && format == PixelFormat::Rgb888)
                    continue;
                // A tiny picture (every pixel near a border) and a larger one (OpenCV's other code paths).
                for (auto [w, h] : {std::pair{7, 5}, std::pair{259, 194}})
                    QTest::addRow("%s %s/%s/%s/%dx%d", c.filter, c.param, formatName(format), borderModeName(border),
                                  w, h)
                        << c.filter << c.param << int(format) << int(border) << w << h;
            }
}

void TestOpenCvBaseline::matchesReference()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL platform");
    if (openCvVersion().empty())
        QSKIP("built without OpenCV");
    QFETCH(QString, filter);
    QFETCH(QString, param);
    QFETCH(int, format);
    QFETCH(int, border);
    QFETCH(int, width);
    QFETCH(int, height);
    static Session session(m_device);
    RunRequest request = test::oneShotRequest(filter.toStdString(), "", PixelFormat(format));
    request.params.border = BorderMode(border);
    if (!param.isEmpty())
        QVERIFY(applyParam(*findFilter(request.filter), request.params, param.toStdString()).empty());
    const Image input = makeTestCard(width, height, PixelFormat::Rgba8888);
    for (Baseline baseline : {Baseline::OpenCvCpu, Baseline::OpenCvTapi}) {
        const RunResult r = session.runBaseline(input, request, baseline);
        QVERIFY(r.baseline);
        QCOMPARE(r.variant, std::string(baselineName(baseline)));
        if (baseline == Baseline::OpenCvTapi && r.unavailable) {
            QVERIFY2(!r.error.empty(), "an unavailable T-API row must say why");
            continue;
        }
        QVERIFY2(r.ok(), (std::string(baselineName(baseline)) + ": " + r.error).c_str());
        QVERIFY(!r.baselineCall.empty());
        QVERIFY(r.checked);
        QVERIFY2(r.matches, (std::string(baselineName(baseline)) + " " + r.baselineCall + ": max diff "
                             + std::to_string(r.maxAbsDiff)).c_str());
        QVERIFY(r.kernelMs.median > 0);
    }
}

void TestOpenCvBaseline::unsupportedSaysWhy()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL platform");
    Session session(m_device);
    const Image input = makeTestCard(64, 48, PixelFormat::Gray8);
    RunRequest median = test::oneShotRequest("median3x3", "");
    median.params.border = BorderMode::Reflect101;
    RunResult r = session.runBaseline(input, median, Baseline::OpenCvCpu);
    QVERIFY(r.unavailable);
    QVERIFY2(r.error.find(openCvVersion().empty() ? "without OpenCV" : "BORDER_REPLICATE") != std::string::npos,
             r.error.c_str());
    r = session.runBaseline(input, test::oneShotRequest("recursive_gaussian", ""), Baseline::OpenCvTapi);
    QVERIFY(r.unavailable);
    QVERIFY(!r.error.empty());
}

void TestOpenCvBaseline::speedupUsesFastestCpu()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL platform");
    Session session(m_device);
    const Image input = makeTestCard(320, 240, PixelFormat::Gray8);
    const RunResult r = session.run(input, test::oneShotRequest("gaussian5x5", "unrolled_constant"));
    QVERIFY2(r.ok(), r.error.c_str());
    QVERIFY(r.cpuBestMs > 0);
    QVERIFY(!r.cpuBestLabel.empty());
    QVERIFY(r.cpuBestMs <= r.cpuMultiMs);
    if (openCvVersion().empty()) {
        QCOMPARE(r.openCvCpuMs, -1.0);
    } else {
        QVERIFY(r.openCvCpuMs > 0);
        QVERIFY(r.cpuBestMs <= r.openCvCpuMs);
    }
    QCOMPARE(r.speedupVsCpu, r.cpuBestMs / r.kernelMs.median);
}

QTEST_GUILESS_MAIN(TestOpenCvBaseline)
#include "tst_opencv_baseline.moc"
