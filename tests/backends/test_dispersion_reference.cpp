// Dispersive materials (model/dispersion.hpp) on the reference engine: the local step against the
// closed forms of the trapezoidal rule (Debye relaxation, Drude and Lorentz oscillation of a
// uniform field), a Drude-filled cavity's resonance against omega^2 = omega_c^2 + omega_p^2, the
// mixtures on a box's faces, and the refusals.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <string>

#include "backends/reference/reference_backend.hpp"
#include "cyl_spectrum_helpers.hpp"
#include "errors.hpp"
#include "model/dispersion.hpp"
#include "physics_helpers.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kPi = 3.14159265358979323846;

DispersionRow row_of(const MaterialConfig& mat, double dt) {
  const MaterialTable table({mat});
  const DispersiveSamples d = dispersive_samples(table, FieldLayout{}, {}, UpmlProfile{}, {1, 1, 1}, dt);
  REQUIRE(d.rows.size() == 1);
  return d.rows.front();
}

// A uniform field E0 with no curl and no polarisation at t = 0 (so D = eps_inf E0 from then on):
// E after each of `steps` steps.
std::vector<double> uniform_field(const DispersionRow& r, double e0, int steps) {
  std::vector<double> state(1 + 2 * r.poles.size(), 0.0);
  state[0] = e0;
  std::vector<double> out;
  double e = e0;
  for (int n = 0; n < steps; ++n) {
    e = dispersive_step(r, e, state.data(), 1);  // no curl, no conductivity: E* = E
    out.push_back(e);
  }
  return out;
}

}  // namespace

TEST_CASE("dispersion: a uniform field relaxes and oscillates as the trapezoidal rule says, exactly") {
  const double dt = 1e-12, h = dt / 2;
  SUBCASE("Debye: E -> E0 eps_inf / eps_s at rate eps_s / (eps_inf tau)") {
    const double eps_inf = 5, de = 75, tau = 2e-11;  // tau of 20 steps: relaxes within the run
    const auto e = uniform_field(row_of(dispersive("water", eps_inf, {pole(PoleKind::Debye, de, tau)}), dt), 1.0, 400);
    const double eps_s = eps_inf + de, lambda = eps_s / (eps_inf * tau);
    const double r = (1 - lambda * h) / (1 + lambda * h), e_inf = eps_inf / eps_s;
    double worst = 0;
    for (int n = 0; n < 400; ++n) worst = std::max(worst, std::abs(e[n] - (e_inf + (1 - e_inf) * std::pow(r, n + 1))));
    CHECK(worst < 1e-12);
    CHECK(e.back() == doctest::Approx(e_inf).epsilon(1e-9));
  }
  SUBCASE("Drude, lossless: E0 cos(n theta), theta = 2 atan(Omega dt / 2), Omega = omega_p / sqrt(eps_inf)") {
    const double eps_inf = 2, fp = 20e9;
    const auto e = uniform_field(row_of(dispersive("plasma", eps_inf, {pole(PoleKind::Drude, fp, 0)}), dt), 1.0, 600);
    const double theta = 2 * std::atan(2 * kPi * fp / std::sqrt(eps_inf) * h);
    double worst = 0;
    for (int n = 0; n < 600; ++n) worst = std::max(worst, std::abs(e[n] - std::cos((n + 1) * theta)));
    CHECK(worst < 1e-10);
  }
  SUBCASE("Drude with collisions: the oscillation's envelope decays as exp(-gamma_omega t / 2)") {
    const double fp = 20e9, gamma = 1e9;
    const auto e = uniform_field(row_of(dispersive("plasma", 1, {pole(PoleKind::Drude, fp, gamma)}), dt), 1.0, 2000);
    double late = 0;
    for (int n = 1900; n < 2000; ++n) late = std::max(late, std::abs(e[n]));
    CHECK(late == doctest::Approx(std::exp(-2 * kPi * gamma * 1950 * dt / 2)).epsilon(0.03));
  }
  SUBCASE("Lorentz, lossless: about E0 eps_inf / eps_s at Omega = omega_0 sqrt(eps_s / eps_inf)") {
    const double eps_inf = 2, de = 3, f0 = 10e9;
    const auto e = uniform_field(row_of(dispersive("osc", eps_inf, {pole(PoleKind::Lorentz, de, f0, 0)}), dt), 1.0, 600);
    const double eps_s = eps_inf + de, e_inf = eps_inf / eps_s;
    const double theta = 2 * std::atan(2 * kPi * f0 * std::sqrt(eps_s / eps_inf) * h);
    double worst = 0;
    for (int n = 0; n < 600; ++n)
      worst = std::max(worst, std::abs(e[n] - (e_inf + (1 - e_inf) * std::cos((n + 1) * theta))));
    CHECK(worst < 1e-10);
  }
  SUBCASE("two poles and a conductivity stay bounded at rates far past the time step") {
    // omega_p dt = 60, tau = dt / 100: an explicit scheme would blow up at once. The trapezoidal
    // rule keeps every mode's amplification below 1, the stiff ones' near -1 (docs/EQUATIONS.md).
    const DispersionRow r = row_of(dispersive("hard", 1, {pole(PoleKind::Drude, 1e13, 1e10),
                                                           pole(PoleKind::Debye, 1000, 1e-14)}, 5.0), dt);
    std::vector<double> state(1 + 2 * r.poles.size(), 0.0);
    state[0] = 1;
    double e = 1, biggest = 0;
    const double ca = (1 - 5.0 * dt / (2 * kEps0)) / (1 + 5.0 * dt / (2 * kEps0));
    for (int n = 0; n < 5000; ++n) {
      e = dispersive_step(r, ca * e, state.data(), 1);
      biggest = std::max(biggest, std::abs(e));
    }
    CHECK(biggest <= 1.0);
  }
}

