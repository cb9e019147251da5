// fields.pvd: a ParaView collection listing the field snapshots with their times (seconds), so
// ParaView's time slider steps through them. Every add() rewrites the whole small file through a
// temporary and a rename, so the file on disk is a complete, valid XML document at every moment
// (a run stopped midway still opens with the snapshots written so far).
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace clfdtd {

class PvdWriter {
public:
  // Writes an empty collection at once. Throws std::runtime_error on a file-system failure.
  explicit PvdWriter(const std::string& path);

  // Appends one dataset: time in seconds, file relative to the .pvd's folder (e.g. "fields_000100.vti").
  void add(double time_s, const std::string& relative_file);

  const std::string& path() const { return path_; }
  std::size_t size() const { return entries_.size(); }

private:
  void rewrite() const;
  std::string path_;
  std::vector<std::pair<double, std::string>> entries_;
};

}  // namespace clfdtd
