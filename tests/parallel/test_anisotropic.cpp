// Diagonal anisotropic materials (material.<name>.eps_r, mu_r, sigma as three values x y z,
// docs/EQUATIONS.md "Anisotropic materials"): each component's samples take the value along its
// own axis. Checked here against analytic answers on the reference engine:
// - a periodic box filled with an anisotropic dielectric and magnetic material rings at exactly
//   the Yee grid's frequencies of the plane waves G (and k + G at a Bloch k): for a wave of grid
//   wavenumbers K_a = 2 sin(q_a d / 2) / d, (2 sin(omega dt / 2) / (c dt))^2 is an eigenvalue of
//   eps^-1/2 [K]x^T mu^-1 [K]x eps^-1/2, every one in the band found by harmonic inversion within
//   1e-7, none added; the same box with the values swapped between axes rings elsewhere;
// - a plane wave through an anisotropic slab filling a period: tests/parallel/test_periodic.cpp;
//   the device engines against the reference: tests/engine/test_engine_vs_reference.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "backends/physics_helpers.hpp"
#include "backends/reference/reference_backend.hpp"
#include "monitors/harmonic_inversion.hpp"
#include "yee_waves.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kD = 1e-3;

// The resonances of a periodic box of n cells filled with one material, from Ex + Ey + Ez of a
// cell after three pulses (one per axis) have ended.
HarmonicInversion ring(const std::array<int, 3>& n, const std::array<double, 3>& k, const MaterialConfig& fill,
                       double f1, double f2, double& dt) {
  RunConfig cfg = box_config(n, kD, 5000, BoundaryType::Pec);
  cfg.boundary.periodic = {true, true, true};
  cfg.boundary.bloch_k = k;
  cfg.materials = {fill};
  cfg.objects = {box("fill", fill.name, {n[0] / 2.0, n[1] / 2.0, n[2] / 2.0},
                     {double(n[0]), double(n[1]), double(n[2])}, kD)};
  cfg.sources = {point_source("a", SourceKind::Current, Axis::Z, cells(3.2, 4.1, 2.5, kD), WaveformKind::Gaussian, 8e10),
                 point_source("b", SourceKind::Current, Axis::X, cells(7.2, 6.1, 4.5, kD), WaveformKind::Gaussian, 8e10),
                 point_source("c", SourceKind::Current, Axis::Y, cells(10.3, 8.7, 1.2, kD), WaveformKind::Gaussian, 8e10)};
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.magnetic);
  dt = m.grid.dt;
  ReferenceBackend ref(m);
  const std::size_t at = m.layout.index(8, 2, 5);
  std::vector<double> e;
  for (long s = 0; s < m.grid.steps; ++s) {
    ref.step(s);
    if (s + 1 >= 300)  // the pulses have long ended
      e.push_back(ref.field(Component::Ex)[at] + ref.field(Component::Ey)[at] + ref.field(Component::Ez)[at]);
  }
  return find_resonances(e, m.grid.dt, f1, f2);
}

}  // namespace

TEST_CASE("anisotropic reference: a periodic box of a biaxial medium rings at its Yee frequencies") {
  const std::array<int, 3> n{12, 10, 8};
  const std::array<double, 3> eps{2, 3, 4.5}, mu{1.5, 1, 2};
  const double f1 = 4e9;
  for (const std::array<double, 3>& k : {std::array<double, 3>{0, 0, 0}, std::array<double, 3>{100, 150, 0}}) {
    INFO("k " << k[0] << " " << k[1] << " " << k[2]);
    // At k != 0 the waves G and -G part: twice the frequencies, so a narrower band keeps them
    // apart for the series' length.
    const double f2 = k[0] == 0 ? 2.4e10 : 1.3e10;
    double dt = 0;
    const HarmonicInversion h = ring(n, k, anisotropic_material("crystal", eps, mu, {0, 0, 0}), f1, f2, dt);
    const std::vector<double> want = yee_frequencies(n, kD, k, eps, mu, dt, f1, f2);
    REQUIRE(want.size() >= 6);
    CHECK(h.resonances.size() == want.size());
    for (std::size_t i = 0; i < want.size() && i < h.resonances.size(); ++i) {
      INFO("resonance " << i << ": " << h.resonances[i].frequency_hz << " Hz, Yee " << want[i]);
      CHECK(std::fabs(h.resonances[i].frequency_hz / want[i] - 1) < 1e-7);
      CHECK(std::fabs(1 / h.resonances[i].quality) < 1e-6);
    }
    // The values turned between the axes give other frequencies: the axes are told apart.
    const std::vector<double> turned = yee_frequencies(n, kD, k, {eps[1], eps[2], eps[0]}, {mu[1], mu[2], mu[0]}, dt, f1, f2);
    CHECK(turned != want);
    std::size_t matched = 0;
    for (const double f : turned)
      for (const auto& r : h.resonances) matched += std::fabs(r.frequency_hz / f - 1) < 1e-7;
    CHECK(matched < turned.size());
  }
}