TEST_CASE("dispersion: a Drude-filled PEC cavity rings at sqrt(f_c^2 + f_p^2)") {
  // 12 x 12 x 4 cells of 1 mm: TM110 (Ez, uniform in z) at f_c = c / (2 a) sqrt(2) on the Yee grid.
  const double d = 1e-3, fp = 12e9;
  RunConfig cfg = box_config({12, 12, 4}, d, 6000, BoundaryType::Pec);
  cfg.materials = {dispersive("plasma", 1, {pole(PoleKind::Drude, fp, 0)})};
  cfg.objects = {box("fill", "plasma", {6, 6, 2}, {14, 14, 6}, d)};
  cfg.sources = {point_source("s", SourceKind::Current, Axis::Z, cells(4, 5, 2, d),
                              WaveformKind::GaussianPulse, 12e9, 1e3)};
  cfg.probes = {point_probe("p", cells(7, 8, 2, d), {Component::Ez})};
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.dispersion.count() > 0);
  ReferenceBackend ref(m);
  const auto series = probe_series(ref, 1, 6000);
  const double dt = m.grid.dt;
  // The Yee grid's own TM110 frequency: (2 / (c dt)) sin(w dt / 2) = (2 / d) sin(k d / 2) sqrt(2).
  const double k = kPi / (12 * d);
  const double wc = 2 / dt * std::asin(kC0 * dt / d * std::sin(k * d / 2) * std::sqrt(2.0));
  const double fc = wc / (2 * kPi);
  const double want = std::sqrt(fc * fc + fp * fp);  // eps(w) = 1 - w_p^2 / w^2
  const double got = peak_frequency(series[0], dt, want, 0.2);
  INFO("f_c = " << fc << " Hz, want " << want << " Hz, got " << got << " Hz");
  CHECK(got == doctest::Approx(want).epsilon(3e-3));
  CHECK(std::abs(got - fc) > 0.15 * fc);  // a cavity without the plasma is far off
}

