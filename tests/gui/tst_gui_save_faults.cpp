// Saving where it cannot succeed, and closing the window mid-run. A read-only folder (chmod 555, or a
// read-only tmpfs when running as root, whom permissions do not stop) and a full disk (a small tmpfs,
// filled; needs root's mount, skipped otherwise): filter-bench's --output and --json-file and the
// window's Save and Export say why, exit non-zero, and leave the files already there byte for byte
// and no temp file behind. Closing the window while a long run is on: the worker stops at its next
// launch boundary and the window is gone (worker thread joined) within 2 s.
#include "BenchProcess.h"
#include "TestSupport.h"

#include "ComputeWorker.h"
#include "ControlPanel.h"
#include "MainWindow.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStorageInfo>
#include <QTemporaryDir>

#include <unistd.h>

using namespace fwb;

class TestGuiSaveFaults : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_readOnly, m_full;     // empty: not available here (the reason in m_*Why)
    QString m_readOnlyWhy, m_fullWhy;
    QStringList m_mounts;
    QMap<QString, QByteArray> m_existing; // path -> bytes that must survive

    static bool run(const QString &program, const QStringList &args, QString *output = nullptr)
    {
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(program, args);
        const bool ok = p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
        if (output)
            *output = QString::fromLocal8Bit(p.readAll()).trimmed();
        return ok;
    }

    using Outcome = fwb::test::BenchOutcome;
    static Outcome bench(const QStringList &args) { return fwb::test::runBench(args, 300000); }

    void putExisting(const QString &dir)
    {
        QImage image(40, 30, QImage::Format_RGB32);
        image.fill(qRgb(10, 200, 30));
        const QString png = dir + "/existing.png", json = dir + "/existing.json";
        QVERIFY(image.save(png));
        QFile f(json);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"keep\": \"me\"}\n");
        f.close();
        for (const QString &path : {png, json}) {
            QFile in(path);
            QVERIFY(in.open(QIODevice::ReadOnly));
            m_existing.insert(path, in.readAll());
        }
    }

    // Every file that was there is unchanged, and nothing else appeared (no temp file either).
    void verifyUntouched(const QString &dir, const QStringList &extra = {})
    {
        QStringList expected{"existing.json", "existing.png"};
        expected += extra;
        expected.sort();
        QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::Hidden, QDir::Name), expected);
        for (auto it = m_existing.cbegin(); it != m_existing.cend(); ++it) {
            if (!it.key().startsWith(dir + "/"))
                continue;
            QFile f(it.key());
            QVERIFY(f.open(QIODevice::ReadOnly));
            QVERIFY2(f.readAll() == it.value(), qPrintable(it.key() + " changed"));
        }
    }

    QList<QPair<QString, QString>> targets() const
    {
        QList<QPair<QString, QString>> list;
        if (!m_readOnly.isEmpty())
            list.append({"read-only folder", m_readOnly});
        if (!m_full.isEmpty())
            list.append({"full disk", m_full});
        return list;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // Read-only folder.
        const QString ro = m_dir.filePath("read-only");
        QVERIFY(QDir().mkpath(ro));
        if (geteuid() != 0) {
            putExisting(ro);
            QVERIFY(QFile::setPermissions(ro, QFile::ReadOwner | QFile::ExeOwner));
            m_readOnly = ro;
        } else if (run("mount", {"-t", "tmpfs", "-o", "size=1m", "tmpfs", ro}, &m_readOnlyWhy)) {
            m_mounts << ro;
            putExisting(ro);
            if (run("mount", {"-o", "remount,ro", ro}, &m_readOnlyWhy))
                m_readOnly = ro;
        }
        // Full disk: 256 KiB of tmpfs holding the existing files and a filler up to the last byte.
        const QString full = m_dir.filePath("full-disk");
        QVERIFY(QDir().mkpath(full));
        if (geteuid() != 0) {
            m_fullWhy = "mounting a small tmpfs needs root";
        } else if (run("mount", {"-t", "tmpfs", "-o", "size=256k", "tmpfs", full}, &m_fullWhy)) {
            m_mounts << full;
            putExisting(full);
            QFile filler(full + "/.filler");
            QVERIFY(filler.open(QIODevice::WriteOnly | QIODevice::Unbuffered));
            const QByteArray block(4096, 'x');
            while (filler.write(block) == block.size()) {
            }
            filler.close();
            m_full = full;
        }
        if (m_readOnly.isEmpty())
            qWarning("no read-only folder here: %s", qPrintable(m_readOnlyWhy));
        if (m_full.isEmpty())
            qWarning("no full disk here: %s", qPrintable(m_fullWhy));
    }

    void cleanupTestCase()
    {
        for (const QString &mount : std::as_const(m_mounts))
            run("umount", {mount});
        QFile::setPermissions(m_dir.filePath("read-only"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }

    // filter-bench --output / --json-file into the folder: non-zero exit, one line naming the file
    // and the reason, existing files intact (also with --overwrite), nothing new.
    void cliOutput()
    {
        FWB_REQUIRE_DEVICE(device);
        if (targets().isEmpty())
            QSKIP(qPrintable("neither a read-only folder nor a full disk here: " + m_readOnlyWhy + "; " + m_fullWhy));
        for (const auto &[what, dir] : targets()) {
            const QStringList base{"run", "--filter", "box", "--variant", "naive", "--repeat", "1",
                                   "--synthetic", "640x480", "--format", "rgba8888"};
            const QList<QPair<QStringList, QString>> cases{
                {{"--output", dir + "/new.png"}, dir + "/new.png"},
                {{"--output", dir + "/existing.png", "--overwrite"}, dir + "/existing.png"},
                {{"--json-file", dir + "/new.json"}, dir + "/new.json"},
                {{"--json-file", dir + "/existing.json", "--overwrite"}, dir + "/existing.json"},
            };
            for (const auto &[args, file] : cases) {
                const Outcome o = bench(base + args);
                const QString err = QString::fromUtf8(o.err).trimmed();
                const QString label = what + ": " + args.join(' ');
                QVERIFY2(o.code == 1, qPrintable(label + QString(": exit %1 ").arg(o.code) + err));
                QVERIFY2(err.contains(file) && err.count('\n') == 0, qPrintable(label + ": " + err));
                QVERIFY2(err.contains("Read-only") || err.contains("read-only") || err.contains("ermission")
                             || err.contains("No space") || err.contains("disk full"),
                         qPrintable(label + ": " + err));
                verifyUntouched(dir, dir == m_full ? QStringList{".filler"} : QStringList{});
            }
        }
    }

    // The window's Save and Export: false with the reason in the message, files intact.
    void windowSave()
    {
        FWB_REQUIRE_DEVICE(device);
        if (targets().isEmpty())
            QSKIP(qPrintable("neither a read-only folder nor a full disk here: " + m_readOnlyWhy + "; " + m_fullWhy));
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.filePath("settings"));
        MainWindow w(false);
        w.controls()->setAutoRun(false);
        w.controls()->setRepeat(1);
        QVERIFY(w.controls()->setFilterName("box"));
        w.show();
        w.openTestCard(320, 240);
        QSignalSpy shown(&w, &MainWindow::resultShown);
        QVERIFY(w.startRun());
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 120000);
        QVERIFY(w.hasResult());
        for (const auto &[what, dir] : targets()) {
            const QStringList extra = dir == m_full ? QStringList{".filler"} : QStringList{};
            for (const auto &[file, overwrite] : {qMakePair(QString("new.png"), false),
                                                  qMakePair(QString("existing.png"), true)}) {
                QString error;
                QVERIFY2(!w.saveResult(dir + "/" + file, overwrite, &error), qPrintable(what + " " + file));
                QVERIFY2(error.startsWith("Cannot save") && error.contains(QDir::toNativeSeparators(dir + "/" + file)),
                         qPrintable(error));
                verifyUntouched(dir, extra);
            }
            for (const QString &file : {QString("new.json"), QString("existing.json")}) {
                QString error;
                QVERIFY2(!w.exportRunLog(dir + "/" + file, &error),
                         qPrintable(what + " " + file + QString(": exported %1 runs, %2 bytes free")
                                                            .arg(w.runLogSize())
                                                            .arg(QStorageInfo(dir).bytesFree())));
                QVERIFY2(!error.isEmpty(), qPrintable(what + " " + file + ": no reason given"));
                verifyUntouched(dir, extra);
            }
        }
    }

    // Close during a long run: the run is cancelled at a launch boundary and the window, its worker
    // thread joined, is gone within 2 s.
    void closingMidRun()
    {
        FWB_REQUIRE_DEVICE(device);
        auto w = std::make_unique<MainWindow>(false);
        w->controls()->setAutoRun(false);
        w->controls()->setRepeat(100000);
        QVERIFY(w->controls()->setFilterName("gaussian5x5"));
        w->show();
        w->openTestCard(2400, 1600);
        // runStarted comes from the worker thread: a QSignalSpy would append there while this thread
        // reads it (Qt 6.4's spy has no lock; ThreadSanitizer reports it), so take it queued.
        bool started = false;
        connect(w->worker(), &ComputeWorker::runStarted, this, [&started] { started = true; }, Qt::QueuedConnection);
        QVERIFY(w->startRun());
        QTRY_VERIFY_WITH_TIMEOUT(started, 60000);
        QTest::qWait(1500); // past the build, into the timed launches
        QVERIFY(w->isRunning());
        QElapsedTimer timer;
        timer.start();
        w->close();
        w.reset(); // closeEvent cancels, the destructor aborts, wakes and joins the worker
        const qint64 ms = timer.elapsed();
        QVERIFY2(ms < 2000, qPrintable(QString("closing took %1 ms").arg(ms)));
        qInfo("closing mid-run took %lld ms", ms);
    }
};

QTEST_MAIN(TestGuiSaveFaults)
#include "tst_gui_save_faults.moc"
