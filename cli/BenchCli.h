// filter-bench's command line: one subcommand per verb (devices, list, run, inspect, ...), parsed with
// CLI11. Image files come through ImageIo (null in a Qt-free build).
#pragma once

#include <string>

namespace fwb {

class ImageIo;

// Returns the process exit code: 0 success, 1 a run failed or did not match, 2 bad usage or input
// (the reason on stderr as one line, "filter-bench: <reason>").
int runBenchCli(int argc, char **argv, ImageIo *io);

// The command line parsed and the chosen verb's options checked exactly as runBenchCli checks them
// before it starts the work (cli::Verb::check), and no further: no device is opened, no image is read
// or made, no file is written or removed, no process is started (paths named are only looked at, and a
// named user variant's files read, within their size limits). Prints nothing. Returns 0 when the
// command would start (or print its help or version) and 2 for bad usage or input, with the one-line
// reason runBenchCli would print in *reason. For the command-line fuzz target (tests/fuzz/fuzz_cli.cpp).
int checkBenchCli(int argc, char **argv, ImageIo *io, std::string *reason = nullptr);

} // namespace fwb
