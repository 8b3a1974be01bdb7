// What a newcomer meets, offscreen on PoCL: the pixel format follows the opened picture (colour:
// rgba8888, grey: gray8) until they pick one; the first variant is the catalogue's baseline, not its
// slowest rung; a picture runs by itself when it opens; a slow picture pauses automatic runs unless
// the user asked for them; the user's own choice is remembered.
#include "TestSupport.h"

#include "Catalogue.h"
#include "ControlPanel.h"
#include "MainWindow.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace fwb;

class TestGuiDefaults : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString writeImage(const QString &name, bool colour)
    {
        QImage image(120, 80, colour ? QImage::Format_RGB32 : QImage::Format_Grayscale8);
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                if (colour)
                    image.setPixel(x, y, qRgb((x * 7) & 255, (y * 5) & 255, (x * y) & 255));
                else
                    image.scanLine(y)[x] = uchar((x * 2 + y) & 255);
            }
        const QString path = m_dir.filePath(name);
        return image.save(path) ? path : QString();
    }
    static PixelFormat format(MainWindow &window) { return window.controls()->params().format; }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.filePath("settings"));
        QCoreApplication::setOrganizationName("fwb-gui-test");
        QCoreApplication::setApplicationName("tst_gui_defaults");
    }

    void formatFollowsTheImage()
    {
        MainWindow window(false);
        window.controls()->setAutoRun(false);
        const QString colour = writeImage("colour.png", true), grey = writeImage("grey.png", false);
        QVERIFY(!colour.isEmpty() && !grey.isEmpty());
        QVERIFY(window.loadFile(colour));
        QCOMPARE(format(window), PixelFormat::Rgba8888);
        QVERIFY(window.loadFile(grey));
        QCOMPARE(format(window), PixelFormat::Gray8);
        window.openTestCard(64, 48); // the test card is colour
        QCOMPARE(format(window), PixelFormat::Rgba8888);
        // A grey picture stored as RGB is still grey.
        QImage rgbGrey(40, 30, QImage::Format_RGB32);
        rgbGrey.fill(qRgb(90, 90, 90));
        QVERIFY(rgbGrey.save(m_dir.filePath("rgb-grey.png")));
        QVERIFY(window.loadFile(m_dir.filePath("rgb-grey.png")));
        QCOMPARE(format(window), PixelFormat::Gray8);
        // Once the user picks one, opened pictures leave it alone.
        auto *combo = window.controls()->findChild<QComboBox *>("formatCombo");
        QVERIFY(combo);
        combo->setCurrentIndex(combo->findData(int(PixelFormat::Rgb888)));
        emit combo->activated(combo->currentIndex()); // what a click on the list does
        QVERIFY(window.loadFile(grey));
        QCOMPARE(format(window), PixelFormat::Rgb888);
        QVERIFY(window.loadFile(colour));
        QCOMPARE(format(window), PixelFormat::Rgb888);
    }

    void firstVariantIsTheBaseline()
    {
        MainWindow window(false);
        window.controls()->setAutoRun(false);
        QVERIFY(window.controls()->setFilterName("gaussian5x5"));
        QCOMPARE(window.controls()->variantName(), QStringLiteral("unrolled_constant"));
        for (const FilterSpec &f : catalogue()) {
            const VariantSpec *baseline = baselineVariant(f);
            QVERIFY(baseline);
            if (f.name == "gaussian5x5")
                QCOMPARE(baseline->name, std::string("unrolled_constant"));
        }
        QVERIFY(window.controls()->setFilterName("transpose"));
        QCOMPARE(window.controls()->variantName(), QStringLiteral("naive"));
    }

    void opensAndRunsByItself()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow window(false);
        QVERIFY(window.controls()->autoRun()); // on by default
        QVERIFY(window.controls()->setDeviceSpec(QString::fromStdString(device.spec())));
        window.controls()->setRepeat(1);
        window.show();
        QSignalSpy shown(&window, &MainWindow::resultShown);
        QSignalSpy failed(&window, &MainWindow::runFailed);
        window.openTestCard(160, 120); // no Run pressed
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() || !failed.isEmpty(), 60000);
        // What ran (whether or not the kernel built): the baseline, in the picture's colour layout.
        const auto result = (shown.isEmpty() ? failed : shown).front().front().value<ComputeResult>();
        QCOMPARE(result.request.variant, std::string("unrolled_constant"));
        QCOMPARE(result.request.params.format, PixelFormat::Rgba8888);
        QVERIFY(window.controls()->autoRun()); // fast: it stays on
    }

    void slowPicturePausesAutoRun()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow window(false);
        ControlPanel *c = window.controls();
        QVERIFY(c->setDeviceSpec(QString::fromStdString(device.spec())));
        QVERIFY(c->setFilterName("sobel"));
        c->setRepeat(3);
        window.setAutoRunLimitMs(1); // every run is "slow" (the real limit is a second)
        window.show();
        QSignalSpy shown(&window, &MainWindow::resultShown);
        window.openTestCard(320, 240);
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 60000);
        QVERIFY2(!c->autoRun(), qPrintable(window.statusText()));
        QVERIFY(window.statusText().contains(QLatin1String("paused")));
        // Another picture: back on by itself (the pause was ours, not the user's) until it proves slow.
        window.setAutoRunLimitMs(60000);
        window.openTestCard(64, 48);
        QVERIFY(c->autoRun());
        // The user's own "on" is never overridden.
        window.setAutoRunLimitMs(1);
        QCheckBox *autoRun = nullptr;
        for (QCheckBox *b : window.findChildren<QCheckBox *>())
            if (b->text().contains(QLatin1String("automatically")))
                autoRun = b;
        QVERIFY(autoRun);
        autoRun->click();
        autoRun->click(); // off and on again: the user's choice is "on"
        QVERIFY(c->autoRun());
        shown.clear();
        window.openTestCard(300, 200);
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 60000);
        QVERIFY(c->autoRun());
    }

    void userChoiceIsRemembered()
    {
        {
            MainWindow window(true);
            QCheckBox *autoRun = nullptr;
            for (QCheckBox *b : window.findChildren<QCheckBox *>())
                if (b->text().contains(QLatin1String("automatically")))
                    autoRun = b;
            QVERIFY(autoRun && autoRun->isChecked());
            autoRun->click(); // the user turns it off
            QVERIFY(!window.controls()->autoRun());
            window.close();
        }
        MainWindow again(true);
        QVERIFY(!again.controls()->autoRun());
        QCOMPARE(QSettings().value("run/autoRun").toBool(), false);
    }

    // Settings saved before issue 23's renames name sobel's strips rung by its former name, roofline:
    // the window opens on today's variant and saves it under today's name.
    void savedFormerVariantNameOpensToday()
    {
        QSettings().setValue("run/filter", "sobel");
        QSettings().setValue("run/variant", "roofline");
        {
            MainWindow window(true);
            QCOMPARE(window.controls()->filterName(), QStringLiteral("sobel"));
            QCOMPARE(window.controls()->variantName(), QStringLiteral("strips"));
            window.close();
        }
        QCOMPARE(QSettings().value("run/variant").toString(), QStringLiteral("strips"));
    }
};

QTEST_MAIN(TestGuiDefaults)
#include "tst_gui_defaults.moc"
