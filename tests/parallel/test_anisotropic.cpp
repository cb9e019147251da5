// Diagonal anisotropic materials (material.<name>.eps_r, mu_r, sigma as three values x y z,
// docs/EQUATIONS.md "Anisotropic materials"): each component's samples take the value along its
// own axis. Checked here against analytic answers on the reference engine:
// - a periodic box filled with an anisotropic dielectric and magnetic material rings at exactly
//   the Yee grid's frequencies of the plane waves G (and k + G at a Bloch k): for a wave of grid
//   wavenumbers K_a = 2 sin(q_a d / 2) / d, (2 sin(omega dt / 2) / (c dt))^2 is an eigenvalue of
//   eps^-1/2 [K]x^T mu^-1 [K]x eps^-1/2, every one in the band found by harmonic inversion within
//   1e-7, none added; the same box with the values swapped between axes rings elsewhere;
// - a plane wave through an anisotropic slab filling a period: each polarisation's
//   transmittance follows the Fabry-Perot formula of its own index (E along x: sqrt(eps_x), E
//   along y: sqrt(eps_y)), within 0.008.
// The device engines against the reference: tests/engine/test_engine_vs_reference.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "backends/monitor_helpers.hpp"
#include "backends/physics_helpers.hpp"
#include "backends/reference/reference_backend.hpp"
#include "monitors/harmonic_inversion.hpp"
#include "monitors/surface_fields.hpp"
#include "monitors/surface_sampling.hpp"
#include "parallel/split_outputs.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kD = 1e-3;

MaterialConfig anisotropic(const std::string& name, const std::array<double, 3>& eps,
                           const std::array<double, 3>& mu, const std::array<double, 3>& sigma) {
  MaterialConfig m = material(name, *std::max_element(eps.begin(), eps.end()),
                              *std::max_element(mu.begin(), mu.end()),
                              *std::max_element(sigma.begin(), sigma.end()));
  m.eps_axes = eps;
  m.mu_axes = mu;
  m.sigma_axes = sigma;
  return m;
}

// The Yee grid's frequencies (Hz) in (f1, f2) of the plane waves q = k + G of a box n * kD
// periodic along every axis and filled with a medium of diagonal eps and mu: with K the grid's
// wavenumbers, the matrix B = eps^-1/2 [K]x^T mu^-1 [K]x eps^-1/2 has the eigenvalue 0 (along
// eps^1/2 K) and two whose sum is its trace and whose product is the sum of its principal 2 x 2
// minors; each is (2 sin(pi f dt) / (c dt))^2.
std::vector<double> yee_frequencies(const std::array<int, 3>& n, const std::array<double, 3>& k,
                                    const std::array<double, 3>& eps, const std::array<double, 3>& mu,
                                    double dt, double f1, double f2) {
  const double pi = std::acos(-1.0);
  std::set<double> out;
  for (int a = -4; a <= 4; ++a)
    for (int b = -4; b <= 4; ++b)
      for (int c = -4; c <= 4; ++c) {
        const int m[3] = {a, b, c};
        double K[3];
        for (int x = 0; x < 3; ++x) {
          const double q = k[static_cast<std::size_t>(x)] + 2 * pi * m[x] / (n[static_cast<std::size_t>(x)] * kD);
          K[x] = 2 * std::sin(q * kD / 2) / kD;
        }
        // [K]x: the cross product with K as a matrix; C = [K]x^T diag(1/mu) [K]x.
        const double X[3][3] = {{0, -K[2], K[1]}, {K[2], 0, -K[0]}, {-K[1], K[0], 0}};
        double B[3][3];
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) {
            double s = 0;
            for (int l = 0; l < 3; ++l) s += X[l][i] * X[l][j] / mu[static_cast<std::size_t>(l)];
            B[i][j] = s / std::sqrt(eps[static_cast<std::size_t>(i)] * eps[static_cast<std::size_t>(j)]);
          }
        const double trace = B[0][0] + B[1][1] + B[2][2];
        const double minors = B[0][0] * B[1][1] - B[0][1] * B[1][0] + B[1][1] * B[2][2] -
                              B[1][2] * B[2][1] + B[0][0] * B[2][2] - B[0][2] * B[2][0];
        const double disc = std::sqrt(std::max(0.0, trace * trace - 4 * minors));
        for (const double lambda : {(trace - disc) / 2, (trace + disc) / 2}) {
          const double v = kC0 * dt * std::sqrt(std::max(0.0, lambda)) / 2;
          if (v >= 1 || v <= 0) continue;
          const double f = std::asin(v) / (pi * dt);
          if (f > f1 && f < f2) out.insert(std::round(f));  // degenerate waves: one frequency
        }
      }
  return {out.begin(), out.end()};
}

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

