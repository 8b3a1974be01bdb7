// The fast-CPU-path switch shared by every filter family (see FastCpu.h).
#include "families/shared/FastCpu.h"

namespace fwb {

namespace {

thread_local bool t_forceFast = false;

} // namespace

bool useFastCpuPath(int threads) { return threads > 1 || t_forceFast; }

ForceFastCpuPath::ForceFastCpuPath() : m_previous(t_forceFast) { t_forceFast = true; }

ForceFastCpuPath::~ForceFastCpuPath() { t_forceFast = m_previous; }

} // namespace fwb
