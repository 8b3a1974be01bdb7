// gaussian (separable, any sigma): every variant x format x border against the single-threaded CPU
// reference (the variant table of FamilyTables.h), sigma extremes, and the block edges.
#include "Catalogue.h"
#include "Session.h"
#include "FamilyTables.h"
#include "SessionSuite.h"
#include "StreamForms.h"

#include <memory>

using namespace fwb;
using namespace fwb::test;

namespace {

// A rung whose tile is its work-group (tiled_half2, tensor_f16) at sigma 2 in one work-group shape: on noise (every
// byte its own, so a wrong neighbour, channel or operand layout fails), at `sizes` and every width to 40 at heights
// 3 and 65, rows padded and packed (zero copy: the byte-by-byte path at every chunk); the shape asked is the shape
// run, and NVIDIA's architecture is in the options exactly where the variant uses it and the device has one.
void verifyTileShape(Session &session, const DeviceInfo &device, const char *variant, const QString &local,
                     BorderMode border, PixelFormat format, EdgeSizes sizes)
{
    const FilterSpec &filter = *findFilter("gaussian");
    RunRequest request = oneShotRequest("gaussian", variant, format);
    request.params.border = border;
    QCOMPARE(applyParam(filter, request.params, "sigma=2"), std::string());
    const auto shape = LocalSize::parse(local.toStdString());
    QVERIFY(shape);
    request.local = *shape;
    request.keepOutput = false;
    std::vector<RunRequest> layouts{request, request};
    layouts.back().transfer = TransferMode::ZeroCopy;
    const bool arch = filter.variant(variant)->usesNvidiaArch && device.nvidiaComputeCapability > 0;
    std::uint32_t seed = 5;
    for (const RunRequest &each : layouts)
        for (const auto &[w, h] : withEveryWidthTo40(sizes, {3, 65})) {
            const RunResult r = session.run(noiseImage(w, h, seed++, format), each);
            QVERIFY2(r.ok() && r.checked && r.matches, describe(r, w, h).constData());
            QCOMPARE(QString::fromStdString(r.local.toString()), local);
            QCOMPARE(r.buildOptions.find("-DFWB_NV_SM=") != std::string::npos, arch);
        }
}

} // namespace

class TestGaussian : public fwb::test::FamilySuite
{
    Q_OBJECT

private slots:
    void matchesCpuReference_data();
    void fusedLocalBlockEdges_data();
    void fusedLocalBlockEdges();
    void stripsUnavailableAboveItsRadius();
    void tiledHalf2Shapes_data();
    void tiledHalf2Shapes();
    void tiledHalf2Forms_data();
    void tiledHalf2Forms();
    void tensorShapes_data();
    void tensorShapes();
};

void TestGaussian::matchesCpuReference_data()
{
    addReferenceColumns();
    addVariantRows("gaussian");
    // Parameter extremes: the smallest and a large sigma.
    for (const char *variant : {"separable", "separable_local", "fused_local"}) {
        addReferenceRow(QString::asprintf("gaussian/%s/sigma0.3", variant), "gaussian", variant, PixelFormat::Gray8,
                        BorderMode::Reflect101, 259, 194, "sigma=0.3", -1);
        addReferenceRow(QString::asprintf("gaussian/%s/sigma7.5", variant), "gaussian", variant,
                        PixelFormat::Rgba8888, BorderMode::Replicate, 259, 194, "sigma=7.5", -1);
    }
    // strips (radius <= 8): every radius from 1 to 8, both formats; its refusal beyond.
    for (const char *sigma : {"0.3", "0.6", "1", "1.3", "1.6", "2", "2.3", "2.65"})
        for (PixelFormat format : {PixelFormat::Gray8, PixelFormat::Rgba8888})
            addReferenceRow(QString::asprintf("gaussian/strips/%s/sigma%s", formatName(format), sigma), "gaussian",
                            "strips", format, BorderMode::Reflect101, 67, 45, QString("sigma=") + sigma, -1);
    // strips_half2 (radius <= 6, its 16-bit column pass within one level): every radius from 1 to 6, both
    // formats, at a height that takes two of its 64-row strips and part of a third.
    for (const char *sigma : {"0.3", "0.6", "1", "1.3", "1.6", "2"})
        for (PixelFormat format : {PixelFormat::Gray8, PixelFormat::Rgba8888})
            addReferenceRow(QString::asprintf("gaussian/strips_half2/%s/sigma%s", formatName(format), sigma),
                            "gaussian", "strips_half2", format, BorderMode::Replicate, 67, 145,
                            QString("sigma=") + sigma, -1);
    // tiled_half2 (gray8 and rgba8888, radius <= 6): every radius from 1 to 6 at a height of two 64-row tiles and
    // part of a third (rgba8888's halo is one 16-byte chunk a side up to radius 4, two from 5).
    for (const char *sigma : {"0.3", "0.6", "1", "1.3", "1.6", "2"})
        for (PixelFormat format : {PixelFormat::Gray8, PixelFormat::Rgba8888})
            addReferenceRow(QString::asprintf("gaussian/tiled_half2/%s/sigma%s", formatName(format), sigma), "gaussian",
                            "tiled_half2", format, BorderMode::Replicate, 67, 145, QString("sigma=") + sigma, -1);
    // tensor_f16 (gray8 and rgba8888, radius <= 6; the variant table above runs radius 6): a channel's window is 8
    // pixels a side at every radius, the tap matrix's band narrower (radius 1, 2, 4); heights past two 64-row tiles
    // (rows read and written by stepped pointers in between), widths past two 16-pixel columns.
    for (const auto &[format, sigma] : std::vector<std::pair<PixelFormat, const char *>>{
             {PixelFormat::Gray8, "0.3"}, {PixelFormat::Rgba8888, "0.6"}, {PixelFormat::Rgba8888, "1.3"}})
        addReferenceRow(QString::asprintf("gaussian/tensor_f16/%s/sigma%s", formatName(format), sigma), "gaussian",
                        "tensor_f16", format, BorderMode::Replicate, 67, 211, QString("sigma=") + sigma, -1);
}

