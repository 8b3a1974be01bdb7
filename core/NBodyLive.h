// A running N-body simulation for the Compute Lab's animation: the nbody workload's cloud, advanced
// step by step on a session's device (one of the workload's variants, state kept on the device) or
// on the CPU (the workload's multi-threaded host reference), its positions read back for display.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace fwb {

class Session;

// The workload's initial cloud (x, y, z, mass / vx, vy, vz, 0 per body) and its host reference
// stepping, multi-threaded (threads 0: every hardware thread); see core/workloads/NBody.cpp.
void nbodyInitialState(std::size_t n, std::vector<float> &pos, std::vector<float> &vel);
void nbodyStepsOnCpu(std::vector<float> &pos, std::vector<float> &vel, int steps, int threads = 0);

class NBodyLive
{
public:
    // session null: the CPU reference engine. Throws fwb::Error (unknown variant, build failure).
    NBodyLive(Session *session, const std::string &variant, int bodies, bool fastMath);
    ~NBodyLive();
    NBodyLive(const NBodyLive &) = delete;
    NBodyLive &operator=(const NBodyLive &) = delete;

    // Advances `steps` time steps and waits for them; returns the seconds they took.
    double advance(int steps);
    // x, y, z of every body (3 floats each), read back from the device when it runs there.
    std::vector<float> positions();
    long long stepsDone() const { return m_steps; }
    int bodies() const { return m_bodies; }

private:
    struct Device;
    std::unique_ptr<Device> m_device; // null on the CPU
    std::vector<float> m_pos, m_vel;  // CPU state (device: the initial state only)
    int m_bodies = 0;
    long long m_steps = 0;
};

} // namespace fwb
