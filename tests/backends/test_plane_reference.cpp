// The 2D reference engine (PlaneReference) on its own: Yee tm equals the 3D reference on a model
// one cell thick (d/dz = 0 exactly), tm and te cavity modes ring at the 2D Yee discrete-dispersion
// frequency, the Yee energy invariant is kept in a lossless PEC box (tm, te, dielectric and
// magnetic blocks), and the Backend interface (read_field layout, probes, routing, refusals).
// Small grids: each case runs in well under a second.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "backends/plane_model_helpers.hpp"
#include "backends/reference/plane_reference.hpp"
#include "backends/reference/reference_backend.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kD = 1e-3;

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

// tm model of the 3D/2D comparison: UPML on every x/y face (unequal counts), a dielectric slab
// running into the layers, a lossy disc, a PEC block, a current line source; optionally a
// magnetic block (then H carries ids).
RunConfig thin_tm_config(bool magnetic, long steps) {
  RunConfig cfg = box_config({40, 36, 1}, kD, steps, BoundaryType::Upml);
  cfg.boundary.layers = {8, 6, 7, 9, 0, 0};
  cfg.materials = {material("diel", 4, 1, 0), material("lossy", 2, 1, 0.5),
                   material("mag", 1.5, magnetic ? 2 : 1, 0)};
  cfg.objects = {box("slab", "diel", {20, 12, 0.5}, {40, 5, 4}, kD),
                 sphere("disc", "lossy", {12, 25, 0.5}, 4, kD),
                 box("block", "mag", {27, 20, 0.5}, {5, 4, 4}, kD),
                 box("plate", "pec", {30, 27, 0.5}, {3, 3, 4}, kD)};
  cfg.sources = {point_source("line", SourceKind::Current, Axis::Z, cells(18.3, 20.2, 0.5, kD),
                              WaveformKind::GaussianPulse, 20e9, 1e3)};
  return cfg;
}

}  // namespace

TEST_CASE("plane reference: tm equals the 3D reference on a model one cell thick") {
  for (bool magnetic : {false, true}) {
    CAPTURE(magnetic);
    const SimulationModel m3 = SimulationModel::build(thin_tm_config(magnetic, 260));
    const SimulationModel m2 = plane_from_3d(m3);
    REQUIRE(m2.magnetic == magnetic);
    ReferenceBackend b3(m3);
    PlaneReference b2(m2);
    for (long s = 0; s < 260; ++s) {
      b3.step(s);
      b2.step(s);
      if (s % 65 != 64) continue;
      CAPTURE(s);
      // The premise: nz = 1 with PEC z walls carries no te field.
      for (Component c : {Component::Ex, Component::Ey, Component::Hz})
        REQUIRE(max_abs(b3.field(c)) == 0.0);
      for (Component c : {Component::Ez, Component::Hx, Component::Hy}) {
        CAPTURE(component_name(c));
        const auto& f3 = b3.field(c);
        const auto& f2 = b2.field(c);
        const double scale = max_abs(f3);
        REQUIRE(scale > 0);
        double diff = 0;
        for (int i = 0; i < m3.grid.n[0]; ++i)
          for (int j = 0; j < m3.grid.n[1]; ++j)
            diff = std::max(diff, std::abs(f3[m3.layout.index(i, j, 0)] -
                                           f2[m2.layout.index(i, j, 0)]));
        CHECK(diff <= 1e-12 * scale);
      }
    }
    // The pulse reached the layers (the UPML cells took part).
    const auto& ez = b2.field(Component::Ez);
    CHECK(std::abs(ez[m2.layout.index(3, 18, 0)]) > 1e-6 * max_abs(ez));
  }
}

