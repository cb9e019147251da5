// End-to-end: what `clfdtd run` does to the files around it when something goes wrong: the exit
// code, one message naming the path, and no loss of anybody's data. The program is started with
// fork/exec so that a test can limit it (file size) or signal it while it runs.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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

// A good earlier output at `dir`: a short completed run (on the reference backend, so that a
// case that skips without an OpenCL device gets as far as its own run).
void make_previous_output(const std::string& dir) {
  const auto r = run_clfdtd("run models/pec_cavity.ini --time.steps=3 --backend=reference --output.dir=" +
                            dir + " --quiet");
  REQUIRE_MESSAGE(r.code == 0, r.out);
  REQUIRE(report_of(dir)["status"] == "completed");
}

}  // namespace

// Item 5/12: a full disk (here: a file-size limit, the same errno path without root) used to be
// "VTK error code 28" after a multi-line dump, with exit 1.
TEST_CASE("a write the file system refuses: exit 5, one line with the path and the reason") {
  const std::string dir = scratch_dir("fsize");
  SpawnOptions opt;
  opt.max_file_bytes = 4096;  // run.json fits; model.vti (24000 cells) does not
#ifdef CLFDTD_HAVE_VTK
  const std::string steps = "--time.steps=5", too_large = "model.vti";
#else
  // A build without VTK writes no model.vti: the probe series (3 values a row, written at the
  // first batch of 256 steps) is the file that outgrows the limit.
  const std::string steps = "--time.steps=300", too_large = "probes.csv";
#endif
  // The reference engine: PoCL's kernel cache would meet the limit first.
  Child c = spawn_clfdtd({"run", "models/pec_cavity.ini", steps, "--backend=reference",
                          "--output.dir=" + dir, "--quiet"}, opt);
  const int code = c.wait();
  const std::string out = c.output();
  CHECK_MESSAGE(code == 5, out);
  CHECK_MESSAGE(out.find("File too large") != std::string::npos, out);
  CHECK_MESSAGE(out.find(too_large) != std::string::npos, out);
  CHECK_MESSAGE(out.find("VTK") == std::string::npos, out);  // no pipeline dump
  CHECK_FALSE(fs::exists(dir));  // the previous (here: no) output is not replaced
  fs::remove(c.log);
}

TEST_CASE("a name too long for the file system: exit 5 naming the path") {
  const std::string dir = "/tmp/" + std::string(300, 'n');
  const auto r = run_clfdtd("run models/pec_cavity.ini --time.steps=5 --output.dir=" + dir + " --quiet");
  CHECK_MESSAGE(r.code == 5, r.out);
  const auto lines = messages(r.out);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find("File name too long") != std::string::npos);
  CHECK(lines[0].find(dir) != std::string::npos);
}

// A 1 MiB tmpfs mounted at a scratch folder, for a real full disk (root, outside most
// containers' limits); "" with a message where it cannot be mounted (the caller skips).
namespace {
std::string mounted_tmpfs_1m(const std::string& tag) {
  if (::geteuid() != 0) {
    MESSAGE("skipped: mounting a small tmpfs needs root");
    return "";
  }
  const std::string mnt = scratch_dir(tag);
  fs::create_directories(mnt);
  if (std::system(("mount -t tmpfs -o size=1m clfdtd_test " + mnt + " 2>/dev/null").c_str()) != 0) {
    MESSAGE("skipped: cannot mount a tmpfs here");
    fs::remove_all(mnt);
    return "";
  }
  return mnt;
}
}  // namespace

// A real full disk, where the test may mount a small tmpfs (root, outside most containers' limits).
TEST_CASE("a full file system: exit 5, 'No space left on device' and the path, previous output kept") {
  const std::string mnt = mounted_tmpfs_1m("tmpfs");
  if (mnt.empty()) return;
  const std::string dir = mnt + "/out";
  const auto first = run_clfdtd("run models/pec_cavity.ini --time.steps=3 --output.dir=" + dir + " --quiet");
  CHECK_MESSAGE(first.code == 0, first.out);
  // Fill what is left, so the next run's first large file does not fit.
  std::system(("dd if=/dev/zero of=" + mnt + "/filler bs=4k 2>/dev/null").c_str());
  const auto r = run_clfdtd("run models/pec_cavity.ini --time.steps=3 --output.dir=" + dir + " --quiet");
  CHECK_MESSAGE(r.code == 5, r.out);
  CHECK_MESSAGE(r.out.find("No space left on device") != std::string::npos, r.out);
  CHECK_MESSAGE(r.out.find("VTK") == std::string::npos, r.out);
  CHECK(report_of(dir)["status"] == "completed");  // the previous output is whole
  CHECK(std::system(("umount " + mnt).c_str()) == 0);
  fs::remove_all(mnt);
}

