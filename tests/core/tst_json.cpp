// JSON through nlohmann: the number form reports use, key order as written, reading files with
// errors that say where (line and column) and why, and the run schema (RunRequest and RunResult
// through ResultJson.h's to_json/from_json: --json's text, round trips of every field).
#include "JsonIo.h"
#include "ResultJson.h"
#include "Session.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>

using namespace fwb;

namespace {

// Numbers jsonNumber rounds, unmeasured values, NaN and empty texts.
RunResult awkwardResult()
{
    RunResult r;
    r.filter = "gaussian";
    r.params = {{"sigma", 3.14159265}};
    r.kernelMs = {1.0 / 3, 2.0 / 3, 1e7 + 0.4};
    r.buildMs = 123456.7;
    r.uploadMs = 5.1e-05;
    r.uploadPctOfProbe = -1;
    r.cpuMultiMs = 1.23456789e-05;
    r.speedupVsCpu = std::nan("");
    r.bytesMoved = 1e20;
    r.passMs = {0.1 + 0.2};
    r.maxAbsDiff = -1;
    return r;
}

// --json's text for the two results above, as written before the schema was shared (runResultJson
// by hand): the schema must keep every key, its order and its number form.
const char *const kPopulatedText =
    R"json({"filter":"median5x5","variant":"forgetful","params":{"radius":2,"sigma":1.25},)json"
    R"json("format":"rgba8888","border":"replicate","device":"cpu-haswell","device_spec":"0:1",)json"
    R"json("local":"32x4","local_source":"tuned","local_label":"auto (32x4, tuned)",)json"
    R"json("block":"8x16","block_source":"user","global":[288,200],)json"
    R"json("build_options":"-DCHANNELS=4 -DBORDER=1","build_ms":12.5,"build_cached":true,)json"
    R"json("build_origin":"disk","transfer":"pinned",)json"
    R"json("transfer_note":"page-locked staging buffers","output_note":null,"staging_ms":0.25,"upload_ms":0.5,)json"
    R"json("upload_gbps":11.5,"upload_pct_of_probe":81.5,"download_gbps":12.25,)json"
    R"json("download_pct_of_probe":82.5,"end_to_end_ms":3.75,"reuploaded":false,"tiles":6,)json"
    R"json("tile_size":"256x128","tile_halo":2,"streams":4,"overlap_pct":16.75,"stages_ms":4.5,)json"
    R"json("kernel_ms":{"min":1.25,"median":1.5,"max":2.75},"pass_ms":[0.75,0.875],)json"
    R"json("download_ms":0.625,"total_ms":3.5,"mpix_per_s":333.5,"bytes_moved":401968,)json"
    R"json("gbps":21.5,"cpu_ms":{"single":40.5,"multi":8.25,"threads":16,"opencv":6.5,)json"
    R"json("best":6.25,"best_label":"OpenCV 4.6.0, 16 threads","best_of":3},"speedup_vs_cpu":4.5,)json"
    R"json("speedup_total_vs_cpu":1.75,"baseline":true,"baseline_call":"cv::medianBlur",)json"
    R"json("metric":"GFLOPS","metric_value":99.5,"max_error":0.125,)json"
    R"json("check_detail":"C = A * B against the host","checked":true,"max_abs_diff":1,)json"
    R"json("mean_abs_diff":0.0625,"tolerance":2,"matches":true,"expected_failure":true,)json"
    R"json("unavailable":true,"error":"CL_OUT_OF_RESOURCES while launching",)json"
    R"json("error_code":"CL_OUT_OF_RESOURCES","warning":"ran with the variant's own block",)json"
    R"json("build_log":"warning: unused variable"})json";
const char *const kAwkwardText =
    R"json({"filter":"gaussian","variant":"","params":{"sigma":3.14159},"format":"",)json"
    R"json("border":null,"device":"","device_spec":"","local":"auto","local_source":"default",)json"
    R"json("local_label":"auto","block":null,"block_source":null,"global":[0,0],)json"
    R"json("build_options":"","build_ms":123457,"build_cached":false,"build_origin":"",)json"
    R"json("transfer":"pageable","transfer_note":null,"output_note":null,"staging_ms":0,"upload_ms":5.1e-05,)json"
    R"json("upload_gbps":0,"upload_pct_of_probe":null,"download_gbps":0,)json"
    R"json("download_pct_of_probe":null,"end_to_end_ms":0,"reuploaded":true,"tiles":1,)json"
    R"json("tile_size":null,"tile_halo":0,"streams":1,"overlap_pct":0,"stages_ms":0,)json"
    R"json("kernel_ms":{"min":0.333333,"median":0.666667,"max":10000000},"pass_ms":[0.3],)json"
    R"json("download_ms":0,"total_ms":0,"mpix_per_s":0,"bytes_moved":1e+20,"gbps":0,)json"
    R"json("cpu_ms":{"single":null,"multi":1.23457e-05,"threads":0,"opencv":null,"best":null,)json"
    R"json("best_label":null,"best_of":0},"speedup_vs_cpu":null,"speedup_total_vs_cpu":0,"checked":false,)json"
    R"json("max_abs_diff":-1,"mean_abs_diff":0,"tolerance":0,"matches":false,)json"
    R"json("expected_failure":false,"unavailable":false,"error":null,"error_code":null,)json"
    R"json("warning":null})json";

void compareResults(const RunResult &a, const RunResult &b)
{
    QCOMPARE(a.filter, b.filter);
    QCOMPARE(a.variant, b.variant);
    QVERIFY(a.params == b.params);
    QCOMPARE(a.format, b.format);
    QCOMPARE(a.border, b.border);
    QCOMPARE(a.device, b.device);
    QCOMPARE(a.deviceSpec, b.deviceSpec);
    QVERIFY(a.local == b.local);
    QCOMPARE(a.localSource, b.localSource);
    QVERIFY(a.block == b.block);
    QCOMPARE(a.blockSource, b.blockSource);
    QCOMPARE(a.global[0], b.global[0]);
    QCOMPARE(a.global[1], b.global[1]);
    QCOMPARE(a.buildOptions, b.buildOptions);
    QCOMPARE(a.buildMs, b.buildMs);
    QCOMPARE(a.buildOrigin, b.buildOrigin);
    QCOMPARE(a.buildCached, b.buildCached);
    QCOMPARE(a.reuploaded, b.reuploaded);
    QCOMPARE(a.transfer, b.transfer);
    QCOMPARE(a.transferNote, b.transferNote);
    QCOMPARE(a.stagingMs, b.stagingMs);
    QCOMPARE(a.uploadMs, b.uploadMs);
    QCOMPARE(a.uploadGBps, b.uploadGBps);
    QCOMPARE(a.downloadGBps, b.downloadGBps);
    QCOMPARE(a.uploadPctOfProbe, b.uploadPctOfProbe);
    QCOMPARE(a.downloadPctOfProbe, b.downloadPctOfProbe);
    QCOMPARE(a.endToEndMs, b.endToEndMs);
    QCOMPARE(a.tiles, b.tiles);
    QCOMPARE(a.tileWidth, b.tileWidth);
    QCOMPARE(a.tileHeight, b.tileHeight);
    QCOMPARE(a.tileHalo, b.tileHalo);
    QCOMPARE(a.streams, b.streams);
    QCOMPARE(a.stagesMs, b.stagesMs);
    QCOMPARE(a.overlapPct, b.overlapPct);
    QCOMPARE(a.kernelMs.min, b.kernelMs.min);
    QCOMPARE(a.kernelMs.median, b.kernelMs.median);
    QCOMPARE(a.kernelMs.max, b.kernelMs.max);
    QVERIFY(a.passMs == b.passMs);
    QCOMPARE(a.downloadMs, b.downloadMs);
    QCOMPARE(a.totalMs, b.totalMs);
    QCOMPARE(a.mpixPerS, b.mpixPerS);
    QCOMPARE(a.bytesMoved, b.bytesMoved);
    QCOMPARE(a.gbps, b.gbps);
    QCOMPARE(a.cpuSingleMs, b.cpuSingleMs);
    QCOMPARE(a.cpuMultiMs, b.cpuMultiMs);
    QCOMPARE(a.cpuThreads, b.cpuThreads);
    QCOMPARE(a.openCvCpuMs, b.openCvCpuMs);
    QCOMPARE(a.cpuBestMs, b.cpuBestMs);
    QCOMPARE(a.cpuBestLabel, b.cpuBestLabel);
    QCOMPARE(a.cpuMeasurements, b.cpuMeasurements);
    QCOMPARE(a.speedupVsCpu, b.speedupVsCpu);
    QCOMPARE(a.speedupTotalVsCpu, b.speedupTotalVsCpu);
    QCOMPARE(a.baseline, b.baseline);
    QCOMPARE(a.baselineCall, b.baselineCall);
    QCOMPARE(a.metricName, b.metricName);
    QCOMPARE(a.metricValue, b.metricValue);
    QCOMPARE(a.maxError, b.maxError);
    QCOMPARE(a.checkDetail, b.checkDetail);
    QCOMPARE(a.checked, b.checked);
    QCOMPARE(a.maxAbsDiff, b.maxAbsDiff);
    QCOMPARE(a.meanAbsDiff, b.meanAbsDiff);
    QCOMPARE(a.tolerance, b.tolerance);
    QCOMPARE(a.matches, b.matches);
    QCOMPARE(a.expectedFailure, b.expectedFailure);
    QCOMPARE(a.unavailable, b.unavailable);
    QCOMPARE(a.cancelled, b.cancelled);
    QCOMPARE(a.warning, b.warning);
    QCOMPARE(a.error, b.error);
    QCOMPARE(a.errorCode, b.errorCode);
    QCOMPARE(a.buildLog, b.buildLog);
}

// Through text, as the helper process's answer travels.
template <typename T> T throughText(const T &value)
{
    const std::optional<Json> parsed = parseJson(dumpJson(Json(value)), "schema");
    return parsed ? parsed->template get<T>() : T{};
}

} // namespace

