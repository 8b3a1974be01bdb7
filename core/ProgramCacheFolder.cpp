// ProgramCache's disk folder: the entry frame and seal, the folder's marker (CACHEDIR.TAG), listing,
// clearing, the stored size bound and the LRU sweep. The folder is shared by every process of the
// user: entries are written to a temp file and renamed into place (a reader sees the old file, the
// new one or none, never half of one), checked before they reach the driver, and bounded by an LRU
// sweep after each write. Concurrent sweeps are harmless: removing a file another process already
// removed is ignored, and a reader that opened an entry keeps its bytes when the entry is unlinked.
#include "ProgramCache.h"
#include "ProgramCacheEntry.h"

#include "AtomicFile.h"
#include "Hash.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include <unistd.h>

namespace fwb {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'F', 'W', 'B', 'P', 'R', 'O', 'G', '1'};
constexpr std::size_t kKeyChars = 16;
constexpr std::size_t kHeaderBytes = sizeof kMagic + kKeyChars + 8 + 8;
// Larger files are not read at all: no driver binary is a gigabyte, and a hostile file must not
// make us allocate one.
constexpr std::uint64_t kMaxEntryBytes = 1ull << 30;
const char *const kLimitFile = "limit";

void putU64(std::vector<unsigned char> &out, std::uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        out.push_back(static_cast<unsigned char>(v >> (8 * i)));
}

std::uint64_t getU64(const unsigned char *p)
{
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
}

std::uint64_t payloadHash(const void *data, std::size_t size)
{
    Fnv1a hash;
    hash.add(data, size);
    return hash.value();
}

