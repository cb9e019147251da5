// Harmonic inversion (see harmonic_inversion.hpp): band-limit and decimate, matrix pencil,
// least-squares amplitudes.
#include "monitors/harmonic_inversion.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <stdexcept>
#include <string>

#include <Eigen/Dense>

namespace clfdtd {

namespace {

constexpr double kPi = 3.14159265358979323846;
using cd = std::complex<double>;
// The Kaiser window's beta for the low-pass' attenuation.
constexpr double kKaiserBeta = 0.1102 * (kStopbandDb - 8.7);
// Singular values below this share of the largest are noise (the fields are float32).
constexpr double kSingularFloor = 1e-7;

// The low-pass' taps: a Kaiser-windowed sinc, unit gain at the band's centre.
std::vector<double> filter_taps(const BandPlan& p, double dt) {
  const std::size_t n = static_cast<std::size_t>(p.taps);
  std::vector<double> taps(n);
  const double centre_tap = 0.5 * static_cast<double>(n - 1);
  const double i0_beta = std::cyl_bessel_i(0.0, kKaiserBeta);
  double sum = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const double u = static_cast<double>(j) - centre_tap;
    const double x = 2 * p.cutoff * dt * u;
    const double sinc = x == 0 ? 1.0 : std::sin(kPi * x) / (kPi * x);
    const double r = centre_tap > 0 ? u / centre_tap : 0;
    const double window = std::cyl_bessel_i(0.0, kKaiserBeta * std::sqrt(std::max(0.0, 1 - r * r))) / i0_beta;
    taps[j] = sinc * window;
    sum += taps[j];
  }
  for (double& t : taps) t /= sum;
  return taps;
}

void check_band(double dt, double f1, double f2) {
  if (!(dt > 0) || !(f1 > 0) || !(f2 > f1) || f2 > 0.5 / dt * (1 + 1e-12))
    throw std::invalid_argument("harmonic inversion: the band needs 0 < f1 < f2 <= 1 / (2 dt); got " +
                                std::to_string(f1) + " .. " + std::to_string(f2) + " Hz with dt " +
                                std::to_string(dt) + " s");
}

// The poles of the decimated samples y from a pencil of size L: eigenvalues of the shift
// between the first and last L rows of the signal subspace (right singular vectors of the Hankel
// matrix y[i + j], i < M - L, j <= L).
std::vector<cd> pencil_poles(const std::vector<cd>& y, std::size_t L) {
  const std::size_t m = y.size();
  const Eigen::Index rows = static_cast<Eigen::Index>(m - L), cols = static_cast<Eigen::Index>(L + 1);
  Eigen::MatrixXcd hankel(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index j = 0; j < cols; ++j) hankel(i, j) = y[static_cast<std::size_t>(i + j)];
  Eigen::BDCSVD<Eigen::MatrixXcd> svd(hankel, Eigen::ComputeThinV);
  const Eigen::VectorXd& s = svd.singularValues();
  std::vector<cd> poles;
  if (s.size() == 0 || !(s(0) > 0)) return poles;
  Eigen::Index k = 0;
  while (k < s.size() && k < static_cast<Eigen::Index>(L) && s(k) > kSingularFloor * s(0)) ++k;
  // Rows of the Hankel matrix are combinations of (1, w, w^2, ...), which lie in the span of
  // conj(V)'s leading columns.
  const Eigen::MatrixXcd w = svd.matrixV().leftCols(k).conjugate();
  const Eigen::MatrixXcd first = w.topRows(static_cast<Eigen::Index>(L));
  const Eigen::MatrixXcd last = w.bottomRows(static_cast<Eigen::Index>(L));
  const Eigen::MatrixXcd shift = first.colPivHouseholderQr().solve(last);
  Eigen::ComplexEigenSolver<Eigen::MatrixXcd> eig(shift, false);
  for (Eigen::Index i = 0; i < eig.eigenvalues().size(); ++i) {
    const cd p = eig.eigenvalues()(i);
    if (std::isfinite(p.real()) && std::isfinite(p.imag()) && std::abs(p) > 0) poles.push_back(p);
  }
  return poles;
}

// Least squares of y[i] = sum_k a_k w_k^i. Each column is taken from its largest power (i = 0,
// or i = m - 1 for a growing pole) and scaled to unit norm, so that no power overflows and the QR
// sees every term at its share of the samples: share_k = |a_k| sqrt(sum_i |w_k|^2i).
struct PoleFit {
  std::vector<cd> amplitude;  // a_k (at i = 0; 0 where it underflows)
  std::vector<double> share;
};

PoleFit pole_amplitudes(const std::vector<cd>& y, const std::vector<cd>& poles) {
  const Eigen::Index m = static_cast<Eigen::Index>(y.size()), k = static_cast<Eigen::Index>(poles.size());
  Eigen::MatrixXcd powers(m, k);
  std::vector<double> norm(static_cast<std::size_t>(k));
  std::vector<Eigen::Index> from(static_cast<std::size_t>(k));
  for (Eigen::Index j = 0; j < k; ++j) {
    const cd w = poles[static_cast<std::size_t>(j)];
    const bool grows = std::abs(w) > 1;
    const cd factor = grows ? 1.0 / w : w;  // walking away from the largest power
    cd p = 1;
    double sum = 0;
    for (Eigen::Index n = 0; n < m; ++n) {
      powers(grows ? m - 1 - n : n, j) = p;
      sum += std::norm(p);
      p *= factor;
    }
    norm[static_cast<std::size_t>(j)] = std::sqrt(sum);
    from[static_cast<std::size_t>(j)] = grows ? m - 1 : 0;
    powers.col(j) /= norm[static_cast<std::size_t>(j)];
  }
  Eigen::VectorXcd rhs(m);
  for (Eigen::Index i = 0; i < m; ++i) rhs(i) = y[static_cast<std::size_t>(i)];
  const Eigen::VectorXcd scaled = powers.colPivHouseholderQr().solve(rhs);
  PoleFit fit;
  for (Eigen::Index j = 0; j < k; ++j) {
    const std::size_t at = static_cast<std::size_t>(j);
    fit.share.push_back(std::abs(scaled(j)));
    // a w^i = scaled w^(i - from) / norm: a = scaled w^-from / norm.
    const cd back = from[at] == 0 ? cd(1) : std::exp(-static_cast<double>(from[at]) * std::log(poles[at]));
    const cd a = scaled(j) / norm[at] * back;
    fit.amplitude.push_back(std::isfinite(a.real()) && std::isfinite(a.imag()) ? a : cd(0));
  }
  return fit;
}

}  // namespace

