// Waveguide ports ([source.<name>] type = waveguide; docs/PORTS.md "Waveguide ports"): one mode of
// a rectangular metal waveguide, launched into the model and measured where it leaves.
//
// The guide is found in the mesh: from the port's position on its plane (a node plane across the
// port's axis w) clfdtd walks along the two other axes u, v (u = w + 1, v = w + 2 cyclic) to the
// first conductor (a PEC sample, or the domain's wall) on each side; those four node planes are the
// guide's walls, and its cross-section must hold one lossless, non-dispersive material.
//
// On the Yee grid a rectangular guide's modes separate exactly: with k_u = m pi / a, k_v = n pi / b
// (a, b the wall spacings, positions measured from the low walls) and the grid's transverse
// wavenumbers K_u = 2 sin(k_u d_u / 2) / d_u, K_v likewise, Kc^2 = K_u^2 + K_v^2,
//   TE: E_u = V Kv cos(k_u u) sin(k_v v)   E_v = -V Ku sin(k_u u) cos(k_v v)
//       H_u = I Ku sin(k_u u) cos(k_v v)   H_v =  I Kv cos(k_u u) sin(k_v v)   (H_w = W cos cos)
//   TM: E_u = V Ku cos sin   E_v = V Kv sin cos   H_u = -I Kv sin cos   H_v = I Ku cos sin
//       (E_w = U sin sin)
// each sampled at its Yee position, and the 3D Yee updates reduce to a 1D line along w for the
// amplitudes (V at nodes, I at half nodes; docs/EQUATIONS.md "Waveguide modes"):
//   TE: mu dI/dt = -D_w V,  mu dW/dt = Kc^2 V,  eps dV/dt = -D_w I - W
//   TM: mu dI/dt = -D_w V + U,  eps dU/dt = -Kc^2 I,  eps dV/dt = -D_w I
// with the grid's dispersion (2 sin(beta d_w / 2) / d_w)^2 = Omega^2 eps mu - Kc^2,
// Omega = 2 sin(omega dt / 2) / dt. A driven port injects the line's mode through its plane as a
// one-sided total-field/scattered-field surface (a PlaneWaveModel of four kinds of corrections, so
// every engine runs it as it runs plane waves): the total field lies on the side the port faces,
// and whatever comes back passes the plane into the guide behind it (which runs on into the UPML).
//
// Every port, driven or not, transforms E_u, E_v on its plane and H_u, H_v half a cell into the
// model (a monitor of kind WaveguidePort); at the end of the run their projections on the mode give
// V(f) and I(f), which split exactly into the wave going into the model (a) and the one coming out
// (b), as power waves: |a|^2 is the power of the incoming wave in the flux monitor's measure (J s).
#pragma once
#include <array>
#include <complex>
#include <string>
#include <vector>

#include "config/run_config.hpp"
#include "model/field_layout.hpp"
#include "model/grid_geometry.hpp"
#include "model/materials.hpp"
#include "model/mode_solver.hpp"
#include "model/monitors.hpp"
#include "model/plane_wave.hpp"
#include "model/ports.hpp"
#include "model/upml_profile.hpp"

