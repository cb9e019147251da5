// End-to-end checks of issue 16's input rules: the model file found among the options, absurd
// values refused before allocating (exit 2 with the range, exit 4 with bytes needed and
// available), runs the command line shortens, and `run --help` listing every option.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "cli/cli_helpers.hpp"
#include "config/options.hpp"

using namespace clfdtd_test;
namespace fs = std::filesystem;

namespace {

bool has(const Ran& r, const std::string& text) { return r.out.find(text) != std::string::npos; }

bool no_opencl(const Ran& r) { return has(r, "no OpenCL device found"); }

// Runs clfdtd with CLFDTD_HOST_MEMORY_LIMIT set to `bytes` (the program inherits the variable).
Ran run_with_host_limit(const char* bytes, const std::string& args) {
  ::setenv("CLFDTD_HOST_MEMORY_LIMIT", bytes, 1);
  Ran r = run_clfdtd(args);
  ::unsetenv("CLFDTD_HOST_MEMORY_LIMIT");
  return r;
}

}  // namespace

TEST_CASE("run without a model file says so and prints the run usage") {
  auto r = run_clfdtd("run");
  CHECK(r.code == 2);
  CHECK_MESSAGE(has(r, "the model file is missing"), r.out);
  CHECK(has(r, "usage: clfdtd run <model.ini>"));
  r = run_clfdtd("run --time.steps=10 --quiet");
  CHECK(r.code == 2);
  CHECK_MESSAGE(has(r, "the model file is missing"), r.out);
  // After a spaced option's value a missing file reads as a further value: the message says so.
  r = run_clfdtd("run --time.steps 5 no_such_model.txt");
  CHECK(r.code == 2);
  CHECK_MESSAGE(has(r, "the model file is missing; 'no_such_model.txt' was read as a further value "
                       "of --time.steps: no such file"), r.out);
}

TEST_CASE("options may come before the model file") {
  const std::string dir = scratch_dir("options_first");
  auto r = run_clfdtd("run --time.steps=5 --backend=reference --output.dir=" + dir +
                      " --quiet models/pec_cavity.ini");
  CHECK_MESSAGE(r.code == 0, r.out);
  CHECK(fs::exists(dir + "/run.json"));
  // A spaced value, then the file.
  r = run_clfdtd("run --time.steps 5 models/pec_cavity.ini --backend=reference --output.dir=" +
                 dir + " --quiet");
  CHECK_MESSAGE(r.code == 0, r.out);
}

TEST_CASE("run --help lists every command-line option, --variant included") {
  const auto r = run_clfdtd("run --help");
  CHECK(r.code == 0);
  for (const auto& a : clfdtd::command_line_aliases()) {
    INFO(a.option);
    CHECK(has(r, "--" + a.option + (a.key.empty() ? "" : "=X")));
  }
  CHECK(has(r, "--variant=X"));
  CHECK(has(r, "--section.key=value"));
  CHECK(has(r, "one on the command line replaces the other from the file"));
}

TEST_CASE("a run the command line shortens drops later snapshots and cuts probe windows") {
  const std::string dir = scratch_dir("shortened");
  auto r = run_clfdtd("run models/dipole.ini --time.steps=100 --backend=reference --output.dir=" +
                      dir + " --quiet");
  CHECK_MESSAGE(r.code == 0, r.out);
  // One line for the three snapshots left out.
  CHECK_MESSAGE(has(r, "warning: snapshot steps 150 300 450 are past the run's last step 100 (the "
                       "command line shortened the run): not taken\n"), r.out);
  r = run_clfdtd("run tests/data/probe_window.ini --time.duration=1e-9 --backend=reference "
                 "--output.dir=" + dir + " --quiet");
  CHECK_MESSAGE(r.code == 0, r.out);
  CHECK_MESSAGE(has(r, "warning: probe 'late' window 20..150 is past the run's last step 58"), r.out);
  CHECK(has(r, "cut to 20..58"));
  CHECK(has(r, "warning: probe 'later' window 120..180 is past the run's last step 58"));
  CHECK(has(r, "it records nothing"));
  CHECK(has(r, "warning: snapshot step 150"));
  // A model file that contradicts itself stays an error.
  r = run_clfdtd("run tests/data/duration_snapshot.ini --output.dir=" + dir + "_self");
  CHECK(r.code == 2);
  CHECK_MESSAGE(has(r, "'snapshot.steps': steps within the run's 58 steps"), r.out);
  CHECK_FALSE(fs::exists(dir + "_self"));
  // And so do command-line snapshot steps past a command-line length.
  r = run_clfdtd("run models/pec_cavity.ini --time.steps=10 --snapshot.steps=20 --output.dir=" +
                 dir + "_cli");
  CHECK(r.code == 2);
  CHECK(has(r, "'snapshot.steps'"));
}

