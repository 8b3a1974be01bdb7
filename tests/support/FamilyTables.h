// The family suites' tables (tests/families/tst_<family>.cpp): the variant table - every variant of a
// filter from the catalogue against the single-threaded CPU reference, plus the family's own rows - and
// the block-edge table of the multi-pixel rungs.
#pragma once

#include "Catalogue.h"
#include "Session.h"
#include "TestSupport.h"

#include <QList>
#include <QSize>
#include <QtTest>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace fwb::test {

// FWB_EXTRA_BUILD_OPTIONS set for one row and given back after it, a failed check included.
struct ExtraBuildOptions
{
    QByteArray previous = qgetenv("FWB_EXTRA_BUILD_OPTIONS");
    explicit ExtraBuildOptions(const QString &options) { qputenv("FWB_EXTRA_BUILD_OPTIONS", options.toUtf8()); }
    ~ExtraBuildOptions()
    {
        if (previous.isNull())
            qunsetenv("FWB_EXTRA_BUILD_OPTIONS");
        else
            qputenv("FWB_EXTRA_BUILD_OPTIONS", previous);
    }
    ExtraBuildOptions(const ExtraBuildOptions &) = delete;
    ExtraBuildOptions &operator=(const ExtraBuildOptions &) = delete;
};

// ---- The variant table: every variant of a filter against the single-threaded CPU oracle ---------
// One row per program (variant x format x border, plus the build-time parameters): PoCL takes 1-2 s
// per build, a median's several, so the sizes of a row run inside it on the one program. A family
// suite's matchesCpuReference_data() calls addReferenceColumns(), then addVariantRows(filter) - the
// rows come from the catalogue, so a new variant needs no test line - and addReferenceRow() for what is
// special to the family (parameter extremes); FamilySuite's matchesCpuReference() (SessionSuite.h)
// calls verifyReferenceRow().

using TestSizes = QList<QSize>;

inline void addReferenceColumns()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("format"); // PixelFormat
    QTest::addColumn<int>("border"); // BorderMode
    QTest::addColumn<TestSizes>("sizes");
    QTest::addColumn<QString>("param");      // "key=value" or empty
    QTest::addColumn<int>("maxAllowedDiff"); // -1: the filter's tolerance
}

inline void addReferenceRow(const QString &rowName, const QString &filter, const QString &variant, PixelFormat format,
                            BorderMode border, const TestSizes &sizes, const QString &param, int maxAllowedDiff)
{
    QTest::newRow(rowName.toUtf8().constData())
        << filter << variant << int(format) << int(border) << sizes << param << maxAllowedDiff;
}

inline void addReferenceRow(const QString &rowName, const QString &filter, const QString &variant, PixelFormat format,
                            BorderMode border, int width, int height, const QString &param, int maxAllowedDiff)
{
    addReferenceRow(rowName, filter, variant, format, border, TestSizes{QSize(width, height)}, param, maxAllowedDiff);
}

// What a family's variant rows run beyond the common plan.
struct VariantRowOptions
{
    // A build-time parameter for the variants that take any value ("sigma=1.3": the family's other
    // tables build the same programs); a variant built for small radii runs at its largest instead.
    QString param;
    // The replicate and constant rows in gray8 only (a family with many variants, each several seconds
    // of PoCL per program); reflect101 runs in every format whatever this says.
    bool otherBordersInGray8Only = false;
};

