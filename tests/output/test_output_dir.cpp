// The output folder: what may be replaced (only clfdtd's own outputs, unless forced; never a file
// or a folder holding the home, the current folder or the model file), the commit, the partial
// output of a run that did not complete, the lock, and what dead runs left beside the folder.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "errors.hpp"
#include "output/output_dir.hpp"
#include "output/output_marker.hpp"

namespace fs = std::filesystem;
using namespace clfdtd;

namespace {

fs::path scratch(const std::string& tag) {
  const fs::path p = fs::temp_directory_path() /
                     ("clfdtd_test_output_dir_" + std::to_string(::getpid()) + "_" + tag);
  fs::remove_all(p);
  fs::create_directories(p);
  return fs::canonical(p);
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void touch(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

// A folder as a run of this version leaves it: run.json with the program's name.
void make_clfdtd_output(const fs::path& dir, const std::string& tag,
                        const std::string& status = "completed") {
  fs::create_directories(dir);
  touch(dir / "run.json", "{\"program\": \"clfdtd\", \"status\": \"" + status + "\"}\n");
  touch(dir / "probes.csv", tag);
}

// A pid that belonged to a process that has ended (a child that exited and was reaped).
long dead_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return static_cast<long>(pid);
}

std::string refusal(const std::string& dir, const OutputPolicy& policy = {}) {
  try {
    check_output_path(dir, policy);
  } catch (const OutputRefusedError& e) {
    return e.what();
  }
  return "";
}

int entries(const fs::path& dir) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) (void)e, ++n;
  return n;
}

}  // namespace

TEST_CASE("OutputDir: commit replaces an earlier clfdtd output as a whole") {
  const fs::path root = scratch("commit");
  const fs::path fin = root / "nested" / "out";
  make_clfdtd_output(fin, "old run");
  // What the earlier run listed as its own is replaced with it, in subfolders too.
  fs::create_directories(fin / "monitors");
  touch(fin / "stale.txt", "old run");
  touch(fin / "monitors" / "flux.csv", "old run");
  touch(fin / "run.json", "{\"program\": \"clfdtd\", \"status\": \"completed\", \"files\": "
                          "[\"probes.csv\", \"stale.txt\", \"monitors/flux.csv\"]}\n");
  {
    OutputDir dir((fin.string() + "/"));  // a trailing slash names the same folder
    CHECK(dir.final_path() == fin.string());
    CHECK(dir.path() == fin.string() + ".tmp-" + std::to_string(::getpid()));
    CHECK(fs::is_directory(dir.path()));
    CHECK(fs::exists(fin.string() + ".lock"));  // held for the whole run
    touch(dir.file("new.txt"), "new run");
    CHECK(fs::exists(fin / "stale.txt"));  // nothing touched before commit
    CHECK_FALSE(dir.committed());
    dir.commit();
    CHECK(dir.committed());
    CHECK(dir.path() == dir.final_path());
    dir.commit();  // second call is harmless
  }
  CHECK(slurp(fin / "new.txt") == "new run");
  CHECK_FALSE(fs::exists(fin / "stale.txt"));
  CHECK_FALSE(fs::exists(fin / "monitors"));
  CHECK_FALSE(fs::exists(fin / kStagingMark));  // the committed output is the user's
  CHECK(entries(fin.parent_path()) == 1);  // no .tmp-, .old- or .lock left beside it
  fs::remove_all(root);
}

// A review: the staging mark was written with a plain open, through a link a replaced folder
// (output.overwrite) may hold.
TEST_CASE("OutputDir: the staging mark is never written through a link") {
  const fs::path root = scratch("mark_link");
  const fs::path fin = root / "out";
  fs::create_directories(fin);
  touch(root / "elsewhere.txt", "keep me");
  fs::create_symlink(root / "elsewhere.txt", fin / kStagingMark);
  {
    OutputDir dir(fin.string(), OutputPolicy{true, ""});
    touch(dir.file("x"), "1");
    dir.commit();
  }
  CHECK(slurp(root / "elsewhere.txt") == "keep me");
  CHECK(slurp(fin / "x") == "1");
  fs::remove_all(root);
}

