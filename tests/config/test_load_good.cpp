// load_config() on a valid model: every section read, lines recorded, command-line overrides and
// aliases applied on top of the file.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "config/load_config.hpp"
#include "errors.hpp"
#include "geometry/mesh_file.hpp"

using namespace clfdtd;

namespace {
const std::string kGood = "tests/data/good_model.ini";

// The fields of a Vec3 compared at once.
bool same(const Vec3& a, double x, double y, double z) {
  return a.x == doctest::Approx(x) && a.y == doctest::Approx(y) && a.z == doctest::Approx(z);
}
}  // namespace

TEST_CASE("a model with every section is read completely") {
  RunConfig c = load_config(kGood, {});
  CHECK(c.source_file == kGood);
  CHECK_FALSE(c.quiet);
  CHECK(same(c.grid.size_m, 0.3, 0.2, 0.25));
  CHECK(c.grid.max_frequency_hz == 3e9);
  CHECK_FALSE(c.grid.cell_size_m.has_value());
  CHECK(c.grid.cells_per_wavelength == 12);
  CHECK(c.grid.courant == doctest::Approx(0.8));
  CHECK(c.time.steps == 400L);
  CHECK_FALSE(c.time.duration_s.has_value());

  CHECK(c.boundary.type == BoundaryType::Upml);
  CHECK(c.boundary.layers == std::array<int, 6>{8, 8, 6, 6, 10, 10});
  CHECK(c.boundary.grading == 4);
  CHECK(c.boundary.sigma_max == 12.5);
  CHECK(c.boundary.kappa_max == 2);

  REQUIRE(c.materials.size() == 3);  // in file order
  CHECK(c.materials[0].name == "glass");
  CHECK(c.materials[0].eps_r == 4.5);
  CHECK(c.materials[0].mu_r == 1);
  CHECK(c.materials[0].sigma == 1e-3);
  CHECK(c.materials[1].name == "ferrite");
  CHECK(c.materials[1].mu_r == 3.5);
  CHECK(c.materials[2].pec);

  REQUIRE(c.objects.size() == 3);  // file order matters: later objects override earlier ones
  CHECK(c.objects[0].name == "ball");
  CHECK(c.objects[0].shape == ShapeKind::Sphere);
  CHECK(same(c.objects[0].center, 0.15, 0.1, 0.12));  // written with commas
  CHECK(c.objects[0].radius == 0.03);
  CHECK(c.objects[0].material == "glass");
  CHECK(c.objects[1].shape == ShapeKind::Box);
  CHECK(same(c.objects[1].size, 0.05, 0.08, 0.004));
  CHECK(c.objects[1].material == "pec");
  CHECK(c.objects[2].shape == ShapeKind::Cylinder);
  CHECK(c.objects[2].axis == Axis::Y);
  CHECK(c.objects[2].length == 0.1);

  REQUIRE(c.sources.size() == 2);
  const SourceConfig& feed = c.sources[0];
  CHECK(feed.name == "feed");
  CHECK(feed.kind == SourceKind::Dipole);
  CHECK(feed.axis == Axis::Z);
  CHECK(same(feed.position, 0.05, 0.1, 0.125));
  CHECK(feed.waveform == WaveformKind::GaussianPulse);
  CHECK(feed.frequency_hz == 1.5e9);
  CHECK(feed.amplitude == 2e-12);
  CHECK(feed.delay_s == 2e-9);
  CHECK(feed.bandwidth_hz == 1e9);
  const SourceConfig& drive = c.sources[1];
  CHECK(drive.kind == SourceKind::Current);
  CHECK(drive.axis == Axis::X);
  CHECK(drive.waveform == WaveformKind::Ricker);
  CHECK(drive.amplitude == 1);  // defaults
  CHECK_FALSE(drive.delay_s.has_value());
  CHECK_FALSE(drive.bandwidth_hz.has_value());

  REQUIRE(c.probes.size() == 2);
  CHECK(c.probes[0].fields == std::vector<Component>{Component::Ez, Component::Hy});
  CHECK(c.probes[0].steps == std::array<long, 2>{10, 300});
  CHECK(c.probes[1].fields.size() == 6);  // default: all six
  CHECK_FALSE(c.probes[1].steps.has_value());

  CHECK(c.snapshot.steps == std::vector<long>{100, 200, 300});  // sorted
  CHECK(c.snapshot.e);
  CHECK_FALSE(c.snapshot.h);
  CHECK(c.output.dir == "out/good");
  CHECK(c.device.backend == BackendKind::Reference);
  CHECK(c.device.select == "gpu");
  CHECK(c.device.workgroup == std::array<int, 3>{4, 4, 16});
}

