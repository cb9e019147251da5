// The flux of a cylindrical flux monitor (docs/CYLINDRICAL.md, "Flux monitors") from its
// transforms (Backend::read_dft; point order in model/cyl_monitor_build.hpp):
//   flux(f) = 1/2 Re oint (E(f) x conj(H(f))) . n dA
// over the ring section's surface, the phi integral done analytically. With A_q, B_q the
// transforms of Re F_q and Im F_q, the physical field is sum_q A_q cos(m phi) - B_q sin(m phi),
// and the cross terms of different m integrate to zero over phi, so
//   int_0^2pi E_a conj(H_b) dphi = sum_q c_q (A_q^E conj(A_q^H) + B_q^E conj(B_q^H)),
//   c_q = 2 pi for m = 0 (whose sin(m phi) term is 0), pi for m > 0.
// (E x H*)_z = Er Hphi* - Ephi Hr* on a cap z = const (dA / dphi = r dr), (E x H*)_r =
// Ephi Hz* - Ez Hphi* on a tube r = R (dA / dphi = R dz), each product at the E sample, with H
// averaged from the two samples half a cell either side across the face, and weighted the way
// the Yee updates weight them, so that the sums are the scheme's own Poynting balance (an empty
// closed surface gives 0 to rounding):
//   cap:  Er Hphi* at r_{i+1/2} per r cell (weight r_{i+1/2} dr); Ephi Hr* at r_i for
//         i = lo .. hi (weight r_i dr, halved at both ends);
//   tube: Ez (r Hphi)* per z cell, r Hphi averaged from r_{p-1/2} Hphi and r_{p+1/2} Hphi (the
//         Ez update differences r Hphi; weight dz); Ephi Hz* at k = lo .. hi (weight R dz,
//         halved at both ends).
#pragma once
#include <complex>
#include <vector>

#include "model/grid_geometry.hpp"
#include "model/monitors.hpp"

namespace clfdtd {

// flux[f] (J s) of monitor `mon` of a cylindrical model on `g` (grid.modes = its slots), from
// dft as read_dft gives it. Throws std::invalid_argument when dft has the wrong size.
std::vector<double> cyl_surface_flux(const MonitorModel& mon, const GridGeometry& g,
                                     const std::vector<std::complex<double>>& dft);

// The same split per mode slot: out[q][f], summing to cyl_surface_flux.
std::vector<std::vector<double>> cyl_mode_flux(const MonitorModel& mon, const GridGeometry& g,
                                               const std::vector<std::complex<double>>& dft);

}  // namespace clfdtd
