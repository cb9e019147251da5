// The cylindrical reference engine's physics beyond the resonances: energy conservation in a
// closed PEC cavity, mode selection and the source's angular phase, stability at the Courant limit
// for m = 0..3, and the CPML's reflection.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "backends/cyl_model_helpers.hpp"
#include "backends/cyl_spectrum_helpers.hpp"
#include "backends/reference/cyl_reference.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

// A small closed cavity: radius 16 cells, height 14 cells (dr = dz = 1 mm).
CylSpec small_cavity(std::vector<int> modes, long steps, double courant = 0.9) {
  CylSpec s;
  s.nr = 16;
  s.nz = 14;
  s.modes = std::move(modes);
  s.steps = steps;
  s.courant = courant;
  s.energy = true;
  return s;
}

// Sources that excite both families of every listed mode, switched off (their tables end) once
// the pulse is over: an off-axis Ez and an off-axis Ephi current (and an on-axis Ez for m = 0).
void add_cavity_sources(SimulationModel& m, double tau) {
  add_cyl_source(m, Component::Ez, 5.2e-3, 0.4, 4.3e-3, gauss_pulse(5 * tau, tau));
  add_cyl_source(m, Component::Ey, 9.1e-3, -0.8, 7.0e-3, gauss_pulse(5 * tau, tau, 0.7));
  add_cyl_source(m, Component::Ez, 0.0, 0.0, 9.5e-3, gauss_pulse(5 * tau, tau, 0.5));
  const auto on = static_cast<std::size_t>(std::ceil(10 * tau / m.grid.dt));
  for (SourceModel& s : m.sources) s.j.resize(std::min(s.j.size(), on));
}

// The energy the Yee scheme conserves, electric(s) + magnetic(s + 1), every `every` steps once
// the sources are off (from the backend's own sample_energy).
std::vector<double> conserved_energy(CylReference& b, long steps, long first, long every) {
  std::vector<double> out;
  std::vector<EnergyTerms> t;
  for (long s = 0; s < steps; ++s) {
    b.step(s);
    if (s >= first && (s - first) % every == 0) {
      b.sample_energy(0);
      b.step(++s);
      b.sample_energy(1);
      b.read_energy_batch(2, t);
      out.push_back(t[0].electric + t[1].magnetic);
    }
  }
  return out;
}

double max_relative_change(const std::vector<double>& w) {
  double worst = 0;
  for (double v : w) worst = std::max(worst, std::abs(v / w.front() - 1));
  return worst;
}

}  // namespace

TEST_CASE("cylindrical reference: a lossless PEC cavity keeps its energy (m = 0, 1, 2, and 0 1 2)") {
  for (const std::vector<int>& modes : {std::vector<int>{0}, std::vector<int>{1},
                                        std::vector<int>{2}, std::vector<int>{0, 1, 2}}) {
    CAPTURE(modes.back());
    SimulationModel m = cyl_model(small_cavity(modes, 3000));
    add_cavity_sources(m, 1.5e-11);
    CylReference ref(m);
    const auto w = conserved_energy(ref, 3000, 200, 100);
    REQUIRE(w.front() > 0);
    const double drift = max_relative_change(w);
    MESSAGE("modes up to " << modes.back() << " (" << modes.size() << " slots): energy "
                           << w.front() << " J, max relative change over 2800 steps " << drift);
    CHECK(drift < 1e-9);
  }
}

TEST_CASE("cylindrical reference: an on-axis z source excites m = 0 only") {
  SimulationModel m = cyl_model(small_cavity({0, 1, 2}, 400));
  add_cyl_source(m, Component::Ez, 0.0, 0.0, 6.5e-3, gauss_pulse(7.5e-11, 1.5e-11));
  CylReference ref(m);
  for (long s = 0; s < 400; ++s) ref.step(s);
  double m0 = 0;
  for (int c = 0; c < 6; ++c) {
    for (const auto& v : ref.field(0, static_cast<Component>(c))) m0 = std::max(m0, std::abs(v));
    for (int q = 1; q < 3; ++q)
      for (const auto& v : ref.field(q, static_cast<Component>(c))) REQUIRE(v == std::complex<double>());
  }
  CHECK(m0 > 0);
  // For m = 0 the TM family (Er, Ez, Hphi) and the TE family (Ephi, Hr, Hz) are independent:
  // the z current leaves the TE family exactly zero.
  for (Component c : {Component::Ey, Component::Hx, Component::Hz})
    for (const auto& v : ref.field(0, c)) REQUIRE(v == std::complex<double>());
}

