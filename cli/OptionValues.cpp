// The command line's numbers and compounds (see OptionValues.h).
#include "OptionValues.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace fwb::cli {

std::optional<long long> parseWholeNumber(const std::string &text)
{
    if (text.empty())
        return std::nullopt;
    char *end = nullptr;
    errno = 0;
    const long long n = std::strtoll(text.c_str(), &end, 10);
    if (*end || errno == ERANGE)
        return std::nullopt;
    return n;
}

std::optional<double> parsePlainDecimal(const std::string &text)
{
    // Decimal only: strtod would read "0x10" as 16 and "inf" or "1e9" past a range check's intent.
    if (text.empty() || text.find_first_not_of("0123456789.") != std::string::npos)
        return std::nullopt;
    char *end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (*end)
        return std::nullopt;
    return value;
}

bool parseSize(const std::string &text, long maxSide, long &w, long &h)
{
    char x = 0, tail = 0;
    return std::sscanf(text.c_str(), "%ld%c%ld%c", &w, &x, &h, &tail) == 3 && (x == 'x' || x == 'X') && w >= 1
           && h >= 1 && w <= maxSide && h <= maxSide;
}

bool parseShard(const std::string &text, long maxCount, long &index, long &count)
{
    char slash = 0, tail = 0;
    return std::sscanf(text.c_str(), "%ld%c%ld%c", &index, &slash, &count, &tail) == 3 && slash == '/' && count >= 1
           && count <= maxCount && index >= 0 && index < count;
}

RefusalText wholeNumberAtLeast(const std::string &flag, long long minimum)
{
    return [flag, minimum](const std::string &text) {
        return flag + " '" + text + "' must be a whole number >= " + std::to_string(minimum);
    };
}

namespace {

// Validators apply to the value kept (index 0: the last one given, as MultiOptionPolicy::TakeLast keeps).
CLI::Validator lastValue(CLI::Validator validator)
{
    validator.application_index(0);
    return validator;
}

} // namespace

CLI::Validator wholeNumberIn(long long minimum, long long maximum, RefusalText refusal, EmptyValue empty)
{
    return lastValue(CLI::Validator(
        [=](std::string &text) -> std::string {
            if (text.empty() && empty == EmptyValue::NeedsAValue)
                return {};
            const std::optional<long long> n = parseWholeNumber(text);
            if (!n || *n < minimum || *n > maximum)
                return refusal(text);
            text = std::to_string(*n);
            return {};
        },
        ""));
}

CLI::Validator wholeNumberIn(const std::string &flag, long long minimum, long long maximum)
{
    return wholeNumberIn(minimum, maximum, [flag, minimum, maximum](const std::string &text) {
        return flag + " '" + text + "' must be a whole number in " + std::to_string(minimum) + ".."
               + std::to_string(maximum);
    });
}

CLI::Validator positiveDecimalUpTo(double maximum, RefusalText refusal)
{
    return lastValue(CLI::Validator(
        [=](std::string &text) -> std::string {
            if (text.empty())
                return {};
            const std::optional<double> value = parsePlainDecimal(text);
            return value && *value > 0 && *value <= maximum ? std::string() : refusal(text);
        },
        ""));
}

CLI::Validator shardUpTo(long maxCount, RefusalText refusal)
{
    return lastValue(CLI::Validator(
        [=](std::string &text) -> std::string {
            long index = 0, count = 0;
            return text.empty() || parseShard(text, maxCount, index, count) ? std::string() : refusal(text);
        },
        ""));
}

CLI::Validator sizeUpTo(long maxSide, RefusalText refusal, EmptyValue empty)
{
    return lastValue(CLI::Validator(
        [=](std::string &text) -> std::string {
            if (text.empty() && empty == EmptyValue::NeedsAValue)
                return {};
            long w = 0, h = 0;
            return parseSize(text, maxSide, w, h) ? std::string() : refusal(text);
        },
        ""));
}

CLI::Option *addCountOption(CLI::App &command, const std::string &name, int &value, int minimum,
                            const std::string &description)
{
    return command.add_option(name, value, description)
        ->type_name("N")
        ->transform(wholeNumberIn(minimum, 100000, wholeNumberAtLeast(name, minimum)));
}

CLI::Option *addSizeOption(CLI::App &command, const std::string &name, std::optional<SizeWxH> &value, long maxSide,
                           RefusalText refusal, const std::string &description, EmptyValue empty)
{
    return command
        .add_option_function<std::string>(
            name,
            [&value, maxSide](const std::string &text) {
                SizeWxH size;
                if (parseSize(text, maxSide, size.w, size.h))
                    value = size;
            },
            description)
        ->type_name("WxH")
        ->check(sizeUpTo(maxSide, std::move(refusal), empty));
}

} // namespace fwb::cli
