// CPU references of every catalogue filter: the multi-threaded baseline is bit-identical to the
// single-threaded oracle (so either may serve as the check), and every filter really changes the card.
#include "Catalogue.h"
#include "Image.h"

#include <QtTest>

using namespace fwb;

class TestCpuReference : public QObject
{
    Q_OBJECT

private slots:
    void singleEqualsMulti_data();
    void singleEqualsMulti();
    void catalogueIsComplete();
};

void TestCpuReference::singleEqualsMulti_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<int>("format");
    for (const FilterSpec &f : catalogue())
        for (PixelFormat fmt : allPixelFormats())
            QTest::newRow((f.name + "/" + formatName(fmt)).c_str()) << QString::fromStdString(f.name) << int(fmt);
}

void TestCpuReference::singleEqualsMulti()
{
    QFETCH(QString, filter);
    QFETCH(int, format);
    const FilterSpec *spec = findFilter(filter.toStdString());
    QVERIFY(spec);
    FilterParams params;
    params.format = PixelFormat(format);
    const Image input = makeTestCard(131, 97, params.format);
    const int w = spec->transposesOutput ? input.height() : input.width();
    const int h = spec->transposesOutput ? input.width() : input.height();
    Image single(w, h, params.format), multi(w, h, params.format);
    if (spec->copySourceToDst) {
        single = input;
        multi = input;
    }
    spec->cpuReference(input, single, params, 1);
    spec->cpuReference(input, multi, params, 5);
    QCOMPARE(maxAbsDiff(single, multi), 0);
    if (!spec->transposesOutput)
        QVERIFY2(maxAbsDiff(single, input) > 0, "the filter should change the test card");
}

void TestCpuReference::catalogueIsComplete()
{
    QVERIFY(catalogue().size() >= 1);
    for (const FilterSpec &f : catalogue()) {
        QVERIFY2(!f.variants.empty(), f.name.c_str());
        QVERIFY2(!f.toleranceNote.empty(), f.name.c_str());
        QVERIFY2(f.prepare && f.cpuReference, f.name.c_str());
        for (const VariantSpec &v : f.variants) {
            QVERIFY2(!v.passes.empty() && !v.kernelFile.empty(), (f.name + "/" + v.name).c_str());
            QVERIFY2(v.description.size() > 60, (f.name + "/" + v.name + ": describe it in plain words").c_str());
            QVERIFY2(!v.title.empty(), (f.name + "/" + v.name).c_str());
        }
    }
}

QTEST_GUILESS_MAIN(TestCpuReference)
#include "tst_cpureference.moc"
