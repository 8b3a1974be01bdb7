// filter-bench apply over a folder of generated PNGs and JPEGs (Qt-free): outputs equal a single
// `run` of the same image; existing outputs skipped, --overwrite replaces them, a deleted one is made
// again (resume); a corrupt file in the middle fails alone (exit 1, no output for it); a read-only
// --out and an --out over the inputs refused; --shard 0/2 and 1/2 cover every input once; two
// sessions (--device default,default) share the batch; every --queues and --max-inflight writes the same
// files; --png-level changes the size, never the pixels.
#include "PlainSupport.h"
#include "HeadlessImageIo.h"
#include "JsonIo.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace fwb;
using namespace fwb::plain;
namespace fs = std::filesystem;

namespace {

fs::path g_dir;

std::size_t count(const std::string &text, const std::string &part)
{
    std::size_t n = 0;
    for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size()))
        ++n;
    return n;
}

// Smooth gradients with a few edges, different per image.
Image pattern(int w, int h, PixelFormat format, int seed)
{
    Image image(w, h, format);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < image.channels(); ++c)
                image.row(y)[x * image.channels() + c]
                    = std::uint8_t(c == 3 ? 255 : (x * 3 + y * 5 + c * 40 + seed * 17 + ((x / 7 + y / 5) % 2) * 60));
    return image;
}

// filter-bench with these arguments; its stdout and stderr together.
std::string bench(const std::string &args, int &code) { return runFilterBench(args, g_dir / "bench-out.txt", code); }

std::string q(const fs::path &path) { return "'" + path.string() + "'"; }

// Both files decode to the same size, format and pixels.
bool samePixels(const fs::path &a, const fs::path &b)
{
    HeadlessImageIo io;
    Image ia, ib;
    std::string error;
    if (!io.load(a.string(), ia, error) || !io.load(b.string(), ib, error)) {
        std::fprintf(stderr, "samePixels: %s\n", error.c_str());
        return false;
    }
    return maxAbsDiff(ia, ib) == 0;
}

const std::string kApply = "apply --filter box --variant naive --format rgba8888 --json ";

// pattern(w, h, format, seed) saved as `file` (PNG or JPEG by its extension).
void savePattern(const fs::path &file, int w, int h, int seed, PixelFormat format = PixelFormat::Rgba8888)
{
    HeadlessImageIo io;
    std::string error;
    CHECK(io.save(file.string(), pattern(w, h, format, seed), error));
}

// The folder g_dir / name with `count` PNGs of w x h: <prefix>0.png (seed 0), <prefix>1.png (seed 1), ...
fs::path patternFolder(const std::string &name, const std::string &prefix, int count, int w, int h)
{
    const fs::path folder = g_dir / name;
    fs::create_directories(folder);
    for (int i = 0; i < count; ++i)
        savePattern(folder / (prefix + std::to_string(i) + ".png"), w, h, i);
    return folder;
}

void makeInputs(const fs::path &in)
{
    fs::create_directories(in / "sub");
    savePattern(in / "a0.png", 67, 45, 0);
    savePattern(in / "a1.jpg", 40, 31, 1);
    savePattern(in / "a2.png", 33, 50, 2, PixelFormat::Gray8);
    savePattern(in / "sub" / "a3.png", 20, 20, 3);
    writeAll(in / "notes.txt", "not an image: folders contribute PNG and JPEG files only");
}

