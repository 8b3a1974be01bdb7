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

} // namespace fwb