HarmonicInversion find_resonances(const std::vector<double>& x, double dt, double f1_hz,
                                  double f2_hz) {
  check_band(dt, f1_hz, f2_hz);
  const BandPlan plan = BandPlan::of(dt, f1_hz, f2_hz);
  if (x.size() < plan.min_length())
    throw std::invalid_argument("harmonic inversion: " + std::to_string(x.size()) +
                                " samples, the band needs at least " +
                                std::to_string(plan.min_length()));
  const std::vector<double> filter = filter_taps(plan, dt);
  const std::size_t taps = filter.size(), d = static_cast<std::size_t>(plan.decimation);
  HarmonicInversion out;
  out.decimation = static_cast<long>(d);
  out.filter_length = taps;
  std::size_t m = (x.size() - taps) / d + 1;
  if (m > kMaxSamples) {
    m = kMaxSamples;
    out.truncated = true;
  }
  out.samples_used = m;

  // Mixed down by the centre and filtered, at the decimated instants m D:
  //   y[m] = sum_j h_j x[m D + j] exp(-i wc (m D + j) dt).
  const double wc_dt = 2 * kPi * plan.centre * dt;
  std::vector<cd> y(m);
  for (std::size_t i = 0; i < m; ++i) {
    cd acc = 0;
    const std::size_t at = i * d;
    for (std::size_t j = 0; j < taps; ++j) {
      const double phase = -wc_dt * static_cast<double>(at + j);
      acc += filter[j] * x[at + j] * cd(std::cos(phase), std::sin(phase));
    }
    y[i] = acc;
  }

  const std::size_t pencil = m / 3;
  const std::vector<cd> poles = pencil_poles(y, pencil);
  const std::vector<cd> check = pencil_poles(y, (3 * pencil) / 4);
  if (poles.empty()) return out;
  const PoleFit fit = pole_amplitudes(y, poles);
  double peak = 0;
  for (double v : x) peak = std::max(peak, std::fabs(v));

  const double step = static_cast<double>(d) * dt;  // the decimated sampling step
  double kept = 0, rejected = 0;  // the largest share of the samples among each kind
  for (std::size_t k = 0; k < poles.size(); ++k) {
    const cd log_w = std::log(poles[k]);
    Resonance r;
    r.frequency_hz = plan.centre + log_w.imag() / (2 * kPi * step);
    r.decay_per_s = -log_w.real() / step;
    if (r.frequency_hz < f1_hz || r.frequency_hz > f2_hz) continue;
    // The filter scales exp(s n dt) by H(z) = sum_j h_j z^j, z the pole per original step.
    const cd z = std::exp(log_w / static_cast<double>(d));
    cd response = 0, zj = 1;
    for (std::size_t j = 0; j < taps; ++j) {
      response += filter[j] * zj;
      zj *= z;
    }
    const cd c = fit.amplitude[k] / response;
    r.amplitude = 2 * std::abs(c);
    r.phase_rad = std::arg(c);
    if (!(r.amplitude >= kAmplitudeFloor * peak)) continue;  // noise, not a term
    double nearest = std::numeric_limits<double>::infinity();
    for (const cd& other : check) nearest = std::min(nearest, std::abs(std::log(other) - log_w));
    r.error = nearest / (2 * kPi * step * r.frequency_hz);
    if (!(r.error <= kMaxError)) {
      rejected = std::max(rejected, fit.share[k]);
      continue;
    }
    kept = std::max(kept, fit.share[k]);
    r.quality = r.decay_per_s == 0 ? std::numeric_limits<double>::infinity()
                                   : kPi * r.frequency_hz / r.decay_per_s;
    out.resonances.push_back(r);
  }
  out.unresolved = rejected >= kUnresolvedShare * std::max(kept, rejected) && rejected > 0;
  std::sort(out.resonances.begin(), out.resonances.end(),
            [](const Resonance& a, const Resonance& b) { return a.frequency_hz < b.frequency_hz; });
  return out;
}

}  // namespace clfdtd
