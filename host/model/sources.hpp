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

std::vector<SourceModel> build_sources(const std::vector<SourceConfig>& cfg, const GridGeometry& g);

}  // namespace clfdtd
