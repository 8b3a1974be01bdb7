// filter-bench apply's pipeline (see ApplyPipeline.h). The threading rule holds: a Session, its
// OpenCL objects and its page-locked blocks are made, used and freed on its own device thread; other
// threads only borrow a block's memory (an Image adopting it), and giving it back is a note under the
// lane's mutex.
#include "ApplyPipeline.h"

#include "ImageIo.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <filesystem>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>

namespace fwb::cli {

namespace {

namespace fs = std::filesystem;

// An image between the stages.
struct Job
{
    std::size_t index = 0;
    Image image;
    ItemOutcome outcome;
};

// Makes `change` under `mutex`, then wakes one or every thread waiting on `wake` for it (after the
// unlock, so none wakes into a held lock).
enum class Wake { One, All };
template <typename Change>
void changeThenWake(std::mutex &mutex, std::condition_variable &wake, Wake who, const Change &change)
{
    {
        std::lock_guard lock(mutex);
        change();
    }
    if (who == Wake::One)
        wake.notify_one();
    else
        wake.notify_all();
}

std::size_t bytesOf(int w, int h, PixelFormat format)
{
    return std::size_t(w) * std::size_t(h) * std::size_t(channelCount(format));
}

// One device thread: its Session, the decoded images waiting for it, and its pool of page-locked
// images. A block goes to an image of its size (or up to half smaller), so a batch of one size
// allocates once per image in flight, then reuses; when no free block fits, the lane's thread makes
// one (a decoder waits for it meanwhile: it is the thread that may call the Session).
class DeviceLane
{
public:
    DeviceLane(Session &session, std::size_t maxBlocks) : m_session(session), m_maxBlocks(maxBlocks) {}

    Session &session() { return m_session; }

    // Any thread but the lane's own: storage for a decoded image, page-locked from the pool, or an
    // ordinary image when the device could not give page-locked memory.
    Image lend(int w, int h, PixelFormat format)
    {
        std::unique_lock lock(m_mutex);
        Block *block = takeFree(bytesOf(w, h, format));
        if (!block && !m_pinnedFailed) {
            Request request{w, h, format};
            m_requests.push_back(&request);
            m_wake.notify_all();
            m_wake.wait(lock, [&] { return request.done; });
            block = request.block;
        }
        return view(block, w, h, format);
    }

    // The lane's own thread (the run's output storage): the same, made here when none is free.
    Image lendHere(int w, int h, PixelFormat format)
    {
        std::unique_lock lock(m_mutex);
        Block *block = takeFree(bytesOf(w, h, format));
        if (!block && !m_pinnedFailed)
            block = make(lock, w, h, format);
        return view(block, w, h, format);
    }

    // Page-locked blocks made so far (the pool's reuse shows in how few), and the time spent making them.
    std::size_t made() const { return m_made.load(); }
    double makeMs() const { return m_makeMs; }

    // Images sent to this lane and not yet through it (decoding, queued or running): its load.
    std::size_t load() const { return m_load.load(); }
    void reserve() { ++m_load; }
    void release() { --m_load; }

    void push(Job job)
    {
        changeThenWake(m_mutex, m_wake, Wake::All, [&] { m_jobs.push_back(std::move(job)); });
    }

    void close()
    {
        changeThenWake(m_mutex, m_wake, Wake::All, [&] { m_closed = true; });
    }

    // The lane's thread: the next image, making the blocks decoders ask for while none waits; nullopt
    // once the lane is closed and empty. An image ready to run goes before the next block: page-locking
    // one takes about as long as the device filters a heavy image, and a device that waits for the pool
    // to fill loses that time (the start of a device-bound batch), while a decoder that waits a run
    // longer for its block loses little (runs of light filters are short).
    std::optional<Job> next()
    {
        std::unique_lock lock(m_mutex);
        for (;;) {
            if (!m_jobs.empty()) {
                Job job = std::move(m_jobs.front());
                m_jobs.pop_front();
                return job;
            }
            if (serveOneRequest(lock))
                continue;
            if (m_closed)
                return std::nullopt;
            m_wake.wait(lock, [&] { return !m_jobs.empty() || !m_requests.empty() || m_closed; });
        }
    }

