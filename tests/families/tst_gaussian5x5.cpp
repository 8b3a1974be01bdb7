// Gaussian 5x5: every variant x pixel format x border mode against the single-threaded CPU reference
// (tolerance: the filter's stated ±1 per 8-bit channel), the block edges, the weights reaching the
// kernel, the refusals, and the vectorized variant's every width remainder.
#include "Catalogue.h"
#include "Session.h"
#include "FamilyTables.h"
#include "SessionSuite.h"
#include "StreamForms.h"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QUuid>

#include <cstring>
#include <memory>

using namespace fwb;
using namespace fwb::test;

class TestGaussian5x5 : public fwb::test::FamilySuite
{
    Q_OBJECT

private slots:
    void matchesCpuReference_data();
    void stripsBlockEdges_data();
    void stripsBlockEdges();
    void blocksNarrowerThanTheReach();
    void streamIsStripsHalf2Exactly();
    void stripsHalf2RgbaRowsAsNvidiaUnrollsThem();
    void streamEndsRolledSameBytes();
    void streamRolledOnCpuSameBytesFasterBuild();
    void sigmaChangesResult();
    void unavailableVariantsSayWhy();
    void cpuSingleAndMultiAgree();
    void vectorizedEveryWidthRemainder();
    void vectorizedLaunchesQuarterWidth();
};

// Every variant x format x border from the catalogue, at sigma 1.3 (the block-edge rows' programs).
void TestGaussian5x5::matchesCpuReference_data()
{
    addReferenceColumns();
    addVariantRows("gaussian5x5", {.param = "sigma=1.3"});
}

void TestGaussian5x5::sigmaChangesResult()
{
    RunRequest request = oneShotRequest("gaussian5x5", "unrolled_constant");
    const Image input = makeTestCard(64, 48, PixelFormat::Gray8);
    request.params.values["sigma"] = 0.5;
    const RunResult narrow = m_session->run(input, request);
    request.params.values["sigma"] = 3.0;
    const RunResult wide = m_session->run(input, request);
    QVERIFY2(narrow.ok() && wide.ok(), (narrow.error + wide.error).c_str());
    QVERIFY(narrow.matches && wide.matches);
    QVERIFY(maxAbsDiff(narrow.output, wide.output) > 10); // the weights really reach the kernel
}

void TestGaussian5x5::unavailableVariantsSayWhy()
{
    verifyUnavailable(*m_session, "gaussian5x5", "image2d", PixelFormat::Rgb888, "", "rgb888");
}

// The multi-threaded fast path (fixed point) is within the filter's ±1 of the single-threaded oracle; the
// exact multi-threaded path that checks use (cpuExact) is bit-identical to it, and a run's check uses
// that one: a device output one level above the oracle still matches where the fast path is one below.
void TestGaussian5x5::cpuSingleAndMultiAgree()
{
    const FilterSpec *filter = findFilter("gaussian5x5");
    QVERIFY(filter && filter->cpuExact);
    FilterParams params;
    params.format = PixelFormat::Rgba8888;
    const Image input = makeTestCard(301, 97, PixelFormat::Rgba8888);
    Image single(301, 97, PixelFormat::Rgba8888), multi(301, 97, PixelFormat::Rgba8888),
        exact(301, 97, PixelFormat::Rgba8888);
    filter->cpuReference(input, single, params, 1);
    filter->cpuReference(input, multi, params, 7);
    filter->oracleBytes(input, exact, params, 7);
    QVERIFY(maxAbsDiff(single, multi) <= filter->tolerance);
    QCOMPARE(maxAbsDiff(single, exact), 0);
    QVERIFY(maxAbsDiff(single, input) > 0);
    QCOMPARE(maxAbsDiff(m_session->checkReference(input, *filter, params, 7), single), 0);
    // A run that checks without the single-threaded timing reports its difference from the oracle, not
    // from the fast path (which differs from the oracle on this card).
    QVERIFY(maxAbsDiff(single, multi) > 0);
    RunRequest request = oneShotRequest("gaussian5x5", "unrolled_constant", PixelFormat::Rgba8888);
    const RunResult r = m_session->run(input, request);
    QVERIFY2(r.ok(), r.error.c_str());
    QVERIFY(r.checked);
    double meanFromOracle = 0, meanFromFast = 0;
    QCOMPARE(r.maxAbsDiff, maxAbsDiff(r.output, single, &meanFromOracle));
    maxAbsDiff(r.output, multi, &meanFromFast);
    QCOMPARE(r.meanAbsDiff, meanFromOracle);
    QVERIFY(meanFromFast != meanFromOracle); // else this would not tell which one the check used
}