class TestJson : public QObject
{
    Q_OBJECT

private slots:
    void numbers_data();
    void numbers();
    void keyOrderAndNulls();
    void reportTextUnchanged();
    void resultRoundTrip();
    void requestRoundTrip();
    void invalidUtf8IsReplaced();
    void parseValidFile();
    void parseMalformed_data();
    void parseMalformed();
    void parseMissingFile();

private:
    std::string writeFile(const char *name, const std::string &bytes);
    QTemporaryDir m_dir;
};

std::string TestJson::writeFile(const char *name, const std::string &bytes)
{
    const std::string path = m_dir.filePath(name).toStdString();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

// As printf's %.6g wrote them before nlohmann, except that values of a million and more are whole
// numbers in full ("1234570") where %.6g used an exponent ("1.23457e+06"): the same value.
void TestJson::numbers_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("integral") << 2.0 << "2";
    QTest::newRow("zero") << 0.0 << "0";
    QTest::newRow("fraction") << 1.5 << "1.5";
    QTest::newRow("six digits") << 3.14159265 << "3.14159";
    QTest::newRow("third") << 100.0 / 3 << "33.3333";
    QTest::newRow("rounds to integral") << 123456.7 << "123457";
    QTest::newRow("small") << 0.000123456 << "0.000123456";
    QTest::newRow("tiny") << 5.1e-05 << "5.1e-05";
    QTest::newRow("tiny rounded") << 1.23456789e-05 << "1.23457e-05";
    QTest::newRow("negative") << -1.5 << "-1.5";
    QTest::newRow("million") << 1234567.0 << "1234570";
    QTest::newRow("huge") << 1e20 << "1e+20";
    QTest::newRow("nan") << std::nan("") << "null";
    QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << "null";
}

