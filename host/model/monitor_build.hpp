// [monitor.<name>] (MonitorConfig) -> MonitorModel (model/monitors.hpp): the box in grid nodes,
// the faces of a flux or farfield surface, the Yee samples the device transforms, and the checks
// that need the grid. The region rules here are the contract with the host's interpolation to
// face centres (host/monitors/surface_fields.cpp): both sides read them the same way.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "config/run_config.hpp"
#include "model/field_layout.hpp"
#include "model/grid_geometry.hpp"
#include "model/materials.hpp"
#include "model/monitors.hpp"

namespace clfdtd {

// Ex Ey Ez Hx Hy Hz.
std::vector<Component> all_components();

// The components a model of cfg carries (SimulationModel::active_components from the config):
// all six in 3D; tm: Ez Hx Hy, te: Ex Ey Hz in 2D; Ez alone for the 2D wave equation.
std::vector<Component> model_components(const GridConfig& grid);

// UPML layers per Face as the grid has them: 0 on every face of a pec boundary.
std::array<int, 6> wall_layers(const BoundaryConfig& b);

// The box corners (metres) rounded to grid nodes, lo[a] = round(x0 / d[a]), hi[a] =
// round(x1 / d[a]), each within 0..n[a].
std::array<int, 3> box_nodes(const Vec3& corner_m, const GridGeometry& g);

// The faces of a flux or farfield surface over the node box lo..hi, on the first `axes` axes
// (3; 2 for a 2D model, whose box spans z nodes 0..1, its one cell of depth: a rectangle's
// contour, faces on the x and y sides only). A plane (exactly one zero extent among those axes,
// axis a; a line in 2D): one face at plane lo[a], normal +1. A closed box (no zero extent): two
// faces per axis, x first, then y (then z), low (plane lo[a], normal -1) before high (plane
// hi[a], normal +1). A face covers the box's lo..hi on the two other axes. on_wall: the
// plane is 0 or n[a] and that outer face of the domain has 0 UPML layers (`layers`, per Face);
// magnetic_wall: the plane is 0 on an axis of `pmc` (boundary.pmc).
std::vector<MonitorFace> monitor_faces(const std::array<int, 3>& lo, const std::array<int, 3>& hi,
                                       const std::array<int, 3>& n,
                                       const std::array<int, 6>& layers, int axes = 3,
                                       const std::array<bool, 3>& pmc = {});

// The Yee samples a face's fields are interpolated from. For the face (axis a, plane p), each
// tangential axis b with the third axis c:
//   E_b: a in [p, p+1),   b in [lo_b, hi_b),      c in [lo_c, hi_c + 1)
//   H_b: a in [p-1, p+1), b in [lo_b, hi_b + 1),  c in [lo_c, hi_c)
// each range clipped to [0, n) (a sample outside the grid reads zero: the PEC wall, or past the
// end); regions with nothing left are dropped. Order: E_b, E_c, H_b, H_c with b < c.
// `components`: only the regions of these components are kept. A 2D model's face (axis x or y,
// c = z, the box's z cells 0..0) keeps those of its mode (tm: Ez, Hx, Hy; te: Ex, Ey, Hz), whose
// ranges are then the ones the 2D interpolation needs (host/monitors/surface_sampling.cpp:
// nothing varies along z, so E_b and H_c are not averaged across it).
std::vector<DftRegion> face_regions(const MonitorFace& face, const std::array<int, 3>& n,
                                    const std::vector<Component>& components = all_components());

// A dft monitor's samples: one region per component (in `fields` order) over the cells
// lo .. hi - 1 of each axis; an axis with zero extent takes the one cell at lo (n - 1 when
// lo = n).
std::vector<DftRegion> dft_regions(const std::array<int, 3>& lo, const std::array<int, 3>& hi,
                                   const std::array<int, 3>& n,
                                   const std::vector<Component>& fields);

// Every monitor of cfg in file order, without the mode arrays (a modes monitor gets nmodes from
// its file's header only, for the memory check; load_mode_shapes() reads the arrays). Refuses,
// with a ConfigError naming monitor.<name>.<key>, a box extent that rounds to no cell and a
// frequency above the grid's cutoff; adds a line to `warnings` for each flux or farfield face
// that reads samples inside the UPML layers (the flux or far field there is not free space's).
// 2D (g.dims == 2): the box is a rectangle of the x-y plane (or a line for a flux monitor) over
// the one cell of depth; a dft monitor's `fields` default to the model's components and other
// components are refused (monitor.<name>.fields); a farfield monitor needs a rectangle; the wave
// equation (Ez alone) refuses flux and farfield monitors (monitor.<name>.type).
std::vector<MonitorModel> build_monitors(const RunConfig& cfg, const GridGeometry& g,
                                         std::vector<std::string>& warnings);

// Reads each modes monitor's mode shapes into MonitorModel::modes (layout: model/monitors.hpp)
// with host/monitors/mode_file.hpp; its ConfigErrors name the modes file and
// monitor.<name>.modes_file. A relative modes_file is taken from the current folder.
// The medium around each farfield monitor's surface (MonitorModel::medium_eps_r, medium_mu_r):
// every sample of the surface with an id (E; H in a magnetic model) in one lossless,
// non-dispersive material; otherwise vacuum is
// kept and a warning returned (the transform needs one such medium). ids: SimulationModel::ids.
std::vector<std::string> farfield_medium(std::vector<MonitorModel>& monitors,
                                         const FieldLayout& layout,
                                         const std::array<std::vector<std::uint8_t>, 6>& ids,
                                         const MaterialTable& materials);

void load_mode_shapes(const GridGeometry& g, const FieldLayout& layout,
                      std::vector<MonitorModel>& monitors);

// The points of a flux or farfield monitor's surface (monitors/surface_fields.hpp): one per cell
// face of each face (2D: per cell edge of the contour).
std::size_t surface_point_count(const MonitorModel& m);

// Bytes of SurfacePoint (position, area, face): monitors/surface_fields.hpp checks it.
inline constexpr std::size_t kSurfacePointBytes = 40;

// Host bytes of the surface fields a Cartesian flux or farfield monitor's transforms become at the
// end of the run (sample_surface, monitors/surface_sampling.hpp): per point its SurfacePoint and
// per frequency E and H (3 complex doubles each), and the per-frequency arrays of E and H.
std::size_t surface_fields_bytes(const MonitorModel& m);

// Host bytes of the monitors, known before the mode arrays are read: the mode arrays
// (nmodes x 3 x padded cells floats), the transforms read back at the end (points x
// frequencies complex doubles; a cylindrical grid (g.cylindrical) transforms each point once per
// field plane, 2 x modes of them: cyl_monitor_points) and, on a Cartesian grid, the surface fields
// of the flux and farfield monitors (surface_fields_bytes).
std::size_t monitor_host_bytes(const std::vector<MonitorModel>& monitors, const GridGeometry& g,
                               const FieldLayout& layout);

}  // namespace clfdtd
