// The real workbench window, driven offscreen: what a run shows. Every filter/variant against the CPU
// reference, page-locked copies, the view modes, a transposed result, the difference map, the original
// as the filter reads it, transparency, the timing panel, the variant list and the variants the
// parameters rule out. Opening, saving, cancelling and quitting: tst_gui_mainwindow.
#include "TestSupport.h"
#include "GuiTestSupport.h"

#include "Catalogue.h"
#include "ComputeWorker.h"
#include "ControlPanel.h"
#include "ErrorBanner.h"
#include "ImageFileIo.h"
#include "ImageView.h"
#include "MainWindow.h"
#include "MeasurementRecord.h"
#include "TimingPanel.h"
#include "VariantLimits.h"
#include "VariantPicker.h"

#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QScopeGuard>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace fwb;

class TestGuiResults : public test::WindowSuite
{
    Q_OBJECT

private slots:
    void initTestCase() { openSuiteWindow("tst_gui_results"); }
    void cleanupTestCase() { m_window.reset(); }

    void everyVariantMatchesReference_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QString>("variant");
        QTest::addColumn<int>("format");
        for (const FilterSpec &f : catalogue())
            for (const VariantSpec &v : f.variants) {
                const std::string row = f.name + "/" + v.name;
                QTest::newRow(row.c_str()) << QString::fromStdString(f.name)
                                           << QString::fromStdString(v.name) << int(PixelFormat::Gray8);
            }
        // One colour row: four channels go through the same path.
        QTest::newRow("gaussian5x5/unrolled_constant/rgba") << "gaussian5x5" << "unrolled_constant"
                                                            << int(PixelFormat::Rgba8888);
    }

    void everyVariantMatchesReference()
    {
        FWB_REQUIRE_DEVICE(device);
        QFETCH(QString, filter);
        QFETCH(QString, variant);
        QFETCH(int, format);
        MainWindow &w = *m_window;
        if (!w.inputImage() || w.inputImage()->width() != 259)
            w.openTestCard(259, 194);
        ControlPanel *c = w.controls();
        QVERIFY(c->setDeviceSpec(QString::fromStdString(device.spec())));
        QVERIFY(c->setLocalSizeText("auto"));
        QVERIFY(c->setPixelFormat(PixelFormat(format)));
        QVERIFY(c->setFilterName(filter));
        const FilterSpec *spec = findFilter(filter.toStdString());
        const VariantSpec *v = spec->variant(variant.toStdString());
        if (!variantUnavailableReason(*v, device, PixelFormat(format)).empty()) {
            QVERIFY(!c->availableVariants().contains(variant)); // shown disabled, with the reason
            QSKIP("variant unavailable on this device/format (shown disabled)");
        }
        QVERIFY(c->setVariantName(variant));
        // A small-radius rung (box strips, gaussian strips) runs at its largest radius - the radius itself,
        // or the sigma on the slider's 0.1 steps that reaches it (ceil(3 sigma)); the rows after get the default back.
        const bool bySigma = std::none_of(spec->params.begin(), spec->params.end(),
                                          [](const ParamSpec &p) { return p.key == "radius"; });
        const QString limitKey = bySigma ? QStringLiteral("sigma") : QStringLiteral("radius");
        const auto restoreRadius = qScopeGuard([&] {
            if (v->maxRadius > 0)
                c->setParamValue(limitKey, bySigma ? 2.0 : 3.0);
        });
        if (v->maxRadius > 0)
            QVERIFY(c->setParamValue(limitKey, bySigma ? (v->maxRadius * 10 / 3) / 10.0 : double(v->maxRadius)));
        const int before = w.timingPanel()->historyCount();
        ComputeResult result;
        QVERIFY(runOnce(w, &result));
        if (!result.run.ok()) {
            // Only an explained, expected failure is acceptable here.
            QVERIFY2(result.run.expectedFailure, result.run.error.c_str());
            QVERIFY(!w.banner()->text().isEmpty());
            return;
        }
        QCOMPARE(QString::fromStdString(result.run.variant), variant);
        // Independent oracle: the filter's own CPU reference on the same input.
        const Image src = w.inputImage()->convertedTo(PixelFormat(format));
        Image expected = spec->transposesOutput ? Image(src.height(), src.width(), src.format())
                                                : Image(src.width(), src.height(), src.format());
        if (spec->copySourceToDst)
            expected = src;
        spec->cpuReference(src, expected, c->params(), 1);
        const int diff = maxAbsDiff(*result.outputImage, expected);
        QVERIFY2(diff >= 0 && diff <= spec->tolerance,
                 qPrintable(QString("max diff %1 > tolerance %2").arg(diff).arg(spec->tolerance)));
        QCOMPARE(w.resultView()->image().size(), QSize(expected.width(), expected.height()));
        QVERIFY(w.timingPanel()->historyCount() > before
                || w.timingPanel()->historyCount() == TimingPanel::kHistoryLength);
        QVERIFY(w.timingPanel()->numbersText().contains("Kernel time"));
        QVERIFY(w.statusText().contains("ran on"));
    }

    // The pinned-memory switch reaches the run, is reported, and changes nothing in the pixels.
    void pinnedCopiesAreReported()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow &w = *m_window;
        w.openTestCard(131, 67);
        ControlPanel *c = w.controls();
        QVERIFY(c->setPixelFormat(PixelFormat::Rgba8888));
        QVERIFY(selectVariant(c, device, "gaussian5x5", "unrolled_constant"));
        auto *transfer = c->findChild<QComboBox *>("transferCombo");
        QVERIFY(transfer);
        transfer->setCurrentIndex(transfer->findData(QStringLiteral("pinned")));
        ComputeResult result;
        QVERIFY(runOnce(w, &result));
        transfer->setCurrentIndex(transfer->findData(QStringLiteral("pageable")));
        QVERIFY2(result.run.ok(), result.run.error.c_str());
        QCOMPARE(QString::fromStdString(result.run.transfer), QStringLiteral("pinned"));
        QVERIFY(result.run.matches);
        QVERIFY2(w.timingPanel()->numbersText().contains("pinned memory"),
                 qPrintable(w.timingPanel()->numbersText()));
        QVERIFY(runOnce(w, &result));
        QCOMPARE(QString::fromStdString(result.run.transfer), QStringLiteral("pageable"));
        QVERIFY(w.timingPanel()->numbersText().contains("pageable"));
    }

    void viewModesShowTheRightImages()
    {
        MainWindow &w = *m_window;
        QVERIFY(w.hasResult());
        w.setViewMode(MainWindow::ViewMode::Split);
        QVERIFY(!w.originalView()->wipeImage().isNull());
        QVERIFY(w.resultView()->isHidden());
        w.setViewMode(MainWindow::ViewMode::Difference);
        QCOMPARE(w.resultView()->image().size(), w.lastResult().heatMap.size());
        w.setViewMode(MainWindow::ViewMode::SideBySide);
        // Synchronised zoom: zooming one view moves the other.
        w.originalView()->zoomBy(2.0);
        QCOMPARE(w.resultView()->zoom(), w.originalView()->zoom());
        QCOMPARE(w.resultView()->center(), w.originalView()->center());
        // Pixel readout for both images.
        QTest::mouseMove(w.originalView(), w.originalView()->rect().center());
        QTRY_VERIFY(w.pixelText().contains("original") && w.pixelText().contains("result"));
        w.originalView()->fitToWindow();
    }

    // Transpose: the result is H x W. It must fit its own view (it was drawn at the original's zoom
    // and centre, cut off at the top and bottom), pan/zoom must mirror through the diagonal, and the
    // pixel readout must pair original (x, y) with result (y, x).
    void transposedResultFitsAndMapsPixels()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow &w = *m_window;
        ControlPanel *c = w.controls();
        w.setViewMode(MainWindow::ViewMode::SideBySide);
        w.openTestCard(259, 194);
        QVERIFY(c->setDeviceSpec(QString::fromStdString(device.spec())));
        QVERIFY(c->setLocalSizeText("auto"));
        QVERIFY(c->setPixelFormat(PixelFormat::Gray8));
        QVERIFY(c->setFilterName("transpose"));
        QVERIFY(c->setVariantName("naive"));
        ComputeResult result;
        QVERIFY(runOnce(w, &result));
        QVERIFY2(result.run.ok(), result.run.error.c_str());
        ImageView *left = w.originalView();
        ImageView *right = w.resultView();
        QCOMPARE(right->image().size(), QSize(194, 259));
        left->fitToWindow();
        QTest::qWait(50);
        // The whole transposed image is inside its view.
        const QRectF shown(right->mapFromImage(QPointF(0, 0)), right->mapFromImage(QPointF(194, 259)));
        QVERIFY2(QRectF(right->rect()).adjusted(-1, -1, 1, 1).contains(shown),
                 qPrintable(QString("result drawn at %1,%2 %3x%4 in a %5x%6 view")
                                .arg(shown.x()).arg(shown.y()).arg(shown.width()).arg(shown.height())
                                .arg(right->width()).arg(right->height())));
        // Zoom in on the original: the result shows the same pixels, transposed.
        left->zoomBy(4.0);
        QVERIFY(!right->isFitting());
        QCOMPARE(right->zoom(), left->zoom());
        QCOMPARE(right->center(), QPointF(left->center().y(), left->center().x()));
        left->fitToWindow();
        // Hover original pixel (30, 10): the result value is the one at (10, 30).
        const QPoint p = left->mapFromImage(QPointF(30.5, 10.5)).toPoint();
        QTest::mouseMove(left, p);
        QTRY_VERIFY(w.pixelText().contains("result x 10, y 30"));
        const QImage out = right->image();
        QVERIFY2(w.pixelText().endsWith(QString::number(qGray(out.pixel(10, 30)))), qPrintable(w.pixelText()));
        QCOMPARE(qGray(out.pixel(10, 30)), qGray(left->image().pixel(30, 10)));
        w.openTestCard(259, 194);
    }

    // A handful of pixels differing by 1 in a fitted (zoomed-out) heat map used to be averaged into
    // black: the map claimed "identical" while the caption said max 1.
    void differenceMapKeepsIsolatedPixelsWhenZoomedOut()
    {
        QImage heat(2000, 1200, QImage::Format_RGB32);
        heat.fill(qRgb(0, 0, 0));
        heat.setPixel(1234, 567, qRgb(255, 255, 255));
        const std::vector<QImage> levels = maxPooledLevels(heat);
        QVERIFY(!levels.empty());
        for (const QImage &level : levels)
            QVERIFY(level.pixel(1234 >> (&level - levels.data() + 1), 567 >> (&level - levels.data() + 1))
                    == qRgb(255, 255, 255));
        ImageView view;
        view.resize(400, 300);
        view.setImage(heat, levels);
        view.fitToWindow();
        QVERIFY(view.zoom() < 0.25);
        QVERIFY(view.drawnLevel() > 0);
        const QImage shot = view.grab().toImage();
        int bright = 0;
        for (int y = 0; y < shot.height(); ++y)
            for (int x = 0; x < shot.width(); ++x)
                bright += qGray(shot.pixel(x, y)) > 200 ? 1 : 0;
        QVERIFY2(bright > 0, "the single differing pixel vanished from the zoomed-out heat map");
        // At 1:1 and beyond, the full-resolution map is drawn.
        view.setActualSize();
        QCOMPARE(view.drawnLevel(), 0);
    }

    void originalShowsWhatTheFilterReads()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow &w = *m_window;
        ControlPanel *c = w.controls();
        QVERIFY(selectVariant(c, device, "gaussian5x5", "unrolled_constant"));
        QVERIFY(c->setPixelFormat(PixelFormat::Gray8));
        w.setViewMode(MainWindow::ViewMode::Split);
        w.openTestCard(259, 194); // colour
        // Before any run the original follows the chosen format.
        QCOMPARE(w.originalView()->image().format(), QImage::Format_Grayscale8);
        ComputeResult result;
        QVERIFY(runOnce(w, &result));
        QVERIFY2(result.run.ok(), result.run.error.c_str());
        // Split wipe: gray original against the gray result, not colour against gray.
        QCOMPARE(w.originalView()->image().format(), QImage::Format_Grayscale8);
        QCOMPARE(w.originalView()->wipeImage().format(), QImage::Format_Grayscale8);
        w.setViewMode(MainWindow::ViewMode::SideBySide);
        QVERIFY(c->setPixelFormat(PixelFormat::Rgba8888));
        QVERIFY(runOnce(w, &result));
        QVERIFY(w.originalView()->image().format() != QImage::Format_Grayscale8);
    }

    // Issue 24: a transparent picture (a transparent result, a logo PNG) is drawn on a light checkerboard,
    // not on the view's dark background where it looked empty and black text vanished.
    void transparentPicturesOnACheckerboard()
    {
        ImageView view;
        view.resize(200, 200);
        QImage clear(64, 64, QImage::Format_RGBA8888);
        clear.fill(Qt::transparent);
        view.setImage(clear);
        const QImage shot = view.grab().toImage();
        const QColor centre = shot.pixelColor(shot.rect().center());
        QVERIFY2(centre.lightness() > 180, qPrintable(centre.name()));
        QImage opaque(64, 64, QImage::Format_RGB32);
        opaque.fill(Qt::black);
        view.setImage(opaque);
        QCOMPARE(view.grab().toImage().pixelColor(shot.rect().center()), QColor(Qt::black));
    }

    // Issue 24: a transparent logo's result was shown as an opaque copy: its transparent background black,
    // and its black text gone. The result view gets the kernel's pixels, alpha included, and draws them on
    // the checkerboard.
    void transparentResultOnACheckerboard()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow &w = *m_window;
        ControlPanel *c = w.controls();
        QVERIFY(selectVariant(c, device, "gaussian5x5", "unrolled_constant"));
        QVERIFY(c->setPixelFormat(PixelFormat::Rgba8888));
        QImage logo(96, 64, QImage::Format_RGBA8888);
        logo.fill(Qt::transparent);
        for (int y = 24; y < 40; ++y)
            for (int x = 32; x < 64; ++x)
                logo.setPixelColor(x, y, Qt::black); // the logo's black text
        QTemporaryDir dir;
        const QString path = dir.filePath("logo.png");
        QVERIFY(logo.save(path));
        QVERIFY(w.loadFile(path));
        QVERIFY(c->setPixelFormat(PixelFormat::Rgba8888));
        ComputeResult result;
        QVERIFY(runOnce(w, &result));
        QVERIFY2(result.run.ok(), result.run.error.c_str());
        const QImage shown = w.resultView()->image();
        QVERIFY(shown.hasAlphaChannel());
        QCOMPARE(qAlpha(shown.pixel(2, 2)), 0);   // the background stays transparent
        QCOMPARE(qAlpha(shown.pixel(48, 32)), 255); // the text stays
        QCOMPARE(qGray(shown.pixel(48, 32)), 0);
        ImageView *view = w.resultView();
        view->fitToWindow();
        const QImage grab = view->grab().toImage();
        const QPointF corner = view->mapFromImage(QPointF(2.5, 2.5)), text = view->mapFromImage(QPointF(48.5, 32.5));
        QVERIFY2(grab.pixelColor(corner.toPoint()).lightness() > 180, qPrintable(grab.pixelColor(corner.toPoint()).name()));
        QVERIFY2(grab.pixelColor(text.toPoint()).lightness() < 60, qPrintable(grab.pixelColor(text.toPoint()).name()));
        w.openTestCard(259, 194);
    }

    // Issue 24: the result's caption ("Result: ... on ...") covered the top of the fitted picture. A fitted
    // picture sits below the captions (wide and tall pictures, one caption or two), and stays whole.
    void captionNeverCoversTheFittedPicture()
    {
        ImageView view;
        view.resize(420, 320);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        for (const QSize size : {QSize(400, 200), QSize(120, 400), QSize(300, 300)}) {
            QImage picture(size, QImage::Format_RGB32);
            picture.fill(Qt::darkGreen);
            view.setImage(picture);
            for (const QString &right : {QString(), QStringLiteral("Difference from the CPU reference")}) {
                view.setCaption(QStringLiteral("Result: gaussian5x5 / strips_half2 on some OpenCL device, 0.123 ms"), right);
                view.fitToWindow();
                const QRectF drawn(view.mapFromImage(QPointF(0, 0)), view.mapFromImage(QPointF(size.width(), size.height())));
                const int captions = std::max(view.captionRect(false).bottom(), view.captionRect(true).bottom());
                QVERIFY(captions > 0);
                QVERIFY2(drawn.top() >= captions, qPrintable(QString("%1x%2: picture from y = %3, caption to %4")
                                                                  .arg(size.width()).arg(size.height())
                                                                  .arg(drawn.top()).arg(captions)));
                QVERIFY(drawn.bottom() <= view.height() + 0.5 && drawn.left() >= -0.5 && drawn.right() <= view.width() + 0.5);
            }
        }
    }

    // Issue 24: the speed-ups name the CPU code they compare with; the single-threaded reference is
    // shown as what it is, never as "Speed-up vs CPU, 1 thread"; on a CPU device (PoCL) the panel says
    // that the device is this same processor.
    void timingPanelNamesItsCpu()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow &w = *m_window;
        ControlPanel *c = w.controls();
        w.openTestCard(259, 194);
        QVERIFY(selectVariant(c, device, "gaussian5x5", "unrolled_constant"));
        ComputeResult result;
        QVERIFY(runOnce(w, &result));
        QVERIFY2(result.run.ok(), result.run.error.c_str());
        const QString numbers = w.timingPanel()->numbersText();
        QVERIFY2(!numbers.contains("Speed-up vs CPU, 1 thread"), qPrintable(numbers));
        QVERIFY2(!numbers.contains("than the CPU"), qPrintable(numbers));
        if (result.run.cpuBestMs > 0)
            QVERIFY2(numbers.contains("Speed-up vs fastest CPU code (" + QString::fromStdString(result.run.cpuBestLabel)),
                     qPrintable(numbers));
        if (result.run.cpuSingleMs > 0)
            QVERIFY2(numbers.contains("Checking reference (plain C++, 1 thread)"), qPrintable(numbers));
        QCOMPARE(numbers.contains("same processor"), device.kind == DeviceKind::Cpu);
        if (const QString shots = qEnvironmentVariable("FWB_SCREENSHOT_DIR"); !shots.isEmpty()) {
            QWidget *numbersView = w.timingPanel()->findChild<QWidget *>("timingNumbers");
            numbersView->grab().save(shots + "/timing-numbers.png");
        }
    }

    void timingPanelSaysWhatItMeasured()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow &w = *m_window;
        ControlPanel *c = w.controls();
        w.openTestCard(259, 194);
        QVERIFY(selectVariant(c, device, "gaussian5x5", "unrolled_constant"));
        QVERIFY(c->setLocalSizeText("auto"));
        ComputeResult result;
        QVERIFY(runOnce(w, &result)); // built by now (earlier tests): from a cache
        QVERIFY(result.run.ok());
        QVERIFY(result.run.buildOrigin != "compiled");
        const QString legend = w.timingPanel()->bar()->legendText();
        QVERIFY2(legend.contains("cache") && !legend.contains("build 0.0"), qPrintable(legend));
        // The chart labels say what differs; the shared device is not repeated on every bar.
        const QString deviceName = QString::fromStdString(result.run.device);
        for (const QString &label : w.timingPanel()->historyLabels())
            QVERIFY2(!label.contains(deviceName.left(12)), qPrintable(label));

        // The CPU reference: one phase, no variant, no work-group.
        QVERIFY(c->setDeviceSpec("cpu-multi"));
        QVERIFY(!c->findChild<QWidget *>("shapePreset")->isEnabled());
        QVERIFY(c->findChild<QLabel *>("shapeStatus")->text().contains("does not use work-groups"));
        QVERIFY(runOnce(w, &result));
        QVERIFY(result.run.ok());
        const QString cpuLegend = w.timingPanel()->bar()->legendText();
        QVERIFY2(cpuLegend.contains("CPU filter") && !cpuLegend.contains("upload"), qPrintable(cpuLegend));
        QVERIFY(w.timingPanel()->numbersText().contains("CPU filter time"));
        QVERIFY(!w.timingPanel()->numbersText().contains("work-group"));
        QVERIFY(w.statusText().contains("CPU filter"));
        QVERIFY(w.timingPanel()->historyLabels().last().contains("CPU"));
        QVERIFY(c->setDeviceSpec(QString::fromStdString(device.spec())));
        QVERIFY(c->findChild<QWidget *>("shapePreset")->isEnabled());
    }

    // A first run that fails has no earlier numbers to point at.
    void failedFirstRunDoesNotClaimEarlierNumbers()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow w(false);
        w.controls()->setAutoRun(false);
        w.controls()->setRepeat(1);
        w.show();
        w.openTestCard(259, 194);
        QVERIFY(w.controls()->setDeviceSpec(QString::fromStdString(device.spec())));
        QVERIFY(w.controls()->setFilterName("box3x3_interior"));
        if (!w.controls()->setVariantName("exact_cl12"))
            QSKIP("exact_cl12 unavailable on this device");
        QVERIFY(w.controls()->setLocalSizeText("16x16")); // 257x192 interior: does not divide
        ComputeResult result;
        QVERIFY(runOnce(w, &result));
        if (result.run.ok())
            QSKIP("this device launched a non-dividing shape (OpenCL 2.0 non-uniform groups)");
        QVERIFY(!w.timingPanel()->hasNumbers());
        const QString note = w.timingPanel()->findChild<QLabel *>("timingNote")->text();
        QVERIFY2(!note.contains("previous"), qPrintable(note));
    }

    // Long variant titles wrap; every row is visible, no horizontal scroll bar hides the last one.
    // The figures the descriptions no longer quote: the kept record of a real device, under the
    // variant's description, always with device, driver, date and "not measured on this computer";
    // nothing when no record is installed.
    void variantPanelShowsTheKeptRecord()
    {
        ControlPanel *c = m_window->controls();
        auto *info = c->findChild<QLabel *>("variantInfo");
        QVERIFY(info);
        const auto restore = qScopeGuard([&] {
            qunsetenv("FWB_MEASUREMENTS_DIR");
            c->setFilterName("gaussian5x5");
        });
        QTemporaryDir empty;
        QVERIFY(qputenv("FWB_MEASUREMENTS_DIR", empty.path().toLocal8Bit()));
        QVERIFY(c->setFilterName("erode"));
        QVERIFY(c->setVariantName("strips"));
        QVERIFY2(!info->text().contains("Recorded on"), qPrintable(info->text()));
        qunsetenv("FWB_MEASUREMENTS_DIR"); // the source tree's data/measurements (the H100 record)
        const std::vector<VariantRecord> records
            = variantRecords(*installedMeasurementRecords(), "erode", "separable");
        if (records.empty())
            QSKIP("no kept record of erode found (data/measurements)");
        QVERIFY(c->setVariantName("separable"));
        const QString text = info->text();
        QVERIFY2(text.contains("Recorded on " + QString::fromStdString(records.front().record->deviceName)), qPrintable(text));
        QVERIFY2(text.contains(QString::fromStdString(records.front().record->date)), qPrintable(text));
        QVERIFY2(text.contains("not measured on this computer"), qPrintable(text));
        QVERIFY2(!text.contains("Measured on an H100"), qPrintable(text)); // no figure in the prose itself
        // A rung renamed in issue 23, chosen by its former name (an old --variant or saved setting): the
        // window selects today's and shows its kept record, found under the new name.
        QVERIFY(!variantRecords(*installedMeasurementRecords(), "erode", "strips").empty());
        QVERIFY(c->setVariantName("roofline"));
        QCOMPARE(c->variantName(), QStringLiteral("strips"));
        QVERIFY2(info->text().contains("Recorded on "), qPrintable(info->text()));
    }

    void variantListShowsEveryRow()
    {
        MainWindow &w = *m_window;
        ControlPanel *c = w.controls();
        auto *list = c->findChild<QListWidget *>("variantList");
        QVERIFY(list);
        for (const FilterSpec &f : catalogue()) {
            QVERIFY(c->setFilterName(QString::fromStdString(f.name)));
            // The last variant selected: selecting it must not scroll the first row out of view.
            QVERIFY(list->count() > 0);
            list->setCurrentRow(list->count() - 1);
            QTest::qWait(50); // the list refits once its viewport has the new width
            QVERIFY(!list->horizontalScrollBar()->isVisible());
            for (int row = 0; row < list->count(); ++row) {
                const QRect r = list->visualItemRect(list->item(row));
                QVERIFY2(list->viewport()->rect().contains(r),
                         qPrintable(QString("%1 row %2 at y %3..%4, viewport height %5")
                                        .arg(QString::fromStdString(f.name)).arg(row).arg(r.top())
                                        .arg(r.bottom()).arg(list->viewport()->height())));
            }
        }
        QVERIFY(c->setFilterName("gaussian5x5"));
    }

    // A variant the parameters rule out (box strips: radius up to 2) is greyed out with Session's own
    // reason as its tooltip, live as the radius moves; the chosen one stays chosen with the reason shown
    // under the list (never silently swapped), and comes back when the radius does.
    void variantsRuledOutByParamsAreGreyedOut_data()
    {
        QTest::addColumn<int>("radius");
        QTest::addColumn<bool>("stripsRuns");
        QTest::newRow("radius 1") << 1 << true;
        QTest::newRow("radius 2, its largest") << 2 << true;
        QTest::newRow("radius 3, the default") << 3 << false;
        QTest::newRow("radius 8") << 8 << false;
    }

    void variantsRuledOutByParamsAreGreyedOut()
    {
        FWB_REQUIRE_DEVICE(device);
        QFETCH(int, radius);
        QFETCH(bool, stripsRuns);
        ControlPanel *c = m_window->controls();
        QVERIFY(c->setDeviceSpec(QString::fromStdString(device.spec())));
        QVERIFY(c->setPixelFormat(PixelFormat::Gray8));
        QVERIFY(c->setFilterName("box"));
        const auto restore = qScopeGuard([&] {
            c->setParamValue("radius", 3);
            c->setFilterName("gaussian5x5");
        });
        const FilterSpec *box = findFilter("box");
        const VariantSpec *strips = box->variant("strips");
        QVERIFY(strips && strips->maxRadius == 2);
        if (!variantUnavailableReason(*strips, device, PixelFormat::Gray8).empty())
            QSKIP("box strips cannot run on this device at all (shown disabled for that reason)");
        auto *picker = c->findChild<VariantPicker *>();
        auto *list = c->findChild<QListWidget *>("variantList");
        auto *info = c->findChild<QLabel *>("variantInfo");
        QVERIFY(picker && list && info);
        auto stripsItem = [&]() -> QListWidgetItem * {
            for (int row = 0; row < list->count(); ++row)
                if (list->item(row)->data(Qt::UserRole).toString() == QLatin1String("strips"))
                    return list->item(row);
            return nullptr;
        };

        // Chosen at a radius it takes; then the radius moves.
        QVERIFY(c->setParamValue("radius", 1));
        QVERIFY(c->setVariantName("strips"));
        QSignalSpy variantChanged(picker, &VariantPicker::variantChanged);
        QVERIFY(c->setParamValue("radius", radius));
        QCOMPARE(c->variantName(), QStringLiteral("strips")); // kept, runnable or not
        QCOMPARE(variantChanged.count(), 0);
        QCOMPARE(c->availableVariants().contains("strips"), stripsRuns);
        QVERIFY(stripsItem());
        QCOMPARE(bool(stripsItem()->flags() & Qt::ItemIsEnabled), stripsRuns);
        QCOMPARE(stripsItem()->font().bold(), !stripsRuns); // a disabled row shows no selection: bold marks it
        const QString why = QString::fromStdString(paramsUnavailableReason(*box, *strips, c->params()));
        QCOMPARE(why.isEmpty(), stripsRuns);
        QCOMPARE(c->unavailableReason("strips"), why);
        QCOMPARE(info->text().contains("Cannot run at these parameters"), !stripsRuns);
        if (!stripsRuns) {
            QVERIFY2(why.contains("radius up to 2"), qPrintable(why));
            QVERIFY2(stripsItem()->toolTip().contains(why), qPrintable(stripsItem()->toolTip()));
            QVERIFY(stripsItem()->text().contains("unavailable"));
            QVERIFY(info->text().contains(why.toHtmlEscaped()));
        }
        // The variants that take any radius stay available.
        for (const VariantSpec &v : box->variants)
            if (v.maxRadius == 0 && variantUnavailableReason(v, device, PixelFormat::Gray8).empty())
                QVERIFY2(c->availableVariants().contains(QString::fromStdString(v.name)), v.name.c_str());

        // Back to a radius it takes: enabled again, as it was, and still the one chosen.
        QVERIFY(c->setParamValue("radius", 2));
        QVERIFY(c->availableVariants().contains("strips"));
        QVERIFY(c->unavailableReason("strips").isEmpty());
        QVERIFY(!stripsItem()->text().contains("unavailable"));
        QVERIFY(!stripsItem()->font().bold());
        QVERIFY(!info->text().contains("Cannot run at these parameters"));
        QCOMPARE(c->variantName(), QStringLiteral("strips"));
        QCOMPARE(variantChanged.count(), 0);
    }

};

QTEST_MAIN(TestGuiResults)
#include "tst_gui_results.moc"
