// The cylindrical reference engine (CylReference) against the closed PEC cylinder's resonances
// (Bessel zeros), and make_backend's routing of cylindrical models.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "backends/cyl_model_helpers.hpp"
#include "backends/cyl_spectrum_helpers.hpp"
#include "backends/reference/cyl_reference.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

// The test cavity: radius 30 cells (dr = 1 mm), height 24 cells (dz = 1 mm).
CylSpec cavity_spec(std::vector<int> modes, long steps) {
  CylSpec s;
  s.nr = 30;
  s.nz = 24;
  s.modes = std::move(modes);
  s.steps = steps;
  return s;
}

struct Resonance {
  bool tm;
  int n, p;
};

// Relative error of the probe's peak nearest to each resonance of mode m.
void check_resonances(const std::vector<double>& series, double dt, int m,
                      const std::vector<Resonance>& list, double bound) {
  const double a = 30e-3, h = 24e-3;
  for (const Resonance& r : list) {
    const double f0 = cavity_frequency(r.tm, m, r.n, r.p, a, h);
    const double f = peak_frequency(series, dt, f0, 0.02);
    const double err = f / f0 - 1;
    MESSAGE((r.tm ? "TM" : "TE") << m << r.n << r.p << ": exact " << f0 * 1e-9 << " GHz, FDTD "
                                 << f * 1e-9 << " GHz, error " << err * 100 << " %");
    CHECK(std::abs(err) < bound);
  }
}

}  // namespace

TEST_CASE("cylindrical reference: m = 0 PEC cavity resonances (TM010, TM011, TM020, TE011)") {
  // 30 cells across the radius (no staircase: the walls lie on the grid). The Yee dispersion
  // lowers a frequency by at most (k d)^2 / 24 in space (k d <= 0.26 for the modes checked here:
  // 0.28 %; less where k splits over r and z), the leapfrog time step raises it a little; the
  // discrete operator's own eigenvalues put TM020 at -0.15 % (-0.12 % with the time step).
  // Bound: 0.2 % (measured: TM020 -0.095 %, every other mode within 0.07 %).
  const long steps = 8000;
  SimulationModel m = cyl_model(cavity_spec({0}, steps));
  const double tau = 2e-11;
  // TM family: an on-axis Ez current (Er, Ez, Hphi); TE family: an Ephi current (Ephi, Hr, Hz).
  add_cyl_source(m, Component::Ez, 0.0, 0.0, 0.3 * 24e-3, gauss_pulse(5 * tau, tau));
  add_cyl_source(m, Component::Ey, 0.5 * 30e-3, 0.0, 0.5 * 24e-3, gauss_pulse(5 * tau, tau));
  add_cyl_probe(m, Component::Ez, 0.25 * 30e-3, 0.0, 0.2 * 24e-3);
  add_cyl_probe(m, Component::Hz, 0.3 * 30e-3, 0.0, 0.3 * 24e-3);
  CylReference ref(m);
  const auto series = probe_series(ref, 2, steps);
  REQUIRE(ref.fields_finite());
  check_resonances(series[0], m.grid.dt, 0, {{true, 1, 0}, {true, 1, 1}, {true, 2, 0}}, 2e-3);
  check_resonances(series[1], m.grid.dt, 0, {{false, 1, 1}}, 2e-3);
}

TEST_CASE("make_backend: a cylindrical model with device.backend = reference gets CylReference") {
  SimulationModel m = cyl_model(cavity_spec({0, 1}, 10));
  DeviceConfig dev;
  dev.backend = BackendKind::Reference;
  auto b = make_backend(m, dev);
  CHECK(b->kernel_variant() == "double loops, cylindrical");
  std::vector<std::complex<float>> f;
  b->read_mode_field(1, Component::Ez, f);
  CHECK(f.size() == 30u * 24u);
  CHECK_THROWS_AS(b->read_mode_field(2, Component::Ez, f), DeviceError);
}

TEST_CASE("cylindrical reference: m = 1, 2 PEC cavity resonances (TM and TE)") {
  // One mode per run (its own time step). For m > 0 the families couple through the i m / r
  // terms; the Ez probe sees TM modes (TE has Ez = 0) and the Hz probe TE modes (TM has Hz = 0).
  // TE211 and TM210 lie 3.3 % apart: 16000 steps resolve them (Hann main lobe +-2/T ~ 1.6 %).
  const double tau = 2e-11;
  for (int mq : {1, 2}) {
    CAPTURE(mq);
    const long steps = mq == 1 ? 12000 : 16000;
    SimulationModel m = cyl_model(cavity_spec({mq}, steps));
    add_cyl_source(m, Component::Ez, 0.55 * 30e-3, 0.0, 0.3 * 24e-3, gauss_pulse(5 * tau, tau));
    add_cyl_source(m, Component::Ey, 0.45 * 30e-3, 0.0, 0.5 * 24e-3, gauss_pulse(5 * tau, tau));
    add_cyl_probe(m, Component::Ez, 0.35 * 30e-3, 0.0, 0.2 * 24e-3);
    add_cyl_probe(m, Component::Hz, 0.4 * 30e-3, 0.0, 0.3 * 24e-3);
    CylReference ref(m);
    const auto series = probe_series(ref, 2, steps);
    REQUIRE(ref.fields_finite());
    check_resonances(series[0], m.grid.dt, mq, {{true, 1, 0}, {true, 1, 1}}, 2e-3);
    check_resonances(series[1], m.grid.dt, mq, {{false, 1, 1}, {false, 2, 1}}, 2e-3);
  }
}
