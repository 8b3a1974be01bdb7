// Fuzz target: filter-bench's command line itself (issue 29). The fuzzer's bytes are decoded into an
// argument vector from a grammar of the verbs' options: a verb (or a stray word), then options of that
// verb (and now and then another verb's), each with a value drawn from the catalogue's names, the forms
// the option takes, hostile values (empty, huge, negative, hexadecimal, inf and nan, 2^32 and 2^63,
// invalid UTF-8, very long) or the fuzzer's own bytes, given as "--opt value" or "--opt=value", plus a
// few environment variables the CLI reads. checkBenchCli parses and checks it exactly as filter-bench
// does before any work, in this process: no kernel is launched, no device opened, no file written.
//
// Beyond "no crash, no sanitizer report": the answer is 0 or 2; a refusal has a one-line reason and is
// never an "unexpected error" (an exception that is not fwb::Error escaping a check); the checks never
// load or save an image (the image I/O here aborts if asked to); and the scratch folder the command
// runs in is as it was (every entry's kind, size and modification time). Values from the fuzzer's
// bytes never hold a '/', so the only names outside the scratch folder are the fixed ones: "..",
// /dev/null and /dev/zero, which the checks may look at but must not change.
//
// Seeds (tests/fuzz/corpus/fuzz_cli/): one valid command per verb, written by fuzz_cli_seeds.py from
// this file's tables (run it again after changing them), and inputs the fuzzer found (found-*).
// FWB_FUZZ_CLI_SHOW=1 prints each input's argument vector and answer (for replaying a finding).
#include "BenchCli.h"
#include "Catalogue.h"
#include "FuzzSupport.h"
#include "Workload.h"

#ifdef FWB_FUZZ_WITH_QT
#include "ImageFileIo.h"

#include <QCoreApplication>
#endif

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

// What an option's value looks like, for choosing plausible ones.
enum class Kind {
    Flag, Filter, Filters, Variant, Variants, Device, Local, Size, Sizes, Count, Counts, Seconds, Format,
    Formats, Border, Param, Transfer, Path, Dir, OptionalSizes, Sweep, OutFormat, Shard
};

struct Option
{
    const char *name;
    Kind kind;
};

const std::vector<Option> kBenchInput = {
    {"--filter", Kind::Filter},   {"--device", Kind::Device},  {"--input", Kind::Path},     {"--synthetic", Kind::Size},
    {"--format", Kind::Format},   {"--border", Kind::Border},  {"--param", Kind::Param},    {"--repeat", Kind::Count},
    {"--warmup", Kind::Count},    {"--no-tuned", Kind::Flag},  {"--cache-dir", Kind::Dir},  {"--kernel-dir", Kind::Dir},
    {"--timeout", Kind::Seconds}, {"--json", Kind::Flag},      {"--local", Kind::Local},
};
const std::vector<Option> kLab = {
    {"--variant", Kind::Variant}, {"--device", Kind::Device}, {"--local", Kind::Local},   {"--repeat", Kind::Count},
    {"--warmup", Kind::Count},    {"--fast-math", Kind::Flag}, {"--no-check", Kind::Flag}, {"--cache-dir", Kind::Dir},
    {"--json", Kind::Flag},       {"--no-baselines", Kind::Flag},
};

