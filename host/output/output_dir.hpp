// A run's output directory, replaced as a whole. Everything is written into a fresh temporary
// sibling "<dir>.tmp-<pid>"; commit() swaps it in place of "<dir>", so an earlier run's outputs are
// never left half-overwritten. Without commit() (a crash, a non-finite stop) the temporary folder
// stays on disk with whatever was written, so partial outputs can still be inspected.
#pragma once
#include <string>

namespace clfdtd {

class OutputDir {
public:
  // Creates "<final_dir>.tmp-<pid>" (and missing parents), removing a stale one of the same name.
  // Throws std::runtime_error naming the path and the system's reason on failure.
  explicit OutputDir(const std::string& final_dir);
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;
  ~OutputDir() = default;  // deliberately no cleanup: uncommitted outputs are kept

  const std::string& path() const { return tmp_; }          // where files are written now
  const std::string& final_path() const { return final_; }  // where they end up after commit()
  std::string file(const std::string& name) const;          // path() + "/" + name
  bool committed() const { return committed_; }

  // If final_path() exists it is renamed to "<dir>.old-<pid>", the temporary folder is renamed to
  // final_path(), then the old one is removed. On a failed swap the old folder is put back.
  // After commit(), path() equals final_path(). Throws std::runtime_error; a second call is a no-op.
  void commit();

private:
  std::string final_, tmp_;
  bool committed_ = false;
};

}  // namespace clfdtd