// The vectorized variant switches between wide loads and the per-pixel border path by column, and
// stores a last partial group of four pixel by pixel: widths 1..13 hit every remainder of 4 and every
// mix of left edge, right edge and interior groups (the sizes above only hit remainders 1, 3 and 0).
void TestGaussian5x5::vectorizedEveryWidthRemainder()
{
    const FilterSpec *filter = findFilter("gaussian5x5");
    const VariantSpec *spec = filter->variant("vectorized");
    QVERIFY(spec);
    for (PixelFormat f : allPixelFormats()) {
        if (!variantUnavailableReason(*spec, m_device, f).empty())
            continue;
        for (BorderMode b : allBorderModes())
            for (int width = 1; width <= 13; ++width) {
                RunRequest request = oneShotRequest("gaussian5x5", "vectorized");
                request.params.format = f;
                request.params.border = b;
                request.params.values["sigma"] = 2.0;
                const RunResult r = m_session->run(makeTestCard(width, 6, f), request);
                const std::string where = std::string(formatName(f)) + "/" + borderModeName(b) + "/width "
                                          + std::to_string(width) + ": ";
                QVERIFY2(r.ok(), (where + r.error + "\n" + r.buildLog).c_str());
                QVERIFY2(r.matches, (where + "max diff " + std::to_string(r.maxAbsDiff)).c_str());
            }
    }
}

// Geometry::PixelsX4: ceil(W/4) x H work-items, rounded up to the work-group shape like any other
// 2-D launch, while GB/s still counts the image's W x H pixels in and out.
void TestGaussian5x5::vectorizedLaunchesQuarterWidth()
{
    RunRequest request = oneShotRequest("gaussian5x5", "vectorized");
    request.local = LocalSize::driverChoice(); // the runtime picks: the exact NDRange is launched
    const Image input = makeTestCard(259, 194, PixelFormat::Gray8);
    const RunResult autoShape = m_session->run(input, request);
    QVERIFY2(autoShape.ok(), autoShape.error.c_str());
    QCOMPARE(autoShape.global[0], std::size_t(65)); // ceil(259 / 4)
    QCOMPARE(autoShape.global[1], std::size_t(194));
    QCOMPARE(autoShape.localSource, LocalSource::Driver);
    QCOMPARE(autoShape.bytesMoved, 2.0 * 259 * 194);
    QVERIFY(autoShape.matches);
    request.local = LocalSize{16, 8};
    const RunResult shaped = m_session->run(input, request);
    QVERIFY2(shaped.ok(), shaped.error.c_str());
    QCOMPARE(shaped.global[0], std::size_t(80)); // 65 rounded up to 16
    QCOMPARE(shaped.global[1], std::size_t(200)); // 194 rounded up to 8
    QVERIFY(shaped.matches);
    QCOMPARE(shaped.localSource, LocalSource::User);
    // auto: the project's concrete shape for the device, the global size rounded up to it.
    request.local = LocalSize{};
    const RunResult byDefault = m_session->run(input, request);
    QVERIFY2(byDefault.ok(), byDefault.error.c_str());
    QCOMPARE(byDefault.localSource, LocalSource::Default);
    QVERIFY(byDefault.local.isConcrete());
    QCOMPARE(byDefault.global[0] % std::size_t(byDefault.local.width), std::size_t(0));
    QCOMPARE(byDefault.global[1] % std::size_t(byDefault.local.height), std::size_t(0));
    QVERIFY(byDefault.global[0] >= 65 && byDefault.global[1] >= 194);
    QVERIFY(byDefault.matches);
}

void TestGaussian5x5::stripsBlockEdges_data()
{
    addBlockEdgeColumns();
    addBlockEdgeRows("gaussian5x5", "strips", {"sigma=1.3"}, -1, true);
    // sigma 0.45: the outer taps are 16-bit subnormals (the column pass's taps / 255 too).
    addBlockEdgeRows("gaussian5x5", "strips_half2", {"sigma=1.3", "sigma=0.45", "sigma=10"}, -1, true);
    addBlockEdgeRows("gaussian5x5", "cpu_rows", {"sigma=1.3", "sigma=0.3", "sigma=10"});
    addBlockEdgeRows("gaussian5x5", "stream", {"sigma=1.3", "sigma=0.45"}, -1, true);
}

void TestGaussian5x5::stripsBlockEdges()
{
    verifyBlockEdgeRow(*m_session);
}

