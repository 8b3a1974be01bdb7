// Shared helpers for the Qt Test suites: pick the OpenCL device under test, skip only without OpenCL;
// for the per-family filter suites (tst_<family>.cpp), a one-shot run request and the CPU-reference
// table every family fills with its own rows.
#pragma once

#include <algorithm>
#include "Catalogue.h"
#include "Devices.h"
#include "Session.h"

#include <QtTest>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace fwb::test {

// Every field of a RunResult set to a value of its own (the output image aside); numbers exact in
// jsonNumber's 6 digits, so the report's text and the full-precision schema agree.
inline RunResult populatedResult()
{
    RunResult r;
    r.filter = "median5x5";
    r.variant = "forgetful";
    r.params = {{"radius", 2.0}, {"sigma", 1.25}};
    r.format = "rgba8888";
    r.border = "replicate";
    r.device = "cpu-haswell";
    r.deviceSpec = "0:1";
    r.local = LocalSize{32, 4};
    r.localSource = LocalSource::Tuned;
    r.block = LocalSize{8, 16};
    r.blockSource = LocalSource::User;
    r.global[0] = 288;
    r.global[1] = 200;
    r.buildOptions = "-DCHANNELS=4 -DBORDER=1";
    r.buildMs = 12.5;
    r.buildOrigin = "disk";
    r.buildCached = true;
    r.reuploaded = false;
    r.transfer = "pinned";
    r.transferNote = "page-locked staging buffers";
    r.stagingMs = 0.25;
    r.uploadMs = 0.5;
    r.uploadGBps = 11.5;
    r.downloadGBps = 12.25;
    r.uploadPctOfProbe = 81.5;
    r.downloadPctOfProbe = 82.5;
    r.endToEndMs = 3.75;
    r.tiles = 6;
    r.tileWidth = 256;
    r.tileHeight = 128;
    r.tileHalo = 2;
    r.streams = 4;
    r.stagesMs = 4.5;
    r.overlapPct = 16.75;
    r.kernelMs = {1.25, 1.5, 2.75};
    r.passMs = {0.75, 0.875};
    r.downloadMs = 0.625;
    r.totalMs = 3.5;
    r.mpixPerS = 333.5;
    r.bytesMoved = 401968;
    r.gbps = 21.5;
    r.cpuSingleMs = 40.5;
    r.cpuMultiMs = 8.25;
    r.cpuThreads = 16;
    r.openCvCpuMs = 6.5;
    r.cpuBestMs = 6.25;
    r.cpuBestLabel = "OpenCV 4.6.0, 16 threads";
    r.speedupVsCpu = 4.5;
    r.speedupTotalVsCpu = 1.75;
    r.baseline = true;
    r.baselineCall = "cv::medianBlur";
    r.metricName = "GFLOPS";
    r.metricValue = 99.5;
    r.maxError = 0.125;
    r.checkDetail = "C = A * B against the host";
    r.checked = true;
    r.maxAbsDiff = 1;
    r.meanAbsDiff = 0.0625;
    r.tolerance = 2;
    r.matches = true;
    r.expectedFailure = true;
    r.unavailable = true;
    r.warning = "ran with the variant's own block";
    r.error = "CL_OUT_OF_RESOURCES while launching";
    r.errorCode = "CL_OUT_OF_RESOURCES";
    r.buildLog = "warning: unused variable";
    return r;
}

// The device the suites run on: $FWB_TEST_DEVICE if set (a filter-bench --device spec), else the
// default device (PoCL on a machine without a GPU). Returns false when no OpenCL platform exists.
inline bool testDevice(DeviceInfo &out)
{
    const std::vector<DeviceInfo> devices = listDevices();
    if (devices.empty())
        return false;
    const char *spec = std::getenv("FWB_TEST_DEVICE");
    out = selectDevice(devices, spec ? spec : "");
    return true;
}

// One timed repeat, no warm-up, no single-threaded timing (checked, output kept): what a correctness
// test needs.
inline RunRequest oneShotRequest(const std::string &filter, const std::string &variant,
                                 PixelFormat format = PixelFormat::Gray8)
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

