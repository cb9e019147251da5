// Patent step 2: paint objects onto the Yee grid. Each field component is sampled at its own
// staggered position (field_layout.hpp), later objects override earlier ones, and the outer PEC
// wall and the z padding get MaterialTable::kPec on the E components.
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
};

MeshedIds mesh_objects(const std::vector<ObjectConfig>& objects, const MaterialTable& table,
                       const GridGeometry& g, const FieldLayout& layout, bool with_h);

}  // namespace clfdtd
