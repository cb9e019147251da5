// OutputDir: see output_dir.hpp. Every folder involved is a sibling of "<dir>" in one parent, so
// each rename stays on one file system and is atomic. The lock serialises runs on one "<dir>";
// it is a file beside the folder (not inside it) because the folder itself is swapped.
#include "output/output_dir.hpp"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include "errors.hpp"
#include "output/output_marker.hpp"

namespace fs = std::filesystem;

namespace clfdtd {
namespace {

std::string in_quotes(const fs::path& p) { return "'" + p.string() + "'"; }
std::string in_quotes(const std::string& s) { return "'" + s + "'"; }

// "'a', 'b'" for foreign_entries' paths ("" stands for a folder that could not be read).
std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names)
    out += (out.empty() ? "" : ", ") + (n.empty() ? std::string("(unreadable)") : "'" + n + "'");
  return out;
}

[[noreturn]] void fail(const std::string& action, const fs::path& p, const std::error_code& ec) {
  throw OutputError(action, p.string(), ec.message());
}

// "out/" and "out" must name the same folder, or the siblings would land inside it.
fs::path normalised(const std::string& dir) {
  if (dir.empty()) throw OutputRefusedError("output.dir is empty: give the name of a folder");
  fs::path p = fs::path(dir).lexically_normal();
  if (!p.has_filename()) p = p.parent_path();
  if (p.empty() || p == "." || p == ".." || p.filename() == ".." || p == p.root_path())
    throw OutputRefusedError("output.dir '" + dir +
                             "' names the current folder, a folder above it or the root, which "
                             "clfdtd never replaces: choose a folder of its own, e.g. 'out'");
  return p;
}

// The type of what is at p (not following a link); "not found" is not an error here.
fs::file_type type_at(const fs::path& p) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(p, ec);
  if (st.type() == fs::file_type::not_found) return st.type();
  if (ec) fail("inspect", p, ec);
  return st.type();
}

bool present(const fs::path& p) { return type_at(p) != fs::file_type::not_found; }

// Whether `outer` is `inner` or one of its parents (both absolute, without links or dots).
bool contains(const fs::path& outer, const fs::path& inner) {
  auto o = outer.begin(), i = inner.begin();
  for (; o != outer.end(); ++o, ++i) {
    if (o->empty()) continue;  // a trailing separator
    if (i == inner.end() || *o != *i) return false;
  }
  return true;
}

fs::path resolved(const fs::path& p) {
  std::error_code ec;
  fs::path r = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? fs::path() : r;
}

// The folders clfdtd never replaces, even with output.overwrite: losing them loses more than any
// run can give back. Returns what the folder is, or "" when it is none of them.
std::string protected_role(const fs::path& dir, const OutputPolicy& policy) {
  const fs::path d = resolved(dir);
  if (d.empty()) return "";
  if (d == d.root_path()) return "the root folder";
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  if (!ec && contains(d, resolved(cwd))) return "the current folder or a folder holding it";
  if (const char* home = std::getenv("HOME"); home && *home && contains(d, resolved(home)))
    return "the home folder or a folder holding it";
  if (!policy.model_file.empty() && contains(d, resolved(policy.model_file)))
    return "a folder holding the model file '" + policy.model_file + "'";
  return "";
}

bool empty_folder(const fs::path& p) {
  std::error_code ec;
  const bool empty = fs::is_empty(p, ec);
  if (ec) fail("read", p, ec);
  return empty;
}

// rename(2) that fails with EEXIST instead of replacing what is at `to`, where the file system
// supports it (else plain rename; callers hold the lock, so nothing else creates `to` meanwhile).
int rename_noreplace(const std::string& from, const std::string& to) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) return -1;
  return ::rename(from.c_str(), to.c_str());
}

// Swaps two existing paths atomically. Returns false with errno EINVAL/ENOSYS/EOPNOTSUPP where the
// file system (or kernel) cannot; other errors are real.
bool swap_paths(const std::string& a, const std::string& b) {
  return ::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0;
}