void TestGaussian::fusedLocalBlockEdges_data()
{
    addBlockEdgeColumns();
    addBlockEdgeRows("gaussian", "fused_local", {"sigma=0.3", "sigma=2", "sigma=7.5"});
    // strips: radius 3 (the first with halo words), 6 (sigma 2) and 8 (its largest).
    addBlockEdgeRows("gaussian", "strips", {"sigma=1", "sigma=2", "sigma=2.65"}, -1, true);
    addBlockEdgeRows("gaussian", "strips_half2", {"sigma=1", "sigma=2"}, -1, true);
    addBlockEdgeRows("gaussian", "tiled_half2", {"sigma=1", "sigma=2"});
    addBlockEdgeRows("gaussian", "tensor_f16", {"sigma=2"});
}

void TestGaussian::fusedLocalBlockEdges()
{
    verifyBlockEdgeRow(*m_session);
}

// sigma 2.7 reaches radius 9: strips keeps 2r rows of results in registers and stops at radius 8.
void TestGaussian::stripsUnavailableAboveItsRadius()
{
    verifyUnavailable(*m_session, "gaussian", "strips", PixelFormat::Gray8, "sigma=2.7", "radius up to 8");
    // sigma 2.1 reaches radius 7: strips_half2's error bound holds up to radius 6.
    verifyUnavailable(*m_session, "gaussian", "strips_half2", PixelFormat::Rgba8888, "sigma=2.1", "radius up to 6");
    verifyUnavailable(*m_session, "gaussian", "tiled_half2", PixelFormat::Gray8, "sigma=2.1", "radius up to 6");
    verifyUnavailable(*m_session, "gaussian", "tiled_half2", PixelFormat::Rgba8888, "sigma=2.1", "radius up to 6");
    verifyUnavailable(*m_session, "gaussian", "tiled_half2", PixelFormat::Rgb888, "sigma=2", "rgba8888");
    verifyUnavailable(*m_session, "gaussian", "tensor_f16", PixelFormat::Gray8, "sigma=2.1", "radius up to 6");
    verifyUnavailable(*m_session, "gaussian", "tensor_f16", PixelFormat::Rgb888, "sigma=2", "rgba8888");
}

// tiled_half2's tile is its work-group (TILE_W pixels by TILE_H x 64 rows): the GPU's 64x2 (four row segments
// in the column pass) and other shapes than this device's 64x1, every border (verifyTileShape above).
void TestGaussian::tiledHalf2Shapes_data()
{
    QTest::addColumn<QString>("local");
    QTest::addColumn<int>("border");
    QTest::addColumn<int>("format");
    // rgba8888: 64x2 is one row segment (as many pair columns as work-items), 16x4 two, 32x1 two pair columns
    // a work-item; 4x4 a tile 16 bytes across.
    for (PixelFormat format : {PixelFormat::Gray8, PixelFormat::Rgba8888})
        for (const char *local : {"64x2", "16x4", "32x1", "4x4"})
            for (BorderMode border : allBorderModes())
                if (format == PixelFormat::Rgba8888 || std::string(local) != "4x4") // gray8 needs 16 pixels across
                    QTest::newRow((std::string(formatName(format)) + "/" + local + "/" + borderModeName(border)).c_str())
                        << QString(local) << int(border) << int(format);
}

void TestGaussian::tiledHalf2Shapes()
{
    QFETCH(QString, local);
    QFETCH(int, border);
    QFETCH(int, format);
    verifyTileShape(*m_session, m_device, "tiled_half2", local, BorderMode(border), PixelFormat(format), {{1, 1}, {67, 129}, {259, 37}});
}

