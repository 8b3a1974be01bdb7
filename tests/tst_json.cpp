// JSON through nlohmann: the number form reports use, key order as written, and reading files with
// errors that say where (line and column) and why.
#include "JsonIo.h"
#include "ResultJson.h"
#include "Session.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <limits>

using namespace fwb;

class TestJson : public QObject
{
    Q_OBJECT

private slots:
    void numbers_data();
    void numbers();
    void keyOrderAndNulls();
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
    QVERIFY(text.find(R"("cpu_ms":{"single":null,"multi":4,"threads":0,"opencv":null,"best":null,"best_label":null},)")
            != std::string::npos);
    QVERIFY(text.find(R"("error":null,"error_code":null,"warning":null})") != std::string::npos);
    QVERIFY(text.find("build_log") == std::string::npos); // only when there is one
    QVERIFY(text.find("\": ") == std::string::npos && text.find(", \"") == std::string::npos); // compact
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
