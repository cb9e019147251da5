// End-to-end: the program's commands, help, and its exit codes.
#include <doctest/doctest.h>

#include "cli_helpers.hpp"

using namespace clfdtd_test;

TEST_CASE("clfdtd --help and run --help") {
  auto r = run_clfdtd("--help");
  CHECK(r.code == 0);
  CHECK(r.out.find("clfdtd run") != std::string::npos);
  r = run_clfdtd("run --help");
  CHECK(r.code == 0);
  for (const char* key : {"grid.size", "grid.max_frequency", "time.steps", "boundary.layers",
                          "source.<name>.waveform", "probe.<name>.fields", "snapshot.steps", "output.dir"})
    CHECK_MESSAGE(r.out.find(key) != std::string::npos, std::string(key));
}

TEST_CASE("clfdtd devices lists devices or says there are none") {
  const auto r = run_clfdtd("devices");
  CHECK(r.code == 0);
  CHECK(r.out.find("reference") != std::string::npos);
}

TEST_CASE("unknown command and missing model exit 2") {
  CHECK(run_clfdtd("frobnicate").code == 2);
  // Commands without arguments refuse a stray one (an audit found them ignored, exit 0).
  for (const char* cmd : {"devices --bogus", "--version --bogus"}) {
    CAPTURE(cmd);
    const auto stray = run_clfdtd(cmd);
    CHECK(stray.code == 2);
    CHECK(stray.out.find("'--bogus'") != std::string::npos);
  }
  CHECK(run_clfdtd("devices --help").code == 0);
  const auto r = run_clfdtd("run /nonexistent/model.ini");
  CHECK(r.code == 2);
  CHECK(r.out.find("/nonexistent/model.ini") != std::string::npos);
}
