// filter-bench report: one self-contained HTML file that parses (as XHTML), references nothing on the
// network, holds the race, the heat map and the sweep as inline SVG, and whose every image decodes.
#include "TestSupport.h"

#include "Report.h"

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
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
        const std::pair<const char *, double> rows[] = {{"cpu_single", 900.0}, {"cpu_multi", 21.0}, {"strips", 0.4}};
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

    // Issue 24: in the report, long variant titles were clipped at the race chart's left edge, and a sweep's
    // legend at its right edge. Every title ends right of x = 0 and every label and legend entry ends inside
    // the SVG's width (at 6 px a character, about 12 px sans-serif's average).
    void chartsKeepTheirLabelsInside()
    {
        auto attr = [](const QString &tag, const char *name) {
            const QRegularExpression re(QStringLiteral("%1=\"([-0-9.]+)\"").arg(name));
            return re.match(tag).captured(1).toDouble();
        };
        auto texts = [](const QString &svg) {
            QList<QPair<QString, QString>> out; // the <text ...> tag, its text
            const QRegularExpression re(QStringLiteral("(<text [^>]*>)([^<]*)</text>"));
            for (auto it = re.globalMatch(svg); it.hasNext();) {
                const auto m = it.next();
                out.append({m.captured(1), m.captured(2)});
            }
            return out;
        };
        RaceResult race;
        race.filter = "gaussian5x5";
        const char *titles[] = {"Our C++ code on every CPU thread of this computer", "Roofline strips in half-float pairs, 16 bytes",
                                "Private array, runtime loop bound"};
        const double times[] = {21.0, 0.2, 4.0};
        for (int i = 0; i < 3; ++i) {
            RaceEntry e;
            e.name = "v" + std::to_string(i);
            e.title = titles[i];
            e.onHost = e.baseline = i == 0;
            e.result.kernelMs = Stats{times[i], times[i], times[i]};
            e.result.totalMs = times[i];
            e.result.cpuThreads = 16;
            race.entries.push_back(e);
        }
        race.pickCpuToBeat();
        const QString svg = QString::fromStdString(raceSvg(race, RaceMetric::EndToEnd));
        const double width = attr(svg.left(svg.indexOf('>')), "width");
        int titlesSeen = 0;
        for (const auto &[tag, text] : texts(svg)) {
            const double x = attr(tag, "x"), w = 6.0 * text.size();
            if (tag.contains("text-anchor=\"end\"")) {
                ++titlesSeen;
                QVERIFY2(x - w >= 0, qPrintable(text + QString(" ends at x = %1").arg(x - w)));
            } else if (!tag.contains("text-anchor")) {
                QVERIFY2(x + w <= width, qPrintable(text + QString(" runs to %1 of %2").arg(x + w).arg(width)));
            }
        }
        QCOMPARE(titlesSeen, 3);

        SweepResult sweep;
        sweep.filter = "gaussian";
        sweep.param = "sigma";
        sweep.values = {0.5, 1, 2, 4};
        for (const char *title : {"Roofline strips in half-float pairs, 16 bytes a row (gaussian)",
                                  "Separable, two passes (recursive_gaussian / columns then rows)"}) {
            SweepSeries series;
            series.title = title;
            series.kernelMs = {0.1, 0.2, 0.4, 0.8};
            sweep.series.push_back(series);
        }
        const QString chart = QString::fromStdString(sweepSvg(sweep));
        const double sweepWidth = attr(chart.left(chart.indexOf('>')), "width");
        int legends = 0;
        for (const auto &[tag, text] : texts(chart))
            if (text.startsWith("Roofline") || text.startsWith("Separable")) {
                ++legends;
                QVERIFY2(attr(tag, "x") + 6.0 * text.size() <= sweepWidth,
                         qPrintable(text + QString(" runs to %1 of %2").arg(attr(tag, "x") + 6.0 * text.size()).arg(sweepWidth)));
            }
        QCOMPARE(legends, 2);
    }

    // Issue 24: the report had no duel section (the two sides were two more rows of the run table). It has
    // one, with both sides and a verdict whose ratio is the ratio of the times it prints.
    void duelHasItsSection()
    {
        ReportData data;
        data.title = "t";
        for (double ms : {2.0, 8.0}) {
            RunResult r;
            r.filter = "sobel";
            r.variant = ms < 5 ? "strips" : "cpu_multi";
            r.kernelMs = Stats{ms, ms, ms};
            r.totalMs = r.endToEndMs = ms;
            r.checked = r.matches = true;
            data.duel.push_back(ReportRun{ms < 5 ? "Some GPU" : "our C++ code", r});
        }
        const QString html = QString::fromStdString(reportHtml(data));
        QVERIFY(html.contains("<h2>Duel: two ways side by side</h2>"));
        QVERIFY2(html.contains("the left side (Some GPU, 2.00 ms) is 4.0\u00d7 faster than the right (our C++ code, 8.00 ms)"),
                 qPrintable(html));
        // Thumbnails on a checkerboard (a transparent picture's black text stays visible).
        QVERIFY(html.contains(".thumbs img{") && html.contains("repeating-conic-gradient(#ccc 0 25%,#fff 0 50%)"));
        data.duel.pop_back(); // one side: no duel to tell
        QVERIFY(!QString::fromStdString(reportHtml(data)).contains("Duel"));
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