// "WxH: error '...' max diff N (tolerance T)" and the build log, for QVERIFY2 messages.
inline QByteArray describe(const RunResult &r, int w, int h)
{
    return QByteArray::number(w) + "x" + QByteArray::number(h) + ": error '" + QByteArray(r.error.c_str())
           + "' max diff " + QByteArray::number(r.maxAbsDiff) + " (tolerance " + QByteArray::number(r.tolerance) + ")"
           + (r.buildLog.empty() ? QByteArray() : "\n" + QByteArray(r.buildLog.c_str()));
}

inline LocalSize parseLocal(const QString &text)
{
    const auto local = LocalSize::parse(text.toStdString());
    return local ? *local : LocalSize{};
}

// ---- The CPU-reference table: one run per row against the single-threaded CPU oracle ------------
// A suite's matchesCpuReference_data() calls addReferenceColumns(), then addReferenceRows(filter) and
// addReferenceRow() for its parameter extremes; matchesCpuReference() calls verifyReferenceRow().

inline void addReferenceColumns()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("format"); // PixelFormat
    QTest::addColumn<int>("border"); // BorderMode
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::addColumn<QString>("param");      // "key=value" or empty
    QTest::addColumn<int>("maxAllowedDiff"); // -1: the filter's tolerance
}

inline void addReferenceRow(const QString &rowName, const QString &filter, const QString &variant, PixelFormat format,
                            BorderMode border, int width, int height, const QString &param, int maxAllowedDiff)
{
    QTest::newRow(rowName.toUtf8().constData()) << filter << variant << int(format) << int(border) << width << height << param
                                       << maxAllowedDiff;
}

// Every variant x format x border on 259x194; every variant x format on 1x1 and 7x5; every variant on
// 640x480 gray8 (filters without a border rule run reflect101 only).
inline void addReferenceRows(const char *name)
{
    const FilterSpec *filter = findFilter(name);
    QVERIFY2(filter, name);
    for (const VariantSpec &v : filter->variants) {
        // A variant built for small radii runs at its largest (the default radius may be beyond it): the
        // radius itself, or the sigma whose ceil(3 sigma) reach is that radius.
        const bool bySigma = std::any_of(filter->params.begin(), filter->params.end(),
                                         [](const ParamSpec &p) { return p.key == "sigma"; });
        QString param;
        if (v.maxRadius > 0)
            param = bySigma ? QString("sigma=%1").arg((v.maxRadius - 0.05) / 3.0, 0, 'f', 4)
                            : QString("radius=%1").arg(v.maxRadius);
        for (PixelFormat format : allPixelFormats()) {
            const std::vector<BorderMode> borders =
                filter->hasBorder ? allBorderModes() : std::vector<BorderMode>{BorderMode::Reflect101};
            for (BorderMode border : borders)
                addReferenceRow(QString::asprintf("%s/%s/%s/%s/259x194", name, v.name.c_str(), formatName(format),
                                                     borderModeName(border)),
                                name, QString::fromStdString(v.name), format, border, 259, 194, param, -1);
            for (auto [w, h] : {std::pair{1, 1}, std::pair{7, 5}})
                addReferenceRow(QString::asprintf("%s/%s/%s/%dx%d", name, v.name.c_str(), formatName(format), w, h),
                                name, QString::fromStdString(v.name), format, BorderMode::Reflect101, w, h, param,
                                -1);
        }
        addReferenceRow(QString::asprintf("%s/%s/gray8/640x480", name, v.name.c_str()), name,
                        QString::fromStdString(v.name), PixelFormat::Gray8, BorderMode::Reflect101, 640, 480,
                        param, -1);
    }
}