    // The lane's thread, at the end: waits until every lent image is back (the encoders' last ones),
    // then frees the pool here.
    void drain()
    {
        std::vector<std::unique_ptr<Block>> blocks;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] {
                while (serveOneRequest(lock)) {
                }
                return m_lent == 0;
            });
            blocks.swap(m_blocks);
        }
    }

private:
    struct Block
    {
        Image storage; // Session::pinnedImage: the page-locked block, unmapped when this goes
        bool lent = false;
    };
    struct Request
    {
        int w = 0, h = 0;
        PixelFormat format = PixelFormat::Gray8;
        Block *block = nullptr;
        bool done = false;
    };

    // Under the lock: the smallest free block that holds `bytes` and is at most twice that, now lent.
    Block *takeFree(std::size_t bytes)
    {
        Block *best = nullptr;
        for (const auto &b : m_blocks) {
            const std::size_t size = b->storage.sizeBytes();
            if (!b->lent && size >= bytes && size / 2 <= bytes && (!best || size < best->storage.sizeBytes()))
                best = b.get();
        }
        if (best) {
            best->lent = true;
            ++m_lent;
        }
        return best;
    }

    // Under the lock, on the lane's thread: a new block, lent; nullptr (and no more tries) when the
    // device cannot give page-locked memory. Over the cap, free blocks of other sizes go first.
    Block *make(std::unique_lock<std::mutex> &lock, int w, int h, PixelFormat format)
    {
        if (m_blocks.size() >= m_maxBlocks)
            std::erase_if(m_blocks, [](const std::unique_ptr<Block> &b) { return !b->lent; });
        Image storage;
        std::string error;
        lock.unlock();
        const auto start = ApplyClock::now();
        try {
            storage = m_session.pinnedImage(w, h, format);
        } catch (const std::exception &e) {
            error = e.what();
        }
        m_makeMs += msSince(start); // only this lane's thread makes blocks
        lock.lock();
        if (storage.isNull()) {
            if (!m_pinnedFailed)
                std::fprintf(stderr, "filter-bench: warning: %s; ordinary memory from now on (slower copies)\n",
                             error.c_str());
            m_pinnedFailed = true;
            return nullptr;
        }
        m_blocks.push_back(std::make_unique<Block>(Block{std::move(storage), true}));
        ++m_lent;
        ++m_made;
        return m_blocks.back().get();
    }

    // Under the lock, on the lane's thread: the oldest decoder's request served (a free block, else a
    // new one); false when none waits.
    bool serveOneRequest(std::unique_lock<std::mutex> &lock)
    {
        if (m_requests.empty())
            return false;
        Request *request = m_requests.front();
        m_requests.pop_front();
        request->block = takeFree(bytesOf(request->w, request->h, request->format));
        if (!request->block && !m_pinnedFailed)
            request->block = make(lock, request->w, request->h, request->format);
        request->done = true;
        m_wake.notify_all();
        return true;
    }

    // A w x h image on `block`'s memory that gives the block back when it goes (any thread); an
    // ordinary image without a block.
    Image view(Block *block, int w, int h, PixelFormat format)
    {
        if (!block)
            return Image(w, h, format);
        return Image::adopt(w, h, format, block->storage.data(), [this, block] {
            changeThenWake(m_mutex, m_wake, Wake::All, [&] {
                block->lent = false;
                --m_lent;
            });
        });
    }

    Session &m_session;
    const std::size_t m_maxBlocks;
    std::atomic<std::size_t> m_load{0}, m_made{0};
    double m_makeMs = 0;
    std::mutex m_mutex;
    std::condition_variable m_wake; // jobs, requests, requests served, blocks given back, closing
    std::deque<Job> m_jobs;
    std::deque<Request *> m_requests;
    std::vector<std::unique_ptr<Block>> m_blocks;
    std::size_t m_lent = 0;
    bool m_closed = false, m_pinnedFailed = false;
};

// What the host threads share: the next input to decode, the images to encode, and the count in
// flight (at most maxInflight between the start of a decode and the end of the encode).
class HostWork
{
public:
    HostWork(std::size_t count, int maxInflight) : m_count(count), m_maxInflight(std::size_t(std::max(1, maxInflight))) {}

