// Patent step 1-1-4: point sources. Each drives one E component at its nearest Yee sample and
// contributes a current density J (A/m^2) to curl H = eps dE/dt + sigma E + J:
//   current: J(t) = amplitude * w(t)
//   dipole:  J(t) = (dp/dt) / (dx dy dz), p(t) = amplitude * w(t) (C m); dp/dt taken as the exact
//            difference (p((s+1) dt) - p(s dt)) / dt so the deposited charge is consistent.
// The E update from step s to s+1 uses J at (s + 1/2) dt: E(cell) -= cb(material) * j[s].
#pragma once
#include <complex>
#include <string>
#include <vector>

#include "config/run_config.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd {

struct SourceModel {
  std::string name;
  Component component = Component::Ez;
  std::array<int, 3> cell{};   // (i, j, k) of the driven sample
  std::vector<double> j;       // J at (s + 1/2) dt for s = 0 .. steps-1, A/m^2
  double peak_j_per_amplitude = 0;  // max |J| / |amplitude| over the table (A/m^2 per unit)
  // Cylindrical models (empty otherwise): j is J of the point source as if in a cell of volume
  // dr dr dz; mode slot q's current density at the sample is j[s] * mode_factor[q]
  // (w_q exp(-i m_q phi_s) (dr dr dz) / ring volume, docs/CYLINDRICAL.md).
  std::vector<std::complex<double>> mode_factor;
};

// Cylindrical models: the factors mode_factor[q] of a source driving component c (Er, Ephi, Ez)
// at `cell`, at angle phi_rad: w_q exp(-i m_q phi) (dr dr dz) / V, w_q = 1 for m = 0 and 2 for
// m > 0, V = 2 pi r_s dr dz the ring through the sample at r_s > 0, or on the axis (r_s = 0) the
// disc pi (dr/2)^2 dz for Ez and m = 0 (0 for m > 0, where Ez vanishes on the axis, and for
// Er / Ephi, which build() refuses there).
std::vector<std::complex<double>> cyl_mode_factors(const GridGeometry& g, Component c,
                                                   const std::array<int, 3>& cell, double phi_rad);

// Cylindrical models take the position as r, phi (degrees), z and fill mode_factor. out[i] is
// cfg[i]'s source; a port over a box of samples (source.<name>.size) is there by its first
// sample, and its other samples follow all of cfg's, each a source of the port's name and table.
// Whether the source drives anything within the run: some J of its table is nonzero (a port's
// samples are sources too). The one rule of the cross-section column and the warnings about it.
inline bool drives(const SourceModel& s) {
  for (double j : s.j)
    if (j != 0) return true;
  return false;
}

std::vector<SourceModel> build_sources(const std::vector<SourceConfig>& cfg, const GridGeometry& g);

// Every [source.*] section with a waveform: cfg.sources, then cfg.plane_waves (for the checks and
// warnings that apply to both: frequency, delay, a silent waveform, cells per wavelength).
std::vector<SourceConfig> waveform_sources(const RunConfig& cfg);

}  // namespace clfdtd