std::vector<Option> operator+(std::vector<Option> a, const std::vector<Option> &b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// Every verb's options, as cli/*Verb.cpp declare them.
const std::vector<std::pair<std::string, std::vector<Option>>> &verbs()
{
    static const std::vector<std::pair<std::string, std::vector<Option>>> table = {
        {"devices", {{"--json", Kind::Flag}, {"--probe", Kind::Flag}}},
        {"list", {{"--json", Kind::Flag}, {"--build-times", Kind::Flag}, {"--device", Kind::Device}, {"--cache-dir", Kind::Dir}}},
        {"run",
         {{"--filter", Kind::Filters},     {"--variant", Kind::Variant},     {"--device", Kind::Device},
          {"--local", Kind::Local},        {"--input", Kind::Path},          {"--synthetic", Kind::Size},
          {"--format", Kind::Format},      {"--param", Kind::Param},         {"--border", Kind::Border},
          {"--fast-math", Kind::Flag},     {"--repeat", Kind::Count},        {"--warmup", Kind::Count},
          {"--output", Kind::Path},        {"--overwrite", Kind::Flag},      {"--check", Kind::Flag},
          {"--no-cpu-single", Kind::Flag}, {"--transfer", Kind::Transfer},   {"--block", Kind::Size},
          {"--tile", Kind::Size},          {"--max-alloc-mib", Kind::Count}, {"--baselines", Kind::Flag},
          {"--no-baselines", Kind::Flag},  {"--no-tuned", Kind::Flag},       {"--cache-dir", Kind::Dir},
          {"--kernel-dir", Kind::Dir},     {"--user-variant", Kind::Path},   {"--timeout", Kind::Seconds},
          {"--json", Kind::Flag},          {"--json-file", Kind::Path},      {"--flush-cache", Kind::Flag},
          {"--no-copy-probe", Kind::Flag}}}, // --no-copy-probe: internal (prepare's runs)
        {"apply",
         {{"--filter", Kind::Filter},       {"--variant", Kind::Variant},    {"--param", Kind::Param},
          {"--border", Kind::Border},       {"--format", Kind::Format},      {"--out", Kind::Dir},
          {"--out-format", Kind::OutFormat}, {"--recursive", Kind::Flag},    {"--overwrite", Kind::Flag},
          {"--max-inflight", Kind::Count},  {"--device", Kind::Device},      {"--shard", Kind::Shard},
          {"--check", Kind::Flag},          {"--no-tuned", Kind::Flag},      {"--cache-dir", Kind::Dir},
          {"--json", Kind::Flag},           {"--queues", Kind::Count},       {"--png-level", Kind::Count}}},
        {"user-variants",
         {{"--delete", Kind::Path}, {"--show", Kind::Path}, {"--json", Kind::Flag}, {"--overhead", Kind::Flag},
          {"--sizes", Kind::Sizes}, {"--runs", Kind::Count}, {"--filter", Kind::Filter}, {"--variant", Kind::Variant},
          {"--device", Kind::Device}, {"--cache-dir", Kind::Dir}}},
        {"inspect",
         {{"--global", Kind::Size}, {"--synthetic", Kind::Size}, {"--local", Kind::Local}, {"--cl20", Kind::Flag},
          {"--device", Kind::Device}, {"--cache-dir", Kind::Dir}, {"--json", Kind::Flag}}},
        {"race", kBenchInput + std::vector<Option>{{"--variant", Kind::Variants}, {"--kernel-only", Kind::Flag},
                                                   {"--no-baselines", Kind::Flag}, {"--no-cpu", Kind::Flag},
                                                   {"--end-to-end", Kind::Flag}}},
        {"tune", kBenchInput + std::vector<Option>{{"--variant", Kind::Variants}, {"--max-items", Kind::Count},
                                                   {"--shapes", Kind::Sizes}, {"--blocks", Kind::OptionalSizes},
                                                   {"--dry-run", Kind::Flag}}},
        {"report", kBenchInput + std::vector<Option>{{"--out", Kind::Path}, {"--overwrite", Kind::Flag},
                                                     {"--kernel-only", Kind::Flag}, {"--no-baselines", Kind::Flag},
                                                     {"--tune-variant", Kind::Variant}, {"--shapes", Kind::Sizes},
                                                     {"--max-items", Kind::Count}, {"--sweep", Kind::Sweep}}},
        {"matmul", kLab + std::vector<Option>{{"--n", Kind::Counts}}},
        {"nbody", kLab + std::vector<Option>{{"--bodies", Kind::Counts}, {"--steps", Kind::Count}}},
        {"cache",
         {{"--list", Kind::Flag}, {"--clear", Kind::Flag}, {"--max-mib", Kind::Count}, {"--cache-dir", Kind::Dir},
          {"--json", Kind::Flag}}},
        {"prepare",
         {{"--filter", Kind::Filters}, {"--format", Kind::Formats}, {"--device", Kind::Device}, {"--jobs", Kind::Count},
          {"--cache-dir", Kind::Dir}, {"--json", Kind::Flag}, {"--serve", Kind::Flag}}}, // --serve: internal
    };
    return table;
}

const std::vector<std::string> kHostile = {
    "", " ", "-", "--", "=", ",", ",,", "0", "-0", "-1", "1", "2", "3", "8", "16", "255", "256", "4096", "4097",
    "65535", "65536", "100000", "100001", "2147483647", "2147483648", "-2147483649", "4294967295", "4294967296",
    "9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
    "99999999999999999999999999", "17592186044416", "0x10", "010", "1e3", "1e308", "1e309", "-1e309", "inf", "-inf",
    "nan", "NaN", "0.5", ".5", "5.", "1.5", "5abc", "abc", "1,2", "1,,2", "0x0", "1x1", "8x8", "1x0", "0x1", "-1x-1",
    "8x", "x8", "x", "8X8", "8x8x8", "8 x 8", " 8x8", "8x8 ", "4097x1", "1024x1024", "65536x65536", "1048576x1048576",
    "1048577x1", "2147483648x1", "99999999999x99999999999", "auto", "driver", "all", "none", "gray8", "rgb888",
    "rgba8888", "reflect101", "replicate", "constant", "pageable", "pinned", "zero_copy", "output_mapped", "svm",
    "sigma=1", "sigma=1,2,3,4", "sigma=", "=1", "sigma=nan", "sigma=inf", "sigma=1e309", "radius=2", "radius=-1",
    "radius=0x10", "radius=1,2", "n=5", "bogus=1", "sigma==1", "cpu", "gpu", "0:0", "9:9", "-1:-1", "0:", ":0",
    "\xff\xfe", "photo\xef\xbf\xbd.png", "bad\xff.png", "caf\xc3\xa9", "\x01\x02", "--json", "-h", "--help",
    "--version", "help", std::string(300, 'a'), std::string(4096, '9'), std::string(255, 'x') + ".png",
};

// Names the checks look at in the scratch folder (made once by setUp).
const std::vector<std::string> kPaths = {
    "in.png", "out.png", "r.json", "r.html", "o.xyz", "missing.png", "sub", "sub/x.png", "missing/x.png", "fifo",
    "link", "dirlink", ".", "..", "/dev/null", "/dev/zero", "v", "v.json", "cache", "kernels", "photo\xef\xbf\xbd.png",
    "photo\xfe.png", std::string(250, 'p') + ".png",
};

std::vector<std::string> g_filters, g_variants, g_paramKeys, g_workloadVariants;

std::string pickFrom(FuzzedDataProvider &in, const std::vector<std::string> &list)
{
    return list.empty() ? std::string() : list[in.ConsumeIntegralInRange<std::size_t>(0, list.size() - 1)];
}

// The fuzzer's own bytes as a value; a '/' becomes '_' so no value names a path outside the scratch
// folder (the fixed names above name the two devices on purpose).
std::string rawValue(FuzzedDataProvider &in)
{
    std::string s = in.ConsumeRandomLengthString(64);
    for (char &c : s)
        if (c == '/' || c == '\0')
            c = '_';
    return s;
}

std::string number(FuzzedDataProvider &in)
{
    switch (in.ConsumeIntegralInRange(0, 3)) {
    case 0: return std::to_string(in.ConsumeIntegralInRange<long long>(-5, 70000));
    case 1: return std::to_string(in.ConsumeIntegral<long long>());
    case 2: return std::to_string(in.ConsumeIntegral<std::uint64_t>());
    default: return pickFrom(in, kHostile);
    }
}

std::string size(FuzzedDataProvider &in)
{
    if (in.ConsumeBool())
        return pickFrom(in, kHostile);
    const std::string width = number(in); // one statement each: the bytes are read in this order
    const char *x = in.ConsumeBool() ? "x" : "X";
    return width + x + number(in);
}

std::string list(FuzzedDataProvider &in, std::string (*item)(FuzzedDataProvider &))
{
    std::string text;
    const int count = in.ConsumeIntegralInRange(0, 5);
    for (int i = 0; i < count; ++i)
        text += (i ? "," : "") + item(in);
    return text;
}

std::string valueFor(FuzzedDataProvider &in, Kind kind)
{
    const int how = in.ConsumeIntegralInRange(0, 9);
    if (how == 0)
        return pickFrom(in, kHostile);
    if (how == 1)
        return rawValue(in);
    switch (kind) {
    case Kind::Flag: return in.ConsumeBool() ? "true" : "0";
    case Kind::Filter: return pickFrom(in, g_filters);
    case Kind::Filters:
        return in.ConsumeBool() ? "all" : list(in, [](FuzzedDataProvider &p) { return pickFrom(p, g_filters); });
    case Kind::Variant:
        return in.ConsumeBool() ? pickFrom(in, g_variants) : pickFrom(in, g_workloadVariants);
    case Kind::Variants: return list(in, [](FuzzedDataProvider &p) { return pickFrom(p, g_variants); });
    case Kind::Device: return pickFrom(in, {"cpu", "gpu", "0:0", "1:0", "pocl", "nvidia", "-1:0", "0:99999999999"});
    case Kind::Local: return in.ConsumeBool() ? pickFrom(in, {"auto", "driver"}) : size(in);
    case Kind::Size: return size(in);
    case Kind::Sizes:
    case Kind::OptionalSizes: return list(in, size);
    case Kind::Count: return number(in);
    case Kind::Counts: return list(in, number);
    case Kind::Seconds: return pickFrom(in, {"10", "0.5", "0", "86400", "86401", "1e9", ".", "1.2.3"});
    case Kind::Format: return pickFrom(in, {"gray8", "rgb888", "rgba8888", "GRAY8", "rgba"});
    case Kind::Formats: return in.ConsumeBool() ? "all" : "gray8,rgba8888,bogus";
    case Kind::Border: return pickFrom(in, {"reflect101", "replicate", "constant", "wrap"});
    case Kind::Param:
    case Kind::Sweep: {
        const std::string key = pickFrom(in, g_paramKeys);
        return key + "=" + list(in, number);
    }
    case Kind::Transfer: return pickFrom(in, {"pageable", "pinned", "zero_copy", "output_mapped", "svm", "all"});
    case Kind::OutFormat: return pickFrom(in, {"png", "jpg", "jpeg", "tiff", "PNG"});
    case Kind::Shard: return pickFrom(in, {"0/2", "1/2", "2/2", "0/0", "-1/2", "0/1", "1/1000001", "1/2/3"});
    case Kind::Path:
    case Kind::Dir: return pickFrom(in, kPaths);
    }
    return rawValue(in);
}

void writeFile(const fs::path &path, const std::string &bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// The scratch folder the command runs in, with the files its checks may look at.
void setUp()
{
    const fs::path dir = fwb::fuzz::scratchDir();
    fs::create_directories(dir / "sub");
    fs::create_directories(dir / "cache");
    fs::create_directories(dir / "kernels");
    fs::create_directories(dir / "variants");
    writeFile(dir / "in.png", "\x89PNG\r\n\x1a\n not really a png");
    writeFile(dir / "out.png", "an earlier result");
    writeFile(dir / "r.json", "{}");
    writeFile(dir / "photo\xef\xbf\xbd.png", "a photo");
    writeFile(dir / "variants" / "v.cl", "kernel void gaussian5x5_unrolled_constant(global const uchar *s, global uchar *d) {}\n");
    writeFile(dir / "variants" / "v.json",
              R"({"format": "filter-workbench user variant", "version": 1, "name": "v", "title": "t",
                  "base_filter": "gaussian5x5", "base_variant": "unrolled_constant",
                  "entry_points": ["gaussian5x5_unrolled_constant"], "defines": ["FOO=1"], "kernel_file": "v.cl"})");
    writeFile(dir / "v.json", "not json");
    mkfifo((dir / "fifo").c_str(), 0600);
    std::error_code ec;
    fs::create_symlink("in.png", dir / "link", ec);
    fs::create_directory_symlink("sub", dir / "dirlink", ec);
    // Every default folder the CLI would use points into the scratch folder.
    setenv("HOME", dir.c_str(), 1);
    setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);
    setenv("XDG_DATA_HOME", dir.c_str(), 1);
    setenv("FWB_USER_VARIANT_DIR", (dir / "variants").c_str(), 1);
    setenv("FWB_CACHE_DIR", (dir / "cache").c_str(), 1);
    unsetenv("FWB_KERNEL_DIR");
    unsetenv("FWB_FAULT");

    for (const fwb::FilterSpec &f : fwb::catalogue()) {
        g_filters.push_back(f.name);
        for (const fwb::VariantSpec &v : f.variants)
            g_variants.push_back(v.name);
        for (const fwb::ParamSpec &p : f.params)
            g_paramKeys.push_back(p.key);
    }
    for (const char *name : {"matmul", "nbody"})
        if (const fwb::WorkloadSpec *w = fwb::findWorkload(name)) {
            for (const fwb::VariantSpec &v : w->variants)
                g_workloadVariants.push_back(v.name);
            for (const fwb::ParamSpec &p : w->params)
                g_paramKeys.push_back(p.key);
        }
    g_workloadVariants.push_back("clblast");
}

