// filter-bench apply's checks before any work (see ApplyCheck.h).
#include "ApplyCheck.h"

#include "Error.h"
#include "ImageIo.h"
#include "OptionValues.h"
#include "RunPlan.h"
#include "Verb.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <set>

#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fwb::cli {

namespace fs = std::filesystem;

std::string lowerExtension(const fs::path &path)
{
    std::string ext = path.extension().string();
    for (char &ch : ext)
        ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return ext;
}

namespace {

// What a folder contributes: the formats every build reads and writes (PNG, JPEG). A file named on the
// command line is taken whatever its name (the reader decides by its contents).
bool isBatchImage(const fs::path &path)
{
    const std::string ext = lowerExtension(path);
    return ext == ".png" || ext == ".jpg" || ext == ".jpeg";
}

bool hasGlobCharacters(const std::string &text) { return text.find_first_of("*?[") != std::string::npos; }

// The inputs as (file, name relative to the folder it came from), sorted by file, each once. A
// folder's files are PNG and JPEG files (--recursive: in its subfolders too, never inside --out); a
// pattern that names no file is expanded as a glob (the shell usually did that already).
std::vector<std::pair<std::string, fs::path>> expandInputs(const ApplyOptions &o)
{
    std::map<std::string, std::pair<std::string, fs::path>> byFile; // canonical file -> as named
    auto add = [&](const fs::path &file, const fs::path &relative) {
        std::error_code ec;
        const fs::path canonical = fs::weakly_canonical(fs::absolute(file, ec), ec);
        byFile.emplace(ec ? file.string() : canonical.string(), std::make_pair(file.string(), relative));
    };
    std::error_code ec;
    for (const std::string &input : o.inputs) {
        if (input.empty())
            throw Error("an empty INPUT names no file");
        const fs::file_status status = fs::status(input, ec);
        if (fs::is_directory(status)) {
            const fs::path folder(input);
            auto consider = [&](const fs::directory_entry &entry) {
                std::error_code entryError;
                if (entry.is_regular_file(entryError) && isBatchImage(entry.path()))
                    add(entry.path(), entry.path().lexically_relative(folder));
            };
            if (o.recursive) {
                for (auto it = fs::recursive_directory_iterator(folder, fs::directory_options::skip_permission_denied, ec);
                     !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
                    std::error_code same;
                    if (it->is_directory(same) && fs::equivalent(it->path(), o.outDir, same)) {
                        it.disable_recursion_pending(); // the outputs of an earlier run are no inputs
                        continue;
                    }
                    consider(*it);
                }
            } else {
                for (auto it = fs::directory_iterator(folder, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
                    consider(*it);
            }
            if (ec)
                throw Error("cannot list the folder " + input + ": " + ec.message());
        } else if (fs::exists(status)) {
            add(input, fs::path(input).filename());
        } else if (hasGlobCharacters(input)) {
            glob_t matches{};
            if (glob(input.c_str(), 0, nullptr, &matches) == 0)
                for (std::size_t i = 0; i < matches.gl_pathc; ++i)
                    if (fs::is_regular_file(matches.gl_pathv[i], ec))
                        add(matches.gl_pathv[i], fs::path(matches.gl_pathv[i]).filename());
            globfree(&matches);
        } else {
            throw Error("INPUT " + input + " does not exist");
        }
    }
    std::vector<std::pair<std::string, fs::path>> files;
    for (auto &[canonical, named] : byFile)
        files.push_back(named);
    std::sort(files.begin(), files.end());
    return files;
}

// The file's identity (what std::filesystem::equivalent compares); nullopt when it does not exist.
std::optional<std::pair<dev_t, ino_t>> fileIdentity(const std::string &path)
{
    struct stat st{};
    if (stat(path.c_str(), &st) != 0)
        return std::nullopt;
    return std::make_pair(st.st_dev, st.st_ino);
}

} // namespace

CheckedApply checkApply(const ApplyOptions &o, ImageIo *io)
{
    CheckedApply c;
    if (o.filterName.empty())
        throw Error("apply needs --filter NAME (see filter-bench list)");
    if (o.filterName == "all" || o.filterName.find(',') != std::string::npos)
        throw Error("apply takes one --filter, not '" + o.filterName + "'");
    if (o.variantName.empty() || o.variantName == "all" || o.variantName.find(',') != std::string::npos)
        throw Error("apply needs one --variant NAME (the one to apply; see filter-bench list)");
    const auto format = parsePixelFormat(o.formatText);
    if (!format)
        throw Error("--format '" + o.formatText + "' must be gray8, rgb888 or rgba8888");
    const auto border = parseBorderMode(o.borderText);
    if (!border)
        throw Error("unknown border mode '" + o.borderText + "' (use reflect101, replicate or constant)");
    RunRequest &request = c.request;
    request.params.format = *format;
    request.params.border = *border;
    const std::vector<PlannedRun> plan
        = planRuns(selectFilters(o.filterName), o.variantName, o.paramAssignments, request.params);
    if (plan.size() != 1)
        throw Error("apply runs one variant with one value per parameter (no sweeps)");
    request.filter = plan.front().filter->name;
    request.variant = plan.front().variant;
    request.params = plan.front().params;
    // One pass per image: no timing repeats, no CPU timings; the suites checked the variant (--check
    // compares each image with the CPU reference all the same).
    request.repeat = 1;
    request.warmup = 0;
    request.check = o.check;
    request.cpuSingle = false;
    request.openCvCpuBaseline = false;
    request.cpuBaseline = false; // no speedups in a batch: timing our CPU filter per image would cost more than filtering
    request.keepOutput = true;
    if (o.maxInflight > 0)
        c.maxInflight = o.maxInflight;
    if (!o.outFormat.empty() && o.outFormat != "png" && o.outFormat != "jpg")
        throw Error("--out-format '" + o.outFormat + "' must be png or jpg");
    if (!io)
        throw Error("this build has no image file support: apply is unavailable");
    if (o.outDir.empty())
        throw Error("apply needs --out DIR (the folder the results go to)");
    std::error_code ec;
    if (fs::exists(o.outDir, ec)) {
        if (!fs::is_directory(o.outDir, ec))
            throw Error("--out " + o.outDir + " is not a folder");
        if (access(o.outDir.c_str(), W_OK | X_OK) != 0)
            throw Error("cannot write into --out " + o.outDir + ": " + std::strerror(errno));
    }
    if (o.inputs.empty())
        throw Error("apply needs INPUT files, folders or globs");
    long shardIndex = 0, shardCount = 1;
    if (!o.shardText.empty())
        parseShard(o.shardText, kMaxShards, shardIndex, shardCount); // checked by --shard's validator

    const auto files = expandInputs(o);
    c.allInputs = files.size();
    if (files.empty())
        throw Error("no PNG or JPEG files in the INPUTs given");
    std::set<std::pair<dev_t, ino_t>> inputIds;
    for (const auto &[file, relative] : files)
        if (auto id = fileIdentity(file))
            inputIds.insert(*id);
    std::map<std::string, std::string> inputOf; // output -> input: two inputs must not share an output
    std::set<std::string> checkedSuffixes;
    for (std::size_t i = 0; i < files.size(); ++i) {
        const auto &[file, relative] = files[i];
        checkImagePath(io, "INPUT", file);
        fs::path output = fs::path(o.outDir) / relative;
        if (!o.outFormat.empty())
            output.replace_extension("." + o.outFormat);
        const std::string out = output.lexically_normal().string();
        if (auto id = fileIdentity(out); id && inputIds.count(*id))
            throw Error("refusing to write " + out + " over an input (--out " + o.outDir
                        + " holds the inputs: choose another --out folder"
                        + (o.outFormat.empty() ? " or an --out-format" : "") + ")");
        if (auto [at, fresh] = inputOf.emplace(out, file); !fresh)
            throw Error(at->second + " and " + file + " would both be written to " + out);
        if (checkedSuffixes.insert(lowerExtension(output)).second)
            if (std::string problem = io->saveProblem(out); !problem.empty())
                throw Error(file + ": " + problem + " (choose one with --out-format png|jpg)");
        if (long(i % std::size_t(shardCount)) == shardIndex)
            c.items.push_back({file, out});
    }
    return c;
}
int defaultMaxInflight(unsigned hostThreads, unsigned deviceThreads)
{
    return int(std::clamp(hostThreads + 2 * deviceThreads, 4u, 64u));
}

int defaultQueues(const DeviceInfo &device)
{
    return device.kind == DeviceKind::Gpu ? 2 : 1;
}

} // namespace fwb::cli