TEST_CASE("OutputDir: a missing folder and its parents are created at commit") {
  const fs::path root = scratch("missing");
  const fs::path fin = root / "a" / "b" / "out";
  {
    OutputDir dir(fin.string());
    touch(dir.file("x"), "1");
    CHECK_FALSE(fs::exists(fin));
    dir.commit();
  }
  CHECK(slurp(fin / "x") == "1");
  CHECK(entries(fin.parent_path()) == 1);
  fs::remove_all(root);
}

// Issue 16 item 1: `--output.dir=victim` deleted a folder holding thesis.tex.
TEST_CASE("check_output_path: only clfdtd's own outputs are replaced unless forced") {
  const fs::path root = scratch("check");
  CHECK(refusal((root / "absent").string()).empty());
  fs::create_directories(root / "empty");
  CHECK(refusal((root / "empty").string()).empty());  // nothing in it to lose
  make_clfdtd_output(root / "ours", "x");
  CHECK(refusal((root / "ours").string()).empty());
  // An output of a version before "program": clfdtd's run.json keys beside a model.vti.
  fs::create_directories(root / "older");
  touch(root / "older" / "run.json", "{\"cells\": [1, 1, 1], \"steps_planned\": 5}");
  touch(root / "older" / "model.vti", "<VTKFile/>");
  CHECK(refusal((root / "older").string()).empty());

  fs::create_directories(root / "victim");
  touch(root / "victim" / "thesis.tex", "years of work");
  const std::string why = refusal((root / "victim").string());
  CHECK(why.find("'" + (root / "victim").string() + "'") != std::string::npos);
  CHECK(why.find("output.overwrite = true") != std::string::npos);
  // Someone else's run.json is not a marker either.
  fs::create_directories(root / "other");
  touch(root / "other" / "run.json", "{\"program\": \"other\"}");
  CHECK_FALSE(refusal((root / "other").string()).empty());
  CHECK_FALSE(is_clfdtd_output(root / "other"));
  // output.overwrite forces a folder...
  CHECK(refusal((root / "victim").string(), {true, ""}).empty());
  // ...but never a file or a link, whatever the policy.
  touch(root / "model.ini", "[grid]\n");
  for (const bool force : {false, true}) {
    CAPTURE(force);
    CHECK(refusal((root / "model.ini").string(), {force, ""}).find("is a file") != std::string::npos);
    fs::create_directory_symlink(root / "ours", root / "link");
    CHECK(refusal((root / "link").string(), {force, ""}).find("symbolic link") != std::string::npos);
    fs::remove(root / "link");
  }
  CHECK(slurp(root / "victim" / "thesis.tex") == "years of work");
  fs::remove_all(root);
}

// An audit found notes a user kept in an earlier output folder deleted with it by the next run.
TEST_CASE("check_output_path: an earlier output that also holds the user's files is not replaced") {
  const fs::path root = scratch("foreign");
  const fs::path out = root / "out";
  make_clfdtd_output(out, "x");
  fs::create_directories(out / "snapshots");
  touch(out / "snapshots" / "fields_10.vti", "x");
  touch(out / "run.json", "{\"program\": \"clfdtd\", \"files\": [\"probes.csv\", "
                          "\"snapshots/fields_10.vti\"]}");
  CHECK(refusal(out.string()).empty());
  CHECK(foreign_entries(out).empty());
  touch(out / "notes.txt", "mine");
  fs::create_directories(out / "pics");
  touch(out / "pics" / "a.png", "mine");
  touch(out / "snapshots" / "fields_20.vti", "not listed");
  std::vector<std::string> foreign = foreign_entries(out, 10);
  std::sort(foreign.begin(), foreign.end());  // in the order the folder lists them
  CHECK(foreign == std::vector<std::string>{"notes.txt", "pics", "snapshots/fields_20.vti"});
  const std::string why = refusal(out.string());
  CHECK_MESSAGE(why.find("'notes.txt'") != std::string::npos, why);
  CHECK(why.find("output.overwrite = true") != std::string::npos);
  CHECK(refusal(out.string(), {true, ""}).empty());  // forced: the user asked for it
  // Without the list (a run killed before it ended, or an older version): a run's names only.
  touch(out / "run.json", "{\"program\": \"clfdtd\"}");
  foreign = foreign_entries(out, 10);
  std::sort(foreign.begin(), foreign.end());
  CHECK(foreign == std::vector<std::string>{"notes.txt", "pics"});
  fs::remove(out / "notes.txt");
  fs::remove_all(out / "pics");
  CHECK(refusal(out.string()).empty());
  // ... with the monitor files its run.json names, and the cylindrical series.
  fs::create_directories(out / "monitors");
  touch(out / "monitors" / "flux.csv", "x");
  touch(out / "fields_m1.pvd", "x");
  touch(out / "snapshots" / "fields_20_m1.vti", "x");
  touch(out / "snapshots" / "fields_20_3d.vts", "x");
  CHECK(foreign_entries(out) == std::vector<std::string>{"monitors/flux.csv"});
  touch(out / "run.json", "{\"program\": \"clfdtd\", \"monitors\": [{\"file\": \"monitors/flux.csv\"}]}");
  CHECK(foreign_entries(out).empty());
  touch(out / "snapshots" / "fields_20_m1_notes.vti", "x");
  CHECK(foreign_entries(out) == std::vector<std::string>{"snapshots/fields_20_m1_notes.vti"});
  // A list that is not a list of names is no proof of anything.
  touch(out / "run.json", "{\"program\": \"clfdtd\", \"files\": [1]}");
  CHECK_FALSE(foreign_entries(out).empty());
  CHECK(slurp(out / "probes.csv") == "x");
  fs::remove_all(root);
}

