// The GPU engine (float4 lanes, local tiles, UPML, sources, probes) against the double-precision
// reference engine, cell by cell after a few hundred steps (NVIDIA FDTD3d's check), on every API
// with a device here and every variant. Grids have odd nx, ny and nz not a multiple of 4 (so z
// padding lanes exist), and work-groups that do not divide the grid. Tolerance: max |diff| < 1e-4
// of each component's max |value| (float vs double).
// The float engine's error floor is ~1e-7 of the largest field it ever held (the dipole's near
// field), and it stays behind as noise when the UPML has absorbed a pulse. So the sources are
// continuous (sine) or zero-mean (Ricker, gaussian_pulse dipole), keeping the compared state well
// above that floor; with a decayed pulse the ratio reaches ~1e-3 although nothing is wrong.
#include <doctest/doctest.h>

#include "engine/engine_suite.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kD = 1e-3;  // cell size, m

// 21 x 19 x 23 cells, UPML with a different layer count on every face and none on y-low, a
// dielectric sphere, a lossy box, a PEC box, a magnetic (mu_r = 2) sphere, and a magnetic
// dielectric slab that reaches into the z-low PML; a dipole (Ez) and a current source (Ex).
RunConfig mixed_config(long steps) {
  RunConfig cfg = box_config({21, 19, 23}, kD, steps, BoundaryType::Upml);
  cfg.boundary.layers = {3, 4, 0, 2, 5, 3};
  cfg.materials = {material("glass", 4, 1, 0), material("lossy", 2, 1, 0.5),
                   material("ferrite", 1, 2, 0), material("substrate", 3, 1.5, 0)};
  cfg.objects = {box("slab", "substrate", {10.5, 9.5, 2.5}, {30, 30, 5}, kD),
                 sphere("ball", "glass", {7, 6, 12}, 3, kD),
                 box("absorber", "lossy", {14, 12, 9}, {4, 5, 4}, kD),
                 box("plate", "pec", {13, 5, 15}, {3, 2, 3}, kD),
                 sphere("core", "ferrite", {9, 13, 16}, 2.5, kD)};
  cfg.sources = {point_source("dip", SourceKind::Dipole, Axis::Z, cells(10.2, 9.1, 11.3, kD),
                              WaveformKind::Sine, 15e9, 2e-13),
                 point_source("cur", SourceKind::Current, Axis::X, cells(6, 14, 8, kD),
                              WaveformKind::Sine, 11e9, 2e7)};
  cfg.probes = {
      point_probe("a", cells(12, 10, 12, kD), {Component::Ex, Component::Ez, Component::Hy}),
      point_probe("pml", cells(1, 1, 21, kD), {Component::Ey, Component::Hz}),
      point_probe("late", cells(16, 4, 7, kD), {Component::Hx})};
  cfg.probes[2].steps = std::array<long, 2>{100, 260};
  return cfg;
}

}  // namespace

TEST_CASE("engine vs reference: mixed magnetic UPML model, several work-group shapes") {
  const SimulationModel m = SimulationModel::build(mixed_config(300));
  REQUIRE(m.magnetic);
  REQUIRE(m.upml.enabled());
  REQUIRE(m.layout.nz4 == 6);
  // The defaults (tile 2 2 30 clamped to 2 2 6), shapes that divide none of 21, 19, 6, one
  // work-item per group (every neighbour from global memory; onepass: 2 x 2), a wide shape, and
  // onepass tiles that cut both y and z (16 x 8 owning 15 x 7) with x split into chunks.
  compare_everywhere(m, {{4, 5, 4}, {8, 3, 5}, {1, 1, 1}, {1, 8, 32}, {3, 16, 8}});
}

