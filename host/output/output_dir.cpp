// OutputDir: see output_dir.hpp. Renames within one parent folder stay on one file system, so each
// rename is atomic; the only window where final_path() is missing is between the two renames.
#include "output/output_dir.hpp"

#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace fs = std::filesystem;

namespace clfdtd {
namespace {

[[noreturn]] void fail(const std::string& what, const fs::path& p, const std::error_code& ec) {
  throw std::runtime_error("output directory: cannot " + what + " '" + p.string() + "': " + ec.message());
}

// "out/" and "out" must name the same folder, or the sibling would land inside it.
fs::path normalised(const std::string& dir) {
  if (dir.empty()) throw std::runtime_error("output directory: empty path");
  fs::path p = fs::path(dir).lexically_normal();
  if (!p.has_filename()) p = p.parent_path();
  if (p.empty() || p == "." || p == ".." || p.filename() == "..")
    throw std::runtime_error("output directory: '" + dir + "' does not name a folder that can be replaced");
  return p;
}

// Whether something (folder, file, link) exists at p; "not found" is not an error here.
bool present(const fs::path& p) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(p, ec);
  if (st.type() == fs::file_type::not_found) return false;
  if (ec) fail("inspect", p, ec);
  return true;
}

std::string sibling(const fs::path& p, const char* tag) {
  return p.string() + tag + std::to_string(static_cast<long>(::getpid()));
}

}  // namespace

OutputDir::OutputDir(const std::string& final_dir) {
  const fs::path p = normalised(final_dir);
  final_ = p.string();
  tmp_ = sibling(p, ".tmp-");
  std::error_code ec;
  if (present(tmp_)) {  // a leftover of an earlier process with the same pid
    fs::remove_all(tmp_, ec);
    if (ec) fail("remove stale", tmp_, ec);
  }
  fs::create_directories(tmp_, ec);
  if (ec) fail("create", tmp_, ec);
}

std::string OutputDir::file(const std::string& name) const { return (fs::path(tmp_) / name).string(); }

void OutputDir::commit() {
  if (committed_) return;
  std::error_code ec;
  const fs::path fin(final_), tmp(tmp_);
  const fs::path old = sibling(fin, ".old-");
  const bool had_old = present(fin);
  if (had_old) {
    if (present(old)) {
      fs::remove_all(old, ec);
      if (ec) fail("remove stale", old, ec);
    }
    fs::rename(fin, old, ec);
    if (ec) fail("move aside existing", fin, ec);
  }
  fs::rename(tmp, fin, ec);
  if (ec) {
    std::error_code ignored;
    if (had_old) fs::rename(old, fin, ignored);  // put the previous outputs back
    fail("rename '" + tmp.string() + "' to", fin, ec);
  }
  committed_ = true;
  tmp_ = final_;
  if (had_old) {
    fs::remove_all(old, ec);
    if (ec) fail("remove previous outputs", old, ec);
  }
}

}  // namespace clfdtd
