// StderrCapture: what the process writes to its standard error (file descriptor 2) while a driver call
// runs, taken aside. PoCL's compiler prints "N warnings generated." there during clBuildProgram (its
// warnings themselves go to the build log): ProgramCache captures that line for the build log and
// passes every other line on to the real stderr. One capture at a time in the process (PoCL compiles
// one program at a time too); a no-op where file descriptors cannot be redirected.
#pragma once

#include <string>

namespace fwb {

class StderrCapture
{
public:
    explicit StderrCapture(bool active = true);
    ~StderrCapture(); // finish() if not done
    StderrCapture(const StderrCapture &) = delete;
    StderrCapture &operator=(const StderrCapture &) = delete;

    // Restores stderr and returns what was written meanwhile (empty when inactive or done).
    std::string finish();

private:
    struct State;
    State *m_state = nullptr;
};

// Splits a compiler's stderr text: its "N warning(s)/error(s) generated." count lines are returned (the
// build log's), every other line is written back to stderr.
std::string takeCompilerCountLines(const std::string &printed);

} // namespace fwb