// Outputs equal `run --output` of the same image; skipped when there; resumed; replaced with --overwrite.
void batchSkipResumeOverwrite(const fs::path &in)
{
    const fs::path out = g_dir / "out";
    int code = 0;
    std::string text = bench(kApply + q(in) + " --out " + q(out), code);
    CHECK_EQ(code, 0);
    if (code)
        std::fprintf(stderr, "%s\n", text.c_str());
    CHECK_EQ(count(text, "\"status\":\"written\""), std::size_t(3)); // not sub/ without --recursive
    CHECK_HAS(text, "\"summary\":true");
    CHECK(fs::exists(out / "a0.png") && fs::exists(out / "a1.jpg") && fs::exists(out / "a2.png"));
    CHECK(!fs::exists(out / "sub") && !fs::exists(out / "notes.txt"));
    for (const char *name : {"a0.png", "a1.jpg", "a2.png"}) {
        const fs::path single = g_dir / (std::string("single-") + name);
        text = bench("run --filter box --variant naive --format rgba8888 --repeat 1 --warmup 0 --input " + q(in / name)
                         + " --output " + q(single),
                     code);
        CHECK_EQ(code, 0);
        CHECK(samePixels(single, out / name)); // apply writes PNGs at a faster zlib level: same pixels
        if (fs::path(name).extension() == ".jpg")
            CHECK(readAll(single) == readAll(out / name)); // the same pixels, encoded alike
    }

    // Again: everything is there, nothing is touched.
    const auto before = fs::last_write_time(out / "a0.png");
    text = bench(kApply + q(in) + " --out " + q(out), code);
    CHECK_EQ(code, 0);
    CHECK_EQ(count(text, "\"status\":\"skipped\""), std::size_t(3));
    CHECK(fs::last_write_time(out / "a0.png") == before);

    // Resume: only the missing output is made.
    fs::remove(out / "a2.png");
    text = bench(kApply + q(in) + " --out " + q(out), code);
    CHECK_EQ(code, 0);
    CHECK_EQ(count(text, "\"status\":\"written\""), std::size_t(1));
    CHECK_HAS(text, "a2.png\",\"status\":\"written\"");
    CHECK(fs::exists(out / "a2.png"));

    // --overwrite replaces them all; --check compares each with the CPU reference.
    text = bench(kApply + "--overwrite --check " + q(in) + " --out " + q(out), code);
    CHECK_EQ(code, 0);
    CHECK_EQ(count(text, "\"status\":\"written\""), std::size_t(3));

    // The plain output: a line per image and the summary with the stage times.
    text = bench("apply --filter box --variant naive --overwrite " + q(in) + " --out " + q(out), code);
    CHECK_EQ(code, 0);
    CHECK_HAS(text, "images/s");
    CHECK_HAS(text, "decode ");
    CHECK_HAS(text, "encode ");
}

// A damaged file between good ones: reported and skipped, the others done, exit 1, no output for it.
void corruptFileInTheMiddle()
{
    const fs::path in = g_dir / "in-bad", out = g_dir / "out-bad";
    fs::create_directories(in);
    savePattern(in / "b0.png", 30, 20, 4);
    writeAll(in / "b1.png", "\x89PNG\r\n\x1a\nthis is not really a png");
    savePattern(in / "b2.png", 30, 20, 5);
    int code = 0;
    const std::string text = bench(kApply + q(in) + " --out " + q(out), code);
    CHECK_EQ(code, 1);
    CHECK_HAS(text, "b1.png");
    CHECK_HAS(text, "\"status\":\"failed\"");
    CHECK(fs::exists(out / "b0.png") && fs::exists(out / "b2.png"));
    CHECK(!fs::exists(out / "b1.png"));
    int entries = 0;
    for (const auto &entry : fs::directory_iterator(out))
        entries += entry.is_regular_file();
    CHECK_EQ(entries, 2); // no temp file left behind
}

// Refusals before any work (exit 2): a read-only --out, an --out over the inputs.
void refusals(const fs::path &in)
{
    int code = 0;
    std::string text = bench(kApply + q(in) + " --out " + q(in), code);
    CHECK_EQ(code, 2);
    CHECK_HAS(text, "refusing to write");
    text = bench(kApply + q(in / "a0.png") + " --out " + q(in) + " --out-format png", code);
    CHECK_EQ(code, 2);
    CHECK_HAS(text, "refusing to write");
    text = bench(kApply + q(in) + " --out " + q(g_dir / "x") + " --shard 2/2", code);
    CHECK_EQ(code, 2);
    CHECK_HAS(text, "--shard");
    text = bench(kApply + q(g_dir / "missing.png") + " --out " + q(g_dir / "x"), code);
    CHECK_EQ(code, 2);
    CHECK_HAS(text, "does not exist");
    if (geteuid() == 0) { // root writes into a read-only folder all the same
        std::printf("plain_apply: read-only --out skipped (running as root)\n");
        return;
    }
    const fs::path readOnly = g_dir / "read-only";
    fs::create_directories(readOnly);
    fs::permissions(readOnly, fs::perms::owner_read | fs::perms::owner_exec);
    text = bench(kApply + q(in) + " --out " + q(readOnly), code);
    CHECK(code != 0);
    CHECK_HAS(text, "cannot write into --out");
    fs::permissions(readOnly, fs::perms::owner_all);
}

// The output names of an --json batch's written images.
std::set<std::string> written(const std::string &text)
{
    std::set<std::string> outputs;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        const std::size_t at = line.find("\"output\":\"");
        if (at != std::string::npos && contains(line, "\"status\":\"written\""))
            outputs.insert(fs::path(line.substr(at + 10, line.find('"', at + 10) - at - 10)).filename().string());
    }
    return outputs;
}

