// The N-body host reference (core/workloads/NBody.cpp), Qt-free: its vector form (eight bodies per
// lane group) gives the plain one-body-at-a-time loop's results to the bit, at every body count (the
// lane groups and the scalar tail) and every split over threads. The loop below is the textbook
// formula with the workload's constants (kDt 0.001, softening^2 0.0025), written out here on purpose:
// if the vector form ever reordered a sum or fused a multiply-add, the bytes would differ.
#include "Check.h"
#include "NBodyLive.h"

#include <cmath>
#include <cstring>
#include <vector>

using namespace fwb;

namespace {

void textbookSteps(std::vector<float> &pos, std::vector<float> &vel, int steps)
{
    const std::size_t n = pos.size() / 4;
    std::vector<float> nextPos(pos.size()), nextVel(vel.size());
    for (int s = 0; s < steps; ++s) {
        for (std::size_t i = 0; i < n; ++i) {
            const float px = pos[4 * i], py = pos[4 * i + 1], pz = pos[4 * i + 2];
            float ax = 0, ay = 0, az = 0;
            for (std::size_t j = 0; j < n; ++j) {
                const float dx = pos[4 * j] - px, dy = pos[4 * j + 1] - py, dz = pos[4 * j + 2] - pz;
                const float inv = 1.0f / std::sqrt(dx * dx + dy * dy + dz * dz + 0.0025f);
                const float m = pos[4 * j + 3] * inv * inv * inv;
                ax += dx * m;
                ay += dy * m;
                az += dz * m;
            }
            nextVel[4 * i] = vel[4 * i] + ax * 0.001f;
            nextVel[4 * i + 1] = vel[4 * i + 1] + ay * 0.001f;
            nextVel[4 * i + 2] = vel[4 * i + 2] + az * 0.001f;
            nextVel[4 * i + 3] = vel[4 * i + 3];
            nextPos[4 * i] = px + nextVel[4 * i] * 0.001f;
            nextPos[4 * i + 1] = py + nextVel[4 * i + 1] * 0.001f;
            nextPos[4 * i + 2] = pz + nextVel[4 * i + 2] * 0.001f;
            nextPos[4 * i + 3] = pos[4 * i + 3];
        }
        pos.swap(nextPos);
        vel.swap(nextVel);
    }
}

bool sameBytes(const std::vector<float> &a, const std::vector<float> &b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

} // namespace

int main()
{
    for (std::size_t n : {1u, 5u, 8u, 13u, 64u, 203u}) {
        std::vector<float> pos0, vel0;
        nbodyInitialState(n, pos0, vel0);
        CHECK_EQ(pos0.size(), 4 * n);
        std::vector<float> pos = pos0, vel = vel0;
        textbookSteps(pos, vel, 3);
        for (int threads : {1, 2, 3, 7}) {
            std::vector<float> p = pos0, v = vel0;
            nbodyStepsOnCpu(p, v, 3, threads);
            CHECK(sameBytes(p, pos) && sameBytes(v, vel));
            if (!sameBytes(p, pos) || !sameBytes(v, vel))
                std::fprintf(stderr, "  n = %zu, threads = %d: not the textbook loop's bytes\n", n, threads);
        }
        CHECK(!sameBytes(pos, pos0)); // the bodies did move
    }
    return fwb::plain::finish("plain_nbody_cpu");
}
