// Snapshots of a cylindrical model (a body of revolution about z, docs/CYLINDRICAL.md). The
// fields are angular modes: mode slot q (order m_q = grid.modes[q]) holds complex amplitudes
// F_q(r, z) of Er, Ephi, Ez, Hr, Hphi, Hz, and the physical field is
// F(r, phi, z) = sum_q Re(F_q(r, z) exp(i m_q phi)).
//
// - fields_<step>_m<m>.vti (write_cyl_mode_vti): one mode's (r, z) image, nr x nz cells in the
//   x-z plane (x = r, z = z, one point thick along y, as model.vti), cell arrays <C>_re and <C>_im
//   for each saved component C (Er ... Hz), each moved to the cell centre by cyl_centre_average.
// - fields_<step>_3d.vts (write_cyl_3d_vts, snapshot.phi_samples = N > 0): the physical field on a
//   VTK structured grid in Cartesian space, points (r cos phi, r sin phi, z) at the cell centres'
//   r = (i + 1/2) dr and z = (k + 1/2) dz and phi_j = 2 pi j / N, j = 0 .. N (j = N repeats j = 0
//   so the surface closes); point arrays E and H (Cartesian x, y, z components), E_magnitude,
//   H_magnitude, and E_cyl, H_cyl (the same field in r, phi, z components).
// Units: lengths m, E in V/m at step*dt, H in A/m at step*dt - dt/2. Without VTK the writers throw.
#pragma once
#include <array>
#include <complex>
#include <string>
#include <vector>

#include "model/simulation_model.hpp"

namespace clfdtd {

// One mode slot's fields: [component][i*nz + k] (Backend::read_mode_field), empty = not saved.
using CylModeFields = std::array<std::vector<std::complex<float>>, 6>;

// Component c (Er..Hz as Ex..Hz) moved from its Yee position to the cell centre
// ((i + 1/2) dr, (k + 1/2) dz): the mean of its samples at i, i+1 where it sits on integer r
// (Ephi, Ez, Hr) and at k, k+1 where it sits on integer z (Er, Ephi, Hz); Hphi is at the centre.
// A sample past the high end (i = nr or k = nz) reads 0: the PEC wall. Needs no VTK.
std::vector<std::complex<float>> cyl_centre_average(Component c, int nr, int nz,
                                                    const std::vector<std::complex<float>>& v);

// The 3D reconstruction's values (write_cyl_3d_vts), point p = i + nr*(j + (N+1)*k).
struct CylReconstruction {
  int nr = 0, nphi = 0, nz = 0;   // nphi = N + 1
  std::vector<float> points;      // 3 per point: x, y, z (m)
  std::vector<float> e, h;        // 3 per point: Cartesian components; empty when not saved
  std::vector<float> e_cyl, h_cyl;  // 3 per point: r, phi, z components
};

// sum_q Re(F_q e^{i m_q phi}) of the centred mode fields at every point. modes[q] is slot q;
// E (H) is reconstructed when all three of its components are given in every slot. Throws
// std::invalid_argument for a non-cylindrical model, phi_samples < 1, a wrong slot count, a
// wrong-sized array, or a partial E or H set. Needs no VTK.
CylReconstruction reconstruct_cyl(const SimulationModel& m, const std::vector<CylModeFields>& modes,
                                  int phi_samples);

// fields_<step>_m<m>.vti of slot `slot` (see above). Field data: TimeValue = step*dt, step,
// H_time_s, mode_m. Throws std::invalid_argument for a bad call, OutputError on a write failure.
void write_cyl_mode_vti(const std::string& path, const SimulationModel& m, int slot,
                        const CylModeFields& f, long step, double dt);

// fields_<step>_3d.vts (see above), the same field data less mode_m plus phi_samples.
void write_cyl_3d_vts(const std::string& path, const SimulationModel& m,
                      const std::vector<CylModeFields>& modes, int phi_samples, long step,
                      double dt);

}  // namespace clfdtd
