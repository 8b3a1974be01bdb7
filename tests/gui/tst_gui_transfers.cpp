// Run ▸ Compare Transfer Modes, offscreen: the page runs the current variant once per transfer mode on
// its own worker thread and shows one stacked bar (staging / upload / kernel / download) per mode, in
// the modes' order; a mode the variant cannot use is a row that says why. In the window, the action
// sits in the Run menu and the page is a tab. With "Pinned staging" picked, the window's own runs go
// straight from a page-locked copy of the image (made once by the worker): staging 0, same pixels.
#include "GuiTestSupport.h"
#include "TestSupport.h"

#include "ControlPanel.h"
#include "MainWindow.h"
#include "TimingPanel.h"
#include "TransferComparePage.h"

#include <QAction>
#include <QComboBox>
#include <QElapsedTimer>
#include <QDir>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTabWidget>

using namespace fwb;

// The shell's Run menu takes each page's WorkbenchPage::runMenuActions().
template <typename Page>
constexpr bool hasRunMenuHook = requires(const Page &page) { page.runMenuActions(); };

class TestGuiTransfers : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void oneBarPerMode_data();
    void oneBarPerMode();
    void noInputNoRun();
    void summaryTellsNoiseFromModes();
    void inTheWindow();
    void windowPinnedSkipsTheStaging();

private:
    DeviceInfo m_device;
    bool m_haveDevice = false;
};

void TestGuiTransfers::initTestCase()
{
    m_haveDevice = fwb::test::testDevice(m_device);
}

void TestGuiTransfers::oneBarPerMode_data()
{
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("format");
    QTest::newRow("unrolled_constant gray8") << "unrolled_constant" << int(PixelFormat::Gray8);
    QTest::newRow("image2d rgba8888") << "image2d" << int(PixelFormat::Rgba8888);
}

void TestGuiTransfers::oneBarPerMode()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL device");
    QFETCH(QString, variant);
    QFETCH(int, format);
    TransferComparePage page;
    page.resize(900, 420);
    page.show();
    page.setInput(std::make_shared<const Image>(makeTestCard(160, 120, PixelFormat(format))), "test card");
    ComputeRequest request;
    request.engine.kind = ComputeEngine::OpenCl;
    request.engine.device = m_device;
    request.run = fwb::test::oneShotRequest("gaussian5x5", variant.toStdString(), PixelFormat(format));
    page.setRequest(request);
    QVERIFY(page.compareAction()->isEnabled());
    QSignalSpy finished(&page, &TransferComparePage::compareFinished);
    QVERIFY(page.startCompare());
    QVERIFY(page.isComparing() || finished.count() == 1);
    QVERIFY(!page.startCompare()); // one comparison at a time
    QVERIFY(finished.count() == 1 || finished.wait(180000));
    QVERIFY(!page.isComparing());
    QVERIFY(page.compareAction()->isEnabled());

    const QVector<TransferBar> &bars = page.chart()->bars();
    const std::vector<TransferMode> &modes = allTransferModes();
    QCOMPARE(bars.size(), qsizetype(modes.size()));
    const bool images = variant == "image2d";
    for (qsizetype i = 0; i < bars.size(); ++i) {
        const TransferBar &bar = bars[i];
        QCOMPARE(bar.mode, QString(transferModeName(modes[std::size_t(i)])));
        const bool applies = modes[std::size_t(i)] == TransferMode::Pageable || modes[std::size_t(i)] == TransferMode::Pinned;
        if (images && !applies) {
            QVERIFY2(bar.unavailable && !bar.ok, qPrintable(bar.mode));
            QVERIFY2(bar.note.contains("image2d"), qPrintable(bar.note));
            continue;
        }
        if (bar.unavailable) { // svm on a device without it
            QCOMPARE(bar.mode, QStringLiteral("svm"));
            continue;
        }
        QVERIFY2(bar.ok, qPrintable(bar.mode + ": " + bar.note));
        QVERIFY2(bar.uploadMs > 0 && bar.kernelMs > 0 && bar.downloadMs > 0, qPrintable(bar.mode));
        QVERIFY(bar.stackMs() > 0 && bar.endToEndMs > 0);
        // Issue 24: every mode measured in several rounds, the bar the middle one, the spread kept.
        QCOMPARE(bar.rounds, kTransferRounds);
        QVERIFY2(bar.lowMs > 0 && bar.lowMs <= bar.endToEndMs && bar.endToEndMs <= bar.highMs, qPrintable(bar.mode));
        if (bar.mode == "pinned")
            QVERIFY(bar.stagingMs > 0); // the host memcpy into and out of page-locked memory, its own segment
    }
    QVERIFY(!page.findChild<QLabel *>("transferSummary")->text().isEmpty());
    page.chart()->grab().save(QDir::temp().filePath(QStringLiteral("tst_gui_transfers_%1.png").arg(variant)));
}

