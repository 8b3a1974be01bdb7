// Build-log parsing: clang-style "file:line[:col]: severity: message" lines into diagnostics.
#include "BuildDiagnostics.h"

#include <regex>
#include <sstream>

namespace fwb {

const char *severityName(BuildDiagnostic::Severity severity)
{
    switch (severity) {
    case BuildDiagnostic::Severity::Error:
        return "error";
    case BuildDiagnostic::Severity::Warning:
        return "warning";
    case BuildDiagnostic::Severity::Note:
        return "note";
    }
    return "error";
}

std::string BuildDiagnostic::text() const
{
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on the chained operator+.
    std::string out = file;
    out.append(":").append(std::to_string(line));
    if (column > 0)
        out.append(":").append(std::to_string(column));
    out.append(": ").append(severityName(severity)).append(": ").append(message);
    return out;
}

std::vector<BuildDiagnostic> parseBuildLog(const std::string &log)
{
    // clang's own order, and PoCL's, which puts the severity first: "error: file:12:5: message".
    static const std::regex pattern(R"(^\s*(.+?):(\d+):(?:(\d+):)?\s*(fatal error|error|warning|note|remark):\s*(.*?)\s*$)");
    static const std::regex severityFirst(R"(^\s*(fatal error|error|warning|note|remark):\s*([^\s:][^:]*):(\d+):(?:(\d+):)?\s*(.*?)\s*$)");
    std::vector<BuildDiagnostic> out;
    std::istringstream in(log);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        std::smatch m;
        bool matched = false;
        std::string severity;
        BuildDiagnostic d;
        if (std::regex_match(line, m, severityFirst)) {
            matched = true;
            severity = m[1].str();
            d.file = m[2].str();
            d.line = std::stoi(m[3].str());
            d.column = m[4].matched ? std::stoi(m[4].str()) : 0;
            d.message = m[5].str();
        } else if (std::regex_match(line, m, pattern)) {
            matched = true;
            d.file = m[1].str();
            d.line = std::stoi(m[2].str());
            d.column = m[3].matched ? std::stoi(m[3].str()) : 0;
            severity = m[4].str();
            d.message = m[5].str();
        }
        if (matched) {
            d.severity = severity == "warning" ? BuildDiagnostic::Severity::Warning
                         : severity == "note" || severity == "remark" ? BuildDiagnostic::Severity::Note
                                                                      : BuildDiagnostic::Severity::Error;
            out.push_back(std::move(d));
        } else if (!out.empty() && line.find_first_not_of(" \t") != std::string::npos
                   && line.find(" generated.") == std::string::npos) {
            out.back().context += (out.back().context.empty() ? "" : "\n") + line;
        }
    }
    return out;
}

std::string firstBuildError(const std::string &log)
{
    const std::vector<BuildDiagnostic> all = parseBuildLog(log);
    for (const BuildDiagnostic &d : all)
        if (d.severity == BuildDiagnostic::Severity::Error)
            return d.text();
    return all.empty() ? std::string() : all.front().text();
}

} // namespace fwb