// Every variant x format under reflect101 on 1x1, 7x5, 17x16 (a 16x16 tile and one more), 259x194 (no
// multiple of any group) and, in gray8, 640x480; every variant x format under replicate and constant on
// 259x194 (filters with a border rule). Variants that do not take a format are rows too: they must
// say why (verifyReferenceRow).
inline void addVariantRows(const char *name, const VariantRowOptions &options = {})
{
    const FilterSpec *filter = findFilter(name);
    QVERIFY2(filter, name);
    const auto hasParam = [filter](const char *key) {
        return std::any_of(filter->params.begin(), filter->params.end(),
                           [key](const ParamSpec &p) { return p.key == key; });
    };
    for (const VariantSpec &v : filter->variants) {
        // A variant built for small radii runs at its largest (the default radius may be beyond it): the
        // radius itself, or the sigma whose ceil(3 sigma) reach is that radius.
        QString param = options.param;
        if (v.maxRadius > 0 && hasParam("sigma"))
            param = QString("sigma=%1").arg((v.maxRadius - 0.05) / 3.0, 0, 'f', 4);
        else if (v.maxRadius > 0 && hasParam("radius"))
            param = QString("radius=%1").arg(v.maxRadius);
        for (PixelFormat format : allPixelFormats()) {
            TestSizes sizes{{1, 1}, {7, 5}, {17, 16}, {259, 194}};
            if (format == PixelFormat::Gray8)
                sizes << QSize(640, 480);
            addReferenceRow(QString::asprintf("%s/%s/%s/reflect101", name, v.name.c_str(), formatName(format)), name,
                            QString::fromStdString(v.name), format, BorderMode::Reflect101, sizes, param, -1);
            if (!filter->hasBorder || (options.otherBordersInGray8Only && format != PixelFormat::Gray8))
                continue;
            for (BorderMode border : allBorderModes())
                if (border != BorderMode::Reflect101)
                    addReferenceRow(QString::asprintf("%s/%s/%s/%s", name, v.name.c_str(), formatName(format),
                                                      borderModeName(border)),
                                    name, QString::fromStdString(v.name), format, border, TestSizes{{259, 194}},
                                    param, -1);
        }
    }
}

// Runs the current row at each of its sizes and checks it: within the tolerance (the filter's, or the
// row's own), the output the input's size (height x width where the filter transposes), and the run's
// own check agreeing with a fresh reference; or listed-not-run with a non-uniform /
// OpenCL C 2.0 / layout reason where the device or the variant lacks what it needs.
inline void verifyReferenceRow(Session &session, const DeviceInfo &device)
{
    QFETCH(QString, filter);
    QFETCH(QString, variant);
    QFETCH(int, format);
    QFETCH(int, border);
    QFETCH(TestSizes, sizes);
    QFETCH(QString, param);
    QFETCH(int, maxAllowedDiff);

    const FilterSpec *spec = findFilter(filter.toStdString());
    QVERIFY(spec);
    const VariantSpec *variantSpec = spec->variant(variant.toStdString());
    QVERIFY(variantSpec);
    RunRequest request = oneShotRequest(filter.toStdString(), variant.toStdString(), PixelFormat(format));
    request.check = true;
    request.params.border = BorderMode(border);
    if (!param.isEmpty())
        QCOMPARE(applyParam(*spec, request.params, param.toStdString()), std::string());
    const int allowed = maxAllowedDiff >= 0 ? maxAllowedDiff : spec->tolerance;
    const std::string reason = variantUnavailableReason(*variantSpec, device, PixelFormat(format));
    for (qsizetype i = 0; i < sizes.size(); ++i) {
        const int w = sizes[i].width(), h = sizes[i].height();
        const Image input = makeTestCard(w, h, PixelFormat(format));
        const RunResult r = session.run(input, request);
        if (!reason.empty()) {
            // nonuniform_cl20 on a device without non-uniform work-groups (PoCL): listed, not run.
            QVERIFY(r.unavailable);
            QCOMPARE(r.error, reason);
            QVERIFY2(reason.find("non-uniform") != std::string::npos || reason.find("OpenCL C 2.0") != std::string::npos
                         || (!variantSpec->formats.empty() && reason.find("does not support") != std::string::npos),
                     reason.c_str());
            return;
        }
        QVERIFY2(r.ok() && r.checked, describe(r, w, h).constData());
        QVERIFY2(r.maxAbsDiff >= 0 && r.maxAbsDiff <= allowed && r.matches, describe(r, w, h).constData());
        if (i == sizes.size() - 1)
            QVERIFY(r.kernelMs.median > 0); // the timing reached the result (on the largest size: never 0)
        // An independent oracle call: the run's own check must agree with a fresh single-threaded reference.
        const bool transposes = spec->transposesOutput;
        QCOMPARE(r.output.width(), transposes ? h : w);
        QCOMPARE(r.output.height(), transposes ? w : h);
        // Prepared as Session prepares its own (a filter that keeps the frame starts from the source).
        Image reference = spec->copySourceToDst ? input : Image(r.output.width(), r.output.height(), PixelFormat(format));
        spec->cpuReference(input, reference, request.params, 1);
        QVERIFY2(maxAbsDiff(r.output, reference) <= allowed, describe(r, w, h).constData());
    }
}

