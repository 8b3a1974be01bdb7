// JsonWriter: a small streaming JSON writer (core stays Qt-free), plus JSON views of our values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fwb {

struct DeviceInfo;
struct RunResult;
struct FilterSpec;

class JsonWriter
{
public:
    JsonWriter &beginObject();
    JsonWriter &endObject();
    JsonWriter &beginArray();
    JsonWriter &endArray();
    JsonWriter &key(const std::string &name);
    JsonWriter &value(const std::string &text);
    JsonWriter &value(const char *text);
    JsonWriter &value(double number); // NaN/inf -> null
    JsonWriter &value(std::int64_t number);
    JsonWriter &value(int number) { return value(std::int64_t(number)); }
    JsonWriter &value(std::uint64_t number) { return value(std::int64_t(number)); }
    JsonWriter &value(std::size_t number, int) { return value(std::int64_t(number)); }
    JsonWriter &value(bool flag);
    JsonWriter &null();
    const std::string &str() const { return m_out; }

    static std::string escape(const std::string &text);

private:
    void separator();
    std::string m_out;
    std::vector<bool> m_first; // per open container: no element written yet
    bool m_afterKey = false;
};

void writeDeviceJson(JsonWriter &json, const DeviceInfo &device);
void writeRunResultJson(JsonWriter &json, const RunResult &result);
void writeFilterJson(JsonWriter &json, const FilterSpec &filter);

} // namespace fwb
