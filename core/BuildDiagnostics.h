// Build diagnostics: an OpenCL compiler's build log parsed into file:line:column entries (the
// editor's margin markers and issue list, the CLI's one-line message).
#pragma once

#include <string>
#include <vector>

namespace fwb {

struct BuildDiagnostic
{
    enum class Severity { Error, Warning, Note };
    Severity severity = Severity::Error;
    std::string file; // as the log names it: "gaussian5x5.cl" thanks to KernelSources' #line directives
    int line = 0;     // 1-based, in that file
    int column = 0;   // 1-based; 0 when the compiler gave none
    std::string message;
    std::string context; // the source line and caret the compiler printed under it, if any

    // "gaussian5x5.cl:119:5: error: use of undeclared identifier 'x'"
    std::string text() const;
};

const char *severityName(BuildDiagnostic::Severity severity);

// Clang-style lines ("file:line:col: error: message", as PoCL, NVIDIA, AMD and Intel print them),
// in log order; lines that are not diagnostics attach to the one before as its context.
std::vector<BuildDiagnostic> parseBuildLog(const std::string &log);

// The first error's text (or the first diagnostic's), empty when the log has none.
std::string firstBuildError(const std::string &log);

} // namespace fwb
