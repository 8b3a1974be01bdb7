// Kept measurements (core/MeasurementRecord): a record file is `filter-bench run --json-file` plus a
// "record" key; the loader reads it through the run schema, refuses files that are not records, picks
// the pageable and pinned records of a filter (the asked format first) and finds the folder.
// The sample under tests/data/measurements-pocl-sample was made on PoCL (a CPU), not on a GPU.
#include "PlainSupport.h"
#include "Catalogue.h"
#include "JsonIo.h"
#include "MeasurementRecord.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>

#include <unistd.h>

using namespace fwb;
using fwb::plain::contains;
namespace fs = std::filesystem;

namespace {

const fs::path kSample = fs::path(FWB_TEST_DATA_DIR) / "measurements-pocl-sample";

void write(const fs::path &path, const std::string &text)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

} // namespace

int main()
{
    // One record, read whole: every result through the run schema, numbers as in the file.
    const fs::path pageablePath = kSample / "pocl-cpu" / "gaussian5x5-gray8-pageable.json";
    MeasurementRecord r;
    std::string error;
    CHECK(loadMeasurementRecord(pageablePath, r, &error));
    if (!error.empty())
        plain::fail(__FILE__, __LINE__, error);
    const Json raw = *parseJsonFile(pageablePath);
    CHECK(r.deviceName == raw["device"]["name"].get<std::string>());
    CHECK(r.driverVersion == raw["device"]["driver_version"].get<std::string>());
    CHECK(r.deviceKind == DeviceKind::Cpu); // the sample is PoCL's: never to be sold as a GPU
    CHECK(r.date == raw["record"]["date"].get<std::string>());
    CHECK(r.commit == raw["record"]["commit"].get<std::string>());
    CHECK(r.transfer == "pageable" && r.format == "gray8" && r.filter() == "gaussian5x5");
    CHECK(r.width == raw["image"]["width"].get<int>() && r.height == raw["image"]["height"].get<int>());
    CHECK_EQ(r.results.size(), raw["results"].size());
    for (std::size_t i = 0; i < r.results.size(); ++i) {
        const Json &row = raw["results"][i];
        const std::string kept = row["variant"].get<std::string>(); // a former name reads as today's: below
        CHECK(r.results[i].variant == currentVariantName(row["filter"].get<std::string>(), kept));
        if (row["kernel_ms"]["median"].is_number())
            CHECK(r.results[i].kernelMs.median == row["kernel_ms"]["median"].get<double>());
        if (row["end_to_end_ms"].is_number())
            CHECK(r.results[i].endToEndMs == row["end_to_end_ms"].get<double>());
    }
    CHECK(r.result("unrolled_constant") != nullptr);
    CHECK(r.result("no_such_variant") == nullptr);
    CHECK(contains(r.provenance(), r.deviceName) && contains(r.provenance(), r.date)
          && contains(r.provenance(), "driver " + r.driverVersion));

    // The folder: both records of the sample, picked as a pair.
    std::vector<std::string> errors;
    const std::vector<MeasurementRecord> all = loadMeasurementRecords(kSample, &errors);
    CHECK(errors.empty());
    CHECK_EQ(all.size(), std::size_t(2));
    RecordPair pair = pickRecords(all, "gaussian5x5", "gray8");
    CHECK(pair.found() && pair.formatMatches);
    CHECK(pair.pageable && pair.pageable->transfer == "pageable");
    CHECK(pair.pinned && pair.pinned->transfer == "pinned");
    pair = pickRecords(all, "gaussian5x5", "rgba8888"); // not recorded: the filter's other format, said so
    CHECK(pair.found() && !pair.formatMatches);
    CHECK(!pickRecords(all, "sobel", "gray8").found());

    // The asked format wins over a newer record of another format.
    {
        std::vector<MeasurementRecord> two = all;
        MeasurementRecord rgba = *pickRecords(all, "gaussian5x5", "gray8").pageable;
        rgba.format = "rgba8888";
        rgba.date = "2099-01-01";
        two.push_back(rgba);
        const RecordPair g = pickRecords(two, "gaussian5x5", "gray8");
        CHECK(g.pageable && g.pageable->format == "gray8" && g.formatMatches);
        const RecordPair c = pickRecords(two, "gaussian5x5", "rgba8888");
        CHECK(c.pageable && c.pageable->format == "rgba8888" && c.formatMatches && c.pinned == nullptr);
    }

    // A GPU's record is preferred over a CPU's of the same format.
    {
        std::vector<MeasurementRecord> two = all;
        MeasurementRecord gpu = *pickRecords(all, "gaussian5x5", "gray8").pageable;
        gpu.deviceName = "Some GPU";
        gpu.deviceKind = DeviceKind::Gpu;
        two.push_back(gpu);
        const RecordPair p = pickRecords(two, "gaussian5x5", "gray8");
        CHECK(p.pageable && p.pageable->deviceName == "Some GPU");
        CHECK(p.pinned == nullptr); // the pinned record is the CPU's, not this device's
    }

    // A variant's figures for the catalogue's readers (filter-bench list, the window's variant panel):
    // the pageable run's kernel median, per device, GPUs first, the asked variant's own numbers.
    {
        std::vector<VariantRecord> one = variantRecords(all, "gaussian5x5", "unrolled_constant");
        CHECK_EQ(one.size(), std::size_t(1));
        if (one.size() == 1) {
            const RunResult &expected = *r.result("unrolled_constant");
            CHECK(one[0].record && one[0].record->transfer == "pageable");
            CHECK_EQ(one[0].figures.size(), std::size_t(1));
            CHECK(one[0].figures[0].format == "gray8" && one[0].figures[0].kernelMs == expected.kernelMs.median);
            const std::string sentence = variantRecordSentence(one[0]);
            CHECK(contains(sentence, r.deviceName) && contains(sentence, r.date) && contains(sentence, "gray8"));
            CHECK(contains(sentence, "x" + std::to_string(r.height)));
        }
        CHECK(variantRecords(all, "gaussian5x5", "no_such_variant").empty());
        CHECK(variantRecords(all, "sobel", "strips").empty());
        // A second device's record (a GPU, another format) comes first and holds its own figure.
        std::vector<MeasurementRecord> two = all;
        MeasurementRecord gpu = *pickRecords(all, "gaussian5x5", "gray8").pageable;
        gpu.deviceName = "Some GPU";
        gpu.deviceKind = DeviceKind::Gpu;
        gpu.format = "rgba8888";
        for (RunResult &result : gpu.results)
            result.kernelMs.median = 0.5;
        two.push_back(gpu);
        one = variantRecords(two, "gaussian5x5", "unrolled_constant");
        CHECK_EQ(one.size(), std::size_t(2));
        if (one.size() == 2) {
            CHECK(one[0].record->deviceName == "Some GPU" && one[0].figures.size() == 1);
            CHECK(one[0].figures[0].format == "rgba8888" && one[0].figures[0].kernelMs == 0.5);
            CHECK(contains(variantRecordSentence(one[0]), "0.500 ms rgba8888"));
            CHECK(one[1].record->deviceName == r.deviceName);
        }
    }

    // The sample was kept before issue 23's renames: its rows name gaussian5x5's strips rungs by their
    // former names (roofline, roofline_half2), as a user's own records may. They read as today's names,
    // and either name finds them.
    {
        CHECK(raw["results"].dump().find("\"roofline_half2\"") != std::string::npos); // the sample still says so
        for (const auto &[former, now] : {std::pair{"roofline", "strips"}, std::pair{"roofline_half2", "strips_half2"}}) {
            const RunResult *kept = r.result(now);
            CHECK(kept != nullptr && kept->variant == now && r.result(former) == kept);
            const std::vector<VariantRecord> found = variantRecords(all, "gaussian5x5", now);
            CHECK_EQ(found.size(), std::size_t(1));
            CHECK_EQ(variantRecords(all, "gaussian5x5", former).size(), std::size_t(1));
            if (kept && found.size() == 1 && !found[0].figures.empty())
                CHECK(found[0].figures[0].kernelMs == kept->kernelMs.median);
        }
    }

    // Files that are not records are refused, each with its reason; the good one still loads.
    const fs::path tmp = fs::temp_directory_path() / ("fwb-plain-records-" + std::to_string(::getpid()));
    fs::remove_all(tmp);
    std::string text;
    {
        std::ifstream in(pageablePath);
        text.assign(std::istreambuf_iterator<char>(in), {});
    }
    write(tmp / "good" / "gaussian5x5-gray8-pageable.json", text);
    Json noRecord = raw;
    noRecord.erase("record");
    write(tmp / "bad" / "no-record.json", dumpJson(noRecord));
    Json noDate = raw;
    noDate["record"].erase("date");
    write(tmp / "bad" / "no-date.json", dumpJson(noDate));
    Json noResults = raw;
    noResults["results"] = Json::array();
    write(tmp / "bad" / "no-results.json", dumpJson(noResults));
    write(tmp / "bad" / "broken.json", "{\"device\": ");
    write(tmp / "bad" / "notes.txt", "not a record"); // not .json: not looked at
    MeasurementRecord refused;
    CHECK(!loadMeasurementRecord(tmp / "bad" / "no-record.json", refused, &error) && contains(error, "record"));
    CHECK(!loadMeasurementRecord(tmp / "bad" / "no-date.json", refused, &error) && contains(error, "date"));
    CHECK(!loadMeasurementRecord(tmp / "bad" / "no-results.json", refused, &error) && contains(error, "no results"));
    CHECK(!loadMeasurementRecord(tmp / "bad" / "broken.json", refused, &error) && !error.empty());
    errors.clear();
    const std::vector<MeasurementRecord> mixed = loadMeasurementRecords(tmp, &errors);
    CHECK_EQ(mixed.size(), std::size_t(1));
    CHECK_EQ(errors.size(), std::size_t(4));

    // Where they are looked for: the environment first, then beside the installed program, then the
    // source tree's data/measurements.
    ::setenv("FWB_MEASUREMENTS_DIR", (tmp / "good").c_str(), 1);
    const std::vector<fs::path> dirs = measurementDirCandidates("/opt/fwb/bin");
    CHECK(dirs.size() >= 2);
    if (dirs.size() >= 2) {
        CHECK(dirs[0] == tmp / "good");
        CHECK(dirs[1] == fs::path("/opt/fwb/bin/../share/opencl-filter-workbench/measurements"));
    }
    CHECK(findMeasurementDir("/opt/fwb/bin") == (tmp / "good").lexically_normal());
    ::setenv("FWB_MEASUREMENTS_DIR", (tmp / "absent").c_str(), 1);
    CHECK(findMeasurementDir("/opt/fwb/bin") != (tmp / "absent").lexically_normal());
    ::unsetenv("FWB_MEASUREMENTS_DIR");
    fs::remove_all(tmp);
    return plain::finish("plain_measurement_record");
}
