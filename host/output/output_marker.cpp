// Output markers: see output_marker.hpp. Nothing here throws: a folder that cannot be read is
// simply not recognised as ours.
#include "output/output_marker.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include "output/text_file.hpp"

namespace fs = std::filesystem;

namespace clfdtd {
namespace {

bool real_folder(const fs::path& p) {
  std::error_code ec;
  return fs::symlink_status(p, ec).type() == fs::file_type::directory;
}

bool regular_file(const fs::path& p) {
  std::error_code ec;
  return fs::symlink_status(p, ec).type() == fs::file_type::regular;
}

// run.json parsed, or a discarded value when it is missing, unreadable, huge or not JSON.
nlohmann::json read_report(const fs::path& file) {
  constexpr std::uintmax_t kMaxBytes = 64u << 20;  // a report lists probes; far below this
  std::error_code ec;
  if (!regular_file(file) || fs::file_size(file, ec) > kMaxBytes || ec)
    return nlohmann::json::value_t::discarded;
  std::ifstream in(file, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

// "<head><digits><tail>" with at least one digit.
bool digits_between(const std::string& name, const std::string& head, const std::string& tail) {
  if (name.size() <= head.size() + tail.size()) return false;
  if (name.compare(0, head.size(), head) != 0) return false;
  if (name.compare(name.size() - tail.size(), tail.size(), tail) != 0) return false;
  for (std::size_t i = head.size(); i < name.size() - tail.size(); ++i)
    if (name[i] < '0' || name[i] > '9') return false;
  return true;
}

// snapshots/: fields_<step>.vti; cylindrical fields_<step>_m<m>.vti and fields_<step>_3d.vts.
bool is_snapshot_name(const std::string& name) {
  if (digits_between(name, "fields_", ".vti") || digits_between(name, "fields_", "_3d.vts"))
    return true;
  const std::size_t m = name.rfind("_m");
  return m != std::string::npos && digits_between(name.substr(0, m) + ".vti", "fields_", ".vti") &&
         digits_between(name.substr(m), "_m", ".vti");
}

// The folder's own files: those of every version; the cylindrical series per mode and in 3D.
bool is_top_level_name(const std::string& name) {
  static const std::set<std::string> kFiles{"model.vti",     "run.json",          "run.json.part",
                                            kReserveFile,  kStagingMark,
                                            "probes.csv",    "energy.csv",        "fields.pvd",
                                            "fields.pvd.part", "fields_3d.pvd", "fields_3d.pvd.part"};
  return kFiles.count(name) > 0 || digits_between(name, "fields_m", ".pvd") ||
         digits_between(name, "fields_m", ".pvd.part");
}

}  // namespace

// The step of the last whole row of a probes.csv ("step,time_s,..."), -1 when there is none.
long last_probe_step(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  long last = -1;
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    if (in.eof()) break;  // a last line without its newline was cut off mid-write
    char* end = nullptr;
    const long step = std::strtol(line.c_str(), &end, 10);
    if (end != line.c_str() && *end == ',') last = step;
  }
  return last;
}

bool mark_abandoned_report(const fs::path& dir, const std::string& reason) {
  nlohmann::json j = read_report(dir / "run.json");
  if (!j.is_object() || j.value("status", std::string()) != "running") return false;
  j["status"] = "failed";
  j["reason"] = reason;
  std::error_code ec;
  fs::remove(dir / kReserveFile, ec);  // the space it held is for this rewrite
  // What the run reached, as far as its probes.csv shows (rows are written in batches: the steps
  // whose results the folder holds); unknown without one.
  const long step = last_probe_step(dir / "probes.csv");
  j["steps_done"] = step >= 0 ? nlohmann::json(step) : nlohmann::json(nullptr);
  try {
    replace_text_file((dir / "run.json").string(),
                      j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

bool is_clfdtd_output(const fs::path& dir) {
  if (!real_folder(dir)) return false;
  const nlohmann::json j = read_report(dir / "run.json");
  if (!j.is_object()) return false;
  const auto program = j.find("program");
  if (program != j.end()) return program->is_string() && *program == kProgramName;
  return j.contains("cells") && j.contains("steps_planned") && regular_file(dir / "model.vti");
}

bool write_staging_mark(const fs::path& dir, long pid, bool discard) {
  const std::string path = (dir / kStagingMark).string();
  const std::string text = "clfdtd " + std::to_string(pid) + (discard ? " discard" : "") + "\n";
  // Never through a link: a folder being replaced (output.overwrite) may hold anything.
  ::unlink(path.c_str());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
                  ::fsync(fd) == 0;
  return ::close(fd) == 0 && ok;
}

namespace {
std::string mark_text(const fs::path& dir) {
  if (!real_folder(dir) || !regular_file(dir / kStagingMark)) return "";
  std::ifstream in(dir / kStagingMark);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}
}  // namespace

bool staged_by(const fs::path& dir, long pid) {
  const std::string text = mark_text(dir), head = "clfdtd " + std::to_string(pid);
  return text == head + "\n" || text == head + " discard\n";
}

bool marked_for_removal(const fs::path& dir, long pid) {
  return mark_text(dir) == "clfdtd " + std::to_string(pid) + " discard\n";
}

bool completed_output(const fs::path& dir) {
  if (!is_clfdtd_output(dir)) return false;
  const nlohmann::json j = read_report(dir / "run.json");
  const auto status = j.find("status");
  return status != j.end() && status->is_string() && *status == "completed";
}

std::vector<std::string> foreign_entries(const fs::path& dir, std::size_t limit) {
  std::vector<std::string> found;
  if (!real_folder(dir)) return {dir.string()};
  const nlohmann::json j = read_report(dir / "run.json");
  const auto listed = j.is_object() ? j.find("files") : j.end();
  if (j.is_object() && listed != j.end() && listed->is_array()) {
    // The run's own list: each file it names, and the folders holding them; the folders a run
    // creates when it starts, which stay empty when it ends before writing into them; run.json
    // being rewritten.
    std::set<std::string> files{"run.json", "run.json.part", kStagingMark}, folders{"snapshots", "monitors"};
    for (const auto& f : *listed) {
      if (!f.is_string()) return {"run.json"};
      const fs::path rel(f.get<std::string>());
      files.insert(rel.generic_string());
      for (fs::path up = rel.parent_path(); !up.empty(); up = up.parent_path())
        folders.insert(up.generic_string());
    }
    std::error_code ec;
    fs::recursive_directory_iterator it(dir, ec), end;
    for (; !ec && it != end && found.size() < limit; it.increment(ec)) {
      // Lexically: a link is named as what it is, not as where it points.
      const std::string rel = it->path().lexically_relative(dir).generic_string();
      std::error_code entry_ec;
      const fs::file_type t = it->symlink_status(entry_ec).type();
      if (entry_ec) return {rel};
      const bool ours = t == fs::file_type::regular     ? files.count(rel) > 0
                        : t == fs::file_type::directory ? folders.count(rel) > 0
                                                        : false;
      if (!ours) {
        found.push_back(rel);
        if (t == fs::file_type::directory) it.disable_recursion_pending();
      }
    }
    if (ec) return {""};
    return found;
  }
  // Without the list: a run's names, and the monitor and port files its run.json names.
  std::set<std::string> monitor_files;
  for (const char* list : {"monitors", "ports"})
    if (j.is_object() && j.contains(list) && j[list].is_array())
      for (const auto& m : j[list])
        for (const char* key : {"file", "time_file", "touchstone_file"})
          if (m.is_object() && m.contains(key) && m[key].is_string())
            monitor_files.insert(m[key].get<std::string>());
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end && found.size() < limit;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const bool folder = real_folder(it->path());
    if (folder && (name == "snapshots" || name == "monitors" || name == "ports")) {
      std::error_code ec2;
      for (fs::directory_iterator s(it->path(), ec2), send;
           !ec2 && s != send && found.size() < limit; s.increment(ec2)) {
        const std::string rel = name + "/" + s->path().filename().string();
        const bool known = name == "snapshots" ? is_snapshot_name(s->path().filename().string())
                                               : monitor_files.count(rel) > 0;
        if (!known || !regular_file(s->path())) found.push_back(rel);
      }
      if (ec2) return {""};
    } else if (!is_top_level_name(name) || !regular_file(it->path())) {
      found.push_back(name);
    }
  }
  if (ec) return {""};
  return found;
}

bool holds_only_clfdtd_files(const fs::path& dir) { return foreign_entries(dir, 1).empty(); }

}  // namespace clfdtd
