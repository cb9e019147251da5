// End-to-end: what `clfdtd run` does to the files around it when something goes wrong: the exit
// code, one message naming the path, and no loss of anybody's data. The program is started with
// fork/exec so that a test can limit it (file size) or signal it while it runs.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"

using namespace clfdtd_test;
namespace fs = std::filesystem;

namespace {

// A `clfdtd` process started in the background, its stdout and stderr going to one log file.
struct Child {
  pid_t pid = -1;
  std::string log;

  // Waits for the process to end (at most `limit`; then it is killed) and returns its exit code,
  // -1 if a signal ended it.
  int wait(std::chrono::seconds limit = std::chrono::seconds(120)) {
    const auto until = std::chrono::steady_clock::now() + limit;
    int status = 0;
    while (::waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > until) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        return -2;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string output() const { return read_text(log); }
};

struct SpawnOptions {
  rlim_t max_file_bytes = RLIM_INFINITY;  // RLIMIT_FSIZE: writes beyond fail with EFBIG
  std::vector<std::string> env;           // "NAME=value" added to the environment
};

Child spawn_clfdtd(const std::vector<std::string>& args, const SpawnOptions& opt = {}) {
  static int counter = 0;
  Child c;
  c.log = "/tmp/clfdtd_safety_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".log";
  std::vector<std::string> argv_s{CLFDTD_BIN};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  c.pid = ::fork();
  if (c.pid == 0) {
    const int fd = ::open(c.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    if (opt.max_file_bytes != RLIM_INFINITY) {
      ::signal(SIGXFSZ, SIG_IGN);  // an ignored signal stays ignored across exec
      const rlimit lim{opt.max_file_bytes, opt.max_file_bytes};
      ::setrlimit(RLIMIT_FSIZE, &lim);
    }
    for (const std::string& e : opt.env) ::putenv(const_cast<char*>(e.c_str()));
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return c;
}

// Lines of the program's output that start with "clfdtd: " (its messages, not the summary).
std::vector<std::string> messages(const std::string& out) {
  std::vector<std::string> lines;
  std::string::size_type start = 0;
  while (start < out.size()) {
    auto end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    const std::string line = out.substr(start, end - start);
    if (line.rfind("clfdtd: ", 0) == 0) lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

nlohmann::json report_of(const std::string& dir) { return nlohmann::json::parse(read_text(dir + "/run.json")); }

// A good earlier output at `dir`: a short completed run.
void make_previous_output(const std::string& dir) {
  const auto r = run_clfdtd("run models/pec_cavity.ini --time.steps=3 --output.dir=" + dir + " --quiet");
  REQUIRE_MESSAGE(r.code == 0, r.out);
  REQUIRE(report_of(dir)["status"] == "completed");
}

}  // namespace

// Item 5/12: a full disk (here: a file-size limit, the same errno path without root) used to be
// "VTK error code 28" after a multi-line dump, with exit 1.
TEST_CASE("a write the file system refuses: exit 5, one line with the path and the reason") {
  const std::string dir = scratch_dir("fsize");
  SpawnOptions opt;
  opt.max_file_bytes = 4096;  // run.json fits, model.vti (24000 cells) does not
  // The reference engine: PoCL's kernel cache would meet the limit first.
  Child c = spawn_clfdtd({"run", "models/pec_cavity.ini", "--time.steps=5", "--backend=reference",
                          "--output.dir=" + dir, "--quiet"}, opt);
  const int code = c.wait();
  const std::string out = c.output();
  CHECK_MESSAGE(code == 5, out);
  CHECK_MESSAGE(out.find("File too large") != std::string::npos, out);
  CHECK_MESSAGE(out.find("model.vti") != std::string::npos, out);
  CHECK_MESSAGE(out.find("VTK") == std::string::npos, out);  // no pipeline dump
  CHECK_FALSE(fs::exists(dir));  // the previous (here: no) output is not replaced
  fs::remove(c.log);
}