TEST_CASE("engine vs reference: plane waves through a box holding a sphere and a plate") {
  // Two waves (E along z travelling +x; E along x travelling -y) through one box, a dielectric
  // sphere and a PEC plate inside it, and a dipole outside: the engines add every correction
  // after the step (model/plane_wave.hpp post_step_entries), the reference H's after H.
  RunConfig cfg = box_config({23, 21, 19}, kD, 220, BoundaryType::Upml);
  cfg.boundary.layers = {3, 4, 3, 2, 4, 3};
  cfg.materials = {material("glass", 4, 1, 0)};
  cfg.objects = {sphere("ball", "glass", {11, 10, 9.5}, 2.5, kD),
                 box("plate", "pec", {14, 12, 10}, {1, 3, 3}, kD)};
  cfg.plane_waves = {plane_wave("px", Axis::Z, 0, 1, cells(11.5, 10.5, 9.5, kD), cells(10, 9, 7, kD),
                                WaveformKind::Sine, 20e9),
                     plane_wave("my", Axis::X, 1, -1, cells(11.5, 10.5, 9.5, kD), cells(10, 9, 7, kD),
                                WaveformKind::Sine, 25e9, 0.5)};
  cfg.sources = {point_source("dip", SourceKind::Dipole, Axis::Y, cells(18, 15, 8, kD),
                              WaveformKind::Sine, 15e9, 5e-19)};  // its near field about the waves' size
  cfg.probes = {point_probe("in", cells(9, 9, 9, kD), {Component::Ez, Component::Hy}),
                point_probe("out", cells(20, 4, 9, kD), {Component::Ez, Component::Ex})};
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.plane_waves.size() == 2);
  compare_everywhere(m, {{4, 5, 4}, {1, 1, 1}});
  // tblock cannot pair steps around the corrections: it steps as onepass, and says so.
  for (device::Api api : engine_apis()) {
    auto e = engine::make_gpu_engine(api, m, engine_config(KernelVariant::TBlock));
    CHECK(e->kernel_variant().find("onepass steps: plane waves") != std::string::npos);
    compare_with_reference(*e, m);
  }
}

TEST_CASE("engine vs reference: an oblique plane wave through a box holding a sphere") {
  // A wave off every axis: each sample by the surface reads two components across it, each
  // interpolated between two line nodes (entries with several rows per sample).
  RunConfig cfg = box_config({23, 21, 19}, kD, 200, BoundaryType::Upml);
  cfg.boundary.layers = {3, 4, 3, 2, 4, 3};
  cfg.materials = {material("glass", 4, 1, 0)};
  cfg.objects = {sphere("ball", "glass", {11, 10, 9.5}, 2.5, kD)};
  cfg.plane_waves = {plane_wave("ob", Axis::Z, 0, 1, cells(11.5, 10.5, 9.5, kD), cells(10, 9, 7, kD),
                                WaveformKind::Sine, 20e9)};
  cfg.plane_waves[0].direction_vector = Vec3{0.8, -0.48, 0.36};
  cfg.probes = {point_probe("in", cells(9, 9, 9, kD), {Component::Ez, Component::Hy}),
                point_probe("out", cells(20, 4, 9, kD), {Component::Ez, Component::Ex})};
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.plane_waves.size() == 1);
  REQUIRE(m.plane_waves[0].oblique);
  compare_everywhere(m, {{4, 5, 4}, {1, 1, 1}});
}

TEST_CASE("engine vs reference: non-magnetic UPML model with vacuum H coefficients") {
  RunConfig cfg = box_config({15, 13, 10}, kD, 250, BoundaryType::Upml);
  cfg.boundary.layers = {2, 3, 4, 0, 3, 2};
  cfg.materials = {material("glass", 6, 1, 0), material("lossy", 3, 1, 1.0)};
  cfg.objects = {sphere("ball", "glass", {8, 7, 5}, 2.5, kD),
                 box("absorber", "lossy", {11, 9, 4}, {2, 3, 3}, kD),
                 box("wire", "pec", {5, 10, 6}, {1, 4, 1}, kD)};
  cfg.sources = {point_source("dip", SourceKind::Dipole, Axis::Z, cells(6, 6, 4, kD),
                              WaveformKind::Sine, 15e9, 2e-13),
                 point_source("cur", SourceKind::Current, Axis::Y, cells(9, 5, 5, kD),
                              WaveformKind::Ricker, 10e9, 2e7)};
  cfg.probes = {point_probe("p", cells(7, 8, 6, kD), {Component::Ez, Component::Hx})};
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE_FALSE(m.magnetic);
  REQUIRE(m.layout.nzp() == 12);
  compare_everywhere(m, {{2, 3, 2}, {2, 8, 16}});
}

