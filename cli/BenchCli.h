// filter-bench's command line: one subcommand per verb (devices, list, run, inspect), parsed with
// CLI11. Image files come through ImageIo (null in a Qt-free build).
#pragma once

namespace fwb {

class ImageIo;

// Returns the process exit code: 0 success, 1 a run failed or did not match, 2 bad usage or input
// (the reason on stderr as one line, "filter-bench: <reason>").
int runBenchCli(int argc, char **argv, ImageIo *io);

} // namespace fwb
