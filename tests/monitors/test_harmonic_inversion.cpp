// find_resonances on synthetic ringing: damped sinusoids of known frequency, Q, amplitude and
// phase, rounded to float32 as the device's fields are, with strong terms outside the band.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "monitors/harmonic_inversion.hpp"

using namespace clfdtd;

namespace {

constexpr double kPi = 3.14159265358979323846;

struct Term {
  double f, q, amplitude, phase;
};

std::vector<double> ringing(const std::vector<Term>& terms, double dt, std::size_t n) {
  std::vector<double> x(n, 0.0);
  for (std::size_t s = 0; s < n; ++s) {
    const double t = static_cast<double>(s) * dt;
    double v = 0;
    for (const Term& k : terms) {
      const double alpha = k.q > 0 ? kPi * k.f / k.q : 0;
      v += k.amplitude * std::exp(-alpha * t) * std::cos(2 * kPi * k.f * t + k.phase);
    }
    x[s] = static_cast<double>(static_cast<float>(v));
  }
  return x;
}

double wrapped(double a) { return std::remainder(a, 2 * kPi); }

void check_found(const HarmonicInversion& h, const std::vector<Term>& expected, double f_tol,
                 double q_tol, double amp_tol, double phase_tol) {
  REQUIRE(h.resonances.size() == expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const Resonance& r = h.resonances[k];
    const Term& e = expected[k];
    CAPTURE(k);
    CAPTURE(r.frequency_hz);
    CAPTURE(r.quality);
    CAPTURE(r.amplitude);
    CAPTURE(r.phase_rad);
    CAPTURE(r.error);
    CHECK(std::abs(r.frequency_hz / e.f - 1) < f_tol);
    if (e.q > 0)
      CHECK(std::abs(r.quality / e.q - 1) < q_tol);
    else
      CHECK(std::abs(1 / r.quality) < q_tol);
    CHECK(std::abs(r.amplitude / e.amplitude - 1) < amp_tol);
    CHECK(std::abs(wrapped(r.phase_rad - e.phase)) < phase_tol);
    CHECK(r.error < 1e-5);
    CHECK(std::abs(r.decay_per_s - kPi * r.frequency_hz / r.quality) <= 1e-9 * std::abs(r.decay_per_s) + 1e-30);
  }
}

}  // namespace

TEST_CASE("harmonic inversion: three terms in the band, strong ones outside it") {
  const double dt = 1e-12;
  const std::vector<Term> in_band = {{1.0e9, 50, 1.0, 0.3}, {1.3e9, 1e3, 0.1, -1.2},
                                     {1.7e9, 1e4, 0.01, 2.5}};
  std::vector<Term> all = in_band;
  all.push_back({0.4e9, 200, 10.0, 1.0});   // below the band, 10x the largest inside
  all.push_back({2.6e9, 300, 10.0, -0.7});  // above it
  const std::vector<double> x = ringing(all, dt, 20000);
  const HarmonicInversion h = find_resonances(x, dt, 0.8e9, 2.0e9);
  CHECK(h.decimation > 1);
  CHECK_FALSE(h.truncated);
  check_found(h, in_band, 1e-7, 1e-4, 1e-4, 1e-4);
}

TEST_CASE("harmonic inversion: a wide band (no decimation) and an undamped term") {
  const double dt = 1e-12;
  const std::vector<Term> terms = {{1.0e11, 0, 2.0, -0.4}, {2.5e11, 400, 0.5, 1.9}};
  const std::vector<double> x = ringing(terms, dt, 3000);
  const HarmonicInversion h = find_resonances(x, dt, 0.5e11, 4.5e11);
  CHECK(h.decimation == 1);
  check_found(h, terms, 1e-7, 1e-4, 1e-4, 1e-4);
}

TEST_CASE("harmonic inversion: a term just outside the band is not reported") {
  const double dt = 1e-12;
  const std::vector<double> x = ringing({{2.05e9, 1e3, 1.0, 0.0}}, dt, 20000);
  const HarmonicInversion outside = find_resonances(x, dt, 1.0e9, 2.0e9);
  for (const Resonance& r : outside.resonances) {
    CAPTURE(r.frequency_hz);
    CAPTURE(r.quality);
    CAPTURE(r.amplitude);
    CAPTURE(r.error);
    CHECK(false);
  }
  // and is found once the band holds it
  check_found(find_resonances(x, dt, 1.0e9, 2.1e9), {{2.05e9, 1e3, 1.0, 0.0}}, 1e-7, 1e-4, 1e-4, 1e-4);
}

TEST_CASE("harmonic inversion: two terms closer than the series' Fourier resolution") {
  // 10 MHz apart in a 40 ns series (1 / T = 25 MHz), different Q and amplitude.
  const double dt = 1e-12;
  const std::vector<Term> terms = {{1.00e9, 2e3, 1.0, 0.5}, {1.01e9, 5e2, 0.3, -2.0}};
  check_found(find_resonances(ringing(terms, dt, 40000), dt, 0.8e9, 1.2e9), terms, 1e-6, 1e-3, 1e-3, 1e-3);
}

TEST_CASE("harmonic inversion: one term in white noise, and an empty band") {
  // Noise makes poles that grow (|w| > 1): their powers over 2000 decimated samples must neither
  // overflow nor crowd the real term out of the least squares.
  const double dt = 1e-12;
  std::vector<double> x = ringing({{1.7e9, 5300, 1.0, 0.2}}, dt, 40000);
  std::mt19937 gen(7);
  std::normal_distribution<double> noise(0.0, 1e-4);
  for (double& v : x) v += noise(gen);
  const HarmonicInversion h = find_resonances(x, dt, 1.0e9, 2.6e9);
  REQUIRE(h.resonances.size() == 1);
  CHECK(std::abs(h.resonances[0].frequency_hz / 1.7e9 - 1) < 1e-6);
  CHECK(std::abs(h.resonances[0].quality / 5300 - 1) < 1e-2);
  CHECK(std::abs(h.resonances[0].amplitude - 1) < 1e-3);
  CHECK_FALSE(h.unresolved);
  // A band with nothing but this noise in it: nothing found (the noise, 100 times float32's
  // rounding, is flagged as unresolved terms).
  CHECK(find_resonances(x, dt, 0.3e9, 0.9e9).resonances.empty());
}

TEST_CASE("harmonic inversion: refusals") {
  const double dt = 1e-12;
  const std::vector<double> x(5000, 0.0);
  CHECK_THROWS_AS(find_resonances(x, dt, 2e9, 1e9), std::invalid_argument);
  CHECK_THROWS_AS(find_resonances(x, dt, 0, 1e9), std::invalid_argument);
  CHECK_THROWS_AS(find_resonances(x, dt, 1e9, 6e11), std::invalid_argument);  // past Nyquist
  // A narrow band needs a long series: its filter alone is longer than 5000 samples.
  CHECK(BandPlan::of(dt, 1.0e9, 1.01e9).min_length() > 5000);
  // A band far too narrow for any run (1 mHz): counted, not built.
  CHECK(BandPlan::of(dt, 1.0e9, 1.0e9 + 1e-3).min_length() > 1e15);
  CHECK(BandPlan::of(1e-18, 1.0e9, 1.0e9 + 1e-6).min_length() == std::numeric_limits<std::size_t>::max());
  CHECK_THROWS_AS(find_resonances(x, dt, 1.0e9, 1.01e9), std::invalid_argument);
  // Silence has no resonances.
  CHECK(find_resonances(std::vector<double>(20000, 0.0), dt, 1e9, 2e9).resonances.empty());
}