// Anisotropic materials reach the kernels as one entry per axis (model/materials.hpp): the
// device's coefficient tables and per-component ids must give the reference's fields.
TEST_CASE("engine vs reference: anisotropic materials (eps, mu, sigma, poles per axis) in a UPML model") {
  RunConfig cfg = box_config({15, 13, 10}, kD, 250, BoundaryType::Upml);
  cfg.boundary.layers = {2, 3, 4, 0, 3, 2};
  cfg.materials = {anisotropic_material("crystal", {2, 4, 6}, {1, 1, 1}, {0, 0, 0}),
                   anisotropic_material("ferrite", {3, 1.5, 2}, {1, 2.5, 1.5}, {1.0, 0, 0.3})};
  // Poles along some axes only (material axes): a Lorentz x, plain y, Debye z block inside, and
  // a Debye-along-x one reaching into the x-high and y-low layers (the dispersive UPML rows).
  MaterialConfig hmm = anisotropic_material("hmm", {2, 1, 3}, {1, 1, 1}, {0, 0, 0.2});
  hmm.pole_axes[0] = {PoleConfig{PoleKind::Lorentz, {1.5, 12e9, 1e9}}};
  hmm.pole_axes[2] = {PoleConfig{PoleKind::Debye, {4, 2e-11, 0}}};
  MaterialConfig soil = anisotropic_material("soil", {3, 3, 3}, {1, 1, 1}, {0.1, 0.1, 0.1});
  soil.pole_axes[0] = {PoleConfig{PoleKind::Debye, {10, 3e-11, 0}}};
  cfg.materials.push_back(hmm);
  cfg.materials.push_back(soil);
  cfg.objects = {sphere("ball", "crystal", {8, 7, 5}, 2.5, kD),
                 box("slab", "ferrite", {11, 9, 2}, {4, 3, 6}, kD),  // into the z-low layers
                 box("block", "hmm", {5, 6, 6}, {2, 2, 2}, kD),
                 box("ground", "soil", {12, 2, 6}, {2, 4, 2}, kD)};
  cfg.sources = {point_source("dip", SourceKind::Dipole, Axis::Z, cells(6, 6, 4, kD),
                              WaveformKind::Sine, 15e9, 2e-13),
                 point_source("cur", SourceKind::Current, Axis::Y, cells(9, 5, 5, kD),
                              WaveformKind::Ricker, 10e9, 2e7)};
  cfg.probes = {point_probe("p", cells(7, 8, 6, kD), {Component::Ex, Component::Ey, Component::Hz})};
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.magnetic);
  REQUIRE(m.materials.any_anisotropic());
  REQUIRE(m.dispersion.any_upml);
  compare_everywhere(m, {{2, 3, 2}});
}