bool exchange_unsupported(int err) { return err == EINVAL || err == ENOSYS || err == EOPNOTSUPP; }

std::string pid_text() { return std::to_string(static_cast<long>(::getpid())); }

// The largest pid this kernel hands out (/proc/sys/kernel/pid_max; at most 2^22 on Linux).
long pid_max() {
  std::ifstream in("/proc/sys/kernel/pid_max");
  long v = 0;
  return in >> v && v > 0 ? v : 4194304;
}

// "<base><tag><digits>": the pid, or -1 for any other name, and for digits no pid can have (a
// user's dated copy, "out.old-20240101", is not a leftover of ours).
long pid_suffix(const std::string& name, const std::string& prefix) {
  if (name.size() <= prefix.size() || name.size() > prefix.size() + 9) return -1;
  if (name.compare(0, prefix.size(), prefix) != 0) return -1;
  long pid = 0;
  for (std::size_t i = prefix.size(); i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return -1;
    pid = pid * 10 + (name[i] - '0');
  }
  return pid <= pid_max() ? pid : -1;
}

// A zombie (killed, not yet reaped by its parent: a shell loop that reruns at once) has ended
// too: /proc/<pid>/stat's state after the command's closing parenthesis is Z (or X).
bool process_zombie(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t close = stat.rfind(')');
  if (close == std::string::npos || close + 2 >= stat.size()) return false;
  const char state = stat[close + 2];
  return state == 'Z' || state == 'X';
}

bool process_gone(long pid) {
  if (pid == static_cast<long>(::getpid())) return true;  // an earlier process of our own pid
  if (::kill(static_cast<pid_t>(pid), 0) != 0) return errno == ESRCH;
  return process_zombie(pid);
}

std::string read_small(int fd) {
  char buf[64];
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

// Removes a folder of ours so that what is left at any moment is still recognisably ours: first
// all but its run.json and staging mark, then run.json (`halfway` runs just before), then the
// mark, then the folder, empty by then. A process that ends meanwhile leaves a folder the next
// run removes.
std::error_code remove_output_folder(const fs::path& dir, const std::function<void()>& halfway = {}) {
  std::error_code ec;
  std::vector<fs::path> entries;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().filename() != "run.json" && it->path().filename() != kStagingMark)
      entries.push_back(it->path());
  if (ec) return ec;
  for (const fs::path& p : entries) {
    fs::remove_all(p, ec);
    if (ec) return ec;
  }
  if (halfway) halfway();
  fs::remove(dir / "run.json", ec);
  if (!ec) fs::remove(dir / kStagingMark, ec);
  if (!ec) fs::remove(dir, ec);
  return ec;
}

// This process's mark, before the folder is renamed to its staging name where the folder is
// already ours or is to be removed, so that no moment finds it under that name unmarked.
bool mark_ours(const std::string& dir, bool discard = false) {
  return write_staging_mark(dir, static_cast<long>(::getpid()), discard);
}

// A folder that leaves its staging name for a user-facing one loses the mark.
void unmark(const std::string& dir) {
  std::error_code ec;
  fs::remove(fs::path(dir) / kStagingMark, ec);
}

// Renames a staged folder to a user-facing name (<dir>, <dir>.partial...) without replacing what
// is there, and removes its mark; false with errno where the rename failed.
bool hand_over(const std::string& from, const std::string& to) {
  if (rename_noreplace(from, to) != 0) return false;
  unmark(to);
  return true;
}

constexpr const char* kLockTag = "clfdtd ";  // a lock file holds "clfdtd <pid>\n"

