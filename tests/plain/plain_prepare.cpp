// filter-bench prepare's children that stay (cli/PrepareChild.h, issue 25), Qt-free: a prepare of several
// programs runs them through one child per thread, not one per program; a second prepare starts no child
// at all; a child that dies mid-job (FWB_PREPARE_CHILD_FAULT=die:...) fails that job alone and a new child
// builds the rest; one that never answers is killed at the per-job limit (FWB_PREPARE_JOB_TIMEOUT_S);
// the child mode itself answers a line per line and exits at the end of its input, and is not in --help.
// One cheap family (box3x3_interior, gray8: three programs or more on PoCL) keeps the builds short.
#include "PlainSupport.h"
#include "Catalogue.h"
#include "JsonIo.h"
#include "OpenCvBaseline.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace fwb;
using namespace fwb::plain;
namespace fs = std::filesystem;

namespace {

fs::path g_dir;

struct Prepared
{
    int code = -1;
    Json json;
    std::string text; // stdout
};

// prepare --json of the cheap family into cacheDir (under g_dir), with `env` (NAME=VALUE ...) before it.
Prepared prepare(const std::string &cacheDir, int jobs, const std::string &env = {})
{
    const fs::path out = g_dir / "out.json";
    // FWB_CACHE_BINARIES=always: our cache keeps the programs (as tst_prepare), so the second prepare
    // finds them there whatever the driver.
    const std::string command = "env FWB_CACHE_BINARIES=always " + env + " '" + FWB_FILTER_BENCH
                                + "' prepare --filter box3x3_interior --format gray8 --json --jobs "
                                + std::to_string(jobs) + " --cache-dir '" + (g_dir / cacheDir).string() + "' >'"
                                + out.string() + "' 2>/dev/null";
    const int status = std::system(command.c_str());
    Prepared p;
    p.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    p.text = readAll(out);
    const std::optional<Json> j = parseJson(p.text, "prepare");
    if (j && j->is_object())
        p.json = *j;
    else
        fail(__FILE__, __LINE__, "prepare gave no JSON object: " + p.text);
    return p;
}

int number(const Json &j, const char *key)
{
    return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<int>() : -1;
}

const Json *row(const Json &j, const std::string &variant)
{
    if (!j.is_object() || !j.contains("results"))
        return nullptr;
    for (const Json &r : j["results"])
        if (r.value("variant", std::string()) == variant)
            return &r;
    return nullptr;
}

// The family's variants in the catalogue's order that this device built: the order a never prepared
// cache builds them in (one format: the catalogue's order).
std::vector<std::string> builtInOrder(const Json &j)
{
    std::vector<std::string> names;
    if (const FilterSpec *f = findFilter("box3x3_interior"))
        for (const VariantSpec &v : f->variants)
            if (row(j, v.name))
                names.push_back(v.name);
    return names;
}

// Returns the programs built in the order they build (builtInOrder).
std::vector<std::string> fewerChildrenThanPrograms()
{
    const Prepared first = prepare("cache", 1);
    CHECK_EQ(first.code, 0);
    const int programs = number(first.json, "programs");
    CHECK(programs >= 3);
    CHECK_EQ(number(first.json, "built"), programs);
    CHECK_EQ(number(first.json, "failed"), 0);
    // One thread: every program through one child (one per program before).
    CHECK_EQ(number(first.json, "children_started"), 1);
    CHECK(first.json.value("child_s_sum", 0.0) > 0);

    const Prepared second = prepare("cache", 2);
    CHECK_EQ(second.code, 0);
    CHECK_EQ(number(second.json, "built"), 0);
    CHECK_EQ(number(second.json, "already_cached"), programs);
    CHECK_EQ(number(second.json, "children_started"), 0); // all in the record and the cache: no child started

    const Prepared two = prepare("cache-two", 2);
    CHECK_EQ(two.code, 0);
    CHECK_EQ(number(two.json, "built"), programs);
    CHECK(number(two.json, "children_started") >= 1 && number(two.json, "children_started") <= 2);
    return builtInOrder(first.json);
}

// The first program's child dies as it takes the job (a driver crash): that job fails with the status a
// child `run` killed so gave (128 + SIGKILL), and a new child builds every other program.
void deadChildCostsOneJob(const std::vector<std::string> &order)
{
    const Prepared p = prepare("cache-die", 1, "FWB_PREPARE_CHILD_FAULT=die:box3x3_interior/" + order[0] + "/gray8");
    CHECK_EQ(p.code, 1);
    CHECK_EQ(number(p.json, "failed"), 1);
    CHECK_EQ(number(p.json, "built"), int(order.size()) - 1);
    CHECK_EQ(number(p.json, "children_started"), 2);
    const Json *dead = row(p.json, order[0]);
    CHECK(dead && (*dead)["error"].is_string());
    if (dead && (*dead)["error"].is_string())
        CHECK_HAS((*dead)["error"].get<std::string>(), "status 137");
    for (std::size_t n = 1; n < order.size(); ++n) {
        const Json *r = row(p.json, order[n]);
        CHECK(r && (*r)["error"].is_null() && (*r)["origin"] == "compiled");
    }
}

// A child that never answers is killed at the per-job limit: that job fails, the others build.
// Every program is in the driver's cache by now (PoCL): the other jobs take far less than the limit.
void hungChildTimesOut(const std::vector<std::string> &order)
{
    const Prepared p = prepare("cache-hang", 1,
                               "FWB_PREPARE_JOB_TIMEOUT_S=20 FWB_PREPARE_CHILD_FAULT=hang:box3x3_interior/" + order[1]
                                   + "/gray8");
    CHECK_EQ(p.code, 1);
    CHECK_EQ(number(p.json, "failed"), 1);
    CHECK_EQ(number(p.json, "built"), int(order.size()) - 1);
    CHECK_EQ(number(p.json, "children_started"), 2);
    const Json *hung = row(p.json, order[1]);
    CHECK(hung && (*hung)["error"].is_string());
    if (hung && (*hung)["error"].is_string())
        CHECK_HAS((*hung)["error"].get<std::string>(), "no answer within 20 s");
}

// The child mode by hand: a line that is no run command line gets status 2 and nothing run; the end of
// its input ends it (exit 0); prepare's --help does not show it.
void serveModeByHand()
{
    const fs::path out = g_dir / "serve.txt";
    const std::string command = std::string("printf '%s\\n%s\\n' 'not json' '[\"filter-bench\",\"devices\"]' | '")
                                + FWB_FILTER_BENCH + "' prepare --serve >'" + out.string() + "' 2>/dev/null";
    const int status = std::system(command.c_str());
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    const std::string text = readAll(out);
    CHECK_EQ(std::count(text.begin(), text.end(), '\n'), 2L);
    CHECK_HAS(text, "{\"status\":2,\"out\":\"\"}\n{\"status\":2,\"out\":\"\"}\n");
    int code = 0;
    const std::string help = runFilterBench("prepare --help", g_dir / "help.txt", code);
    CHECK_EQ(code, 0);
    CHECK_HAS(help, "--jobs");
    CHECK(!contains(help, "--serve"));
}

// The runs of one child share its OpenCL session (keepRunSessions): the same job twice, the program cache
// on disk off, and the second run's program comes from the session's memory, not a compile. A failing run
// drops the kept session, and the next job opens a new one (its program compiled again).
void childKeepsItsSession()
{
    const fs::path out = g_dir / "serve-kept.txt";
    const std::string job = "[\"filter-bench\",\"run\",\"--filter\",\"box3x3_interior\",\"--variant\",\"exact_cl12\","
                            "\"--format\",\"gray8\",\"--synthetic\",\"32x24\",\"--repeat\",\"1\",\"--warmup\",\"0\","
                            "\"--no-cpu-single\",\"--no-baselines\",\"--no-copy-probe\",\"--cache-dir\",\"-\",\"--json\"";
    const std::string good = job + "]";
    const std::string bad = job + ",\"--local\",\"4096x4096\"]"; // refused: more than any device allows
    const std::string command = "printf '%s\\n%s\\n%s\\n%s\\n' '" + good + "' '" + good + "' '" + bad + "' '" + good + "' | '"
                                + FWB_FILTER_BENCH + "' prepare --serve >'" + out.string() + "' 2>/dev/null";
    const int status = std::system(command.c_str());
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    std::istringstream lines(readAll(out));
    std::vector<std::string> origins, statuses;
    for (std::string line; std::getline(lines, line);) {
        const Json answer = Json::parse(line, nullptr, false);
        statuses.push_back(answer.is_object() ? std::to_string(answer.value("status", -1)) : "?");
        std::string origin = "?";
        if (answer.is_object() && answer["out"].is_string()) {
            const Json run = Json::parse(answer["out"].get<std::string>(), nullptr, false);
            if (run.is_object() && run["results"].is_array() && !run["results"].empty())
                origin = run["results"][0].value("build_origin", "?");
        }
        origins.push_back(origin);
    }
    std::string summary; // "status origin" per answer; a failing run's status is only "not 0"
    for (std::size_t i = 0; i < origins.size(); ++i)
        summary += (statuses[i] == "0" ? "0 " + origins[i] : std::string("failed")) + "; ";
    CHECK_HAS(summary, "0 compiled; 0 memory; failed; 0 compiled; ");
    CHECK(origins.size() == 4);
}

// prepare --opencv: OpenCV's OpenCL row once per filter and format, its kernels in OpenCV's own cache under
// $XDG_CACHE_HOME (made first: OpenCV would fall back to /var/tmp), recorded, and not run again.
void openCvRowFillsOpenCvsCache()
{
    const fs::path xdg = g_dir / "xdg"; // not made here: prepare makes it
    auto run = [&] {
        const fs::path out = g_dir / "opencv.json";
        const std::string command = "env XDG_CACHE_HOME='" + xdg.string() + "' '" + FWB_FILTER_BENCH
                                    + "' prepare --filter box --format gray8 --opencv --json --cache-dir '"
                                    + (g_dir / "opencv-cache").string() + "' >'" + out.string() + "' 2>/dev/null";
        CHECK_EQ(std::system(command.c_str()), 0);
        const std::optional<Json> j = parseJson(readAll(out), "prepare --opencv");
        return j && j->is_object() ? *j : Json();
    };
    const Json first = run();
    const Json *openCv = row(first, "opencv_tapi");
    if (openCvVersion().empty()) { // built without OpenCV: no such job
        CHECK(openCv == nullptr);
        return;
    }
    CHECK(openCv != nullptr);
    if (!openCv)
        return;
    CHECK(!openCv->contains("error") || (*openCv)["error"].is_null());
    std::size_t binaries = 0;
    std::error_code ec;
    if (fs::is_directory(xdg / "opencv", ec))
        for (const auto &entry : fs::recursive_directory_iterator(xdg / "opencv", ec))
            binaries += entry.path().extension() == ".bin" ? 1 : 0;
    CHECK(binaries >= 1);
    const Json second = run();
    CHECK_EQ(number(second, "built"), 0); // OpenCV's row too: recorded, its cache there
}

} // namespace

int main()
{
    g_dir = fs::temp_directory_path() / ("fwb-plain-prepare-" + std::to_string(getpid()));
    fs::create_directories(g_dir);
    serveModeByHand();
    childKeepsItsSession();
    openCvRowFillsOpenCvsCache();
    const std::vector<std::string> order = fewerChildrenThanPrograms();
    CHECK(order.size() >= 3);
    if (order.size() >= 3) {
        deadChildCostsOneJob(order);
        hungChildTimesOut(order);
    }
    std::error_code ec;
    fs::remove_all(g_dir, ec);
    return finish("plain_prepare");
}
