// addVerbCommand and the options verbs share (see Verb.h).
#include "Verb.h"

#include <cstdio>

namespace fwb::cli {

CLI::App *addVerbCommand(CLI::App &root, const std::string &name, const std::string &description)
{
    CLI::App *command = root.add_subcommand(name, description);
    command->set_help_flag("-h,--help", "print this help and exit");
    command->allow_extras(); // reported by Verb::unknownArgument in filter-bench's own words
    command->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    return command;
}

std::function<std::string(const std::string &)> unknownOptionFor(const std::string &verb)
{
    return [verb](const std::string &argument) {
        return "unknown option '" + argument + "' for " + verb + " (see filter-bench --help)";
    };
}

CLI::Option *addJsonFlag(CLI::App &command, bool &json, const std::string &description)
{
    return command.add_flag("--json", json, description);
}

CLI::Option *addDeviceOption(CLI::App &command, std::string &spec)
{
    return command.add_option("--device", spec, "P:D, gpu, cpu or a name substring (default: best GPU, else CPU;\n"
                                                "see filter-bench devices)")
        ->type_name("SPEC");
}

CLI::Option *addCacheDirOption(CLI::App &command, std::string &dir)
{
    return command.add_option("--cache-dir", dir, "program-binary cache folder; - disables the disk cache")
        ->type_name("DIR|-");
}

CLI::Option *addLocalOption(CLI::App &command, std::string &text, const std::string &description)
{
    return command.add_option("--local", text, description)->type_name("WxH|auto");
}

CLI::Option *addSyntheticOption(CLI::App &command, std::string &size, const std::string &description)
{
    return command.add_option("--synthetic", size, description)->type_name("WxH");
}

bool parseSize(const std::string &text, long maxSide, long &w, long &h)
{
    char x = 0, tail = 0;
    return std::sscanf(text.c_str(), "%ld%c%ld%c", &w, &x, &h, &tail) == 3 && (x == 'x' || x == 'X') && w >= 1
           && h >= 1 && w <= maxSide && h <= maxSide;
}

} // namespace fwb::cli
