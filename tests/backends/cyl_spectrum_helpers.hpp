// Resonances of the cylindrical tests: the closed PEC cylinder's exact wavenumbers from the Bessel
// zeros, probe series recorded through the Backend interface, and the frequency of a spectral
// peak (a Hann-windowed DFT maximised near the expected frequency).
#pragma once
#include <cmath>
#include <stdexcept>
#include <vector>

#include "backends/backend.hpp"

namespace clfdtd::test {

// The n-th positive zero (n >= 1) of J_m, or of J_m' when `derivative`, by bracketing on a fine
// scan and bisection.
inline double bessel_zero(int m, int n, bool derivative) {
  auto f = [&](double x) {
    if (!derivative) return std::cyl_bessel_j(static_cast<double>(m), x);
    const double lo = m == 0 ? -std::cyl_bessel_j(1.0, x)
                             : 0.5 * (std::cyl_bessel_j(m - 1.0, x) - std::cyl_bessel_j(m + 1.0, x));
    return lo;
  };
  int found = 0;
  double a = 0.5, fa = f(a);
  for (double b = a + 0.01; b < 100; b += 0.01) {
    const double fb = f(b);
    if ((fa < 0) != (fb < 0)) {
      if (++found == n) {
        double lo = b - 0.01, hi = b;
        for (int it = 0; it < 60; ++it) {
          const double mid = 0.5 * (lo + hi);
          ((f(lo) < 0) != (f(mid) < 0) ? hi : lo) = mid;
        }
        return 0.5 * (lo + hi);
      }
    }
    fa = fb;
  }
  throw std::logic_error("bessel_zero: not found");
}

// The resonance of the closed PEC cylinder of radius a and height h (Hz): TM_mnp (p >= 0) from
// the zeros of J_m, TE_mnp (p >= 1) from the zeros of J_m'.
inline double cavity_frequency(bool tm, int m, int n, int p, double a, double h) {
  const double pi = std::acos(-1.0);
  const double kr = bessel_zero(m, n, !tm) / a, kz = p * pi / h;
  return kC0 * std::hypot(kr, kz) / (2 * pi);
}

// Runs `steps` steps from the current state and returns each probe sample's series
// (out[sample][n], n = 0 .. steps-1: the value after step n), read in batches as the time loop does.
inline std::vector<std::vector<double>> probe_series(Backend& b, std::size_t samples, long steps) {
  std::vector<std::vector<double>> out(samples);
  std::vector<double> batch;
  int slot = 0;
  auto flush = [&] {
    b.read_probe_batch(slot, batch);
    for (int s = 0; s < slot; ++s)
      for (std::size_t p = 0; p < samples; ++p) out[p].push_back(batch[s * samples + p]);
    slot = 0;
  };
  for (long s = 0; s < steps; ++s) {
    b.step(s);
    b.sample_probes(slot++);
    if (slot == b.probe_batch_steps()) flush();
  }
  flush();
  return out;
}

// |sum_n w_n x_n exp(-i 2 pi f n dt)| with a Hann window w over the series.
inline double windowed_amplitude(const std::vector<double>& x, double dt, double f) {
  const double pi = std::acos(-1.0);
  const auto n = x.size();
  double re = 0, im = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double w = 0.5 - 0.5 * std::cos(2 * pi * (i + 0.5) / n);
    re += w * x[i] * std::cos(2 * pi * f * i * dt);
    im -= w * x[i] * std::sin(2 * pi * f * i * dt);
  }
  return std::hypot(re, im);
}

// The frequency of the largest peak of windowed_amplitude within f0 (1 +- span): a scan, then a
// golden-section refinement around the best scan point.
inline double peak_frequency(const std::vector<double>& x, double dt, double f0, double span) {
  const int scan = 200;
  const double lo = f0 * (1 - span), step = 2 * span * f0 / scan;
  double best = lo, best_a = -1;
  for (int i = 0; i <= scan; ++i) {
    const double f = lo + i * step, a = windowed_amplitude(x, dt, f);
    if (a > best_a) best_a = a, best = f;
  }
  double a = best - step, b = best + step;
  const double g = 0.5 * (std::sqrt(5.0) - 1);
  double c = b - g * (b - a), d = a + g * (b - a);
  double fc = windowed_amplitude(x, dt, c), fd = windowed_amplitude(x, dt, d);
  for (int it = 0; it < 60; ++it) {
    if (fc > fd) {
      b = d, d = c, fd = fc, c = b - g * (b - a), fc = windowed_amplitude(x, dt, c);
    } else {
      a = c, c = d, fc = fd, d = a + g * (b - a), fd = windowed_amplitude(x, dt, d);
    }
  }
  return 0.5 * (a + b);
}

}  // namespace clfdtd::test