// Creates the lock file `path` already holding `content`: written under a name of this process,
// then linked to `path` (or renamed without replacing, where the file system has no hard links),
// so that no other run ever sees it empty. Returns its descriptor; -1 with errno EEXIST when a
// file of that name exists; -2 with errno on other failures. Where neither way exists, the file
// is created in place and written at once.
int publish_lock(const std::string& path, const std::string& content) {
  auto written = [&](int fd) {
    return ::pwrite(fd, content.data(), content.size(), 0) == static_cast<ssize_t>(content.size());
  };
  // Closes fd, removes `name` and returns `result` with errno `err`.
  auto abandon = [](int fd, const std::string& name, int err, int result) {
    ::close(fd);
    ::unlink(name.c_str());
    errno = err;
    return result;
  };
  const std::string staged = path + ".new-" + pid_text();
  int fd = ::open(staged.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd >= 0) {
    if (!written(fd)) return abandon(fd, staged, errno, -2);
    if (::link(staged.c_str(), path.c_str()) == 0) {
      ::unlink(staged.c_str());
      return fd;
    }
    if (errno == EEXIST) return abandon(fd, staged, EEXIST, -1);
    if (::renameat2(AT_FDCWD, staged.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0)
      return fd;
    const int err = errno;
    if (err == EEXIST || !exchange_unsupported(err))
      return abandon(fd, staged, err, err == EEXIST ? -1 : -2);
    abandon(fd, staged, err, -2);  // neither way here: create it in place below
  }
  fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return errno == EEXIST ? -1 : -2;
  if (!written(fd)) return abandon(fd, path, errno, -2);
  return fd;
}

}  // namespace

void check_output_path(const std::string& final_dir, const OutputPolicy& policy) {
  const fs::path p = normalised(final_dir);
  const fs::file_type type = type_at(p);
  if (type == fs::file_type::not_found) return;
  if (type == fs::file_type::symlink)
    throw OutputRefusedError("output.dir " + in_quotes(p) +
                             " is a symbolic link, which clfdtd never replaces: give the folder "
                             "it points to, or another output.dir");
  if (type != fs::file_type::directory)
    throw OutputRefusedError("output.dir " + in_quotes(p) +
                             (type == fs::file_type::regular ? " is a file" : " is not a folder") +
                             "; clfdtd never replaces a file: choose another output.dir");
  if (const std::string role = protected_role(p, policy); !role.empty())
    throw OutputRefusedError("output.dir " + in_quotes(p) + " is " + role +
                             ", which clfdtd never replaces: choose a folder of its own");
  if (policy.overwrite || empty_folder(p)) return;
  if (is_clfdtd_output(p)) {
    // Replacing the folder replaces all it holds: what the user put in it beside a run's files
    // is not the run's to delete.
    std::vector<std::string> foreign = foreign_entries(p, 4);
    if (foreign.empty()) return;
    const bool more = foreign.size() > 3;
    if (more) foreign.pop_back();
    throw OutputRefusedError(
        "output.dir " + in_quotes(p) + " holds an earlier clfdtd output and also what that run did "
        "not write (" + listed(foreign) + (more ? ", ..." : "") +
        "); clfdtd replaces the folder as a whole, so it is not replaced: move those elsewhere, "
        "choose another output.dir, or set output.overwrite = true to delete them too");
  }
  throw OutputRefusedError("output.dir " + in_quotes(p) +
                           " is a folder that clfdtd did not write (it has no clfdtd run.json), "
                           "so it is not replaced: choose another output.dir, or set "
                           "output.overwrite = true to delete what it holds");
}

OutputDir::OutputDir(const std::string& final_dir, const OutputPolicy& policy) : policy_(policy) {
  check_output_path(final_dir, policy);
  const fs::path p = normalised(final_dir);
  final_ = p.string();
  tmp_ = final_ + ".tmp-" + pid_text();
  std::error_code ec;
  if (p.has_parent_path()) {
    fs::create_directories(p.parent_path(), ec);
    if (ec) fail("create", p.parent_path(), ec);
  }
  lock();
  try {
    check_output_path(final_, policy);  // again, now that no other run can change it
    clean_stale();
    if (!fs::create_directory(tmp_, ec)) {
      if (ec) fail("create", tmp_, ec);
      throw OutputError("create", tmp_, "something that is not clfdtd's is already there");
    }
    if (!write_staging_mark(tmp_, static_cast<long>(::getpid()))) {
      const int err = errno;
      fs::remove_all(tmp_, ec);
      throw OutputError::from_errno("write", (fs::path(tmp_) / kStagingMark).string(), err);
    }
  } catch (...) {
    ::unlink(lock_path_.c_str());
    ::close(lock_fd_);
    throw;
  }
  current_ = tmp_;
  where_ = "the previous output is untouched; what this run wrote is in " + in_quotes(tmp_) +
           ", which the next run on " + in_quotes(final_) + " keeps as " + in_quotes(final_ + ".partial") +
           " (or " + in_quotes(final_ + ".partial-" + pid_text()) +
           ", where that name holds what a run did not write)";
}

