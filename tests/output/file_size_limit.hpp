// Runs a write in a child process whose files may not grow past a limit (RLIMIT_FSIZE): writes
// beyond it fail with EFBIG, the same path as a full disk (ENOSPC) without needing root or a
// small file system. The child's stderr is captured, to show that nothing else was printed.
#pragma once
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "errors.hpp"

namespace clfdtd_test {

struct LimitedWrite {
  int code = -1;        // 0: no exception, 5: OutputError, 1: another exception, -1: crashed
  std::string message;  // the exception's what()
  std::string stderr_text;
};

inline LimitedWrite write_with_file_size_limit(rlim_t max_bytes, const std::function<void()>& body) {
  const std::string err_path = "/tmp/clfdtd_fsize_" + std::to_string(::getpid()) + ".err";
  int fds[2];
  if (::pipe(fds) != 0) return {};
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    ::signal(SIGXFSZ, SIG_IGN);  // else the first write past the limit kills the process
    const rlimit lim{max_bytes, max_bytes};
    ::setrlimit(RLIMIT_FSIZE, &lim);
    if (!std::freopen(err_path.c_str(), "w", stderr)) ::_exit(99);
    int code = 0;
    std::string what;
    try {
      body();
    } catch (const clfdtd::OutputError& e) {
      code = 5, what = e.what();
    } catch (const std::exception& e) {
      code = 1, what = e.what();
    }
    std::fflush(stderr);
    if (::write(fds[1], what.data(), what.size()) < 0) code = 98;
    ::_exit(code);
  }
  ::close(fds[1]);
  LimitedWrite r;
  char buf[512];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) r.message.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err_path);
  std::stringstream ss;
  ss << in.rdbuf();
  r.stderr_text = ss.str();
  std::remove(err_path.c_str());
  return r;
}

}  // namespace clfdtd_test
