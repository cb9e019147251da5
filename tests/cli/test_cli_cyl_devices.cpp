// End-to-end: a cylindrical model's modes over a list of devices (`--device=0,0`: the same device
// twice, two queues) give the one-device run's probes to float rounding, the same snapshots, and
// run.json lists both devices with their modes; the run's summary names the (r, z) grid and its
// modes, and its rate counts cell-mode updates (run.json's cell_updates_per_step, mcells_per_s).
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"

using namespace clfdtd_test;
namespace fs = std::filesystem;

namespace {

// A machine without an OpenCL device (the build without PoCL) skips the runs.
bool no_device(const Ran& r) {
  return r.out.find("no OpenCL device found") != std::string::npos;
}

}  // namespace

TEST_CASE("cylindrical modes over two devices: the one-device run's outputs, both devices listed") {
  const std::string one = scratch_dir("cyl_one_device"), two = scratch_dir("cyl_two_devices");
  const std::string args = "run models/cyl_cavity.ini --time.steps=60 --snapshot.steps=60 "
                           "--snapshot.phi_samples=0 --quiet --output.dir=";
  const auto a = run_clfdtd(args + one + " --device=0");
  if (no_device(a)) return;
  REQUIRE_MESSAGE(a.code == 0, a.out);
  const auto b = run_clfdtd(args + two + " --device=0,0");
  REQUIRE_MESSAGE(b.code == 0, b.out);

  // The summary: the (r, z) grid with its modes; the rate in cell-mode updates.
  CHECK_MESSAGE(b.out.find("grid       40 (r) x 60 (z) cells, modes 0 1 2 (2400 cells x 3 modes)") !=
                    std::string::npos, b.out);
  CHECK_MESSAGE(b.out.find("cell size  0.0025 (r) x 0.0025 (z) m") != std::string::npos, b.out);
  CHECK_MESSAGE(b.out.find(" M cell-mode updates/s; outputs in ") != std::string::npos, b.out);
  CHECK_MESSAGE(b.out.find("device     m = 0 1 on ") != std::string::npos, b.out);
  CHECK_MESSAGE(b.out.find("; m = 2 on ") != std::string::npos, b.out);

  // Probes: summed per device, then over devices: equal to float rounding.
  std::string header_a, header_b;
  const auto pa = csv_rows(read_text(one + "/probes.csv"), header_a);
  const auto pb = csv_rows(read_text(two + "/probes.csv"), header_b);
  CHECK(header_a == header_b);
  REQUIRE(pa.size() == 61);  // steps 0 .. 60
  REQUIRE(pa.size() == pb.size());
  double scale = 0;
  for (const auto& row : pa)
    for (std::size_t c = 2; c < row.size(); ++c) scale = std::max(scale, std::abs(row[c]));
  REQUIRE(scale > 0);
  for (std::size_t n = 0; n < pa.size(); ++n) {
    REQUIRE(pa[n].size() == pb[n].size());
    for (std::size_t c = 0; c < pa[n].size(); ++c) REQUIRE(std::abs(pa[n][c] - pb[n][c]) <= 1e-6 * scale);
  }
#ifdef CLFDTD_HAVE_VTK
  // Each mode's snapshot comes from the device holding it, bit for bit the one-device field.
  for (const char* f : {"fields_60_m0.vti", "fields_60_m1.vti", "fields_60_m2.vti"}) {
    CAPTURE(f);
    CHECK(read_text(two + "/snapshots/" + f) == read_text(one + "/snapshots/" + f));
  }
#endif

  const auto ra = nlohmann::json::parse(read_text(one + "/run.json"));
  const auto rb = nlohmann::json::parse(read_text(two + "/run.json"));
  REQUIRE(ra["devices"].size() == 1);
  CHECK(ra["devices"][0]["device"] == ra["device"]);
  CHECK(ra["devices"][0]["modes"] == std::vector<int>{0, 1, 2});
  REQUIRE(rb["devices"].size() == 2);
  CHECK(rb["devices"][0]["device"] == ra["device"]);
  CHECK(rb["devices"][1]["device"] == ra["device"]);
  CHECK(rb["devices"][0]["modes"] == std::vector<int>{0, 1});
  CHECK(rb["devices"][1]["modes"] == std::vector<int>{2});
  CHECK(rb["kernel_variant"].get<std::string>().find("; ") != std::string::npos);
  CHECK(rb["device_bytes"].get<double>() > ra["device_bytes"].get<double>());  // tables on each
  for (const auto* r : {&ra, &rb}) {
    CHECK((*r)["cell_updates_per_step"] == 40 * 60 * 3);
    const double expected = 40.0 * 60 * 3 * 60 / (*r)["loop_time_s"].get<double>() / 1e6;
    CHECK((*r)["mcells_per_s"].get<double>() == doctest::Approx(expected));
  }
}

TEST_CASE("a 3D run's summary and rate are unchanged: cells, Mcells/s, one device listed") {
  const std::string dir = scratch_dir("cube_summary");
  const auto r = run_clfdtd("run models/pec_cavity.ini --time.steps=5 --backend=reference --quiet "
                            "--output.dir=" + dir);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK(r.out.find(" Mcells/s; outputs in ") != std::string::npos);
  const auto report = nlohmann::json::parse(read_text(dir + "/run.json"));
  const auto& n = report["cells"];
  CHECK(report["cell_updates_per_step"] == n[0].get<double>() * n[1].get<double>() * n[2].get<double>());
  REQUIRE(report["devices"].size() == 1);
  CHECK(report["devices"][0]["device"] == report["device"]);
  CHECK_FALSE(report["devices"][0].contains("modes"));
  CHECK(report["geometry_fingerprint"].is_null());  // no ports: nothing for sparams to join
  // The reference engine's fields are doubles in host memory, and the line says so.
  const auto bytes = report["device_bytes"].get<double>();
  CHECK(bytes >= 6 * sizeof(double) * report["cell_updates_per_step"].get<double>());
  CHECK_MESSAGE(r.out.find("memory     " + std::to_string(static_cast<unsigned long long>(bytes)) +
                           " bytes (1.1 MiB) in host memory (double precision)") != std::string::npos,
                r.out);
}

TEST_CASE("a device.workgroup the variant cannot take as given is adapted with a warning") {
  const std::string dir = scratch_dir("workgroup_adapted");
  auto r = run_clfdtd("run models/pec_cavity.ini --time.steps=5 --variant=rows --workgroup=2,2,30 "
                      "--output.dir=" + dir);
  if (r.out.find("no OpenCL device found") != std::string::npos) return;
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK_MESSAGE(r.out.find("warning: device.workgroup 2 2 30 runs as 2 x 2 x 1: what the rows variant "
                           "and the device allow") != std::string::npos,
                r.out);
  r = run_clfdtd("run models/pec_cavity.ini --time.steps=5 --variant=rows --workgroup=2,2,1 "
                 "--output.dir=" + dir + " --output.overwrite=true");
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK(r.out.find("device.workgroup") == std::string::npos);
}
