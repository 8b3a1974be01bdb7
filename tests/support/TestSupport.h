// Shared helpers for the Qt Test suites: pick the OpenCL device under test, skip only without OpenCL;
// a one-shot run request and the message of a failed run. The family suites' tables: FamilyTables.h.
#pragma once

#include <algorithm>
#include "Catalogue.h"
#include "Devices.h"
#include "Session.h"

#include <QtTest>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace fwb::test {

// Every field of a RunResult set to a value of its own (the output image aside); numbers exact in
// jsonNumber's 6 digits, so the report's text and the full-precision schema agree.
inline RunResult populatedResult()
{
    RunResult r;
    r.filter = "median5x5";
    r.variant = "forgetful";
    r.params = {{"radius", 2.0}, {"sigma", 1.25}};
    r.format = "rgba8888";
    r.border = "replicate";
    r.device = "cpu-haswell";
    r.deviceSpec = "0:1";
    r.local = LocalSize{32, 4};
    r.localSource = LocalSource::Tuned;
    r.block = LocalSize{8, 16};
    r.blockSource = LocalSource::User;
    r.global[0] = 288;
    r.global[1] = 200;
    r.buildOptions = "-DCHANNELS=4 -DBORDER=1";
    r.buildMs = 12.5;
    r.buildOrigin = "disk";
    r.buildCached = true;
    r.reuploaded = false;
    r.transfer = "pinned";
    r.transferNote = "page-locked staging buffers";
    r.stagingMs = 0.25;
    r.uploadMs = 0.5;
    r.uploadGBps = 11.5;
    r.downloadGBps = 12.25;
    r.uploadPctOfProbe = 81.5;
    r.downloadPctOfProbe = 82.5;
    r.endToEndMs = 3.75;
    r.tiles = 6;
    r.tileWidth = 256;
    r.tileHeight = 128;
    r.tileHalo = 2;
    r.streams = 4;
    r.stagesMs = 4.5;
    r.overlapPct = 16.75;
    r.kernelMs = {1.25, 1.5, 2.75};
    r.passMs = {0.75, 0.875};
    r.downloadMs = 0.625;
    r.totalMs = 3.5;
    r.mpixPerS = 333.5;
    r.bytesMoved = 401968;
    r.gbps = 21.5;
    r.cpuSingleMs = 40.5;
    r.cpuMultiMs = 8.25;
    r.cpuThreads = 16;
    r.openCvCpuMs = 6.5;
    r.cpuBestMs = 6.25;
    r.cpuBestLabel = "OpenCV 4.6.0, 16 threads";
    r.cpuMeasurements = 3;
    r.speedupVsCpu = 4.5;
    r.speedupTotalVsCpu = 1.75;
    r.baseline = true;
    r.baselineCall = "cv::medianBlur";
    r.metricName = "GFLOPS";
    r.metricValue = 99.5;
    r.maxError = 0.125;
    r.checkDetail = "C = A * B against the host";
    r.checked = true;
    r.maxAbsDiff = 1;
    r.meanAbsDiff = 0.0625;
    r.tolerance = 2;
    r.matches = true;
    r.expectedFailure = true;
    r.unavailable = true;
    r.warning = "ran with the variant's own block";
    r.error = "CL_OUT_OF_RESOURCES while launching";
    r.errorCode = "CL_OUT_OF_RESOURCES";
    r.buildLog = "warning: unused variable";
    return r;
}

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

// One timed repeat, no warm-up, no single-threaded timing (checked, output kept): what a correctness
// test needs.
inline RunRequest oneShotRequest(const std::string &filter, const std::string &variant,
                                 PixelFormat format = PixelFormat::Gray8)
{
    RunRequest r;
    r.filter = filter;
    r.variant = variant;
    r.params.format = format;
    r.repeat = 1;
    r.warmup = 0;
    r.cpuSingle = false;
    return r;
}

// "WxH: error '...' max diff N (tolerance T)" and the build log, for QVERIFY2 messages.
inline QByteArray describe(const RunResult &r, int w, int h)
{
    return QByteArray::number(w) + "x" + QByteArray::number(h) + ": error '" + QByteArray(r.error.c_str())
           + "' max diff " + QByteArray::number(r.maxAbsDiff) + " (tolerance " + QByteArray::number(r.tolerance) + ")"
           + (r.buildLog.empty() ? QByteArray() : "\n" + QByteArray(r.buildLog.c_str()));
}

inline LocalSize parseLocal(const QString &text)
{
    const auto local = LocalSize::parse(text.toStdString());
    return local ? *local : LocalSize{};
}

} // namespace fwb::test

// QSKIP only when there is no OpenCL platform at all (the one allowed reason to skip).
#define FWB_REQUIRE_DEVICE(var)                                                                      \
    fwb::DeviceInfo var;                                                                             \
    if (!fwb::test::testDevice(var))                                                                 \
        QSKIP("no OpenCL platform on this machine");
