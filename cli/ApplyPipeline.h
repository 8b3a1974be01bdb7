// filter-bench apply's pipeline: host threads that decode and encode (each takes whichever is due,
// encodes first), and device threads, one per Session (--device entries x --queues), each with a pool
// of page-locked images its Session made. Decoders write straight into a lane's page-locked image,
// the Session uploads from it and downloads into another of its pool, the encoder reads that: no
// staging copy, and no allocation per image once the pool holds the batch's sizes.
#pragma once

#include "ApplyReport.h"

#include "Image.h"
#include "Session.h"

#include <memory>
#include <vector>

namespace fwb {
class ImageIo;
}

namespace fwb::cli {

struct PipelineSettings
{
    RunRequest request;     // one image's run (transfer mode pinned: the pool's images are page-locked)
    bool overwrite = false; // replace outputs already there (else skip them)
    int maxInflight = 16;   // images between the start of their decode and the end of their encode
    bool inflightGiven = false; // --max-inflight: else fewer where the images would not fit in memory
    unsigned hostThreads = 1;
};

// Runs the batch over `sessions` (each used only from its own device thread here, which also makes and
// frees its page-locked images); every outcome goes to `report`. Returns the threads it used.
ApplyThreads runApplyPipeline(const std::vector<ApplyItem> &items, const PipelineSettings &settings,
                              std::vector<std::unique_ptr<Session>> &sessions, ImageIo &io, BatchReport &report);

} // namespace fwb::cli