TEST_CASE("dispersion: a box's face samples take a share of its poles; refusals") {
  const double d = 1e-3;
  RunConfig cfg = box_config({20, 20, 20}, d, 10, BoundaryType::Upml, 4);
  cfg.materials = {dispersive("gold", 2, {pole(PoleKind::Drude, 2e15, 1e13)})};
  // Faces on node planes: the E samples in them take the mean of both sides (mesher.cpp), the
  // poles' share of the probes in the box (1/2 on a face, 1/4 on an edge).
  cfg.objects = {box("block", "gold", {10, 10, 10}, {6, 6, 6}, d)};
  const SimulationModel m = SimulationModel::build(cfg);
  const double wp = 2 * kPi * 2e15;
  bool inside = false, shared = false;
  for (std::size_t id = 0; id < m.materials.size(); ++id) {
    const MaterialEntry& e = m.materials.entry(static_cast<std::uint8_t>(id));
    if (e.poles.empty()) continue;
    REQUIRE(e.poles.size() == 1);
    const double share = e.poles[0].d / (wp * wp);
    CHECK(share > 0);
    CHECK(share <= 1 + 1e-12);
    inside = inside || std::abs(share - 1) < 1e-12;
    shared = shared || std::abs(share - 0.5) < 1e-12;
  }
  CHECK(inside);
  CHECK(shared);
  std::size_t rows = 0;
  for (std::size_t n = 0; n < m.dispersion.count(); ++n) rows = std::max<std::size_t>(rows, m.dispersion.row[n] + 1);
  CHECK(rows == m.dispersion.rows.size());

  // A Drude (or Lorentz) object into the UPML: refused, naming the object, where the sample is
  // and where the interior ends (a PML grows without bound in such media).
  RunConfig into = cfg;
  into.objects = {box("slab", "gold", {10, 10, 4}, {30, 30, 8}, d)};
  try {
    SimulationModel::build(into);
    FAIL("no ConfigError");
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    CHECK(what.find("object.slab") != std::string::npos);
    CHECK(what.find("object 'slab' of material 'gold' reaches them") != std::string::npos);
    CHECK(what.find("the interior is x 0.004..0.016, y 0.004..0.016, z 0.004..0.016 m") != std::string::npos);
    CHECK(what.find("a Drude or Lorentz material kept out of the UPML layers") != std::string::npos);
    CHECK(what.find("Debye materials may run into the layers") != std::string::npos);
  }
  // A Debye one: the samples there get rows of their own, one per set of profile values, with
  // the values at their position and the material's eps_inf; the others keep the plain rows.
  into.materials.push_back(dispersive("wet", 3, {pole(PoleKind::Debye, 7, 1e-10), pole(PoleKind::Debye, 2, 1e-11)}));
  into.objects = {box("slab", "wet", {10, 10, 4}, {30, 30, 8}, d)};
  const SimulationModel slab = SimulationModel::build(into);
  const DispersiveSamples& ds = slab.dispersion;
  REQUIRE(ds.any_upml);
  CHECK(ds.state_slots() == ds.f_slot() + 2);
  std::size_t in_layers = 0;
  for (std::size_t n = 0; n < ds.count(); ++n) {
    const std::size_t at = ds.index[n];
    const int k = static_cast<int>(at % slab.layout.nzp());
    const int j = static_cast<int>(at / slab.layout.nzp() % slab.layout.ny);
    const int i = static_cast<int>(at / slab.layout.nzp() / slab.layout.ny);
    const DispersionRow& r = ds.rows[static_cast<std::size_t>(ds.row[n])];
    CHECK(r.upml == slab.upml.in_pml(i, j, k, slab.grid.n));
    if (!r.upml) continue;
    ++in_layers;
    const int u = ds.comp[n], v = (u + 1) % 3, w = (u + 2) % 3, pos[3] = {i, j, k};
    CHECK(r.a_v == slab.upml.integer[v].a[pos[v]]);
    CHECK(r.b_w == slab.upml.integer[w].b[pos[w]]);
    CHECK(r.cm_u == slab.upml.half[u].cm[pos[u]]);
    CHECK(r.eps_inf == slab.materials.entry(r.id).eps_r);
    bool same_poles = false;  // as the material's row outside the layers
    for (const DispersionRow& plain : ds.rows)
      if (!plain.upml && plain.id == r.id) same_poles = plain.poles == r.poles;
    CHECK(same_poles);
  }
  CHECK(in_layers > 0);
  CHECK(in_layers < ds.count());
  // The run header counts the slab's samples once, UPML rows or not.
  const auto counts = dispersive_counts(slab.materials, ds);
  std::size_t listed = 0;
  for (const DispersiveCount& c : counts) listed += c.samples;
  CHECK(listed == ds.count());
  REQUIRE(counts.size() >= 2);  // gold (no samples now), wet, its surface mixtures
  CHECK(counts[0].samples == 0);
  CHECK(counts[1].name == "wet");
  CHECK(counts[1].samples > ds.count() / 2);
}

TEST_CASE("dispersion: a sample across a metal face takes the harmonic mean of eps(f), as a pole") {
  // Faces at x = 7.5 and 12.5 cells: the Ex samples there lie across them (vacuum on one side,
  // the Drude metal on the other). Their mixture must be 2 eps(f) / (1 + eps(f)) at every f.
  const double d = 1e-3, eps_inf = 2, fp = 2e11, gamma = 1e10;
  RunConfig cfg = box_config({20, 20, 20}, d, 10, BoundaryType::Pec);
  cfg.materials = {dispersive("metal", eps_inf, {pole(PoleKind::Drude, fp, gamma)})};
  cfg.objects = {box("block", "metal", {10, 10, 10}, {5, 8, 8}, d)};
  const SimulationModel m = SimulationModel::build(cfg);
  const auto& ex = m.id(Component::Ex);
  const MaterialEntry& e = m.materials.entry(ex[m.layout.index(7, 10, 10)]);  // Ex at x = 7.5
  REQUIRE(e.poles.size() == 1);
  CHECK(e.eps_r == doctest::Approx(2 * eps_inf / (1 + eps_inf)));
  const std::complex<double> i(0, 1);
  for (double f : {1e10, 5e10, 1e11, 2e11, 5e11}) {
    const double w = 2 * kPi * f;
    const std::complex<double> metal = eps_inf - fp * fp / (f * f + i * f * gamma);
    const Pole& p = e.poles.front();
    const std::complex<double> mixed = e.eps_r + p.d / (-p.a * w * w - i * p.b * w + p.c);
    CAPTURE(f);
    CHECK(std::abs(mixed - 2.0 * metal / (1.0 + metal)) < 1e-9 * std::abs(metal));
  }
  // Along a face: Ex at (9.5, 6, 10) lies in the y = 6 face and takes half the metal's pole.
  const MaterialEntry& along = m.materials.entry(ex[m.layout.index(9, 6, 10)]);
  REQUIRE(along.poles.size() == 1);
  CHECK(along.poles.front().d == doctest::Approx((2 * kPi * fp) * (2 * kPi * fp) / 2));
}
