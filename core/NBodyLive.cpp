// NBodyLive: the nbody workload's kernels with their state kept on the device between calls, or its
// host reference, for an animation (see NBodyLive.h).
#include "NBodyLive.h"

#include "ClConfig.h"
#include "Error.h"
#include "KernelSources.h"
#include "Session.h"
#include "Workload.h"

#include <chrono>
#include <utility>

namespace fwb {

struct NBodyLive::Device
{
    cl::Context context;
    cl::CommandQueue queue;
    cl::Kernel kernel;
    cl::Buffer buffers[4]; // pos, vel, pos_next, vel_next
    cl::NDRange global, local;
    bool swapped = false;  // true: the current state is in pos_next / vel_next
};

NBodyLive::NBodyLive(Session *session, const std::string &variantName, int bodies, bool fastMath)
    : m_bodies(bodies)
{
    if (bodies < 1)
        throw Error("an N-body cloud needs at least one body");
    nbodyInitialState(std::size_t(bodies), m_pos, m_vel);
    if (!session)
        return;
    const WorkloadSpec &workload = *findWorkload("nbody");
    const VariantSpec *variant = workload.variant(variantName);
    if (!variant)
        throw Error("nbody has no variant '" + variantName + "'");
    // The workload's own plan for one step (defines, NDRange, work-group) keeps this in step with it.
    const WorkloadProblem problem = workload.setup(*variant, {{"bodies", double(bodies)}, {"steps", 1.0}});
    std::string options;
    for (const std::string &define : problem.defines)
        options += " -D" + define;
    for (const std::string &define : variant->defines)
        options += " -D" + define;
    if (fastMath && variant->fastMathMatters)
        options += " -cl-fast-relaxed-math";
    auto d = std::make_unique<Device>();
    const Session::NativeHandles handles = session->nativeHandles();
    d->context = cl::Context(cl_context(handles.context), true);
    d->queue = cl::CommandQueue(cl_command_queue(handles.queue), true);
    const cl::Device device(cl_device_id(handles.device), true);
    try {
        cl::Program program(d->context, loadKernelSource(variant->kernelFile).text);
        try {
            program.build({device}, options.c_str());
        } catch (const cl::Error &) {
            throw Error("nbody " + variantName + " did not build", CL_BUILD_PROGRAM_FAILURE,
                        program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device));
        }
        d->kernel = cl::Kernel(program, variant->passes.front().entry.c_str());
        const std::size_t bytes = std::size_t(bodies) * 16;
        for (cl::Buffer &b : d->buffers)
            b = cl::Buffer(d->context, CL_MEM_READ_WRITE, bytes);
        d->queue.enqueueWriteBuffer(d->buffers[0], CL_TRUE, 0, bytes, m_pos.data()); // blocking: m_pos dies if the next throws
        d->queue.enqueueWriteBuffer(d->buffers[1], CL_TRUE, 0, bytes, m_vel.data());
        const WorkloadPass &pass = problem.passes.front();
        d->global = cl::NDRange(pass.global[0]);
        d->local = pass.local.isConcrete() ? cl::NDRange(std::size_t(pass.local.width)) : cl::NullRange;
        d->kernel.setArg(4, cl_int(bodies));
    } catch (const cl::Error &e) {
        throw Error(std::string("nbody ") + variantName + ": " + e.what(), e.err());
    }
    m_device = std::move(d);
}

NBodyLive::~NBodyLive() = default;

double NBodyLive::advance(int steps)
{
    const auto start = std::chrono::steady_clock::now();
    if (!m_device) {
        nbodyStepsOnCpu(m_pos, m_vel, steps);
    } else {
        Device &d = *m_device;
        try {
            for (int s = 0; s < steps; ++s) {
                const int in = d.swapped ? 2 : 0, out = d.swapped ? 0 : 2;
                d.kernel.setArg(0, d.buffers[in]);
                d.kernel.setArg(1, d.buffers[in + 1]);
                d.kernel.setArg(2, d.buffers[out]);
                d.kernel.setArg(3, d.buffers[out + 1]);
                d.queue.enqueueNDRangeKernel(d.kernel, cl::NullRange, d.global, d.local);
                d.swapped = !d.swapped;
            }
            d.queue.finish();
        } catch (const cl::Error &e) {
            throw Error(std::string("nbody step: ") + e.what(), e.err());
        }
    }
    m_steps += steps;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::vector<float> NBodyLive::positions()
{
    if (m_device) {
        Device &d = *m_device;
        try {
            d.queue.enqueueReadBuffer(d.buffers[d.swapped ? 2 : 0], CL_TRUE, 0, m_pos.size() * sizeof(float),
                                      m_pos.data());
        } catch (const cl::Error &e) {
            throw Error(std::string("nbody read-back: ") + e.what(), e.err());
        }
    }
    std::vector<float> xyz(std::size_t(m_bodies) * 3);
    for (std::size_t i = 0; i < std::size_t(m_bodies); ++i) {
        xyz[i * 3] = m_pos[i * 4];
        xyz[i * 3 + 1] = m_pos[i * 4 + 1];
        xyz[i * 3 + 2] = m_pos[i * 4 + 2];
    }
    return xyz;
}

} // namespace fwb
