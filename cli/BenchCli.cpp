// runBenchCli: builds the CLI11 command tree from the verbs, parses, maps every usage problem to
// exit code 2 and one "filter-bench: <reason>" line, and runs the chosen verb.
#include "BenchCli.h"
#include "ChildProcess.h"

#include "BuildVersion.h"
#include "Error.h"
#include "Verb.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace fwb {

namespace {

// CLI11's help, in filter-bench's words: "usage: filter-bench <command> [options]".
class HelpFormatter : public CLI::Formatter
{
public:
    HelpFormatter()
    {
        column_width(36);
        label("REQUIRED", "(required)");
    }
    std::string make_usage(const CLI::App *app, std::string name) const override
    {
        return "usage: " + name + (app->get_parent() ? " [options]\n" : " <command> [options]\n");
    }
};

// The message on one line whatever the user typed: reasons quote arguments as given, and an argument
// may hold a line break or other control characters (found by fuzz_cli). Those are written as C escapes.
std::string oneLine(const std::string &message)
{
    std::string out;
    for (const char c : message) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte != 0x7f) {
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\r') {
            out += "\\r";
        } else {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            out += escaped;
        }
    }
    return out;
}

// Where the parse ends: runBenchCli runs the verb; checkBenchCli stops after its checks, silently.
struct Mode
{
    bool checkOnly = false;
    std::string *reason = nullptr; // the one-line reason of a usage error (checkBenchCli)

    int usageError(const std::string &message) const
    {
        const std::string line = oneLine(message);
        if (reason)
            *reason = line;
        if (!checkOnly)
            std::fprintf(stderr, "filter-bench: %s\n", line.c_str());
        return 2;
    }
    void print(const std::string &text, std::FILE *to) const
    {
        if (!checkOnly)
            std::fputs(text.c_str(), to);
    }
};

// "devices, list, run or inspect".
std::string verbList(const std::vector<cli::Verb> &verbs)
{
    std::string text;
    for (std::size_t i = 0; i < verbs.size(); ++i)
        text += (i == 0 ? "" : i + 1 == verbs.size() ? " or " : ", ") + verbs[i].command->get_name();
    return text;
}

const cli::Verb *findVerb(const std::vector<cli::Verb> &verbs, const std::string &name)
{
    for (const cli::Verb &verb : verbs)
        if (verb.command->get_name() == name)
            return &verb;
    return nullptr;
}

// Edited kernels (FWB_KERNEL_DIR) may write anywhere. The filter verbs run them in the helper process
// (IsolatedRun); matmul, nbody and inspect, whose work the helper does not carry, run whole in a
// process of their own, so that a crash there is reported and exits 1 instead of taking filter-bench
// down (issue 29, item 4). Empty when this verb runs here.
std::optional<int> runInOwnProcess(const std::string &verb, int argc, char **argv)
{
    const char *kernelDir = std::getenv("FWB_KERNEL_DIR");
    if (!kernelDir || !*kernelDir || (verb != "matmul" && verb != "nbody" && verb != "inspect")
        || std::getenv("FWB_OWN_PROCESS"))
        return std::nullopt;
    std::fflush(stdout);
    std::fflush(stderr);
    ChildOptions options;
    options.extraEnv = {"FWB_OWN_PROCESS=1", "FWB_PARENT_PID=" + std::to_string(getpid())};
    const ChildOutcome child = runChild("/proc/self/exe", std::vector<std::string>(argv, argv + argc), options);
    if (!child.started)
        throw Error("cannot start " + verb + "'s own process for the edited kernels: " + child.startError);
    if (child.signal) {
        std::fprintf(stderr,
                     "filter-bench: %s with edited kernels (FWB_KERNEL_DIR %s) crashed in its own process "
                     "(signal %d: %s); filter-bench itself is unharmed\n",
                     verb.c_str(), kernelDir, child.signal, strsignal(child.signal));
        return 1;
    }
    return child.exitCode;
}

int runVerbs(int argc, char **argv, ImageIo *io, const Mode &mode);

// A command line run here as if it were ours (prepare's children run their jobs so: cli/PrepareChild.h).
int runCommandLine(const std::vector<std::string> &args, ImageIo *io)
{
    std::vector<std::string> copy = args;
    std::vector<char *> argv;
    for (std::string &a : copy)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    return runVerbs(int(args.size()), argv.data(), io, Mode{});
}

