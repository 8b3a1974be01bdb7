// Hostile and unusual image files, generated here into a temporary folder: zero-byte, truncated,
// garbage, headers declaring huge sizes, a folder, an unreadable file, a path with spaces and
// non-ASCII letters; and valid-but-unusual ones (16-bit, gray+alpha, CMYK JPEG, animated GIF,
// EXIF-rotated, 1x1). The loader both front ends share (QtImageIo / readImageFile) refuses the first
// kind with a reason and loads the second kind correctly; filter-bench exits 2 naming the file and
// the problem and writes nothing; the window (built with the GUI) shows the message and keeps the
// image it had.
#include "ImageFileIo.h"
#include "BenchProcess.h"
#include "ImageBytes.h"
#include "TestSupport.h"

#ifdef FWB_TEST_WINDOW
#include "ControlPanel.h"
#include "ErrorBanner.h"
#include "MainWindow.h"
#endif

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QImageWriter>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>

#include <unistd.h>

using namespace fwb;
using namespace fwb::test;

namespace {

// A GIF89a: `frames` 1x1 frames of palette entries 0 (black) and 1 (white), looping.
QByteArray gif(int screenW, int screenH, int frames)
{
    QByteArray g("GIF89a");
    g += le16(quint32(screenW)) + le16(quint32(screenH));
    g += QByteArray("\x80\x00\x00\x00\x00\x00\xff\xff\xff", 9);
    g += QByteArray("\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00", 19);
    for (int f = 0; f < frames; ++f) {
        g += QByteArray("\x21\xf9\x04\x00\x0a\x00\x00\x00", 8);
        g += QByteArray("\x2c\x00\x00\x00\x00\x01\x00\x01\x00\x00", 10);
        g += f % 2 == 0 ? QByteArray("\x02\x02\x44\x01\x00", 5) : QByteArray("\x02\x02\x4c\x01\x00", 5);
    }
    g += char(0x3b);
    return g;
}

QByteArray bmpHeader(qint32 width, qint32 height)
{
    QByteArray info = le32(40) + le32(quint32(width)) + le32(quint32(height)) + le16(1) + le16(24) + le32(0)
                      + le32(0) + le32(2835) + le32(2835) + le32(0) + le32(0);
    return QByteArray("BM") + le32(14 + 40 + 16) + le32(0) + le32(14 + 40) + info + QByteArray(16, 0);
}

QByteArray tiffHeader(quint32 width, quint32 height)
{
    // Little-endian, one IFD of 9 entries: gray 8-bit, uncompressed, one strip.
    QByteArray t("II*\0", 4);
    t += le32(8);
    const QList<std::array<quint32, 3>> entries{{256, 4, width}, {257, 4, height}, {258, 3, 8}, {259, 3, 1},
                                                {262, 3, 1},     {273, 4, 200},    {277, 3, 1}, {278, 4, height},
                                                {279, 4, width}};
    t += le16(quint32(entries.size()));
    for (const auto &e : entries)
        t += le16(e[0]) + le16(e[1]) + le32(1) + (e[1] == 3 ? le16(e[2]) + le16(0) : le32(e[2]));
    t += le32(0);
    return t + QByteArray(64, 0);
}

QByteArray webpHeader(quint32 width, quint32 height)
{
    // VP8X: canvas size as width-1 / height-1 in 24 bits each.
    QByteArray vp8x = le32(0) + le32(width - 1).left(3) + le32(height - 1).left(3);
    QByteArray body = QByteArray("WEBP") + "VP8X" + le32(10) + vp8x;
    return QByteArray("RIFF") + le32(quint32(body.size())) + body;
}

QImage pattern(int w, int h)
{
    QImage image(w, h, QImage::Format_RGB32);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            image.setPixel(x, y, qRgb((x * 37 + y * 11) & 255, (y * 53) & 255, (x * y * 7) & 255));
    return image;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

bool isRoot() { return geteuid() == 0; }

} // namespace

class TestBadInput : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    struct Case
    {
        QString path;
        QStringList problem; // any of these in the message; empty: the file must load
        QSize size;          // when it loads
        std::function<void(const Image &)> check;
    };
    QMap<QString, Case> m_cases;
#ifdef FWB_TEST_WINDOW
    std::unique_ptr<MainWindow> m_window;
#endif

    using Outcome = fwb::test::BenchOutcome;
    static Outcome bench(const QStringList &args) { return fwb::test::runBench(args, 300000); }

    void add(const QString &name, const QByteArray &bytes, const QStringList &problem, QSize size = {},
             std::function<void(const Image &)> check = {})
    {
        const QString path = m_dir.filePath(name);
        QDir().mkpath(QFileInfo(path).absolutePath());
        QVERIFY2(writeFile(path, bytes), qPrintable(path));
        m_cases.insert(name, Case{path, problem, size, std::move(check)});
    }

