// The scalar wave equation of the 2D reference engine against its Yee tm: the same model run in
// both equations gives the same Ez (fields and probe series) to rounding, with dielectric,
// conductive and PEC regions, PEC walls or UPML on some or all faces (the frame), unequal cells,
// and a line source right next to the frame. Also what the wave equation refuses and holds.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "backends/plane_model_helpers.hpp"
#include "backends/reference/plane_reference.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kD = 1e-3;

PlaneSpec wave_spec(BoundaryType boundary, const std::array<int, 4>& layers, double dy) {
  PlaneSpec s;
  s.nx = 46;
  s.ny = 42;
  s.dx = kD;
  s.dy = dy;
  s.steps = 320;
  s.boundary = boundary;
  s.layers = layers;
  s.materials = {material("diel", 3, 1, 0), material("lossy", 2, 1, 0.4)};
  s.paint = [dy](double x, double y) -> std::string {
    const double i = x / kD, j = y / dy;
    if (i > 28 && i < 33 && j > 10 && j < 30) return "pec";
    if (j > 30) return "diel";  // runs into the y-high layers
    if ((i - 14) * (i - 14) + (j - 12) * (j - 12) < 16) return "lossy";
    return "";
  };
  // One source well inside, one on the first cell past the low-x frame (layers + 1).
  const double edge = boundary == BoundaryType::Upml ? layers[0] + 1 : 2;
  s.sources = {point_source("a", SourceKind::Current, Axis::Z, {20.2 * kD, 22.6 * dy, 0},
                            WaveformKind::GaussianPulse, 20e9, 1e3),
               point_source("b", SourceKind::Dipole, Axis::Z, {edge * kD, 19 * dy, 0},
                            WaveformKind::Ricker, 15e9, 1e-12)};
  s.probes = {point_probe("p", {25 * kD, 25 * dy, 0}, {Component::Ez}),
              point_probe("q", {3 * kD, 36 * dy, 0}, {Component::Ez})};
  return s;
}

void check_wave_equals_yee(const PlaneSpec& spec) {
  PlaneSpec yee_spec = spec, wave_spec = spec;
  yee_spec.equation = Equation::Maxwell;
  wave_spec.equation = Equation::Wave;
  const SimulationModel my = plane_model(yee_spec);
  const SimulationModel mw = plane_model(wave_spec);
  PlaneReference yee(my), wave(mw);
  CHECK(wave.kernel_variant() == "double loops, 2D wave");
  ProbeRecorder ry(yee, my), rw(wave, mw);
  ry.at_state(0);
  rw.at_state(0);
  double scale = 0, diff = 0;
  for (long s = 0; s < spec.steps; ++s) {
    yee.step(s);
    wave.step(s);
    ry.at_state(s + 1);
    rw.at_state(s + 1);
    const auto& a = yee.field(Component::Ez);
    const auto& b = wave.field(Component::Ez);
    for (std::size_t q = 0; q < a.size(); ++q) {
      scale = std::max(scale, std::abs(a[q]));
      diff = std::max(diff, std::abs(a[q] - b[q]));
    }
  }
  REQUIRE(scale > 0);
  CHECK(diff <= 1e-12 * scale);
  const auto sy = ry.take(), sw = rw.take();
  REQUIRE(sy.size() == sw.size());
  for (std::size_t p = 0; p < sy.size(); ++p) {
    REQUIRE(sy[p].size() == static_cast<std::size_t>(spec.steps + 1));
    for (std::size_t t = 0; t < sy[p].size(); ++t) CHECK(std::abs(sy[p][t] - sw[p][t]) <= 1e-12 * scale);
  }
  std::vector<float> fy, fw;
  yee.read_field(Component::Ez, fy);
  wave.read_field(Component::Ez, fw);
  CHECK(fy.size() == fw.size());
  double far = 0;  // the field at the end reached the corner probe's region and the walls
  for (float v : fw) far = std::max(far, static_cast<double>(std::abs(v)));
  CHECK(far > 0);
  for (Component c : {Component::Hx, Component::Hy}) {
    wave.read_field(c, fw);
    CHECK(*std::max_element(fw.begin(), fw.end()) == 0.0f);  // wave carries Ez only
  }
  CHECK(wave.fields_finite());
}

}  // namespace