// tiled_half2's forms that no device takes by default but the measurements switch on (FWB_EXTRA_BUILD_OPTIONS):
// the column tasks the other width for each layout (GT_PC), bytes entering as 1 + b / 32768 (GT_MANT); row tasks
// two chunks wide (GT_SPAN, in gray8 from 32 pixels across); on noise (every byte its own, so a wrong neighbour or channel fails), every
// border (GT_MANT, which changes only the arithmetic, under one), odd sizes, rows padded and packed. The
// layouts' own GT_PC (1 gray8, 2 rgba8888) is every device's default, which the rows above test.
void TestGaussian::tiledHalf2Forms_data()
{
    QTest::addColumn<QString>("options");
    QTest::addColumn<int>("format");
    QTest::addColumn<int>("border");
    const auto add = [](const std::string &options, PixelFormat format, BorderMode border) {
        QTest::newRow((options + "/" + formatName(format) + "/" + borderModeName(border)).c_str())
            << QString::fromStdString(options) << int(format) << int(border);
    };
    for (BorderMode border : allBorderModes()) {
        add("-DGT_PC=2", PixelFormat::Gray8, border);
        add("-DGT_PC=1", PixelFormat::Rgba8888, border);
    }
    for (PixelFormat format : {PixelFormat::Gray8, PixelFormat::Rgba8888})
        add("-DGT_MANT=1", format, BorderMode::Replicate);
}

void TestGaussian::tiledHalf2Forms()
{
    QFETCH(QString, options);
    QFETCH(int, format);
    QFETCH(int, border);
    const ExtraBuildOptions extra(options);
    RunRequest request = oneShotRequest("gaussian", "tiled_half2", PixelFormat(format));
    request.params.border = BorderMode(border);
    QCOMPARE(applyParam(*findFilter("gaussian"), request.params, "sigma=2"), std::string());
    // Tiles 32 (gray8) and 64 bytes across: two row tasks' chunks each, several row segments in the column pass.
    request.local = format == int(PixelFormat::Gray8) ? LocalSize{32, 2} : LocalSize{16, 2};
    request.keepOutput = false;
    std::vector<RunRequest> layouts{request, request, request};
    layouts[1].transfer = TransferMode::ZeroCopy; // rows packed: the byte-by-byte path at every chunk
    layouts[2].block = LocalSize{1, 16};          // the GPU's rgba8888 rows a work-item
    std::uint32_t seed = 11;
    for (const RunRequest &each : layouts)
        for (const auto &[w, h] : std::vector<std::pair<int, int>>{{1, 1}, {17, 3}, {37, 131}, {67, 9}}) {
            const RunResult r = m_session->run(noiseImage(w, h, seed++, PixelFormat(format)), each);
            QVERIFY2(r.ok() && r.checked && r.matches, describe(r, w, h).constData());
            QVERIFY2(r.buildOptions.find(options.toStdString()) != std::string::npos, r.buildOptions.c_str());
        }
}

// tensor_f16's tile is its work-group (TILE_W pixels by TILE_H x 64 rows), cut into columns 16 pixels across that
// its warps (32 work-items each) take in turn or split into row segments: the GPUs' 128x1 (8 columns for 4 warps),
// 64x2 (4 columns, 4 warps), one warp for two columns (32x1), one column split between two warps (16x4), in both
// layouts, a border each (verifyTileShape above). Here (no tensor cores) every product runs through
// local memory from the operands the tensor cores would get.
void TestGaussian::tensorShapes_data()
{
    QTest::addColumn<QString>("local");
    QTest::addColumn<int>("border");
    QTest::addColumn<int>("format");
    const auto add = [](PixelFormat format, const char *local, BorderMode border) {
        QTest::newRow((std::string(formatName(format)) + "/" + local + "/" + borderModeName(border)).c_str())
            << QString(local) << int(border) << int(format);
    };
    add(PixelFormat::Gray8, "128x1", BorderMode::Reflect101);
    add(PixelFormat::Gray8, "16x4", BorderMode::Constant);
    add(PixelFormat::Rgba8888, "64x2", BorderMode::Replicate);
    add(PixelFormat::Rgba8888, "32x1", BorderMode::Reflect101);
    add(PixelFormat::Rgba8888, "16x4", BorderMode::Constant);
}

void TestGaussian::tensorShapes()
{
    QFETCH(QString, local);
    QFETCH(int, border);
    QFETCH(int, format);
    verifyTileShape(*m_session, m_device, "tensor_f16", local, BorderMode(border), PixelFormat(format), {{1, 1}, {67, 211}, {259, 37}});
}

QTEST_GUILESS_MAIN(TestGaussian)
#include "tst_gaussian.moc"
