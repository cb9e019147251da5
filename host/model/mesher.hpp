// Patent step 2: paint objects onto the Yee grid. Each field component is sampled at its own
// staggered position (field_layout.hpp), later objects override earlier ones, a sample with an
// object's surface through it takes the mean of the materials on either side (a mixture entry
// the table gains; PEC stays PEC; docs/EQUATIONS.md "Material interfaces"), and the outer PEC
// wall and the z padding get MaterialTable::kPec on the E components.
// A plane layout (2D) meshes the objects' cut by the plane through their centre (box: rectangle,
// sphere: disc; cylinder refused), walls on the low x/y lines only, and the row padding j >= ny
// is PEC on every meshed component.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "config/run_config.hpp"
#include "model/field_layout.hpp"
#include "model/grid_geometry.hpp"
#include "model/materials.hpp"

namespace clfdtd {

struct MeshedIds {
  std::array<std::vector<std::uint8_t>, 6> component;  // per Component, layout.cells() entries;
                                                       // H entries empty unless with_h was asked
  std::vector<std::uint8_t> cell_centre;               // nx*ny*nz (unpadded, z fastest), for model.vti
  std::size_t unmixed_samples = 0;  // surface samples left inclusive: the material table was full
  std::vector<std::size_t> object_samples;  // per object: the field samples it holds (before later
                                            // objects overwrite any; a conductor's E samples
                                            // only): 0 means it is not in the model
};

// The material id of each object, in order. Throws ConfigError (object.<name>.material) for a
// material the table does not define.
std::vector<std::uint8_t> object_material_ids(const std::vector<ObjectConfig>& objects,
                                              const MaterialTable& table);

// Ids of the listed components only (the others stay empty).
MeshedIds mesh_objects(const std::vector<ObjectConfig>& objects, MaterialTable& table,
                       const GridGeometry& g, const FieldLayout& layout,
                       const std::vector<Component>& components);
// 3D: Ex Ey Ez, and Hx Hy Hz when with_h.
MeshedIds mesh_objects(const std::vector<ObjectConfig>& objects, MaterialTable& table,
                       const GridGeometry& g, const FieldLayout& layout, bool with_h);

}  // namespace clfdtd
