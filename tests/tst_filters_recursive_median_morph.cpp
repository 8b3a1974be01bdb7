// Recursive Gaussian, transpose, median 3x3/5x5 and erode/dilate: every variant x pixel format on
// 259x194 and edge sizes (plus 640x480 in gray8) against the single-threaded CPU reference within
// each filter's stated tolerance; border modes, transposed output size, the IIR sigma range and the
// -cl-fast-relaxed-math toggle on the device-coefficient path. Rows are grouped so each program
// (file + defines) is built once: PoCL compiles take 1-2 s each.
#include "Catalogue.h"
#include "Session.h"
#include "TestSupport.h"

#include <memory>

using namespace fwb;

namespace {

const char *const kFilters[] = {"recursive_gaussian", "transpose", "median3x3", "median5x5", "erode", "dilate"};

RunRequest request(const std::string &filter, const std::string &variant, PixelFormat format)
{
    RunRequest r;
    r.filter = filter;
    r.variant = variant;
    r.params.format = format;
    r.repeat = 1;
    r.warmup = 0;
    r.cpuSingle = false;
    return r;
}

QByteArray describe(const RunResult &r, int w, int h)
{
    return QByteArray::number(w) + "x" + QByteArray::number(h) + ": error '" + QByteArray(r.error.c_str())
           + "' max diff " + QByteArray::number(r.maxAbsDiff) + " (tolerance " + QByteArray::number(r.tolerance) + ")"
           + (r.buildLog.empty() ? QByteArray() : "\n" + QByteArray(r.buildLog.c_str()));
}

} // namespace

class TestFiltersRecursiveMedianMorph : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void matchesReference_data();
    void matchesReference();
    void borderModes_data();
    void borderModes();
    void largeRadius_data();
    void largeRadius();
    void transposeOutputIsHeightByWidth();
    void recursiveSigmaRange_data();
    void recursiveSigmaRange();
    void recursiveFastMath_data();
    void recursiveFastMath();
    void tiledShapeLeavesColumnPassesToRuntime();

private:
    RunResult runChecked(const RunRequest &request, int width, int height);
    std::unique_ptr<Session> m_session;
};

void TestFiltersRecursiveMedianMorph::initTestCase()
{
    FWB_REQUIRE_DEVICE(device);
    m_session = std::make_unique<Session>(device);
    qInfo("device under test: %s", device.summary().c_str());
}

RunResult TestFiltersRecursiveMedianMorph::runChecked(const RunRequest &request, int width, int height)
{
    return m_session->run(makeTestCard(width, height, request.params.format), request);
}

// One row per filter x variant x format; the sizes run inside the row (same program for all).
void TestFiltersRecursiveMedianMorph::matchesReference_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("format");
    for (const char *name : kFilters) {
        const FilterSpec *filter = findFilter(name);
        QVERIFY2(filter, name);
        for (PixelFormat f : allPixelFormats())
            for (const VariantSpec &v : filter->variants) {
                const QByteArray row = QByteArray(name) + "/" + v.name.c_str() + "/" + formatName(f);
                QTest::newRow(row.constData()) << QString(name) << QString::fromStdString(v.name) << int(f);
            }
    }
}

void TestFiltersRecursiveMedianMorph::matchesReference()
{
    QFETCH(QString, filter);
    QFETCH(QString, variant);
    QFETCH(int, format);
    const PixelFormat fmt = PixelFormat(format);
    std::vector<std::pair<int, int>> sizes = {{259, 194}, {1, 1}, {7, 5}, {17, 16}};
    if (fmt == PixelFormat::Gray8)
        sizes.emplace_back(640, 480);
    const RunRequest req = request(filter.toStdString(), variant.toStdString(), fmt);
    for (const auto &[w, h] : sizes) {
        const RunResult r = runChecked(req, w, h);
        QVERIFY2(r.ok(), describe(r, w, h).constData());
        QVERIFY2(r.checked && r.matches, describe(r, w, h).constData());
    }
}

// Border rules on 259x194 (reflect101 is the default above); the IIR and transpose have none.
void TestFiltersRecursiveMedianMorph::borderModes_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<int>("border");
    QTest::addColumn<int>("format");
    for (const char *name : {"median3x3", "median5x5", "erode", "dilate"})
        for (BorderMode b : {BorderMode::Replicate, BorderMode::Constant}) {
            const QByteArray row = QByteArray(name) + "/" + borderModeName(b);
            QTest::newRow(row.constData()) << QString(name) << int(b) << int(PixelFormat::Gray8);
        }
    QTest::newRow("erode/constant/rgb888") << "erode" << int(BorderMode::Constant) << int(PixelFormat::Rgb888);
}

void TestFiltersRecursiveMedianMorph::borderModes()
{
    QFETCH(QString, filter);
    QFETCH(int, border);
    QFETCH(int, format);
    const FilterSpec *spec = findFilter(filter.toStdString());
    QVERIFY(spec && spec->hasBorder);
    for (const VariantSpec &v : spec->variants) {
        RunRequest req = request(spec->name, v.name, PixelFormat(format));
        req.params.border = BorderMode(border);
        const RunResult r = runChecked(req, 259, 194);
        QVERIFY2(r.ok() && r.matches, (QByteArray(v.name.c_str()) + " " + describe(r, 259, 194)).constData());
    }
}

