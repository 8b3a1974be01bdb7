// What several Qt-free suites share beside their checks (Check.h): whole files in and out, a text
// check, and filter-bench started through the shell with its output captured.
#pragma once

#include "Check.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace fwb::plain {

inline std::string readAll(const std::filesystem::path &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline void writeAll(const std::filesystem::path &path, const std::string &bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

inline bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

#ifdef FWB_FILTER_BENCH
// filter-bench with these arguments; its stdout and stderr together (through the file `capture`), and
// in `code` its exit status (-1: it did not exit).
inline std::string runFilterBench(const std::string &args, const std::filesystem::path &capture, int &code)
{
    const std::string command = std::string("'") + FWB_FILTER_BENCH + "' " + args + " >'" + capture.string() + "' 2>&1";
    const int status = std::system(command.c_str());
    code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return readAll(capture);
}
#endif

} // namespace fwb::plain

#define CHECK_HAS(text, part)                                                                                \
    do {                                                                                                     \
        if (!fwb::plain::contains((text), (part)))                                                           \
            fwb::plain::fail(__FILE__, __LINE__, "\"" + std::string(text) + "\" lacks \"" + (part) + "\"");  \
    } while (0)