OutputDir::~OutputDir() {
  release_reserve();
  if (lock_fd_ < 0) return;
  ::unlink(lock_path_.c_str());  // before close: whoever opened it meanwhile sees it gone, retries
  ::close(lock_fd_);
}

void OutputDir::lock() {
  lock_path_ = final_ + ".lock";
  while (true) {
    // Created here it holds our pid from its first moment; one that exists must say "clfdtd"
    // (anything else, an empty file too, is not clfdtd's and is not taken over).
    bool created = true;
    int fd = publish_lock(lock_path_, kLockTag + pid_text() + "\n");
    if (fd == -1) {
      created = false;
      fd = ::open(lock_path_.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
      if (fd < 0 && errno == ENOENT) continue;  // its holder removed it meanwhile
    }
    if (fd < 0) throw OutputError::from_errno("create the lock file", lock_path_, errno);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      const std::string holder = read_small(fd);
      ::close(fd);
      if (err != EWOULDBLOCK) throw OutputError::from_errno("lock", lock_path_, err);
      std::string who = "another clfdtd run";
      if (holder.rfind(kLockTag, 0) == 0) {
        const std::string pid = holder.substr(std::strlen(kLockTag));
        who += " (process " + pid.substr(0, pid.find('\n')) + ")";
      }
      throw OutputRefusedError(who + " is writing to output.dir '" + final_ + "' (it holds '" +
                               lock_path_ + "'): wait for it to end, or choose another output.dir");
    }
    struct stat held {}, named {};
    if (::fstat(fd, &held) == 0 && ::stat(lock_path_.c_str(), &named) == 0 &&
        held.st_dev == named.st_dev && held.st_ino == named.st_ino) {
      const std::string content = read_small(fd);
      if (!created && content.rfind(kLockTag, 0) != 0) {
        ::close(fd);
        throw OutputRefusedError(
            "'" + lock_path_ + "' exists and is not a clfdtd lock file (clfdtd locks its "
            "output.dir with that name" +
            (content.empty() ? std::string("; clfdtd never leaves an empty one") : std::string()) +
            "): if no clfdtd run is writing to '" + final_ + "', move it, or choose another "
            "output.dir");
      }
      const std::string mine = kLockTag + pid_text() + "\n";
      if (::ftruncate(fd, 0) != 0 ||
          ::pwrite(fd, mine.data(), mine.size(), 0) != static_cast<ssize_t>(mine.size())) {
        const int err = errno;
        ::unlink(lock_path_.c_str());
        ::close(fd);
        throw OutputError::from_errno("write", lock_path_, err);
      }
      lock_fd_ = fd;
      return;
    }
    ::close(fd);  // its last holder removed it between our open and flock: lock the new one
  }
}

