// A run's output directory, replaced as a whole and only when that loses nobody's data.
//
// check_output_path() decides whether "<dir>" may be replaced at all: only when it is missing, an
// empty folder, or an earlier clfdtd output holding nothing but what that run wrote
// (output_marker.hpp: run.json lists it); any other folder only with
// output.overwrite; never a file or link, "/", the home folder or a folder holding the current
// directory or the model file. It writes nothing, so it runs before any work.
//
// OutputDir then holds the lock "<dir>.lock" (one run per output folder at a time), cleans what
// dead runs left beside it ("<dir>.tmp-<pid>" becomes "<dir>.partial" where that name is free, else
// it is removed; "<dir>.old-<pid>" is restored as "<dir>" where "<dir>" is missing; only folders
// that are clfdtd outputs of nothing but a run's files, or empty temporaries), and creates "<dir>.tmp-<pid>",
// where every file is written. commit() swaps it in place of "<dir>" (rename-exchange where the
// file system has it); a run that did not complete calls keep_partial(), which moves it to
// "<dir>.partial" and leaves "<dir>" as it was.
#pragma once
#include <cstddef>
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

  // What the run wrote so far: every file under path() but run.json, relative to it ('/'
  // separated, sorted), for run.json's "files" (output_marker.hpp). Never throws: a folder that
  // cannot be read gives what could be read.
  std::vector<std::string> written_files() const;

  // Puts the temporary folder in place of final_path() and removes the previous output. Checks
  // again (under the lock) that final_path() may be replaced; where it no longer may (something
  // changed it during the run) that is an OutputError, and the output stays in path(). After
  // commit(), path() equals final_path(). Throws OutputError; a second call is a no-op.
  void commit();

  // Space for the run's last run.json on a file system that fills during the run: a file
  // "run.json.reserve" of `bytes` in path(), allocated now (posix_fallocate) and removed by
  // release_reserve() just before that write. Best effort: false (nothing left behind) where the
  // space is not there or the file system cannot allocate it.
  bool reserve_space(std::size_t bytes);
  // Removes the reserve (never throws; a no-op without one).
  void release_reserve();

  // For a run that did not complete: moves the temporary folder to "<dir>.partial" (replacing an
  // older one only when it is a clfdtd output of nothing but a run's files, else to
  // "<dir>.partial-<pid>") and returns where it
  // now is; final_path() is not touched. Throws OutputError (the files then stay in path()).
  std::string keep_partial();

private:
  void lock();
  void clean_stale();

  std::string final_, tmp_, current_, lock_path_;
  OutputPolicy policy_;
  int lock_fd_ = -1;
  bool committed_ = false;
  bool reserved_ = false;
  std::vector<std::string> notes_;
};

}  // namespace clfdtd
