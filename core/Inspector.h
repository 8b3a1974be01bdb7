// Work-group inspector (seed 001): launches kernels/probes/inspect.cl over a given global size and local
// size and reports, at the four corner work-items, get_global_id, get_local_size and
// get_enqueued_local_size, plus the work-group count - how the runtime split the NDRange. Qt-free.
#pragma once

#include "Devices.h"
#include "WorkGroup.h"

#include <array>
#include <cstddef>
#include <string>

namespace fwb {

struct InspectRequest
{
    std::size_t global[2] = {638, 478}; // seed 001: the interior of a 640x480 image
    LocalSize local;                    // auto: NULL local size, the runtime picks
    bool cl20 = false;                  // build -cl-std=CL2.0 (non-uniform work-groups, enqueued size)
    std::string cacheDir;               // ProgramCache folder ("" default, "-" off)
};

struct CornerSample
{
    const char *name = "";  // "Top left", "Top right", "Bottom left", "Bottom right"
    bool recorded = false;  // the work-item ran and wrote its row
    std::size_t globalId[2] = {0, 0};
    std::size_t localSize[2] = {0, 0};         // get_local_size: the actual size of its group
    std::size_t enqueuedLocalSize[2] = {0, 0}; // get_enqueued_local_size (CL 2.0); CL 1.2: = local size
    std::size_t groupId[2] = {0, 0};
};

struct InspectResult
{
    std::string device; // summary of the device that ran it
    std::size_t global[2] = {0, 0};
    LocalSize local;
    bool cl20 = false;
    bool enqueuedFromBuiltin = false; // true when get_enqueued_local_size itself was called (CL 2.0)
    std::string buildOptions;
    std::size_t numGroups[2] = {0, 0}; // get_num_groups at the top-left work-item
    std::array<CornerSample, 4> corners;
    bool expectedFailure = false; // CL 1.2 refused a non-dividing local size, as seed 001 predicts
    bool unavailable = false;     // --cl20 on a device without OpenCL C 2.0 (reason in error)
    std::string error;
    std::string errorCode; // e.g. CL_INVALID_WORK_GROUP_SIZE
    std::string buildLog;

    bool ok() const { return error.empty(); }
};

// Never throws: failures come back in InspectResult::error (expected ones flagged).
InspectResult inspectWorkGroups(const DeviceInfo &device, const InspectRequest &request);

// The seed's table: "Work Item / get_global_id() / get_local_size() / get_enqueued_local_size()".
std::string formatCornerTable(const InspectResult &result);

} // namespace fwb