// Under the lock: what runs of this folder left when they were killed (SIGKILL, a second
// Ctrl-C, power loss). Discarded folders go first (their space), then previous outputs to restore,
// then temporaries oldest first, so that the newest run's output ends as "<dir>.partial".
void OutputDir::clean_stale() {
  const fs::path fin(final_);
  const fs::path parent = fin.has_parent_path() ? fin.parent_path() : fs::path(".");
  const std::string base = fin.filename().string();
  enum Kind { kDiscard, kOld, kTmp };
  struct Leftover {
    fs::path path;
    long pid;
    Kind kind;
    fs::file_time_type written;
  };
  std::vector<Leftover> found;
  std::error_code ec;
  for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::pair<const char*, Kind> tags[] = {{".discard-", kDiscard}, {".old-", kOld}, {".tmp-", kTmp}};
    for (const auto& [tag, kind] : tags) {
      const long pid = pid_suffix(name, base + tag);
      if (pid > 0 && process_gone(pid)) {
        std::error_code time_ec;
        const fs::file_time_type written = fs::last_write_time(it->path(), time_ec);
        found.push_back({it->path(), pid, kind, time_ec ? fs::file_time_type::min() : written});
      }
    }
  }
  if (ec) fail("read", parent, ec);
  std::sort(found.begin(), found.end(), [](const Leftover& a, const Leftover& b) {
    if (a.kind != b.kind) return a.kind < b.kind;
    if (a.written != b.written) return a.written < b.written;
    return a.pid < b.pid;
  });
  for (const Leftover& l : found) {
    const std::string gone = "process " + std::to_string(l.pid) + " no longer exists";
    // A temporary killed before its mark: an empty folder, nothing to lose.
    std::error_code ec_empty;
    if (l.kind == kTmp && type_at(l.path) == fs::file_type::directory && fs::is_empty(l.path, ec_empty) &&
        !ec_empty) {
      fs::remove(l.path, ec_empty);
      notes_.push_back("removed " + in_quotes(l.path) + ", an empty folder left by a run that was "
                       "stopped (" + gone + ")");
      continue;
    }
    // A name alone is no proof: only a folder with that process's staging mark is ours.
    if (!staged_by(l.path, l.pid)) {
      notes_.push_back("left " + in_quotes(l.path) + " alone: its " + gone +
                       ", but the folder has no staging mark of that process (a copy, or not "
                       "clfdtd's)");
      continue;
    }
    // A temporary killed before its first file: the mark alone.
    std::error_code ec_count;
    const auto count = std::distance(fs::directory_iterator(l.path, ec_count), fs::directory_iterator());
    // A temporary killed before its first file (the mark alone), or the previous output a
    // commit was removing under the temporary's name: removed, not kept.
    const bool bare = l.kind == kTmp && ((!ec_count && count == 1) || marked_for_removal(l.path, l.pid));
    if (!bare && l.kind != kDiscard && (!is_clfdtd_output(l.path) || !holds_only_clfdtd_files(l.path))) {
      notes_.push_back("left " + in_quotes(l.path) + " alone: its " + gone +
                       ", but it is not a clfdtd output holding only a run's files");
      continue;
    }
    if (l.kind == kOld && !present(fin)) {
      if (::rename(l.path.c_str(), final_.c_str()) == 0) {
        unmark(final_);
        notes_.push_back("restored the previous output " + in_quotes(fin) + " from " + in_quotes(l.path) +
                         " (the run replacing it was stopped; " + gone + ")");
        continue;
      }
      notes_.push_back("could not restore the previous output from " + in_quotes(l.path) + ": " +
                       std::strerror(errno));
      continue;
    }
    if (l.kind == kTmp && !bare) {
      mark_abandoned_report(l.path, "the run ended without finishing (killed or crashed; " + gone +
                                        " when a later run found its folder)");
      try {
        bool replaced = false;
        const std::string partial =
            move_to_partial(l.path.string(), std::to_string(l.pid), false, &replaced);
        notes_.push_back("kept what a stopped run wrote (" + gone + ") as " + in_quotes(partial) +
                         (replaced ? ", in place of the older partial output there" : ""));
      } catch (const std::exception& e) {
        notes_.push_back("left " + in_quotes(l.path) + " (" + gone + ") where it is: " + e.what());
      }
      continue;
    }
    const std::string what = l.kind == kDiscard ? "an older output that a stopped run was removing"
                             : l.kind == kOld   ? "a previous output that a stopped run had replaced"
                                                : "left by a run that was stopped";
    const std::error_code rm = remove_output_folder(l.path);
    if (rm)
      notes_.push_back("could not remove " + in_quotes(l.path) + " (" + gone + "): " + rm.message());
    else
      notes_.push_back("removed " + in_quotes(l.path) + ", " + what + " (" + gone + ")");
  }
}

std::string OutputDir::discard_path() const { return final_ + ".discard-" + pid_text(); }