TEST_CASE("OutputDir: written_files lists what the run wrote, run.json aside") {
  const fs::path root = scratch("written");
  OutputDir dir((root / "out").string());
  touch(dir.file("run.json"), "{}");
  touch(dir.file("probes.csv"), "1");
  fs::create_directories(fs::path(dir.path()) / "snapshots");
  touch(dir.file("snapshots/fields_5.vti"), "1");
  CHECK(dir.written_files() == std::vector<std::string>{"probes.csv", "snapshots/fields_5.vti"});
  fs::remove_all(root);
}

TEST_CASE("OutputDir: the space held for the last run.json is never listed and goes when released") {
  const fs::path root = scratch("reserve");
  {
    OutputDir dir((root / "out").string());
    touch(dir.file("run.json"), "{\"program\": \"clfdtd\", \"status\": \"running\"}\n");
    REQUIRE(dir.reserve_space(40000));
    const fs::path reserve = fs::path(dir.path()) / "run.json.reserve";
    CHECK(fs::file_size(reserve) == 40000);
    CHECK(dir.written_files().empty());
    CHECK(holds_only_clfdtd_files(dir.path()));  // a killed run's folder stays recognisable
    dir.release_reserve();
    CHECK_FALSE(fs::exists(reserve));
    dir.release_reserve();  // a second release is a no-op
    REQUIRE(dir.reserve_space(100));
    CHECK(fs::exists(reserve));
    touch(dir.file("probes.csv"), "1");
    dir.commit();
    CHECK(fs::exists(root / "out" / "run.json.reserve"));  // the caller releases before its last write
  }
  // The destructor releases what the caller did not.
  CHECK_FALSE(fs::exists(root / "out" / "run.json.reserve"));
  // A killed run's report is marked failed, and its reserve goes with that rewrite.
  touch(root / "out" / "run.json", "{\"program\": \"clfdtd\", \"status\": \"running\"}\n");
  touch(root / "out" / "run.json.reserve", std::string(1000, '\0'));
  CHECK(mark_abandoned_report(root / "out", "killed"));
  CHECK_FALSE(fs::exists(root / "out" / "run.json.reserve"));
  CHECK(slurp(root / "out" / "run.json").find("\"failed\"") != std::string::npos);
  fs::remove_all(root);
}

TEST_CASE("check_output_path: '.', '..', '/', the home folder and folders holding the cwd or model never") {
  const fs::path root = scratch("never");
  const OutputPolicy force{true, ""};
  for (const char* dir : {"", ".", "..", "./", "a/..", "/", "//", "x/../.."}) {
    CAPTURE(dir);
    CHECK_FALSE(refusal(dir, force).empty());
  }
  // A model file from someone else with `dir = ..` or an absolute path: the folder of the model.
  fs::create_directories(root / "models");
  touch(root / "models" / "m.ini", "[grid]\n");
  const OutputPolicy with_model{true, (root / "models" / "m.ini").string()};
  CHECK(refusal((root / "models").string(), with_model).find("model file") != std::string::npos);
  CHECK(refusal(root.string(), with_model).find("model file") != std::string::npos);
  // The current folder and every folder above it.
  const fs::path cwd = fs::current_path();
  fs::create_directories(root / "here" / "deeper");
  fs::current_path(root / "here" / "deeper");
  CHECK(refusal((root / "here").string(), force).find("current folder") != std::string::npos);
  CHECK(refusal("../../here", force).find("current folder") != std::string::npos);
  fs::current_path(cwd);
  // The home folder and folders holding it.
  const char* old_home = std::getenv("HOME");
  const std::string saved = old_home ? old_home : "";
  fs::create_directories(root / "home" / "user");
  ::setenv("HOME", (root / "home" / "user").c_str(), 1);
  CHECK(refusal((root / "home" / "user").string(), force).find("home folder") != std::string::npos);
  CHECK(refusal((root / "home").string(), force).find("home folder") != std::string::npos);
  if (old_home) ::setenv("HOME", saved.c_str(), 1);
  else ::unsetenv("HOME");
  fs::remove_all(root);
}

