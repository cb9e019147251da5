// The sources' band and the monitors' DFT decimation (dft_decimation.hpp).
#include "model/dft_decimation.hpp"
#include "model/number_text.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <sstream>

namespace clfdtd {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kTrimFraction = 1e-9;  // of a table's sum of |J|: the ends left out

// The samples of one table that carry its spectrum: [first, last].
struct Span {
  const SourceModel* source = nullptr;
  std::size_t first = 0, last = 0;
  std::size_t size() const { return last - first + 1; }
};

bool same_samples(const Span& a, const Span& b) {
  return a.size() == b.size() && std::equal(a.source->j.begin() + a.first,
                                            a.source->j.begin() + a.last + 1,
                                            b.source->j.begin() + b.first);
}

}  // namespace

SourceBand source_band(const std::vector<SourceModel>& sources, double dt) {
  SourceBand band;
  std::vector<Span> spans;
  std::size_t longest = 0;
  for (const SourceModel& s : sources) {
    const std::vector<double>& j = s.j;
    double total = 0;
    for (double v : j) total += std::fabs(v);
    if (!std::isfinite(total)) {
      band.limited = false;
      band.why = "source '" + s.name + "' has a current that is not finite";
      return band;
    }
    if (total == 0) continue;  // drives nothing
    const double dropped = kTrimFraction * total;
    Span span{&s, 0, j.size() - 1};
    for (double cum = 0; (cum += std::fabs(j[span.first])) <= dropped;) ++span.first;
    for (double cum = 0; (cum += std::fabs(j[span.last])) <= dropped;) --span.last;
    if (span.last + 1 == j.size()) {
      band.limited = false;
      band.why = "source '" + s.name + "' is still on at the run's last step";
      return band;
    }
    if (span.size() > static_cast<std::size_t>(kMaxAnalysedSteps)) {
      band.limited = false;
      band.why = "source '" + s.name + "' lasts " + std::to_string(span.size()) +
                 " steps, more than the " + std::to_string(kMaxAnalysedSteps) + " analysed";
      return band;
    }
    // Sources with the same waveform share one spectrum (arrays of feeds, mostly).
    if (std::none_of(spans.begin(), spans.end(),
                     [&](const Span& o) { return same_samples(o, span); })) {
      spans.push_back(span);
      longest = std::max(longest, span.size());
    }
  }
  if (spans.empty()) return band;  // no current: no frequency but the monitors' own

  // Frequencies f_k = k / (2 M dt), k = 0 .. M, spacing at most half the resolution 1 / (L dt).
  // The phase of sample n at f_k is -pi k n / M: a table of the 2 M roots of unity, exact.
  const std::size_t M = std::max<std::size_t>(256, longest);
  double work = 0;
  for (const Span& s : spans) work += static_cast<double>(s.size()) * static_cast<double>(M + 1);
  if (work > kMaxAnalysisWork) {
    band.limited = false;
    band.why = std::to_string(spans.size()) + " distinct source waveforms of up to " +
               std::to_string(longest) + " steps are more than the analysis takes";
    return band;
  }
  std::vector<std::complex<double>> root(2 * M);
  for (std::size_t m = 0; m < 2 * M; ++m) root[m] = std::polar(1.0, -kPi * m / M);
  std::vector<double> spectrum(M + 1, 0.0);
  for (const Span& s : spans) {
    const double* j = s.source->j.data() + s.first;
    const std::size_t L = s.size();
    for (std::size_t k = 0; k <= M; ++k) {
      std::complex<double> sum = 0;
      std::size_t phase = 0;
      for (std::size_t n = 0; n < L; ++n) {
        sum += j[n] * root[phase];
        phase += k;
        if (phase >= 2 * M) phase -= 2 * M;
      }
      spectrum[k] = std::max(spectrum[k], std::abs(sum));
    }
  }
  const double peak = *std::max_element(spectrum.begin(), spectrum.end());
  std::size_t top = M;
  while (top > 0 && spectrum[top] <= kSourceBandLevel * peak) --top;
  if (top == M) {
    band.limited = false;
    band.why = "the sources' spectrum is above " + number_text(kSourceBandLevel) +
               " of its peak up to 1 / (2 dt) (a source switched on or off abruptly)";
    return band;
  }
  // Up to the next grid frequency: f_top lies below it.
  band.top_hz = static_cast<double>(top + 1) / (2.0 * static_cast<double>(M) * dt);
  return band;
}

int auto_dft_decimation(const SourceBand& band, double monitor_top_hz, double dt) {
  if (!band.limited) return 1;
  const double f_hi = std::max(band.top_hz, monitor_top_hz);
  if (!(f_hi > 0)) return kMaxDftDecimation;
  const double d = std::floor(1.0 / (2.0 * kDecimationMargin * f_hi * dt));
  return static_cast<int>(std::clamp(d, 1.0, static_cast<double>(kMaxDftDecimation)));
}

void choose_dft_decimation(const RunConfig& cfg, const std::vector<SourceModel>& sources,
                           double dt, std::vector<MonitorModel>& monitors,
                           std::vector<std::string>& warnings) {
  bool any = false;
  for (const MonitorModel& m : monitors) any = any || m.kind != MonitorKind::Modes;
  if (!any) return;
  const SourceBand band = source_band(sources, dt);
  for (MonitorModel& m : monitors) {
    if (m.kind == MonitorKind::Modes) continue;
    const double top = m.frequencies_hz.empty()
                           ? 0.0
                           : *std::max_element(m.frequencies_hz.begin(), m.frequencies_hz.end());
    const int automatic = auto_dft_decimation(band, top, dt);
    int given = 0;
    for (const MonitorConfig& c : cfg.monitors)
      if (c.name == m.name) given = c.decimation;
    m.dft_every = given > 0 ? given : automatic;
    if (given == 0) continue;
    // Alias-free when the sampling rate 1 / (D dt) exceeds f_top plus the monitor's top.
    const double rate = 1.0 / (given * dt);
    const std::string head = "monitor '" + m.name + "': decimation " + std::to_string(given);
    if (band.limited && rate > band.top_hz + top) continue;
    if (band.limited) {
      warnings.push_back(head + " samples at " + number_text(rate) +
                         " Hz, not above the sources' top frequency " + number_text(band.top_hz) +
                         " Hz plus the monitor's " + number_text(top) +
                         " Hz: frequencies alias onto the monitor's (the automatic choice is " +
                         std::to_string(automatic) + ")");
    } else if (given > 1) {
      warnings.push_back(head + ", but " + band.why +
                         ": frequencies alias onto the monitor's (the automatic choice is 1)");
    }
  }
}

}  // namespace clfdtd
