// filter-worker: the helper process that runs one user kernel (see core/WorkerProcess.h), so a
// kernel that never finishes or crashes the driver takes down this process only.
#include "WorkerProcess.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char **argv)
{
    if (argc == 3 && std::strcmp(argv[1], "--job") == 0)
        return fwb::serveWorkerJob(argv[2]);
    // --parent PID: the caller, whose death ends this process too (prctl PR_SET_PDEATHSIG on Linux).
    if (argc == 5 && std::strcmp(argv[1], "--job") == 0 && std::strcmp(argv[3], "--parent") == 0)
        return fwb::serveWorkerJob(argv[2], std::strtol(argv[4], nullptr, 10));
    std::fprintf(stderr, "usage: filter-worker --job DIR  (protocol %d; started by filter-bench and the window)\n",
                 fwb::kWorkerProtocol);
    return 2;
}