// rgba8888 blocks of one pixel (`run --block 1x8`, a tuner candidate) are narrower than the 2-pixel reach:
// the strip at x = 1 used to load its left halo from before the row (the previous row's last bytes).
void TestGaussian5x5::blocksNarrowerThanTheReach()
{
    for (const char *variant : {"strips", "strips_half2"})
        for (BorderMode border : allBorderModes())
            for (const auto &[w, h] : std::vector<std::pair<int, int>>{{1, 1}, {2, 3}, {5, 3}, {6, 2}, {37, 11}}) {
                RunRequest request = oneShotRequest("gaussian5x5", variant);
                request.params.format = PixelFormat::Rgba8888;
                request.params.border = border;
                request.block = LocalSize{1, 8};
                const RunResult r = runOnTestCard(*m_session, request, w, h);
                const QByteArray what = QByteArray(variant) + "/" + borderModeName(border) + " " + describe(r, w, h);
                QVERIFY2(r.ok() && r.checked && r.matches, what.constData());
            }
}

// The stream rung does strips_half2's arithmetic operation for operation: the same bytes, not only within
// the tolerance, on every layout and border, at a size with inside strips, both row ends and a moved
// strip before the right end (rows of 35 and 33 bytes / 4-byte pixels).
void TestGaussian5x5::streamIsStripsHalf2Exactly()
{
    for (PixelFormat format : {PixelFormat::Gray8, PixelFormat::Rgba8888})
        for (BorderMode border : allBorderModes())
            for (const auto &[w, h] : std::vector<std::pair<int, int>>{{259, 37}, {35, 9}, {33, 6}}) {
                RunRequest half2 = oneShotRequest("gaussian5x5", "strips_half2", format);
                half2.params.border = border;
                RunRequest stream = half2;
                stream.variant = "stream";
                const RunResult a = runOnTestCard(*m_session, half2, w, h);
                const RunResult b = runOnTestCard(*m_session, stream, w, h);
                const QByteArray what = QByteArray(formatName(format)) + "/" + borderModeName(border) + " " + describe(b, w, h);
                QVERIFY2(a.ok() && b.ok(), what.constData());
                QVERIFY2(a.output.width() == b.output.width() && a.output.height() == b.output.height(), what.constData());
                for (int y = 0; y < h; ++y)
                    QVERIFY2(std::memcmp(a.output.row(y), b.output.row(y), std::size_t(w) * std::size_t(channelCount(format))) == 0,
                             (what + " row " + QByteArray::number(y)).constData());
            }
}

// strips_half2 rgba8888 as NVIDIA builds it: its row loop unrolled 4 times (SS_ROW_UNROLL_RGBA, kernels/shared/
// separable_strips.clh, where the 16-bit arithmetic is native: FWB_UNROLL_EMULATED) gives the CPU form's bytes,
// at sizes whose strips end before, on and past a multiple of 4 rows.
void TestGaussian5x5::stripsHalf2RgbaRowsAsNvidiaUnrollsThem()
{
    for (BorderMode border : allBorderModes())
        for (const auto &[w, h] : std::vector<std::pair<int, int>>{{259, 37}, {35, 9}, {6, 2}, {17, 13}}) {
            RunRequest request = oneShotRequest("gaussian5x5", "strips_half2", PixelFormat::Rgba8888);
            request.params.border = border;
            const RunResult plain = runOnTestCard(*m_session, request, w, h);
            RunResult nvidia;
            {
                const ExtraBuildOptions extra("-DFWB_UNROLL_EMULATED=1");
                nvidia = runOnTestCard(*m_session, request, w, h);
            }
            const QByteArray what = QByteArray(borderModeName(border)) + " " + describe(nvidia, w, h);
            QVERIFY2(plain.ok() && nvidia.ok() && nvidia.checked && nvidia.matches, what.constData());
            QVERIFY2(nvidia.buildOptions.find("-DFWB_UNROLL_EMULATED=1") != std::string::npos
                         && nvidia.buildOptions.find("SS_ROW_UNROLL_RGBA=4") != std::string::npos,
                     nvidia.buildOptions.c_str());
            for (int y = 0; y < h; ++y)
                QVERIFY2(std::memcmp(plain.output.row(y), nvidia.output.row(y), std::size_t(w) * 4) == 0,
                         (what + " row " + QByteArray::number(y)).constData());
        }
}

void TestGaussian5x5::streamEndsRolledSameBytes() { verifyStreamEndsRolled(*m_session, "gaussian5x5"); }

