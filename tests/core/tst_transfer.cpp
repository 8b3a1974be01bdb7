// Data movement: every transfer mode gives the reference's pixels (or says why it cannot run), tiles
// with halos give the untiled output byte for byte for every filter, the bandwidth probe measures,
// the resident image skips its upload, and a refused oversized run leaves the session usable.
#include "TestSupport.h"

#include "Catalogue.h"
#include "Image.h"
#include "Session.h"
#include "TileStream.h"

#include <QtTest>

#include <atomic>
#include <cstring>
#include <memory>
#include <vector>

using namespace fwb;
using namespace fwb::test;

class TestTransfer : public QObject
{
    Q_OBJECT

    DeviceInfo m_device;
    std::unique_ptr<Session> m_session;
    bool m_ok = false;

    RunResult run(const Image &image, RunRequest request)
    {
        return m_session->run(image, request);
    }

private slots:
    void initTestCase()
    {
        m_ok = testDevice(m_device);
        if (!m_ok)
            QSKIP("no OpenCL platform");
        m_session = std::make_unique<Session>(m_device);
    }

    void everyModeMatchesTheReference_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QString>("variant");
        QTest::addColumn<int>("format");
        QTest::addColumn<int>("mode");
        const struct { const char *filter, *variant; PixelFormat format; } cases[] = {
            {"gaussian5x5", "unrolled_constant", PixelFormat::Gray8},
            {"gaussian5x5", "image2d", PixelFormat::Rgba8888},
            {"box3x3_interior", "uniform_padded", PixelFormat::Gray8}, // output starts as a copy of the input
            {"gaussian", "separable", PixelFormat::Rgb888},    // float scratch buffers between passes
            {"transpose", "naive", PixelFormat::Rgba8888},
            // Rows padded to 16 bytes on the device (VariantSpec::rowAlign) in pageable and pinned modes,
            // packed elsewhere: the same kernels with either pitch, at an odd width.
            {"gaussian5x5", "strips", PixelFormat::Gray8},
            {"gaussian5x5", "strips", PixelFormat::Rgb888},
            {"box3x3_interior", "strips", PixelFormat::Rgba8888}, // padded copy of the input as the start
            {"gaussian", "strips", PixelFormat::Gray8},
            {"transpose", "register_blocks", PixelFormat::Gray8}, // output rows padded apart from the input's
            {"transpose", "register_blocks", PixelFormat::Rgba8888},
            {"sobel", "strips", PixelFormat::Gray8},     // byte_strips.clh rungs: aligned vectors in padded rows
            {"median3x3", "sorted_columns", PixelFormat::Rgba8888},
            {"median5x5", "forgetful_u16x2_ptx", PixelFormat::Gray8},
            {"median3x3", "forgetful", PixelFormat::Rgb888},
            {"erode", "strips", PixelFormat::Rgba8888},
        };
        for (const auto &c : cases)
            for (TransferMode mode : allTransferModes())
                QTest::newRow((std::string(c.filter) + "/" + c.variant + "/" + formatName(c.format) + "/"
                               + transferModeName(mode)).c_str())
                    << c.filter << c.variant << int(c.format) << int(mode);
    }

    void everyModeMatchesTheReference()
    {
        QFETCH(QString, filter);
        QFETCH(QString, variant);
        QFETCH(int, format);
        QFETCH(int, mode);
        const FilterSpec *spec = findFilter(filter.toStdString());
        QVERIFY(spec);
        if (!spec->variant(variant.toStdString()))
            QSKIP("variant not in this catalogue");
        const Image image = makeTestCard(131, 67, PixelFormat(format));
        RunRequest request = oneShotRequest(filter.toStdString(), variant.toStdString(), PixelFormat(format));
        request.transfer = TransferMode(mode);
        const RunResult r = run(image, request);
        QCOMPARE(QString::fromStdString(r.transfer), QString(transferModeName(TransferMode(mode))));
        if (r.unavailable) {
            QVERIFY2(!r.error.empty(), "an unavailable mode says why");
            const bool images = spec->variant(variant.toStdString())->usesImages;
            if (images)
                QVERIFY2(r.error.find("image2d") != std::string::npos || r.error.find("image") != std::string::npos,
                         r.error.c_str());
            else
                QVERIFY2(TransferMode(mode) == TransferMode::Svm && r.error.find("CL_DEVICE_SVM") != std::string::npos,
                         r.error.c_str());
            return;
        }
        QVERIFY2(r.ok(), describe(r, 131, 67).constData());
        QVERIFY2(r.matches, describe(r, 131, 67).constData());
        QVERIFY(r.endToEndMs >= r.totalMs);
        QVERIFY(!r.transferNote.empty());
        if (TransferMode(mode) == TransferMode::Pinned)
            QVERIFY(r.stagingMs >= 0);
        const bool padded = spec->variant(variant.toStdString())->rowAlign > 0
                            && (TransferMode(mode) == TransferMode::Pageable || TransferMode(mode) == TransferMode::Pinned);
        QVERIFY2(padded == (r.transferNote.find("rows padded") != std::string::npos), r.transferNote.c_str());
    }

    // image2d variants: pageable and pinned apply; the mapped modes and svm say why not.
    void imageVariantsSayWhichModesApply()
    {
        const FilterSpec *spec = findFilter("gaussian5x5");
        const VariantSpec *images = spec ? spec->variant("image2d") : nullptr;
        if (!images)
            QSKIP("no image2d variant");
        for (TransferMode mode : allTransferModes()) {
            std::string note;
            const std::string why = m_session->transferUnavailableReason(mode, images, &note);
            const bool applies = mode == TransferMode::Pageable || mode == TransferMode::Pinned;
            QVERIFY2(applies == why.empty(), transferModeName(mode));
            QVERIFY(!note.empty());
        }
    }

    void tiledEqualsUntiled_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QString>("variant");
        QTest::addColumn<int>("format");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("tileWidth");  // 0: let --max-alloc force the tiles
        QTest::addColumn<int>("tileHeight");
        for (const FilterSpec &f : catalogue())
            for (const VariantSpec &v : f.variants) {
                const PixelFormat format = v.formats.empty() ? PixelFormat::Gray8 : v.formats.front();
                QTest::newRow((f.name + "/" + v.name + "/tile 40x24").c_str())
                    << QString::fromStdString(f.name) << QString::fromStdString(v.name) << int(format) << 157 << 93 << 40 << 24;
            }
        // Odd sizes, other formats, strips and forced by a pretend allocation limit.
        QTest::newRow("gaussian5x5/unrolled_constant rgba 1-row tiles") << "gaussian5x5" << "unrolled_constant"
                                                                        << int(PixelFormat::Rgba8888) << 61 << 37 << 61 << 1;
        QTest::newRow("gaussian/separable rgb888 7x5 tiles") << "gaussian" << "separable" << int(PixelFormat::Rgb888) << 59
                                                             << 41 << 7 << 5;
        QTest::newRow("median5x5 max-alloc") << "median5x5" << "" << int(PixelFormat::Gray8) << 301 << 203 << 0 << 0;
        QTest::newRow("box rgba max-alloc") << "box" << "" << int(PixelFormat::Rgba8888) << 211 << 97 << 0 << 0;
        QTest::newRow("transpose rgba 33x17 tiles") << "transpose" << "" << int(PixelFormat::Rgba8888) << 100 << 70 << 33
                                                    << 17;
        // Tiles' rows are packed: word_blocks' per-pixel path (rows of 33 pixels), the stream rungs'
        // byte-aligned rgba8888 loads.
        QTest::newRow("transpose word_blocks 33x17 tiles") << "transpose" << "word_blocks" << int(PixelFormat::Rgba8888)
                                                           << 100 << 70 << 33 << 17;
        for (const char *filter : {"box", "erode", "sobel", "box3x3_interior"})
            QTest::newRow((std::string(filter) + "/stream rgba 37x19 tiles").c_str())
                << filter << "stream" << int(PixelFormat::Rgba8888) << 157 << 93 << 37 << 19;
    }

    void tiledEqualsUntiled()
    {
        QFETCH(QString, filter);
        QFETCH(QString, variant);
        QFETCH(int, format);
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(int, tileWidth);
        QFETCH(int, tileHeight);
        const FilterSpec *spec = findFilter(filter.toStdString());
        QVERIFY(spec);
        const VariantSpec *v = variant.isEmpty() ? &spec->variants.front() : spec->variant(variant.toStdString());
        QVERIFY(v);
        if (!variantUnavailableReason(*v, m_device, PixelFormat(format)).empty())
            QSKIP("variant unavailable on this device");
        const Image image = makeTestCard(width, height, PixelFormat(format));
        RunRequest request = oneShotRequest(spec->name, v->name, PixelFormat(format));
        request.check = false;
        const RunResult whole = run(image, request);
        if (whole.expectedFailure || whole.unavailable)
            QSKIP("the untiled run does not launch here");
        QVERIFY2(whole.ok(), describe(whole, width, height).constData());
        QCOMPARE(whole.tiles, 1);
        request.tileWidth = tileWidth;
        request.tileHeight = tileHeight;
        if (tileWidth == 0) // a device that allows ~ a fifth of the image per allocation
            request.maxAllocBytes = image.sizeBytes() * (v->tempType == TempType::Float32 ? 4 : 1) / 5;
        const RunResult tiled = run(image, request);
        if (!spec->tileable) {
            QVERIFY2(!tiled.ok() && tiled.error.find("cannot be tiled") != std::string::npos, tiled.error.c_str());
            return;
        }
        if (v->globalRule == GlobalRule::Exact) {
            QVERIFY2(!tiled.ok() && tiled.error.find("exact NDRange") != std::string::npos, tiled.error.c_str());
            return;
        }
        QVERIFY2(tiled.ok(), describe(tiled, width, height).constData());
        QVERIFY2(tiled.tiles > 1, QByteArray::number(tiled.tiles));
        QVERIFY(tiled.tileWidth > 0 && tiled.tileHeight > 0);
        QCOMPARE(tiled.tileHalo, spec->transposesOutput ? 0 : tiled.tileHalo);
        QVERIFY(tiled.overlapPct >= 0 && tiled.overlapPct <= 100);
        QCOMPARE(tiled.output.width(), whole.output.width());
        QCOMPARE(tiled.output.height(), whole.output.height());
        QCOMPARE(maxAbsDiff(tiled.output, whole.output), 0);
        QVERIFY(tiled.stagesMs > 0);
        // Pinned tiles go through per-slot page-locked staging, filled and emptied by the host copy
        // pool while the device works: the same bytes.
        request.transfer = TransferMode::Pinned;
        const RunResult pinned = run(image, request);
        QVERIFY2(pinned.ok(), describe(pinned, width, height).constData());
        QCOMPARE(pinned.tiles, tiled.tiles);
        QCOMPARE(maxAbsDiff(pinned.output, whole.output), 0);
        QVERIFY(pinned.stagingMs > 0);
        QCOMPARE(pinned.endToEndMs, pinned.totalMs); // the staging is inside the streamed repeat
        QVERIFY(pinned.stagesMs >= pinned.stagingMs);
        // The image in page-locked memory from the start: the tiles DMA straight from and into it.
        Image locked = m_session->pinnedImage(width, height, PixelFormat(format));
        image.convertInto(locked);
        const RunResult direct = run(locked, request);
        QVERIFY2(direct.ok(), describe(direct, width, height).constData());
        QCOMPARE(direct.tiles, tiled.tiles);
        QCOMPARE(maxAbsDiff(direct.output, whole.output), 0);
        QCOMPARE(direct.stagingMs, 0.0);
        QVERIFY(!direct.output.ownsStorage());
    }

    // Pinned tiles copy rectangles out of the staging buffers; mapped modes refuse to tile.
    void tiledModes()
    {
        const Image image = makeTestCard(97, 83, PixelFormat::Gray8);
        RunRequest request = oneShotRequest("gaussian5x5", "unrolled_constant");
        request.tileWidth = 32;
        request.tileHeight = 32;
        request.transfer = TransferMode::Pinned;
        const RunResult pinned = run(image, request);
        QVERIFY2(pinned.ok() && pinned.matches, describe(pinned, 97, 83).constData());
        QCOMPARE(pinned.tiles, 12); // 4 columns x 3 rows
        request.transfer = TransferMode::ZeroCopy;
        const RunResult mapped = run(image, request);
        QVERIFY(mapped.unavailable);
        QVERIFY2(mapped.error.find("tiled") != std::string::npos, mapped.error.c_str());
    }

    // Tiles big enough that the host copy pool splits each staging memcpy over its threads.
    void pinnedTilesSplitTheirCopies()
    {
        const Image image = makeTestCard(2100, 1100, PixelFormat::Rgba8888);
        RunRequest request = oneShotRequest("gaussian5x5", "unrolled_constant", PixelFormat::Rgba8888);
        request.check = false;
        const RunResult whole = run(image, request);
        QVERIFY2(whole.ok(), describe(whole, 2100, 1100).constData());
        request.tileWidth = 1024;
        request.tileHeight = 512; // 2 MiB and more per tile: several parts per copy
        request.transfer = TransferMode::Pinned;
        for (int streams : {1, 2, 3}) {
            request.streams = streams;
            const RunResult tiled = run(image, request);
            QVERIFY2(tiled.ok(), describe(tiled, 2100, 1100).constData());
            QCOMPARE(tiled.tiles, 9);
            QCOMPARE(tiled.streams, streams);
            QCOMPARE(maxAbsDiff(tiled.output, whole.output), 0);
            QVERIFY(tiled.overlapPct >= 0 && tiled.overlapPct <= 100);
        }
    }

    // Session::pinnedImage: an input already in page-locked memory skips the staging memcpy in every
    // pinned run (untiled and tiled, buffers and image2d), returns its output in page-locked memory, and
    // gives the same bytes as the ordinary image in every mode.
    void pinnedImageSkipsTheStaging_data()
    {
        QTest::addColumn<QString>("variant");
        QTest::addColumn<int>("format");
        QTest::addColumn<int>("tile"); // 0: untiled
        for (int tile : {0, 48}) {
            const QString suffix = tile ? QStringLiteral(" tiled") : QString();
            QTest::newRow(qPrintable("unrolled_constant gray8" + suffix)) << "unrolled_constant" << int(PixelFormat::Gray8) << tile;
            QTest::newRow(qPrintable("unrolled_constant rgba8888" + suffix)) << "unrolled_constant" << int(PixelFormat::Rgba8888) << tile;
            QTest::newRow(qPrintable("image2d rgba8888" + suffix)) << "image2d" << int(PixelFormat::Rgba8888) << tile;
        }
    }

    void pinnedImageSkipsTheStaging()
    {
        QFETCH(QString, variant);
        QFETCH(int, format);
        QFETCH(int, tile);
        const PixelFormat fmt = PixelFormat(format);
        if (!findFilter("gaussian5x5")->variant(variant.toStdString()))
            QSKIP("variant not in this catalogue");
        const Image image = makeTestCard(173, 91, fmt);
        Image locked = m_session->pinnedImage(173, 91, fmt);
        QVERIFY(!locked.ownsStorage());
        QCOMPARE(maxAbsDiff(locked, Image(173, 91, fmt)), 0); // zero pixels to begin with
        drawTestCard(locked); // drawn straight into it: the same pixels as makeTestCard
        QCOMPARE(maxAbsDiff(locked, image), 0);
        RunRequest request = oneShotRequest("gaussian5x5", variant.toStdString(), fmt);
        request.tileWidth = request.tileHeight = tile;
        const RunResult ordinary = run(image, request); // pageable, from ordinary memory
        if (ordinary.unavailable)
            QSKIP("image2d unavailable here");
        QVERIFY2(ordinary.ok() && ordinary.matches, describe(ordinary, 173, 91).constData());
        request.transfer = TransferMode::Pinned;
        const RunResult staged = run(image, request);
        QVERIFY2(staged.ok() && staged.matches, describe(staged, 173, 91).constData());
        QVERIFY(staged.stagingMs > 0);
        QVERIFY(staged.output.ownsStorage());
        for (int again = 0; again < 2; ++again) { // the second run reuses the session's output block
            const RunResult direct = run(locked, request);
            QVERIFY2(direct.ok() && direct.matches, describe(direct, 173, 91).constData());
            QCOMPARE(direct.tiles, staged.tiles);
            QCOMPARE(direct.stagingMs, 0.0);
            QCOMPARE(direct.endToEndMs, direct.totalMs);
            QVERIFY2(direct.transferNote.find("page-locked image") == 0, direct.transferNote.c_str());
            QVERIFY(!direct.output.ownsStorage());
            QCOMPARE(maxAbsDiff(direct.output, staged.output), 0);
            QCOMPARE(maxAbsDiff(direct.output, ordinary.output), 0);
        }
        // Every other mode takes the page-locked image as any other memory: the same bytes.
        for (TransferMode mode : allTransferModes()) {
            request.transfer = mode;
            const RunResult r = run(locked, request);
            if (r.unavailable)
                continue;
            QVERIFY2(r.ok() && r.matches, (transferModeName(mode) + std::string(": ") + r.error).c_str());
            QCOMPARE(maxAbsDiff(r.output, ordinary.output), 0);
            if (mode != TransferMode::Pinned)
                QVERIFY(r.transferNote.find("page-locked image") != 0);
        }
    }

    // A pinned result holds its page-locked output: the next run gets another block while it lives and
    // reuses the block once it is gone; page-locked images outlive their session.
    void pinnedOutputsAndLifetimes()
    {
        const Image image = makeTestCard(150, 80, PixelFormat::Gray8);
        Image locked = m_session->pinnedImage(150, 80, PixelFormat::Gray8);
        image.convertInto(locked);
        RunRequest request = oneShotRequest("gaussian5x5", "unrolled_constant");
        request.transfer = TransferMode::Pinned;
        RunResult first = run(locked, request);
        RunResult second = run(locked, request);
        QVERIFY2(first.ok() && second.ok() && first.matches && second.matches, second.error.c_str());
        QVERIFY(first.output.data() != second.output.data()); // the first result still holds its block
        const std::uint8_t *secondPixels = second.output.data();
        second = RunResult();
        const RunResult third = run(locked, request);
        QCOMPARE(third.output.data(), secondPixels); // its block, free again, serves the next run
        QCOMPARE(maxAbsDiff(third.output, first.output), 0);
        const Image copy = third.output; // a copy is an ordinary image with its own pixels
        QVERIFY(copy.ownsStorage() && copy.data() != third.output.data());
        QCOMPARE(maxAbsDiff(copy, first.output), 0);

        Image survivor, survivorOut;
        {
            Session other(m_device);
            survivor = other.pinnedImage(64, 40, PixelFormat::Rgba8888);
            drawTestCard(survivor);
            RunRequest r = oneShotRequest("gaussian5x5", "unrolled_constant", PixelFormat::Rgba8888);
            r.transfer = TransferMode::Pinned;
            r.tileWidth = r.tileHeight = 16;
            RunResult result = other.run(survivor, r);
            QVERIFY2(result.ok() && result.matches && result.stagingMs == 0, result.error.c_str());
            survivorOut = std::move(result.output);
            // An image of another session is ordinary memory to this one: staged, same bytes.
            const RunResult here = run(survivor, r);
            QVERIFY2(here.ok() && here.matches && here.stagingMs > 0, here.error.c_str());
            QCOMPARE(maxAbsDiff(here.output, survivorOut), 0);
        }
        QVERIFY(!survivor.ownsStorage() && !survivorOut.ownsStorage()); // the session is gone, the memory is not
        QCOMPARE(maxAbsDiff(survivor, makeTestCard(64, 40, PixelFormat::Rgba8888)), 0);
        survivor = Image();
        survivorOut = Image();
    }

    void hostCopyPoolCopiesRectangles()
    {
        HostCopyPool pool(4);
        QCOMPARE(pool.threads(), 4);
        const std::size_t rowBytes = 3001, rows = 1000, srcPitch = 3100, dstPitch = 3007;
        std::vector<std::uint8_t> src(srcPitch * rows), dst(dstPitch * rows, 0xEE);
        for (std::size_t i = 0; i < src.size(); ++i)
            src[i] = std::uint8_t(i * 2654435761u >> 13);
        pool.copyRows(dst.data(), dstPitch, src.data(), srcPitch, rowBytes, rows);
        for (std::size_t y = 0; y < rows; ++y) {
            QVERIFY(std::memcmp(&dst[y * dstPitch], &src[y * srcPitch], rowBytes) == 0);
            QCOMPARE(int(dst[y * dstPitch + rowBytes]), 0xEE); // nothing past the row
        }
        std::vector<std::uint8_t> flat(src.size() - 5);
        pool.copy(flat.data(), src.data() + 5, flat.size()); // one block, cut in byte ranges
        QVERIFY(std::memcmp(flat.data(), src.data() + 5, flat.size()) == 0);
        std::atomic<int> sum{0};
        pool.parallelFor(100, [&](int i) { sum += i; });
        QCOMPARE(sum.load(), 4950);
    }

    void probeMeasuresOncePerDevice()
    {
        const Session::BandwidthProbe &probe = m_session->bandwidthProbe();
        QVERIFY2(probe.error.empty(), probe.error.c_str());
        QVERIFY(probe.bytes > 0);
        QVERIFY(probe.h2dPageableGBps > 0 && probe.d2hPageableGBps > 0);
        QVERIFY(probe.h2dPinnedGBps > 0 && probe.d2hPinnedGBps > 0);
        QVERIFY(probe.zeroCopyReadGBps > 0);
        Session other(m_device);
        QCOMPARE(&other.bandwidthProbe(), &probe); // once per device per process
        // With the probe known, each copy is a share of it.
        const Image image = makeTestCard(640, 480, PixelFormat::Gray8);
        RunRequest request = oneShotRequest("gaussian5x5", "unrolled_constant");
        request.transfer = TransferMode::Pinned;
        const RunResult r = run(image, request);
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(r.uploadGBps > 0 && r.downloadGBps > 0);
        QVERIFY(r.uploadPctOfProbe > 0 && r.downloadPctOfProbe > 0);
    }

    void residentImageSkipsTheUpload()
    {
        const Image image = makeTestCard(200, 120, PixelFormat::Gray8);
        RunRequest request = oneShotRequest("gaussian5x5", "unrolled_constant");
        request.reuseUpload = true;
        const RunResult first = run(image, request);
        QVERIFY2(first.ok(), first.error.c_str());
        request.variant = "constant_memory";
        const RunResult second = run(image, request);
        QVERIFY2(second.ok() && second.matches, second.error.c_str());
        QVERIFY(!second.reuploaded);
        QCOMPARE(second.uploadMs, 0.0);
        request.transfer = TransferMode::Pinned; // another mode shows its own upload
        const RunResult third = run(image, request);
        QVERIFY(third.reuploaded && third.matches);
        // The same image laid out with padded rows (an odd width) is another upload, both ways.
        const Image odd = makeTestCard(201, 77, PixelFormat::Gray8);
        request.transfer = TransferMode::Pageable;
        const RunResult packed = run(odd, request);
        QVERIFY(packed.ok() && packed.matches);
        request.variant = "strips";
        const RunResult paddedRun = run(odd, request);
        QVERIFY2(paddedRun.ok() && paddedRun.matches, describe(paddedRun, 201, 77).constData());
        QVERIFY(paddedRun.reuploaded);
        const RunResult paddedAgain = run(odd, request);
        QVERIFY(!paddedAgain.reuploaded && paddedAgain.matches);
        request.variant = "constant_memory";
        const RunResult packedAgain = run(odd, request);
        QVERIFY(packedAgain.reuploaded && packedAgain.matches);
    }

    // An image too big for the (pretend) device with tiling off is refused before allocating, both
    // sizes named; the next run works. A filter that cannot be tiled is refused the same way.
    void refusedRunLeavesTheSessionUsable()
    {
        const Image image = makeTestCard(400, 300, PixelFormat::Rgba8888);
        RunRequest request = oneShotRequest("box", "separable", PixelFormat::Rgba8888);
        if (!findFilter("box")->variant("separable"))
            request.variant = findFilter("box")->variants.front().name;
        request.maxAllocBytes = 64 << 10;
        request.allowTiles = false;
        const RunResult refused = run(image, request);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error.find("MiB") != std::string::npos && refused.error.find("allows") != std::string::npos,
                 refused.error.c_str());
        RunRequest iir = oneShotRequest("recursive_gaussian", findFilter("recursive_gaussian")->variants.front().name,
                                        PixelFormat::Rgba8888);
        iir.maxAllocBytes = 64 << 10;
        const RunResult noTiles = run(image, iir);
        QVERIFY2(!noTiles.ok() && noTiles.error.find("cannot be tiled") != std::string::npos, noTiles.error.c_str());
        request.maxAllocBytes = 0;
        request.allowTiles = true;
        const RunResult next = run(image, request);
        QVERIFY2(next.ok() && next.matches, describe(next, 400, 300).constData());
    }

    void imageLimitIsHostMemory()
    {
        QVERIFY(imageSizeProblem(40000, 30000).empty()); // 1.2 Gpixel passes the size check
        QVERIFY(!imageSizeProblem(100000, 100000).empty());
        const std::string tooMuch = imageSizeProblem(46000, 46000, 4); // 8 GiB: more than a third of most CI hosts
        if (!tooMuch.empty())
            QVERIFY2(tooMuch.find("MiB") != std::string::npos, tooMuch.c_str());
        // FWB_MEMORY_MIB stands for the memory (a container's limit, the fuzzer's budget): 300 MiB allows
        // 100 MiB per image, and the decoders' allocation limit follows.
        qputenv("FWB_MEMORY_MIB", "300");
        QCOMPARE(memoryBudgetBytes(), std::uint64_t(300) << 20);
        QCOMPARE(imageMemoryLimitBytes(), std::uint64_t(100) << 20);
        QVERIFY(imageSizeProblem(5000, 5000, 4).empty()); // 95 MiB
        const std::string over = imageSizeProblem(6000, 5000, 4); // 114 MiB
        QVERIFY2(over.find("300 MiB of memory") != std::string::npos, over.c_str());
        qputenv("FWB_MEMORY_MIB", "not a number"); // ignored: the machine's own figure
        QVERIFY(memoryBudgetBytes() != std::uint64_t(300) << 20);
        qunsetenv("FWB_MEMORY_MIB");
        QVERIFY(imageMemoryLimitBytes() <= std::uint64_t(kMaxImagePixels) * 4);
    }
};

QTEST_GUILESS_MAIN(TestTransfer)
#include "tst_transfer.moc"