namespace {

// A PEC-walled cavity mode of the Yee grid (exact discrete eigenvector, any dx, dy):
//   tm: Ez(i, j) = sin(m pi i / nx) sin(n pi j / ny)                (integer points)
//   te: Hz(i, j) = cos(m pi (i+1/2) / nx) cos(n pi (j+1/2) / ny)     (half points)
// started as the only field; every sample then obeys x[t+1] + x[t-1] = 2 cos(w dt) x[t] with
//   sin(w dt / 2) = (c dt / 2) sqrt((2/dx sin(kx dx/2))^2 + (2/dy sin(ky dy/2))^2).
void check_cavity_mode(PlaneMode mode) {
  PlaneSpec spec;
  spec.mode = mode;
  spec.nx = 24;
  spec.ny = 17;
  spec.dx = 1e-3;
  spec.dy = 1.3e-3;
  spec.steps = 300;
  const int mx = 2, my = 1;
  const SimulationModel m = plane_model(spec);
  PlaneReference b(m);
  const Component c = mode == PlaneMode::Tm ? Component::Ez : Component::Hz;
  const double off = mode == PlaneMode::Tm ? 0.0 : 0.5;
  std::vector<double> shape(m.layout.cells(), 0.0);
  for (int i = 0; i < spec.nx; ++i) {
    for (int j = 0; j < spec.ny; ++j) {
      const double x = kPi * mx * (i + off) / spec.nx, y = kPi * my * (j + off) / spec.ny;
      shape[m.layout.index(i, j, 0)] =
          mode == PlaneMode::Tm ? std::sin(x) * std::sin(y) : std::cos(x) * std::cos(y);
    }
  }
  b.set_field(c, shape);
  const std::size_t at = m.layout.index(3, 2, 0);
  std::vector<double> x;
  for (long s = 0; s < spec.steps; ++s) {
    b.step(s);
    x.push_back(b.field(c)[at]);
  }
  double num = 0, den = 0;
  for (std::size_t t = 1; t + 1 < x.size(); ++t) {
    num += x[t] * (x[t + 1] + x[t - 1]);
    den += 2 * x[t] * x[t];
  }
  const double kx = kPi * mx / (spec.nx * spec.dx), ky = kPi * my / (spec.ny * spec.dy);
  const double K2 = std::pow(2 / spec.dx * std::sin(kx * spec.dx / 2), 2) +
                    std::pow(2 / spec.dy * std::sin(ky * spec.dy / 2), 2);
  const double cdt = kC0 * m.grid.dt;
  const double expected = 1 - cdt * cdt * K2 / 2;  // cos(w dt) = 1 - 2 sin^2(w dt / 2)
  CHECK(std::abs(num / den - expected) < 1e-12);
  // A wrong update would also leave the mode: the final field is still the mode shape.
  const auto& f = b.field(c);
  const double alpha = f[at] / shape[at];
  double resid = 0;
  for (std::size_t q = 0; q < f.size(); ++q) resid = std::max(resid, std::abs(f[q] - alpha * shape[q]));
  CHECK(resid <= 1e-10 * max_abs(f));
  CHECK(max_abs(f) > 0.01);
}

}  // namespace

TEST_CASE("plane reference: tm and te cavity modes ring at the 2D Yee dispersion frequency") {
  SUBCASE("tm") { check_cavity_mode(PlaneMode::Tm); }
  SUBCASE("te") { check_cavity_mode(PlaneMode::Te); }
}

namespace {

// A lossless PEC box with a dielectric and a magnetic block and a dipole whose pulse has ended:
// W(s) = electric(s) + magnetic(s+1) is constant to rounding (EQUATIONS.md, Energy).
void check_energy_conserved(PlaneMode mode) {
  PlaneSpec spec;
  spec.mode = mode;
  spec.nx = 30;
  spec.ny = 26;
  spec.steps = 400;
  spec.energy = true;
  spec.materials = {material("diel", 3, 1, 0), material("mag", 1, 2.5, 0)};
  spec.paint = [](double x, double y) -> std::string {
    if (x > 18 * kD && x < 25 * kD) return "diel";
    if (y > 4 * kD && y < 9 * kD && x < 12 * kD) return "mag";
    return "";
  };
  const Axis axis = mode == PlaneMode::Tm ? Axis::Z : Axis::Y;
  spec.sources = {point_source("dip", SourceKind::Dipole, axis, {13.2 * kD, 14.7 * kD, 0},
                               WaveformKind::GaussianPulse, 20e9, 1e-12)};
  const SimulationModel m = plane_model(spec);
  REQUIRE(m.magnetic);
  PlaneReference b(m);
  // The pulse ends at about t0 + 7 tau (11 tau, tau = 2 / (pi f)): 165 steps.
  long s = 0;
  for (; s < 200; ++s) b.step(s);
  std::vector<EnergyTerms> rows;
  const int n = 150;
  for (int slot = 0; slot < n; ++slot, ++s) {
    b.sample_energy(slot);
    b.step(s);
  }
  b.read_energy_batch(n, rows);
  REQUIRE(rows.size() == static_cast<std::size_t>(n));
  const double w0 = rows[0].electric + rows[1].magnetic;
  REQUIRE(w0 > 0);
  double spread = 0, swing = 0;
  for (int t = 0; t + 1 < n; ++t) {
    const double w = rows[t].electric + rows[t + 1].magnetic;
    spread = std::max(spread, std::abs(w - w0));
    swing = std::max(swing, std::abs(rows[t].electric + rows[t].magnetic_now - w0));
  }
  CHECK(spread <= 1e-12 * w0);
  CHECK(swing > 1e-6 * w0);  // the naive sum is not conserved: the check can tell them apart
}

}  // namespace

