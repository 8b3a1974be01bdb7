// The streaming rungs as NVIDIA builds them, checked on the CPU device the tests run on (no GPU in CI):
// kernels/shared/stream3x3.clh's rows unrolled (S3_UNROLL_ROWS, with a family's two-rows-a-step column pass
// where it has one) and its l/r views made by byte permutes (S3_VIEWS_BY_WORDS, emulated off NVIDIA), forced
// through FWB_EXTRA_BUILD_OPTIONS; PoCL's own form (rows rolled, the byte shuffle) is what the reference rows
// run. On noise (every byte independent, so a pass that picks the wrong neighbour fails), every border rule,
// every width to 40 and odd heights, rows padded and packed, and at the GPU's block where it differs.
#pragma once

#include "Catalogue.h"
#include "FamilyTables.h"
#include "Image.h"
#include "Session.h"

#include <QtTest>
#include <algorithm>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace fwb::test {

// Independent 8-bit noise in every channel, alpha too (the test card's alpha is all 255, so a loop that
// ran or put back the wrong channel could pass there).
inline Image noiseImage(int w, int h, std::uint32_t seed, PixelFormat format = PixelFormat::Rgba8888)
{
    Image image(w, h, format);
    for (int y = 0; y < h; ++y)
        for (int i = 0; i < w * channelCount(format); ++i) {
            seed = seed * 1664525u + 1013904223u;
            image.row(y)[i] = std::uint8_t(seed >> 24);
        }
    return image;
}

// One row per layout the streaming rungs take (or those given) x border rule x parameter value ("" for none).
inline void addNvidiaStreamRows(const char *filter, const std::vector<const char *> &params = {""},
                                const std::vector<PixelFormat> &formats = {PixelFormat::Gray8, PixelFormat::Rgba8888})
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<int>("format");
    QTest::addColumn<int>("border");
    QTest::addColumn<QString>("param");
    for (const char *param : params)
        for (PixelFormat format : formats)
            for (BorderMode border : allBorderModes())
                QTest::newRow(QByteArray(filter) + "/" + formatName(format) + "/" + borderModeName(border) + "/" + param)
                    << QString(filter) << int(format) << int(border) << QString(param);
}

inline void verifyNvidiaStreamRow(Session &session)
{
    QFETCH(QString, filter);
    QFETCH(int, format);
    QFETCH(int, border);
    QFETCH(QString, param);
    const QString force = "-DS3_UNROLL_ROWS=1 -DS3_VIEWS_BY_WORDS=1";
    const ExtraBuildOptions extra(force);
    const FilterSpec &spec = *findFilter(filter.toStdString());
    RunRequest request = oneShotRequest(spec.name, "stream", PixelFormat(format));
    request.params.border = BorderMode(border);
    request.keepOutput = false;
    if (!param.isEmpty())
        QCOMPARE(applyParam(spec, request.params, param.toStdString()), std::string());
    std::vector<RunRequest> layouts{request, request};
    layouts.back().transfer = TransferMode::ZeroCopy;
    const VariantSpec &v = *spec.variant("stream");
    const int gpuW = v.blockWidthFor(PixelFormat(format), false), gpuH = v.blockHeightFor(PixelFormat(format), false);
    if (gpuW != v.blockWidthFor(PixelFormat(format), true) || gpuH != v.blockHeightFor(PixelFormat(format), true)) {
        layouts.push_back(request);
        layouts.back().block = LocalSize{gpuW, gpuH};
    }
    std::uint32_t seed = 7;
    for (const RunRequest &each : layouts)
        for (const auto &[w, h] : withEveryWidthTo40({{1, 1}, {67, 45}, {259, 37}, {40, 1}}, {2, 9})) {
            const RunResult r = session.run(noiseImage(w, h, seed++, PixelFormat(format)), each);
            const QByteArray what = QByteArray(r.transfer.c_str()) + ", block " + r.block.toString().c_str() + ", "
                                    + describe(r, w, h);
            QVERIFY2(r.ok() && r.checked && r.matches, what.constData());
            QVERIFY2(r.buildOptions.find(force.toStdString()) != std::string::npos, r.buildOptions.c_str());
        }
}

