// Waveforms, source J tables and probe sample placement.
#include <doctest/doctest.h>

#include <cmath>

#include "model/field_layout.hpp"
#include "model/probes.hpp"
#include "model/sources.hpp"
#include "model/waveforms.hpp"

using namespace clfdtd;

namespace {

GridGeometry grid(long steps) {
  GridGeometry g;
  g.n = {10, 10, 10};
  g.d = {0.01, 0.01, 0.01};
  g.dt = 0.9 * g.courant_limit_dt();
  g.steps = steps;
  return g;
}

SourceConfig source(WaveformKind w, double f) {
  SourceConfig s;
  s.name = "s";
  s.waveform = w;
  s.frequency_hz = f;
  return s;
}

}  // namespace

TEST_CASE("gaussian and ricker peak at their default delays") {
  const double f = 1e9;
  SourceConfig g = source(WaveformKind::Gaussian, f);
  const double tau = 1 / (M_PI * f);
  CHECK(default_delay_s(g) == doctest::Approx(4 * tau));
  CHECK(waveform_value(g, 4 * tau) == doctest::Approx(1.0));
  CHECK(waveform_value(g, 5 * tau) == doctest::Approx(std::exp(-1.0)));
  CHECK(waveform_value(g, 0) < 1.2e-7);  // e^-16: the pulse starts quietly

  SourceConfig r = source(WaveformKind::Ricker, f);
  CHECK(default_delay_s(r) == doctest::Approx(1.5 / f));
  CHECK(waveform_value(r, 1.5 / f) == doctest::Approx(1.0));
  const double x = M_PI * f * 0.1e-9;
  CHECK(waveform_value(r, 1.6e-9) == doctest::Approx((1 - 2 * x * x) * std::exp(-x * x)));

  r.delay_s = 3e-9;  // an explicit delay moves the peak
  CHECK(waveform_value(r, 3e-9) == doctest::Approx(1.0));
  CHECK(default_delay_s(source(WaveformKind::Sine, f)) == 0.0);
}

TEST_CASE("gaussian pulse: carrier under a gaussian envelope of the bandwidth") {
  const double f = 2e9;
  SourceConfig p = source(WaveformKind::GaussianPulse, f);
  const double tau = 2 / (M_PI * f);
  const double t0 = 4 * tau;
  CHECK(default_delay_s(p) == doctest::Approx(t0));
  CHECK(waveform_value(p, t0) == doctest::Approx(0.0));
  const double q = 0.25 / f;  // a quarter period after the centre: sin = 1
  CHECK(waveform_value(p, t0 + q) == doctest::Approx(std::exp(-(q / tau) * (q / tau))));
  p.bandwidth_hz = 0.5e9;
  CHECK(default_delay_s(p) == doctest::Approx(4 * 2 / (M_PI * 0.5e9)));
}

TEST_CASE("sine ramps up over three periods") {
  const double f = 1e9;
  SourceConfig s = source(WaveformKind::Sine, f);
  CHECK(waveform_value(s, 0) == 0.0);
  CHECK(waveform_value(s, 1.25 / f) == doctest::Approx(0.5 * (1 - std::cos(M_PI * 1.25 / 3))));
  CHECK(waveform_value(s, 10.25 / f) == doctest::Approx(1.0));
  s.delay_s = 1e-9;
  CHECK(waveform_value(s, 0.5e-9) == 0.0);
  CHECK(waveform_value(s, 11.25e-9) == doctest::Approx(1.0));
}

TEST_CASE("dipole and current J tables") {
  const GridGeometry g = grid(200);
  SourceConfig dip = source(WaveformKind::Gaussian, 5e9);
  dip.kind = SourceKind::Dipole;
  dip.amplitude = 2e-12;
  dip.axis = Axis::Z;
  dip.position = Vec3{0.0512, 0.05, 0.0549};
  SourceConfig cur = dip;
  cur.name = "c";
  cur.kind = SourceKind::Current;
  cur.amplitude = 3.0;
  cur.axis = Axis::X;
  const auto src = build_sources({dip, cur}, g);
  REQUIRE(src.size() == 2);
  const double dv = 1e-6;

  CHECK(src[0].name == "s");
  CHECK(src[0].component == Component::Ez);
  CHECK(src[0].cell == std::array<int, 3>{5, 5, 5});  // Ez at z = (k + 1/2) d: 0.0549 -> k = 5
  REQUIRE(src[0].j.size() == 200);
  double charge = 0;
  for (long s = 0; s < 200; ++s) {
    const double expect =
        2e-12 * (waveform_value(dip, (s + 1) * g.dt) - waveform_value(dip, s * g.dt)) / (g.dt * dv);
    CHECK(src[0].j[s] == doctest::Approx(expect));
    charge += src[0].j[s] * g.dt * dv;
  }
  // The differences telescope: the total moment equals p(end) - p(0).
  CHECK(charge == doctest::Approx(2e-12 * (waveform_value(dip, 200 * g.dt) - waveform_value(dip, 0))));

  CHECK(src[1].component == Component::Ex);
  CHECK(src[1].cell == std::array<int, 3>{5, 5, 5});  // Ex at x = (i + 1/2) d: 0.0512 -> i = 5
  for (long s : {0L, 17L, 199L}) {
    CHECK(src[1].j[s] == doctest::Approx(3.0 * waveform_value(cur, (s + 0.5) * g.dt)));
  }
  // The current peaks (value ~3) near its delay.
  const long peak = std::lround(default_delay_s(cur) / g.dt - 0.5);
  CHECK(src[1].j[peak] == doctest::Approx(3.0).epsilon(0.01));
}

