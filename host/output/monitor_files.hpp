// The files of flux, dft and farfield monitors, written once at the end of a run from their
// transforms (docs/MONITORS.md), into <output dir>/monitors/:
//   flux:     <name>.csv  frequency_hz,flux_J_s             (J s: 1/2 Re of the surface integral
//                                                            of E(f) x conj(H(f)) . n dA)
//   farfield: <name>.csv  frequency_hz,theta_deg,phi_deg,directivity_dbi,directivity_theta_dbi,
//                         directivity_phi_dbi (the last two: E_theta's and E_phi's shares, 3D),
//                         and in a 3D model that one port alone drives, gain_dbi,
//                         realized_gain_dbi (over the power the port delivers, and has available)
// 2D models (per metre of depth): flux in J s / m (frequency_hz,flux_J_s_per_m); farfield the in-plane pattern, theta_deg = 90
// on every row, the 2D directivity 2 pi U' / P' in dB (near_to_far_2d.hpp).
//   dft:      <name>.vti  cell arrays <Field>_re_<i>, <Field>_im_<i> (V/m s, A/m s) per frequency i
// and what run.json reports of each monitor (modes monitors: their CSV is written as the run goes).
#pragma once
#include <complex>
#include <functional>
#include <string>
#include <vector>

#include <optional>

#include "model/simulation_model.hpp"
#include "output/port_files.hpp"

namespace clfdtd {

struct MonitorReport {
  std::string name, type;            // type: flux | dft | farfield | modes
  std::string file;                  // relative to the output dir: monitors/<name>.csv or .vti
  std::vector<double> frequencies_hz;
  std::vector<double> flux;          // flux: per frequency (J s; 2D: J s per metre of depth)
  // farfield: per frequency (as flux), through its non-wall faces (with magnetic walls: the
  // symmetric whole's, times 2 per wall)
  std::vector<double> radiated_power;
  // farfield, a 3D model that one port alone drives: radiated_power / the power the port
  // delivers, per frequency (NaN where the port's source hardly drives it)
  std::vector<double> radiation_efficiency;
  // flux, a model lit by one plane wave: flux / its incident intensity (m^2; NaN where the
  // incident spectrum is below 1e-6 of its largest), the scattering cross section for a box
  // around the total-field box
  std::vector<double> cross_section;
  bool per_metre = false;            // a 2D model's: run.json names both "..._J_s_per_m"
  int modes = 0;                     // modes: how many
  int decimation = 1;                // flux, dft, farfield: transformed every N-th step
  std::vector<std::string> warnings;  // what writing its file found (the caller prints them)
};

// One entry per monitor of m, files not yet written (run.json lists them from the start).
std::vector<MonitorReport> monitor_reports(const SimulationModel& m);

// Reads monitor `index`'s transform (Backend::read_dft).
using DftReader = std::function<void(int index, std::vector<std::complex<double>>& out)>;

// Whether a run reads monitor `mon`'s transform at its end: flux, farfield, and dft where this
// build writes .vti (a build without VTK says so up front and skips it).
bool reads_dft_at_end(const MonitorModel& mon);

// The power of the port that alone drives the model at the given frequencies
// (output/port_files.hpp driving_port_power), nullopt without one.
// `monitor` names the farfield monitor asking (for the caller's warnings).
using DrivingPower = std::function<std::optional<DrivingPortPower>(const std::string& monitor,
                                                                   const std::vector<double>& freqs)>;

// Writes the files of every flux, dft and farfield monitor and fills their entries of `reports`
// (from monitor_reports). driving_power, where given, adds the gain columns of farfield files.
// Throws OutputError (exit 5) on a write failure. Returns the waveguide ports' waves (in
// m.waveguide_ports order), whose files it writes too (output/waveguide_port_files.hpp).
std::vector<PortWaves> write_dft_monitor_files(const std::string& dir, const SimulationModel& m,
                             const DftReader& read_dft, std::vector<MonitorReport>& reports,
                             const DrivingPower& driving_power = {});

const char* monitor_kind_name(MonitorKind k);  // "flux", "dft", "farfield", "modes"

}  // namespace clfdtd
