// SimulationModel::build for 2D configs (grid.dims == 2): the plane grid and layout, ids of the
// active components only with the plane's walls and row padding, objects cut by the plane, UPML
// without z layers, sources and probes per mode, the wave model's frame, and the memory counts.
#include <doctest/doctest.h>

#include <cmath>

#include "errors.hpp"
#include "model/simulation_model.hpp"

using namespace clfdtd;

namespace {

constexpr std::uint8_t kPec = MaterialTable::kPec;
constexpr std::uint8_t kVac = MaterialTable::kVacuum;

// 20 x 10 cells of 1 cm (rows padded to 12), 3 UPML layers, a dielectric rectangle and a PEC
// disc, one line current at the centre and one probe, 40 steps.
RunConfig plane_config(PlaneMode mode, Equation equation = Equation::Maxwell) {
  RunConfig cfg;
  cfg.source_file = "plane.ini";
  cfg.grid.dims = 2;
  cfg.grid.mode = mode;
  cfg.grid.equation = equation;
  cfg.grid.size_m = Vec3{0.2, 0.1, 1.0};
  cfg.grid.cell_size_m = Vec3{0.01, 0.01, 1.0};
  cfg.time.steps = 40;
  cfg.boundary.layers = {3, 3, 3, 3, 0, 0};
  cfg.materials.push_back(MaterialConfig{"diel", 4.0});
  ObjectConfig rect;
  rect.name = "rect";
  rect.center = Vec3{0.1, 0.05, 0};
  rect.size = Vec3{0.04, 0.02, 0};
  rect.material = "diel";
  cfg.objects.push_back(rect);
  ObjectConfig disc;
  disc.name = "disc";
  disc.shape = ShapeKind::Sphere;
  disc.center = Vec3{0.155, 0.05, 0};
  disc.radius = 0.0151;
  disc.material = "pec";
  cfg.objects.push_back(disc);
  SourceConfig s;
  s.name = "line";
  s.kind = SourceKind::Current;
  s.axis = mode == PlaneMode::Tm ? Axis::Z : Axis::X;
  s.position = Vec3{0.06, 0.05, 0};
  s.frequency_hz = 3e9;
  cfg.sources.push_back(s);
  ProbeConfig p;
  p.name = "p";
  p.position = Vec3{0.07, 0.04, 0};
  p.fields = mode == PlaneMode::Tm ? std::vector<Component>{Component::Ez}
                                   : std::vector<Component>{Component::Hz, Component::Ey};
  cfg.probes.push_back(p);
  cfg.lines = {{"grid.equation", 4}, {"source.line.position", 12}, {"source.line.axis", 13},
               {"object.rect.shape", 20}, {"probe.p.fields", 30}, {"output.energy", 40},
               {"material.diel.mu_r", 50}, {"device.variant", 60}};
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

std::uint8_t id_at(const SimulationModel& m, Component c, int i, int j) {
  return m.id(c)[m.layout.index(i, j, 0)];
}

}  // namespace

TEST_CASE("a tm model: plane grid and layout, Ez ids with walls, padding and objects") {
  const SimulationModel m = SimulationModel::build(plane_config(PlaneMode::Tm));
  CHECK(m.two_d());
  CHECK(m.mode == PlaneMode::Tm);
  CHECK(m.equation == Equation::Maxwell);
  CHECK(m.grid.n == std::array<int, 3>{20, 10, 1});
  CHECK(m.grid.d == std::array<double, 3>{0.01, 0.01, 1.0});
  CHECK(m.grid.dt == doctest::Approx(0.9 * 0.01 / (kC0 * std::sqrt(2.0))).epsilon(1e-12));
  CHECK(m.layout.plane);
  CHECK(m.layout.nyp() == 12);
  CHECK(m.layout.cells() == 240);
  // Only Ez is meshed (no magnetic material): Ex, Ey and the H components stay empty.
  CHECK(m.id(Component::Ez).size() == 240);
  for (Component c : {Component::Ex, Component::Ey, Component::Hx, Component::Hy, Component::Hz})
    CHECK(m.id(c).empty());
  CHECK(m.cell_ids.size() == 200);

  // Walls: Ez is tangential to both low lines; the row padding is PEC; the high end is not.
  for (int j = 0; j < 10; ++j) CHECK(id_at(m, Component::Ez, 0, j) == kPec);
  for (int i = 0; i < 20; ++i) {
    CHECK(id_at(m, Component::Ez, i, 0) == kPec);
    CHECK(id_at(m, Component::Ez, i, 10) == kPec);
    CHECK(id_at(m, Component::Ez, i, 11) == kPec);
  }
  CHECK(id_at(m, Component::Ez, 19, 9) == kVac);
  CHECK(id_at(m, Component::Ez, 5, 5) == kVac);

  // The rectangle spans x 8..12 cm, y 4..6 cm; Ez sits on whole cells, so its edges carry the
  // mean of both sides (eps_r 4 and 1) and its corners a quarter of the rectangle's.
  CHECK(id_at(m, Component::Ez, 10, 5) == 2);
  CHECK(m.materials.entry(id_at(m, Component::Ez, 8, 5)).eps_r == 2.5);
  CHECK(m.materials.entry(id_at(m, Component::Ez, 8, 4)).eps_r == 1.75);
  CHECK(m.materials.entry(id_at(m, Component::Ez, 12, 6)).eps_r == 1.75);
  CHECK(id_at(m, Component::Ez, 13, 5) == kVac);
  CHECK(id_at(m, Component::Ez, 10, 7) == kVac);
  // The disc (r = 1.51 cm around 15.5, 5 cm): a circle, not its bounding square.
  CHECK(id_at(m, Component::Ez, 16, 5) == kPec);
  CHECK(id_at(m, Component::Ez, 15, 6) == kPec);
  CHECK(id_at(m, Component::Ez, 14, 5) == kPec);  // 1.50 cm from the centre
  CHECK(id_at(m, Component::Ez, 14, 4) == kVac);  // 1.80 cm: in the bounding square, not the disc
  CHECK(id_at(m, Component::Ez, 17, 6) == kVac);  // 1.80 cm
  // Cell centres (model.vti), nx*ny without padding: cell (9, 4) has its centre at 9.5, 4.5 cm.
  CHECK(m.cell_ids[9 * 10 + 4] == 2);
  CHECK(m.cell_ids[13 * 10 + 4] == kVac);

  // UPML in x and y only: the interior is 14 x 4 cells, each box one cell deep in z.
  CHECK(m.upml.layers == std::array<int, 6>{3, 3, 3, 3, 0, 0});
  CHECK(m.upml.cells == 200 - 14 * 4);
  for (const auto& b : m.upml.boxes) {
    CHECK(b.k0 == 0);
    CHECK(b.k1 == 1);
  }

  REQUIRE(m.sources.size() == 1);
  CHECK(m.sources[0].component == Component::Ez);
  CHECK(m.sources[0].cell == std::array<int, 3>{6, 5, 0});
  CHECK(m.sources[0].j.size() == 40);
  REQUIRE(m.probes.samples.size() == 1);
  CHECK(m.probes.samples[0].component == Component::Ez);
  CHECK(m.probes.samples[0].cell == std::array<int, 3>{7, 4, 0});
  CHECK(m.probes.samples[0].position_m.x == doctest::Approx(0.07));
  CHECK(m.probes.samples[0].position_m.z == 0);
}

TEST_CASE("a te model: Ex and Ey ids with their own walls; a magnetic material meshes Hz") {
  RunConfig cfg = plane_config(PlaneMode::Te);
  cfg.materials.push_back(MaterialConfig{"ferrite", 1.0, 3.0});
  const SimulationModel m = SimulationModel::build(cfg);
  CHECK(m.mode == PlaneMode::Te);
  CHECK(m.magnetic);
  for (Component c : {Component::Ex, Component::Ey, Component::Hz}) CHECK(m.id(c).size() == 240);
  for (Component c : {Component::Ez, Component::Hx, Component::Hy}) CHECK(m.id(c).empty());
  // Ex (along x) is tangential only to the j = 0 line, Ey only to the i = 0 line.
  CHECK(id_at(m, Component::Ex, 0, 5) == kVac);
  CHECK(id_at(m, Component::Ex, 5, 0) == kPec);
  CHECK(id_at(m, Component::Ey, 0, 5) == kPec);
  CHECK(id_at(m, Component::Ey, 5, 0) == kVac);
  CHECK(id_at(m, Component::Hz, 0, 0) == kVac);  // H has no wall
  for (Component c : {Component::Ex, Component::Ey, Component::Hz}) {
    CHECK(id_at(m, c, 5, 10) == kPec);  // padding
    CHECK(id_at(m, c, 5, 11) == kPec);
  }
  // Ex at (i + 1/2, j): x = 10.5 and 11.5 cm lie in the rectangle (x 8..12 cm), 12.5 cm not.
  CHECK(id_at(m, Component::Ex, 10, 5) == 2);
  CHECK(id_at(m, Component::Ex, 12, 5) == kVac);
  CHECK(id_at(m, Component::Ex, 11, 5) == 2);
  // Ey at (i, j + 1/2): y = 6.5 cm is outside y 4..6, 5.5 cm inside.
  CHECK(id_at(m, Component::Ey, 10, 5) == 2);
  CHECK(id_at(m, Component::Ey, 10, 6) == kVac);

  REQUIRE(m.sources.size() == 1);
  CHECK(m.sources[0].component == Component::Ex);
  CHECK(m.sources[0].cell == std::array<int, 3>{6, 5, 0});  // x = 6 cm -> (i + 1/2) = 5.5 -> 6
  REQUIRE(m.probes.samples.size() == 2);
  CHECK(m.probes.samples[0].component == Component::Hz);
  CHECK(m.probes.samples[1].component == Component::Ey);
  CHECK(m.probes.samples[1].cell == std::array<int, 3>{7, 4, 0});  // y = 4 cm -> 3.5 -> 4
}

TEST_CASE("a wave model: Ez alone, the absorber's frame, a third less field memory") {
  RunConfig cfg = plane_config(PlaneMode::Tm, Equation::Wave);
  const SimulationModel w = SimulationModel::build(cfg);
  CHECK(w.equation == Equation::Wave);
  CHECK(w.active_components() == std::vector<Component>{Component::Ez});
  CHECK(w.id(Component::Ez).size() == 240);
  // The frame: 4 cells on each side (3 layers + 1 ring): 200 - 12 x 2 cells.
  CHECK(w.wave_frame_cells() == 200 - 12 * 2);
  CHECK(w.upml.in_wave_frame(3, 5, w.grid.n));
  CHECK_FALSE(w.upml.in_wave_frame(4, 4, w.grid.n));
  CHECK(w.upml.in_wave_frame(16, 5, w.grid.n));
  CHECK_FALSE(w.upml.in_wave_frame(15, 5, w.grid.n));

  // Without an absorber the wave model has 2 fields per cell against Yee's 3.
  cfg.boundary.type = BoundaryType::Pec;
  RunConfig yee_cfg = plane_config(PlaneMode::Tm);
  yee_cfg.boundary.type = BoundaryType::Pec;
  const SimulationModel wave_pec = SimulationModel::build(cfg);
  const SimulationModel yee_pec = SimulationModel::build(yee_cfg);
  CHECK(wave_pec.wave_frame_cells() == 0);
  CHECK(yee_pec.device_bytes(0) - wave_pec.device_bytes(0) == 240 * sizeof(float));

  // A source in the frame is refused: at x = 3 cm it drives the ring cell i = 3.
  cfg = plane_config(PlaneMode::Tm, Equation::Wave);
  cfg.sources[0].position = Vec3{0.03, 0.05, 0};
  ConfigError e = build_error(cfg);
  CHECK(e.key() == "source.line.position");
  CHECK(e.line() == 12);
  CHECK(e.expected().find("frame") != std::string::npos);
  // The same position is fine for Yee (cell 3 is past the 3 layers).
  RunConfig yee = plane_config(PlaneMode::Tm);
  yee.sources[0].position = Vec3{0.03, 0.05, 0};
  CHECK_NOTHROW(SimulationModel::build(yee));
  cfg.sources[0].position = Vec3{0.04, 0.05, 0};  // cell 4: the first one inside the frame
  CHECK_NOTHROW(SimulationModel::build(cfg));
}

TEST_CASE("2D device and host bytes count only the plane's components") {
  RunConfig cfg = plane_config(PlaneMode::Tm);
  cfg.boundary.type = BoundaryType::Pec;
  cfg.probes.clear();
  const SimulationModel m = SimulationModel::build(cfg);
  // 3 float fields and one id array of the padded plane, plus small tables.
  CHECK(m.device_bytes(0) >= 13 * 240);
  CHECK(m.device_bytes(0) < 13 * 240 + 2048);  // materials, x/y profiles, the source table
  cfg.boundary.type = BoundaryType::Upml;
  const SimulationModel u = SimulationModel::build(cfg);
  // UPML: Dz, Bx, By per PML cell and the boxes' bounds.
  CHECK(u.device_bytes(0) - m.device_bytes(0) ==
        3 * sizeof(float) * u.upml.cells + u.upml.boxes.size() * 8 * sizeof(int));
  // Host: one id array of 240 and the 200 cell-centre ids, one source table of 40 doubles,
  // model.vti's arrays (13 B per cell).
  CHECK(model_host_bytes(cfg, u.grid, false) == 240 + 200 + 40 * (sizeof(double) + sizeof(float)) + 13 * 200);
  CHECK(model_host_bytes(cfg, u.grid, true) == 3 * 240 + 200 + 40 * (sizeof(double) + sizeof(float)) + 13 * 200);
}

TEST_CASE("what a 2D model refuses, with key and line") {
  RunConfig cfg = plane_config(PlaneMode::Te, Equation::Wave);
  ConfigError e = build_error(cfg);
  CHECK(e.key() == "grid.equation");
  CHECK(e.line() == 4);
  CHECK(e.file() == "plane.ini");

  cfg = plane_config(PlaneMode::Tm);
  cfg.objects[0].shape = ShapeKind::Cylinder;
  e = build_error(cfg);
  CHECK(e.key() == "object.rect.shape");
  CHECK(e.line() == 20);
  CHECK(e.expected().find("cylinder is not meaningful in 2D") != std::string::npos);

  cfg = plane_config(PlaneMode::Tm);
  cfg.sources[0].axis = Axis::X;
  e = build_error(cfg);
  CHECK(e.key() == "source.line.axis");
  CHECK(e.line() == 13);
  cfg = plane_config(PlaneMode::Te);
  cfg.sources[0].axis = Axis::Z;
  CHECK(build_error(cfg).key() == "source.line.axis");

  cfg = plane_config(PlaneMode::Tm);
  cfg.probes[0].fields = {Component::Hz};
  e = build_error(cfg);
  CHECK(e.key() == "probe.p.fields");
  CHECK(e.expected() == "fields among Ez, Hx, Hy in a tm model, got Hz");
  cfg = plane_config(PlaneMode::Tm, Equation::Wave);
  cfg.probes[0].fields = {Component::Ez, Component::Hx};
  CHECK(build_error(cfg).key() == "probe.p.fields");

  cfg = plane_config(PlaneMode::Tm);
  cfg.device.variant = KernelVariant::OnePass;
  CHECK(build_error(cfg).key() == "device.variant");

  cfg = plane_config(PlaneMode::Tm, Equation::Wave);
  cfg.output.energy = true;
  CHECK(build_error(cfg).key() == "output.energy");
  cfg.output.energy = false;
  cfg.materials[0].mu_r = 2;
  e = build_error(cfg);
  CHECK(e.key() == "material.diel.mu_r");
  CHECK(e.line() == 50);
  // The same are fine for Yee tm.
  cfg.grid.equation = Equation::Maxwell;
  cfg.output.energy = true;
  CHECK_NOTHROW(SimulationModel::build(cfg));
}
