// The device copy bandwidth without measuring it: what a session of this process has measured for the
// device (Session::copyBandwidthGBps, once per device and process), so that a caller can show a result
// first and measure the copy speed after it (the window's first result after launch: 2 s on PoCL).
#pragma once

#include "Devices.h"

namespace fwb {

// GB/s as Session::copyBandwidthGBps measured it for this device in this process, else -1 (never measures).
double measuredCopyBandwidthGBps(const DeviceInfo &device);

} // namespace fwb