inline RunResult runOnTestCard(Session &session, const RunRequest &request, int width, int height)
{
    return session.run(makeTestCard(width, height, request.params.format), request);
}

// A variant asked for what it does not take (`param` beyond its radius, a layout it lacks) is listed, not
// run, and its error says why (`reason` a part of it).
inline void verifyUnavailable(Session &session, const char *filter, const char *variant, PixelFormat format,
                              const char *param, const char *reason)
{
    RunRequest request = oneShotRequest(filter, variant, format);
    if (*param)
        QCOMPARE(applyParam(*findFilter(filter), request.params, param), std::string());
    const RunResult r = runOnTestCard(session, request, 64, 48);
    QVERIFY2(r.unavailable, describe(r, 64, 48).constData());
    QVERIFY2(r.error.find(reason) != std::string::npos, r.error.c_str());
}

// ---- Edge sweeps: the sizes around a rung's blocks, chunks or segments ------------------------------
using EdgeSizes = std::vector<std::pair<int, int>>;

// The sizes every sweep starts from: a pixel, sizes smaller than, just over and no multiple of any block,
// and the full 640x480.
inline const EdgeSizes kEdgeStandardSizes = {{1, 1}, {7, 5}, {33, 17}, {259, 194}, {640, 480}};

// `sizes`, then every width 1..40 (every remainder of a 4- or 16-pixel block, with and without a full
// one) at each of `heights`.
inline EdgeSizes withEveryWidthTo40(EdgeSizes sizes, std::initializer_list<int> heights)
{
    for (int w = 1; w <= 40; ++w)
        for (int h : heights)
            sizes.emplace_back(w, h);
    return sizes;
}

// One row per pixel format (column "format"): a sweep whose sizes run inside its row.
inline void addFormatRows()
{
    QTest::addColumn<int>("format");
    for (PixelFormat f : allPixelFormats())
        QTest::newRow(formatName(f)) << int(f);
}

// ---- The block edges of multi-pixel rungs: one table for every family -----------------------------
// A variant that computes a block of pixels per work-item (the strips rungs and their kin) guards the partial
// blocks at the right and bottom edges itself. Every pixel format x border x parameter set, each on
// 1x1, 7x5, 33x17, 259x194, 640x480 and on every width 1..40 (every remainder of a 4- or 16-pixel
// block, with and without a full one) at heights 1, 3, 9 and 17 (partial strips), against the
// single-threaded CPU reference within the filter's tolerance.
inline void addBlockEdgeColumns()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("format");
    QTest::addColumn<int>("border");
    QTest::addColumn<QString>("param");
    QTest::addColumn<int>("maxDiff");
    QTest::addColumn<bool>("smallGroups");
}

// maxDiff -1: the filter's tolerance; 0 where the rung must be exact although the filter allows ±1.
// smallGroups: also run a few sizes in 2x2 work-groups (kernels that give the work-groups at the image's
// edge their own code path: both paths then run side by side in one launch).
inline void addBlockEdgeRows(const char *filter, const char *variant, const std::vector<const char *> &params = {""},
                             int maxDiff = -1, bool smallGroups = false)
{
    const FilterSpec *spec = findFilter(filter);
    QVERIFY(spec);
    const std::vector<BorderMode> borders =
        spec->hasBorder ? allBorderModes() : std::vector<BorderMode>{BorderMode::Reflect101};
    const VariantSpec *v = spec->variant(variant);
    QVERIFY(v);
    for (const char *param : params)
        for (PixelFormat format : allPixelFormats())
            for (BorderMode border : borders) {
                if (!v->formats.empty() && std::find(v->formats.begin(), v->formats.end(), format) == v->formats.end())
                    continue; // a layout the variant does not take (the reference rows check it says why)
                const QByteArray row = QByteArray(filter) + "/" + variant + "/" + formatName(format) + "/"
                                       + borderModeName(border) + "/" + param;
                QTest::newRow(row.constData())
                    << QString(filter) << QString(variant) << int(format) << int(border) << QString(param) << maxDiff
                    << smallGroups;
            }
}

