// filter-bench apply's report: per-image lines, progress and the summary (see ApplyReport.h).
#include "ApplyReport.h"

#include "JsonIo.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <utility>

#include <unistd.h>

namespace fwb::cli {

namespace {

const char *statusName(ItemStatus s)
{
    return s == ItemStatus::Written ? "written" : s == ItemStatus::Skipped ? "skipped" : "failed";
}

} // namespace

BatchReport::BatchReport(const std::vector<ApplyItem> &items, bool json)
    : m_items(items), m_json(json), m_terminal(isatty(STDERR_FILENO)), m_start(ApplyClock::now())
{
}

void BatchReport::finish(std::size_t index, const ItemOutcome &r)
{
    std::lock_guard lock(m_mutex);
    const ApplyItem &item = m_items[index];
    ++m_done;
    ++m_count[int(r.status)];
    m_decode += r.decodeMs, m_upload += r.uploadMs, m_kernel += r.kernelMs, m_download += r.downloadMs;
    m_deviceOther += r.deviceOtherMs, m_encode += r.encodeMs;
    if (r.status == ItemStatus::Written)
        m_bytes += r.fileBytes;
    if (m_json) {
        Json j = Json::object({{"input", item.input}, {"output", item.output}, {"status", statusName(r.status)}});
        if (!r.device.empty())
            j["device"] = r.device;
        j["decode_ms"] = jsonNumber(r.decodeMs);
        j["upload_ms"] = jsonNumber(r.uploadMs);
        j["kernel_ms"] = jsonNumber(r.kernelMs);
        j["download_ms"] = jsonNumber(r.downloadMs);
        j["device_other_ms"] = jsonNumber(r.deviceOtherMs);
        j["encode_ms"] = jsonNumber(r.encodeMs);
        j["error"] = r.error.empty() ? Json() : Json(r.error);
        // The timeline: seconds since the batch began at which each stage started (null: it did not run).
        const auto at = [&](ApplyClock::time_point t) {
            return t == ApplyClock::time_point{}
                       ? Json()
                       : jsonNumber(std::chrono::duration<double>(t - m_start).count());
        };
        j["decode_at_s"] = at(r.decodeAt);
        j["device_at_s"] = at(r.deviceAt);
        j["encode_at_s"] = at(r.encodeAt);
        j["done_at_s"] = at(r.doneAt);
        std::printf("%s\n", dumpJson(j).c_str());
        std::fflush(stdout);
    }
    clearProgress();
    if (r.status == ItemStatus::Failed)
        std::fprintf(stderr, "filter-bench: %s: %s; skipped\n", item.input.c_str(), r.error.c_str());
    else if (!m_json && !m_terminal)
        std::fprintf(stderr, "[%zu/%zu] %s %s\n", m_done, m_items.size(), item.output.c_str(),
                     r.status == ItemStatus::Written ? "written" : "exists, skipped (--overwrite replaces it)");
    if (m_terminal)
        showProgress();
}

bool BatchReport::summarize(const ApplyThreads &threads)
{
    std::lock_guard lock(m_mutex);
    clearProgress();
    const double seconds = msSince(m_start) / 1000;
    const std::size_t written = m_count[int(ItemStatus::Written)], skipped = m_count[int(ItemStatus::Skipped)],
                      failed = m_count[int(ItemStatus::Failed)];
    const double imagesPerS = seconds > 0 ? double(written) / seconds : 0;
    const std::pair<const char *, double> stages[] = {{"decode", m_decode},          {"upload", m_upload},
                                                      {"filter", m_kernel},          {"download", m_download},
                                                      {"device other", m_deviceOther}, {"encode", m_encode}};
    const auto slowest = *std::max_element(std::begin(stages), std::end(stages),
                                           [](const auto &a, const auto &b) { return a.second < b.second; });
    // Each side's busy time per thread: the side nearer the wall time limits the batch.
    const double hostBusyS = (m_decode + m_encode) / 1000 / std::max(1u, threads.host);
    const double deviceBusyS = (m_upload + m_kernel + m_download + m_deviceOther) / 1000 / std::max(1u, threads.lanes);
    const char *limit = hostBusyS >= deviceBusyS ? "host threads (decode + encode)" : "device threads";
    if (m_json) {
        Json j = Json::object({{"summary", true},
                               {"images", m_items.size()},
                               {"written", written},
                               {"skipped", skipped},
                               {"failed", failed},
                               {"seconds", jsonNumber(seconds)},
                               {"images_per_s", jsonNumber(imagesPerS)}});
        for (const auto &[name, ms] : stages) {
            std::string key = name;
            std::replace(key.begin(), key.end(), ' ', '_');
            j[key + "_s"] = jsonNumber(ms / 1000);
        }
        j["host_threads"] = threads.host;
        j["device_threads"] = threads.lanes;
        j["host_busy_s"] = jsonNumber(hostBusyS);
        j["device_busy_s"] = jsonNumber(deviceBusyS);
        j["page_locked_images"] = threads.pageLockedImages;
        j["page_lock_s"] = jsonNumber(threads.pageLockMs / 1000);
        std::printf("%s\n", dumpJson(j).c_str());
    } else {
        std::printf("apply: %zu images in %.2f s (%.2f images/s): %zu written, %zu skipped (already there), "
                    "%zu failed\n",
                    m_items.size(), seconds, imagesPerS, written, skipped, failed);
        std::printf("stage seconds, summed over threads and devices: decode %.2f, upload %.2f, filter %.2f, "
                    "download %.2f, device other %.2f, encode %.2f (most: %s)\n",
                    m_decode / 1000, m_upload / 1000, m_kernel / 1000, m_download / 1000, m_deviceOther / 1000,
                    m_encode / 1000, slowest.second > 0 ? slowest.first : "none");
        std::printf("busy per thread: %u host threads %.2f s each (decode + encode), %u device threads %.2f s each "
                    "(upload + filter + download + other), of %.2f s: %s limit the batch\n",
                    threads.host, hostBusyS, threads.lanes, deviceBusyS, seconds, limit);
        if (threads.pageLockedImages)
            std::printf("page-locked images: %zu, made in %.2f s by the device threads (reused for every image "
                        "of the same size)\n",
                        threads.pageLockedImages, threads.pageLockMs / 1000);
    }
    std::fflush(stdout);
    if (failed)
        std::fprintf(stderr, "filter-bench: %zu of %zu images failed (see above); the others are done\n", failed,
                     m_items.size());
    return failed == 0;
}

void BatchReport::clearProgress()
{
    if (m_terminal && m_progressShown)
        std::fputs("\r\033[K", stderr);
    m_progressShown = false;
}

void BatchReport::showProgress()
{
    const double seconds = msSince(m_start) / 1000;
    const double mbps = seconds > 0 ? double(m_bytes) / 1e6 / seconds : 0;
    const double left = m_done ? seconds / double(m_done) * double(m_items.size() - m_done) : 0;
    std::fprintf(stderr, "apply %zu/%zu images, %.1f MB/s, %.0f s left", m_done, m_items.size(), mbps, left);
    std::fflush(stderr);
    m_progressShown = true;
}

} // namespace fwb::cli