TEST_CASE("lines of keys and section headers are recorded for later errors") {
  RunConfig c = load_config(kGood, {});
  CHECK(c.line_of("grid") == 2);
  CHECK(c.line_of("grid.size") == 3);
  CHECK(c.line_of("time.steps") == 9);
  CHECK(c.line_of("source.feed") == 49);
  CHECK(c.line_of("source.feed.position") == 52);
  CHECK(c.line_of("probe.far.position") == 72);
  CHECK(c.line_of("device.workgroup") == 84);
  CHECK(c.line_of("grid.cell_size") == 0);  // not given
}

TEST_CASE("defaults when a section is absent") {
  RunConfig c = load_config("", {"--grid.size=1,1,1", "--grid.cell_size=0.1", "--time.steps=5"});
  CHECK(c.source_file.empty());
  CHECK(c.lines.empty());
  CHECK(same(*c.grid.cell_size_m, 0.1, 0.1, 0.1));  // one value: cubic cells
  CHECK(c.grid.max_frequency_hz == 0);
  CHECK(c.grid.courant == 0.9);
  CHECK(c.boundary.layers == std::array<int, 6>{10, 10, 10, 10, 10, 10});
  CHECK(c.snapshot.steps.empty());
  CHECK(c.output.dir == "out");
  CHECK(c.device.backend == BackendKind::OpenCl);
  CHECK(c.device.select.empty());
  CHECK_FALSE(c.device.workgroup.has_value());
  CHECK(c.materials.empty());
  CHECK(c.sources.empty());
}

TEST_CASE("a pec boundary has no layers") {
  RunConfig c = load_config(
      "", {"--grid.size=1,1,1", "--grid.cell_size=0.1", "--time.steps=5", "--boundary.type=pec"});
  CHECK(c.boundary.type == BoundaryType::Pec);
  CHECK(c.boundary.layers == std::array<int, 6>{0, 0, 0, 0, 0, 0});
}

TEST_CASE("command-line values win over the file") {
  RunConfig c =
      load_config(kGood, {"--grid.courant=0.5", "--material.glass.eps_r", "3", "--grid.size", "1",
                          "2", "3", "--snapshot.steps=7", "--output.dir=out/x"});
  CHECK(c.grid.courant == 0.5);
  CHECK(c.materials[0].eps_r == 3);
  CHECK(c.materials[0].sigma == 1e-3);  // the rest of the section stays
  CHECK(same(c.grid.size_m, 1, 2, 3));  // a list may come as separate tokens
  CHECK(c.snapshot.steps == std::vector<long>{7});
  CHECK(c.output.dir == "out/x");
  // Overridden keys have no file line any more; the others keep theirs.
  CHECK(c.line_of("grid.courant") == 0);
  CHECK(c.line_of("material.glass.eps_r") == 0);
  CHECK(c.line_of("material.glass.sigma") == 20);
}