// The kernel folder copied into `dir` with `prefix` before stream3x3.clh's first line and a declaration no
// other build has (so that PoCL's own kernel cache has none of its programs: each first run builds cold;
// PoCL keys its cache by the preprocessed source, so a comment would not do).
static bool copyKernels(const QString &dir, const QByteArray &prefix)
{
    const QString from = QStringLiteral(FWB_TEST_DATA_DIR "/../../kernels");
    const QByteArray nonce = "typedef int fwb_nonce_" + QUuid::createUuid().toByteArray(QUuid::Id128) + ";\n";
    for (QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
        const QString path = it.next();
        const QString to = dir + "/" + QDir(from).relativeFilePath(path);
        QFile in(path), out(to);
        if (!QDir().mkpath(QFileInfo(to).path()) || !in.open(QIODevice::ReadOnly) || !out.open(QIODevice::WriteOnly))
            return false;
        const bool stream3x3 = path.endsWith("shared/stream3x3.clh");
        out.write((stream3x3 ? prefix : QByteArray()) + (path.endsWith(".cl") ? nonce : QByteArray()) + in.readAll());
    }
    return QFile::exists(dir + "/gaussian5x5/gaussian5x5.cl");
}

// On a CPU device (PoCL) the streaming loop is compiled once with its rows rolled (S3_UNROLL_ROWS 0,
// stream3x3.clh), the GPU's form (a copy per row end, rows unrolled) took 4-5x as long to its first launch:
// both give the same bytes (the GPU's form is checked here, where no GPU runs the tests), and the rolled
// one builds and first launches cold in well under the unrolled one's time.
void TestGaussian5x5::streamRolledOnCpuSameBytesFasterBuild()
{
    if (m_device.kind != DeviceKind::Cpu)
        QSKIP("the rolled loop is the CPU device's form; a GPU's compiler is measured on the GPU");
    QTemporaryDir rolledDir, unrolledDir;
    QVERIFY(copyKernels(rolledDir.path(), {}) && copyKernels(unrolledDir.path(), "#define S3_UNROLL_ROWS 1\n"));
    Session rolled(m_device, SessionOptions{.cacheDir = "-", .kernelDir = rolledDir.path().toStdString()});
    Session unrolled(m_device, SessionOptions{.cacheDir = "-", .kernelDir = unrolledDir.path().toStdString()});
    // The first run of each: its cold build and first launch (a small picture: the launch is the compile).
    auto firstRunMs = [](Session &session, const RunRequest &request) {
        QElapsedTimer clock;
        clock.start();
        const RunResult r = runOnTestCard(session, request, 64, 48);
        return r.ok() ? double(clock.nsecsElapsed()) / 1e6 : -1.0;
    };
    RunRequest request = oneShotRequest("gaussian5x5", "stream", PixelFormat::Rgba8888);
    request.check = false;
    // PoCL's compiler loaded first (another program, cold too), so that neither timing pays for it.
    QVERIFY(firstRunMs(unrolled, oneShotRequest("gaussian5x5", "unrolled_constant", PixelFormat::Rgba8888)) > 0);
    const double unrolledMs = firstRunMs(unrolled, request), rolledMs = firstRunMs(rolled, request);
    qInfo("gaussian5x5 stream rgba8888, cold build and first launch: rolled %.0f ms, unrolled %.0f ms", rolledMs,
          unrolledMs);
    QVERIFY(rolledMs > 0 && unrolledMs > 0);
    QVERIFY2(rolledMs < 0.7 * unrolledMs, qPrintable(QString("rolled %1 ms, unrolled %2 ms").arg(rolledMs).arg(unrolledMs)));
    for (PixelFormat format : {PixelFormat::Gray8, PixelFormat::Rgba8888})
        for (BorderMode border : allBorderModes())
            for (const auto &[w, h] : std::vector<std::pair<int, int>>{{259, 37}, {35, 9}, {7, 5}}) {
                RunRequest each = oneShotRequest("gaussian5x5", "stream", format);
                each.check = true;
                each.params.border = border;
                const RunResult a = runOnTestCard(unrolled, each, w, h);
                const RunResult b = runOnTestCard(rolled, each, w, h);
                const QByteArray what = QByteArray(formatName(format)) + "/" + borderModeName(border) + " " + describe(b, w, h);
                QVERIFY2(a.ok() && b.ok() && a.matches && b.matches, what.constData());
                for (int y = 0; y < h; ++y)
                    QVERIFY2(std::memcmp(a.output.row(y), b.output.row(y), std::size_t(w) * std::size_t(channelCount(format))) == 0,
                             (what + " row " + QByteArray::number(y)).constData());
            }
}

QTEST_GUILESS_MAIN(TestGaussian5x5)
#include "tst_gaussian5x5.moc"
