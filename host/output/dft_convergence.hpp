// Whether the flux, dft and farfield monitors' transforms had settled when the run ended: their
// sums are read once near the end (5% of the steps before it) and compared with the end's. A
// transform that still moves comes from fields that had not died down, a cut-off series whose
// spectrum is not the model's.
#pragma once
#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd {

// Over the last 5% of the run a settled transform moves by less than this share of its largest
// magnitude (fields down by 60 dB).
constexpr double kDftSettledShare = 1e-3;
// A transform below this share of the plane waves' incident |E(f)| holds rounding alone (the float
// engines leave ~1e-7 of the incident wave outside its box; docs/EQUATIONS.md "Plane waves").
constexpr double kPlaneWaveNoiseShare = 1e-5;

class DftConvergence {
public:
  // Checks the monitors the run reads at its end (monitor_files.hpp reads_dft_at_end).
  explicit DftConvergence(const SimulationModel& m);

  // The step after whose outputs take() reads; -1 when there is nothing to check (no monitor, or
  // fewer than 20 steps).
  long checkpoint_step() const { return step_; }
  // Reads every checked monitor's sums (over ranks, on every rank: read_dft is collective there).
  void take(Backend& backend);
  // A warning when monitor `monitor`'s sums at the end moved by more than kDftSettledShare of their
  // largest magnitude since take(); nothing when take() did not run (a stopped run).
  std::optional<std::string> compare(int monitor, const std::vector<std::complex<double>>& end) const;

private:
  const SimulationModel& m_;
  long step_ = -1;
  std::vector<std::vector<std::complex<double>>> taken_;  // per monitor, empty until take()
  // Per monitor: below this largest magnitude its transform holds rounding alone (a model lit by
  // plane waves: 1e-6 of the incident |E(f)|; otherwise 0), and is not judged.
  std::vector<double> noise_floor_;
};

}  // namespace clfdtd
