// write_text_file: see text_file.hpp. fclose is checked too: buffered bytes are only written there.
#include "output/text_file.hpp"

#include <cerrno>
#include <cstdio>
#include <filesystem>

#include "config/printable.hpp"
#include "errors.hpp"

namespace clfdtd {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string q = "\"";
  for (char ch : text) {
    if (ch == '"') q += '"';
    q += ch;
  }
  return q + "\"";
}

namespace {

// write_text_file's work on `file`, its errors naming `shown`.
void write_named(const std::string& file, const std::string& shown, const std::string& text) {
  const std::string& path = shown;
  std::FILE* f = std::fopen(file.c_str(), "w");
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

}  // namespace

void write_text_file(const std::string& path, const std::string& text) {
  write_named(path, path, text);
}

void replace_text_file(const std::string& path, const std::string& text) {
  const std::string part = path + ".part";
  try {
    write_named(part, path, text);
  } catch (const OutputError&) {
    std::remove(part.c_str());
    throw;
  }
  if (std::rename(part.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(part.c_str());
    throw OutputError::from_errno("write", path, err);
  }
}

void check_replaceable_file(const std::string& path, bool overwrite) {
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(path, ec);
  if (ec || !std::filesystem::exists(status)) return;
  if (!std::filesystem::is_regular_file(status))
    throw OutputRefusedError("'" + printable(path) + "' exists and is not a plain file");
  if (!overwrite) throw OutputRefusedError("'" + printable(path) + "' exists; --overwrite replaces it");
}

}  // namespace clfdtd