TEST_CASE("the command line adds named sections and keys the file lacks") {
  RunConfig c = load_config(kGood, {"--material.sand.eps_r=2.5", "--probe.extra.position=0 0 0",
                                    "--grid.cell_size=0.01,0.02,0.03"});
  REQUIRE(c.materials.size() == 4);
  CHECK(c.materials[3].name == "sand");
  CHECK(c.materials[3].eps_r == 2.5);
  REQUIRE(c.probes.size() == 3);
  CHECK(c.probes[2].name == "extra");
  CHECK(same(*c.grid.cell_size_m, 0.01, 0.02, 0.03));
}

TEST_CASE("time.steps or time.duration from the command line replaces the file's choice") {
  RunConfig c = load_config(kGood, {"--time.duration=5e-9"});
  CHECK_FALSE(c.time.steps.has_value());
  CHECK(c.time.duration_s == 5e-9);
}

TEST_CASE("aliases --device, --backend, --workgroup and the --quiet flag") {
  RunConfig c =
      load_config(kGood, {"--device=1", "--backend=opencl", "--workgroup=1,2,8", "--quiet"});
  CHECK(c.device.select == "1");
  CHECK(c.device.backend == BackendKind::OpenCl);
  CHECK(c.device.workgroup == std::array<int, 3>{1, 2, 8});
  CHECK(c.quiet);
  CHECK(load_config(kGood, {"--device", "NVIDIA H100"}).device.select == "NVIDIA H100");
  CHECK(load_config(kGood, {"--device="}).device.select.empty());  // back to "best"
  CHECK(load_config(kGood, {"--backend=cuda"}).device.backend == BackendKind::Cuda);
}

TEST_CASE("comments after values, CRLF line ends and upper-case words are accepted") {
  RunConfig c = load_config_text(
      "[grid]\r\nsize = 1 1 1   # metres\r\ncell_size = 0.1\r\n[time]\r\nduration = 1e-9\r\n"
      "[boundary]\r\ntype = PEC\r\n",
      "inline.ini", {});
  CHECK(same(c.grid.size_m, 1, 1, 1));
  CHECK(c.time.duration_s == 1e-9);
  CHECK(c.boundary.type == BoundaryType::Pec);
  CHECK(c.line_of("boundary.type") == 7);
}

TEST_CASE("a line starting with ';' is a comment; line numbers count it") {
  RunConfig c = load_config_text(
      "; antenna model\n[grid]\n  ; the box\nsize = 1 1 1\ncell_size = 0.1\n[time]\n"
      "duration = 1e-9\n;steps = 5\n[boundary]\ntype = pec\n",
      "semicolon.ini", {});
  CHECK(same(c.grid.size_m, 1, 1, 1));
  CHECK(c.time.duration_s == 1e-9);
  CHECK(c.line_of("boundary.type") == 10);
  // A ';' inside a line is not a comment: it stays in the value, which is then refused.
  CHECK_THROWS_AS(load_config_text("[grid]\nsize = 1 1 1 ; metres\ncell_size = 0.1\n[time]\n"
                                   "duration = 1e-9\n",
                                   "inline.ini", {}),
                  ConfigError);
}

// The shipped examples are the first models users copy: each must load as it is.
TEST_CASE("every example model in models/ loads") {
  namespace fs = std::filesystem;
  if (!fs::is_directory("models")) return;
  for (const auto& entry : fs::directory_iterator("models")) {
    if (entry.path().extension() != ".ini") continue;
    INFO(entry.path().string());
    // A build without VTK reads no mesh or voxel files: it must refuse those models for that.
    std::ifstream in(entry.path());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const bool needs_vtk = text.find("shape = mesh") != std::string::npos ||
                           text.find("shape = voxels") != std::string::npos;
    if (needs_vtk && !mesh_files_readable()) {
      try {
        load_config(entry.path().string(), {});
        FAIL("loaded without VTK");
      } catch (const ConfigError& e) {
        CHECK(std::string(e.what()).find("need VTK to be read") != std::string::npos);
      }
      continue;
    }
    CHECK_NOTHROW(load_config(entry.path().string(), {}));
  }
}