// Lumped elements (model/lumped.hpp) reach the kernels as table entries with a conductivity, a
// permittivity and poles: series R L C (a Lorentz pole), R C (Debye), L alone (an undamped Drude
// pole) and R || L || C, one on a dielectric sample (its eps_r and the element's add up).
TEST_CASE("engine vs reference: lumped elements (series and parallel R, L, C) in a UPML model") {
  RunConfig cfg = box_config({15, 13, 12}, kD, 250, BoundaryType::Upml);
  cfg.boundary.layers = {2, 3, 2, 2, 3, 2};
  cfg.materials = {material("board", 3, 1, 0.01)};
  cfg.objects = {box("board", "board", {8, 6, 4}, {4, 4, 2}, kD)};
  auto element = [&](const std::string& name, Axis axis, Vec3 at, std::optional<Vec3> size,
                     std::optional<double> r, std::optional<double> l, std::optional<double> c,
                     LumpedCircuit circuit) {
    LumpedConfig e;
    e.name = name;
    e.axis = axis;
    e.position = at;
    e.size_m = size;
    e.resistance_ohm = r;
    e.inductance_h = l;
    e.capacitance_f = c;
    e.circuit = circuit;
    cfg.lumped.push_back(e);
  };
  element("rlc", Axis::Z, cells(6, 6, 6, kD), cells(0, 2, 2, kD), 20.0, 0.5e-9, 0.3e-12, LumpedCircuit::Series);
  element("rc", Axis::X, cells(9, 8, 7, kD), std::nullopt, 50.0, std::nullopt, 0.2e-12, LumpedCircuit::Series);
  element("l", Axis::Y, cells(5, 9, 5, kD), std::nullopt, std::nullopt, 1e-9, std::nullopt, LumpedCircuit::Series);
  element("tank", Axis::Z, cells(8, 6, 4, kD), std::nullopt, 200.0, 2e-9, 0.1e-12, LumpedCircuit::Parallel);
  cfg.sources = {point_source("dip", SourceKind::Dipole, Axis::Z, cells(7, 7, 5, kD),
                              WaveformKind::Sine, 15e9, 2e-13),
                 point_source("cur", SourceKind::Current, Axis::Y, cells(10, 5, 6, kD),
                              WaveformKind::Ricker, 10e9, 2e7)};
  cfg.probes = {point_probe("p", cells(7, 8, 6, kD), {Component::Ex, Component::Ey, Component::Ez})};
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.lumped.size() == 4);
  REQUIRE(m.materials.any_dispersive());
  compare_everywhere(m, {{2, 3, 2}});
}

// Plane waves in an anisotropic, magnetic background with a Debye pole along x only: each
// wave's corrections take its own components' coefficients and the line the axes' values.
TEST_CASE("engine vs reference: plane waves in an anisotropic dispersive background") {
  RunConfig cfg = box_config({23, 21, 19}, kD, 220, BoundaryType::Upml);
  cfg.boundary.layers = {3, 4, 3, 2, 4, 3};
  MaterialConfig wet = anisotropic_material("wet", {3, 2, 5}, {1, 1.5, 1}, {0, 0.02, 0});
  wet.pole_axes[0] = {PoleConfig{PoleKind::Debye, {6, 2e-11, 0}}};
  cfg.materials = {wet, material("glass", 4, 1, 0)};
  cfg.objects = {box("fill", "wet", {11.5, 10.5, 9.5}, {40, 40, 40}, kD),  // into the layers
                 sphere("ball", "glass", {11, 10, 9.5}, 2.5, kD)};
  cfg.plane_waves = {plane_wave("px", Axis::Z, 0, 1, cells(11.5, 10.5, 9.5, kD), cells(10, 9, 7, kD),
                                WaveformKind::Sine, 20e9),
                     plane_wave("my", Axis::X, 1, -1, cells(11.5, 10.5, 9.5, kD), cells(10, 9, 7, kD),
                                WaveformKind::Sine, 25e9, 0.5)};
  cfg.probes = {point_probe("in", cells(9, 9, 9, kD), {Component::Ez, Component::Ex}),
                point_probe("out", cells(20, 4, 9, kD), {Component::Ez, Component::Ex})};
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.plane_waves.size() == 2);
  CHECK(m.plane_waves[0].background == "wet");
  REQUIRE(m.dispersion.any_upml);
  compare_everywhere(m, {{4, 5, 4}});
}