// Issue 24: the page measured one repeat per mode and printed noise as a mode's difference ("pinned
// 1.1x"). A mode whose rounds overlap the fastest's is "about as fast", never "N× as long".
void TestGuiTransfers::summaryTellsNoiseFromModes()
{
    auto bar = [](const char *mode, double ms, double lo, double hi) {
        TransferBar b;
        b.mode = mode;
        b.ok = true;
        b.note = "a note";
        b.endToEndMs = ms;
        b.lowMs = lo;
        b.highMs = hi;
        b.rounds = 3;
        return b;
    };
    const QVector<TransferBar> bars{bar("pageable", 10.0, 9.1, 12.0), bar("pinned", 9.5, 9.0, 10.5),
                                    bar("zero_copy", 30.0, 29.0, 31.0)};
    const QString text = transferSummary(bars);
    QVERIFY2(text.contains("<b>pinned</b>"), qPrintable(text));
    QVERIFY2(text.contains("pageable about as fast: within the spread of 3 rounds"), qPrintable(text));
    QVERIFY2(!text.contains("pageable 10"), qPrintable(text));
    QVERIFY2(text.contains("zero_copy 30") && text.contains("3.2× as long"), qPrintable(text));
    QVERIFY(transferSummary({}).isEmpty());
}

void TestGuiTransfers::noInputNoRun()
{
    TransferComparePage page;
    QVERIFY(!page.compareAction()->isEnabled());
    QVERIFY(!page.startCompare());
    QVERIFY(page.chart()->bars().isEmpty());
}

void TestGuiTransfers::inTheWindow()
{
    MainWindow window(false);
    TransferComparePage *page = nullptr;
    for (WorkbenchPage *p : window.pages())
        if (auto *t = qobject_cast<TransferComparePage *>(p))
            page = t;
    QVERIFY(page);
    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("pageTabs"));
    QVERIFY(tabs && tabs->indexOf(page) >= 0);
    if constexpr (!hasRunMenuHook<WorkbenchPage>)
        QSKIP("this WorkbenchPage has no Run menu hook (runMenuActions) yet");
    QMenu *runMenu = nullptr;
    for (QAction *a : window.menuBar()->actions())
        if (a->menu() && a->text().remove('&') == QStringLiteral("Run"))
            runMenu = a->menu();
    QVERIFY(runMenu);
    QVERIFY2(runMenu->actions().contains(page->compareAction()), "Compare Transfer Modes is in the Run menu");
}

static bool samePixels(const Image &a, const Image &b)
{
    return a.width() == b.width() && a.height() == b.height() && a.format() == b.format()
           && std::equal(a.data(), a.data() + a.sizeBytes(), b.data(), b.data() + b.sizeBytes());
}