// A file system that fills during the run: the space the run held for its last run.json
// (run.json.reserve) lets that report say "failed" and why, instead of staying at "running".
TEST_CASE("a file system that fills during the run: the partial run.json says failed, and why") {
#ifndef CLFDTD_HAVE_VTK
  MESSAGE("skipped: the snapshot that fills the disk needs VTK");
  return;
#endif
  const std::string mnt = mounted_tmpfs_1m("tmpfs_fills");
  if (mnt.empty()) return;
  const std::string dir = mnt + "/out";
  // pec_cavity's 24000 cells: a snapshot (~1.4 MB) does not fit beside model.vti in 1 MiB.
  const auto r = run_clfdtd("run models/pec_cavity.ini --time.steps=3 --snapshot.steps=2 --output.dir=" +
                            dir + " --quiet");
  CHECK_MESSAGE(r.code == 5, r.out);
  CHECK_MESSAGE(r.out.find("No space left on device") != std::string::npos, r.out);
  CHECK_FALSE(fs::exists(dir));
  REQUIRE(fs::exists(dir + ".partial/run.json"));
  const auto report = report_of(dir + ".partial");
  CHECK(report["status"] == "failed");
  CHECK(report["reason"].get<std::string>().find("No space left on device") != std::string::npos);
  CHECK_FALSE(fs::exists(dir + ".partial/run.json.reserve"));
  for (const auto& f : report["files"]) CHECK(f.get<std::string>() != "run.json.reserve");
  CHECK(std::system(("umount " + mnt).c_str()) == 0);
  fs::remove_all(mnt);
}

// Item 1: `--output.dir=victim` deleted a folder holding thesis.tex, exit 0.
TEST_CASE("a folder clfdtd did not write is refused with exit 2 and left as it was") {
  const std::string dir = scratch_dir("victim");
  fs::create_directories(dir);
  { std::ofstream(dir + "/thesis.tex") << "years of work"; }
  const auto r = run_clfdtd("run models/pec_cavity.ini --time.steps=5 --output.dir=" + dir + " --quiet");
  CHECK_MESSAGE(r.code == 2, r.out);
  const auto lines = messages(r.out);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find("'" + dir + "'") != std::string::npos);
  CHECK(lines[0].find("output.overwrite = true") != std::string::npos);
  CHECK(r.out.find("device ") == std::string::npos);  // refused before the device was set up
  CHECK(read_text(dir + "/thesis.tex") == "years of work");
  int beside = 0;  // no temporary folder, lock or partial output next to it
  for (const auto& e : fs::directory_iterator(fs::path(dir).parent_path()))
    beside += e.path().filename().string().rfind("victim", 0) == 0;
  CHECK(beside == 1);

  // output.overwrite = true is the explicit way to replace it.
  const auto forced = run_clfdtd("run models/pec_cavity.ini --time.steps=5 --output.overwrite=true "
                                 "--output.dir=" + dir + " --quiet");
  CHECK_MESSAGE(forced.code == 0, forced.out);
  CHECK_FALSE(fs::exists(dir + "/thesis.tex"));
  CHECK(report_of(dir)["status"] == "completed");
}

TEST_CASE("a file at output.dir is never replaced, even with output.overwrite") {
  const std::string dir = scratch_dir("model_as_output");
  fs::create_directories(dir);
  const std::string model = dir + "/model.ini";
  fs::copy_file("models/pec_cavity.ini", model);
  const std::string before = read_text(model);
  for (const char* force : {"false", "true"}) {
    CAPTURE(force);
    const auto r = run_clfdtd("run " + model + " --time.steps=5 --output.overwrite=" + force +
                              " --output.dir=" + model + " --quiet");
    CHECK_MESSAGE(r.code == 2, r.out);
    CHECK(r.out.find("is a file") != std::string::npos);
    CHECK(read_text(model) == before);
  }
  const auto dev = run_clfdtd("run " + model + " --time.steps=5 --output.overwrite=true "
                              "--output.dir=/dev/null --quiet");
  CHECK_MESSAGE(dev.code == 2, dev.out);
  CHECK(dev.out.find("is not a folder") != std::string::npos);
  CHECK(fs::is_character_file("/dev/null"));
}

