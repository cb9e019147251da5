// Harmonic inversion: the resonances of a ringing field, from one probe's time series
// (docs/MONITORS.md, "Resonances"). A series after the sources have stopped is a sum of damped
// sinusoids,
//   x(t) = sum_k A_k exp(-alpha_k t) cos(2 pi f_k t + phi_k),
// and find_resonances recovers f_k, alpha_k (Q_k = pi f_k / alpha_k), A_k and phi_k of the terms
// whose frequency lies in a band [f1, f2]:
//  1. band-limit: mix the series down by the band's centre, low-pass it (a Kaiser-windowed sinc,
//     140 dB past the band) and keep every D-th sample, the rate at least four band widths;
//  2. matrix pencil: the poles w_k = exp((i 2 pi (f_k - fc) - alpha_k) D dt) are the eigenvalues
//     of the shift between the two halves of the signal subspace of a Hankel matrix of the
//     decimated samples (its singular vectors above the noise);
//  3. amplitudes: least squares of the decimated samples on the poles' powers, divided by the
//     filter's response at each pole (the filter only scales a damped exponential, so the
//     amplitudes are those of the series itself).
// Each pole is found twice, with two pencil sizes; `error` is how far the two disagree, relative
// to the frequency (a term's share of the samples: |a| sqrt(sum_m |w|^2m) over the decimated
// samples). Poles outside the band, with error above kMaxError or an amplitude below
// kAmplitudeFloor of the series' largest magnitude (float32's resolution: the filter's leakage
// and the rounding live there) are dropped.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace clfdtd {

struct Resonance {
  double frequency_hz = 0;
  double decay_per_s = 0;   // alpha: the amplitude falls as exp(-alpha t); < 0 grows
  double quality = 0;       // pi f / alpha (infinite for alpha = 0, negative when growing)
  double amplitude = 0;     // A at t = 0 (the series' first sample), the series' unit
  double phase_rad = 0;     // phi at t = 0
  double error = 0;         // the two pencils' disagreement, |delta (f - i alpha / 2 pi)| / f
};

struct HarmonicInversion {
  std::vector<Resonance> resonances;  // increasing frequency
  long decimation = 1;                // D
  std::size_t filter_length = 0;      // taps of the low-pass; the first taps - 1 samples feed it
  std::size_t samples_used = 0;       // decimated samples in the pencil
  bool truncated = false;             // the series was longer than kMaxSamples decimated samples
  // Terms of the band that the analysis could not pin down: a pole whose two pencils disagree
  // (error above kMaxError) with a share of the samples at least kUnresolvedShare of the largest
  // in the band (a band over more of a large structure's modes than the series resolves, or a
  // weak field in rounding noise). Resonances may then be missing: a narrower band, or a longer
  // ringing, helps.
  bool unresolved = false;
};

// The most decimated samples analysed (the series' first ones): the pencil is a third of them,
// and its singular value decomposition grows with the cube. kMaxError: the largest error of a
// resonance that is kept.
constexpr std::size_t kMaxSamples = 2000;
constexpr std::size_t kMinDecimated = 24;
constexpr double kMaxError = 1e-4;
constexpr double kAmplitudeFloor = 1e-6;
constexpr double kUnresolvedShare = 1e-2;
// The most one analysis holds besides its series: the Hankel and power matrices and their
// factorisations, each at most kMaxSamples x (kMaxSamples / 3 + 1) complex doubles.
constexpr double kAnalysisBytes = 4.0 * kMaxSamples * (kMaxSamples / 3 + 1) * 16;

// The low-pass' attenuation past the band (dB; 1e-7, float32's resolution).
constexpr double kStopbandDb = 140;

// A band's plan, by formula (nothing allocated: a narrow band's filter can be longer than any
// run): the centre and half width, the decimation D (the decimated rate at least 8 half widths,
// D = 1 when the band is that wide already) and the low-pass' length (it passes |f - fc| <= half
// and stops from 7 half on, so nothing that folds back into the band survives the decimation).
// Doubles: D and the lengths may exceed any integer for a narrow band on a fine time step.
struct BandPlan {
  double centre = 0, half = 0, cutoff = 0;  // Hz
  double decimation = 1;
  double taps = 1;
  static BandPlan of(double dt, double f1_hz, double f2_hz) {
    BandPlan p;
    p.centre = 0.5 * (f1_hz + f2_hz);
    p.half = 0.5 * (f2_hz - f1_hz);
    p.decimation = std::max(1.0, std::floor(1.0 / (8 * p.half * dt)));
    const double transition = 6 * p.half;
    p.cutoff = p.half + 0.5 * transition;
    // Kaiser's length for the attenuation over the transition (normalised 2 pi transition dt).
    p.taps = std::ceil((kStopbandDb - 8) / (2.285 * 2 * 3.14159265358979323846 * transition * dt)) + 1;
    return p;
  }
  // The fewest samples a series needs (the filter and kMinDecimated decimated samples after it)
  // and the most the analysis takes (kMaxSamples decimated samples); SIZE_MAX past a size_t.
  std::size_t min_length() const { return clamp(taps + static_cast<double>(kMinDecimated - 1) * decimation); }
  std::size_t max_length() const { return clamp(taps + static_cast<double>(kMaxSamples - 1) * decimation); }

private:
  static std::size_t clamp(double v) {
    return v < 9e18 ? static_cast<std::size_t>(v) : std::numeric_limits<std::size_t>::max();
  }
};

// x: samples at t = n dt, n = 0 .. x.size() - 1. Requires 0 < f1 < f2 <= 1 / (2 dt) and
// x.size() >= BandPlan::of(dt, f1, f2).min_length() (std::invalid_argument otherwise).
HarmonicInversion find_resonances(const std::vector<double>& x, double dt, double f1_hz,
                                  double f2_hz);

}  // namespace clfdtd
