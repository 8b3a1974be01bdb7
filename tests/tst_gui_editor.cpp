// The "Kernel source" dock in the real window, offscreen: the variant's file and headers, a build
// error listed on the user's line with a margin marker and the last good result kept, a run raced
// against the unedited variant, a runaway kernel stopped while the window stays responsive, Save As
// User Variant, Revert and the recovery file. FWB_SCREENSHOT_DIR=dir saves the dock as PNGs.
#include "TestSupport.h"

#include "ControlPanel.h"
#include "KernelEditorDock.h"
#include "KernelSources.h"
#include "MainWindow.h"
#include "UserVariants.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>

using namespace fwb;

class TestGuiEditor : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
    KernelEditorDock *m_dock = nullptr;
    bool m_haveDevice = false;

    void shot(const QString &name)
    {
        const QByteArray dir = qgetenv("FWB_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            m_window->grab().save(QString::fromLocal8Bit(dir) + "/" + name + ".png");
    }

    // The shipped file with `from` (inside gaussian5x5_unrolled) replaced; *line: where.
    static QString edited(const QString &from, const QString &to, int *line = nullptr)
    {
        QString text = QString::fromStdString(rawKernelFile("gaussian5x5.cl"));
        const qsizetype at = text.indexOf(from, text.indexOf("gaussian5x5_unrolled("));
        if (line)
            *line = 1 + int(text.left(at).count('\n'));
        return text.replace(at, from.size(), to);
    }

    bool waitFor(QSignalSpy &spy, int ms)
    {
        QElapsedTimer timer;
        timer.start();
        while (spy.isEmpty() && timer.elapsed() < ms)
            QTest::qWait(20);
        return !spy.isEmpty();
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("FWB_USER_VARIANT_DIR", m_dir.filePath("user-variants").toLocal8Bit());
        qputenv("FWB_EDITOR_RECOVERY", m_dir.filePath("recovery.json").toLocal8Bit());
        qputenv("FWB_WORKER", (QFileInfo(QStringLiteral(FWB_FILTER_BENCH)).absolutePath() + "/filter-worker").toLocal8Bit());
        DeviceInfo device;
        m_haveDevice = test::testDevice(device);
        m_window = std::make_unique<MainWindow>(false);
        m_window->controls()->setAutoRun(false);
        m_window->resize(1600, 1000);
        m_window->show();
        m_window->openTestCard(320, 240);
        QVERIFY(m_window->controls()->setFilterName("gaussian5x5"));
        QVERIFY(m_window->controls()->setVariantName("unrolled_constant"));
        m_dock = m_window->findChild<KernelEditorDock *>();
        QVERIFY(m_dock);
        m_dock->show();
        m_dock->raise();
        QTest::qWait(50);
    }

    void showsFileHeadersAndDefines()
    {
        QCOMPARE(m_dock->tabTitles().value(0), QString("gaussian5x5.cl"));
        QVERIFY2(m_dock->tabTitles().join(",").contains("common.clh"), qPrintable(m_dock->tabTitles().join(",")));
        QVERIFY2(m_dock->definesText().contains("FWB_W0"), qPrintable(m_dock->definesText()));
        QVERIFY(m_dock->source().contains("gaussian5x5_unrolled"));
        QVERIFY(!m_dock->isModified());
    }

    void runRacesTheOriginal()
    {
        if (!m_haveDevice)
            QSKIP("no OpenCL platform");
        QSignalSpy done(m_dock, &KernelEditorDock::runFinished);
        m_dock->run();
        QVERIFY(waitFor(done, 120000));
        QVERIFY2(done.last().at(0).toBool(), qPrintable(m_dock->statusText()));
        QVERIFY(m_dock->hasRaceResult());
        QVERIFY(m_dock->originalMs() > 0 && m_dock->editedMs() > 0);
        QVERIFY(m_dock->editedMatches());
        shot("editor-run");
    }

    void buildErrorOnTheUsersLine()
    {
        if (!m_haveDevice)
            QSKIP("no OpenCL platform");
        const double keptMs = m_dock->editedMs();
        int line = 0;
        m_dock->setSource(edited("const float filter[25] = {FWB_WEIGHTS};",
                                 "const float filter[25] = {FWB_WEIGHTS}; oops_undeclared = 1;", &line));
        QVERIFY(m_dock->isModified());
        QSignalSpy done(m_dock, &KernelEditorDock::buildFinished);
        m_dock->build();
        QVERIFY(waitFor(done, 120000));
        QCOMPARE(done.last().at(0).toBool(), false);
        const QString first = m_dock->diagnosticTexts().value(0);
        QVERIFY2(first.startsWith(QString("gaussian5x5.cl:%1:").arg(line)), qPrintable(first));
        QVERIFY2(m_dock->statusText().contains(QString("gaussian5x5.cl:%1:").arg(line)), qPrintable(m_dock->statusText()));
        QVERIFY(!m_dock->rawLog().isEmpty());
        QCOMPARE(m_dock->editedMs(), keptMs); // the last good result stays on screen
        m_dock->goToLine(line);
        QCOMPARE(m_dock->currentLine(), line);
        shot("editor-build-error");
    }

    void runawayKernelIsStopped()
    {
        if (!m_haveDevice)
            QSKIP("no OpenCL platform");
        m_dock->setTimeoutS(2);
        m_dock->setSource(edited("const float filter[25] = {FWB_WEIGHTS};",
                                 "const float filter[25] = {FWB_WEIGHTS}; volatile int spin = 1; while (spin) {}"));
        QSignalSpy done(m_dock, &KernelEditorDock::runFinished);
        QElapsedTimer timer;
        timer.start();
        m_dock->run();
        // The window stays responsive: the event loop turns while the helper spins.
        qint64 worstGap = 0, last = timer.elapsed();
        while (done.isEmpty() && timer.elapsed() < 120000) {
            QTest::qWait(20);
            worstGap = qMax(worstGap, timer.elapsed() - last);
            last = timer.elapsed();
        }
        QVERIFY(!done.isEmpty());
        QCOMPARE(done.last().at(0).toBool(), false);
        QVERIFY2(m_dock->statusText().contains("did not finish within 2 s and was stopped"), qPrintable(m_dock->statusText()));
        QVERIFY2(worstGap < 500, QByteArray::number(worstGap));
        shot("editor-runaway");
        m_dock->setTimeoutS(10);
    }

    void saveRevertAndRecovery()
    {
        m_dock->setSource(edited("fwb_store(dst, y * width + x, sum);", "fwb_store(dst, y * width + x, sum * 0.5f);"));
        QVERIFY(m_dock->saveAsUserVariant("darker"));
        const std::vector<UserVariant> saved = listUserVariants();
        QCOMPARE(int(saved.size()), 1);
        QCOMPARE(saved[0].baseVariant, std::string("unrolled_constant"));
        QVERIFY(QString::fromStdString(saved[0].source).contains("sum * 0.5f"));

        QSignalSpy ignored(m_dock, &KernelEditorDock::buildFinished);
        QTest::qWait(1700); // the autosave fires
        QVERIFY(QFileInfo::exists(m_dock->recoveryPath()));
        // A second dock (as after a crash) offers the edits back.
        {
            KernelEditorDock again;
            ComputeRequest request;
            request.run = m_window->controls()->runRequest();
            again.setRequest(request);
            QVERIFY(again.recoveryOffered());
            again.restoreRecovery();
            QVERIFY(again.source().contains("sum * 0.5f"));
        }
        m_dock->revert();
        QVERIFY(!m_dock->isModified());
        QVERIFY(!QFileInfo::exists(m_dock->recoveryPath()));
    }
};

QTEST_MAIN(TestGuiEditor)
#include "tst_gui_editor.moc"