TEST_CASE("a model file's output.dir of '..' or of its own folder is refused, even when forced") {
  const std::string dir = scratch_dir("hostile_model");
  fs::create_directories(dir + "/inner");
  { std::ofstream(dir + "/inner/keep.txt") << "keep"; }
  std::string text = read_text("models/pec_cavity.ini");
  const std::string key = "dir = out/pec_cavity";
  REQUIRE(text.find(key) != std::string::npos);
  for (const std::string& target : {std::string(".."), dir + "/inner", dir}) {
    CAPTURE(target);
    std::string hostile = text;
    hostile.replace(hostile.find(key), key.size(), "dir = " + target + "\noverwrite = true");
    { std::ofstream(dir + "/inner/m.ini") << hostile; }
    const auto r = run_clfdtd("run " + dir + "/inner/m.ini --time.steps=5 --quiet");
    CHECK_MESSAGE(r.code == 2, r.out);
    CHECK(read_text(dir + "/inner/keep.txt") == "keep");
  }
}

// Item 2: exit 3 replaced the previous good output with the broken one.
TEST_CASE("non-finite fields: exit 3 at the exact step, previous output kept, partial beside it") {
  const std::string dir = scratch_dir("nonfinite");
  make_previous_output(dir);
  const std::string previous = read_text(dir + "/run.json");
  // CLFDTD_TEST_NAN_AT_STEP=3: J of step 3 -> 4 is NaN, so E at the source is NaN from step 4.
  // The probe sits on the source's Ez sample.
  SpawnOptions opt;
  opt.env = {"CLFDTD_TEST_NAN_AT_STEP=3"};
  Child c = spawn_clfdtd({"run", "models/pec_cavity.ini", "--time.steps=50",
                          "--probe.p.position=0.043 0.031 0.052", "--probe.p.fields=Ez",
                          "--output.dir=" + dir, "--quiet"}, opt);
  const int code = c.wait();
  const std::string out = c.output();
  if (out.find("no OpenCL device found") != std::string::npos) return;
  CHECK_MESSAGE(code == 3, out);
  CHECK_MESSAGE(out.find("probe p.Ez first non-finite at step 4; fields non-finite at step 4") !=
                    std::string::npos, out);
  CHECK(out.find("'" + dir + ".partial'") != std::string::npos);
  CHECK(out.find("the previous output in '" + dir + "' was kept") != std::string::npos);
  CHECK(read_text(dir + "/run.json") == previous);
  const auto partial = report_of(dir + ".partial");
  CHECK(partial["status"] == "non-finite");
  CHECK(partial["steps_done"] == 4);
  CHECK(partial["program"] == "clfdtd");
  const std::string csv = read_text(dir + ".partial/probes.csv");
  CHECK(csv.find("\n3,") != std::string::npos);
  CHECK(csv.find("\n4,") != std::string::npos);  // the first non-finite row is written too
  fs::remove(c.log);
}

TEST_CASE("non-finite fields between field checks: the probe's step is exact, the fields' bounded") {
  const std::string dir = scratch_dir("nonfinite_late");
  SpawnOptions opt;
  opt.env = {"CLFDTD_TEST_NAN_AT_STEP=300"};
  Child c = spawn_clfdtd({"run", "models/pec_cavity.ini", "--time.steps=2000", "--backend=reference",
                          "--probe.p.position=0.043 0.031 0.052", "--probe.p.fields=Ez",
                          "--output.dir=" + dir, "--quiet"}, opt);
  const int code = c.wait();
  const std::string out = c.output();
  CHECK_MESSAGE(code == 3, out);
  CHECK_MESSAGE(out.find("probe p.Ez first non-finite at step 301; the fields, checked at intervals, "
                         "were finite at step ") != std::string::npos, out);
  CHECK(out.find(" and non-finite at step ") != std::string::npos);
  CHECK(out.find("'" + dir + "' was not created") != std::string::npos);
  CHECK_FALSE(fs::exists(dir));
  CHECK(report_of(dir + ".partial")["status"] == "non-finite");
  fs::remove(c.log);
}