    enum class Kind { Decode, Encode, Stop };
    struct Task
    {
        Kind kind = Kind::Stop;
        std::size_t index = 0;
        std::optional<Job> job;
    };

    // The next task: an encode when one waits (it ends an image), else the next decode when the
    // in-flight bound allows, else wait; Stop once every image is finished.
    Task take()
    {
        std::unique_lock lock(m_mutex);
        m_wake.wait(lock, [&] { return !m_encodes.empty() || canDecode() || allFinished(); });
        Task task;
        if (!m_encodes.empty()) {
            task.kind = Kind::Encode;
            task.job = std::move(m_encodes.front());
            m_encodes.pop_front();
        } else if (canDecode()) {
            task.kind = Kind::Decode;
            task.index = m_next++;
            ++m_inflight;
            ++m_decoding;
        }
        return task;
    }
    void encode(Job job)
    {
        changeThenWake(m_mutex, m_wake, Wake::One, [&] { m_encodes.push_back(std::move(job)); });
    }
    // A decode is over (its image sent on, or finished); true once for the last one of the batch.
    bool decoded()
    {
        std::lock_guard lock(m_mutex);
        --m_decoding;
        if (m_next < m_count || m_decoding > 0 || m_allDecoded)
            return false;
        m_allDecoded = true;
        return true;
    }
    // Fewer images in flight when `imageBytes` each (input and output) would take more than half of the
    // memory this process may use (a batch of huge images on a small machine); never below one.
    void limitByMemory(std::size_t imageBytes)
    {
        const std::uint64_t budget = memoryBudgetBytes();
        if (!budget || !imageBytes)
            return;
        const std::size_t fit = std::max<std::size_t>(1, std::size_t(budget / 2 / (2 * std::uint64_t(imageBytes))));
        std::lock_guard lock(m_mutex);
        m_maxInflight = std::min(m_maxInflight, fit);
    }
    void finished()
    {
        changeThenWake(m_mutex, m_wake, Wake::All, [&] { --m_inflight; });
    }

private:
    bool canDecode() const { return m_next < m_count && m_inflight < m_maxInflight; }
    bool allFinished() const { return m_next >= m_count && m_inflight == 0; }

    const std::size_t m_count;
    std::size_t m_maxInflight;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<Job> m_encodes;
    std::size_t m_next = 0, m_inflight = 0, m_decoding = 0;
    bool m_allDecoded = false;
};

bool outputExists(const std::string &path)
{
    std::error_code ec;
    return fs::exists(fs::symlink_status(path, ec));
}

} // namespace