    void addRows()
    {
        QTest::addColumn<QString>("name");
        for (const QString &name : m_cases.keys())
            QTest::newRow(qPrintable(name)) << name;
    }

private slots:
    // Every check of the unreadable file (each a row named after its case, addRows): root reads it anyway.
    void init()
    {
        if (qstrcmp(QTest::currentDataTag(), "unreadable.png") == 0 && isRoot())
            QSKIP("running as root: permissions do not stop reading");
    }

    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QStringList tooLarge{"too large"};
        const QByteArray goodPng = encoded(pattern(64, 48), "png");
        const QByteArray goodJpeg = encoded(pattern(64, 48), "jpeg", 90);
        QVERIFY(!goodPng.isEmpty() && !goodJpeg.isEmpty());

        // Refused, with the reason.
        add("zero-byte.png", {}, {"empty"});
        add("zero-byte.jpg", {}, {"empty"});
        add("truncated.png", goodPng.left(goodPng.size() / 2), {"damaged or cut short"});
        add("truncated-header.png", goodPng.left(20), {"damaged or cut short", "not PNG image data"});
        add("truncated.jpg", goodJpeg.left(goodJpeg.size() / 2), {"cut short"});
        add("truncated-in-header.jpg", goodJpeg.left(100), {"cut short", "damaged"});
        QByteArray garbage(4096, 0);
        for (int i = 0; i < garbage.size(); ++i)
            garbage[i] = char((i * 2654435761u) >> 13);
        add("garbage.png", garbage, {"not PNG image data"});
        add("garbage.jpg", garbage, {"not JPG image data"});
        add("garbage-no-suffix", garbage, {"not an image format"});
        add("text.webp", "this is a text file, not a picture\n", {"not WEBP image data"});
        add("huge.png", png(100000, 100000, 8, 0, QByteArray(2, 0)), tooLarge);
        add("huge.tiff", tiffHeader(100000, 100000), tooLarge);
        // Qt's BMP and GIF readers and libpng and libwebp refuse these headers themselves (their own
        // limits: 16384² for BMP, 2^20 per PNG side), before our size check can: "damaged".
        const QStringList refusedByDecoder{"too large", "damaged or cut short"};
        add("huge.bmp", bmpHeader(100000, 100000), refusedByDecoder);
        add("huge.gif", gif(65535, 65535, 1), refusedByDecoder); // a GIF's sides are 16-bit: 65535 at most
        add("huge.webp", webpHeader(100000, 100000), refusedByDecoder);
        add("wide.png", png(2000000, 1, 8, 0, QByteArray(2, 0)), refusedByDecoder);
        add("huge-within-limits.png", png(40000, 40000, 8, 6, QByteArray(2, 0)), {"damaged or cut short", "needs"});
        add("dir with spaces/ünïcødé naïve 画像 damaged.png", goodPng.left(40), {"damaged or cut short"});

