// Atomic file writes for everything core saves (program binaries, JSON reports): the bytes go to a
// temp file beside the target, which is renamed into place, so no reader ever sees a partial file.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace fwb {

// Creates missing parent folders. On failure returns false with the reason in `error` (when given)
// and leaves neither the target changed nor a temp file behind.
bool writeFileAtomically(const std::filesystem::path &path, const void *data, std::size_t size,
                         std::string *error = nullptr);

} // namespace fwb