bool isHexKey(const std::string &name)
{
    return name.size() >= kKeyChars
           && std::all_of(name.begin(), name.begin() + kKeyChars,
                          [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// <16 hex digits>.bin: what cacheKey() names (listing shows any 16-character name, to explain it).
bool isEntryName(const std::string &name)
{
    return name.size() == kKeyChars + 4 && name.compare(kKeyChars, 4, ".bin") == 0;
}

// <16 hex digits>.bin.tmp<digits>: writeFileAtomically's temp name for an entry.
bool isTempName(const std::string &name)
{
    const std::size_t prefix = kKeyChars + 8;
    return name.size() > prefix && isHexKey(name) && name.compare(kKeyChars, 8, ".bin.tmp") == 0
           && std::all_of(name.begin() + prefix, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A file the cache wrote and may delete: an entry or temp name, a regular file (not a link), and
// for entries the entry magic in its first bytes.
bool ownedFile(const fs::directory_entry &entry, bool temp)
{
    std::error_code ec;
    if (!entry.is_regular_file(ec) || entry.is_symlink(ec))
        return false;
    if (temp)
        return true;
    if (!isHexKey(entry.path().filename().string()))
        return false;
    std::ifstream in(entry.path(), std::ios::binary);
    char magic[sizeof kMagic] = {};
    in.read(magic, sizeof magic);
    return in.gcount() == std::streamsize(sizeof magic) && std::memcmp(magic, kMagic, sizeof magic) == 0;
}

const char *const kTagSignature = "Signature: 8a477f597d28d172789f06886806bc55";
const char *const kSealPrefix = "# filter-bench program cache; seal ";
constexpr std::size_t kSealBytes = 8;

// The secret around the key and the bytes (before and after, so the digest cannot be run backwards
// from a known entry without it).
std::uint64_t sealOf(const std::string &secret, const std::string &key, const unsigned char *binary, std::size_t size)
{
    Fnv1a hash;
    hash.add(secret);
    hash.add(key);
    hash.add(binary, size);
    hash.add(secret);
    return hash.value();
}


std::int64_t unixSeconds(fs::file_time_type time)
{
    const auto system = std::chrono::time_point_cast<std::chrono::seconds>(
        time - fs::file_time_type::clock::now() + std::chrono::system_clock::now());
    return system.time_since_epoch().count();
}

} // namespace

namespace programcache {

bool readEntryFile(const fs::path &path, std::vector<unsigned char> &bytes)
{
    std::string text;
    if (!readRegularFile(path, kMaxEntryBytes, text) || text.empty())
        return false;
    bytes.assign(text.begin(), text.end());
    return true;
}

std::string sealSecret(const std::string &dir)
{
    std::string text;
    if (dir.empty() || !readRegularFile(fs::path(dir) / ProgramCache::kMarkerFile, 4096, text))
        return {};
    if (text.rfind(kTagSignature, 0) != 0)
        return {};
    const std::size_t at = text.find(kSealPrefix);
    if (at == std::string::npos)
        return {};
    std::string secret = text.substr(at + std::strlen(kSealPrefix), 32);
    if (secret.size() != 32 || !std::all_of(secret.begin(), secret.end(), [](char c) { return std::isxdigit(c); }))
        return {};
    return secret;
}

std::vector<unsigned char> sealedPayload(const std::string &secret, const std::string &key,
                                         const std::vector<unsigned char> &binary)
{
    std::vector<unsigned char> payload;
    payload.reserve(kSealBytes + binary.size());
    putU64(payload, sealOf(secret, key, binary.data(), binary.size()));
    payload.insert(payload.end(), binary.begin(), binary.end());
    return payload;
}

bool unsealPayload(const std::string &secret, const std::string &key, const std::vector<unsigned char> &payload,
                   std::vector<unsigned char> *binary)
{
    if (secret.empty() || payload.size() <= kSealBytes)
        return false;
    if (getU64(payload.data()) != sealOf(secret, key, payload.data() + kSealBytes, payload.size() - kSealBytes))
        return false;
    if (binary)
        binary->assign(payload.begin() + kSealBytes, payload.end());
    return true;
}

} // namespace programcache

using programcache::readEntryFile;
using programcache::sealSecret;
using programcache::unsealPayload;

std::vector<unsigned char> encodeCacheEntry(const std::string &key, const void *binary, std::size_t size)
{
    std::vector<unsigned char> out;
    out.reserve(kHeaderBytes + size);
    out.insert(out.end(), kMagic, kMagic + sizeof kMagic);
    std::string paddedKey = key.substr(0, kKeyChars);
    paddedKey.resize(kKeyChars, '0');
    out.insert(out.end(), paddedKey.begin(), paddedKey.end());
    putU64(out, size);
    putU64(out, payloadHash(binary, size));
    const auto *bytes = static_cast<const unsigned char *>(binary);
    out.insert(out.end(), bytes, bytes + size);
    return out;
}

bool decodeCacheEntry(const unsigned char *data, std::size_t size, const std::string &key,
                      std::vector<unsigned char> *binary, std::string *problem)
{
    auto fail = [&](const char *why) {
        if (problem)
            *problem = why;
        return false;
    };
    if (size < kHeaderBytes)
        return fail("shorter than the entry header");
    if (std::memcmp(data, kMagic, sizeof kMagic) != 0)
        return fail("not a program-cache entry (bad magic)");
    const std::string storedKey(reinterpret_cast<const char *>(data) + sizeof kMagic, kKeyChars);
    if (!key.empty() && storedKey != key)
        return fail("entry key does not match its file name");
    const std::uint64_t payloadSize = getU64(data + sizeof kMagic + kKeyChars);
    const std::uint64_t storedHash = getU64(data + sizeof kMagic + kKeyChars + 8);
    if (payloadSize == 0)
        return fail("empty binary");
    if (payloadSize != size - kHeaderBytes)
        return fail(payloadSize > size - kHeaderBytes ? "truncated" : "trailing bytes after the binary");
    if (payloadHash(data + kHeaderBytes, std::size_t(payloadSize)) != storedHash)
        return fail("checksum mismatch");
    if (binary)
        binary->assign(data + kHeaderBytes, data + size);
    return true;
}

bool ProgramCache::isCacheDir(const std::string &dir)
{
    return !sealSecret(dir).empty();
}

std::string ProgramCache::notCacheMessage(const std::string &dir)
{
    return dir + " is not a filter-bench program cache (it has no " + std::string(kMarkerFile)
           + " written by filter-bench, and holds files the cache did not write)";
}

bool ProgramCache::markCacheDir(const std::string &dir, std::string *error)
{
    if (isCacheDir(dir))
        return true;
    std::error_code ec;
    // Adopt a folder only when everything in it is what a program cache writes (an older cache had no
    // marker): never someone's folder of other files.
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const bool temp = isTempName(name);
        // Also a tag or limit being written by another process, and the tuning database's files.
        const bool ours = ((isEntryName(name) || temp) && ownedFile(*it, temp)) || name.rfind(kMarkerFile, 0) == 0
                          || name == kLimitFile || name.rfind(std::string(kLimitFile) + ".tmp", 0) == 0
                          || name == "tuning.json" || name.rfind("tuning.json.tmp", 0) == 0
                          || name == "prepared.json" || name.rfind("prepared.json.tmp", 0) == 0
                          || name == "prepared.json.lock" || name == "tuning.json.lock";
        if (!ours) {
            if (error)
                *error = notCacheMessage(dir);
            return false;
        }
    }
    if (ec && ec != std::errc::no_such_file_or_directory) {
        if (error)
            *error = "cannot read " + dir + ": " + ec.message();
        return false;
    }
    std::random_device random;
    char secret[33];
    std::snprintf(secret, sizeof secret, "%08x%08x%08x%08x", random(), random(), random(), random());
    const std::string text = std::string(kTagSignature) + "\n" + kSealPrefix + secret
                             + "\n# OpenCL Filter Workbench: 'filter-bench cache --clear' removes only the entries it wrote here.\n";
    // Written beside, then linked into place: link() fails when the tag exists, so when processes
    // mark a new folder at once the first tag stays and everyone seals with its secret.
    const fs::path tag = fs::path(dir) / kMarkerFile, temp = fs::path(dir) / (std::string(kMarkerFile) + "." + secret);
    std::string why;
    if (!writeFileAtomically(temp, text.data(), text.size(), &why)) {
        if (error)
            *error = why;
        return false;
    }
    const bool linked = ::link(temp.c_str(), tag.c_str()) == 0;
    const int linkError = errno;
    fs::remove(temp, ec);
    if (!linked && linkError != EEXIST) {
        if (error)
            *error = "cannot write " + tag.string() + ": " + std::strerror(linkError);
        return false;
    }
    return isCacheDir(dir);
}

namespace {

// Whether the entry file holds a whole, sealed program of this key (the reason in `problem` when not).
bool checkEntry(const fs::path &file, const std::string &key, const std::string &secret, std::uint64_t bytesOnDisk,
                std::string *problem)
{
    std::vector<unsigned char> bytes, payload;
    if (!readEntryFile(file, bytes)) {
        *problem = bytesOnDisk > kMaxEntryBytes ? "larger than any program binary" : "unreadable or empty";
        return false;
    }
    if (!decodeCacheEntry(bytes.data(), bytes.size(), key, &payload, problem))
        return false;
    if (!secret.empty() && !unsealPayload(secret, key, payload, nullptr)) {
        *problem = "not sealed by this cache (another writer, or altered)";
        return false;
    }
    return true;
}

} // namespace

bool ProgramCache::hasValidEntry(const std::string &dir, const std::string &key)
{
    if (dir.empty() || dir == "-" || key.empty())
        return false;
    const std::string secret = sealSecret(dir);
    if (secret.empty())
        return false; // no marker: nothing this cache wrote, and get() would not trust it either
    std::string problem;
    return checkEntry(fs::path(dir) / (key + ".bin"), key, secret, 0, &problem);
}

std::vector<CacheEntryInfo> ProgramCache::listEntries(const std::string &dir)
{
    std::vector<CacheEntryInfo> entries;
    std::error_code ec;
    if (dir.empty())
        return entries;
    const std::string secret = sealSecret(dir); // a marked folder: entries must carry its seal too
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (!isEntryName(name))
            continue;
        CacheEntryInfo e;
        e.file = it->path().string();
        e.key = name.substr(0, kKeyChars);
        std::error_code fileError;
        e.bytes = it->file_size(fileError);
        if (fileError)
            continue; // removed by another process meanwhile
        e.lastUsedUnix = unixSeconds(it->last_write_time(fileError));
        e.valid = checkEntry(it->path(), e.key, secret, e.bytes, &e.problem);
        entries.push_back(std::move(e));
    }
    std::sort(entries.begin(), entries.end(), [](const CacheEntryInfo &a, const CacheEntryInfo &b) {
        return a.lastUsedUnix != b.lastUsedUnix ? a.lastUsedUnix < b.lastUsedUnix : a.key < b.key;
    });
    return entries;
}

std::size_t ProgramCache::clearDir(const std::string &dir, std::string *error)
{
    std::size_t removed = 0;
    std::error_code ec;
    if (!fs::exists(dir, ec))
        return 0;
    if (!isCacheDir(dir)) {
        if (error)
            *error = notCacheMessage(dir) + "; nothing removed";
        return 0;
    }
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const bool temp = isTempName(name);
        if (!(isEntryName(name) || temp) || !ownedFile(*it, temp))
            continue;
        std::error_code removeError;
        if (fs::remove(it->path(), removeError) && isEntryName(name))
            ++removed;
        else if (removeError && error && error->empty())
            *error = "cannot remove " + it->path().string() + ": " + removeError.message();
    }
    if (ec && ec != std::errc::no_such_file_or_directory && error && error->empty())
        *error = "cannot read " + dir + ": " + ec.message();
    return removed;
}

std::uint64_t ProgramCache::storedMaxBytes(const std::string &dir)
{
    auto parseMib = [](const std::string &text, std::uint64_t &bytes) {
        // Digits only (a trailing newline in the limit file is fine): "5abc" is not 5.
        std::string digits = text;
        while (!digits.empty() && (digits.back() == '\n' || digits.back() == '\r'))
            digits.pop_back();
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 14)
            return false;
        const unsigned long long mib = std::strtoull(digits.c_str(), nullptr, 10);
        if (mib > (1ull << 40))
            return false;
        bytes = std::uint64_t(mib) << 20;
        return true;
    };
    std::uint64_t bytes = kDefaultMaxBytes;
    if (const char *env = std::getenv("FWB_CACHE_MAX_MIB"); env && *env) {
        if (parseMib(env, bytes))
            return bytes;
        static std::atomic<bool> warned{false};
        if (!warned.exchange(true))
            std::fprintf(stderr, "warning: FWB_CACHE_MAX_MIB '%s' is not a whole number of MiB; ignoring it\n", env);
    }
    std::string text;
    if (isCacheDir(dir) && readRegularFile(fs::path(dir) / kLimitFile, 64, text) && parseMib(text, bytes))
        return bytes;
    return kDefaultMaxBytes;
}

