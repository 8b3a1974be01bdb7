// filter-bench user-variants: lists the user's saved kernels (NAME.cl + NAME.json in their data
// folder), shows one, or deletes one. `filter-bench run --user-variant NAME` runs them.
#include "Verb.h"

#include "Error.h"
#include "JsonIo.h"
#include "UserVariants.h"

#include <cstdio>

namespace fwb::cli {

namespace {

struct UserVariantsOptions
{
    std::string remove, show;
    bool json = false;
};

int cmdUserVariants(const UserVariantsOptions &o)
{
    const std::filesystem::path dir = userVariantDir();
    if (!o.remove.empty()) {
        if (!deleteUserVariant(o.remove, dir))
            throw Error("no user variant '" + o.remove + "' in " + dir.string());
        std::printf("deleted user variant %s\n", o.remove.c_str());
        return 0;
    }
    if (!o.show.empty()) {
        const UserVariant v = loadUserVariant(o.show, dir);
        std::printf("%s: %s\n  based on %s/%s, entry points:", v.name.c_str(), v.title.c_str(), v.baseFilter.c_str(),
                    v.baseVariant.c_str());
        for (const std::string &e : v.entryPoints)
            std::printf(" %s", e.c_str());
        std::printf("\n  %s\n  %s\n", v.description.c_str(), v.jsonPath.string().c_str());
        return 0;
    }
    std::vector<std::string> problems;
    const std::vector<UserVariant> all = listUserVariants(dir, &problems);
    if (o.json) {
        Json list = Json::array();
        for (const UserVariant &v : all)
            list.push_back(Json::object({{"name", v.name},
                                         {"title", v.title},
                                         {"base_filter", v.baseFilter},
                                         {"base_variant", v.baseVariant},
                                         {"path", v.jsonPath.string()}}));
        std::printf("%s\n", dumpJson(Json::object({{"dir", dir.string()}, {"user_variants", list}})).c_str());
        return 0;
    }
    std::printf("User variants in %s:\n", dir.string().c_str());
    if (all.empty())
        std::printf("  (none yet: save one from the window's Kernel source editor)\n");
    for (const UserVariant &v : all)
        std::printf("  %-24s %-16s based on %s/%s\n", v.name.c_str(), v.title.c_str(), v.baseFilter.c_str(),
                    v.baseVariant.c_str());
    for (const std::string &p : problems)
        std::fprintf(stderr, "filter-bench: skipped %s\n", p.c_str());
    return 0;
}

} // namespace

Verb userVariantsVerb(CLI::App &root)
{
    auto o = std::make_shared<UserVariantsOptions>();
    Verb verb;
    CLI::App &c = *(verb.command = addVerbCommand(root, "user-variants",
                                                  "list, show or delete your saved kernels (run one with\n"
                                                  "run --user-variant NAME)"));
    c.add_option("--delete", o->remove, "delete this user variant (its .cl and .json)")->type_name("NAME");
    c.add_option("--show", o->show, "show one user variant")->type_name("NAME|PATH");
    addJsonFlag(c, o->json, "the list as one JSON object");
    verb.run = [o] { return cmdUserVariants(*o); };
    return verb;
}

} // namespace fwb::cli
