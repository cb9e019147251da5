// A run's output directory, replaced as a whole and only when that loses nobody's data.
//
// check_output_path() decides whether "<dir>" may be replaced at all: only when it is missing, an
// empty folder, or an earlier clfdtd output (output_marker.hpp); any other folder only with
// output.overwrite; never a file or link, "/", the home folder or a folder holding the current
// directory or the model file. It writes nothing, so it runs before any work.
//
// OutputDir then holds the lock "<dir>.lock" (one run per output folder at a time), removes what
// dead runs left beside it ("<dir>.tmp-<pid>", "<dir>.old-<pid>"), and creates "<dir>.tmp-<pid>",
// where every file is written. commit() swaps it in place of "<dir>" (rename-exchange where the
// file system has it); a run that did not complete calls keep_partial(), which moves it to
// "<dir>.partial" and leaves "<dir>" as it was.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace clfdtd {

struct OutputPolicy {
  bool overwrite = false;  // output.overwrite: replace a folder that is not a clfdtd output
  std::string model_file;  // the model file, never inside a folder that is replaced ("" = none)
};

// Throws OutputRefusedError naming the path (and output.overwrite where it would help) when
// `final_dir` may not be replaced, OutputError when the system cannot tell (name too long,
// permission denied). Writes nothing.
void check_output_path(const std::string& final_dir, const OutputPolicy& policy);

class OutputDir {
public:
  // Runs check_output_path, creates missing parents, takes the lock (OutputRefusedError naming the
  // other run's process when it is held), cleans what dead runs left, creates the temporary folder.
  // File-system failures throw OutputError.
  OutputDir(const std::string& final_dir, const OutputPolicy& policy = {});
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;
  // Releases the lock. An uncommitted temporary folder is left as it is (keep_partial() names it).
  ~OutputDir();

  const std::string& path() const { return current_; }     // where files are written now
  const std::string& final_path() const { return final_; }  // where they end up after commit()
  std::string file(const std::string& name) const;          // path() + "/" + name
  bool committed() const { return committed_; }
  // One line per thing done beside the folder since the last call (a stale temporary removed, a
  // previous output restored or left behind), for the caller to print.
  std::vector<std::string> take_notes() { return std::exchange(notes_, {}); }

  // Puts the temporary folder in place of final_path() and removes the previous output. Checks
  // again (under the lock) that final_path() may be replaced. After commit(), path() equals
  // final_path(). Throws OutputRefusedError / OutputError; a second call is a no-op.
  void commit();

  // For a run that did not complete: moves the temporary folder to "<dir>.partial" (replacing an
  // older one only when it is a clfdtd output, else to "<dir>.partial-<pid>") and returns where it
  // now is; final_path() is not touched. Throws OutputError (the files then stay in path()).
  std::string keep_partial();

private:
  void lock();
  void clean_stale();

  std::string final_, tmp_, current_, lock_path_;
  OutputPolicy policy_;
  int lock_fd_ = -1;
  bool committed_ = false;
  std::vector<std::string> notes_;
};

}  // namespace clfdtd
