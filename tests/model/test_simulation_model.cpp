// SimulationModel::build: assembly from a RunConfig, the grid-dependent ConfigError checks (with
// file, line and key), snapshot normalisation and the device memory estimate.
#include <doctest/doctest.h>

#include "errors.hpp"
#include "model/simulation_model.hpp"
#include "model_helpers.hpp"

using namespace clfdtd;

namespace {

// model_helpers.hpp's small model, with the lines its keys came from.
RunConfig base_config() {
  RunConfig cfg = small_dipole_config();
  cfg.lines = {{"boundary.layers", 7}, {"source.feed.position", 12}, {"grid.size", 3},
               {"object.blob.material", 20}};
  return cfg;
}

ConfigError build_error(const RunConfig& cfg) {
  try {
    SimulationModel::build(cfg);
  } catch (const ConfigError& e) {
    return e;
  }
  FAIL("expected a ConfigError");
  return ConfigError("", 0, "", "");
}

}  // namespace

TEST_CASE("build assembles grid, ids, UPML, sources, probes and snapshots") {
  RunConfig cfg = base_config();
  cfg.materials.push_back(MaterialConfig{"diel", 4.0});
  ObjectConfig o;
  o.name = "blob";
  o.shape = ShapeKind::Sphere;
  o.center = Vec3{0.1, 0.1, 0.14};
  o.radius = 0.02;
  o.material = "diel";
  cfg.objects.push_back(o);
  ProbeConfig p;
  p.name = "p";
  p.position = Vec3{0.12, 0.1, 0.1};
  p.fields = {Component::Ez, Component::Hy};
  cfg.probes.push_back(p);
  cfg.snapshot.steps = {40, 10, 999, 10, 0, -3, 50};
  cfg.snapshot.h = false;
  cfg.time.from_command_line = true;  // a shortened run: step 999 is dropped with a warning

  const SimulationModel m = SimulationModel::build(cfg);
  CHECK(m.grid.n == std::array<int, 3>{20, 20, 20});
  CHECK(m.layout.nzp() == 20);
  CHECK_FALSE(m.magnetic);
  for (int c = 0; c < 3; ++c) CHECK(m.ids[c].size() == m.layout.cells());
  for (int c = 3; c < 6; ++c) CHECK(m.ids[c].empty());
  CHECK(m.cell_ids.size() == 8000);
  CHECK(m.id(Component::Ez)[m.layout.index(10, 10, 14)] == 2);
  CHECK(m.id(Component::Ez)[m.layout.index(10, 10, 10)] == MaterialTable::kVacuum);
  CHECK(m.upml.cells == 8000 - 1000);
  REQUIRE(m.sources.size() == 1);
  CHECK(m.sources[0].cell == std::array<int, 3>{10, 10, 10});  // 9.5 rounds away from zero
  CHECK(m.sources[0].j.size() == 50);
  CHECK(m.probes.samples.size() == 2);
  CHECK(m.snapshot_steps == std::vector<long>{0, 10, 40, 50});
  REQUIRE(warnings_of(m).size() == 1);
  CHECK(warnings_of(m)[0].find("snapshot step 999 is past the run's last step 50") != std::string::npos);
  CHECK(m.snapshot_e);
  CHECK_FALSE(m.snapshot_h);
}

TEST_CASE("steps past the run: cut with a warning when the command line shortened it, else refused") {
  RunConfig cfg = base_config();
  ProbeConfig p;
  p.name = "p";
  p.position = Vec3{0.12, 0.1, 0.1};
  p.fields = {Component::Ez};
  p.steps = std::array<long, 2>{10, 80};
  cfg.probes.push_back(p);
  cfg.time.from_command_line = true;
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(warnings_of(m).size() == 1);
  CHECK(warnings_of(m)[0] == "probe 'p' window 10..80 is past the run's last step 50 (the command line "
                         "shortened the run): cut to 10..50");
  CHECK(m.probes.last_step == 50);
  // The file's own length: the file contradicts itself.
  cfg.time.from_command_line = false;
  cfg.lines["probe.p.steps"] = 21;
  const ConfigError e = build_error(cfg);
  CHECK(e.key() == "probe.p.steps");
  CHECK(e.line() == 21);
  CHECK(e.expected() == "a window within time.steps = 50, got 10..80");
}

TEST_CASE("a magnetic material (even unused) gives H ids") {
  RunConfig cfg = base_config();
  cfg.materials.push_back(MaterialConfig{"ferrite", 1.0, 3.0});
  const SimulationModel m = SimulationModel::build(cfg);
  CHECK(m.magnetic);
  for (int c = 0; c < 6; ++c) CHECK(m.ids[c].size() == m.layout.cells());
}

TEST_CASE("PML thicker than the domain is rejected on the boundary.layers line") {
  RunConfig cfg = base_config();
  cfg.boundary.layers = {5, 5, 10, 10, 5, 5};
  const ConfigError e = build_error(cfg);
  CHECK(e.key() == "boundary.layers");
  CHECK(e.file() == "model.ini");
  CHECK(e.line() == 7);
  // The same layers are fine with a PEC boundary, which has none.
  cfg.boundary.type = BoundaryType::Pec;
  CHECK_NOTHROW(SimulationModel::build(cfg));
}