namespace {

// Starts a run long enough to be stopped and waits until its output folder is being written.
Child start_long_run(const std::string& dir) {
  Child c = spawn_clfdtd({"run", "models/pec_cavity.ini", "--time.steps=2000000",
                          "--backend=reference", "--output.dir=" + dir, "--quiet"});
  const std::string tmp = dir + ".tmp-" + std::to_string(c.pid);
  for (int i = 0; i < 3000 && !fs::exists(tmp + "/probes.csv"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  REQUIRE_MESSAGE(fs::exists(tmp + "/probes.csv"), c.output());
  return c;
}

}  // namespace

// Item 3: a stop signal left "<dir>.tmp-<pid>" and no word about it.
// SIGPIPE (a closed pipe on the output, `clfdtd run ... | head`) used to kill the run outright,
// leaving "<dir>.tmp-<pid>" and no word (an audit found it).
TEST_CASE("SIGINT, SIGTERM, SIGHUP, SIGPIPE: exit 6, previous output kept, partial output beside it") {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
    CAPTURE(sig);
    const std::string dir = scratch_dir("signal_" + std::to_string(sig));
    make_previous_output(dir);
    const std::string previous = read_text(dir + "/run.json");
    Child c = start_long_run(dir);
    ::kill(c.pid, sig);
    const int code = c.wait();
    const std::string out = c.output();
    CHECK_MESSAGE(code == 6, out);
    const char* name = sig == SIGINT    ? "SIGINT"
                       : sig == SIGTERM ? "SIGTERM"
                       : sig == SIGHUP  ? "SIGHUP"
                                        : "SIGPIPE";
    CHECK_MESSAGE(out.find(std::string("interrupted by ") + name + " at step ") != std::string::npos, out);
    CHECK(out.find("'" + dir + ".partial'") != std::string::npos);
    CHECK(read_text(dir + "/run.json") == previous);
    const auto partial = report_of(dir + ".partial");
    CHECK(partial["status"] == "interrupted");
    CHECK(partial["steps_done"].get<long>() > 0);
    CHECK_FALSE(fs::exists(dir + ".tmp-" + std::to_string(c.pid)));
    CHECK_FALSE(fs::exists(dir + ".lock"));
    fs::remove(c.log);
  }
}

namespace {

// A model whose build takes seconds (the mesher tests each of 200 nested spheres against every
// cell of its box on a 200^3 grid: about 8 s on a 2-core CI machine) in a few MB of memory.
std::string write_slow_setup_model(const std::string& dir) {
  fs::create_directories(dir);
  const std::string path = dir + "/slow_setup.ini";
  std::ofstream f(path);
  f << "[grid]\nsize = 0.5 0.5 0.5\ncell_size = 0.0025\n[time]\nsteps = 10\n[boundary]\ntype = pec\n"
       "[material.glass]\neps_r = 4\n"
       "[source.feed]\ntype = dipole\naxis = z\nposition = 0.12 0.25 0.25\n"
       "waveform = gaussian_pulse\nfrequency = 1.5e9\n";
  for (int i = 0; i < 200; ++i)
    f << "[object.b" << i << "]\nshape = sphere\ncenter = 0.25 0.25 0.25\nradius = " << 0.2 - 0.0005 * i
      << "\nmaterial = glass\n";
  return path;
}

}  // namespace

// A stop signal during the model build used to wait for the whole setup to end.
TEST_CASE("SIGINT, SIGTERM during setup: exit 6 at once, nothing written, previous output kept") {
  const std::string model = write_slow_setup_model(scratch_dir("slow_setup_model"));
  for (const int sig : {SIGINT, SIGTERM}) {
    CAPTURE(sig);
    const std::string dir = scratch_dir("setup_signal_" + std::to_string(sig));
    make_previous_output(dir);
    const std::string previous = read_text(dir + "/run.json");
    Child c = spawn_clfdtd({"run", model, "--backend=reference", "--output.dir=" + dir});
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    ::kill(c.pid, sig);
    const int code = c.wait();
    const std::string out = c.output();
    CHECK_MESSAGE(code == 6, out);
    const std::string name = sig == SIGINT ? "SIGINT" : "SIGTERM";
    CHECK_MESSAGE(out.find("clfdtd: interrupted by " + name + " during setup: nothing was written") !=
                      std::string::npos, out);
    // The build had not ended: the summary it prints when it ends never came.
    CHECK_MESSAGE(out.find("grid       200 x 200 x 200") == std::string::npos, out);
    CHECK(read_text(dir + "/run.json") == previous);
    CHECK_FALSE(fs::exists(dir + ".partial"));
    CHECK_FALSE(fs::exists(dir + ".tmp-" + std::to_string(c.pid)));
    CHECK_FALSE(fs::exists(dir + ".lock"));
    fs::remove(c.log);
  }
}

TEST_CASE("a temporary folder left by a killed run becomes the partial output of the next run") {
  const std::string dir = scratch_dir("stale");
  Child killed = start_long_run(dir);
  ::kill(killed.pid, SIGKILL);  // cannot be caught: its temporary folder stays
  killed.wait();
  const std::string stale = dir + ".tmp-" + std::to_string(killed.pid);
  REQUIRE(fs::exists(stale));
  const auto r = run_clfdtd("run models/pec_cavity.ini --time.steps=3 --output.dir=" + dir + " --quiet");
  CHECK_MESSAGE(r.code == 0, r.out);
  CHECK_MESSAGE(r.out.find("as '" + dir + ".partial'") != std::string::npos, r.out);
  CHECK_FALSE(fs::exists(stale));
  CHECK(fs::exists(dir + ".partial/probes.csv"));
  // The killed run left "running"; the run that found it says what became of it.
  const auto found = report_of(dir + ".partial");
  CHECK(found["status"] == "failed");
  CHECK(found["reason"].get<std::string>().find("ended without finishing (killed or crashed; process " +
                                                std::to_string(killed.pid) + " no longer exists") !=
        std::string::npos);
  // steps_done: the last whole row of its probes.csv (null when none was flushed yet).
  {
    const std::string text = read_text(dir + ".partial/probes.csv");
    const std::size_t end = text.rfind('\n');                      // the last whole line ends here
    const std::size_t begin = text.rfind('\n', end == 0 ? 0 : end - 1);  // after the header's?
    const bool rows = end != std::string::npos && begin != std::string::npos;
    if (rows)
      CHECK(found["steps_done"].get<long>() == std::stol(text.substr(begin + 1)));
    else
      CHECK(found["steps_done"].is_null());
  }
  // A second killed run's folder: newer than "<dir>.partial", which holds only a run's files, so
  // it takes that name, as a run that stops does (the user reruns to see the latest).
  Child again = start_long_run(dir);
  ::kill(again.pid, SIGKILL);
  again.wait();
  const std::string stale2 = dir + ".tmp-" + std::to_string(again.pid);
  const auto r2 = run_clfdtd("run models/pec_cavity.ini --time.steps=3 --output.dir=" + dir + " --quiet");
  CHECK_MESSAGE(r2.code == 0, r2.out);
  CHECK_MESSAGE(r2.out.find("kept what a stopped run wrote (process " + std::to_string(again.pid) +
                            " no longer exists) as '" + dir +
                            ".partial', in place of the older partial output there") != std::string::npos,
                r2.out);
  CHECK_FALSE(fs::exists(stale2));
  CHECK(report_of(dir + ".partial")["reason"].get<std::string>().find(
            "process " + std::to_string(again.pid) + " no longer exists") != std::string::npos);
  // Killed and not yet reaped (a zombie, as when a shell reruns at once): gone all the same.
  Child zombie = start_long_run(dir);
  ::kill(zombie.pid, SIGKILL);
  siginfo_t info{};
  REQUIRE(::waitid(P_PID, static_cast<id_t>(zombie.pid), &info, WEXITED | WNOWAIT) == 0);
  const std::string stale3 = dir + ".tmp-" + std::to_string(zombie.pid);
  const auto r3 = run_clfdtd("run models/pec_cavity.ini --time.steps=3 --output.dir=" + dir + " --quiet");
  zombie.wait();
  CHECK_MESSAGE(r3.code == 0, r3.out);
  CHECK_MESSAGE(r3.out.find("as '" + dir + ".partial'") != std::string::npos, r3.out);
  CHECK_FALSE(fs::exists(stale3));
  // "<dir>.partial" holding a file of the user's: kept as it is; the killed run's folder goes to
  // "<dir>.partial-<pid>" instead of being removed.
  std::ofstream(dir + ".partial/notes.txt") << "mine";
  Child fourth = start_long_run(dir);
  ::kill(fourth.pid, SIGKILL);
  fourth.wait();
  const auto r4 = run_clfdtd("run models/pec_cavity.ini --time.steps=3 --output.dir=" + dir + " --quiet");
  CHECK_MESSAGE(r4.code == 0, r4.out);
  const std::string aside = dir + ".partial-" + std::to_string(fourth.pid);
  CHECK_MESSAGE(r4.out.find("as '" + aside + "'") != std::string::npos, r4.out);
  CHECK(fs::exists(aside + "/probes.csv"));
  CHECK(read_text(dir + ".partial/notes.txt") == "mine");
  fs::remove(fourth.log);
  fs::remove(killed.log);
  fs::remove(again.log);
  fs::remove(zombie.log);
}

// A review: a user's copies named like our leftovers were removed or taken over. A dated name no
// pid can have, an empty "<dir>.discard-<pid>" of a process that is gone and a completed output
// at "<dir>.partial" are the user's: left as they are.
TEST_CASE("a user's folders named like a run's leftovers stay as they are") {
  const std::string dir = scratch_dir("user_named");
  auto run3 = [&](const std::string& out) {
    const auto r = run_clfdtd("run models/pec_cavity.ini --time.steps=3 --output.dir=" + out + " --quiet");
    CHECK_MESSAGE(r.code == 0, r.out);
    return r.out;
  };
  run3(dir);
  fs::copy(dir, dir + ".old-20240101", fs::copy_options::recursive);
  fs::copy(dir, dir + ".tmp-20240102", fs::copy_options::recursive);
  const pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  ::waitpid(gone, nullptr, 0);
  const std::string empty_discard = dir + ".discard-" + std::to_string(gone);
  fs::create_directory(empty_discard);
  run3(dir + ".partial");  // a completed output the user made at that name
  Child stopped = start_long_run(dir);
  ::kill(stopped.pid, SIGINT);
  const int code = stopped.wait();
  CHECK_MESSAGE(code == 6, stopped.output());
  const std::string aside = dir + ".partial-" + std::to_string(stopped.pid);
  CHECK_MESSAGE(stopped.output().find("'" + aside + "'") != std::string::npos, stopped.output());
  CHECK(report_of(aside)["status"] == "interrupted");
  const std::string out = run3(dir);
  CHECK(report_of(dir + ".partial")["status"] == "completed");
  CHECK(fs::exists(dir + ".old-20240101/run.json"));
  CHECK(fs::exists(dir + ".tmp-20240102/run.json"));
  CHECK(fs::is_directory(empty_discard));
  CHECK_MESSAGE(out.find("20240101") == std::string::npos, out);
  fs::remove(stopped.log);
}

namespace {

// What is beside `dir` in its folder, by name: "<dir>" itself and every "<dir>.<something>".
std::vector<std::string> siblings(const std::string& dir) {
  std::vector<std::string> names;
  const std::string base = fs::path(dir).filename().string();
  for (const auto& e : fs::directory_iterator(fs::path(dir).parent_path())) {
    const std::string name = e.path().filename().string();
    if (name == base || name.rfind(base + ".", 0) == 0) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The folder a second signal's line names as holding this run's output ("... in '<path>'").
std::string named_folder(const std::string& out) {
  const std::string again = "clfdtd: interrupted again: exiting at once (exit 6); ";
  const std::size_t at = out.find(again);
  if (at == std::string::npos) return "";
  const std::string line = out.substr(at, out.find('\n', at) - at);
  const std::size_t open = line.find(" is in '");
  if (open == std::string::npos) return "";
  const std::size_t begin = open + 8, end = line.find('\'', begin);
  return line.substr(begin, end - begin);
}

}  // namespace

// A user review: a second Ctrl-C during the first one's cleanup named the older partial output,
// half removed, as this run's, and left it where no later run would clean it. The second signal
// comes here at each stage of the cleanup (CLFDTD_TEST_SIGNAL_AT raises it there), with an older
// partial output and a previous output beside the folder.
TEST_CASE("a second signal at any stage of the first one's cleanup: the line names this run's "
          "output, and the next run leaves nothing behind") {
  for (const std::string stage : {"stopped", "report-written", "partial-aside", "partial-moved",
                            "partial-removing", "partial-done"}) {
    CAPTURE(stage);
    const std::string dir = scratch_dir("second_signal_" + stage);
    make_previous_output(dir);
    const std::string previous = read_text(dir + "/run.json");
    Child older = start_long_run(dir);
    ::kill(older.pid, SIGINT);
    REQUIRE(older.wait() == 6);
    REQUIRE(report_of(dir + ".partial")["steps_planned"] == 2000000);

    // This run plans one step more, so its output is told from the older one by steps_planned.
    Child c = spawn_clfdtd({"run", "models/pec_cavity.ini", "--time.steps=2000001",
                            "--backend=reference", "--output.dir=" + dir, "--quiet"},
                           SpawnOptions{RLIM_INFINITY, {std::string("CLFDTD_TEST_SIGNAL_AT=") + stage}});
    const std::string tmp = dir + ".tmp-" + std::to_string(c.pid);
    for (int i = 0; i < 3000 && !fs::exists(tmp + "/probes.csv"); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    REQUIRE_MESSAGE(fs::exists(tmp + "/probes.csv"), c.output());
    ::kill(c.pid, SIGINT);
    const int code = c.wait();
    const std::string out = c.output();
    CHECK_MESSAGE(code == 6, out);
    const std::string named = named_folder(out);
    REQUIRE_MESSAGE(!named.empty(), out);
    // (1) where the line says: this run's output, its run.json saying how far it got.
    const auto report = report_of(named);
    CHECK_MESSAGE(report["steps_planned"] == 2000001, out);
    CHECK(report["status"] == "interrupted");
    CHECK(report["steps_done"].get<long>() > 0);
    CHECK(report["reason"].get<std::string>().find("at step " + std::to_string(report["steps_done"].get<long>())) !=
          std::string::npos);
    CHECK(read_text(dir + "/run.json") == previous);

    // (2) the next run keeps it as "<dir>.partial" and cleans the rest: nothing else is left.
    const auto next = run_clfdtd("run models/pec_cavity.ini --time.steps=3 --backend=reference "
                                 "--output.dir=" + dir + " --quiet");
    CHECK_MESSAGE(next.code == 0, next.out);
    const std::string base = fs::path(dir).filename().string();
    CHECK_MESSAGE(siblings(dir) == std::vector<std::string>({base, base + ".partial"}), next.out);
    // (3) "<dir>.partial" is this run's, whole.
    const auto kept = report_of(dir + ".partial");
    CHECK(kept["steps_planned"] == 2000001);
    CHECK(kept["steps_done"] == report["steps_done"]);
    CHECK(fs::exists(dir + ".partial/probes.csv"));
    CHECK(fs::exists(dir + ".partial/model.vti") == fs::exists(dir + "/model.vti"));
    fs::remove(older.log);
    fs::remove(c.log);
  }
}

TEST_CASE("a second signal while a completed run replaces the previous output: the line names "
          "the new output, and the next run removes what is left of the old") {
  for (const std::string stage : {"commit-moved", "commit-removing", "commit-done"}) {
    CAPTURE(stage);
    const std::string dir = scratch_dir("second_signal_" + stage);
    make_previous_output(dir);
    // The first signal comes once the loop has ended: the run completes all the same.
    Child c = spawn_clfdtd({"run", "models/pec_cavity.ini", "--time.steps=7", "--backend=reference",
                            "--output.dir=" + dir, "--quiet"},
                           SpawnOptions{RLIM_INFINITY, {std::string("CLFDTD_TEST_SIGNAL_AT=loop-end,") + stage}});
    const int code = c.wait();
    const std::string out = c.output();
    CHECK_MESSAGE(code == 6, out);
    CHECK_MESSAGE(out.find("the run had completed: its output is in '" + dir + "'") != std::string::npos, out);
    CHECK(named_folder(out) == dir);
    const auto report = report_of(dir);
    CHECK(report["status"] == "completed");
    CHECK(report["steps_planned"] == 7);
    const auto next = run_clfdtd("run models/pec_cavity.ini --time.steps=3 --backend=reference "
                                 "--output.dir=" + dir + " --quiet");
    CHECK_MESSAGE(next.code == 0, next.out);
    const std::string base = fs::path(dir).filename().string();
    CHECK_MESSAGE(siblings(dir) == std::vector<std::string>({base}), next.out);
    fs::remove(c.log);
  }
}

// A signal after the time loop used to be ignored while the analyses ran (a minute of mode solves
// for models/si_wire.ini); now the analyses not yet started are skipped and the run is interrupted.
TEST_CASE("a signal after the time loop skips the resonances: exit 6, the series kept, previous output kept") {
  const std::string dir = scratch_dir("signal_after_loop");
  make_previous_output(dir);
  const std::string previous = read_text(dir + "/run.json");
  Child c = spawn_clfdtd({"run", "models/pec_cavity.ini", "--time.steps=1500", "--backend=reference",
                          "--output.dir=" + dir},
                         SpawnOptions{RLIM_INFINITY, {"CLFDTD_TEST_SIGNAL_AT=loop-end"}});
  const int code = c.wait();
  const std::string out = c.output();
  CHECK_MESSAGE(code == 6, out);
  CHECK_MESSAGE(out.find("interrupted by SIGINT after the time loop, during its analyses") != std::string::npos, out);
  CHECK_MESSAGE(out.find("resonance  p.") == std::string::npos, out);  // no series was analysed
  CHECK(out.find("'" + dir + ".partial'") != std::string::npos);
  CHECK(read_text(dir + "/run.json") == previous);
  const auto partial = report_of(dir + ".partial");
  CHECK(partial["status"] == "interrupted");
  CHECK(partial["steps_done"] == 1500);
  CHECK(fs::exists(dir + ".partial/probes.csv"));
  CHECK_FALSE(fs::exists(dir + ".lock"));

  // The same run without the signal analyses its series and completes.
  const auto whole = run_clfdtd("run models/pec_cavity.ini --time.steps=1500 --backend=reference --output.dir=" +
                                dir + " --quiet");
  CHECK_MESSAGE(whole.code == 0, whole.out);
  CHECK(report_of(dir)["status"] == "completed");
  CHECK(fs::exists(dir + "/resonances.csv"));
  fs::remove(c.log);
}

// An audit found a user's notes in an earlier output folder deleted by the next run on it.
TEST_CASE("an earlier output holding the user's files too: exit 2 naming them, nothing lost") {
  const std::string dir = scratch_dir("foreign_files");
  make_previous_output(dir);
  const auto listed = report_of(dir)["files"];
  REQUIRE(listed.is_array());
  CHECK(std::find(listed.begin(), listed.end(), "probes.csv") != listed.end());
  std::ofstream(dir + "/notes.txt") << "mine";
  const std::string previous = read_text(dir + "/run.json");
  const auto r = run_clfdtd("run models/pec_cavity.ini --time.steps=3 --backend=reference "
                            "--output.dir=" + dir + " --quiet");
  CHECK_MESSAGE(r.code == 2, r.out);
  CHECK_MESSAGE(r.out.find("'notes.txt'") != std::string::npos, r.out);
  CHECK(read_text(dir + "/notes.txt") == "mine");
  CHECK(read_text(dir + "/run.json") == previous);
  // Once the notes are gone the folder is the run's alone, and is replaced.
  fs::remove(dir + "/notes.txt");
  const auto again = run_clfdtd("run models/pec_cavity.ini --time.steps=3 --backend=reference "
                                "--output.dir=" + dir + " --quiet");
  CHECK_MESSAGE(again.code == 0, again.out);
}

// Item 4: two runs committing to one folder raced ("Directory not empty", "out.old-<pid>").
TEST_CASE("a second run on a folder another run is writing: exit 2 naming it; nothing lost") {
  const std::string dir = scratch_dir("concurrent");
  make_previous_output(dir);
  const std::string previous = read_text(dir + "/run.json");
  Child first = start_long_run(dir);
  const auto second = run_clfdtd("run models/pec_cavity.ini --time.steps=3 --output.dir=" + dir + " --quiet");
  CHECK_MESSAGE(second.code == 2, second.out);
  CHECK_MESSAGE(second.out.find("process " + std::to_string(first.pid)) != std::string::npos, second.out);
  CHECK(fs::exists(dir + ".tmp-" + std::to_string(first.pid)));  // the first run carries on
  CHECK(read_text(dir + "/run.json") == previous);
  ::kill(first.pid, SIGTERM);
  CHECK(first.wait() == 6);
  CHECK(read_text(dir + "/run.json") == previous);
  fs::remove(first.log);
}

TEST_CASE("a folder the user may not write in: exit 5, 'Permission denied' and the path") {
  if (::geteuid() == 0) {
    MESSAGE("skipped: root may write anywhere");
    return;
  }
  const std::string parent = scratch_dir("read_only");
  fs::create_directories(parent);
  fs::permissions(parent, fs::perms::owner_read | fs::perms::owner_exec);
  const auto r = run_clfdtd("run models/pec_cavity.ini --time.steps=3 --backend=reference "
                            "--output.dir=" + parent + "/out --quiet");
  fs::permissions(parent, fs::perms::owner_all);
  CHECK_MESSAGE(r.code == 5, r.out);
  const auto lines = messages(r.out);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find("Permission denied") != std::string::npos);
  CHECK(lines[0].find(parent + "/out") != std::string::npos);
}