TEST_CASE("check_output_path: a name the system cannot take is an OutputError, not a refusal") {
  const std::string too_long = (fs::temp_directory_path() / std::string(300, 'a')).string();
  try {
    check_output_path(too_long, {});
    FAIL("expected an OutputError");
  } catch (const OutputError& e) {
    CHECK(std::string(e.what()).find("File name too long") != std::string::npos);
  }
}

// Issue 16 item 2: a run that stopped used to replace the previous good output.
TEST_CASE("OutputDir: keep_partial leaves the previous output and moves beside it") {
  const fs::path root = scratch("partial");
  const fs::path fin = root / "out";
  make_clfdtd_output(fin, "good");
  std::string partial;
  {
    OutputDir dir(fin.string());
    make_clfdtd_output(dir.path(), "first partial", "interrupted");
    partial = dir.keep_partial();
  }
  CHECK(partial == fin.string() + ".partial");
  CHECK(slurp(fin / "probes.csv") == "good");
  CHECK(slurp(fs::path(partial) / "probes.csv") == "first partial");
  {  // a second one replaces the older partial output, which is clfdtd's
    OutputDir dir(fin.string());
    make_clfdtd_output(dir.path(), "second partial", "interrupted");
    CHECK(dir.keep_partial() == partial);
  }
  CHECK(slurp(fs::path(partial) / "probes.csv") == "second partial");
  CHECK(entries(root) == 2);  // out and out.partial
  // A "<dir>.partial" that is not clfdtd's is left alone: the partial output goes elsewhere.
  fs::remove_all(partial);
  fs::create_directories(partial);
  touch(fs::path(partial) / "notes.txt", "mine");
  {
    OutputDir dir(fin.string());
    make_clfdtd_output(dir.path(), "third", "interrupted");
    CHECK(dir.keep_partial() == partial + "-" + std::to_string(::getpid()));
  }
  CHECK(slurp(fs::path(partial) / "notes.txt") == "mine");
  CHECK(slurp(fin / "probes.csv") == "good");
  // An older partial output of a run stopped before its first snapshot: its snapshots/ folder
  // is empty and in no list, and it is still the run's (a review found such partial outputs
  // never replaced, piling up as "<dir>.partial-<pid>").
  fs::remove_all(partial);
  fs::remove_all(partial + "-" + std::to_string(::getpid()));
  make_clfdtd_output(partial, "stopped early", "interrupted");
  fs::create_directories(fs::path(partial) / "snapshots");
  touch(fs::path(partial) / "run.json", "{\"program\": \"clfdtd\", \"files\": [\"probes.csv\"]}");
  {
    OutputDir dir(fin.string());
    make_clfdtd_output(dir.path(), "fifth", "interrupted");
    CHECK(dir.keep_partial() == partial);
  }
  CHECK(slurp(fs::path(partial) / "probes.csv") == "fifth");
  // Nor is an older partial output in which the user keeps files of their own.
  fs::remove_all(partial);
  fs::remove_all(partial + "-" + std::to_string(::getpid()));
  make_clfdtd_output(partial, "older partial", "interrupted");
  touch(fs::path(partial) / "notes.txt", "mine too");
  {
    OutputDir dir(fin.string());
    make_clfdtd_output(dir.path(), "fourth", "interrupted");
    CHECK(dir.keep_partial() == partial + "-" + std::to_string(::getpid()));
  }
  CHECK(slurp(fs::path(partial) / "notes.txt") == "mine too");
  fs::remove_all(root);
}