bool ProgramCache::storeMaxBytes(const std::string &dir, std::uint64_t bytes, std::string *error)
{
    if (!markCacheDir(dir, error))
        return false;
    const std::string text = std::to_string(bytes >> 20) + "\n";
    return writeFileAtomically(fs::path(dir) / kLimitFile, text.data(), text.size(), error);
}

std::size_t ProgramCache::evict(const std::string &dir, std::uint64_t maxBytes, const std::string &keep)
{
    std::vector<std::pair<fs::file_time_type, fs::path>> entries;
    std::uint64_t total = 0;
    const auto now = fs::file_time_type::clock::now();
    std::error_code ec;
    if (!isCacheDir(dir))
        return 0; // not a folder the cache made: nothing in it is ours to delete
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code fileError;
        const auto time = it->last_write_time(fileError);
        if (fileError)
            continue;
        if (isTempName(name)) {
            if (now - time > std::chrono::minutes(10) && ownedFile(*it, true))
                fs::remove(it->path(), fileError);
            continue;
        }
        if (!isEntryName(name) || !ownedFile(*it, false))
            continue;
        const std::uintmax_t size = it->file_size(fileError);
        if (fileError)
            continue;
        total += size;
        if (it->path().string() != keep)
            entries.emplace_back(time, it->path());
    }
    std::sort(entries.begin(), entries.end());
    std::size_t removed = 0;
    for (const auto &[time, path] : entries) {
        if (total <= maxBytes)
            break;
        std::error_code fileError;
        const std::uintmax_t size = fs::file_size(path, fileError);
        if (fileError)
            continue;
        if (fs::remove(path, fileError))
            ++removed;
        total -= std::min<std::uint64_t>(total, size); // gone either way (another process may have won)
    }
    return removed;
}

} // namespace fwb
