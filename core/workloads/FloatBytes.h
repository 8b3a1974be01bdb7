// Floats as the bytes of a workload's buffers (WorkloadBuffer::data) and back, shared by the workloads
// whose buffers hold plain float arrays (vector_add, matmul).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace fwb {

inline std::vector<std::uint8_t> floatBytes(const std::vector<float> &values)
{
    std::vector<std::uint8_t> bytes(values.size() * sizeof(float));
    if (!bytes.empty())
        std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

// The i-th float of a buffer's bytes.
inline float floatAt(const std::vector<std::uint8_t> &bytes, std::size_t i)
{
    float value;
    std::memcpy(&value, bytes.data() + i * sizeof(float), sizeof value);
    return value;
}

} // namespace fwb