TEST_CASE("a point halfway between two samples takes the higher one, whatever the doubles' rounding") {
  // 0.295 / 0.005 is 58.99999999999999 in doubles and 0.28 / 0.005 is 56.00000000000001: both
  // lie halfway between two Ex samples along x, and both take the higher, so a source and probe
  // moved together keep their distance in cells (tools/bscan's traces).
  const std::array<int, 3> n{120, 80, 100};
  const std::array<double, 3> d{0.005, 0.005, 0.005};
  REQUIRE(0.295 / 0.005 < 59.0);
  REQUIRE(0.28 / 0.005 > 56.0);
  CHECK(nearest_sample(Component::Ex, Vec3{0.295, 0.2, 0.31}, n, d)[0] == 59);
  CHECK(nearest_sample(Component::Ex, Vec3{0.28, 0.2, 0.31}, n, d)[0] == 56);
  CHECK(nearest_sample(Component::Ex, Vec3{0.115 + 9 * 0.02, 0.2, 0.31}, n, d)[0] == 59);
  // Along y Ex sits on the nodes: halfway between two is 0.0025 m past one (0.1475 m: 29.499999999999996
  // cells; 0.2775 m: 55.50000000000001).
  REQUIRE(0.1475 / 0.005 < 29.5);
  CHECK(nearest_sample(Component::Ex, Vec3{0.1, 0.1475, 0.31}, n, d)[1] == 30);
  CHECK(nearest_sample(Component::Ex, Vec3{0.1, 0.2775, 0.31}, n, d)[1] == 56);
  // Away from a tie nothing moves.
  CHECK(nearest_sample(Component::Ex, Vec3{0.2951, 0.2, 0.31}, n, d)[0] == 59);
  CHECK(nearest_sample(Component::Ex, Vec3{0.2949, 0.2, 0.31}, n, d)[0] == 58);
}

TEST_CASE("probe samples sit at each component's nearest Yee sample, in config order") {
  const GridGeometry g = grid(100);
  ProbeConfig a;
  a.name = "a";
  a.position = Vec3{0.031, 0.042, 0.0};
  a.fields = {Component::Ez, Component::Hx, Component::Ex};
  ProbeConfig b;
  b.name = "b";
  b.position = Vec3{0.2, -1, 0.052};  // outside: clamped into the grid
  b.fields = {Component::Hy};
  b.steps = std::array<long, 2>{10, 500};
  const ProbeSet p = build_probes({a, b}, g);
  REQUIRE(p.samples.size() == 4);
  REQUIRE(p.probes.size() == 2);
  CHECK(p.samples[0].probe == 0);
  CHECK(p.samples[0].component == Component::Ez);
  CHECK(p.samples[0].cell == std::array<int, 3>{3, 4, 0});
  CHECK(p.samples[0].position_m.z == doctest::Approx(0.005));
  CHECK(p.samples[1].component == Component::Hx);
  CHECK(p.samples[1].cell == std::array<int, 3>{3, 4, 0});  // y: 4.2 - 0.5 -> 4
  CHECK(p.samples[1].position_m.y == doctest::Approx(0.045));
  CHECK(p.samples[2].component == Component::Ex);
  CHECK(p.samples[2].cell == std::array<int, 3>{3, 4, 0});  // x: 3.1 - 0.5 = 2.6 -> 3
  CHECK(p.samples[2].position_m.x == doctest::Approx(0.035));
  CHECK(p.samples[3].probe == 1);
  CHECK(p.samples[3].cell == std::array<int, 3>{9, 0, 5});
  CHECK(p.probes[0].n1 == 0);
  CHECK(p.probes[0].n2 == 100);
  CHECK(p.probes[1].n1 == 10);
  CHECK(p.probes[1].n2 == 100);  // cut at the last step
  CHECK(p.first_step == 0);
  CHECK(p.last_step == 100);
  CHECK(p.active(0));
  CHECK_FALSE(p.active(101));

  a.steps = std::array<long, 2>{20, 30};
  const ProbeSet q = build_probes({a, b}, g);
  CHECK(q.first_step == 10);
  CHECK(q.last_step == 100);

  const ProbeSet none = build_probes({}, g);
  CHECK(none.empty());
  CHECK(none.last_step < none.first_step);
  CHECK_FALSE(none.active(0));
}
