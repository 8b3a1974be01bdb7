// The Qt-free suites' few checks (tests/plain: they run in the Qt-free build too, where Qt Test is absent).
// A failed check prints where and what, and the suite exits 1 at the end.
#pragma once

#include <cstdio>
#include <exception>
#include <string>

namespace fwb::plain {

inline int &failures()
{
    static int count = 0;
    return count;
}

inline void fail(const char *file, int line, const std::string &what)
{
    std::fprintf(stderr, "FAIL %s:%d: %s\n", file, line, what.c_str());
    ++failures();
}

inline int finish(const char *suite)
{
    std::printf("%s: %s\n", suite, failures() ? "FAILED" : "passed");
    return failures() ? 1 : 0;
}

} // namespace fwb::plain

#define CHECK(cond)                                                                                          \
    do {                                                                                                     \
        if (!(cond))                                                                                         \
            fwb::plain::fail(__FILE__, __LINE__, #cond);                                                     \
    } while (0)

#define CHECK_EQ(a, b)                                                                                       \
    do {                                                                                                     \
        const auto va_ = (a);                                                                                \
        const auto vb_ = (b);                                                                                \
        if (!(va_ == vb_))                                                                                   \
            fwb::plain::fail(__FILE__, __LINE__, std::string(#a " == " #b ": ") + std::to_string(va_) + " vs " \
                                                     + std::to_string(vb_));                                 \
    } while (0)

// The statement must throw an exception whose what() contains `text`.
#define CHECK_THROWS_WITH(stmt, text)                                                                        \
    do {                                                                                                     \
        bool threw_ = false;                                                                                 \
        try {                                                                                                \
            stmt;                                                                                            \
        } catch (const std::exception &e_) {                                                                 \
            threw_ = true;                                                                                   \
            if (std::string(e_.what()).find(text) == std::string::npos)                                      \
                fwb::plain::fail(__FILE__, __LINE__, std::string("message lacks \"") + (text) + "\": " + e_.what()); \
        }                                                                                                    \
        if (!threw_)                                                                                         \
            fwb::plain::fail(__FILE__, __LINE__, #stmt " did not throw");                                    \
    } while (0)
