// Fault injection for tests: FWB_FAULT=alloc:N|build:N|launch:N|read:N (comma-separated for several)
// makes the Nth buffer allocation, program build, kernel launch or read of this process fail with the
// error code the driver would give (CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_BUILD_PROGRAM_FAILURE,
// CL_OUT_OF_RESOURCES, CL_OUT_OF_HOST_MEMORY), thrown as the cl::Error the real call would throw.
// Each fault fires once; counting starts at 1. Without FWB_FAULT every hook is one relaxed load.
// Also counts live OpenCL memory objects (trackMemory: every buffer, image and page-locked block a
// session makes), so tests can check that a failed run leaks none.
#pragma once

#include "ClConfig.h"

#include <string>

namespace fwb::fault {

enum class Step { Alloc, Build, Launch, Read };
const char *stepName(Step step); // "buffer allocation", "program build", "kernel launch", "read"

// Counts one call of `step`; throws cl::Error(code, "<OpenCL call> (injected fault)") when it is the
// call FWB_FAULT names.
void check(Step step);

// Re-reads the specification (tests set it with qputenv / setenv) and restarts every count.
// An empty or malformed specification injects nothing (malformed ones are reported on stderr once).
void reset(const std::string &spec);
void resetFromEnvironment();

// Counts `buffer` as live until the runtime releases it (clSetMemObjectDestructorCallback); returns it.
void trackMemory(const cl::Memory &memory);
int liveBuffers();

} // namespace fwb::fault
