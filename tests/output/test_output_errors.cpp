// File-system failures of every writer are one OutputError line naming the path and the system's
// reason (exit 5 in the CLI), never a dump or an exit-1 "internal error". A file-size limit gives
// EFBIG where a full disk gives ENOSPC: both come back through the same errno path.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "errors.hpp"
#include "file_size_limit.hpp"
#include "output/probe_csv.hpp"
#include "output/pvd_writer.hpp"
#include "output/run_report.hpp"
#include "output/text_file.hpp"

namespace fs = std::filesystem;
using namespace clfdtd;
using clfdtd_test::write_with_file_size_limit;

namespace {

fs::path scratch(const std::string& tag) {
  const fs::path p = fs::temp_directory_path() /
                     ("clfdtd_test_output_errors_" + std::to_string(::getpid()) + "_" + tag);
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

}  // namespace

TEST_CASE("write_text_file: a refused write is one OutputError line with the path and reason") {
  const fs::path root = scratch("text");
  const std::string path = (root / "big.txt").string();
  const auto r = write_with_file_size_limit(100, [&] { write_text_file(path, std::string(4096, 'x')); });
  CHECK(r.code == 5);
  CHECK(r.message == "cannot write '" + path + "': File too large");
  CHECK(r.stderr_text.empty());
  const auto ok = write_with_file_size_limit(100, [&] { write_text_file(path, "small"); });
  CHECK(ok.code == 0);
  try {
    write_text_file((root / "missing" / "x.txt").string(), "x");
    FAIL("expected an OutputError");
  } catch (const OutputError& e) {
    CHECK(std::string(e.what()) == "cannot create '" + (root / "missing" / "x.txt").string() +
                                       "': No such file or directory");
    CHECK(e.path() == (root / "missing" / "x.txt").string());
  }
  fs::remove_all(root);
}

TEST_CASE("run.json, probes.csv and fields.pvd report file-system failures as OutputError") {
  const fs::path root = scratch("writers");
  const std::string missing = (root / "missing").string();
  CHECK_THROWS_AS(write_run_json(missing + "/run.json", RunReport{}), OutputError);
  CHECK_THROWS_AS(PvdWriter(missing + "/fields.pvd"), OutputError);
  ProbeSet ps;
  ps.probes = {{"a", 0, 10, {}, 0}};
  ps.samples.push_back(ProbeSample{});
  CHECK_THROWS_AS(ProbeCsvWriter(missing + "/probes.csv", ps, 1e-12), OutputError);

  // A report too large for the limit: the write fails, and says so in one line.
  RunReport big;
  big.probes.resize(200, ProbeReport{"probe", "Ez", {}});
  const std::string path = (root / "run.json").string();
  const auto r = write_with_file_size_limit(512, [&] { write_run_json(path, big); });
  CHECK(r.code == 5);
  CHECK(r.message == "cannot write '" + path + "': File too large");
  fs::remove_all(root);
}
