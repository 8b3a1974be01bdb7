// StartupTrace: FWB_TRACE=FILE (or "-" for stderr) writes one line per startup milestone of the window
// ("<ms since the epoch> <event>"), so that launch-to-picture times can be measured the same way on any
// build (scripts/first-result-time.sh): the window's construction, its first showing, the first build,
// the first picture and the first complete result. Off (one environment look-up) when unset.
#pragma once

namespace fwb {

// Records `event` once per process (later calls with the same text are ignored). Thread-safe.
void traceStartup(const char *event);

} // namespace fwb
