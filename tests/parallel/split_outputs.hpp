// What the split tests compare (the ranks-as-threads doctest cases and the mpirun program): every
// output of a run through the time loop, recorded by a LoopSink, and the comparison of two runs
// within 1e-6 of each series' maximum. Free of doctest, so the mpirun program can use it.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/time_loop.hpp"

namespace clfdtd::test {

class OutputRecorder final : public LoopSink {
public:
  void probe_rows(long, int, const std::vector<double>& values) override {
    probes.insert(probes.end(), values.begin(), values.end());
  }
  void snapshot(long step, const std::array<std::vector<float>, 6>& fields) override {
    snapshots[step] = fields;
  }
  void energy_rows(const std::vector<EnergyRow>& rows) override {
    for (const EnergyRow& r : rows) {
      energy_total.push_back(r.total);
      energy_naive.push_back(r.naive);
    }
  }
  void mode_rows(int monitor, const std::vector<long>&, const std::vector<double>& values) override {
    auto& v = modes[monitor];
    v.insert(v.end(), values.begin(), values.end());
  }
  std::vector<double> probes, energy_total, energy_naive;
  std::map<long, std::array<std::vector<float>, 6>> snapshots;
  std::map<int, std::vector<double>> modes;
  std::vector<std::vector<std::complex<double>>> dft;  // per monitor, empty for modes monitors
};

// Runs the whole loop, then reads every flux/dft/farfield transform (collective on every rank).
inline void record_run(const SimulationModel& m, Backend& b, OutputRecorder& rec) {
  LoopOptions opt;
  opt.progress_interval_s = 1e9;
  const LoopResult res = run_time_loop(m, b, rec, nullptr, opt);
  if (!res.finite || res.steps_done != m.grid.steps) {
    throw std::runtime_error("the run stopped at step " + std::to_string(res.steps_done) +
                             (res.finite ? "" : " (non-finite fields)"));
  }
  for (std::size_t i = 0; i < m.monitors.size(); ++i) {
    rec.dft.emplace_back();
    if (m.monitors[i].kind != MonitorKind::Modes) b.read_dft(static_cast<int>(i), rec.dft.back());
  }
}

// "" when every value of `got` is within rel * max |want| of `want` and want is not all zero,
// else what differs.
template <class T>
std::string compare_series(const std::string& what, const std::vector<T>& got,
                           const std::vector<T>& want, double rel = 1e-6) {
  std::ostringstream out;
  if (got.size() != want.size()) {
    out << what << ": " << got.size() << " values, expected " << want.size() << "\n";
    return out.str();
  }
  double max = 0, diff = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    max = std::max(max, static_cast<double>(std::abs(want[i])));
    diff = std::max(diff, static_cast<double>(std::abs(got[i] - want[i])));
  }
  if (!(max > 0) || !(diff <= rel * max))
    out << what << ": max |want| " << max << ", max |diff| " << diff << "\n";
  return out.str();
}

// Compares every output; `fields`: got should hold the snapshots (rank 0), else empty ones.
// rel: the tolerance of compare_series (a float engine against the double reference: looser).
inline std::string compare_outputs(const OutputRecorder& got, const OutputRecorder& want,
                                   bool fields, double rel = 1e-6) {
  std::string err = compare_series("probes", got.probes, want.probes, rel) +
                    compare_series("energy total", got.energy_total, want.energy_total, rel) +
                    compare_series("energy naive", got.energy_naive, want.energy_naive, rel);
  if (got.modes.size() != want.modes.size()) err += "modes monitors differ in number\n";
  for (const auto& [k, v] : want.modes) {
    const auto it = got.modes.find(k);
    err += it == got.modes.end() ? "modes monitor missing\n"
                                 : compare_series("modes " + std::to_string(k), it->second, v, rel);
  }
  if (got.dft.size() != want.dft.size()) err += "dft monitors differ in number\n";
  for (std::size_t i = 0; i < want.dft.size() && i < got.dft.size(); ++i)
    if (!want.dft[i].empty()) err += compare_series("dft " + std::to_string(i), got.dft[i], want.dft[i], rel);
  if (got.snapshots.size() != want.snapshots.size()) err += "snapshot steps differ\n";
  for (const auto& [step, f] : want.snapshots) {
    const auto it = got.snapshots.find(step);
    if (it == got.snapshots.end()) continue;
    for (std::size_t c = 0; c < 6; ++c) {
      const std::string what = "step " + std::to_string(step) + " field " + std::to_string(c);
      if (fields)
        err += compare_series(what, it->second[c], f[c], rel);
      else if (!it->second[c].empty())
        err += what + ": a rank other than 0 got field values\n";
    }
  }
  return err;
}

}  // namespace clfdtd::test
