// Error: the one exception type inside core; carries the OpenCL error code/name and a build log.
#pragma once

#include <stdexcept>
#include <string>

namespace fwb {

class Error : public std::runtime_error
{
public:
    explicit Error(const std::string &message, int clCode = 0, std::string buildLog = {})
        : std::runtime_error(message), m_clCode(clCode), m_buildLog(std::move(buildLog))
    {}
    int clCode() const { return m_clCode; }
    const std::string &buildLog() const { return m_buildLog; }

private:
    int m_clCode;
    std::string m_buildLog;
};

// "CL_INVALID_WORK_GROUP_SIZE" for -54, "CL_ERROR(-1234)" for unknown codes.
std::string clErrorName(int code);

// The exception being handled, as a result reports it: the message, the OpenCL error name ("" when
// none) and, for build failures, the build log. cl::Error becomes "<call> failed: <name>";
// std::bad_alloc "out of host memory" (CL_OUT_OF_HOST_MEMORY). Call only inside a catch block.
struct ErrorReport
{
    std::string message;
    std::string code;
    std::string buildLog;
    int clCode = 0;
    bool ours = false; // an fwb::Error (its build log, empty or not, is the one to report)
};
ErrorReport describeCurrentException();

} // namespace fwb