// Every entry of the scratch folder: its kind, size and modification time (a link: its target).
std::map<std::string, std::string> snapshot()
{
    std::map<std::string, std::string> files;
    const fs::path dir = fwb::fuzz::scratchDir();
    for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
        struct stat st{};
        if (lstat(it->path().c_str(), &st) != 0)
            std::abort();
        files[it->path().lexically_relative(dir).string()]
            = std::to_string(st.st_mode) + "/" + std::to_string(st.st_size) + "/" + std::to_string(st.st_mtim.tv_sec)
              + "." + std::to_string(st.st_mtim.tv_nsec);
    }
    return files;
}

#ifdef FWB_FUZZ_WITH_QT
// The real checks on names (pathProblem, saveProblem); loading or saving is work the checks never do.
class NoWorkImageIo : public fwb::QtImageIo
{
public:
    bool load(const std::string &, fwb::Image &, std::string &) override { std::abort(); }
    bool save(const std::string &, const fwb::Image &, std::string &) override { std::abort(); }
};
#endif

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
#ifdef FWB_FUZZ_WITH_QT
    static QCoreApplication app(*argc, *argv); // the image-format plugins saveProblem asks about
    qInstallMessageHandler([](QtMsgType, const QMessageLogContext &, const QString &) {});
#endif
    setUp();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const std::map<std::string, std::string> before = snapshot();
    FuzzedDataProvider in(data, size);

    // The environment the CLI reads, now and then hostile.
    const std::vector<std::string> envValues = {"", "kernels", "missing", "0", "64", "5abc", "17592186044416", "-1"};
    for (const char *name : {"FWB_KERNEL_DIR", "FWB_MEMORY_MIB", "FWB_CACHE_MAX_MIB"}) {
        if (in.ConsumeBool())
            setenv(name, pickFrom(in, envValues).c_str(), 1);
        else
            unsetenv(name);
    }

    std::vector<std::string> args{"filter-bench"};
    const auto &table = verbs();
    const int verbChoice = in.ConsumeIntegralInRange<int>(0, int(table.size()) + 1);
    const std::vector<Option> *options = nullptr;
    if (verbChoice < int(table.size())) {
        args.push_back(table[std::size_t(verbChoice)].first);
        options = &table[std::size_t(verbChoice)].second;
    } else if (verbChoice == int(table.size())) {
        args.push_back(pickFrom(in, kHostile)); // a stray word, --help, --version, ...
    } // else: no verb at all
    const int count = in.ConsumeIntegralInRange(0, 24);
    for (int i = 0; i < count && in.remaining_bytes() > 0; ++i) {
        const int what = in.ConsumeIntegralInRange(0, 15);
        if (what == 0) { // a bare word or the fuzzer's bytes
            args.push_back(in.ConsumeBool() ? pickFrom(in, kHostile) : rawValue(in));
            continue;
        }
        const std::vector<Option> &from
            = what == 1 || !options ? table[in.ConsumeIntegralInRange<std::size_t>(0, table.size() - 1)].second : *options;
        const Option &option = from[in.ConsumeIntegralInRange<std::size_t>(0, from.size() - 1)];
        const bool flag = option.kind == Kind::Flag || (option.kind == Kind::OptionalSizes && in.ConsumeBool());
        if (flag && in.ConsumeIntegralInRange(0, 7) != 0) {
            args.push_back(option.name);
            continue;
        }
        const std::string value = valueFor(in, option.kind);
        if (in.ConsumeBool()) {
            args.push_back(std::string(option.name) + "=" + value);
        } else {
            args.push_back(option.name);
            if (in.ConsumeIntegralInRange(0, 15) != 0) // sometimes the value is missing
                args.push_back(value);
        }
    }

    std::vector<char *> argv;
    for (std::string &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
#ifdef FWB_FUZZ_WITH_QT
    NoWorkImageIo io;
    fwb::ImageIo *imageIo = &io;
#else
    fwb::ImageIo *imageIo = nullptr;
#endif
    // Relative names resolve in the scratch folder while the command is checked (libFuzzer's own
    // corpus and artifact paths stay relative to where it was started).
    static const std::string home = fs::current_path().string();
    if (chdir(fwb::fuzz::scratchDir().c_str()) != 0)
        std::abort();
    std::string reason;
    const int code = fwb::checkBenchCli(int(args.size()), argv.data(), imageIo, &reason);
    if (chdir(home.c_str()) != 0)
        std::abort();
    // A finding says what was asked, what came back and which rule it broke (the CI log keeps only
    // stderr), before the abort that libFuzzer reports as a deadly signal.
    auto show = [&](const char *broken) {
        std::fprintf(stderr, "fuzz_cli:%s%s\nfuzz_cli: argv:", broken ? " FINDING: " : "", broken ? broken : "");
        for (const std::string &a : args)
            std::fprintf(stderr, " [%s]", a.c_str());
        std::fprintf(stderr, "\nfuzz_cli: -> %d: %s\n", code, reason.c_str());
    };
    auto fail = [&](const char *broken) {
        show(broken);
        std::abort();
    };
    if (std::getenv("FWB_FUZZ_CLI_SHOW")) // replaying a finding: what was asked and answered
        show(nullptr);
    if (code != 0 && code != 2)
        fail("exit status neither 0 nor 2");
    if (code == 2 && (reason.empty() || reason.find('\n') != std::string::npos))
        fail("a refusal without a one-line reason");
    if (reason.rfind("unexpected error", 0) == 0)
        fail("an exception that is not fwb::Error escaped a check");
    if (snapshot() != before)
        fail("the checks wrote, removed or touched a file in the scratch folder");
    return 0;
}