TEST_CASE("engine vs reference: PEC cavity without UPML, two sources on one sample") {
  RunConfig cfg = box_config({11, 9, 7}, kD, 200, BoundaryType::Pec);
  cfg.materials = {material("glass", 2.5, 1, 0)};
  cfg.objects = {box("block", "glass", {3, 6, 4}, {3, 3, 3}, kD)};
  // Both drive the same Ez sample: the engine must add both currents.
  cfg.sources = {point_source("a", SourceKind::Current, Axis::Z, cells(6, 4, 3.5, kD),
                              WaveformKind::Ricker, 20e9, 5e7),
                 point_source("b", SourceKind::Dipole, Axis::Z, cells(6, 4, 3.5, kD),
                              WaveformKind::GaussianPulse, 15e9, 1e-12),
                 point_source("c", SourceKind::Current, Axis::X, cells(7.5, 2, 5, kD),
                              WaveformKind::Ricker, 20e9, 5e7)};
  cfg.probes = {
      point_probe("p", cells(4, 3, 2, kD), {Component::Ex, Component::Ey, Component::Hz})};
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE_FALSE(m.upml.enabled());
  REQUIRE(m.sources[0].cell == m.sources[1].cell);
  compare_everywhere(m, {{3, 2, 1}, {4, 4, 16}});
}

TEST_CASE("engine vs reference: plain cells next to every kind of UPML slab") {
  // physics_helpers.hpp slab_edge_config: the z-slab float4s around the plain ones, y_lo slab
  // rows beside plain rows (onepass reads their H_new from its output), faces without layers;
  // magnetic and not. onepass: 3 planes of 2 x 2 (y, z4) tiles and of 4 x 16; tile: 3 x 2 x 2
  // and 2 x 4 x 16 groups.
  for_each_slab_edge_model(160, [](const SimulationModel& m) {
    compare_everywhere(m, {{3, 2, 2}, {3, 4, 16}});
  });
}

// Small enough for tools/oclgrind_check.sh, which runs this case under oclgrind's checks.
TEST_CASE("engine vs reference: tiny plane wave model (oclgrind)") {
  // A box at the margins' limit (2 cells from the UPML on x, from the wall on y and z: its
  // corrections reach the first and last plain cells), nz = 9 (z padding lanes).
  RunConfig cfg = box_config({10, 8, 9}, kD, 12, BoundaryType::Upml);
  cfg.boundary.layers = {1, 1, 0, 0, 0, 0};
  cfg.plane_waves = {plane_wave("pw", Axis::Y, 2, -1, cells(5, 4, 4.5, kD), cells(4, 4, 5, kD),
                                WaveformKind::Sine, 60e9)};
  // A dipole inside the box gives every component a field of its own (the wave alone leaves four
  // of them at rounding, which a relative comparison cannot judge), about the wave's size (a
  // stronger one's rounding outweighs the wave's small Hx in 12 steps).
  cfg.sources = {point_source("dip", SourceKind::Dipole, Axis::X, cells(5.5, 3, 4, kD),
                              WaveformKind::Sine, 50e9, 1e-18)};
  cfg.probes = {point_probe("p", cells(5, 4, 4, kD), {Component::Ey, Component::Hx})};
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.plane_waves.size() == 1);
  for_each_api_variant([&](device::Api api, KernelVariant v) {
    compare_with_reference(*engine::make_gpu_engine(api, m, engine_config(v, {{2, 4, 2}})), m);
  });
}

TEST_CASE("engine vs reference: tiny magnetic UPML model (oclgrind)") {
  RunConfig cfg = box_config({7, 6, 5}, kD, 12, BoundaryType::Upml);
  cfg.boundary.layers = {1, 2, 0, 1, 1, 1};
  cfg.materials = {material("ferrite", 3, 2, 0.2)};
  cfg.objects = {box("core", "ferrite", {4, 3, 2}, {2, 2, 2}, kD)};
  cfg.sources = {point_source("dip", SourceKind::Dipole, Axis::Z, cells(3, 3, 2, kD),
                              WaveformKind::Gaussian, 60e9, 1e-12)};
  cfg.probes = {point_probe("p", cells(2, 2, 3, kD), {Component::Ez, Component::Hy})};
  cfg.probes[0].steps = std::array<long, 2>{0, 12};
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.magnetic);
  // A 2 x 4 x 2 group (x y z4): tile edges inside the 7 x 6 x 2 float4 grid on every axis.
  for_each_api_variant([&](device::Api api, KernelVariant v) {
    compare_with_reference(*engine::make_gpu_engine(api, m, engine_config(v, {{2, 4, 2}})), m);
  });
}

