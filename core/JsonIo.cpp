// JSON number form, dumping and positioned parse errors (see JsonIo.h).
#include "JsonIo.h"

#include "AtomicFile.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace fwb {

Json jsonNumber(double value)
{
    if (!std::isfinite(value))
        return nullptr;
    // Round to 6 significant digits exactly as %.6g does, but independent of the C locale.
    char buffer[40];
    const auto printed = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 6);
    double rounded = value;
    std::from_chars(buffer, printed.ptr, rounded);
    if (rounded == std::trunc(rounded) && std::fabs(rounded) < 1e15)
        return std::int64_t(rounded);
    return rounded;
}

std::string dumpJson(const Json &json)
{
    return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::optional<Json> parseJson(std::string_view text, const std::string &source, std::string *error)
{
    try {
        return Json::parse(text.begin(), text.end());
    } catch (const Json::parse_error &e) {
        if (error) {
            // e.byte counts the characters read, the offending token's last one included.
            const std::size_t offset = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
            std::size_t line = 1, lineStart = 0;
            for (std::size_t i = 0; i < offset; ++i)
                if (text[i] == '\n') {
                    ++line;
                    lineStart = i + 1;
                }
            // nlohmann's own text: "[json.exception.parse_error.101] parse error at line 2, column 5: why".
            std::string reason = e.what();
            if (const std::size_t colon = reason.find(": "); reason.rfind("[json.exception", 0) == 0
                                                             && colon != std::string::npos)
                reason.erase(0, colon + 2);
            *error = source + ":" + std::to_string(line) + ":" + std::to_string(offset - lineStart + 1) + ": "
                     + reason;
        }
        return std::nullopt;
    } catch (const Json::exception &e) {
        // Not only parse_error: a number no double holds ("1e+3001") is out_of_range.406, thrown by
        // the same parse (found by tests/fuzz/fuzz_tuning_db; it escaped every caller).
        if (error) {
            std::string reason = e.what();
            if (const std::size_t bracket = reason.find("] "); reason.rfind("[json.exception", 0) == 0
                                                               && bracket != std::string::npos)
                reason.erase(0, bracket + 2);
            *error = source + ": " + reason;
        }
        return std::nullopt;
    }
}

std::optional<Json> parseJsonFile(const std::filesystem::path &path, std::string *error)
{
    // No JSON file we read is near this size: a link to /dev/zero or a FIFO is refused, not read.
    constexpr std::uint64_t kMaxJsonBytes = 64ull << 20;
    std::string text, why;
    if (!readRegularFile(path, kMaxJsonBytes, text, &why)) {
        if (error)
            *error = path.string() + ": cannot open (" + why + ")";
        return std::nullopt;
    }
    return parseJson(text, path.string(), error);
}

} // namespace fwb