// Pinned in the window: the worker hands the session a page-locked copy of the image (once per image,
// device and format, before the timed run), so the staging figure is 0 and the panel says why; the
// pixels are the pageable run's, byte for byte; a parameter change keeps the image resident and the copy.
void TestGuiTransfers::windowPinnedSkipsTheStaging()
{
    if (!m_haveDevice)
        QSKIP("no OpenCL device");
    MainWindow window(false);
    window.resize(1400, 900);
    window.show();
    fwb::test::PageWindowSetup setup;
    setup.filter = QStringLiteral("gaussian5x5");
    setup.variant = QStringLiteral("unrolled_constant");
    setup.format = PixelFormat::Rgba8888;
    QVERIFY(fwb::test::setUpPageWindow(window, m_device, 331, 203, setup));
    ControlPanel *c = window.controls();
    auto *transfer = c->findChild<QComboBox *>(QStringLiteral("transferCombo"));
    QVERIFY(transfer);
    auto pick = [&](const char *mode) { transfer->setCurrentIndex(transfer->findData(QString::fromLatin1(mode))); };

    ComputeResult pageable;
    pick("pageable");
    QVERIFY(test::runInWindow(window, &pageable));
    QVERIFY2(pageable.run.ok(), pageable.run.error.c_str());
    QVERIFY(!pageable.pageLockedInput);

    ComputeResult pinned;
    pick("pinned");
    QVERIFY(test::runInWindow(window, &pinned));
    QVERIFY2(pinned.run.ok(), pinned.run.error.c_str());
    QCOMPARE(QString::fromStdString(pinned.run.transfer), QStringLiteral("pinned"));
    QVERIFY2(pinned.pageLockedInput, pinned.run.transferNote.c_str());
    QVERIFY(pinned.pageLockedCopyMs >= 0); // made for this image, before the run
    QCOMPARE(pinned.run.stagingMs, 0.0);
    QVERIFY2(QString::fromStdString(pinned.run.transferNote).startsWith("page-locked image"),
             pinned.run.transferNote.c_str());
    QVERIFY(pinned.run.reuploaded); // a new transfer mode uploads once
    QVERIFY(pinned.run.matches);
    QVERIFY(pinned.outputImage && pinned.outputImage->ownsStorage()); // the result keeps no page-locked block
    QVERIFY(samePixels(*pinned.outputImage, *pageable.outputImage));
    const QString text = window.timingPanel()->numbersText();
    QVERIFY2(text.contains("staging 0.000 ms (image page-locked"), qPrintable(text));
    window.grab().save(QDir::temp().filePath(QStringLiteral("tst_gui_transfers_window_pinned.png")));

    // Only a parameter changes: the image stays on the device, the page-locked copy is reused.
    QVERIFY(c->setParamValue(QStringLiteral("sigma"), 2.0));
    ComputeResult resident;
    QVERIFY(test::runInWindow(window, &resident));
    QVERIFY2(resident.run.ok(), resident.run.error.c_str());
    QVERIFY(resident.pageLockedInput);
    QCOMPARE(resident.pageLockedCopyMs, -1.0);
    QVERIFY(!resident.run.reuploaded);
    QCOMPARE(resident.run.stagingMs, 0.0);
    QVERIFY(resident.run.matches);
    QVERIFY2(window.timingPanel()->numbersText().contains("upload skipped: image resident"),
             qPrintable(window.timingPanel()->numbersText()));

    // A new pixel format: a new copy (in the kernels' layout), the pageable run's pixels again.
    QVERIFY(c->setParamValue(QStringLiteral("sigma"), findFilter("gaussian5x5")->param(pageable.request.params, "sigma")));
    QVERIFY(c->setPixelFormat(PixelFormat::Gray8));
    ComputeResult gray;
    QVERIFY(test::runInWindow(window, &gray));
    QVERIFY2(gray.run.ok(), gray.run.error.c_str());
    QVERIFY(gray.pageLockedInput && gray.pageLockedCopyMs >= 0);
    QCOMPARE(gray.run.stagingMs, 0.0);
    pick("pageable");
    ComputeResult grayPageable;
    QVERIFY(test::runInWindow(window, &grayPageable));
    QVERIFY(!grayPageable.pageLockedInput); // the copy went with the mode
    QVERIFY(samePixels(*gray.outputImage, *grayPageable.outputImage));
    QVERIFY(window.timingPanel()->numbersText().contains("pageable"));
}

QTEST_MAIN(TestGuiTransfers)
#include "tst_gui_transfers.moc"
