// Internal bridge from a DeviceInfo value to the cl::Device it describes (core-only; includes CLHPP).
#pragma once

#include "ClConfig.h"
#include "Devices.h"

namespace fwb {
cl::Device clDeviceFor(const DeviceInfo &info);
}
