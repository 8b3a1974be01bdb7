// BenchSuite (BenchSuite.h): the fixture of the suites that start filter-bench.
#include "BenchSuite.h"

#include "TestSupport.h"

#include <QFileInfo>

namespace fwb::test {

void BenchSuite::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QFileInfo::exists(QStringLiteral(FWB_FILTER_BENCH)));
    DeviceInfo device;
    m_haveDevice = testDevice(device);
}

} // namespace fwb::test
