// Images and test cards: determinism, format conversions, size limits, border index rules.
#include "Catalogue.h"
#include "Error.h"
#include "Image.h"

#include <QtTest>

using namespace fwb;

class TestImage : public QObject
{
    Q_OBJECT

private slots:
    void testCardIsDeterministic();
    void testCardHasContent();
    void conversions();
    void adoptedStorage();
    void testCardDrawnInPlace();
    void sizeLimits_data();
    void sizeLimits();
    void borderIndex_data();
    void borderIndex();
};

// Image::adopt: pixels on someone else's storage, released once when the last image using it goes;
// copies are ordinary images, moves carry the storage.
void TestImage::adoptedStorage()
{
    std::vector<std::uint8_t> storage(7 * 5 * 4, 0x11);
    int released = 0;
    {
        Image adopted = Image::adopt(7, 5, PixelFormat::Rgba8888, storage.data(), [&] { ++released; });
        QVERIFY(!adopted.ownsStorage());
        QCOMPARE(adopted.data(), storage.data());
        QCOMPARE(adopted.sizeBytes(), storage.size());
        QCOMPARE(adopted.stride(), std::size_t(28));
        QCOMPARE(int(adopted.row(4)[27]), 0x11); // the contents are kept
        adopted.row(2)[3] = 0x77;
        QCOMPARE(int(storage[2 * 28 + 3]), 0x77);
        Image copy = adopted;
        QVERIFY(copy.ownsStorage() && copy.data() != storage.data());
        QCOMPARE(copy.contentHash(), adopted.contentHash());
        copy.row(0)[0] = 0x99;
        QCOMPARE(int(storage[0]), 0x11);
        Image assigned;
        assigned = adopted;
        QVERIFY(assigned.ownsStorage());
        QCOMPARE(maxAbsDiff(assigned, adopted), 0);
        Image moved = std::move(adopted);
        QCOMPARE(moved.data(), storage.data());
        QCOMPARE(released, 0);
        Image target = makeTestCard(7, 5, PixelFormat::Rgba8888);
        target = std::move(moved); // the target's own pixels go, the storage travels
        QCOMPARE(target.data(), storage.data());
        QCOMPARE(released, 0);
        const Image gray = target.convertedTo(PixelFormat::Gray8);
        QVERIFY(gray.ownsStorage());
    }
    QCOMPARE(released, 1);
    QVERIFY_THROWS_EXCEPTION(Error, Image::adopt(0, 5, PixelFormat::Gray8, storage.data(), {}));
    QVERIFY_THROWS_EXCEPTION(Error, Image::adopt(3, 5, PixelFormat::Gray8, nullptr, {}));
    // convertInto: into existing storage, any format, same size only.
    Image into = Image::adopt(7, 5, PixelFormat::Gray8, storage.data(), {});
    const Image card = makeTestCard(7, 5, PixelFormat::Rgba8888);
    card.convertInto(into);
    QCOMPARE(into.data(), storage.data());
    QCOMPARE(maxAbsDiff(into, card.convertedTo(PixelFormat::Gray8)), 0);
    Image wrong(6, 5, PixelFormat::Gray8);
    QVERIFY_THROWS_EXCEPTION(Error, card.convertInto(wrong));
}

// drawTestCard fills an image in its own layout with exactly the RGBA card converted to that layout.
void TestImage::testCardDrawnInPlace()
{
    const Image rgba = makeTestCard(203, 117, PixelFormat::Rgba8888);
    for (PixelFormat f : allPixelFormats()) {
        Image drawn(203, 117, f);
        drawTestCard(drawn);
        QCOMPARE(maxAbsDiff(drawn, rgba.convertedTo(f)), 0);
        QCOMPARE(drawn.contentHash(), makeTestCard(203, 117, f).contentHash());
    }
}

void TestImage::testCardIsDeterministic()
{
    for (PixelFormat f : allPixelFormats()) {
        const Image a = makeTestCard(259, 194, f), b = makeTestCard(259, 194, f);
        QCOMPARE(a.contentHash(), b.contentHash());
        QCOMPARE(a.channels(), channelCount(f));
        QCOMPARE(a.stride(), std::size_t(259 * channelCount(f)));
    }
    QVERIFY(makeTestCard(64, 64, PixelFormat::Gray8).contentHash() != makeTestCard(64, 65, PixelFormat::Gray8).contentHash());
}

