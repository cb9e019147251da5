// A run's output directory, replaced as a whole and only when that loses nobody's data.
//
// check_output_path() decides whether "<dir>" may be replaced at all: only when it is missing, an
// empty folder, or an earlier clfdtd output holding nothing but what that run wrote
// (output_marker.hpp: run.json lists it); any other folder only with
// output.overwrite; never a file or link, "/", the home folder or a folder holding the current
// directory or the model file. It writes nothing, so it runs before any work.
//
// OutputDir then holds the lock "<dir>.lock" (one run per output folder at a time), cleans what
// dead runs left beside it, and creates "<dir>.tmp-<pid>", where every file is written. commit()
// swaps it in place of "<dir>" (rename-exchange where the file system has it); a run that did not
// complete calls keep_partial(), which moves it to "<dir>.partial" and leaves "<dir>" as it was.
//
// Every folder a process leaves when it ends at any moment (SIGKILL, a second Ctrl-C) has a name
// that says what it holds, so that the next run knows what to do with it:
//   "<dir>.tmp-<pid>"      what a run wrote: kept as the partial output, as keep_partial() would
//   "<dir>.old-<pid>"      a previous output moved aside by a commit: restored where "<dir>" is missing
//   "<dir>.discard-<pid>"  an older output being removed (the previous output a commit replaced, or
//                          the older partial output a newer one replaced): removed
// A folder is moved to ".discard-" before any of its files is removed, and its run.json is
// removed last, so that a folder half removed is still recognisably clfdtd's. Only folders that
// are clfdtd outputs of nothing but a run's files (or empty) are touched.
#pragma once
#include <cstddef>
#include <functional>
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
  // Follows the folders as they move (commit, keep_partial): each move is made between
  // begin_move() and end_move(), whose `where` says where this run's output then is and what the
  // next run on the folder does with what is left (run_command makes it the line a second
  // Ctrl-C prints, and keeps that signal from ending the process between the move and the line).
  // `stage` names the point (tests: CLFDTD_TEST_SIGNAL_AT): "partial-moved", "partial-aside" (an
  // older partial output moved to ".discard-"), "partial-removing" (that folder half removed: its
  // run.json alone left), "partial-done", "commit-moved", "commit-removing", "commit-done".
  class MoveObserver {
  public:
    virtual ~MoveObserver() = default;
    virtual void begin_move() = 0;
    virtual void end_move(const char* stage, const std::string& where) = 0;
  };

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
  void set_observer(MoveObserver* observer) { observer_ = observer; }
  // Where this run's output is now and what becomes of it if the process ends here, in words
  // (the text end_move() last gave; at first: the temporary folder, kept by the next run).
  const std::string& where() const { return where_; }

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
  // Moves `from` (this run's temporary folder, or a dead run's) to "<dir>.partial" as
  // keep_partial() does: an older partial output there that holds only a run's files is moved to
  // "<dir>.discard-<pid>" and removed; one that holds more stays, and `from` goes to
  // "<dir>.partial-<owner_pid>". `observed`: keep_partial (the observer hears each move); else
  // clean_stale. Returns where `from` went (`replaced`: an older partial output was removed for
  // it); throws OutputError where it could not move.
  std::string move_to_partial(const std::string& from, const std::string& owner_pid, bool observed,
                              bool* replaced = nullptr);
  // A move, made by `m` (true on success, which also sets the sentence saying where the output
  // then is), between the observer's begin_move and end_move; without `stage` nobody hears of it.
  bool move(const std::function<bool(std::string& where)>& m, const char* stage);
  // move() of one folder from `from` to `to` (hand_over), after which the output is `where_after`.
  bool hand_over_as(const std::string& from, const std::string& to, const std::string& where_after,
                    const char* stage);
  std::string discard_path() const;  // "<dir>.discard-<pid>"

  std::string final_, tmp_, current_, lock_path_;
  OutputPolicy policy_;
  int lock_fd_ = -1;
  bool committed_ = false;
  bool reserved_ = false;
  std::vector<std::string> notes_;
  MoveObserver* observer_ = nullptr;
  std::string where_;
};

}  // namespace clfdtd