TEST_CASE("plane reference: a lossless PEC box keeps the Yee energy after the source ends") {
  SUBCASE("tm") { check_energy_conserved(PlaneMode::Tm); }
  SUBCASE("te") { check_energy_conserved(PlaneMode::Te); }
}

TEST_CASE("plane reference: read_field, probes and the backend factory") {
  PlaneSpec spec;
  spec.mode = PlaneMode::Te;
  spec.nx = 13;
  spec.ny = 10;  // padded to 12: rows are 12 apart
  spec.steps = 40;
  spec.sources = {point_source("cur", SourceKind::Current, Axis::X, {6 * kD, 5 * kD, 0},
                               WaveformKind::GaussianPulse, 20e9, 1e3)};
  spec.probes = {point_probe("p", {4.5 * kD, 3 * kD, 0}, {Component::Ex, Component::Hz}),
                 point_probe("q", {8 * kD, 6.5 * kD, 0}, {Component::Ey, Component::Ez})};
  const SimulationModel m = plane_model(spec);
  DeviceConfig dev;
  dev.backend = BackendKind::Reference;
  std::unique_ptr<Backend> any = make_backend(m, dev);
  REQUIRE(dynamic_cast<PlaneReference*>(any.get()) != nullptr);
  CHECK(any->name() == "reference");
  CHECK(any->kernel_variant() == "double loops, 2D te");
  auto& b = static_cast<PlaneReference&>(*any);
  ProbeRecorder rec(b, m);
  rec.at_state(0);
  for (long s = 0; s < spec.steps; ++s) {
    b.step(s);
    rec.at_state(s + 1);
  }
  const auto series = rec.take();
  REQUIRE(series.size() == 4);
  for (std::size_t p = 0; p < 4; ++p) {
    const ProbeSample& smp = m.probes.samples[p];
    REQUIRE(series[p].size() == 41);
    const auto& f = b.field(smp.component);
    CHECK(series[p].back() ==
          (f.empty() ? 0.0 : f[m.layout.index(smp.cell[0], smp.cell[1], 0)]));
  }
  CHECK(series[0].back() != 0.0);
  CHECK(series[3].back() == 0.0);  // Ez: not a te field
  std::vector<float> out;
  for (Component c : {Component::Ex, Component::Ey, Component::Hz, Component::Ez}) {
    b.read_field(c, out);
    REQUIRE(out.size() == 130);
    const auto& f = b.field(c);
    for (int i = 0; i < 13; ++i)
      for (int j = 0; j < 10; ++j)
        CHECK(out[static_cast<std::size_t>(i) * 10 + j] ==
              (f.empty() ? 0.0f : static_cast<float>(f[m.layout.index(i, j, 0)])));
  }
  b.read_field(Component::Ex, out);
  CHECK(*std::max_element(out.begin(), out.end()) > 0.0f);
  // Padding (j >= ny) stays zero; the low-wall Ex (j = 0) is PEC.
  for (Component c : {Component::Ex, Component::Ey, Component::Hz}) {
    const auto& f = b.field(c);
    for (int i = 0; i < 13; ++i)
      for (int j = 10; j < 12; ++j) CHECK(f[m.layout.index(i, j, 0)] == 0.0);
  }
  for (int i = 0; i < 13; ++i) CHECK(b.field(Component::Ex)[m.layout.index(i, 0, 0)] == 0.0);
  CHECK(b.fields_finite());
}

TEST_CASE("plane reference: a source on a component the model does not carry is refused") {
  PlaneSpec spec;
  spec.nx = 12;
  spec.ny = 12;
  spec.steps = 10;
  spec.sources = {point_source("cur", SourceKind::Current, Axis::X, {6 * kD, 5 * kD, 0},
                               WaveformKind::GaussianPulse, 20e9, 1e3)};
  const SimulationModel m = plane_model(spec);  // tm: Ez Hx Hy
  CHECK_THROWS_WITH_AS(PlaneReference{m}, doctest::Contains("source.cur.axis"), ConfigError);
}

