// User variants: a kernel the user edited and saved, kept in their data folder as one .cl file plus a
// small JSON (base filter and variant, entry points, defines, title, description); it launches
// exactly as its base variant does, from its own source.
#pragma once

#include "Catalogue.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fwb {

struct UserVariant
{
    std::string name;        // file stem and variant name: letters, digits, '_' and '-'
    std::string title;
    std::string description;
    std::string baseFilter;  // "gaussian5x5"
    std::string baseVariant; // "naive"
    std::vector<std::string> entryPoints; // one per pass of the base variant
    std::vector<std::string> defines;     // extra -D options (the base variant's unless changed)
    std::string source;      // the .cl file's text
    std::string kernelFile;  // its file name; empty: NAME.cl (the editor keeps the base's name, so
                             // diagnostics read "gaussian5x5.cl:119")
    std::filesystem::path jsonPath; // where it was read from (empty until saved or loaded)

    std::string kernelFileName() const { return kernelFile.empty() ? name + ".cl" : kernelFile; }
};

inline constexpr int kUserVariantVersion = 1;

// $FWB_USER_VARIANT_DIR, else $XDG_DATA_HOME/filter-workbench/user-variants, else
// ~/.local/share/filter-workbench/user-variants.
std::filesystem::path userVariantDir();

// Empty when `name` is acceptable as a user variant's name, else why not.
std::string userVariantNameProblem(const std::string &name);

// A starting point: the base variant's entry points and defines, `source` as its text.
UserVariant userVariantFrom(const FilterSpec &filter, const VariantSpec &base, const std::string &name,
                            const std::string &source);

// NAME (looked up in dir) or a path to the .json or .cl file. Throws fwb::Error naming the file and,
// for bad JSON, the line and column.
UserVariant loadUserVariant(const std::string &nameOrPath, const std::filesystem::path &dir = userVariantDir());
// Every readable user variant in dir, sorted by name; unreadable ones are skipped with their reason
// in `problems` (when given).
std::vector<UserVariant> listUserVariants(const std::filesystem::path &dir = userVariantDir(),
                                          std::vector<std::string> *problems = nullptr);
// Writes NAME.cl and NAME.json atomically into dir (created when missing). Throws fwb::Error.
std::filesystem::path saveUserVariant(UserVariant variant, const std::filesystem::path &dir = userVariantDir());
// Removes NAME.cl and NAME.json; false when there was nothing to remove.
bool deleteUserVariant(const std::string &name, const std::filesystem::path &dir = userVariantDir());

// The window's variant lists name a user variant "user:NAME" next to the catalogue's own names, so
// that one string (settings, requests, the editor) says which kind of variant it is.
inline constexpr const char *kUserVariantPrefix = "user:";
std::string userVariantRef(const std::string &name);             // NAME -> "user:NAME"
std::optional<std::string> userVariantNameOf(const std::string &variant); // "user:NAME" -> NAME, else nullopt

// The spec Session launches: the base variant's geometry, passes and requirements, with the user's
// name, title, description, entry points, defines and kernel file. Throws fwb::Error when the base
// filter or variant is unknown or the entry points do not match its passes.
std::shared_ptr<const VariantSpec> userVariantSpec(const UserVariant &variant);

} // namespace fwb
