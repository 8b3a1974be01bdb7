// File ▸ Export Report in the real window, offscreen on PoCL: after a run, a race, a tuning, a sweep
// and a duel on a small picture the report holds every section; it parses (XHTML: an XML parser
// reads it to the end), every embedded PNG decodes, every chart is inline SVG, nothing is fetched from
// the network, and an existing file is never replaced without a confirmation.
#include "TestSupport.h"

#include "ControlPanel.h"
#include "DuelPage.h"
#include "MainWindow.h"
#include "RacePage.h"
#include "ReportExport.h"
#include "SweepPage.h"
#include "TunerPage.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QXmlStreamReader>

using namespace fwb;

class TestGuiReport : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    template <class Page>
    static Page *page(MainWindow &window)
    {
        for (WorkbenchPage *p : window.pages())
            if (auto *found = qobject_cast<Page *>(p))
                return found;
        return nullptr;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("FWB_CACHE_DIR", m_dir.filePath("cache").toLocal8Bit()); // tuning stays private
    }

    void exportsEverySection()
    {
        FWB_REQUIRE_DEVICE(device);
        MainWindow window(false);
        window.show();
        ControlPanel *c = window.controls();
        c->setAutoRun(false);
        c->setRepeat(1);
        QVERIFY(c->setDeviceSpec(QString::fromStdString(device.spec())));
        QVERIFY(c->setFilterName("gaussian"));
        window.openTestCard(64, 48);

        QSignalSpy shown(&window, &MainWindow::resultShown);
        QVERIFY(window.startRun());
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 60000);

        RacePage *race = page<RacePage>(window);
        QSignalSpy raced(race, &JobPage::jobFinished);
        QVERIFY(race->startJob());
        QTRY_VERIFY_WITH_TIMEOUT(!raced.isEmpty(), 120000);

        TunerPage *tuner = page<TunerPage>(window);
        QSignalSpy tuned(tuner, &JobPage::jobFinished);
        QVERIFY(tuner->startJob());
        QTRY_VERIFY_WITH_TIMEOUT(!tuned.isEmpty(), 120000);

        SweepPage *sweep = page<SweepPage>(window);
        sweep->setRange(1, 4, 2);
        QSignalSpy swept(sweep, &JobPage::jobFinished);
        QVERIFY(sweep->startJob());
        QTRY_VERIFY_WITH_TIMEOUT(!swept.isEmpty(), 120000);

        DuelPage *duel = page<DuelPage>(window);
        QVERIFY(duel->setSideSpec(1, QStringLiteral("cpu-multi")));
        QSignalSpy dueled(duel, &JobPage::jobFinished);
        QVERIFY(duel->startJob());
        QTRY_VERIFY_WITH_TIMEOUT(!dueled.isEmpty(), 120000);

        const ReportData data = workbenchReport(window);
        QVERIFY(data.race && data.tune && data.sweep);
        QCOMPARE(int(data.runs.size()), window.runLogSize());
        QCOMPARE(int(data.duel.size()), 2); // the duel's two sides: a section of their own (issue 24)

        const QString path = m_dir.filePath("report.html");
        QString error;
        QVERIFY2(writeWorkbenchReport(window, path, false, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray html = file.readAll();
        file.close();

        // It parses to the end, and every picture in it decodes.
        QXmlStreamReader xml(html);
        int images = 0, svgs = 0, headings = 0;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement())
                continue;
            if (xml.name() == QLatin1String("h2"))
                ++headings;
            if (xml.name() == QLatin1String("svg"))
                ++svgs;
            if (xml.name() == QLatin1String("img")) {
                const QString src = xml.attributes().value(QLatin1String("src")).toString();
                QVERIFY2(src.startsWith(QLatin1String("data:image/png;base64,")), qPrintable(src.left(60)));
                QImage decoded;
                QVERIFY(decoded.loadFromData(QByteArray::fromBase64(src.mid(src.indexOf(',') + 1).toLatin1()), "PNG"));
                QVERIFY(!decoded.isNull());
                ++images;
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(QStringLiteral("%1 at line %2").arg(xml.errorString()).arg(xml.lineNumber())));
        QVERIFY(svgs >= 3);   // race, heat map, sweep
        QVERIFY(images >= 4); // input, output, difference, race winner, duel sides
        QVERIFY(headings >= 7);
        for (const char *section : {"Runs", "Race", "Duel: two ways side by side", "Work-group tuning", "Parameter sweep",
                                    "Images", "Reproduce"})
            QVERIFY2(html.contains(section), section);
        QVERIFY(!html.contains("http://") || html.count("http://") == html.count("http://www.w3.org/"));
        QVERIFY(!html.contains("https://"));

        // Never replaced silently: a second export to the same name is refused without confirmation.
        QVERIFY(!writeWorkbenchReport(window, path, false, &error));
        QVERIFY(error.contains(QLatin1String("already exists")));
        QVERIFY(writeWorkbenchReport(window, path, true, &error));
        // Issue 24: the export gave no confirmation. The status bar says where the report went.
        const QString second = m_dir.filePath("again.html");
        QVERIFY2(exportWorkbenchReport(window, second, false, &error), qPrintable(error));
        QVERIFY2(window.statusText().contains(QDir::toNativeSeparators(second)), qPrintable(window.statusText()));
    }
};

QTEST_MAIN(TestGuiReport)
#include "tst_gui_report.moc"