ApplyThreads runApplyPipeline(const std::vector<ApplyItem> &items, const PipelineSettings &settings,
                              std::vector<std::unique_ptr<Session>> &sessions, ImageIo &io, BatchReport &report)
{
    const PixelFormat format = settings.request.params.format;
    // Each image holds at most an input and an output block of its lane.
    const std::size_t maxBlocks = 2 * std::size_t(settings.maxInflight) + 2;
    std::vector<std::unique_ptr<DeviceLane>> lanes;
    for (auto &session : sessions)
        lanes.push_back(std::make_unique<DeviceLane>(*session, maxBlocks));
    HostWork work(items.size(), settings.maxInflight);
    auto finish = [&](Job &job) {
        job.outcome.doneAt = ApplyClock::now();
        report.finish(job.index, job.outcome);
        job.image = Image(); // its block goes back before the next image may start
        work.finished();
    };
    auto closeLanes = [&] {
        for (auto &lane : lanes)
            lane->close();
    };
    if (items.empty())
        closeLanes();

    auto decode = [&](std::size_t index) {
        Job job;
        job.index = index;
        const ApplyItem &item = items[index];
        if (!settings.overwrite && outputExists(item.output)) { // done by an earlier run, or there before
            job.outcome.status = ItemStatus::Skipped;
            finish(job);
            return;
        }
        std::error_code sizeError;
        const std::uintmax_t fileBytes = fs::file_size(item.input, sizeError);
        job.outcome.fileBytes = sizeError ? 0 : fileBytes;
        DeviceLane &lane = **std::min_element(lanes.begin(), lanes.end(),
                                              [](const auto &a, const auto &b) { return a->load() < b->load(); });
        lane.reserve();
        const auto start = ApplyClock::now();
        job.outcome.decodeAt = start;
        double waitMs = 0; // for the lane's thread to make a block: not decoding
        std::string error;
        bool loaded = false;
        try {
            loaded = io.loadInto(
                item.input,
                [&](int w, int h, PixelFormat) {
                    if (!settings.inflightGiven)
                        work.limitByMemory(bytesOf(w, h, format));
                    const auto asked = ApplyClock::now();
                    Image storage = lane.lend(w, h, format);
                    waitMs += msSince(asked);
                    return storage;
                },
                job.image, error);
        } catch (const std::exception &e) {
            error = e.what();
        }
        job.outcome.decodeMs = std::max(0.0, msSince(start) - waitMs);
        if (loaded) {
            lane.push(std::move(job));
        } else {
            lane.release();
            job.outcome.error = "cannot load: " + error;
            finish(job);
        }
    };
    auto encode = [&](Job &job) {
        const ApplyItem &item = items[job.index];
        const auto start = ApplyClock::now();
        job.outcome.encodeAt = start;
        std::string error;
        try {
            if (!settings.overwrite && outputExists(item.output)) // written meanwhile (another shard, another run)
                job.outcome.status = ItemStatus::Skipped;
            else if (io.save(item.output, job.image, error))
                job.outcome.status = ItemStatus::Written;
            else
                job.outcome.error = "cannot save " + item.output + ": " + error;
        } catch (const std::exception &e) {
            job.outcome.error = "cannot save " + item.output + ": " + e.what();
        }
        job.outcome.encodeMs = msSince(start);
        finish(job);
    };
    auto hostLoop = [&] {
        for (;;) {
            HostWork::Task task = work.take();
            if (task.kind == HostWork::Kind::Stop)
                break;
            if (task.kind == HostWork::Kind::Encode) {
                encode(*task.job);
                continue;
            }
            decode(task.index);
            if (work.decoded())
                closeLanes(); // the device threads finish their queues, then free their pools
        }
    };
    auto deviceLoop = [&](DeviceLane &lane) {
        Session &session = lane.session();
        const RunRequest &request = settings.request;
        while (std::optional<Job> job = lane.next()) {
            const auto start = ApplyClock::now();
            job->outcome.deviceAt = start;
            RunResult r;
            try {
                r = session.run(job->image, request,
                                [&](int w, int h, PixelFormat f) { return lane.lendHere(w, h, f); });
            } catch (const std::exception &e) { // reported for this image; the batch goes on
                r.error = e.what();
            }
            job->image = Image(); // the input's block back to the pool
            ItemOutcome &out = job->outcome;
            out.device = r.device;
            out.uploadMs = r.uploadMs;
            out.kernelMs = r.kernelMs.median;
            out.downloadMs = r.downloadMs;
            out.deviceOtherMs = std::max(0.0, msSince(start) - r.uploadMs - r.kernelMs.median - r.downloadMs);
            lane.release();
            if (!r.ok()) {
                out.error = r.error;
            } else if (request.check && !r.matches) {
                out.error = "does not match the CPU reference (max diff " + std::to_string(r.maxAbsDiff)
                            + ", tolerance " + std::to_string(r.tolerance) + "); nothing written";
            } else {
                job->image = std::move(r.output);
                work.encode(std::move(*job));
                continue;
            }
            finish(*job);
        }
        lane.drain();
    };

    ApplyThreads threads;
    threads.host = std::max(1u, settings.hostThreads);
    threads.lanes = unsigned(lanes.size());
    {
        std::vector<std::jthread> running;
        for (auto &lane : lanes)
            running.emplace_back(deviceLoop, std::ref(*lane));
        for (unsigned t = 0; t < threads.host; ++t)
            running.emplace_back(hostLoop);
    } // every thread joins here
    for (const auto &lane : lanes) {
        threads.pageLockedImages += lane->made();
        threads.pageLockMs += lane->makeMs();
    }
    return threads;
}

} // namespace fwb::cli
