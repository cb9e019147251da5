// The files of the lumped ports (model/ports.hpp, docs/PORTS.md), written at the end of a run
// into <output dir>/ports/:
//   <name>.csv       frequency_hz,z_re_ohm,z_im_ohm,s11_re,s11_im,s11_db,delivered_J_s
//                    (a port with amplitude 0, which only receives: frequency_hz,v_re_V_s,
//                    v_im_V_s,i_re_A_s,i_im_A_s,received_J_s, and s21_re,s21_im,s21_db from the
//                    driven port when the run has exactly one)
//   <name>.time.csv  time_s,source_V,voltage_V,current_A     (at (n + 1/2) dt, n = 0 .. steps-1)
//   <name>.s1p       S11 as a Touchstone file, for the run's one driven port only (output/
//                    touchstone.hpp); `clfdtd sparams` joins such runs into an N-port file
// Port names have no dot, so the two names never meet.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "model/simulation_model.hpp"

namespace clfdtd {

// Whether port k is the only driven port of the model (it then gets a .s1p).
bool sole_driven_port(const SimulationModel& m, std::size_t k);

// The power the one port that alone drives the model (no other port, point source or plane wave)
// delivers into it, 1/2 Re(V(f) conj(I(f))), and has available, |V_s(f)|^2 / (8 R), at `freqs`
// (J s: the flux monitors' measure), from its E at steps 0 .. steps_done of e_series (as
// write_port_files reads it); with magnetic walls the symmetric whole's (port_images times the
// port's). nullopt when no port drives alone.
struct DrivingPortPower {
  std::string port;
  std::vector<double> delivered, available;
  // Per frequency: how much the delivered power moved over the run's last 5% of steps, as a
  // share of its value (kPortPowerMoved: the series had not died down there).
  std::vector<double> moved;
  // The largest available power over `freqs` and the port's own frequencies (its band by
  // default): where a frequency's is below 1e-6 of it, the source hardly drives it.
  double available_peak = 0;
  bool drives(std::size_t f) const { return available.at(f) >= 1e-6 * available_peak && available_peak > 0; }
};
// How many ports of the symmetric whole a model with magnetic walls (boundary.pmc) stands for
// with this one: 1 for a port on every wall, times 2 per wall it is clear of (its image there).
double port_images(const PortModel& port, const GridGeometry& g);

std::optional<DrivingPortPower> driving_port_power(const SimulationModel& m,
                                                   const std::vector<std::vector<double>>& e_series,
                                                   long steps_done, const std::vector<double>& freqs);

// A port's power (delivered, or received) at a frequency still moving by more than this share
// over the last 5% of the steps comes from a series cut off too early at that frequency: where R
// is small beside X (a short dipole's low band), a residue that hardly shows in Z shifts R and
// the power by tens of per cent.
inline constexpr double kPortPowerMoved = 0.01;

// Per frequency of port.frequencies_hz: |P(steps 0 .. n) - P(steps 0 .. n - n/20)| / |P(steps
// 0 .. n)|, P = 1/2 Re(V conj(I)); e is the port's E at steps 0 .. n, `full` its spectrum
// (port_spectrum over all of e).
std::vector<double> delivered_moved(const PortModel& port, const std::vector<PortPoint>& full,
                                    const std::vector<double>& e, double dt);

// The warning for a farfield monitor's gain columns where the driving port's delivered power
// had not settled at the monitor's frequencies (DrivingPortPower::moved), or nothing.
std::optional<std::string> gain_moved_warning(const std::string& monitor, const DrivingPortPower& p,
                                             const std::vector<double>& freqs, const GridGeometry& g);

// A port's series has died down when the largest magnitude of its voltage, and of its current,
// over the last 5% of the steps is at most this share of that series' largest over the run.
inline constexpr double kPortTailShare = 1e-3;

// e_series[k]: port k's E at steps 0 .. steps as recorded; only steps 0 .. steps_done are used
// (a stopped run). Returns one warning line per port whose spectrum comes from a stopped run, or
// whose voltage or current had not died down by the last step (kPortTailShare: a cut-off
// series), naming the port, the levels reached and time.steps. Throws OutputError on a write
// failure. guided: the waveguide ports' waves (write_dft_monitor_files' result), for the S21 of
// an undriven port whose incident wave is a driven waveguide port's (PortModel::s21_from_guided).
std::vector<std::string> write_port_files(const std::string& dir, const SimulationModel& m,
                                          const std::vector<std::vector<double>>& e_series,
                                          long steps_done, const std::vector<PortWaves>& guided = {});

}  // namespace clfdtd
