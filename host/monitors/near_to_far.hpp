// The near-to-far-field transform of a closed monitor surface (farfield monitors; docs/MONITORS.md).
// The equivalent currents J = n x H and M = -n x E on the faces radiate into free space; faces on
// a bare PEC wall of the domain are replaced by the image currents of the other faces in that wall
// (the half-space answer), and directions behind such a wall are left out.
#pragma once
#include <vector>

#include "monitors/surface_fields.hpp"

namespace clfdtd {

struct FarFieldPattern {
  std::vector<double> theta_deg;  // 0 .. 180 in theta_step steps (from +z)
  std::vector<double> phi_deg;    // 0 .. < 360 in phi_step steps (from +x)
  // [f][t * phi_deg.size() + p]: directivity 4 pi U / P in dBi; `included` false for a direction
  // behind a PEC wall (not written to the file).
  std::vector<std::vector<double>> directivity_dbi;
  // 3D only (empty in 2D): the partial directivities of E_theta and E_phi, 4 pi U_theta / P and
  // 4 pi U_phi / P in dBi, whose sum (in power) is directivity_dbi: co- and cross-polarisation.
  std::vector<std::vector<double>> directivity_theta_dbi, directivity_phi_dbi;
  std::vector<char> included;     // [t * phi_deg.size() + p]
  std::vector<double> radiated_power;  // [f]: P, the flux out through the faces not on a PEC wall (J s)
};

FarFieldPattern near_to_far(const SurfaceFields& s, double theta_step_deg, double phi_step_deg);

}  // namespace clfdtd
