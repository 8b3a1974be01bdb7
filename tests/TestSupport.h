// Shared helpers for the Qt Test suites: pick the OpenCL device under test, skip only without OpenCL.
#pragma once

#include "Devices.h"

#include <QtTest>

#include <cstdlib>

namespace fwb::test {

// The device the suites run on: $FWB_TEST_DEVICE if set (a filter-bench --device spec), else the
// default device (PoCL on a machine without a GPU). Returns false when no OpenCL platform exists.
inline bool testDevice(DeviceInfo &out)
{
    const std::vector<DeviceInfo> devices = listDevices();
    if (devices.empty())
        return false;
    const char *spec = std::getenv("FWB_TEST_DEVICE");
    out = selectDevice(devices, spec ? spec : "");
    return true;
}

} // namespace fwb::test

// QSKIP only when there is no OpenCL platform at all (the one allowed reason to skip).
#define FWB_REQUIRE_DEVICE(var)                                                                      \
    fwb::DeviceInfo var;                                                                             \
    if (!fwb::test::testDevice(var))                                                                 \
        QSKIP("no OpenCL platform on this machine");
