// filter-bench apply's outcomes: what became of each image (with the time each stage took) and the
// batch's report (the JSON line per image with --json, the progress line or plain lines, failures on
// stderr, and the summary with the stage totals and what limited the batch).
#pragma once

#include "ApplyCheck.h"

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace fwb::cli {

using ApplyClock = std::chrono::steady_clock;
inline double msSince(ApplyClock::time_point start)
{
    return std::chrono::duration<double, std::milli>(ApplyClock::now() - start).count();
}

enum class ItemStatus { Written, Skipped, Failed };

// What became of one image, with the time each stage took (ms). deviceOtherMs: the device thread's
// time on the image outside its three timed commands (the run's setup: program lookup, kernels and
// their arguments, output storage, waiting for the queue; and the hand-overs).
struct ItemOutcome
{
    ItemStatus status = ItemStatus::Failed;
    double decodeMs = 0, uploadMs = 0, kernelMs = 0, downloadMs = 0, deviceOtherMs = 0, encodeMs = 0;
    std::uint64_t fileBytes = 0;
    std::string device, error;
    // When the image's decode, device run and encode began and when it was done (a default time
    // point: the stage did not run), for the per-image timeline of --json.
    ApplyClock::time_point decodeAt{}, deviceAt{}, encodeAt{}, doneAt{};
};

// The threads that did the work, for the summary's limits line, and the page-locked images the
// device threads made (reused for every image of the same size: a batch of one size needs about two
// per image in flight, however many images it has).
struct ApplyThreads
{
    unsigned host = 1;  // decode and encode threads (each does both)
    unsigned lanes = 1; // device threads (one Session each: --device entries x --queues)
    std::size_t pageLockedImages = 0;
    double pageLockMs = 0; // the device threads' time making those images (summed)
};

class BatchReport
{
public:
    BatchReport(const std::vector<ApplyItem> &items, bool json);

    void finish(std::size_t index, const ItemOutcome &r); // any thread
    // The end: the summary (a JSON line with --json), and whether every image was written or skipped.
    bool summarize(const ApplyThreads &threads);

private:
    void clearProgress();
    void showProgress(); // "apply 12/200 images, 35.2 MB/s, 41 s left"

    const std::vector<ApplyItem> &m_items;
    const bool m_json, m_terminal;
    const ApplyClock::time_point m_start;
    std::mutex m_mutex;
    std::size_t m_done = 0, m_count[3] = {0, 0, 0};
    std::uint64_t m_bytes = 0;
    double m_decode = 0, m_upload = 0, m_kernel = 0, m_download = 0, m_deviceOther = 0, m_encode = 0;
    bool m_progressShown = false;
};

} // namespace fwb::cli