bool OutputDir::move(const std::function<bool(std::string& where)>& m, const char* stage) {
  if (!stage || !observer_) {
    std::string ignored;
    const bool ok = m(stage ? where_ : ignored);
    return ok;
  }
  observer_->begin_move();
  std::string where = where_;
  const bool ok = m(where);
  const int err = errno;
  if (ok) where_ = where;
  observer_->end_move(ok ? stage : nullptr, where_);
  errno = err;
  return ok;
}

bool OutputDir::hand_over_as(const std::string& from, const std::string& to,
                             const std::string& where_after, const char* stage) {
  return move([&](std::string& where) {
    if (!hand_over(from, to)) return false;
    where = where_after;
    return true;
  }, stage);
}

std::string OutputDir::move_to_partial(const std::string& from, const std::string& owner_pid,
                                       bool observed, bool* replaced) {
  if (replaced) *replaced = false;
  const std::string partial = final_ + ".partial";
  auto stage = [&](const char* name) { return observed ? name : nullptr; };
  const std::string in_partial = "this run's partial output is in " + in_quotes(partial);
  if (!present(partial)) {
    if (!hand_over_as(from, partial, in_partial, stage("partial-moved")))
      throw OutputError::from_errno("rename '" + from + "' to", partial, errno);
    return partial;
  }
  const std::string discard = discard_path();
  if (!is_clfdtd_output(partial) || !holds_only_clfdtd_files(partial) || completed_output(partial) ||
      present(discard)) {
    // "<dir>.partial" holds what a run did not write, or a completed run's output (a run whose
    // output.dir was "<dir>.partial"): it stays, and so does what it holds.
    const std::string aside = partial + "-" + owner_pid;
    if (!hand_over_as(from, aside, "this run's partial output is in " + in_quotes(aside),
                      stage("partial-moved")))
      throw OutputError::from_errno("rename '" + from + "' to", aside, errno);
    return aside;
  }
  // The older partial output goes first to a name that says it is being removed: wherever the
  // process ends from here, the next run knows each folder for what it holds.
  if (!move([&](std::string& where) {
        mark_ours(partial, true);
        if (rename_noreplace(partial, discard) != 0) {
          const int err = errno;
          unmark(partial);
          errno = err;
          return false;
        }
        where = "the previous output is untouched; what this run wrote is in " + in_quotes(from) +
                ", which the next run on " + in_quotes(final_) + " keeps as " + in_quotes(partial) +
                "; that run also removes the older partial output, moved to " + in_quotes(discard);
        return true;
      }, stage("partial-aside")))
    throw OutputError::from_errno("move aside the older partial output", partial, errno);
  const std::string before = where_;
  const std::string replacing = in_partial + "; the older partial output, in " + in_quotes(discard) +
                                ", is being removed, and the next run on " + in_quotes(final_) +
                                " removes what is left of it";
  if (!hand_over_as(from, partial, replacing, stage("partial-moved"))) {
    const int err = errno;
    // The older one goes back: this process may still need the name ".discard-<pid>".
    hand_over_as(discard, partial, before, stage("partial-restored"));
    throw OutputError::from_errno("rename '" + from + "' to", partial, err);
  }
  if (replaced) *replaced = true;
  const std::error_code rm = remove_output_folder(discard, [&] {
    move([](std::string&) { return true; }, stage("partial-removing"));
  });
  if (rm) {
    notes_.push_back("could not remove the older partial output in " + in_quotes(discard) + ": " +
                     rm.message() + "; the next run on " + in_quotes(final_) + " removes it");
  } else {
    move([&](std::string& where) {
      where = in_partial;
      return true;
    }, stage("partial-done"));
  }
  return partial;
}