MonitorConfig flux_config(const std::string& name, const Vec3& lo, const Vec3& hi, std::vector<double> freqs) {
  MonitorConfig c;
  c.name = name;
  c.kind = MonitorKind::Flux;
  c.box_lo = lo;
  c.box_hi = hi;
  c.frequencies_hz = std::move(freqs);
  return c;
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
    const HarmonicInversion h = ring(n, k, anisotropic("crystal", eps, mu, {0, 0, 0}), f1, f2, dt);
    const std::vector<double> want = yee_frequencies(n, k, eps, mu, dt, f1, f2);
    REQUIRE(want.size() >= 6);
    CHECK(h.resonances.size() == want.size());
    for (std::size_t i = 0; i < want.size() && i < h.resonances.size(); ++i) {
      INFO("resonance " << i << ": " << h.resonances[i].frequency_hz << " Hz, Yee " << want[i]);
      CHECK(std::fabs(h.resonances[i].frequency_hz / want[i] - 1) < 1e-7);
      CHECK(std::fabs(1 / h.resonances[i].quality) < 1e-6);
    }
    // The values turned between the axes give other frequencies: the axes are told apart.
    const std::vector<double> turned = yee_frequencies(n, k, {eps[1], eps[2], eps[0]}, {mu[1], mu[2], mu[0]}, dt, f1, f2);
    CHECK(turned != want);
    std::size_t matched = 0;
    for (const double f : turned)
      for (const auto& r : h.resonances) matched += std::fabs(r.frequency_hz / f - 1) < 1e-7;
    CHECK(matched < turned.size());
  }
}

TEST_CASE("anisotropic reference: each polarisation crosses a slab at its own index (Fabry-Perot)") {
  // As tests/parallel/test_periodic.cpp's slab: 4 x 4 cells of 0.5 mm across, 12 mm thick, the
  // wave travelling +z; eps_r 4 along x, 2.25 along y (n 2 and 1.5), 9 along z (which a wave
  // along z never sees).
  const double d = 0.5e-3;
  const int nz = 480;
  for (const Axis pol : {Axis::X, Axis::Y}) {
    const double n = pol == Axis::X ? 2 : 1.5;
    INFO("E along " << (pol == Axis::X ? "x" : "y"));
    RunConfig cfg = box_config({4, 4, nz}, d, 6000, BoundaryType::Upml, 16);
    cfg.boundary.periodic = {true, true, false};
    cfg.boundary.layers = {0, 0, 0, 0, 16, 16};
    cfg.materials = {anisotropic("calcite", {4, 2.25, 9}, {1, 1, 1}, {0, 0, 0})};
    cfg.objects = {box("slab", "calcite", {2, 2, 260}, {8, 8, 24}, d)};
    cfg.plane_waves = {plane_wave("pw", pol, 2, +1, cells(2, 2, 240, d), cells(4, 4, 400, d),
                                  WaveformKind::GaussianPulse, 15e9)};
    cfg.plane_waves[0].bandwidth_hz = 20e9;
    const std::vector<double> freqs{6e9, 9e9, 12e9, 15e9, 18e9};
    cfg.monitors = {flux_config("t", cells(0, 0, 400, d), cells(4, 4, 400, d), freqs)};
    const SimulationModel m = SimulationModel::build(cfg);
    ReferenceBackend ref(m);
    OutputRecorder rec;
    record_run(m, ref, rec);
    const SurfaceFields s = sample_surface(m.monitors[0], m.grid, rec.dft[0]);
    const std::vector<double> flux = surface_flux(s);
    const std::vector<double> inc = incident_intensity(m.plane_waves[0], freqs, m.grid.dt);
    const double thick = 12e-3, area = 4e-6;
    int apart = 0;  // frequencies where the other index's formula is off by more than 0.05
    for (std::size_t f = 0; f < freqs.size(); ++f) {
      auto fabry_perot = [&](double index) {
        const double omega = 2 * M_PI * freqs[f], v = kC0 / index;
        const double k = 2 / d * std::asin(d / (v * m.grid.dt) * std::sin(omega * m.grid.dt / 2));
        return 1 / (1 + std::pow((index * index - 1) / (2 * index), 2) * std::pow(std::sin(k * thick), 2));
      };
      const double t = flux[f] / (inc[f] * area);
      INFO("f " << freqs[f] << " Hz: T " << t << ", analytic " << fabry_perot(n));
      CHECK(std::fabs(t - fabry_perot(n)) < 0.008);
      apart += std::fabs(t - fabry_perot(n == 2 ? 1.5 : 2)) > 0.05;
    }
    CHECK(apart >= 2);
  }
}