// NVIDIA's unrolled form with the row ends' strips in the rolled copy (S3_UNROLL_ENDS 0, stream3x3.clh; NVIDIA's
// build of median3x3's rgba8888, S3_UNROLL_ENDS_RGBA) gives the bytes of the form every strip of which has its own
// unrolled copy (S3_UNROLL_ENDS 1, NVIDIA's build of the others): both layouts, every border rule, every width to 40 and wider ones (right ends
// at each alignment, the 5x5's strip moved left), rows padded and packed (aligned and byte-aligned loads).
inline void verifyStreamEndsRolled(Session &session, const char *filter, const char *param = "")
{
    const FilterSpec &spec = *findFilter(filter);
    std::uint32_t seed = 23;
    for (PixelFormat format : {PixelFormat::Gray8, PixelFormat::Rgba8888})
        for (BorderMode border : allBorderModes())
            for (TransferMode transfer : {TransferMode::Pageable, TransferMode::ZeroCopy}) {
                RunRequest request = oneShotRequest(spec.name, "stream", format);
                request.params.border = border;
                request.transfer = transfer;
                request.keepOutput = true;
                const std::vector<std::string> &defines = spec.variant("stream")->defines;
                const int rolledByDefault = format == PixelFormat::Rgba8888
                                            && std::find(defines.begin(), defines.end(), "S3_UNROLL_ENDS_RGBA=0") != defines.end() ? 0 : 1;
                if (*param)
                    QCOMPARE(applyParam(spec, request.params, param), std::string());
                for (const auto &[w, h] : withEveryWidthTo40({{67, 45}, {259, 37}, {45, 3}}, {5})) {
                    const Image input = noiseImage(w, h, seed++, format);
                    RunResult each[2];
                    for (int ends = 0; ends < 2; ++ends) {
                        // verifyNvidiaStreamRow's options exactly, so the suites share those programs; the form
                        // not NVIDIA's for this layout named
                        const ExtraBuildOptions extra(QString("-DS3_UNROLL_ROWS=1 -DS3_VIEWS_BY_WORDS=1")
                                                      + (ends == rolledByDefault ? "" : ends ? " -DS3_UNROLL_ENDS=1" : " -DS3_UNROLL_ENDS=0"));
                        each[ends] = session.run(input, request);
                    }
                    const QByteArray what = QByteArray(formatName(format)) + "/" + borderModeName(border) + "/"
                                            + each[0].transfer.c_str() + " " + describe(each[0], w, h);
                    QVERIFY2(each[0].ok() && each[0].checked && each[0].matches && each[1].ok(), what.constData());
                    QVERIFY2(each[0].buildOptions.find(rolledByDefault ? "-DS3_UNROLL_ENDS=0" : "-DS3_UNROLL_ENDS_RGBA=0")
                                 != std::string::npos, what.constData());
                    QVERIFY2(rolledByDefault || each[1].buildOptions.find("-DS3_UNROLL_ENDS=1") != std::string::npos, what.constData());
                    for (int y = 0; y < h; ++y)
                        QVERIFY2(std::memcmp(each[0].output.row(y), each[1].output.row(y),
                                             std::size_t(w) * std::size_t(channelCount(format))) == 0,
                                 (what + " row " + QByteArray::number(y)).constData());
                }
            }
}

// The byte_strips.clh rungs' rgba8888 edge blocks gathered and stored by whole pixels (BS_PIXEL_GATHER: prepared
// for a GPU measurement, not built by default) give the reference's bytes: every border rule, noise in every
// channel, widths 1-40 and wider, at this device's block and at the GPU's where it differs.
inline void verifyPixelGather(Session &session, const char *filter, const char *variant, const char *param = "")
{
    const FilterSpec &spec = *findFilter(filter);
    const VariantSpec &v = *spec.variant(variant);
    const ExtraBuildOptions extra("-DBS_PIXEL_GATHER=1");
    const int gpuW = v.blockWidthFor(PixelFormat::Rgba8888, false), gpuH = v.blockHeightFor(PixelFormat::Rgba8888, false);
    const bool gpuDiffers = gpuW != v.blockWidthFor(PixelFormat::Rgba8888, true) || gpuH != v.blockHeightFor(PixelFormat::Rgba8888, true);
    std::uint32_t seed = 31;
    for (BorderMode border : allBorderModes())
        for (bool gpu : {false, true}) {
            if (gpu && !gpuDiffers)
                continue;
            RunRequest request = oneShotRequest(spec.name, variant, PixelFormat::Rgba8888);
            request.params.border = border;
            if (gpu)
                request.block = LocalSize{gpuW, gpuH};
            if (*param)
                QCOMPARE(applyParam(spec, request.params, param), std::string());
            for (const auto &[w, h] : withEveryWidthTo40({{1, 1}, {7, 5}, {33, 17}, {259, 37}}, {9})) {
                const RunResult r = session.run(noiseImage(w, h, seed++, PixelFormat::Rgba8888), request);
                const QByteArray what = QByteArray(borderModeName(border)) + (gpu ? " GPU block " : " ") + describe(r, w, h);
                QVERIFY2(r.ok() && r.checked && r.matches, what.constData());
                QVERIFY2(r.buildOptions.find("-DBS_PIXEL_GATHER=1") != std::string::npos, r.buildOptions.c_str());
            }
        }
}

} // namespace fwb::test
