// filter-bench report: one self-contained HTML file that parses (as XHTML), references nothing on the
// network, holds the race, the heat map and the sweep as inline SVG, and whose every image decodes.
#include "TestSupport.h"

#include "Report.h"

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QXmlStreamReader>

using namespace fwb;

class TestReport : public QObject
{
    Q_OBJECT

private slots:
    // Issue 24: the race's log scale is labelled, with a time at each power of ten; no sentence names the
    // 1-thread checking reference "the CPU".
    void raceChartHasALabelledAxis()
    {
        RaceResult race;
        race.filter = "sobel";
        const std::pair<const char *, double> rows[] = {{"cpu_single", 900.0}, {"cpu_multi", 21.0}, {"roofline", 0.4}};
        for (const auto &[name, ms] : rows) {
            RaceEntry e;
            e.name = name;
            e.title = name;
            e.onHost = std::string(name).rfind("cpu_", 0) == 0;
            e.baseline = e.onHost;
            e.result.kernelMs = Stats{ms, ms, ms};
            e.result.totalMs = ms;
            e.result.cpuThreads = 2;
            race.entries.push_back(e);
        }
        race.pickCpuToBeat();
        QCOMPARE(race.cpuReferenceName, std::string("cpu_multi"));
        const QString svg = QString::fromStdString(raceSvg(race, RaceMetric::EndToEnd));
        QVERIFY2(svg.contains("log scale"), qPrintable(svg));
        for (const char *tick : {">0.100 ms<", ">1.00 ms<", ">10.00 ms<", ">100 ms<"})
            QVERIFY2(svg.contains(tick), tick);
        QVERIFY2(svg.contains("faster than our C++ code on 2 CPU threads") && !svg.contains("than the CPU"),
                 qPrintable(svg));
        QVERIFY(svg.contains("used to check every result"));
    }

    void base64()
    {
        QCOMPARE(base64Encode(""), std::string());
        QCOMPARE(base64Encode("f"), std::string("Zg=="));
        QCOMPARE(base64Encode("fo"), std::string("Zm8="));
        QCOMPARE(base64Encode("foo"), std::string("Zm9v"));
        QCOMPARE(base64Encode("foobar"), std::string("Zm9vYmFy"));
        QCOMPARE(htmlEscape("a<b & \"c\""), std::string("a&lt;b &amp; &quot;c&quot;"));
    }

    void reportParsesAndImagesDecode()
    {
        DeviceInfo device;
        if (!test::testDevice(device))
            QSKIP("no OpenCL platform");
        QTemporaryDir dir;
        const QString out = dir.path() + "/report.html";
        QProcess p;
        p.start(QStringLiteral(FWB_FILTER_BENCH),
                {"report", "--filter", "gaussian", "--synthetic", "96x64", "--repeat", "1", "--shapes", "8x8,16x4",
                 "--sweep", "sigma=1,2,4", "--out", out, "--cache-dir", dir.path()});
        QVERIFY(p.waitForFinished(600000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray html = file.readAll();
        QVERIFY(html.startsWith("<!DOCTYPE html>"));
        QVERIFY(!html.contains("http://") || !html.contains("src=\"http"));

        QXmlStreamReader xml(html);
        int images = 0, svgs = 0, svgRects = 0;
        QStringList headings;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement())
                continue;
            const QString name = xml.name().toString();
            if (name == "svg")
                ++svgs;
            if (name == "rect")
                ++svgRects;
            if (name == "h2")
                headings << xml.readElementText(QXmlStreamReader::IncludeChildElements);
            if (name == "img") {
                const QString src = xml.attributes().value("src").toString();
                QVERIFY2(src.startsWith("data:image/png;base64,"), qPrintable(src.left(40)));
                const QImage image = QImage::fromData(QByteArray::fromBase64(src.mid(22).toLatin1()), "PNG");
                QVERIFY(!image.isNull());
                ++images;
            }
            if (name == "script" || name == "link")
                QFAIL("the report must not load anything");
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString() + " at line " + QString::number(xml.lineNumber())));
        QCOMPARE(svgs, 3); // race, heat map, sweep
        QVERIFY(svgRects > 5);
        QCOMPARE(images, 2); // input and the fastest variant's output
        QVERIFY(headings.join(";").contains("Race"));
        QVERIFY(headings.join(";").contains("tuning"));
        QVERIFY(headings.join(";").contains("sweep"));
        QVERIFY(html.contains("filter-bench report --filter gaussian"));
        QVERIFY(html.contains("cpu_multi"));

        // Python's html.parser, where there is a Python: the file is plain HTML too.
        QProcess python;
        python.start("python3", {"-c",
                                 "import sys,html.parser\n"
                                 "class P(html.parser.HTMLParser):\n"
                                 "  n=0\n"
                                 "  def handle_starttag(self,t,a): P.n+=1\n"
                                 "p=P(); p.feed(open(sys.argv[1],encoding='utf-8').read()); p.close(); print(P.n)",
                                 out});
        if (python.waitForStarted(5000) && python.waitForFinished(60000) && python.exitCode() == 0)
            QVERIFY(python.readAllStandardOutput().trimmed().toInt() > 50);
    }
};

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