// Issue 16 item 4: two runs committing to one folder raced and stranded "out.old-<pid>".
TEST_CASE("OutputDir: a second run on a locked folder is refused, naming the other process") {
  const fs::path root = scratch("lock");
  const fs::path fin = root / "out";
  OutputDir first(fin.string());
  try {
    OutputDir second(fin.string());
    FAIL("expected a refusal");
  } catch (const OutputRefusedError& e) {
    const std::string what = e.what();
    CHECK(what.find("process " + std::to_string(::getpid())) != std::string::npos);
    CHECK(what.find(fin.string()) != std::string::npos);
  }
  CHECK(fs::exists(first.path()));  // the first run is not disturbed
  first.commit();
  CHECK(fs::is_directory(fin));
  // A file of that name that is not a clfdtd lock is not taken over.
  fs::remove_all(root);
  fs::create_directories(root);
  touch(root / "out.lock", "my lock notes");
  CHECK_THROWS_AS(OutputDir(fin.string()), OutputRefusedError);
  CHECK(slurp(root / "out.lock") == "my lock notes");
  // Nor an empty one (it used to be taken over and deleted at the end of the run).
  touch(root / "out.lock", "");
  try {
    OutputDir dir(fin.string());
    FAIL("expected a refusal");
  } catch (const OutputRefusedError& e) {
    CHECK(std::string(e.what()).find("empty") != std::string::npos);
  }
  CHECK(fs::exists(root / "out.lock"));
  CHECK(slurp(root / "out.lock").empty());
  // A clfdtd lock whose process is gone is taken over.
  touch(root / "out.lock", "clfdtd " + std::to_string(dead_pid()) + "\n");
  {
    OutputDir dir(fin.string());
    CHECK(slurp(root / "out.lock") == "clfdtd " + std::to_string(::getpid()) + "\n");
  }
  CHECK_FALSE(fs::exists(root / "out.lock"));
  fs::remove_all(root);
}