TEST_CASE("time.steps and time.duration: both in the file stay an error whatever the command line says") {
  auto r = run_clfdtd("run tests/data/bad_time_both.ini --time.duration=1e-9");
  CHECK(r.code == 2);
  CHECK_MESSAGE(has(r, "bad_time_both.ini:8: 'time.duration': exactly one of time.steps and "
                       "time.duration, not both"), r.out);
  r = run_clfdtd("run models/pec_cavity.ini --time.steps=10 --time.duration=1e-9");
  CHECK(r.code == 2);
  CHECK(has(r, "not both"));
}

TEST_CASE("absurd values are refused with exit 2 and their range, before any allocation") {
  const std::string dir = scratch_dir("absurd");
  struct Case {
    const char* option;
    const char* text;
  };
  const Case cases[] = {
      {"--time.duration=1e9", "'time.duration': a duration in (0, "},
      {"--time.steps=9e15", "'time.steps': an integer in [1, 2147483647]"},
      {"--boundary.kappa_max=1e308", "'boundary.kappa_max': a number in [1, 1000]"},
      {"--boundary.sigma_max=1e300", "'boundary.sigma_max': a conductivity in [0, "},
      {"--grid.courant=1e-308", "'grid.courant': a number in [0.01, 1]"},
      {"--material.m.mu_r=1e-308", "'material.m.mu_r': 1 or 3 numbers, each in [0.001, 1e6]"},
      {"--material.m.mu_r=0.1", "lower grid.courant below sqrt(eps_r x mu_r)"},
      {"--source.feed.delay=1e300", "'source.feed.delay': a delay in [0, "},
      {"--source.feed.frequency=1e308", "'source.feed.frequency': a number in (0, 1e17]"},
      {"--source.feed.frequency=1e16", "the highest a wave on this grid can have"},
      {"--source.feed.amplitude=1e30", "'source.feed.amplitude': an amplitude in [-"},
  };
  for (const auto& c : cases) {
    INFO(c.option);
    const auto r = run_clfdtd(std::string("run models/dipole.ini ") + c.option + " --output.dir=" + dir);
    CHECK(r.code == 2);
    CHECK_MESSAGE(has(r, c.text), r.out);
    CHECK_FALSE(fs::exists(dir));
  }
}

TEST_CASE("a model too large for the host's memory is refused with exit 4, bytes needed and available") {
  const std::string dir = scratch_dir("host_memory");
  const char* limit = "200000000";
  // The source table of 2^31 - 1 steps (17 GB): refused before it is allocated.
  auto r = run_with_host_limit(limit, "run models/pec_cavity.ini --time.steps=2147483647 --output.dir=" + dir);
  CHECK(r.code == 4);
  CHECK_MESSAGE(has(r, "not enough host memory for the model (material ids, source tables"), r.out);
  // 12 B x (2^31 - 1) steps (the double table and the engine's float copy), the ids, model.vti:
  // 4 + 13 B x 24000; probe p's resonance series, 3 fields x 36205 samples (the most the analysis
  // takes for 1 .. 2.6 GHz) x 16 B, the analysis' matrices, 4 x 2000 x 667 x 16 B, and its
  // low-pass' 223 taps.
  CHECK(has(r, "needs " + std::to_string(25770211764LL + 3 * 36205 * 16 + 4 * 2000 * 667 * 16 + 223 * 8) + " "));
  CHECK(has(r, "available "));
  // model.vti's arrays (104 MB, written before the loop) count with the model's own tables (32 MB):
  // 136 MB do not fit in 100 MB.
  r = run_with_host_limit("100000000", "run tests/data/host_memory.ini --backend=reference --output.dir=" + dir);
  CHECK(r.code == 4);
  CHECK_MESSAGE(has(r, "not enough host memory for the model (material ids, source tables, model.vti"), r.out);
  CHECK(has(r, "needs 136000"));
  CHECK_FALSE(fs::exists(dir));
  // The reference engine's double fields (384 MB) do not fit, the model's (136 MB) do.
  r = run_with_host_limit(limit, "run tests/data/host_memory.ini --backend=reference --output.dir=" + dir);
  CHECK(r.code == 4);
  CHECK_MESSAGE(has(r, "not enough host memory for the reference engine's double fields: needs "
                       "384000000 bytes"), r.out);
  CHECK_FALSE(fs::exists(dir));
  // A CPU OpenCL device keeps its buffers in host memory (216 MB here). The OpenCL runtime, loaded
  // for the device check before the model's tables, is resident too (~90 MB with PoCL): the
  // model's 136 MB fit in 300 MB less that, the engine's 216 MB no longer do.
  r = run_with_host_limit("300000000", "run tests/data/host_memory.ini --device=cpu --output.dir=" + dir);
  if (no_opencl(r) || has(r, "device.select")) return;  // no CPU OpenCL device on this machine
  CHECK(r.code == 4);
  CHECK_MESSAGE(has(r, "not enough host memory for the OpenCL engine on "), r.out);
  CHECK_FALSE(fs::exists(dir));
}