// Parses the command line and runs the chosen verb (or only checks its options); its exit status.
int runVerbs(int argc, char **argv, ImageIo *io, const Mode &mode)
{
    auto usageError = [&mode](const std::string &message) { return mode.usageError(message); };
    CLI::App app("filter-bench: OpenCL filter variants timed on a device and checked against the CPU.",
                 "filter-bench");
    app.formatter(std::make_shared<HelpFormatter>());
    app.option_defaults()->group("options"); // the verbs' options too
    app.set_help_flag("-h,--help", "print this help and exit (each command has its own: filter-bench run --help)");
    app.set_version_flag("--version", "filter-bench " FWB_VERSION_LINE, "print the version and commit and exit");
    app.require_subcommand(1);
    app.footer("Exit status: 0 success, 1 a run failed or did not match, 2 bad usage or input.");

    // Every verb: a subcommand with generated --help. Later verbs (race, tune, ...) add one line here.
    const std::vector<cli::Verb> verbs = {
        cli::devicesVerb(app),
        cli::listVerb(app),
        cli::runVerb(app, io),
        cli::applyVerb(app, io),
        cli::userVariantsVerb(app),
        cli::inspectVerb(app),
        cli::raceVerb(app, io),
        cli::tuneVerb(app, io),
        cli::reportVerb(app, io),
        cli::matmulVerb(app),
        cli::nbodyVerb(app),
        cli::cpuBenchVerb(app),
        cli::cacheVerb(app),
        cli::prepareVerb(app, [io](const std::vector<std::string> &args) { return runCommandLine(args, io); }),
    };
    for (const cli::Verb &verb : verbs)
        verb.command->group("commands");

    // No command: the help on stderr (a usage error); --help, -h or help: on stdout. "help VERB" is
    // that verb's help.
    const std::string first = argc > 1 ? argv[1] : "";
    if (first == "--version" || first == "-V") {
        mode.print("filter-bench " FWB_VERSION_LINE "\n", stdout); // "filter-bench 0.2.0 (commit 1a2b3c4)"
        return 0;
    }
    if (argc < 2 || first == "--help" || first == "-h" || first == "help") {
        const cli::Verb *verb = first == "help" && argc > 2 ? findVerb(verbs, argv[2]) : nullptr;
        if (!mode.checkOnly)
            mode.print(verb ? verb->command->help("filter-bench") : app.help("", CLI::AppFormatMode::All),
                       argc < 2 ? stderr : stdout);
        if (argc < 2 && mode.reason)
            *mode.reason = "no command";
        return argc < 2 ? 2 : 0;
    }
    if (!findVerb(verbs, first))
        return usageError("unknown command '" + first + "' (use " + verbList(verbs) + "; --help for more)");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &) {
        if (!mode.checkOnly)
            mode.print(app.help(), stdout); // the chosen verb's help
        return 0;
    } catch (const CLI::ArgumentMismatch &e) {
        // "--filter: 1 required TEXT missing": an option given last, without its value.
        const std::string message = e.what();
        const std::size_t colon = message.find(": ");
        if (message.rfind("--", 0) == 0 && colon != std::string::npos && message.find(" required ") != std::string::npos)
            return usageError("option " + message.substr(0, colon) + " needs a value");
        return usageError(message);
    } catch (const CLI::ValidationError &e) {
        // "--repeat: --repeat 'abc' must be ...": our validators word the whole reason (OptionValues.h).
        const std::string message = e.what();
        const std::size_t colon = message.find(": ");
        const bool ours = colon != std::string::npos && message.compare(colon + 2, colon, message, 0, colon) == 0;
        return usageError(ours ? message.substr(colon + 2) : message);
    } catch (const CLI::ParseError &e) {
        return usageError(e.what());
    }

    const cli::Verb &verb = *findVerb(verbs, first);
    // An option given with an empty value ("--timeout ''", "--timeout=") is a mistake, never "not
    // given": taken as absent it would silently change the run (no time limit, the default input, the
    // default cache). CLI11 drops empty values, so the words are read as given.
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("--", 0) != 0 || arg == "--")
            continue;
        const std::size_t eq = arg.find('=');
        const std::string name = arg.substr(0, eq);
        const CLI::Option *option = verb.command->get_option_no_throw(name);
        // These refuse '' themselves, with the form they need ("--tile '' is not of the form WxH...").
        static const char *const selfChecked[] = {"--tile", "--block", "--blocks", "--max-alloc-mib", "--transfer",
                                                  "--format", "--border"};
        if (!option || option->get_type_size_min() <= 0
            || std::find(std::begin(selfChecked), std::end(selfChecked), name) != std::end(selfChecked))
            continue;
        if (eq != std::string::npos ? eq + 1 == arg.size() : (i + 1 < argc && argv[i + 1][0] == '\0'))
            return usageError("option " + name + " needs a value, not an empty one");
    }
    if (const std::vector<std::string> extra = verb.command->remaining(); !extra.empty())
        return usageError(verb.unknownArgument ? verb.unknownArgument(extra.front())
                                               : cli::unknownOptionFor(first)(extra.front()));
    // FWB_KERNEL_DIR, like --kernel-dir, must name a folder: a mistyped one would otherwise fall back to
    // the built-in kernels without a word.
    if (const char *dir = std::getenv("FWB_KERNEL_DIR"); dir && *dir) {
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec))
            return usageError(std::string("FWB_KERNEL_DIR '") + dir + "' is not a folder (unset it for the built-in kernels)");
    }
    try {
        if (mode.checkOnly) {
            if (verb.check)
                verb.check();
            return 0;
        }
        if (const std::optional<int> code = runInOwnProcess(first, argc, argv))
            return *code;
        return verb.run();
    } catch (const Error &e) {
        std::string message = e.what();
        if (e.clCode())
            message += " (" + clErrorName(e.clCode()) + ")";
        return usageError(message);
    } catch (const std::exception &e) {
        return usageError(std::string("unexpected error: ") + e.what());
    }
}

} // namespace

// The verbs' exit status, unless what they printed did not reach standard output (`--json >
// /dev/full`, a closed pipe): a result nobody received is a failure (exit 1), never a silent 0.
int runBenchCli(int argc, char **argv, ImageIo *io)
{
    dieWithParentFromEnvironment(); // started by runChild for a parent filter-bench: go with it
    int code = runVerbs(argc, argv, io, Mode{});
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        const int error = errno;
        std::fprintf(stderr, "filter-bench: cannot write to standard output: %s\n", std::strerror(error));
        if (code == 0)
            code = 1;
    }
    return code;
}

int checkBenchCli(int argc, char **argv, ImageIo *io, std::string *reason)
{
    std::string local;
    return runVerbs(argc, argv, io, Mode{true, reason ? reason : &local});
}

} // namespace fwb