// Issue 16 item 3: SIGKILL leaves "<dir>.tmp-<pid>" (and a commit cut short "<dir>.old-<pid>").
TEST_CASE("OutputDir: what dead runs left beside the folder is cleaned, or restored") {
  const fs::path root = scratch("stale");
  const fs::path fin = root / "out";
  // Each folder its own ended process: pids made from another (a digit added) may be live ones.
  const std::string dead = std::to_string(dead_pid());
  const std::string dead_a = std::to_string(dead_pid()), dead_b = std::to_string(dead_pid());
  const std::string dead_c = std::to_string(dead_pid()), dead_d = std::to_string(dead_pid());
  // What a run leaves carries its staging mark (output_marker.hpp), naming its pid.
  auto mark = [&](const std::string& name, const std::string& pid) {
    touch(fs::path(fin.string() + name) / kStagingMark, "clfdtd " + pid + "\n");
  };
  make_clfdtd_output(fin.string() + ".tmp-" + dead, "killed run");
  mark(".tmp-" + dead, dead);
  fs::create_directories(fin.string() + ".tmp-" + dead_a);  // the mark alone: also ours
  mark(".tmp-" + dead_a, dead_a);
  fs::create_directories(fin.string() + ".tmp-" + dead_b + "/sub");  // foreign content: kept
  touch(fin.string() + ".tmp-" + dead_b + "/sub/data", "x");
  mark(".tmp-" + dead_b, dead_b);
  // A copy of a clfdtd output under such a name, without the mark or with another pid's: the
  // user's (a review found `cp -r out out.old-<n>` removed).
  const std::string dead_e = std::to_string(dead_pid()), dead_f = std::to_string(dead_pid());
  make_clfdtd_output(fin.string() + ".old-" + dead_e, "user copy");
  make_clfdtd_output(fin.string() + ".discard-" + dead_f, "user copy");
  mark(".discard-" + dead_f, dead_e);
  // A commit's previous output left under the temporary's name (its discard name was taken) is
  // removed, not kept as a partial output; a temporary killed before its mark is empty: removed.
  const std::string dead_g = std::to_string(dead_pid()), dead_h = std::to_string(dead_pid());
  make_clfdtd_output(fin.string() + ".tmp-" + dead_g, "previous, being removed");
  touch(fs::path(fin.string() + ".tmp-" + dead_g) / kStagingMark, "clfdtd " + dead_g + " discard\n");
  fs::create_directories(fin.string() + ".tmp-" + dead_h);
  // A run's file names without clfdtd's run.json are no proof: kept (an audit found such a
  // folder of the user's deleted).
  fs::create_directories(fin.string() + ".tmp-" + dead_c);
  touch(fin.string() + ".tmp-" + dead_c + "/probes.csv", "user data");
  // Nor is a foreign run.json in "<dir>.old-<pid>" restored in place of "<dir>".
  fs::create_directories(fin.string() + ".old-" + dead_d);
  touch(fin.string() + ".old-" + dead_d + "/run.json", "{\"mine\": 1}");
  make_clfdtd_output(fin.string() + ".tmp-" + std::to_string(::getppid()), "alive");  // running
  // A commit without rename-exchange killed between its two renames: the previous output is in
  // "<dir>.old-<pid>" and "<dir>" is missing.
  make_clfdtd_output(fin.string() + ".old-" + dead, "previous");
  mark(".old-" + dead, dead);
  {
    OutputDir dir(fin.string());
    const auto notes = dir.take_notes();
    std::string all;
    for (const auto& n : notes) all += n + "\n";
    CAPTURE(all);
    // What the killed run wrote becomes the partial output ("<dir>.partial" was free).
    CHECK(all.find("as '" + fin.string() + ".partial'") != std::string::npos);
    CHECK(all.find("removed '" + fin.string() + ".tmp-" + dead_a + "'") != std::string::npos);
    CHECK(all.find("restored the previous output") != std::string::npos);
    CHECK(all.find("left '" + fin.string() + ".tmp-" + dead_b + "' alone") != std::string::npos);
    CHECK(all.find("left '" + fin.string() + ".tmp-" + dead_c + "' alone") != std::string::npos);
    CHECK(all.find("left '" + fin.string() + ".old-" + dead_d + "' alone") != std::string::npos);
    CHECK(all.find("left '" + fin.string() + ".old-" + dead_e + "' alone: its process " + dead_e +
                   " no longer exists, but the folder has no staging mark of that process") !=
          std::string::npos);
    CHECK(all.find("left '" + fin.string() + ".discard-" + dead_f + "' alone") != std::string::npos);
    CHECK(dir.take_notes().empty());
  }
  CHECK_FALSE(fs::exists(fin.string() + ".tmp-" + dead));
  CHECK(slurp(fin.string() + ".partial/probes.csv") == "killed run");
  CHECK_FALSE(fs::exists(fin.string() + ".tmp-" + dead_a));
  CHECK_FALSE(fs::exists(fin.string() + ".old-" + dead));
  CHECK(slurp(fin / "probes.csv") == "previous");
  CHECK(slurp(fin.string() + ".tmp-" + dead_b + "/sub/data") == "x");
  CHECK(slurp(fin.string() + ".tmp-" + dead_c + "/probes.csv") == "user data");
  CHECK(slurp(fin.string() + ".old-" + dead_d + "/run.json") == "{\"mine\": 1}");
  CHECK(fs::exists(fin.string() + ".tmp-" + std::to_string(::getppid())));
  CHECK_FALSE(fs::exists(fin.string() + ".tmp-" + dead_g));
  CHECK_FALSE(fs::exists(fin.string() + ".tmp-" + dead_h));
  CHECK(slurp(fin.string() + ".partial/probes.csv") == "killed run");
  CHECK(slurp(fin.string() + ".old-" + dead_e + "/probes.csv") == "user copy");
  CHECK(slurp(fin.string() + ".discard-" + dead_f + "/probes.csv") == "user copy");
  // The restored output and the kept partial one lose the mark: they are the user's now.
  CHECK_FALSE(fs::exists(fin / kStagingMark));
  CHECK_FALSE(fs::exists(fs::path(fin.string() + ".partial") / kStagingMark));
  fs::remove_all(root);
}

TEST_CASE("OutputDir: an unusable location is an OutputError naming the path") {
  const fs::path root = scratch("blocked");
  touch(root / "file", "not a folder");
  try {
    OutputDir dir((root / "file" / "out").string());
    FAIL("expected an exception");
  } catch (const OutputError& e) {
    CHECK(std::string(e.what()).find("'" + (root / "file").string()) != std::string::npos);
  }
  CHECK(slurp(root / "file") == "not a folder");
  fs::remove_all(root);
}