// Runs the current row and checks it: within the tolerance (the filter's, or the row's own), or
// listed-not-run with a non-uniform / OpenCL C 2.0 reason where the device lacks what it needs.
inline void verifyReferenceRow(Session &session, const DeviceInfo &device)
{
    QFETCH(QString, filter);
    QFETCH(QString, variant);
    QFETCH(int, format);
    QFETCH(int, border);
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(QString, param);
    QFETCH(int, maxAllowedDiff);

    const FilterSpec *spec = findFilter(filter.toStdString());
    QVERIFY(spec);
    const VariantSpec *variantSpec = spec->variant(variant.toStdString());
    QVERIFY(variantSpec);
    RunRequest request = oneShotRequest(filter.toStdString(), variant.toStdString(), PixelFormat(format));
    request.check = true;
    request.keepOutput = false;
    request.params.border = BorderMode(border);
    if (!param.isEmpty())
        QCOMPARE(applyParam(*spec, request.params, param.toStdString()), std::string());

    const RunResult r = session.run(makeTestCard(width, height, PixelFormat(format)), request);
    const std::string reason = variantUnavailableReason(*variantSpec, device, PixelFormat(format));
    if (!reason.empty()) {
        // nonuniform_cl20 on a device without non-uniform work-groups (PoCL): listed, not run.
        QVERIFY(r.unavailable);
        QCOMPARE(r.error, reason);
        QVERIFY2(reason.find("non-uniform") != std::string::npos || reason.find("OpenCL C 2.0") != std::string::npos
                     || (!variantSpec->formats.empty() && reason.find("does not support") != std::string::npos),
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

// ---- The all-sizes table: one row per variant x format, the sizes run inside the row -------------
// Rows are grouped so each program (file + defines) is built once: PoCL compiles take 1-2 s each.

inline RunResult runOnTestCard(Session &session, const RunRequest &request, int width, int height)
{
    return session.run(makeTestCard(width, height, request.params.format), request);
}

inline void addAllSizesColumns()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("format");
}

inline void addAllSizesRows(const char *name)
{
    const FilterSpec *filter = findFilter(name);
    QVERIFY2(filter, name);
    for (PixelFormat f : allPixelFormats())
        for (const VariantSpec &v : filter->variants) {
            const QByteArray row = QByteArray(name) + "/" + v.name.c_str() + "/" + formatName(f);
            QTest::newRow(row.constData()) << QString(name) << QString::fromStdString(v.name) << int(f);
        }
}

// 259x194, 1x1, 7x5 and 17x16 (plus 640x480 in gray8), each within the filter's tolerance.
inline void verifyAllSizesRow(Session &session)
{
    QFETCH(QString, filter);
    QFETCH(QString, variant);
    QFETCH(int, format);
    const PixelFormat fmt = PixelFormat(format);
    std::vector<std::pair<int, int>> sizes = {{259, 194}, {1, 1}, {7, 5}, {17, 16}};
    if (fmt == PixelFormat::Gray8)
        sizes.emplace_back(640, 480);
    const RunRequest req = oneShotRequest(filter.toStdString(), variant.toStdString(), fmt);
    for (const auto &[w, h] : sizes) {
        const RunResult r = runOnTestCard(session, req, w, h);
        QVERIFY2(r.ok(), describe(r, w, h).constData());
        QVERIFY2(r.checked && r.matches, describe(r, w, h).constData());
    }
}

// ---- The block edges of multi-pixel rungs: one table for every family -----------------------------
// A variant that computes a block of pixels per work-item (the roofline rungs) guards the partial
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
    std::vector<std::pair<int, int>> sizes = {{1, 1}, {7, 5}, {33, 17}, {259, 194}, {640, 480}};
    for (int w = 1; w <= 40; ++w)
        for (int h : {1, 3, 9, 17})
            sizes.emplace_back(w, h);
    for (const auto &[w, h] : sizes) {
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
    if (gpuW != spec_v.blockWidthFor(PixelFormat(format), true) && BorderMode(border) == BorderMode::Reflect101) {
        RunRequest gpu = request;
        gpu.block = LocalSize{gpuW, spec_v.blockHeight};
        std::vector<std::pair<int, int>> gpuSizes = {{1, 1}, {7, 5}, {33, 17}, {259, 194}};
        for (int w = 1; w <= 40; ++w)
            gpuSizes.emplace_back(w, 9);
        for (const auto &[w, h] : gpuSizes) {
            const RunResult r = runOnTestCard(session, gpu, w, h);
            const QByteArray what = "GPU block " + QByteArray::number(gpuW) + "x" + QByteArray::number(spec_v.blockHeight)
                                    + ", " + describe(r, w, h);
            QVERIFY2(r.ok() && r.checked, what.constData());
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

// QSKIP only when there is no OpenCL platform at all (the one allowed reason to skip).
#define FWB_REQUIRE_DEVICE(var)                                                                      \
    fwb::DeviceInfo var;                                                                             \
    if (!fwb::test::testDevice(var))                                                                 \
        QSKIP("no OpenCL platform on this machine");