void TestImage::testCardHasContent()
{
    const Image card = makeTestCard(640, 480, PixelFormat::Gray8);
    int histogram[256] = {};
    for (int y = 0; y < card.height(); ++y)
        for (int x = 0; x < card.width(); ++x)
            ++histogram[card.row(y)[x]];
    int used = 0;
    for (int count : histogram)
        used += count > 0;
    QVERIFY2(used > 200, "the test card should span most grey levels (gradients, zone plate, noise)");
    const Image tiny = makeTestCard(1, 1, PixelFormat::Rgba8888);
    QCOMPARE(tiny.row(0)[3], std::uint8_t(255));
}

void TestImage::conversions()
{
    Image rgba(2, 1, PixelFormat::Rgba8888);
    const std::uint8_t px[] = {255, 0, 0, 255, 10, 200, 30, 7};
    std::memcpy(rgba.data(), px, sizeof px);
    const Image gray = rgba.convertedTo(PixelFormat::Gray8);
    QCOMPARE(int(gray.row(0)[0]), (77 * 255 + 128) >> 8);
    QCOMPARE(int(gray.row(0)[1]), (77 * 10 + 150 * 200 + 29 * 30 + 128) >> 8);
    const Image rgb = rgba.convertedTo(PixelFormat::Rgb888);
    QCOMPARE(int(rgb.row(0)[3]), 10);
    QCOMPARE(int(rgb.row(0)[5]), 30);
    const Image back = rgb.convertedTo(PixelFormat::Rgba8888);
    QCOMPARE(int(back.row(0)[7]), 255); // alpha is opaque after a trip through rgb888
    QCOMPARE(maxAbsDiff(rgba, rgba), 0);
    QCOMPARE(maxAbsDiff(rgba, gray), -1);
}

void TestImage::sizeLimits_data()
{
    QTest::addColumn<qint64>("w");
    QTest::addColumn<qint64>("h");
    QTest::addColumn<bool>("ok");
    QTest::newRow("1x1") << qint64(1) << qint64(1) << true;
    QTest::newRow("6720x4480") << qint64(6720) << qint64(4480) << true;
    QTest::newRow("zero") << qint64(0) << qint64(10) << false;
    QTest::newRow("negative") << qint64(10) << qint64(-3) << false;
    QTest::newRow("wide strip") << qint64(70000) << qint64(1) << true; // tiles make any side up to 2^20 work
    QTest::newRow("too wide") << qint64(2000000) << qint64(1) << false;
    QTest::newRow("too many pixels") << qint64(60000) << qint64(60000) << false; // 3.6 Gpixel > 2 Gpixel
}

void TestImage::sizeLimits()
{
    QFETCH(qint64, w);
    QFETCH(qint64, h);
    QFETCH(bool, ok);
    QCOMPARE(imageSizeProblem(w, h).empty(), ok);
    if (!ok)
        QVERIFY_THROWS_EXCEPTION(Error, Image(int(w), int(h), PixelFormat::Gray8));
}

void TestImage::borderIndex_data()
{
    QTest::addColumn<int>("i");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("reflect101");
    QTest::addColumn<int>("replicate");
    QTest::addColumn<int>("constant");
    QTest::newRow("inside") << 3 << 8 << 3 << 3 << 3;
    QTest::newRow("-1") << -1 << 8 << 1 << 0 << -1;
    QTest::newRow("-2") << -2 << 8 << 2 << 0 << -1;
    QTest::newRow("n") << 8 << 8 << 6 << 7 << -1;
    QTest::newRow("n+1") << 9 << 8 << 5 << 7 << -1;
    QTest::newRow("n=1") << -2 << 1 << 0 << 0 << -1;
    QTest::newRow("wider than image") << -5 << 3 << 1 << 0 << -1;
}

void TestImage::borderIndex()
{
    QFETCH(int, i);
    QFETCH(int, n);
    QFETCH(int, reflect101);
    QFETCH(int, replicate);
    QFETCH(int, constant);
    QCOMPARE(fwb::borderIndex(i, n, BorderMode::Reflect101), reflect101);
    QCOMPARE(fwb::borderIndex(i, n, BorderMode::Replicate), replicate);
    QCOMPARE(fwb::borderIndex(i, n, BorderMode::Constant), constant);
}

QTEST_GUILESS_MAIN(TestImage)
#include "tst_image.moc"