        // Valid but unusual: loaded, and loaded right.
        {
            QImage rgba64(3, 2, QImage::Format_RGBA64);
            rgba64.fill(Qt::transparent);
            rgba64.setPixelColor(0, 0, QColor::fromRgba64(0x1234, 0x8080, 0xffff, 0xffff));
            rgba64.setPixelColor(2, 1, QColor::fromRgba64(0xfe00, 0x0101, 0x7f7f, 0x8000)); // 0xfe00/257 = 253
            add("rgba-16bit.png", encoded(rgba64, "png"), {}, {3, 2}, [](const Image &im) {
                QCOMPARE(im.format(), PixelFormat::Rgba8888);
                const std::uint8_t *p = im.row(0);
                QCOMPARE(QList<int>({p[0], p[1], p[2], p[3]}), QList<int>({0x12, 0x80, 0xff, 0xff}));
                const std::uint8_t *q = im.row(1) + 8;
                QCOMPARE(QList<int>({q[0], q[1], q[2], q[3]}), QList<int>({0xfd, 0x01, 0x7f, 0x80}));
            });
        }
        {
            // 16-bit gray, big-endian samples 0x0000, 0x8000, 0xffff.
            const QByteArray rows = QByteArray("\x00\x00\x00\x80\x00\xff\xff", 7);
            add("gray-16bit.png", png(3, 1, 16, 0, rows), {}, {3, 1}, [](const Image &im) {
                const int channels = im.channels();
                QCOMPARE(int(im.row(0)[0]), 0);
                QCOMPARE(int(im.row(0)[channels]), 0x80);
                QCOMPARE(int(im.row(0)[2 * channels]), 0xff);
            });
        }
        add("gray-alpha.png", png(2, 1, 8, 4, QByteArray("\x00\x0a\xff\xc8\x80", 5)), {}, {2, 1}, [](const Image &im) {
            QCOMPARE(im.format(), PixelFormat::Rgba8888); // alpha kept
            const std::uint8_t *p = im.row(0);
            QCOMPARE(QList<int>({p[0], p[1], p[2], p[3]}), QList<int>({10, 10, 10, 255}));
            QCOMPARE(QList<int>({p[4], p[5], p[6], p[7]}), QList<int>({200, 200, 200, 128}));
        });
        add("gray8.png", png(4, 2, 8, 0, QByteArray("\x00\x01\x02\x03\x04\x00\x05\x06\x07\x08", 10)), {}, {4, 2},
            [](const Image &im) {
                QCOMPARE(im.format(), PixelFormat::Gray8);
                QCOMPARE(int(im.row(1)[3]), 8);
            });
        add("one-pixel.png", png(1, 1, 8, 2, QByteArray("\x00\x11\x22\x33", 4)), {}, {1, 1}, [](const Image &im) {
            const std::uint8_t *p = im.row(0);
            QCOMPARE(QList<int>({p[0], p[1], p[2], p[3]}), QList<int>({0x11, 0x22, 0x33, 0xff}));
        });
        add("cmyk.jpg", cmykJpeg(), {}, {8, 8}, [](const Image &im) {
            const std::uint8_t *p = im.row(7) + 7 * 4;
            QVERIFY2(p[0] == p[1] && p[1] == p[2] && p[0] > 30 && p[0] < 225,
                     qPrintable(QString("CMYK 128,128,128,128 came out as %1,%2,%3").arg(p[0]).arg(p[1]).arg(p[2])));
            QCOMPARE(int(p[3]), 255);
        });
        add("animated.gif", gif(1, 1, 2), {}, {1, 1}, [](const Image &im) {
            const std::uint8_t *p = im.row(0); // the first frame: palette entry 0, black
            QCOMPARE(QList<int>({p[0], p[1], p[2]}), QList<int>({0, 0, 0}));
        });
        {
            // 8x4, left half black, right half white; orientation 6 shows it 4x8, black on top.
            QImage halves(8, 4, QImage::Format_RGB32);
            for (int y = 0; y < 4; ++y)
                for (int x = 0; x < 8; ++x)
                    halves.setPixel(x, y, x < 4 ? qRgb(0, 0, 0) : qRgb(255, 255, 255));
            add("exif-rotated.jpg", withExifOrientation(encoded(halves, "jpeg", 100), 6), {}, {4, 8},
                [](const Image &im) {
                    QVERIFY(im.row(0)[0] < 40 && im.row(7)[0] > 215);
                });
        }
        add("dir with spaces/ünïcødé naïve 画像.png", encoded(pattern(5, 3), "png"), {}, {5, 3});

