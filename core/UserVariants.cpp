// User variants on disk: NAME.cl + NAME.json in the user's data folder, read and written through
// nlohmann (JsonIo) and the atomic file writer.
#include "UserVariants.h"

#include "AtomicFile.h"
#include "Error.h"
#include "JsonIo.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace fwb {

namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path &path)
{
    // A user variant's source is a kernel file: a FIFO, a device or a huge file is refused, not read.
    std::string text, why;
    if (!readRegularFile(path, 16ull << 20, text, &why))
        throw Error("cannot read " + path.string() + " (" + why + ")");
    return text;
}

void writeText(const fs::path &path, const std::string &text)
{
    std::string error;
    if (!writeFileAtomically(path, text.data(), text.size(), &error))
        throw Error("cannot write " + path.string() + ": " + error);
}

std::vector<std::string> stringList(const Json &j, const char *key, const fs::path &path)
{
    std::vector<std::string> out;
    if (!j.contains(key))
        return out;
    if (!j[key].is_array())
        throw Error(path.string() + ": \"" + key + "\" must be a list of strings");
    for (const Json &item : j[key]) {
        if (!item.is_string())
            throw Error(path.string() + ": \"" + key + "\" must be a list of strings");
        out.push_back(item.get<std::string>());
    }
    return out;
}

} // namespace

fs::path userVariantDir()
{
    if (const char *dir = std::getenv("FWB_USER_VARIANT_DIR"); dir && *dir)
        return dir;
    if (const char *data = std::getenv("XDG_DATA_HOME"); data && *data)
        return fs::path(data) / "filter-workbench" / "user-variants";
    const char *home = std::getenv("HOME");
    return fs::path(home && *home ? home : ".") / ".local" / "share" / "filter-workbench" / "user-variants";
}

std::string userVariantNameProblem(const std::string &name)
{
    if (name.empty())
        return "a user variant needs a name";
    if (name.size() > 64)
        return "the name '" + name + "' is longer than 64 characters";
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'))
            return "the name '" + name + "' may hold only letters, digits, '_' and '-'";
    return {};
}

UserVariant userVariantFrom(const FilterSpec &filter, const VariantSpec &base, const std::string &name,
                            const std::string &source)
{
    UserVariant v;
    v.name = name;
    v.title = base.title + " (edited)";
    v.description = "Edited from " + filter.name + "/" + base.name + ".";
    v.baseFilter = filter.name;
    v.baseVariant = base.name;
    for (const PassSpec &pass : base.passes)
        v.entryPoints.push_back(pass.entry);
    v.defines = base.defines;
    v.source = source;
    return v;
}

UserVariant loadUserVariant(const std::string &nameOrPath, const fs::path &dir)
{
    // Existence with an error code: a name the system refuses (too long, a folder we may not read)
    // is "not found" with the reason, never a filesystem exception.
    std::error_code ec;
    fs::path json;
    if (userVariantNameProblem(nameOrPath).empty() && !fs::exists(nameOrPath, ec))
        json = dir / (nameOrPath + ".json");
    else
        json = fs::path(nameOrPath).extension() == ".cl" ? fs::path(nameOrPath).replace_extension(".json")
                                                          : fs::path(nameOrPath);
    if (!fs::exists(json, ec))
        throw Error("no user variant '" + nameOrPath + "' (looked for " + json.string() + (ec ? ": " + ec.message() : "")
                    + ")");
    std::string error;
    const std::optional<Json> parsed = parseJsonFile(json, &error);
    if (!parsed)
        throw Error(error);
    const Json &j = *parsed;
    if (!j.is_object() || !j.contains("version") || !j["version"].is_number_integer())
        throw Error(json.string() + ": not a user variant (no \"version\")");
    if (j["version"].get<int>() > kUserVariantVersion)
        throw Error(json.string() + ": user variant format version " + std::to_string(j["version"].get<int>())
                    + " is newer than this build reads (" + std::to_string(kUserVariantVersion) + ")");
    UserVariant v;
    std::string kernelFile;
    try {
        // Every field read inside: a wrong type is nlohmann's type_error, reported as fwb::Error like
        // any other problem with the file (listUserVariants skips on fwb::Error only).
        v.name = j.value("name", json.stem().string());
        v.title = j.value("title", v.name);
        v.description = j.value("description", std::string());
        v.baseFilter = j.at("base_filter").get<std::string>();
        v.baseVariant = currentVariantName(v.baseFilter, j.at("base_variant").get<std::string>()); // a former name: today's
        kernelFile = j.value("kernel_file", v.name + ".cl");
    } catch (const Json::exception &e) {
        throw Error(json.string() + ": " + e.what());
    }
    // The name becomes the default kernel file's name: "../x" would read outside the folder.
    if (std::string why = userVariantNameProblem(v.name); !why.empty())
        throw Error(json.string() + ": " + why);
    v.entryPoints = stringList(j, "entry_points", json);
    v.defines = stringList(j, "defines", json);
    // Each define becomes one -D option: "X=1 -I /etc -Werror" would add build options of its own.
    for (const std::string &define : v.defines) {
        const std::size_t eq = std::min(define.find('='), define.size());
        const bool name = eq > 0 && !std::isdigit(static_cast<unsigned char>(define[0]))
                          && std::all_of(define.begin(), define.begin() + std::ptrdiff_t(eq), [](char c) {
                                 return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                             });
        const bool value = std::none_of(define.begin() + std::ptrdiff_t(eq), define.end(), [](char c) {
            return std::isspace(static_cast<unsigned char>(c)) || c == '"' || c == '\'' || c == '\\';
        });
        if (!name || !value)
            throw Error(json.string() + ": define '" + define
                        + "' is not NAME or NAME=VALUE (a C identifier; a value without spaces or quotes)");
    }
    if (kernelFile.empty() || kernelFile == "." || kernelFile == ".." || kernelFile.find('/') != std::string::npos
        || kernelFile.find('\\') != std::string::npos)
        throw Error(json.string() + ": \"kernel_file\" must be a file name beside the JSON");
    v.source = readText(json.parent_path() / kernelFile);
    v.kernelFile = kernelFile;
    v.jsonPath = json;
    return v;
}