TEST_CASE("a source in a PML cell or on a PEC sample is rejected") {
  RunConfig cfg = base_config();
  cfg.sources[0].position = Vec3{0.1, 0.1, 0.03};  // z cell 2 < 5 layers
  ConfigError e = build_error(cfg);
  CHECK(e.key() == "source.feed.position");
  CHECK(e.line() == 12);

  cfg = base_config();
  ObjectConfig metal;
  metal.name = "m";
  metal.center = Vec3{0.1, 0.1, 0.1};
  metal.size = Vec3{0.04, 0.04, 0.04};
  metal.material = "pec";
  cfg.objects.push_back(metal);
  e = build_error(cfg);
  CHECK(e.key() == "source.feed.position");

  // With a bare PEC wall the tangential Ez at x = 0 is PEC as well.
  cfg = base_config();
  cfg.boundary.type = BoundaryType::Pec;
  cfg.sources[0].position = Vec3{0.0, 0.1, 0.1};
  e = build_error(cfg);
  CHECK(e.key() == "source.feed.position");
  cfg.sources[0].position = Vec3{0.01, 0.1, 0.1};
  CHECK_NOTHROW(SimulationModel::build(cfg));
}

TEST_CASE("too many cells, unknown object material and too many materials") {
  RunConfig cfg = base_config();
  cfg.grid.size_m = Vec3{21, 21, 21};
  cfg.grid.cell_size_m = Vec3{0.01, 0.01, 0.01};  // 2100^3: 2.3e9 float4 lanes, never allocated
  ConfigError e = build_error(cfg);
  CHECK(e.key() == "grid.size");
  CHECK(e.line() == 3);

  cfg = base_config();
  cfg.grid.size_m = Vec3{0.2, 0.0, 0.2};
  CHECK(build_error(cfg).key() == "grid.size");

  cfg = base_config();
  ObjectConfig o;
  o.name = "blob";
  o.material = "unobtainium";
  cfg.objects.push_back(o);
  e = build_error(cfg);
  CHECK(e.key() == "object.blob.material");
  CHECK(e.file() == "model.ini");
  CHECK(e.line() == 20);

  cfg = base_config();
  for (int i = 0; i < 300; ++i) cfg.materials.push_back(MaterialConfig{"m" + std::to_string(i)});
  e = build_error(cfg);
  CHECK(e.file() == "model.ini");
}

TEST_CASE("device_bytes counts fields, ids, auxiliaries and probe batches") {
  RunConfig cfg = base_config();
  cfg.boundary.type = BoundaryType::Pec;
  const SimulationModel plain = SimulationModel::build(cfg);
  const std::size_t cells = plain.layout.cells();
  const std::size_t base = plain.device_bytes(0);
  CHECK(base >= 27 * cells);
  CHECK(base < 27 * cells + 4096);  // the tables are small next to the fields

  cfg.boundary.type = BoundaryType::Upml;
  const SimulationModel upml = SimulationModel::build(cfg);
  CHECK(upml.device_bytes(0) - base >= 24 * upml.upml.cells);

  ProbeConfig p;
  p.name = "p";
  p.position = Vec3{0.1, 0.1, 0.1};
  p.fields = {Component::Ex, Component::Ey, Component::Ez};
  cfg.probes.push_back(p);
  const SimulationModel probed = SimulationModel::build(cfg);
  CHECK(probed.device_bytes(100) - probed.device_bytes(0) == 3 * 100 * 4);

  cfg.materials.push_back(MaterialConfig{"ferrite", 1.0, 3.0});
  const SimulationModel mag = SimulationModel::build(cfg);
  CHECK(mag.device_bytes(0) - probed.device_bytes(0) == 3 * cells + 5 * 4);
}

TEST_CASE("device_bytes counts the onepass variant's second set of fields and its ids per float4") {
  const SimulationModel m = SimulationModel::build(base_config());
  // Six more float arrays of the padded layout, as the backends' check_memory adds for onepass.
  // Plus onepass and tblock's E ids per float4 (backends/device_tables.hpp e_id_float4_table).
  CHECK(m.device_bytes(256, true) - m.device_bytes(256) ==
        6 * m.layout.cells() * sizeof(float) + m.layout.cells() / 4);
  CHECK(m.device_bytes(256, false) == m.device_bytes(256));
  // A magnetic model's H ids per float4 too.
  RunConfig cfg = base_config();
  cfg.materials.push_back(MaterialConfig{"ferrite", 1.0, 3.0});
  const SimulationModel mag = SimulationModel::build(cfg);
  REQUIRE(mag.magnetic);
  CHECK(mag.device_bytes(256, true) - mag.device_bytes(256) ==
        6 * mag.layout.cells() * sizeof(float) + 2 * (mag.layout.cells() / 4));
}
