// Whether a named file can be read (input_file.hpp).
#include "geometry/input_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace clfdtd {

std::string unreadable_reason(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p(path);
  if (!std::filesystem::exists(p, ec)) {
    // A relative path is taken from the folder clfdtd runs in, not the model file's.
    return "no such file" +
           (p.is_absolute() ? std::string()
                            : " (looked for " + std::filesystem::absolute(p, ec).string() +
                                  ": a relative path starts in the folder clfdtd runs in)");
  }
  if (!std::filesystem::is_regular_file(p, ec)) return "not a regular file";
  std::ifstream probe(path, std::ios::binary);
  if (!probe) return std::string("cannot open it: ") + std::strerror(errno);
  return "";
}

}  // namespace clfdtd
