// The program cache's disk entries, shared by ProgramCache.cpp (get: read, unseal, write) and
// ProgramCacheFolder.cpp (the folder: frame, seal, marker, listing, eviction). Not a public header.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace fwb::programcache {

// Reads an entry file (a regular file, at most the largest entry); false when unreadable or empty.
bool readEntryFile(const std::filesystem::path &path, std::vector<unsigned char> &bytes);

// The folder's seal secret from its marker; empty when the folder has no (valid) marker.
std::string sealSecret(const std::string &dir);

// The payload ProgramCache stores: seal, then the driver's bytes.
std::vector<unsigned char> sealedPayload(const std::string &secret, const std::string &key,
                                         const std::vector<unsigned char> &binary);

// The driver's bytes from a sealed payload; false when the seal does not match.
bool unsealPayload(const std::string &secret, const std::string &key, const std::vector<unsigned char> &payload,
                   std::vector<unsigned char> *binary);

} // namespace fwb::programcache