void TestJson::numbers()
{
    QFETCH(double, value);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(dumpJson(jsonNumber(value))), text);
}

void TestJson::keyOrderAndNulls()
{
    RunResult r;
    r.filter = "gaussian";
    r.variant = "separable";
    r.params = {{"sigma", 2.0}};
    r.kernelMs = {0.5, 0.75, 1.25};
    r.cpuSingleMs = -1; // not measured
    r.cpuMultiMs = 4;
    const std::string text = dumpJson(runResultJson(r));
    // Keys in the order written (not sorted), unmeasured values and empty texts as null.
    QVERIFY2(text.rfind(R"({"filter":"gaussian","variant":"separable","params":{"sigma":2},"format":"",)", 0) == 0,
             text.c_str());
    QVERIFY(text.find(R"("border":null,)") != std::string::npos);
    QVERIFY(text.find(R"("kernel_ms":{"min":0.5,"median":0.75,"max":1.25},)") != std::string::npos);
    QVERIFY(text.find(R"("cpu_ms":{"single":null,"multi":4,"threads":0,"opencv":null,"best":null,"best_label":null,"best_of":0},)")
            != std::string::npos);
    QVERIFY(text.find(R"("error":null,"error_code":null,"warning":null})") != std::string::npos);
    QVERIFY(text.find("build_log") == std::string::npos); // only when there is one
    QVERIFY(text.find("\": ") == std::string::npos && text.find(", \"") == std::string::npos); // compact
}

