// A window of a model's node plane as the mode solver's cross-section (model/mode_solver.hpp): the
// material of every Yee sample there, read from the mesh as the run would see it.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/field_layout.hpp"
#include "model/grid_geometry.hpp"
#include "model/materials.hpp"
#include "model/mode_solver.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd {

// The window on node plane `plane` across `axis` (0..2): node planes lo[0]..hi[0] along
// u = axis + 1 and lo[1]..hi[1] along v = axis + 2 (cyclic), so (u, v, axis) is right-handed.
struct ModeWindow {
  int axis = 2, plane = 0;
  std::array<int, 2> lo{}, hi{};
  int u() const { return (axis + 1) % 3; }
  int v() const { return (axis + 2) % 3; }
};

// The window's samples from m's mesh: E samples on the plane (E_u, E_v) and half a cell along the
// axis (E_w), H samples beside them, each with its material's eps_r or mu_r; conductors 0.
// Throws std::invalid_argument naming the material when a sample in the window is lossy
// (sigma > 0) or dispersive, and for a window outside the grid or a plane without a cell after it.
CrossSection model_cross_section(const GridGeometry& g, const FieldLayout& layout,
                                 const MaterialTable& materials,
                                 const std::array<std::vector<std::uint8_t>, 6>& ids, const ModeWindow& w);
inline CrossSection model_cross_section(const SimulationModel& m, const ModeWindow& w) {
  return model_cross_section(m.grid, m.layout, m.materials, m.ids, w);
}

// What keeps the window's size from being one the mode solver takes, as the words after
// "expected" in a ConfigError ("" when nothing): 2 cells or more along u and v, at most
// kModeSolverMaxCells cells in all.
std::string window_size_problem(const GridGeometry& g, const ModeWindow& w);

// Where the window reaches into the UPML layers `layers` (per face, as UpmlProfile::layers), ""
// when it does not: "along y it spans 0 to 0.004 m, the layers leave 0.001 to 0.009 m".
std::string window_in_upml(const GridGeometry& g, const ModeWindow& w, const std::array<int, 6>& layers);

// Where the guide is not the same a cell before and after the window's plane (a mode of the
// plane is then not the guide's): "" when every sample in the window keeps its material on
// planes plane - 1 and plane + 1, else e.g. "Ex differs at y = 1e-06 m, z = 2e-06 m".
std::string guide_change(const GridGeometry& g, const FieldLayout& layout,
                         const std::array<std::vector<std::uint8_t>, 6>& ids, const ModeWindow& w);

}  // namespace clfdtd