std::vector<UserVariant> listUserVariants(const fs::path &dir, std::vector<std::string> *problems)
{
    std::vector<UserVariant> out;
    std::error_code ec;
    for (const fs::directory_entry &entry : fs::directory_iterator(dir, ec)) {
        if (entry.path().extension() != ".json")
            continue;
        try {
            out.push_back(loadUserVariant(entry.path().string(), dir));
        } catch (const Error &e) {
            if (problems)
                problems->push_back(e.what());
        }
    }
    std::sort(out.begin(), out.end(), [](const UserVariant &a, const UserVariant &b) { return a.name < b.name; });
    return out;
}

fs::path saveUserVariant(UserVariant v, const fs::path &dir)
{
    v.kernelFile.clear(); // saved as NAME.cl beside NAME.json, whatever file it was edited as
    if (std::string why = userVariantNameProblem(v.name); !why.empty())
        throw Error(why);
    userVariantSpec(v); // refuses an unknown base or mismatched entry points before anything is written
    Json j = Json::object();
    j["format"] = "filter-workbench user variant";
    j["version"] = kUserVariantVersion;
    j["name"] = v.name;
    j["title"] = v.title;
    j["description"] = v.description;
    j["base_filter"] = v.baseFilter;
    j["base_variant"] = v.baseVariant;
    j["kernel_file"] = v.kernelFileName();
    j["entry_points"] = v.entryPoints;
    j["defines"] = v.defines;
    writeText(dir / v.kernelFileName(), v.source);
    const fs::path json = dir / (v.name + ".json");
    writeText(json, j.dump(2) + "\n");
    return json;
}

bool deleteUserVariant(const std::string &name, const fs::path &dir)
{
    if (!userVariantNameProblem(name).empty())
        return false;
    std::error_code ec;
    const bool json = fs::remove(dir / (name + ".json"), ec);
    const bool cl = fs::remove(dir / (name + ".cl"), ec);
    return json || cl;
}

std::string userVariantRef(const std::string &name)
{
    return kUserVariantPrefix + name;
}

std::optional<std::string> userVariantNameOf(const std::string &variant)
{
    const std::string_view prefix = kUserVariantPrefix;
    if (variant.size() <= prefix.size() || variant.compare(0, prefix.size(), prefix) != 0)
        return std::nullopt;
    return variant.substr(prefix.size());
}

std::shared_ptr<const VariantSpec> userVariantSpec(const UserVariant &v)
{
    const FilterSpec *filter = findFilter(v.baseFilter);
    if (!filter)
        throw Error("user variant " + v.name + ": unknown base filter '" + v.baseFilter + "'");
    const VariantSpec *base = filter->variant(v.baseVariant);
    if (!base)
        throw Error("user variant " + v.name + ": filter " + v.baseFilter + " has no variant '" + v.baseVariant + "'");
    auto spec = std::make_shared<VariantSpec>(*base);
    spec->name = v.name;
    spec->title = v.title.empty() ? v.name : v.title;
    spec->description = v.description;
    spec->seedNote.clear();   // measured on the shipped code, not on the user's
    spec->plainWords.clear(); // says what the shipped code does
    spec->kernelFile = v.kernelFileName();
    spec->defines = v.defines;
    if (!v.entryPoints.empty()) {
        if (v.entryPoints.size() != base->passes.size())
            throw Error("user variant " + v.name + ": " + std::to_string(v.entryPoints.size()) + " entry points, but "
                        + v.baseVariant + " launches " + std::to_string(base->passes.size()) + " passes");
        for (std::size_t i = 0; i < base->passes.size(); ++i)
            spec->passes[i].entry = v.entryPoints[i];
    }
    return spec;
}

} // namespace fwb
