// ports/<name>.csv of waveguide ports (model/waveguide_port.hpp; docs/PORTS.md "Waveguide ports"),
// one row per frequency:
//   frequency_hz, beta_rad_per_m        the grid's propagation constant of the port's mode
//   a_re, a_im, b_re, b_im              the waves into the model (a) and out of it (b) at the
//                                       port's plane, power waves in sqrt(J s): |a|^2 is the
//                                       incoming wave's power in the flux monitor's measure
//   s11_re, s11_im, s11_db              the run's one driven waveguide port: b / a
//   s21_re, s21_im, s21_db              the others, when one waveguide port is driven: b / a of
//                                       the driven port
// At or below the mode's cutoff (no wave carries power) every column but the frequency is nan.
#pragma once
#include <array>
#include <complex>
#include <string>
#include <vector>

#include "model/simulation_model.hpp"

namespace clfdtd {

// What run.json says of one waveguide port.
struct WaveguidePortReport {
  std::string name, mode, direction, fill;  // mode "TE10"; direction "+z"; fill: the material
  double plane_m = 0;                        // the reference plane's position along the axis
  std::array<double, 6> guide_m{};           // the cross-section: lo x y z, hi x y z (m)
  double eps_r = 1, mu_r = 1, amplitude_v_per_m = 0;
  double cutoff_hz = 0, cutoff_analytic_hz = 0;
  // A solved mode: its effective index at the source's frequency (B / K0, the launch line's
  // index); eps_r, mu_r and the cutoffs do not apply (not written).
  bool solved = false;
  double n_line = 0;
  bool driven = false, sole_driven = false;
  std::vector<double> frequencies_hz;
  std::string file() const { return "ports/" + name + ".csv"; }
};
std::vector<WaveguidePortReport> waveguide_port_reports(const SimulationModel& m);

// The CSV text of port k, given every port's waves (port_waves, in m.waveguide_ports order).
std::string waveguide_port_csv(const SimulationModel& m, std::size_t k, const std::vector<PortWaves>& waves);

// Writes every port's CSV into dir/ports/. Throws OutputError (exit 5) on a write failure.
void write_waveguide_port_files(const std::string& dir, const SimulationModel& m,
                                const std::vector<PortWaves>& waves);

}  // namespace clfdtd