// Radius 30 (the maximum) and an odd-sized one, with a non-default border and colour layouts.
void TestFiltersRecursiveMedianMorph::largeRadius_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<int>("radius");
    QTest::addColumn<int>("format");
    QTest::addColumn<int>("border");
    QTest::newRow("erode/r30/rgba8888/replicate") << "erode" << 30 << int(PixelFormat::Rgba8888)
                                                  << int(BorderMode::Replicate);
    QTest::newRow("dilate/r7/rgb888/reflect101") << "dilate" << 7 << int(PixelFormat::Rgb888)
                                                 << int(BorderMode::Reflect101);
}

void TestFiltersRecursiveMedianMorph::largeRadius()
{
    QFETCH(QString, filter);
    QFETCH(int, radius);
    QFETCH(int, format);
    QFETCH(int, border);
    const FilterSpec *spec = findFilter(filter.toStdString());
    QVERIFY(spec);
    for (const VariantSpec &v : spec->variants)
        for (const auto &[w, h] : {std::pair{259, 194}, std::pair{7, 5}}) {
            RunRequest req = request(spec->name, v.name, PixelFormat(format));
            req.params.values["radius"] = radius;
            req.params.border = BorderMode(border);
            const RunResult r = runChecked(req, w, h);
            QVERIFY2(r.ok() && r.matches, (QByteArray(v.name.c_str()) + " " + describe(r, w, h)).constData());
        }
}

void TestFiltersRecursiveMedianMorph::transposeOutputIsHeightByWidth()
{
    const FilterSpec *spec = findFilter("transpose");
    QVERIFY(spec && spec->transposesOutput);
    for (const VariantSpec &v : spec->variants) {
        const RunResult r = runChecked(request("transpose", v.name, PixelFormat::Rgb888), 259, 194);
        QVERIFY2(r.ok() && r.matches, describe(r, 259, 194).constData());
        QCOMPARE(r.output.width(), 194);
        QCOMPARE(r.output.height(), 259);
        QCOMPARE(r.output.format(), PixelFormat::Rgb888);
    }
}

// The host-coefficient path across the whole sigma range (the poles approach 1 at sigma 50).
void TestFiltersRecursiveMedianMorph::recursiveSigmaRange_data()
{
    QTest::addColumn<double>("sigma");
    for (double s : {0.5, 1.0, 2.4, 2.5, 16.0, 50.0})
        QTest::newRow(QByteArray::number(s).constData()) << s;
}

void TestFiltersRecursiveMedianMorph::recursiveSigmaRange()
{
    QFETCH(double, sigma);
    for (const char *variant : {"transpose_local_diagonal", "device_coefficients"}) {
        RunRequest req = request("recursive_gaussian", variant, PixelFormat::Rgba8888);
        req.params.values["sigma"] = sigma;
        const RunResult r = runChecked(req, 259, 194);
        QVERIFY2(r.ok() && r.matches, (QByteArray(variant) + " " + describe(r, 259, 194)).constData());
    }
}

// Issue 4 item 9: the device-coefficient variant built with and without -cl-fast-relaxed-math. Without
// it the check must pass; with it the difference is reported (PoCL: 1 at sigma 3, 2 at sigma 50) and
// only bounded, since how much relaxed math costs is the device's business.
void TestFiltersRecursiveMedianMorph::recursiveFastMath_data()
{
    QTest::addColumn<double>("sigma");
    QTest::addColumn<bool>("fastMath");
    for (double s : {3.0, 50.0})
        for (bool fast : {false, true})
            QTest::newRow((QByteArray("sigma ") + QByteArray::number(s) + (fast ? " fast-math" : " exact")).constData())
                << s << fast;
}

void TestFiltersRecursiveMedianMorph::recursiveFastMath()
{
    QFETCH(double, sigma);
    QFETCH(bool, fastMath);
    const FilterSpec *spec = findFilter("recursive_gaussian");
    QVERIFY(spec && spec->variant("device_coefficients") && spec->variant("device_coefficients")->fastMathMatters);
    RunRequest req = request("recursive_gaussian", "device_coefficients", PixelFormat::Gray8);
    req.params.values["sigma"] = sigma;
    req.params.fastMath = fastMath;
    const RunResult r = runChecked(req, 640, 480);
    QVERIFY2(r.ok() && r.checked, describe(r, 640, 480).constData());
    QCOMPARE(QByteArray(r.buildOptions.c_str()).contains("-cl-fast-relaxed-math"), fastMath);
    qInfo("device coefficients, sigma %g, %s: max diff %d, mean %.5f", sigma, fastMath ? "fast-math" : "exact math",
          r.maxAbsDiff, r.meanAbsDiff);
    if (fastMath)
        QVERIFY2(r.maxAbsDiff <= 8, describe(r, 640, 480).constData());
    else
        QVERIFY2(r.matches, describe(r, 640, 480).constData());
}

// A 2-D work-group sizes the transposes' tiles; the per-column passes must not be rejected for it.
void TestFiltersRecursiveMedianMorph::tiledShapeLeavesColumnPassesToRuntime()
{
    RunRequest req = request("recursive_gaussian", "transpose_local", PixelFormat::Gray8);
    req.local = LocalSize{16, 16};
    const RunResult r = runChecked(req, 259, 194);
    QVERIFY2(r.ok() && r.matches, describe(r, 259, 194).constData());
    QVERIFY(QByteArray(r.buildOptions.c_str()).contains("-DTILE_W=16 -DTILE_H=16"));
    QCOMPARE(r.passMs.size(), std::size_t(4));
}

QTEST_GUILESS_MAIN(TestFiltersRecursiveMedianMorph)
#include "tst_filters_recursive_median_morph.moc"
