// Fnv1a: a small stable 64-bit hash for cache keys and content identity (not for security).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace fwb {

class Fnv1a
{
public:
    void add(const void *bytes, std::size_t size)
    {
        const auto *p = static_cast<const unsigned char *>(bytes);
        for (std::size_t i = 0; i < size; ++i) {
            m_value ^= p[i];
            m_value *= 1099511628211ULL;
        }
    }
    void add(std::string_view text)
    {
        add(text.data(), text.size());
        const char separator = '\x1f'; // keeps ("ab","c") apart from ("a","bc")
        add(&separator, 1);
    }
    std::uint64_t value() const { return m_value; }
    std::string hex() const
    {
        char buffer[17];
        std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(m_value));
        return buffer;
    }

private:
    std::uint64_t m_value = 14695981039346656037ULL;
};

} // namespace fwb