        // Not a file at all, or not ours to read.
        QVERIFY(QDir().mkpath(m_dir.filePath("a-folder.png")));
        m_cases.insert("a-folder.png", Case{m_dir.filePath("a-folder.png"), {"is a folder"}, {}, {}});
        add("unreadable.png", goodPng, {"permission denied"});
        QVERIFY(QFile::setPermissions(m_cases["unreadable.png"].path, {}));
        m_cases.insert("missing.png", Case{m_dir.filePath("missing.png"), {"does not exist"}, {}, {}});
    }

    // The loader both front ends use.
    void loader_data() { addRows(); }
    void loader()
    {
        QFETCH(QString, name);
        const Case c = m_cases.value(name);
        QtImageIo io;
        Image image;
        std::string error;
        const bool ok = io.load(c.path.toStdString(), image, error);
        if (c.problem.isEmpty()) {
            QVERIFY2(ok, error.c_str());
            QCOMPARE(QSize(image.width(), image.height()), c.size);
            if (c.check)
                c.check(image);
        } else {
            QVERIFY2(!ok, qPrintable(name + " loaded as " + QString::number(image.width()) + "x"
                                     + QString::number(image.height())));
            bool named = false;
            for (const QString &problem : c.problem)
                named = named || QString::fromStdString(error).contains(problem);
            QVERIFY2(named, error.c_str());
        }
    }

    // The size check follows the memory this program may use (FWB_MEMORY_MIB here: 300 MiB, so 100 MiB
    // per image) and counts what the decoder fills first: 8 bytes a pixel for 16-bit RGBA. A 5000x5000
    // header is 95 MiB as 8-bit RGBA (not refused for its size: the data is missing, so "damaged") and
    // 190 MiB as 16-bit (refused before decoding, both figures named).
    void limitFollowsTheMemoryBudget()
    {
        const QString rgba8 = m_dir.filePath("budget-rgba8.png"), rgba16 = m_dir.filePath("budget-rgba16.png");
        QVERIFY(writeFile(rgba8, png(5000, 5000, 8, 6, QByteArray(2, 0))));
        QVERIFY(writeFile(rgba16, png(5000, 5000, 16, 6, QByteArray(2, 0))));
        qputenv("FWB_MEMORY_MIB", "300");
        QtImageIo io;
        Image image;
        std::string error8, error16;
        const bool ok8 = io.load(rgba8.toStdString(), image, error8);
        const bool ok16 = io.load(rgba16.toStdString(), image, error16);
        qunsetenv("FWB_MEMORY_MIB");
        QVERIFY(!ok8 && !ok16);
        QVERIFY2(error8.find("damaged") != std::string::npos, error8.c_str());
        QVERIFY2(error16.find("needs 190 MiB") != std::string::npos && error16.find("300 MiB") != std::string::npos,
                 error16.c_str());
    }

    // filter-bench: exit 2, the file and the problem on one line of stderr, no output written;
    // a valid file runs and its output has the loaded size.
    void cli_data() { addRows(); }
    void cli()
    {
        QFETCH(QString, name);
        const Case c = m_cases.value(name);
        if (c.problem.isEmpty()) {
            FWB_REQUIRE_DEVICE(device);
        }
        const QString outDir = m_dir.filePath("cli-out-" + QString::number(qHash(name)));
        QVERIFY(QDir().mkpath(outDir));
        const QString out = outDir + "/out.png", json = outDir + "/run.json";
        const Outcome o = bench({"run", "--filter", "box", "--variant", "naive", "--repeat", "1", "--warmup", "0",
                                 "--input", c.path, "--output", out, "--json-file", json});
        QVERIFY2(o.code != -2, "crashed");
        QVERIFY2(o.code != -1, "hung");
        const QString err = QString::fromUtf8(o.err);
        if (c.problem.isEmpty()) {
            QVERIFY2(o.code == 0, qPrintable(err));
            QCOMPARE(QImage(out).size(), c.size);
            QVERIFY(QFileInfo::exists(json));
            return;
        }
        QVERIFY2(o.code == 2, qPrintable(QString("exit %1: %2").arg(o.code).arg(err)));
        QVERIFY2(err.contains(c.path), qPrintable(err)); // the file, spelled as given (UTF-8)
        bool named = false;
        for (const QString &problem : c.problem)
            named = named || err.contains(problem);
        QVERIFY2(named, qPrintable(err));
        QCOMPARE(err.trimmed().count('\n'), 0);
        QVERIFY(o.out.isEmpty());
        QVERIFY2(!QFileInfo::exists(out) && !QFileInfo::exists(json), "wrote output for input it refused");
        QCOMPARE(QDir(outDir).entryList(QDir::Files | QDir::Hidden), QStringList()); // no temp file either
    }

#ifdef FWB_TEST_WINDOW
    // The window: the message in the banner naming the file and the problem, the image it had stays;
    // a valid file replaces it with the right size. One window for every row.
    void window_data() { addRows(); }
    void window()
    {
        QFETCH(QString, name);
        const Case c = m_cases.value(name);
        if (!m_window) {
            QSettings::setDefaultFormat(QSettings::IniFormat);
            QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.filePath("settings"));
            m_window = std::make_unique<MainWindow>(false);
            m_window->controls()->setAutoRun(false);
            m_window->resize(1000, 700);
            m_window->show();
            QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        }
        MainWindow &w = *m_window;
        w.openTestCard(33, 17);
        const std::shared_ptr<const Image> before = w.inputImage();
        w.banner()->dismiss();
        const bool ok = w.loadFile(c.path);
        if (c.problem.isEmpty()) {
            QVERIFY2(ok, qPrintable(name + ": " + w.banner()->text()));
            QCOMPARE(QSize(w.inputImage()->width(), w.inputImage()->height()), c.size);
            return;
        }
        QVERIFY2(!ok, qPrintable(name));
        const QString text = w.banner()->text();
        QVERIFY2(text.contains("Cannot load") && text.contains(QDir::toNativeSeparators(c.path)),
                 qPrintable(name + ": " + text));
        bool named = false;
        for (const QString &problem : c.problem)
            named = named || text.contains(problem);
        QVERIFY2(named, qPrintable(name + ": " + text));
        QCOMPARE(w.inputImage(), before); // the current image stays
        QVERIFY(w.currentFile().isEmpty());
    }
#endif

    void cleanupTestCase()
    {
#ifdef FWB_TEST_WINDOW
        m_window.reset();
#endif
        if (m_cases.contains("unreadable.png"))
            QFile::setPermissions(m_cases["unreadable.png"].path, QFile::ReadOwner | QFile::WriteOwner);
    }
};

QTEST_MAIN(TestBadInput)
#include "tst_bad_input.moc"
