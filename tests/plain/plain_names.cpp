// Names.h, the one place core's enums are named and parsed and its lists searched by name: a table's
// name for each value ("?" for a value it lacks), the value for each name (none for an unknown or
// differently cased one), the values in the table's order; and the enums built on it keep their names.
#include "Catalogue.h"
#include "Check.h"
#include "Image.h"
#include "Names.h"
#include "Session.h"

#include <string>
#include <vector>

using namespace fwb;

namespace {

enum class Fruit { Apple, Pear, Plum, Quince };

// Quince is deliberately missing: a value the table does not name.
constexpr EnumName<Fruit> kFruits[] = {
    {Fruit::Pear, "pear"},
    {Fruit::Apple, "apple"},
    {Fruit::Plum, "plum"},
};

struct Named
{
    std::string name;
    int id = 0;
};

} // namespace

int main()
{
    CHECK(std::string(nameIn(kFruits, Fruit::Apple)) == "apple");
    CHECK(std::string(nameIn(kFruits, Fruit::Plum)) == "plum");
    CHECK(std::string(nameIn(kFruits, Fruit::Quince)) == "?");
    CHECK(valueIn(kFruits, "pear") == Fruit::Pear);
    CHECK(valueIn(kFruits, "plum") == Fruit::Plum);
    CHECK(!valueIn(kFruits, "Pear").has_value());
    CHECK(!valueIn(kFruits, "").has_value());
    CHECK(!valueIn(kFruits, "quince").has_value());
    CHECK(valuesIn(kFruits) == (std::vector<Fruit>{Fruit::Pear, Fruit::Apple, Fruit::Plum})); // table order

    const std::vector<Named> items{{"a", 1}, {"b", 2}, {"b", 3}};
    CHECK(findNamed(items, "a") == &items[0]);
    CHECK(findNamed(items, "b") == &items[1]); // the first of two
    CHECK(findNamed(items, "c") == nullptr);
    CHECK(findNamed(std::vector<Named>{}, "a") == nullptr);

    // The enums named through it: every value round-trips, in the order the lists give them.
    const std::vector<BorderMode> borders{BorderMode::Reflect101, BorderMode::Replicate, BorderMode::Constant};
    CHECK(allBorderModes() == borders);
    for (BorderMode mode : allBorderModes())
        CHECK(parseBorderMode(borderModeName(mode)) == mode);
    CHECK(std::string(borderModeName(BorderMode::Reflect101)) == "reflect101");
    CHECK(!parseBorderMode("reflect").has_value());
    const std::vector<PixelFormat> formats{PixelFormat::Gray8, PixelFormat::Rgb888, PixelFormat::Rgba8888};
    CHECK(allPixelFormats() == formats);
    for (PixelFormat format : allPixelFormats())
        CHECK(parsePixelFormat(formatName(format)) == format);
    CHECK(allTransferModes().size() == 5);
    for (TransferMode mode : allTransferModes())
        CHECK(parseTransferMode(transferModeName(mode)) == mode);
    CHECK(std::string(transferModeName(TransferMode::ZeroCopy)) == "zero_copy");
    CHECK(findFilter("sobel") != nullptr && findFilter("sobel")->name == "sobel");
    CHECK(findFilter("no_such_filter") == nullptr);
    return plain::finish("plain_names");
}