inline void verifyBlockEdgeRow(Session &session)
{
    QFETCH(QString, filter);
    QFETCH(QString, variant);
    QFETCH(int, format);
    QFETCH(int, border);
    QFETCH(QString, param);
    QFETCH(int, maxDiff);
    QFETCH(bool, smallGroups);
    const FilterSpec *spec = findFilter(filter.toStdString());
    QVERIFY(spec && spec->variant(variant.toStdString()));
    RunRequest request = oneShotRequest(spec->name, variant.toStdString(), PixelFormat(format));
    request.params.border = BorderMode(border);
    request.keepOutput = false;
    if (!param.isEmpty())
        QCOMPARE(applyParam(*spec, request.params, param.toStdString()), std::string());
    for (const auto &[w, h] : withEveryWidthTo40(kEdgeStandardSizes, {1, 3, 9, 17})) {
        const RunResult r = runOnTestCard(session, request, w, h);
        QVERIFY2(r.ok() && r.checked, describe(r, w, h).constData());
        QVERIFY2(r.matches && (maxDiff < 0 || r.maxAbsDiff <= maxDiff), describe(r, w, h).constData());
    }
    // The block a GPU builds (blockBytesGpu), where it is not this CPU device's: the same kernel at the GPU's
    // shape (the H100's sobel rgba8888 2x8, the medians' 16x8 and 4x8, ...), checked here on PoCL. With the
    // reflect101 border only (the one whose edge pixels come from inside the block): each shape is one more
    // program to build, and the median's take PoCL several seconds each.
    const VariantSpec &spec_v = *spec->variant(variant.toStdString());
    const int gpuW = spec_v.blockWidthFor(PixelFormat(format), false);
    const int gpuH = spec_v.blockHeightFor(PixelFormat(format), false);
    if ((gpuW != spec_v.blockWidthFor(PixelFormat(format), true) || gpuH != spec_v.blockHeightFor(PixelFormat(format), true))
        && BorderMode(border) == BorderMode::Reflect101) {
        RunRequest gpu = request;
        gpu.block = LocalSize{gpuW, gpuH};
        for (const auto &[w, h] : withEveryWidthTo40({{1, 1}, {7, 5}, {33, 17}, {259, 194}}, {9})) {
            const RunResult r = runOnTestCard(session, gpu, w, h);
            const QByteArray what = "GPU block " + QByteArray::number(gpuW) + "x" + QByteArray::number(gpuH)
                                    + ", " + describe(r, w, h);
            QVERIFY2(r.ok() && r.checked, what.constData());
            QVERIFY2(r.matches && (maxDiff < 0 || r.maxAbsDiff <= maxDiff), what.constData());
        }
    }
    // cpu_rows rgba8888 as NVIDIA builds it: the border path by whole pixels (CR_PIXEL_GATHER, kernels/shared/
    // cpu_rows.cl; PoCL's own build gathers bytes), at the GPU's block, every border rule (the path is the border's).
    if (spec_v.kernelFile == "cpu_rows.cl" && PixelFormat(format) == PixelFormat::Rgba8888) {
        const ExtraBuildOptions extra("-DCR_PIXEL_GATHER=1");
        RunRequest gpu = request;
        gpu.block = LocalSize{gpuW, gpuH};
        for (const auto &[w, h] : withEveryWidthTo40({{1, 1}, {7, 5}, {33, 17}, {259, 194}}, {9})) {
            const RunResult r = runOnTestCard(session, gpu, w, h);
            const QByteArray what = "by pixels, " + describe(r, w, h);
            QVERIFY2(r.ok() && r.checked && r.buildOptions.find("-DCR_PIXEL_GATHER=1") != std::string::npos, what.constData());
            QVERIFY2(r.matches && (maxDiff < 0 || r.maxAbsDiff <= maxDiff), what.constData());
        }
    }
    // Work-groups of 2x2 work-items: at these widths most groups then lie wholly inside the image and only
    // the last ones reach the right edge, so kernels that give the edge's groups their own code path
    // (separable_strips.clh) run both paths side by side in one launch.
    if (!smallGroups)
        return;
    request.local = parseLocal("2x2");
    for (const auto &[w, h] : std::vector<std::pair<int, int>>{{259, 23}, {131, 19}, {67, 9}, {39, 17}, {37, 5}}) {
        const RunResult r = runOnTestCard(session, request, w, h);
        QVERIFY2(r.ok() && r.checked, ("local 2x2, " + describe(r, w, h)).constData());
        QVERIFY2(r.matches && (maxDiff < 0 || r.maxAbsDiff <= maxDiff), ("local 2x2, " + describe(r, w, h)).constData());
    }
}

} // namespace fwb::test
