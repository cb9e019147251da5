// What `clfdtd modes` writes (cli/modes_command.cpp, docs/MODES.md): the modes of a cross-section
// as a table, and their fields as an image for ParaView. SI units: Hz, rad/m, V/m, A/m, m.
#pragma once
#include <string>
#include <vector>

#include "model/cross_section.hpp"
#include "model/grid_geometry.hpp"
#include "model/mode_solver.hpp"

namespace clfdtd {

// The table: a header line
//   mode,frequency_hz,n_eff,beta_rad_per_m,beta_grid_rad_per_m,u_fraction,degenerate,residual
// then one row per mode (mode counted from 1, largest beta first).
std::string modes_csv_text(const std::vector<GuidedMode>& modes, double f_hz);

// The window as a vtkImageData one cell thick across the axis (origin at the window's low corner
// on its node plane, spacing the grid's cell), cell arrays moved to the cell centres on the plane:
// eps_r (the mean of the four transverse E samples around the centre, 0 = conductor) and, for
// mode k = 1, 2, ...: E_<k> and H_<k> (3 components in x, y, z: the transverse ones real, the one
// along the axis the imaginary part of E_w or H_w, a quarter period later in time) and
// E_intensity_<k> (|E|^2), and the transverse samples themselves, not moved: E<u>_<k>, E<v>_<k>,
// H<u>_<k>, H<v>_<k> (Ex_1, Ey_1, Hx_1, Hy_1 for a z axis), each value at its component's Yee
// position in that cell as a dft monitor's .vti has it (H referred to the plane: exp(+j beta
// d_w / 2) times the value half a cell along the axis); field data frequency_hz, n_eff, the axis. Throws std::runtime_error
// in a build without VTK, OutputError when the file cannot be written.
void write_modes_vti(const std::string& path, const GridGeometry& g, const ModeWindow& w,
                     const CrossSection& cs, const std::vector<GuidedMode>& modes, double f_hz);

}  // namespace clfdtd
