// write_text_file: see text_file.hpp. fclose is checked too: buffered bytes are only written there.
#include "output/text_file.hpp"

#include <cerrno>
#include <cstdio>

#include "errors.hpp"

namespace clfdtd {

void write_text_file(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw OutputError::from_errno("create", path, errno);
  errno = 0;
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size() &&
                       std::fflush(f) == 0;
  const int write_errno = errno;
  errno = 0;
  const bool closed = std::fclose(f) == 0;
  if (!written) throw OutputError::from_errno("write", path, write_errno);
  if (!closed) throw OutputError::from_errno("write", path, errno);
}

}  // namespace clfdtd
