// Patent step 2 for cylindrical models: paint bodies of revolution onto the (r, z) Yee grids.
// Each component is sampled at its own (r, z) position (docs/CYLINDRICAL.md: Er (i+1/2, k),
// Ephi (i, k), Ez (i, k+1/2), Hr (i, k+1/2), Hphi (i+1/2, k+1/2), Hz (i+1/2, k), in cells), and a
// sample takes the id of the last object that contains it, as in 3D (no partial cells: a sample is
// inside or not). The objects are read as bodies of revolution about the axis: a box is the ring
// |r - center r| <= size r / 2, |z - center z| <= size z / 2; a sphere or cylinder (axis z) is
// centred on the axis (check_cyl_config() refuses the others).
// Walls: r = 0 is the axis, not a wall (no PEC there). Er and Ephi at k = 0 (z = 0) get the PEC
// id, and so does every E padding sample k >= nz; the walls r = R and z = Z lie past the end.
#pragma once
#include <vector>

#include "config/run_config.hpp"
#include "model/field_layout.hpp"
#include "model/grid_geometry.hpp"
#include "model/materials.hpp"
#include "model/mesher.hpp"

namespace clfdtd {

// Ids of the listed components (the others stay empty) on the layout (nr, 1, nz), and the
// cell-centre ids, nr * nz (cell_centre[i * nz + k]).
MeshedIds mesh_cyl_objects(const std::vector<ObjectConfig>& objects, const MaterialTable& table,
                           const GridGeometry& g, const FieldLayout& layout,
                           const std::vector<Component>& components);

}  // namespace clfdtd
