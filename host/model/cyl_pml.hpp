// The cylindrical solver's absorber: a convolutional PML with the complex frequency shift (CFS)
// s = kappa + sigma / (alpha + i w eps0) on the d/dr and d/dz differences, in the slab
// r >= R - layers_r dr and the two z slabs, with the same sigma and kappa profiles as the 3D UPML
// (model/upml_profile.hpp; recovered exactly from its a, b entries) and one alpha in every layer,
// alpha dt / eps0 = kCylPmlAlphaDt = 0.01: a field constant in time leaves psi (and the r slab's
// 1/r~ state) within ~100 steps instead of building up there (with alpha = 0 the energy left in
// an r-CPML run rose again for m = 2, 3, x 4..6 over 2500 steps; tests/backends/
// test_cyl_reference_cpml_alpha.cpp), at the cost of less absorption below
// f_alpha = 0.01 / (2 pi dt) (a wavelength of ~300 cells at the default time step). For a sample
// whose update differentiates along r (or z), with diff the central difference of the neighbours:
//   psi <- b psi + c * diff / d,    curl term = inv_kappa * diff / d + psi
//   b = exp(-(s / kappa + alpha dt / eps0)),  c = s / (s kappa + kappa^2 alpha dt / eps0) (b - 1)
// with s = sigma dt / eps0. Outside the layers inv_kappa = 1, b = 0, c = 0 (psi stays 0). In the
// r slab the 1/r factors are stretched too (1/r -> 1/r~, r~ = integral of s_r dr
// = r_kappa + S / (alpha / eps0 + i w), which the engines build from kappa and sigma_dt: unstretched,
// m >= 1 is unstable there); the z slabs leave 1/r alone (docs/CYLINDRICAL.md).
#pragma once
#include <array>
#include <vector>

#include "model/upml_profile.hpp"

namespace clfdtd {

// The CFS alpha of every layer, as alpha dt / eps0 (see above).
inline constexpr double kCylPmlAlphaDt = 0.01;

struct CylPmlAxis {
  std::vector<double> inv_kappa, b, c;  // one entry per cell index along the axis
  // kappa and s = sigma dt / eps0 of each entry (1 and 0 outside the layers): the r slab's
  // stretched radius r~ integrates them.
  std::vector<double> kappa, sigma_dt;
};

struct CylPml {
  // [0]: at integer positions i d, [1]: at half positions (i + 1/2) d.
  std::array<CylPmlAxis, 2> r, z;
  int layers_r = 0, layers_z_lo = 0, layers_z_hi = 0;
  double alpha_dt = 0;  // the CFS alpha as alpha dt / eps0, the same in every layer
  bool enabled() const { return layers_r + layers_z_lo + layers_z_hi > 0; }
  // Cell (i, k) lies in a slab: its samples need psi auxiliaries.
  bool in_r_slab(int i, int nr) const { return i >= nr - layers_r; }
  bool in_z_slab(int k, int nz) const { return k < layers_z_lo || k >= nz - layers_z_hi; }
};

// The tables for a cylindrical grid of nr x nz cells, from its UPML profile (which holds dt)
// (layers[XHi] = r_hi, layers[ZLo], layers[ZHi]; the r_lo and phi faces have none).
CylPml build_cyl_pml(const UpmlProfile& upml, const std::array<int, 3>& n,
                     double alpha_dt = kCylPmlAlphaDt);

}  // namespace clfdtd
