// Patent step 1-1-4: source time functions (formulas in waveforms.hpp).
#include "model/waveforms.hpp"

#include <cmath>

#include "config/options.hpp"

namespace clfdtd {

namespace {
constexpr double kPi = 3.14159265358979323846;

double gaussian_tau(const SourceConfig& s) { return 1.0 / (kPi * s.frequency_hz); }
double pulse_tau(const SourceConfig& s) {
  const double bw = s.bandwidth_hz ? *s.bandwidth_hz : s.frequency_hz;
  return 2.0 / (kPi * bw);
}
}  // namespace

std::string waveform_name(WaveformKind w) {
  return find_option("source.s.waveform")->words.at(static_cast<std::size_t>(w));
}

double default_delay_s(const SourceConfig& src) {
  switch (src.waveform) {
    case WaveformKind::Gaussian: return 4 * gaussian_tau(src);
    case WaveformKind::GaussianPulse: return 4 * pulse_tau(src);
    case WaveformKind::Ricker: return 1.5 / src.frequency_hz;
    case WaveformKind::Sine: return 0;
  }
  return 0;
}

double waveform_value(const SourceConfig& src, double t_s) {
  const double t0 = src.delay_s ? *src.delay_s : default_delay_s(src);
  const double u = t_s - t0;
  const double f = src.frequency_hz;
  switch (src.waveform) {
    case WaveformKind::Gaussian: {
      const double x = u / gaussian_tau(src);
      return std::exp(-x * x);
    }
    case WaveformKind::GaussianPulse: {
      const double x = u / pulse_tau(src);
      return std::sin(2 * kPi * f * u) * std::exp(-x * x);
    }
    case WaveformKind::Ricker: {
      const double x = kPi * f * u;
      return (1 - 2 * x * x) * std::exp(-x * x);
    }
    case WaveformKind::Sine: {
      // A delay shifts the switch-on; before it the source is off. The raised-cosine ramp over
      // three periods avoids the broadband kick of a sudden start.
      if (u <= 0) return 0;
      const double ramp_t = 3.0 / f;
      const double r = u < ramp_t ? 0.5 * (1 - std::cos(kPi * u / ramp_t)) : 1.0;
      return std::sin(2 * kPi * f * u) * r;
    }
  }
  return 0;
}

}  // namespace clfdtd
