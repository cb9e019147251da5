// The cylindrical solver's absorber: a convolutional PML (stretched coordinates
// s = kappa + sigma / (i w eps0), alpha = 0) on the d/dr and d/dz differences, in the slab
// r >= R - layers_r dr and the two z slabs, with the same sigma and kappa profiles as the 3D UPML
// (model/upml_profile.hpp; recovered exactly from its a, b entries). For a sample whose update
// differentiates along r (or z), with diff the central difference of the neighbours:
//   psi <- b psi + c * diff / d,    curl term = inv_kappa * diff / d + psi
// Outside the layers inv_kappa = 1, b = 0, c = 0 (psi stays 0). In the r slab the 1/r factors are
// stretched too (1/r -> 1/r~, r~ = integral of s_r dr, which the reference builds from these
// tables: unstretched, m >= 1 is unstable there); the z slabs leave 1/r alone
// (docs/CYLINDRICAL.md).
#pragma once
#include <array>
#include <vector>

#include "model/upml_profile.hpp"

namespace clfdtd {

struct CylPmlAxis {
  std::vector<double> inv_kappa, b, c;  // one entry per cell index along the axis
};

struct CylPml {
  // [0]: at integer positions i d, [1]: at half positions (i + 1/2) d.
  std::array<CylPmlAxis, 2> r, z;
  int layers_r = 0, layers_z_lo = 0, layers_z_hi = 0;
  bool enabled() const { return layers_r + layers_z_lo + layers_z_hi > 0; }
  // Cell (i, k) lies in a slab: its samples need psi auxiliaries.
  bool in_r_slab(int i, int nr) const { return i >= nr - layers_r; }
  bool in_z_slab(int k, int nz) const { return k < layers_z_lo || k >= nz - layers_z_hi; }
};

// The tables for a cylindrical grid of nr x nz cells, from its UPML profile (which holds dt)
// (layers[XHi] = r_hi, layers[ZLo], layers[ZHi]; the r_lo and phi faces have none).
CylPml build_cyl_pml(const UpmlProfile& upml, const std::array<int, 3>& n);

}  // namespace clfdtd