std::vector<std::string> OutputDir::written_files() const {
  std::vector<std::string> files;
  std::error_code ec;
  const fs::path root(current_);
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;  // one entry's trouble does not end the listing
    if (it->symlink_status(entry_ec).type() != fs::file_type::regular || entry_ec) continue;
    std::string rel = it->path().lexically_relative(root).generic_string();
    if (rel != "run.json" && rel != "run.json.part" && rel != kReserveFile && rel != kStagingMark)
      files.push_back(std::move(rel));
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string OutputDir::file(const std::string& name) const {
  return (fs::path(current_) / name).string();
}

void OutputDir::commit() {
  if (committed_) return;
  try {
    check_output_path(final_, policy_);
  } catch (const OutputRefusedError& e) {
    // Checked when the run started; what changed since is not the run's to replace. The run's
    // output stays where it is (the caller keeps it as the partial output).
    throw OutputError("replace", final_, std::string("it changed during the run: ") + e.what());
  }
  const std::string done = "the run had completed: its output is in " + in_quotes(final_);
  if (!present(final_)) {
    if (!hand_over_as(tmp_, final_, done, "commit-moved"))
      throw OutputError::from_errno("rename '" + tmp_ + "' to", final_, errno);
    committed_ = true;
    current_ = final_;
    return;
  }
  // The previous output ends under a name that says it is being removed, in the same move that
  // puts this run's in its place.
  // "<dir>.discard-<pid>" is this process's: an older partial output it could not remove when
  // it started. Removed now if it can be; else the previous output is removed from the
  // temporary's name below (rename_noreplace refuses the taken name).
  const std::string discard = discard_path();
  if (staged_by(discard, static_cast<long>(::getpid()))) remove_output_folder(discard);
  std::string previous;  // where the previous output is once the new one is in place
  std::string error;     // why the move failed (errno alone cannot say which step)
  int err = 0;
  const bool moved = move([&](std::string& where) {
    mark_ours(final_, true);  // the previous output, whatever name it has next
    if (swap_paths(tmp_, final_)) {
      unmark(final_);
      previous = rename_noreplace(tmp_, discard) == 0 ? discard : tmp_;
    } else {
      err = errno;
      if (!exchange_unsupported(err)) {
        unmark(final_);
        error = "exchange '" + tmp_ + "' with";
        return false;
      }
      const std::string old = final_ + ".old-" + pid_text();
      if (::rename(final_.c_str(), old.c_str()) != 0) {
        err = errno;
        unmark(final_);
        error = "move aside";
        return false;
      }
      if (::rename(tmp_.c_str(), final_.c_str()) != 0) {
        err = errno;
        error = "rename '" + tmp_ + "' to";
        if (::rename(old.c_str(), final_.c_str()) != 0)
          error += " (the previous output is in '" + old + "')";
        else
          unmark(final_);
        return false;
      }
      unmark(final_);
      previous = rename_noreplace(old, discard) == 0 ? discard : old;
    }
    where = done;
    if (previous == discard)
      where += "; the previous output, in " + in_quotes(discard) + ", is being removed, and the next "
               "run on " + in_quotes(final_) + " removes what is left of it";
    return true;
  }, "commit-moved");
  if (!moved) throw OutputError::from_errno(error, final_, err);
  committed_ = true;
  current_ = final_;
  const std::error_code ec = remove_output_folder(previous, [&] {
    if (previous == discard) move([](std::string&) { return true; }, "commit-removing");
  });
  if (ec) {
    notes_.push_back("could not remove the previous output, now in '" + previous +
                     "': " + ec.message() + "; remove it by hand");
    return;
  }
  move([&](std::string& where) {
    where = done;
    return true;
  }, "commit-done");
}

bool OutputDir::reserve_space(std::size_t bytes) {
  release_reserve();
  const std::string path = file(kReserveFile);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  const int err = ::posix_fallocate(fd, 0, static_cast<off_t>(bytes));
  ::close(fd);
  if (err != 0) {
    ::unlink(path.c_str());
    return false;
  }
  reserved_ = true;
  return true;
}

void OutputDir::release_reserve() {
  if (!reserved_) return;
  reserved_ = false;
  ::unlink(file(kReserveFile).c_str());
}

std::string OutputDir::keep_partial() {
  if (committed_) return current_;
  current_ = move_to_partial(tmp_, pid_text(), true);
  return current_;
}

}  // namespace clfdtd
