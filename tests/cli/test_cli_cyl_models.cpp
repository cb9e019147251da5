// End-to-end: the cylindrical example models run (shortened) and leave complete outputs: probes.csv
// with the cylindrical columns, model.vti, per-mode snapshots with their .pvd, the 3D
// reconstruction; a cylindrical run that does not complete keeps the previous output and leaves
// its own in <dir>.partial, as a 3D run does.
#include <doctest/doctest.h>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"

using namespace clfdtd_test;
namespace fs = std::filesystem;

namespace {

// The message of a run whose OpenCL backend finds no device (engine/device_engine.cpp).
bool no_device(const Ran& r) { return r.out.find("no OpenCL device found") != std::string::npos; }

}  // namespace

TEST_CASE("the cylindrical example models run, shortened, with per-mode and 3D snapshots") {
  struct Case {
    const char* name;
    const char* columns;
    std::vector<int> modes;
  };
  for (const Case& c : {Case{"cyl_cavity", "step,time_s,p.Er_V_per_m,p.Ephi_V_per_m,p.Ez_V_per_m,p.Hr_A_per_m,p.Hphi_A_per_m,p.Hz_A_per_m\n", {0, 1, 2}},
                        Case{"cyl_lens", "step,time_s,behind.Er_V_per_m,behind.Ephi_V_per_m,behind.Hphi_A_per_m,side.Er_V_per_m,side.Ez_V_per_m,side.Hphi_A_per_m\n", {1}}}) {
    CAPTURE(c.name);
    const std::string dir = scratch_dir(c.name);
    const auto r = run_clfdtd(std::string("run models/") + c.name + ".ini --time.steps=40 " +
                              "--snapshot.steps=20 --snapshot.phi_samples=8 --output.dir=" + dir +
                              " --quiet");
    if (no_device(r)) return;
    REQUIRE_MESSAGE(r.code == 0, r.out);
    const auto report = nlohmann::json::parse(read_text(dir + "/run.json"));
    CHECK(report["status"] == "completed");
    CHECK(report["steps_done"] == 40);
    CHECK(read_text(dir + "/probes.csv").rfind(c.columns, 0) == 0);
#ifdef CLFDTD_HAVE_VTK
    CHECK(fs::exists(dir + "/model.vti"));
    for (int m : c.modes) {
      const std::string file = "snapshots/fields_20_m" + std::to_string(m) + ".vti";
      CHECK_MESSAGE(fs::exists(dir + "/" + file), file);
      CHECK(read_text(dir + "/fields_m" + std::to_string(m) + ".pvd").find(file) != std::string::npos);
    }
    CHECK(fs::exists(dir + "/snapshots/fields_20_3d.vts"));
    CHECK(read_text(dir + "/fields_3d.pvd").find("snapshots/fields_20_3d.vts") != std::string::npos);
    CHECK_FALSE(fs::exists(dir + "/fields.pvd"));
#endif
  }
}

TEST_CASE("a cylindrical run that does not complete keeps the previous output") {
  const std::string dir = scratch_dir("cyl_blowup");
  const std::string args = "run models/cyl_cavity.ini --time.steps=30 --snapshot.steps=5 "
                           "--output.dir=" + dir + " --quiet";
  const auto first = run_clfdtd(args);
  if (no_device(first)) return;
  REQUIRE_MESSAGE(first.code == 0, first.out);
  const std::string before = read_text(dir + "/probes.csv");
  // The test hook makes the first source's current NaN at step 10 (test_cli_safety.cpp).
  ::setenv("CLFDTD_TEST_NAN_AT_STEP", "10", 1);
  const auto r = run_clfdtd(args);
  ::unsetenv("CLFDTD_TEST_NAN_AT_STEP");
  CHECK_MESSAGE(r.code == 3, r.out);
  CHECK(r.out.find("non-finite") != std::string::npos);
  CHECK(nlohmann::json::parse(read_text(dir + "/run.json"))["status"] == "completed");
  CHECK(read_text(dir + "/probes.csv") == before);
  CHECK(nlohmann::json::parse(read_text(dir + ".partial/run.json"))["status"] == "non-finite");
  CHECK(fs::exists(dir + ".partial/probes.csv"));
#ifdef CLFDTD_HAVE_VTK
  CHECK(fs::exists(dir + ".partial/snapshots/fields_5_m2.vti"));  // written before step 10
#endif
}

TEST_CASE("the reference backend writes the same cylindrical outputs") {
  const std::string dir = scratch_dir("cyl_reference");
  const auto r = run_clfdtd("run models/cyl_cavity.ini --backend=reference --time.steps=20 "
                            "--snapshot.steps=10 --snapshot.phi_samples=4 --output.dir=" + dir +
                            " --quiet");
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const auto report = nlohmann::json::parse(read_text(dir + "/run.json"));
  CHECK(report["status"] == "completed");
  CHECK(report["backend"] == "reference");
  CHECK(read_text(dir + "/probes.csv").rfind("step,time_s,p.Er_V_per_m,p.Ephi_V_per_m,p.Ez_V_per_m,p.Hr_A_per_m,p.Hphi_A_per_m,p.Hz_A_per_m\n", 0) == 0);
#ifdef CLFDTD_HAVE_VTK
  for (const char* f : {"fields_10_m0.vti", "fields_10_m1.vti", "fields_10_m2.vti", "fields_10_3d.vts"})
    CHECK_MESSAGE(fs::exists(dir + "/snapshots/" + f), f);
#endif
}
