// Lumped ports (docs/PORTS.md): a voltage source V_s(t) in series with a resistance R across one E
// sample, the feed of an antenna or a circuit. The sample of length L (its cell along the port's
// axis) and face A (across it) carries the port's conductivity L / (R A) on top of its material
// and the current density V_s / (R A), which with the semi-implicit update give the circuit
//   I = (V_s - V) / R,   V = -L (E^n + E^(n+1)) / 2   at (n + 1/2) dt,
// V the voltage from the sample's low end to its high end. From these the run writes the input
// impedance Z = V / I and S11 = (Z - R) / (Z + R) (e^(j omega t) convention: X < 0 is capacitive).
// A port over a box (model/port_box.hpp) spreads the same over its samples: L and A are the
// box's (a column's length, the columns' faces together), every sample gets L / (R A) and
// V_s / (R A), and E is the mean over the samples; the relation holds for those means.
#pragma once
#include <array>
#include <complex>
#include <string>
#include <vector>

#include "config/run_config.hpp"
#include "model/field_layout.hpp"
#include "model/grid_geometry.hpp"
#include "model/materials.hpp"
#include "model/probes.hpp"
#include "model/sources.hpp"
#include "model/upml_profile.hpp"

namespace clfdtd {

struct PortModel {
  std::string name;
  Component component = Component::Ez;
  std::array<int, 3> cell{};           // its first sample
  std::vector<std::array<int, 3>> cells;  // every sample: `along` in series in `across` columns
  long along = 1, across = 1;
  // The gap's length and face: one sample's, or along x a cell's length and across x its face.
  double length_m = 0, area_m2 = 0, resistance_ohm = 50;
  std::vector<double> v_source;        // V_s at (s + 1/2) dt, s = 0 .. steps-1, V
  std::vector<double> frequencies_hz;  // of ports/<name>.csv
  std::vector<std::size_t> probe_samples;  // ProbeSet::samples indices of its E (after the user's)
  bool driven = true;                  // some V_s != 0; else a load that receives
  int s21_from = -1;                   // undriven, with exactly one driven port: that port's index
  // undriven, with no driven lumped port and exactly one driven waveguide port (of the same
  // frequencies): that port's index in SimulationModel::waveguide_ports
  int s21_from_guided = -1;
};

// The ports among the sources (their tables already built), with their frequencies: the given
// ones, or 201 over the band where the source's spectrum is at least 1/e of its peak (-8.7 dB;
// gaussian_pulse: frequency +- bandwidth / 2); an undriven port (amplitude 0) takes the first
// driven port's. Throws ConfigError for a frequency past the grid's cutoff, for a sample another
// source drives too, and for an undriven port without frequencies when no port is driven.
std::vector<PortModel> build_ports(const RunConfig& cfg, const std::vector<SourceModel>& sources,
                                   const GridGeometry& g);

// Gives each port's sample the port's conductivity on top of its material (a mixture entry).
// Throws ConfigError when the material table is full.
void add_port_conductivity(const RunConfig& cfg, const std::vector<PortModel>& ports,
                           MaterialTable& table, const FieldLayout& layout,
                           std::array<std::vector<std::uint8_t>, 6>& ids);

// Warnings for ports that do not span their gaps: a port whose sample columns end a few samples
// short of the conductors on both sides (unfed samples in series), and a port over a box whose
// columns do not all end on conductors (a PEC sample with the end's node as an end, or the
// domain's wall) within that reach.
std::vector<std::string> port_box_warnings(const std::vector<PortModel>& ports,
                                           const MaterialTable& table, const FieldLayout& layout,
                                           const std::array<std::vector<std::uint8_t>, 6>& ids,
                                           const GridGeometry& g, const UpmlProfile& upml);

// Appends each port's E samples to the probes (recorded every step, not written to probes.csv)
// and notes their indices in the port.
void add_port_samples(std::vector<PortModel>& ports, ProbeSet& probes, const GridGeometry& g);

// The port's circuit at (n + 1/2) dt, n = 0 .. steps-1, from its E at steps 0 .. steps (the mean
// over its samples).
struct PortSeries {
  double dt = 0;
  std::vector<double> time_s, source_v, voltage_v, current_a;
};
PortSeries port_series(const PortModel& port, const std::vector<double>& e, double dt);

struct PortPoint {
  double frequency_hz = 0;
  std::complex<double> v, i;  // V(f), I(f): V s, A s
  std::complex<double> z, s11;
  // Undriven ports with one driven port: S21 = b / a_incident = 2 V / V_s1 sqrt(R_1 / R); with a
  // driven waveguide port instead, b / a of its incoming wave, b = V / sqrt(2 R) in sqrt(J s).
  std::complex<double> s21;
  // 1/2 Re(V(f) conj(I(f))), J s: what the port delivers into the model, in the flux monitor's
  // measure (output/monitor_files.hpp), so that the two compare directly.
  double delivered = 0;
};
// incident: for an undriven port, the one driven port (S21), else null.
std::vector<PortPoint> port_spectrum(const PortModel& port, const PortSeries& s,
                                     const PortModel* incident = nullptr);

// sum_n x[n] exp(-i 2 pi f (n + 1/2) dt) dt: the transform of a series at half steps.
std::complex<double> port_transform(const std::vector<double>& x, double f, double dt);

// The default frequencies: n points from where |V_s(f)| first reaches `fraction` of its peak to
// where it last does, searched in (0, f_max].
std::vector<double> source_band(const std::vector<double>& v_source, double dt, double f_max,
                                int n = 201, double fraction = 0.36787944117144233);

}  // namespace clfdtd
