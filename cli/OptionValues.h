// The one reading of filter-bench's command-line numbers and compounds, and the CLI11 validators built
// on it, so every verb takes and refuses them alike: whole numbers in base 10 as strtol reads them
// (blanks and a sign before, nothing after; never octal or hexadecimal), plain decimals (digits and
// '.': no sign, exponent, hexadecimal, inf or nan), WxH sizes and I/N shards. A validator's message is
// the option's whole one-line reason ("--repeat 'abc' must be a whole number >= 1"); runBenchCli prints
// it as it is, without CLI11's "--repeat: " before it. An empty value passes a validator unless it
// refuses empty values itself: runBenchCli then refuses it as "needs a value, not an empty one".
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <string>

namespace fwb::cli {

std::optional<long long> parseWholeNumber(const std::string &text);
std::optional<double> parsePlainDecimal(const std::string &text);
// "WxH" (or "WXH") with both sides in 1..maxSide; false for anything else.
bool parseSize(const std::string &text, long maxSide, long &w, long &h);
// "I/N" with 0 <= I < N <= maxCount.
bool parseShard(const std::string &text, long maxCount, long &index, long &count);

struct SizeWxH
{
    long w = 0, h = 0;
};

// The option's reason for refusing `text`.
using RefusalText = std::function<std::string(const std::string &text)>;
// "FLAG 'TEXT' must be a whole number >= MINIMUM": the counts' wording.
RefusalText wholeNumberAtLeast(const std::string &flag, long long minimum);

enum class EmptyValue { NeedsAValue, Refused }; // Refused: the validator's own message for ''

// A whole number in minimum..maximum, handed on to CLI11 as plain base-10 digits (CLI11 itself would
// read "010" as octal and "0x10" as hexadecimal).
CLI::Validator wholeNumberIn(long long minimum, long long maximum, RefusalText refusal,
                             EmptyValue empty = EmptyValue::NeedsAValue);
// The same with the ranges' wording: "FLAG 'TEXT' must be a whole number in MINIMUM..MAXIMUM".
CLI::Validator wholeNumberIn(const std::string &flag, long long minimum, long long maximum);
// A plain decimal in (0, maximum].
CLI::Validator positiveDecimalUpTo(double maximum, RefusalText refusal);
// I/N with 0 <= I < N <= maxCount.
CLI::Validator shardUpTo(long maxCount, RefusalText refusal);
// WxH with both sides in 1..maxSide.
CLI::Validator sizeUpTo(long maxSide, RefusalText refusal, EmptyValue empty = EmptyValue::NeedsAValue);

// Typed options: the value lands in `value` after its validator passed (the last one given counts).
// --repeat N / --warmup N and the like: an int from `minimum` to 100000 (help: "N").
CLI::Option *addCountOption(CLI::App &command, const std::string &name, int &value, int minimum,
                            const std::string &description);
CLI::Option *addSizeOption(CLI::App &command, const std::string &name, std::optional<SizeWxH> &value, long maxSide,
                           RefusalText refusal, const std::string &description,
                           EmptyValue empty = EmptyValue::NeedsAValue);

} // namespace fwb::cli
