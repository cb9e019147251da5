// The 2D near-to-far-field transform of a closed contour (farfield monitors of 2D models;
// docs/MONITORS.md, "2D models"). Nothing varies along z: the equivalent currents J = n x H and
// M = -n x E on the contour are line currents along z (per metre of contour), and they radiate
// cylindrical waves through the 2D Green's function (1/4i) H0^(2)(k rho). Far away,
//   H0^(2)(k |rho - rho'|) ~ sqrt(2 / (pi k rho)) exp(+i pi/4) exp(-i k rho) exp(+i k u . rho'),
// u = (cos phi, sin phi, 0), so with the 2D radiation vectors (a line integral over the contour)
//   N(phi) = sum J exp(+i k u . r') dl,   L(phi) = sum M exp(+i k u . r') dl
// the far field is the 3D one at theta = 90 degrees with exp(-i k r) / (4 pi r) replaced by the
// Green's function's asymptotic form:
//   E_z   = i k g(rho) (L_phi - eta0 N_z),    E_phi = -i k g(rho) (L_z + eta0 N_phi),
//   |g(rho)|^2 = 1 / (8 pi k rho),
// and the radiation intensity per unit angle and metre of depth, U' = rho |E|^2 / (2 eta0):
//   U'(phi) = k / (16 pi eta0) (|L_phi - eta0 N_z|^2 + |L_z + eta0 N_phi|^2)        (W/m/rad)
// tm models fill the first term (J along z), te models the second (M along z). The 2D
// directivity is D = 2 pi U' / P' (1 for a line source), P' the flux out through the contour's
// sides that are not on a PEC wall, per metre of depth. A z line current I radiates
// P' = eta0 k I^2 / 8 uniformly (tests/monitors/test_near_to_far_2d.cpp).
//
// PEC walls: the same image rule as in 3D (near_to_far.hpp): a side on a bare PEC wall of the
// domain is dropped, every other side's currents are mirrored in the wall (J' = -R J,
// M' = +R M, R the reflection of the wall's axis; z is tangential to every wall), directions
// behind a wall are left out. Walls at both ends of one axis are refused.
#pragma once

#include "monitors/near_to_far.hpp"
#include "monitors/surface_fields.hpp"

namespace clfdtd {

// The pattern at theta = 90 degrees (theta_deg = {90}), phi = 0, phi_step, ... below 360 from
// +x; directivity_dbi[f][phi index] is 10 log10 of the 2D directivity; radiated_power[f] is P'
// (the transform's J s per metre of depth). s must be a 2D surface (s.two_d).
FarFieldPattern near_to_far_2d(const SurfaceFields& s, double phi_step_deg);

}  // namespace clfdtd
