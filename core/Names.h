// Looking things up by name, written once: a closed enum's names as one table ({value, name} in the
// order the values are listed) with what is read from it (the name of a value, "?" for none; the value
// a name stands for; every value in order), and the item of a list with a `name` member.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace fwb {

// The first item whose `name` is `name`; nullptr when none is.
template <typename T>
const T *findNamed(const std::vector<T> &items, std::string_view name)
{
    for (const T &item : items)
        if (item.name == name)
            return &item;
    return nullptr;
}

template <typename E>
struct EnumName
{
    E value;
    const char *name;
};

template <typename E, std::size_t N>
const char *nameIn(const EnumName<E> (&table)[N], E value)
{
    for (const EnumName<E> &entry : table)
        if (entry.value == value)
            return entry.name;
    return "?";
}

template <typename E, std::size_t N>
std::optional<E> valueIn(const EnumName<E> (&table)[N], std::string_view name)
{
    for (const EnumName<E> &entry : table)
        if (name == entry.name)
            return entry.value;
    return std::nullopt;
}

template <typename E, std::size_t N>
std::vector<E> valuesIn(const EnumName<E> (&table)[N])
{
    std::vector<E> values;
    for (const EnumName<E> &entry : table)
        values.push_back(entry.value);
    return values;
}

} // namespace fwb