void shardsCoverEveryInputOnce(const fs::path &in)
{
    int code0 = 0, code1 = 0;
    const std::string glob = q((in / "*.png").string()); // quoted: apply expands it
    const std::string t0 = bench(kApply + "--recursive --shard 0/2 " + q(in) + " --out " + q(g_dir / "s0"), code0);
    const std::string t1 = bench(kApply + "--recursive --shard 1/2 " + q(in) + " --out " + q(g_dir / "s1"), code1);
    CHECK_EQ(code0, 0);
    CHECK_EQ(code1, 0);
    const std::set<std::string> a = written(t0), b = written(t1);
    CHECK_EQ(a.size() + b.size(), std::size_t(4));
    std::set<std::string> all = a;
    all.insert(b.begin(), b.end());
    CHECK_EQ(all.size(), std::size_t(4)); // every input once
    CHECK(fs::exists(g_dir / "s0" / "sub" / "a3.png") || fs::exists(g_dir / "s1" / "sub" / "a3.png"));
    int code = 0;
    const std::string globbed = bench(kApply + glob + " --out-format jpg --out " + q(g_dir / "g"), code);
    CHECK_EQ(code, 0);
    CHECK_EQ(written(globbed).size(), std::size_t(2));
    CHECK(fs::exists(g_dir / "g" / "a0.jpg") && fs::exists(g_dir / "g" / "a2.jpg"));
}

// --format rgb888: a colour JPEG's own three channels (decoded straight into them). The box sums each
// channel alone, and the JPEG writer ignores alpha, so the file is the rgba8888 batch's byte for byte.
// A variant that cannot take the layout is refused before anything is written.
void rgbJpegBatch(const fs::path &in)
{
    int code = 0;
    const std::string plain = "apply --filter box --variant naive --json --device default ";
    for (const char *format : {"rgb888", "rgba8888"}) {
        const fs::path out = g_dir / (std::string("fmt-") + format);
        fs::remove_all(out);
        bench(plain + "--format " + format + " " + q(in / "a1.jpg") + " --out " + q(out), code);
        CHECK_EQ(code, 0);
    }
    CHECK(fs::exists(g_dir / "fmt-rgb888" / "a1.jpg"));
    CHECK(readAll(g_dir / "fmt-rgb888" / "a1.jpg") == readAll(g_dir / "fmt-rgba8888" / "a1.jpg"));
    const fs::path refused = g_dir / "fmt-refused";
    const std::string text = bench("apply --filter box --variant packed --param radius=1 --format rgba8888 --device default "
                                   + q(in / "a1.jpg") + " --out " + q(refused), code);
    CHECK_EQ(code, 2);
    CHECK_HAS(text, "does not support rgba8888");
    CHECK(!fs::exists(refused / "a1.jpg"));
}

// Two sessions (one device twice when there is only one): every image done once.
void twoDevices(const fs::path &in)
{
    int code = 0;
    const std::string text
        = bench(kApply + "--recursive --max-inflight 3 --device default,default " + q(in) + " --out " + q(g_dir / "d2"), code);
    CHECK_EQ(code, 0);
    if (code)
        std::fprintf(stderr, "%s\n", text.c_str());
    CHECK_EQ(written(text).size(), std::size_t(4));
}

// Every --queues and --max-inflight gives the same files: several sessions per device, page-locked
// images reused across the batch's sizes (three sizes, two formats here), one image at a time or many.
void queuesGiveTheSameFiles(const fs::path &in)
{
    const fs::path one = g_dir / "q1";
    int code = 0;
    std::string text = bench(kApply + "--recursive --queues 1 --max-inflight 1 " + q(in) + " --out " + q(one), code);
    CHECK_EQ(code, 0);
    CHECK_HAS(text, "\"device_other_s\":");
    for (const char *args : {"--queues 3 --max-inflight 2", "--queues 2 --max-inflight 9 --device default,default"}) {
        const fs::path many = g_dir / "q-many";
        fs::remove_all(many);
        text = bench(kApply + "--recursive " + args + " " + q(in) + " --out " + q(many), code);
        CHECK_EQ(code, 0);
        CHECK_EQ(written(text).size(), std::size_t(4));
        for (const char *name : {"a0.png", "a1.jpg", "a2.png", "sub/a3.png"})
            CHECK(readAll(one / name) == readAll(many / name));
    }
}