TEST_CASE("engine vs reference: dispersive materials (Debye, Drude, Lorentz) beside a plain dielectric") {
  // update_dispersion after the sources, on every variant; a mixture of two dispersive materials
  // on the face they share; a source inside a dispersive box. tblock steps as onepass.
  RunConfig cfg = box_config({19, 17, 15}, kD, 240, BoundaryType::Upml);
  cfg.boundary.layers = {3, 2, 0, 3, 2, 3};
  cfg.materials = {dispersive("water", 5, {pole(PoleKind::Debye, 30, 2e-11)}),
                   dispersive("plasma", 1.5, {pole(PoleKind::Drude, 30e9, 3e9)}),
                   dispersive("osc", 2, {pole(PoleKind::Lorentz, 2, 25e9, 1e9), pole(PoleKind::Debye, 1, 5e-12)}, 0.2),
                   material("glass", 3, 1, 0)};
  cfg.objects = {box("w", "water", {6, 6, 6}, {4, 4, 4}, kD),
                 box("p", "plasma", {10, 6, 6}, {4, 4, 4}, kD),  // shares the face x = 8 with w
                 sphere("o", "osc", {11, 11, 9}, 2.6, kD), box("g", "glass", {5, 12, 10}, {3, 3, 3}, kD)};
  cfg.sources = {point_source("dip", SourceKind::Dipole, Axis::Z, cells(9.2, 9.1, 8.3, kD),
                              WaveformKind::Sine, 20e9, 1e-16),
                 point_source("in", SourceKind::Current, Axis::X, cells(6, 6, 6, kD),
                              WaveformKind::Sine, 15e9, 1e6)};
  cfg.probes = {point_probe("w", cells(6, 6, 6, kD), {Component::Ex, Component::Ez}),
                point_probe("o", cells(11, 11, 9, kD), {Component::Ey})};
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.dispersion.rows.size() > 3);  // the three materials and their mixtures
  compare_everywhere(m, {{4, 5, 4}});
  for (device::Api api : engine_apis()) {
    auto e = engine::make_gpu_engine(api, m, engine_config(KernelVariant::TBlock));
    CHECK(e->kernel_variant().find("onepass steps: dispersive materials") != std::string::npos);
    compare_with_reference(*e, m);
  }
}

// Small enough for tools/oclgrind_check.sh.
TEST_CASE("engine vs reference: tiny dispersive model (oclgrind)") {
  RunConfig cfg = box_config({8, 7, 9}, kD, 12, BoundaryType::Upml);
  cfg.boundary.layers = {1, 1, 0, 0, 1, 0};
  MaterialConfig wet = material("wet", 2, 1, 0);
  PoleConfig p;
  p.kind = PoleKind::Debye;
  p.p = {20, 3e-11, 0};
  wet.poles = {p, p};
  wet.poles[1].p = {3, 2e-12, 0};
  cfg.materials = {wet};
  // Into the x-low and z-low layers: the stage's UPML branch reads H at i - 1 and k - 1.
  cfg.objects = {box("b", "wet", {2.5, 3.5, 2.5}, {5, 3, 5}, kD)};
  cfg.sources = {point_source("dip", SourceKind::Dipole, Axis::Y, cells(4, 3, 4, kD),
                              WaveformKind::Sine, 50e9, 1e-18)};
  cfg.probes = {point_probe("p", cells(4, 4, 5, kD), {Component::Ey, Component::Hx})};
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.dispersion.max_poles == 2);
  REQUIRE(m.dispersion.any_upml);
  for_each_api_variant([&](device::Api api, KernelVariant v) {
    compare_with_reference(*engine::make_gpu_engine(api, m, engine_config(v, {{2, 4, 2}})), m);
  });
}