void TestJson::reportTextUnchanged()
{
    QCOMPARE(QString::fromStdString(dumpJson(runResultJson(test::populatedResult()))), QString::fromUtf8(kPopulatedText));
    QCOMPARE(QString::fromStdString(dumpJson(runResultJson(awkwardResult()))), QString::fromUtf8(kAwkwardText));
    RunResult cancelled = test::populatedResult();
    cancelled.cancelled = true; // a helper process's answer only: reports leave cancelled runs out
    const std::string text = dumpJson(runResultJson(cancelled));
    QVERIFY(text.find(R"("unavailable":true,"cancelled":true,"error":)") != std::string::npos);
}

// Every field through the one schema and back, at full precision (the helper process's answer).
void TestJson::resultRoundTrip()
{
    RunResult r = test::populatedResult();
    r.cancelled = true;
    r.kernelMs.median = 1.0 / 3; // more digits than a report prints
    r.cpuSingleMs = std::sqrt(2.0);
    compareResults(throughText(r), r);
    if (QTest::currentTestFailed())
        return;
    // Unmeasured values and empty texts come back as RunResult's defaults.
    const RunResult unmeasured = throughText(RunResult{});
    compareResults(unmeasured, RunResult{});
    if (QTest::currentTestFailed())
        return;
    // The report's text reads back too (6 digits).
    const std::optional<Json> report = parseJson(kPopulatedText, "report");
    QVERIFY(report);
    compareResults(report->get<RunResult>(), test::populatedResult());
}

