// What a filter-bench verb is made of: a CLI11 subcommand (its options and its generated --help) and
// the function that runs once they are parsed. Options that several verbs take are worded once here,
// so every verb's --help describes them alike.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace fwb {
class ImageIo;
}

namespace fwb::cli {

struct Verb
{
    CLI::App *command = nullptr;
    // Checks the parsed options as run() does before it starts any work, and stops there: no device
    // opened, no image read or made, no file written, no process started (checkBenchCli). Throws
    // fwb::Error for bad usage or input (exit 2). Empty: nothing to check beyond CLI11's parse. run()
    // makes the same checks first (it calls the same function), so the two cannot drift apart.
    std::function<void()> check;
    // Runs the verb on its parsed options and returns the exit code (0 success, 1 a run failed or did
    // not match); throws fwb::Error for bad usage or input (exit 2).
    std::function<int()> run;
    // The one-line reason for an argument the verb does not take (the first one given).
    std::function<std::string(const std::string &argument)> unknownArgument;
};

// A subcommand as every verb has it: arguments it does not know are collected for
// Verb::unknownArgument (not a CLI11 error), and an option given twice keeps its last value.
CLI::App *addVerbCommand(CLI::App &root, const std::string &name, const std::string &description);

// "unknown option 'X' for VERB (see filter-bench --help)": the wording for verbs with options.
std::function<std::string(const std::string &)> unknownOptionFor(const std::string &verb);

// A verb as most are made: the subcommand (addVerbCommand) with the options `addOptions` declares on it,
// parsed into one Options struct of the verb's own that `check` and `run` read (each called with the
// struct, then `extra`, e.g. the image I/O), and unknown options worded by unknownOptionFor(name).
template <class Options, class Check, class Run, class... Extra>
Verb optionsVerb(CLI::App &root, const std::string &name, const std::string &description,
                 void (*addOptions)(CLI::App &command, Options &options), Check check, Run run, Extra... extra)
{
    auto options = std::make_shared<Options>();
    Verb verb;
    verb.command = addVerbCommand(root, name, description);
    addOptions(*verb.command, *options);
    verb.check = [options, check, extra...] { check(*options, extra...); };
    verb.run = [options, run, extra...] { return run(*options, extra...); };
    verb.unknownArgument = unknownOptionFor(name);
    return verb;
}

// prepare --serve runs one `run` job after another in one process. keepRunSessions(true) makes each run
// keep its OpenCL session (context and queue) for the next run on the same device, cache and kernel
// folder; keepRunSessions(false) drops the kept one. Measured on an H100 (docs/MEASUREMENTS.md, "Session
// 20"): with 16 such children at once, a job whose program needed no compile still took 3.3 s, about
// 0.2 s of it serialised across the processes by the driver, where one run alone takes 0.4 s.
void keepRunSessions(bool keep);

// Options shared by verbs.
CLI::Option *addJsonFlag(CLI::App &command, bool &json, const std::string &description);
CLI::Option *addDeviceOption(CLI::App &command, std::string &spec);
CLI::Option *addCacheDirOption(CLI::App &command, std::string &dir);
CLI::Option *addLocalOption(CLI::App &command, std::string &text, const std::string &description);
CLI::Option *addSyntheticOption(CLI::App &command, std::string &size, const std::string &description);

// One file a verb is about to write: the option that names it, the path, and whether it replaces an
// existing file only with --overwrite.
struct OutputFile
{
    std::string option; // "--output", "--json-file", "--out"
    std::string path;
};

// The rules for every file a verb writes, checked before any work: never over an input (same path,
// or another name of it: a hard or symbolic link), never two outputs into one file, never over
// anything but a regular file, never into a folder that does not exist, an existing file only with
// `overwrite`. Empty paths are skipped.
// Throws fwb::Error (exit 2).
void checkOutputFiles(const std::vector<OutputFile> &outputs, const std::vector<std::string> &inputs, bool overwrite);

// Image file names go through the front end's image I/O (Qt), which cannot represent every byte
// string: a name it would change (invalid UTF-8) is refused, never re-encoded into another name.
// Throws fwb::Error (exit 2).
void checkImagePath(ImageIo *io, const std::string &option, const std::string &path);

// The verbs, in the order --help lists them.
Verb devicesVerb(CLI::App &root);
Verb listVerb(CLI::App &root);
Verb runVerb(CLI::App &root, ImageIo *io);
Verb applyVerb(CLI::App &root, ImageIo *io);
Verb userVariantsVerb(CLI::App &root);
Verb inspectVerb(CLI::App &root);
Verb raceVerb(CLI::App &root, ImageIo *io);
Verb tuneVerb(CLI::App &root, ImageIo *io);
Verb reportVerb(CLI::App &root, ImageIo *io);
Verb matmulVerb(CLI::App &root);
Verb nbodyVerb(CLI::App &root);
Verb cpuBenchVerb(CLI::App &root);
Verb cacheVerb(CLI::App &root);
// run: a command line run in this process (runBenchCli's parse and verbs), for prepare's children.
Verb prepareVerb(CLI::App &root, std::function<int(const std::vector<std::string> &args)> run);

} // namespace fwb::cli
