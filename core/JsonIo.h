// JSON in and out through nlohmann::ordered_json (keys keep the order they were written in): the
// number form our reports use, compact text, and reading with errors that name line and column.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace fwb {

using Json = nlohmann::ordered_json;

// A measured double as every report writes it: 6 significant digits (printf's %.6g), an integral
// value without a fraction ("2", not "2.0"), NaN and infinity as null.
Json jsonNumber(double value);

// Compact text, no spaces and no trailing newline. Invalid UTF-8 (a driver's build log, say) is
// written as U+FFFD rather than failing the whole report.
std::string dumpJson(const Json &json);

// Parses a JSON document. On failure returns nothing and, when `error` is given, sets it to
// "<source>:<line>:<column>: <reason>" (1-based; the column of the last character read, i.e. where
// the offending token ends).
std::optional<Json> parseJson(std::string_view text, const std::string &source, std::string *error = nullptr);

// parseJson on a file's bytes; a file that cannot be read gives "<path>: <reason>".
std::optional<Json> parseJsonFile(const std::filesystem::path &path, std::string *error = nullptr);

} // namespace fwb
