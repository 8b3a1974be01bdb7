// StderrCapture: file descriptor 2 redirected into a temporary file and back (see StderrCapture.h).
#include "StderrCapture.h"

#include <cstdio>
#include <mutex>
#include <regex>
#include <sstream>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#define FWB_STDERR_CAPTURE 1
#endif

namespace fwb {

namespace {

std::mutex &captureMutex()
{
    static std::mutex mutex;
    return mutex;
}

} // namespace

struct StderrCapture::State
{
    std::unique_lock<std::mutex> lock{captureMutex()};
    std::FILE *file = nullptr;
    int saved = -1;
};

StderrCapture::StderrCapture(bool active)
{
#ifdef FWB_STDERR_CAPTURE
    if (!active)
        return;
    auto state = new State;
    std::fflush(stderr);
    state->file = std::tmpfile();
    state->saved = state->file ? dup(2) : -1;
    if (state->saved < 0 || dup2(fileno(state->file), 2) < 0) {
        if (state->saved >= 0)
            close(state->saved);
        if (state->file)
            std::fclose(state->file);
        delete state;
        return;
    }
    m_state = state;
#else
    (void)active;
#endif
}

StderrCapture::~StderrCapture()
{
    if (m_state)
        takeCompilerCountLines(finish()); // nothing printed is lost
}

std::string StderrCapture::finish()
{
    std::string text;
#ifdef FWB_STDERR_CAPTURE
    if (!m_state)
        return text;
    std::fflush(stderr);
    dup2(m_state->saved, 2);
    close(m_state->saved);
    std::rewind(m_state->file);
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, m_state->file)) > 0;)
        text.append(buffer, n);
    std::fclose(m_state->file);
    delete m_state; // and unlocks
    m_state = nullptr;
#endif
    return text;
}

std::string takeCompilerCountLines(const std::string &printed)
{
    static const std::regex count(R"(^\s*\d+ (warning|error)s?( and \d+ (warning|error)s?)? generated\.\s*$)");
    std::string counts, rest;
    std::istringstream lines(printed);
    for (std::string line; std::getline(lines, line);)
        (std::regex_match(line, count) ? counts : rest) += line + '\n';
    if (!rest.empty()) {
        std::fputs(rest.c_str(), stderr);
        std::fflush(stderr);
    }
    return counts;
}

} // namespace fwb