void TestJson::requestRoundTrip()
{
    RunRequest q;
    q.filter = "gaussian";
    q.variant = "user:my_blur";
    q.params.values = {{"sigma", 1.0 / 3}, {"radius", 4}};
    q.params.border = BorderMode::Replicate;
    q.params.format = PixelFormat::Rgba8888;
    q.params.fastMath = true;
    q.local = LocalSize{16, 4};
    q.block = LocalSize{4, 8};
    q.repeat = 7;
    q.warmup = 3;
    q.check = false;
    q.cpuSingle = false;
    q.keepOutput = false;
    q.openCvCpuBaseline = false;
    q.cpuBaseline = false;
    q.transfer = TransferMode::Svm;
    q.tileWidth = 128;
    q.tileHeight = 96;
    q.maxAllocBytes = std::uint64_t(5) << 32;
    q.allowTiles = false;
    q.streams = 2;
    const RunRequest back = throughText(q);
    QCOMPARE(back.filter, q.filter);
    QCOMPARE(back.variant, q.variant);
    QVERIFY(back.params.values == q.params.values);
    QCOMPARE(back.params.border, q.params.border);
    QCOMPARE(back.params.format, q.params.format);
    QCOMPARE(back.params.fastMath, q.params.fastMath);
    QVERIFY(back.local == q.local);
    QVERIFY(back.block == q.block);
    QCOMPARE(back.repeat, q.repeat);
    QCOMPARE(back.warmup, q.warmup);
    QCOMPARE(back.check, q.check);
    QCOMPARE(back.cpuSingle, q.cpuSingle);
    QCOMPARE(back.keepOutput, q.keepOutput);
    QCOMPARE(back.openCvCpuBaseline, q.openCvCpuBaseline);
    QCOMPARE(back.cpuBaseline, q.cpuBaseline);
    QCOMPARE(back.transfer, q.transfer);
    QCOMPARE(back.tileWidth, q.tileWidth);
    QCOMPARE(back.tileHeight, q.tileHeight);
    QCOMPARE(back.maxAllocBytes, q.maxAllocBytes);
    QCOMPARE(back.allowTiles, q.allowTiles);
    QCOMPARE(back.streams, q.streams);
    // The defaults survive too, and a driver shape.
    RunRequest plain;
    plain.filter = "median3x3";
    plain.variant = "naive_sort";
    plain.local = LocalSize::driverChoice();
    const RunRequest plainBack = throughText(plain);
    QVERIFY(plainBack.local == plain.local);
    QVERIFY(plainBack.block.isAuto());
    QCOMPARE(plainBack.transfer, TransferMode::Pageable);
    QCOMPARE(plainBack.repeat, plain.repeat);
    QCOMPARE(plainBack.streams, plain.streams);
}

void TestJson::invalidUtf8IsReplaced()
{
    Json j = {{"log", std::string("bad \xff byte")}};
    QCOMPARE(QString::fromStdString(dumpJson(j)), QString::fromUtf8("{\"log\":\"bad \xef\xbf\xbd byte\"}"));
}

void TestJson::parseValidFile()
{
    QVERIFY(m_dir.isValid());
    const std::string path = writeFile("ok.json", "{\n  \"b\": [1, 2.5, \"x\"],\n  \"a\": null\n}\n");
    std::string error;
    const std::optional<Json> json = parseJsonFile(path, &error);
    QVERIFY2(json, error.c_str());
    QVERIFY(error.empty());
    QCOMPARE(json->begin().key(), std::string("b")); // file order kept
    QCOMPARE((*json)["b"][1].get<double>(), 2.5);
    QVERIFY((*json)["a"].is_null());
}

void TestJson::parseMalformed_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("why");
    QTest::newRow("missing comma") << QByteArray("{\n  \"a\": 1\n  \"b\": 2\n}\n") << ":3:5: " << "expected '}'";
    QTest::newRow("bad literal") << QByteArray("[1,\n tru]") << ":2:5: " << "invalid literal";
    QTest::newRow("trailing comma") << QByteArray("{\"a\": [1, 2,]}") << ":1:13: " << "unexpected ']'";
    QTest::newRow("truncated") << QByteArray("{\"a\": [1, 2") << ":1:12: " << "unexpected end of input";
    QTest::newRow("empty") << QByteArray() << ":1:1: " << "unexpected end of input";
}

void TestJson::parseMalformed()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, where);
    QFETCH(QString, why);
    const std::string path = writeFile("bad.json", bytes.toStdString());
    std::string error;
    QVERIFY(!parseJsonFile(path, &error));
    const QString message = QString::fromStdString(error);
    QVERIFY2(message.startsWith(QString::fromStdString(path) + where), qPrintable(message));
    QVERIFY2(message.contains(why), qPrintable(message));
    QVERIFY2(!message.contains("json.exception"), qPrintable(message)); // nlohmann's prefix is dropped
    QVERIFY(!parseJsonFile(path)); // the error text is optional
}

void TestJson::parseMissingFile()
{
    const std::string path = m_dir.filePath("nope.json").toStdString();
    std::string error;
    QVERIFY(!parseJsonFile(path, &error));
    QVERIFY2(QString::fromStdString(error).startsWith(QString::fromStdString(path) + ": cannot open"), error.c_str());
}

QTEST_GUILESS_MAIN(TestJson)
#include "tst_json.moc"
