// Cylindrical models (grid.coordinates = cylindrical): the checks that need only the config,
// shared by load_config() (with the file's lines) and SimulationModel::build() (for configs made
// in code). docs/CYLINDRICAL.md lists what a cylindrical model refuses.
//
// How a cylindrical RunConfig holds its values (axis 0 = r, 1 = phi, 2 = z):
//   grid.size_m = {R, 1, Z}, grid.cell_size_m = {dr, 1, dz}, grid.dims = 3;
//   source / probe position = {r, phi in degrees, z};
//   object center = {r, 0, z}, box size = {radial extent, 0, axial extent};
//   flux monitor box_lo = {r0, 0, z0}, box_hi = {r1, 0, z1};
//   boundary.layers = {0, r_hi, 0, 0, z_lo, z_hi} (no layer on the axis or along phi).
#pragma once
#include "config/run_config.hpp"

namespace clfdtd {

// Source and probe angles lie in [-kMaxPhiDeg, kMaxPhiDeg] degrees.
inline constexpr double kMaxPhiDeg = 360;
// snapshot.phi_samples at most this many angles.
inline constexpr int kMaxPhiSamples = 3600;

// Throws ConfigError (file, line, key) for what a cylindrical model cannot have: modes that are
// empty, negative, repeated or unsorted; a grid that is not 3-shaped; 2D keys; layers on the
// axis or along phi; the onepass kernel variant; monitors; a source or probe outside
// 0 <= r <= R, 0 <= z <= Z or with phi outside [-360, 360] degrees; an r- or phi-directed source
// exactly on the axis; a sphere or cylinder off the axis, a cylinder whose axis is not z, a box
// reaching below r = 0; snapshot.phi_samples outside [0, 3600]. For a Cartesian config: modes
// other than {0} and snapshot.phi_samples != 0 (cylindrical only).
void check_cyl_config(const RunConfig& cfg);

}  // namespace clfdtd
