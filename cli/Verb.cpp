// addVerbCommand and the options verbs share (see Verb.h).
#include "Verb.h"

#include "AtomicFile.h"
#include "Error.h"
#include "ImageIo.h"

#include <cstdio>
#include <filesystem>

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

namespace {

// The file a path names once links and "." / ".." are resolved (the path itself when that fails).
std::filesystem::path resolved(const std::string &path)
{
    std::error_code ec;
    std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
    return ec ? std::filesystem::path(path) : p;
}

bool sameFile(const std::string &a, const std::string &b)
{
    std::error_code ec;
    if (std::filesystem::equivalent(a, b, ec) && !ec)
        return true; // also hard links
    return resolved(a) == resolved(b);
}

} // namespace

void checkOutputFiles(const std::vector<OutputFile> &outputs, const std::vector<std::string> &inputs, bool overwrite)
{
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const OutputFile &out = outputs[i];
        if (out.path.empty())
            continue;
        for (const std::string &input : inputs)
            if (!input.empty() && sameFile(input, out.path))
                throw Error("refusing to write the result over the input " + input + " (" + out.option + " " + out.path
                            + ")");
        for (std::size_t k = 0; k < i; ++k)
            if (!outputs[k].path.empty() && sameFile(outputs[k].path, out.path))
                throw Error(outputs[k].option + " and " + out.option + " name the same file " + out.path
                            + " (one would be lost under the other)");
        // No verb creates folders for its outputs (--output never could): a mistyped folder is an error.
        const std::filesystem::path parent = std::filesystem::path(out.path).parent_path();
        std::error_code dirError;
        if (!parent.empty() && !std::filesystem::is_directory(parent, dirError))
            throw Error(out.option + " " + out.path + ": the folder " + parent.string() + " does not exist");
        if (std::string problem = replaceProblem(out.path); !problem.empty())
            throw Error(out.option + " " + out.path + " " + problem);
        std::error_code ec;
        if (std::filesystem::exists(std::filesystem::symlink_status(out.path, ec)) && !overwrite)
            throw Error(out.option + " file " + out.path + " exists; pass --overwrite to replace it");
    }
}

void checkImagePath(ImageIo *io, const std::string &option, const std::string &path)
{
    if (!io || path.empty())
        return;
    if (std::string problem = io->pathProblem(path); !problem.empty())
        throw Error(option + " " + problem);
}

} // namespace fwb::cli
