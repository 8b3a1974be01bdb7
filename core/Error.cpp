// OpenCL error code -> symbolic name, for messages people can search for.
#include "Error.h"

#include "ClConfig.h"

#include <exception>
#include <new>

namespace fwb {

std::string clErrorName(int code)
{
    switch (code) {
#define FWB_CL_ERR(name, value) case value: return #name;
        FWB_CL_ERR(CL_SUCCESS, 0)
        FWB_CL_ERR(CL_DEVICE_NOT_FOUND, -1)
        FWB_CL_ERR(CL_DEVICE_NOT_AVAILABLE, -2)
        FWB_CL_ERR(CL_COMPILER_NOT_AVAILABLE, -3)
        FWB_CL_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE, -4)
        FWB_CL_ERR(CL_OUT_OF_RESOURCES, -5)
        FWB_CL_ERR(CL_OUT_OF_HOST_MEMORY, -6)
        FWB_CL_ERR(CL_PROFILING_INFO_NOT_AVAILABLE, -7)
        FWB_CL_ERR(CL_MEM_COPY_OVERLAP, -8)
        FWB_CL_ERR(CL_IMAGE_FORMAT_MISMATCH, -9)
        FWB_CL_ERR(CL_IMAGE_FORMAT_NOT_SUPPORTED, -10)
        FWB_CL_ERR(CL_BUILD_PROGRAM_FAILURE, -11)
        FWB_CL_ERR(CL_MAP_FAILURE, -12)
        FWB_CL_ERR(CL_MISALIGNED_SUB_BUFFER_OFFSET, -13)
        FWB_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, -14)
        FWB_CL_ERR(CL_COMPILE_PROGRAM_FAILURE, -15)
        FWB_CL_ERR(CL_LINKER_NOT_AVAILABLE, -16)
        FWB_CL_ERR(CL_LINK_PROGRAM_FAILURE, -17)
        FWB_CL_ERR(CL_DEVICE_PARTITION_FAILED, -18)
        FWB_CL_ERR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, -19)
        FWB_CL_ERR(CL_INVALID_VALUE, -30)
        FWB_CL_ERR(CL_INVALID_DEVICE_TYPE, -31)
        FWB_CL_ERR(CL_INVALID_PLATFORM, -32)
        FWB_CL_ERR(CL_INVALID_DEVICE, -33)
        FWB_CL_ERR(CL_INVALID_CONTEXT, -34)
        FWB_CL_ERR(CL_INVALID_QUEUE_PROPERTIES, -35)
        FWB_CL_ERR(CL_INVALID_COMMAND_QUEUE, -36)
        FWB_CL_ERR(CL_INVALID_HOST_PTR, -37)
        FWB_CL_ERR(CL_INVALID_MEM_OBJECT, -38)
        FWB_CL_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, -39)
        FWB_CL_ERR(CL_INVALID_IMAGE_SIZE, -40)
        FWB_CL_ERR(CL_INVALID_SAMPLER, -41)
        FWB_CL_ERR(CL_INVALID_BINARY, -42)
        FWB_CL_ERR(CL_INVALID_BUILD_OPTIONS, -43)
        FWB_CL_ERR(CL_INVALID_PROGRAM, -44)
        FWB_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE, -45)
        FWB_CL_ERR(CL_INVALID_KERNEL_NAME, -46)
        FWB_CL_ERR(CL_INVALID_KERNEL_DEFINITION, -47)
        FWB_CL_ERR(CL_INVALID_KERNEL, -48)
        FWB_CL_ERR(CL_INVALID_ARG_INDEX, -49)
        FWB_CL_ERR(CL_INVALID_ARG_VALUE, -50)
        FWB_CL_ERR(CL_INVALID_ARG_SIZE, -51)
        FWB_CL_ERR(CL_INVALID_KERNEL_ARGS, -52)
        FWB_CL_ERR(CL_INVALID_WORK_DIMENSION, -53)
        FWB_CL_ERR(CL_INVALID_WORK_GROUP_SIZE, -54)
        FWB_CL_ERR(CL_INVALID_WORK_ITEM_SIZE, -55)
        FWB_CL_ERR(CL_INVALID_GLOBAL_OFFSET, -56)
        FWB_CL_ERR(CL_INVALID_EVENT_WAIT_LIST, -57)
        FWB_CL_ERR(CL_INVALID_EVENT, -58)
        FWB_CL_ERR(CL_INVALID_OPERATION, -59)
        FWB_CL_ERR(CL_INVALID_GL_OBJECT, -60)
        FWB_CL_ERR(CL_INVALID_BUFFER_SIZE, -61)
        FWB_CL_ERR(CL_INVALID_MIP_LEVEL, -62)
        FWB_CL_ERR(CL_INVALID_GLOBAL_WORK_SIZE, -63)
        FWB_CL_ERR(CL_INVALID_PROPERTY, -64)
        FWB_CL_ERR(CL_INVALID_IMAGE_DESCRIPTOR, -65)
        FWB_CL_ERR(CL_INVALID_COMPILER_OPTIONS, -66)
        FWB_CL_ERR(CL_INVALID_LINKER_OPTIONS, -67)
        FWB_CL_ERR(CL_INVALID_DEVICE_PARTITION_COUNT, -68)
        FWB_CL_ERR(CL_INVALID_PIPE_SIZE, -69)
        FWB_CL_ERR(CL_INVALID_DEVICE_QUEUE, -70)
        FWB_CL_ERR(CL_INVALID_SPEC_ID, -71)
        FWB_CL_ERR(CL_MAX_SIZE_RESTRICTION_EXCEEDED, -72)
        FWB_CL_ERR(CL_PLATFORM_NOT_FOUND_KHR, -1001)
#undef FWB_CL_ERR
    default: return "CL_ERROR(" + std::to_string(code) + ")";
    }
}

ErrorReport describeCurrentException()
{
    ErrorReport report;
    try {
        throw;
    } catch (const Error &e) {
        report.ours = true;
        report.message = e.what();
        report.clCode = e.clCode();
        if (e.clCode())
            report.code = clErrorName(e.clCode());
        report.buildLog = e.buildLog();
    } catch (const cl::Error &e) {
        report.clCode = e.err();
        report.code = clErrorName(e.err());
        report.message = std::string(e.what()) + " failed: " + report.code;
    } catch (const std::bad_alloc &) {
        report.message = "out of host memory";
        report.code = "CL_OUT_OF_HOST_MEMORY";
    } catch (const std::exception &e) {
        report.message = e.what();
    }
    return report;
}

} // namespace fwb