TEST_CASE("cylindrical reference: an off-axis source at phi_s gives mode m the phase exp(-i m phi_s)") {
  const long steps = 300;
  const double tau = 1.5e-11, phi_s = 0.7, alpha = 0.3;
  auto run = [&](double phi_source, const std::vector<double>& probe_phis,
                 std::vector<std::vector<double>>& series) {
    SimulationModel m = cyl_model(small_cavity({0, 1, 2}, steps));
    add_cyl_source(m, Component::Ez, 6.3e-3, phi_source, 5.5e-3, gauss_pulse(5 * tau, tau));
    for (double phi : probe_phis) add_cyl_probe(m, Component::Ez, 3.2e-3, phi, 8.5e-3);
    auto ref = std::make_unique<CylReference>(m);
    series = probe_series(*ref, probe_phis.size(), steps);
    std::vector<std::vector<std::complex<double>>> ez;
    for (int q = 0; q < 3; ++q) ez.push_back(ref->field(q, Component::Ez));
    return ez;
  };
  std::vector<std::vector<double>> a, b;
  const auto ez_a = run(0.0, {alpha, -alpha}, a);
  const auto ez_b = run(phi_s, {phi_s + alpha}, b);
  const int mq[3] = {0, 1, 2};
  double peak = 0, fields = 0;
  for (int q = 0; q < 3; ++q) {
    for (std::size_t c = 0; c < ez_a[q].size(); ++c) {
      peak = std::max(peak, std::abs(ez_a[q][c]));
      fields = std::max(fields, std::abs(ez_b[q][c] - ez_a[q][c] * std::polar(1.0, -mq[q] * phi_s)));
    }
  }
  REQUIRE(peak > 0);
  CHECK(fields < 1e-12 * peak);
  // The physical field turns with the source, and is mirror-symmetric about it.
  double amp = 0, turned = 0, mirror = 0;
  for (long s = 0; s < steps; ++s) {
    amp = std::max(amp, std::abs(a[0][s]));
    turned = std::max(turned, std::abs(b[0][s] - a[0][s]));
    mirror = std::max(mirror, std::abs(a[1][s] - a[0][s]));
  }
  REQUIRE(amp > 0);
  CHECK(turned < 1e-12 * amp);
  CHECK(mirror < 1e-12 * amp);
  // ... and the probes see more than m = 0: the off-axis source's m = 1, 2 content is there.
  double m12 = 0;
  for (int q = 1; q < 3; ++q)
    for (const auto& v : ez_a[q]) m12 = std::max(m12, std::abs(v));
  CHECK(m12 > 0.05 * peak);
}

TEST_CASE("cylindrical reference: stable at courant = 1 for m = 0, 1, 2, 3") {
  for (int mq = 0; mq <= 3; ++mq) {
    CAPTURE(mq);
    const long steps = 4000;
    SimulationModel m = cyl_model(small_cavity({mq}, steps, 1.0));
    add_cavity_sources(m, 1.5e-11);
    CylReference ref(m);
    const auto w = conserved_energy(ref, steps, 200, 200);
    REQUIRE(ref.fields_finite());
    const double drift = max_relative_change(w);
    MESSAGE("m = " << mq << " at courant 1: max relative energy change over " << steps - 200
                   << " steps " << drift);
    CHECK(drift < 1e-9);
    if (mq != 1) continue;
    // m = 1's axis samples (left out of the invariant) stay bounded too: their largest value over
    // two later windows of 2000 steps.
    double window[2] = {0, 0};
    for (long s = steps; s < steps + 4000; ++s) {
      ref.step(s);
      for (int k = 0; k < m.grid.n[2]; ++k) {
        const std::size_t c = m.layout.index(0, 0, k);
        double& w_max = window[(s - steps) / 2000];
        w_max = std::max({w_max, std::abs(ref.field(0, Component::Ey)[c]),
                          std::abs(ref.field(0, Component::Hx)[c])});
      }
    }
    MESSAGE("m = 1 axis samples: max |value| " << window[0] << " then " << window[1]);
    CHECK(window[0] > 0);
    CHECK(window[1] < 1.5 * window[0]);
  }
}

TEST_CASE("cylindrical reference: the CPML absorbs an on-axis dipole's pulse") {
  // 20 free cells between the axis and a 10-layer r absorber, 20 free cells above and below the
  // source to 10-layer z absorbers; the reference domain is large enough that its PEC walls are
  // not seen in the run.
  const long steps = 320;
  const double tau = 8e-12;
  auto run = [&](int nr, int nz, std::array<int, 3> layers) {
    CylSpec s;
    s.nr = nr;
    s.nz = nz;
    s.steps = steps;
    s.layers = layers;
    SimulationModel m = cyl_model(s);
    const double zc = (nz / 2) * 1e-3;
    add_cyl_source(m, Component::Ez, 0.0, 0.0, zc, gauss_pulse(5 * tau, tau));
    add_cyl_probe(m, Component::Ez, 15e-3, 0.0, zc);       // near the r absorber
    add_cyl_probe(m, Component::Ez, 0.0, 0.0, zc + 16e-3);  // near a z absorber, on the axis
    add_cyl_probe(m, Component::Ez, 14e-3, 0.0, zc - 14e-3);  // near the corner
    CylReference ref(m);
    auto series = probe_series(ref, 3, steps);
    REQUIRE(ref.fields_finite());
    return series;
  };
  const auto pml = run(30, 60, {10, 10, 10});
  const auto big = run(120, 240, {0, 0, 0});
  for (int p = 0; p < 3; ++p) {
    double peak = 0, diff = 0;
    for (long s = 0; s < steps; ++s) {
      peak = std::max(peak, std::abs(big[p][s]));
      diff = std::max(diff, std::abs(pml[p][s] - big[p][s]));
    }
    REQUIRE(peak > 0);
    MESSAGE("probe " << p << ": CPML reflection (max |difference| / max |field|) " << diff / peak
                     << " (" << 20 * std::log10(diff / peak) << " dB)");
    CHECK(diff / peak < 1e-2);
  }
}