TEST_CASE("model files: /dev/zero and a directory are refused, a BOM is skipped, text is escaped") {
  auto r = run_clfdtd("run /dev/zero");
  CHECK(r.code == 2);
  CHECK(has(r, "not a regular file"));
  r = run_clfdtd("run models");
  CHECK(r.code == 2);
  CHECK(has(r, "it is a directory"));
  r = run_clfdtd("run models/dipole.ini \"--output.energy=$(printf '\\033]0;title\\007')\"");
  CHECK(r.code == 2);
  CHECK(r.out.find('\x1b') == std::string::npos);
  CHECK_MESSAGE(has(r, "got '\\x1b]0;title\\x07'"), r.out);
}

TEST_CASE("3D grids past 2^31 cells pass the grid check (up to 2^31 - 1 float4 lanes); beyond, exit 2") {
  const std::string dir = scratch_dir("big_grid");
  // 1400 x 1400 x 1400 cells of 0.1 mm (2.7e9 > 2^31): no grid refusal, the host memory check
  // (limit 200 MB) refuses the material ids instead, before allocating them (the reference
  // backend: a device's own check comes first, below).
  auto r = run_with_host_limit("200000000", "run models/pec_cavity.ini --grid.size=0.14,0.14,0.14 "
                                            "--grid.cell_size=1e-4 --backend=reference --output.dir=" + dir);
  CHECK_MESSAGE(r.code == 4, r.out);
  CHECK_MESSAGE(has(r, "not enough host memory for the model"), r.out);
  // 2100^3 cells (2.3e9 float4 lanes per component): refused by the grid check.
  r = run_with_host_limit("200000000", "run models/pec_cavity.ini --grid.size=0.21,0.21,0.21 "
                                       "--grid.cell_size=1e-4 --output.dir=" + dir);
  CHECK(r.code == 2);
  CHECK_MESSAGE(has(r, "at most 2^31 - 1 float4 lanes (about 8.6e9 cells) per field component"),
                r.out);
  CHECK_FALSE(fs::exists(dir));
  // Only the cell from the command line: that option is blamed, not the file's grid.size line.
  r = run_with_host_limit("200000000", "run models/pec_cavity.ini --grid.cell_size=2e-5 --output.dir=" + dir);
  CHECK(r.code == 2);
  CHECK_MESSAGE(has(r, "command line: 'grid.cell_size': at most 2^31 - 1 float4 lanes"), r.out);
  CHECK_FALSE(fs::exists(dir));
}

TEST_CASE("a grid whose fields alone exceed the device is refused before it is meshed, exit 4") {
  const std::string dir = scratch_dir("device_floor");
  // 1400^3 cells: 24 B each of E and H are 65.9 GB, past any CPU OpenCL device of a test machine;
  // the host limit (200 MB) would refuse the material ids next, so only the device check, which
  // comes first, gives this message.
  const auto r = run_with_host_limit("200000000", "run models/pec_cavity.ini "
                                                  "--grid.size=0.14,0.14,0.14 --grid.cell_size=1e-4 "
                                                  "--device=cpu --output.dir=" + dir);
  if (no_opencl(r) || has(r, "device.select")) return;  // no CPU OpenCL device on this machine
  CHECK_MESSAGE(r.code == 4, r.out);
  CHECK_MESSAGE(has(r, "the model's E and H fields alone (float32, once) need 65856000000 bytes"),
                r.out);
  CHECK_MESSAGE(has(r, "refused before meshing"), r.out);
  CHECK_FALSE(fs::exists(dir));
}