TEST_CASE("plane reference: the wave equation gives Yee tm's Ez to rounding") {
  SUBCASE("UPML on every face") {
    check_wave_equals_yee(wave_spec(BoundaryType::Upml, {6, 8, 7, 5}, kD));
  }
  SUBCASE("UPML on two faces, unequal cells") {
    check_wave_equals_yee(wave_spec(BoundaryType::Upml, {5, 0, 0, 6}, 1.25e-3));
  }
  SUBCASE("PEC walls") { check_wave_equals_yee(wave_spec(BoundaryType::Pec, {}, kD)); }
}

TEST_CASE("plane reference: the wave frame is the UPML plus one ring, Yee Ez only where needed") {
  PlaneSpec spec = wave_spec(BoundaryType::Upml, {6, 8, 7, 5}, kD);
  spec.equation = Equation::Wave;
  const SimulationModel m = plane_model(spec);
  PlaneReference b(m);
  // Yee Ez: the PML cells and the low-side ring (their curl of H reads a PML H sample).
  CHECK(b.yee_ez_cell(5, 20));
  CHECK(b.yee_ez_cell(6, 20));
  CHECK_FALSE(b.yee_ez_cell(7, 20));
  CHECK(b.yee_ez_cell(20, 7));
  CHECK_FALSE(b.yee_ez_cell(20, 8));
  CHECK(b.yee_ez_cell(46 - 8, 20));
  CHECK_FALSE(b.yee_ez_cell(46 - 9, 20));
  CHECK(b.yee_ez_cell(20, 42 - 5));
  CHECK_FALSE(b.yee_ez_cell(20, 42 - 6));
  // Memory: u and u_prev over the plane, Hx Hy over the frame, Ez Hx Hy auxiliaries over the
  // PML, the probe batch (the Yee tm reference holds Ez Hx Hy over the plane instead).
  const std::size_t cells = m.layout.cells();  // 46 x 44
  const std::size_t frame = 46 * 42 - (46 - 7 - 9) * (42 - 8 - 6);
  std::size_t model_frame = 0;  // the model's frame (UpmlProfile::in_wave_frame) is the same
  for (int i = 0; i < 46; ++i) {
    for (int j = 0; j < 42; ++j) {
      const bool in_frame = m.upml.in_wave_frame(i, j, m.grid.n);
      model_frame += in_frame;
      if (b.yee_ez_cell(i, j)) CHECK(in_frame);
    }
  }
  CHECK(model_frame == frame);
  const std::size_t batch = PlaneReference::kProbeBatchSteps * m.probes.samples.size();
  CHECK(b.device_bytes(m) == 8 * (2 * cells + 2 * frame + 3 * m.upml.cells + batch));
  PlaneSpec yee = spec;
  yee.equation = Equation::Maxwell;
  const SimulationModel my = plane_model(yee);
  CHECK(PlaneReference(my).device_bytes(my) == 8 * (3 * cells + 3 * m.upml.cells + batch));
}

TEST_CASE("plane reference: the wave equation refuses te and magnetic materials") {
  PlaneSpec spec;
  spec.nx = 12;
  spec.ny = 12;
  spec.steps = 10;
  spec.equation = Equation::Wave;
  spec.mode = PlaneMode::Te;
  CHECK_THROWS_WITH_AS(PlaneReference{plane_model(spec)}, doctest::Contains("grid.equation"),
                       ConfigError);
  spec.mode = PlaneMode::Tm;
  spec.materials = {material("mag", 1, 2, 0)};
  spec.paint = [](double x, double) { return x > 6e-3 ? std::string("mag") : std::string(); };
  CHECK_THROWS_WITH_AS(PlaneReference{plane_model(spec)}, doctest::Contains("mu_r"), ConfigError);
  spec.materials.clear();
  spec.paint = nullptr;
  const SimulationModel m = plane_model(spec);
  PlaneReference b(m);
  CHECK_THROWS_AS(b.sample_energy(0), DeviceError);
}
