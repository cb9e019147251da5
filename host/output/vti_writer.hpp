// VTK XML image data (.vti) for ParaView: the material model and 3D field snapshots, both on the
// simulation grid as a vtkImageData of (nx+1, ny+1, nz+1) points, spacing d (metres), origin 0,
// with every value stored as CELL data (one value per Yee cell). Units: lengths m, time s,
// E in V/m, H in A/m, sigma in S/m. Files are written binary, appended raw, uncompressed.
// In a build without VTK (-DCLFDTD_VTK=OFF) vtk_available() is false and the writers throw.
#pragma once
#include <array>
#include <complex>
#include <string>
#include <vector>

#include "model/simulation_model.hpp"

namespace clfdtd {

bool vtk_available();

// 2D models: the same arrays on an image of nx x ny cells one point thick (pixels).
// Cylindrical models: on an image of nr x nz cells in the x-z plane, one point thick along y
// (x = r, z = z: the half-plane phi = 0), from cell_ids (nr*nz, index i*nz + k).
// model.vti: cell arrays eps_r, mu_r, sigma (float32) and material (uint8 id) from m.cell_ids
// (nx*ny*nz, z fastest) and m.materials; field data "material_names" (string per id, index = id)
// and "material_pec" (1 = perfect conductor) so ids can be mapped to the model file's names.
void write_model_vti(const std::string& path, const SimulationModel& m);

// fields_<step>.vti: f[c] is component c (Component order Ex..Hz) unpadded, index (i*ny + j)*nz + k;
// an empty vector means not saved. Writes cell arrays "E" (3 components) and "E_magnitude" when
// Ex, Ey, Ez are all given, and "H" and "H_magnitude" likewise, each averaged to the cell centre by
// cell_centre_average(). Field data: TimeValue = step*dt (E's time), step, H_time_s = step*dt - dt/2.
// Throws std::invalid_argument for a wrong-sized or partial (e.g. Ex and Ey only) set.
// 2D models (m.two_d()): an image of nx x ny cells one point thick (pixels), with one scalar cell
// array per component the model carries (Ez Hx Hy, Ex Ey Hz, or Ez), named by it, each averaged
// to the cell centre in the plane; f of the other components is ignored (backends give zeros).
// Cylindrical models throw std::invalid_argument: their snapshots are per mode (cyl_snapshot.hpp).
void write_fields_vti(const std::string& path, const SimulationModel& m,
                      const std::array<std::vector<float>, 6>& f, long step, double dt);

// monitors/<name>.vti of a dft monitor: the cells of its regions (one region per component, all
// over the same box) as a vtkImageData with origin lo * d and spacing d; cell arrays
// <Field>_re_<i> and <Field>_im_<i> for frequency i (each value the component's own Yee sample in
// that cell, not moved to the centre), field data frequencies_hz. dft: [point * F + f].
void write_dft_vti(const std::string& path, const MonitorModel& mon, const GridGeometry& g,
                   const std::vector<std::complex<double>>& dft);

// Component c moved from its Yee positions (docs/EQUATIONS.md) to the cell centres
// (i+1/2, j+1/2, k+1/2): the mean of the 4 samples around the centre for E (Ex: j,j+1 x k,k+1) and
// of 2 for H (Hx: i,i+1). A sample index past the high end reads as 0 (the PEC wall). Input and
// output are unpadded, index (i*ny + j)*nz + k. Needs no VTK. plane: a 2D model (n[2] = 1), whose
// samples have no z offset: only the in-plane neighbours are averaged (Ez: 4, Hx, Hy, Ex, Ey: 2,
// Hz: itself).
std::vector<float> cell_centre_average(Component c, const std::array<int, 3>& n,
                                       const std::vector<float>& values, bool plane = false);

}  // namespace clfdtd