namespace {

// The same model through SimulationModel::build (a rectangle object) and by hand (painted).
void check_builder_matches_helper(PlaneMode mode, Equation equation) {
  PlaneSpec spec;
  spec.mode = mode;
  spec.equation = equation;
  spec.nx = 30;
  spec.ny = 24;
  spec.steps = 60;
  spec.boundary = BoundaryType::Upml;
  spec.layers = {4, 5, 3, 6};
  spec.materials = {material("diel", 3, 1, 0.2)};
  spec.paint = [](double x, double y) -> std::string {
    return x > 8.3 * kD && x < 17.6 * kD && y > 5.2 * kD && y < 11.7 * kD ? "diel" : "";
  };
  const Axis axis = mode == PlaneMode::Tm ? Axis::Z : Axis::X;
  spec.sources = {point_source("s", SourceKind::Current, axis, {12.2 * kD, 14.6 * kD, 0},
                               WaveformKind::GaussianPulse, 20e9, 1e3)};
  spec.probes = {point_probe("p", {20 * kD, 9 * kD, 0},
                             {mode == PlaneMode::Tm ? Component::Ez : Component::Hz})};
  RunConfig cfg = plane_config(spec);
  cfg.objects = {box("rect", "diel", {12.95, 8.45, 0}, {9.3, 6.5, 0}, kD)};
  const SimulationModel mb = SimulationModel::build(cfg);
  const SimulationModel mh = plane_model(spec);
  REQUIRE(mb.two_d());
  CHECK(mb.grid.n == mh.grid.n);
  CHECK(mb.grid.d == mh.grid.d);
  CHECK(mb.grid.dt == mh.grid.dt);
  CHECK(mb.layout.cells() == mh.layout.cells());
  for (int c = 0; c < 6; ++c) {
    CAPTURE(c);
    CHECK(mb.ids[c] == mh.ids[c]);
  }
  CHECK(mb.upml.cells == mh.upml.cells);
  REQUIRE(mb.sources.size() == 1);
  CHECK(mb.sources[0].component == mh.sources[0].component);
  CHECK(mb.sources[0].cell == mh.sources[0].cell);
  CHECK(mb.sources[0].j == mh.sources[0].j);
  REQUIRE(mb.probes.samples.size() == 1);
  CHECK(mb.probes.samples[0].cell == mh.probes.samples[0].cell);
  PlaneReference bb(mb), bh(mh);
  for (long s = 0; s < spec.steps; ++s) {
    bb.step(s);
    bh.step(s);
  }
  for (Component c : mb.active_components()) CHECK(bb.field(c) == bh.field(c));
  CHECK(max_abs(bb.field(mode == PlaneMode::Tm ? Component::Ez : Component::Ex)) > 0);
}

}  // namespace

TEST_CASE("plane reference: SimulationModel::build's 2D models are the ones these tests build") {
  SUBCASE("tm") { check_builder_matches_helper(PlaneMode::Tm, Equation::Maxwell); }
  SUBCASE("te") { check_builder_matches_helper(PlaneMode::Te, Equation::Maxwell); }
  SUBCASE("wave") { check_builder_matches_helper(PlaneMode::Tm, Equation::Wave); }
}

TEST_CASE("plane reference: 2D models on a device go to the plane and wave engines") {
  for (Equation equation : {Equation::Maxwell, Equation::Wave}) {
    PlaneSpec spec;
    spec.equation = equation;
    spec.nx = 16;
    spec.ny = 12;
    spec.steps = 4;
    const SimulationModel m = plane_model(spec);
    DeviceConfig dev;
    dev.backend = BackendKind::OpenCl;
    const std::string prefix = equation == Equation::Wave ? "wave-" : "plane-";
    CAPTURE(prefix);
    try {
      std::unique_ptr<Backend> b = make_backend(m, dev);
      CHECK(b->name() == "opencl");
      CHECK(b->kernel_variant().rfind(prefix, 0) == 0);
    } catch (const ConfigError& e) {
      // Only a build without OpenCL refuses the backend itself.
      CHECK(std::string(e.what()).find("-DCLFDTD_OPENCL=ON") != std::string::npos);
    } catch (const DeviceError& e) {
      MESSAGE("no OpenCL device here: " << e.what());
    }
  }
}