namespace clfdtd {

struct WaveguidePortModel {
  std::string name;
  SourceConfig source;          // as configured
  int axis = 2, sign = 1;       // the port's wave enters the model along sign * axis
  int u = 0, v = 1;             // the transverse axes, (u, v, axis) right-handed
  int plane = 0;                // the port's node plane along axis (its reference plane)
  std::array<int, 2> lo{}, hi{};  // the walls: node planes along u (lo[0], hi[0]) and v
  bool te = true;
  int mu = 1, nv = 0;           // half waves along u and along v
  double ku_grid = 0, kv_grid = 0;  // K_u, K_v (1/m)
  double scale = 1;             // the profiles' factor: the largest |E| sample of the mode is 1
  double eps_r = 1, mu_r = 1;   // the guide's filling
  std::string fill;             // its material's name
  double cutoff_hz = 0;         // where the grid's beta is 0
  double cutoff_analytic_hz = 0;  // c / (2 sqrt(eps_r mu_r)) sqrt((m / a)^2 + (n / b)^2)
  bool driven = false;          // amplitude != 0
  std::vector<double> frequencies_hz;
  int monitor = -1;             // its transforms: SimulationModel::monitors[monitor]
  // Undriven, with no driven waveguide port and exactly one driven lumped port (of the same
  // frequencies): that port's index in SimulationModel::ports (S21 from it).
  int s21_from_lumped = -1;
  double a_m = 0, b_m = 0;      // the wall spacings along u and v
  // A solved mode (source.mode = k > 0; model/mode_solver.hpp): the window lo..hi is the solver's
  // cross-section `section`, the profiles are mode k's at the source's frequency (E, and eta0 H
  // referred to the plane, both times `scale`), and the launch runs a TE line (eps_r, mu_r,
  // ku_grid as its Kc) that carries that mode's beta and its slope at that frequency, of impedance
  // eta0 there; n_line = B / K0 there.
  int solved = 0;
  int group = 1;  // how many modes shared the launched one's beta there (source.axis chose among them)
  double axis_overlap = 0;  // polarization_overlap of that group (model/mode_combination.hpp)
  CrossSection section;
  std::vector<double> prof_eu, prof_ev, prof_hu, prof_hv;
  double n_line = 1;
  bool u_dominant = false;      // most of the mode's transverse E lies along u
  std::string mode_text() const;  // "TE10": the user's m n (m along the longer side); "mode 1 (solved)"
};

// The mode's E (is_h false) or H (true) of component `comp` (0..2) at sample (iu, iv) of the
// cross-section, iu and iv cell indices along u and v counted from the low walls (the Yee
// offsets of `comp` apply): the profile above times `scale`. Zero for the component along the
// axis.
double mode_profile(const WaveguidePortModel& p, bool is_h, int comp, int iu, int iv);

// The ports among cfg.waveguide_ports, in file order; an undriven one without `frequencies` takes
// the first driven waveguide port's, or else the first driven lumped port's (`lumped`), whose
// undriven ones without a band take the first driven waveguide port's in turn (and each S21 from
// the one driven port of the other kind: s21_from_lumped, PortModel::s21_from_guided). Driven
// ports append their injection to
// `injections` (PlaneWaveModel::guided_port names the port); every port appends its monitor to
// `monitors`. Throws ConfigError naming the source's key: no conductor found on a side, a
// cross-section that is not a rectangle of conductors around one material, a lossy, dispersive or
// magnetic-id-mismatched filling, a plane too close to the UPML or the domain's end, a mode the
// guide's cells cannot hold, frequencies past the grid's cutoff.
std::vector<WaveguidePortModel> build_waveguide_ports(const RunConfig& cfg, const GridGeometry& g,
                                                      const FieldLayout& layout,
                                                      const MaterialTable& materials,
                                                      const std::array<std::vector<std::uint8_t>, 6>& ids,
                                                      const UpmlProfile& upml,
                                                      std::vector<PortModel>& lumped,
                                                      std::vector<PlaneWaveModel>& injections,
                                                      std::vector<MonitorModel>& monitors);

// One warning per driven port that a flux or farfield monitor's box crosses or comes within a
// cell of, across its guide (the monitor would mix the port's total field with the scattered
// field behind it), and per port whose guide does not run on behind it into the UPML (a
// conductor, or the domain's bare wall, closes it: what comes back through the port returns).
std::vector<std::string> waveguide_port_warnings(const std::vector<WaveguidePortModel>& ports,
                                                 const std::vector<MonitorModel>& monitors,
                                                 const GridGeometry& g, const FieldLayout& layout,
                                                 const MaterialTable& materials,
                                                 const std::array<std::vector<std::uint8_t>, 6>& ids,
                                                 const UpmlProfile& upml);

// The grid's propagation constant beta (1/m; below cutoff -i alpha, the wave decaying along its
// way) and the mode's wave impedance Z = V / I of a wave travelling along +axis (ohm; imaginary
// below cutoff), at frequency f.
struct ModeWave {
  std::complex<double> beta, impedance;
};
ModeWave mode_wave(const WaveguidePortModel& p, const GridGeometry& g, double f_hz);

// The port's waves at its frequencies from its monitor's transforms (in MonitorModel::regions
// order): a into the model, b out of it, power waves in sqrt(J s) at the port's plane, so that
// |a|^2 is the incoming wave's power in the flux monitor's measure. Both NaN at or below cutoff
// (a solved mode: where fewer than `solved` modes travel). A solved mode is solved again at each
// frequency and the waves are its overlaps with E and H (docs/MODES.md), exact on the grid.
struct PortWaves {
  std::vector<std::complex<double>> a, b, beta;
};
PortWaves port_waves(const WaveguidePortModel& p, const MonitorModel& mon, const GridGeometry& g,
                     const std::vector<std::complex<double>>& dft);

}  // namespace clfdtd