// The page-locked images are reused: a batch of one size, one image in flight on one session, needs two
// (the input and the output), however many images it has; a second size adds its own two.
void pageLockedImagesReused()
{
    const fs::path in = patternFolder("in-same", "s", 5, 64, 40);
    int code = 0;
    const std::string args = kApply + "--queues 1 --max-inflight 1 --device default ";
    std::string text = bench(args + q(in) + " --out " + q(g_dir / "same"), code);
    CHECK_EQ(code, 0);
    CHECK_EQ(written(text).size(), std::size_t(5));
    CHECK_HAS(text, "\"page_locked_images\":2");
    savePattern(in / "t.png", 300, 200, 9);
    text = bench(args + "--overwrite " + q(in) + " --out " + q(g_dir / "same"), code);
    CHECK_EQ(code, 0);
    CHECK_HAS(text, "\"page_locked_images\":4");
}

// The per-image timeline: a written image's stages start in order (decode, device run, encode, done),
// within the batch's seconds; an image skipped because its result is there ran no stage.
void timelineInOrder()
{
    const fs::path in = patternFolder("in-timeline", "t", 3, 48, 32);
    int code = 0;
    const fs::path out = g_dir / "timeline";
    fs::remove_all(out);
    fs::create_directories(out);
    savePattern(out / "t1.png", 8, 8, 7); // there: skipped
    const std::string text = bench(kApply + "--device default " + q(in) + " --out " + q(out), code);
    CHECK_EQ(code, 0);
    std::istringstream lines(text);
    std::string line;
    int written = 0, skipped = 0;
    double seconds = -1;
    while (std::getline(lines, line)) {
        const auto j = parseJson(line, "apply --json");
        if (!j || !j->is_object())
            continue;
        if (j->contains("summary")) {
            seconds = (*j)["seconds"].get<double>();
            CHECK((*j)["page_lock_s"].is_number());
            continue;
        }
        if ((*j)["status"] == "skipped") {
            ++skipped;
            CHECK((*j)["decode_at_s"].is_null() && (*j)["device_at_s"].is_null() && (*j)["encode_at_s"].is_null());
            CHECK((*j)["done_at_s"].is_number());
            continue;
        }
        ++written;
        const double d = (*j)["decode_at_s"].get<double>(), v = (*j)["device_at_s"].get<double>(),
                     e = (*j)["encode_at_s"].get<double>(), f = (*j)["done_at_s"].get<double>();
        CHECK(0 <= d && d <= v && v <= e && e <= f);
        CHECK((*j)["status"] == "written");
    }
    CHECK_EQ(written, 2);
    CHECK_EQ(skipped, 1);
    CHECK(seconds > 0);
}

// --png-level: smaller or larger files, the same pixels at every level; out of range refused.
void pngLevels(const fs::path &in)
{
    int code = 0;
    std::uintmax_t sizes[2] = {0, 0};
    int at = 0;
    for (const char *level : {"0", "9"}) {
        const fs::path out = g_dir / (std::string("level") + level);
        bench(kApply + "--png-level " + level + " " + q(in / "a0.png") + " --out " + q(out), code);
        CHECK_EQ(code, 0);
        sizes[at++] = fs::file_size(out / "a0.png");
    }
    CHECK(sizes[0] > sizes[1]); // level 0 stores the rows, level 9 compresses them
    CHECK(samePixels(g_dir / "level0" / "a0.png", g_dir / "level9" / "a0.png"));
    CHECK(samePixels(g_dir / "level0" / "a0.png", g_dir / "out" / "a0.png")); // the default level too
    const std::string text = bench(kApply + "--png-level 10 " + q(in) + " --out " + q(g_dir / "x"), code);
    CHECK_EQ(code, 2);
    CHECK_HAS(text, "--png-level '10' must be a whole number in 0..9");
}

} // namespace

int main()
{
    if (!headlessReads(ImageFileKind::Png) || !headlessReads(ImageFileKind::Jpeg)) {
        std::printf("plain_apply: skipped (%s; %s)\n", headlessMissing(ImageFileKind::Png).c_str(),
                    headlessMissing(ImageFileKind::Jpeg).c_str());
        return 0;
    }
    g_dir = fs::temp_directory_path() / ("fwb-plain-apply-" + std::to_string(getpid()));
    fs::create_directories(g_dir);
    const fs::path in = g_dir / "in";
    makeInputs(in);
    batchSkipResumeOverwrite(in);
    corruptFileInTheMiddle();
    refusals(in);
    shardsCoverEveryInputOnce(in);
    twoDevices(in);
    rgbJpegBatch(in);
    queuesGiveTheSameFiles(in);
    pngLevels(in);
    pageLockedImagesReused();
    timelineInOrder();
    std::error_code ec;
    fs::remove_all(g_dir, ec);
    return fwb::plain::finish("plain_apply");
}
