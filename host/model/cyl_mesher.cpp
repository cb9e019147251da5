#include "model/cyl_mesher.hpp"

#include <algorithm>

#include "model/shapes.hpp"

namespace clfdtd {

namespace {

// Whether the body of revolution holds the sample at p: for a conductor's Er or Ez sample
// (`edge` 0 or 2; -1 otherwise) both ends of its Yee edge, as the Cartesian mesher does
// (docs/EQUATIONS.md "PEC edges"; Ephi's edge is the circle through p itself).
bool holds_rz(const ObjectConfig& obj, const Vec3& p, int edge, const GridGeometry& g) {
  if (edge < 0) return shape_contains(obj, p);
  Vec3 lo = p, hi = p;
  lo[edge] -= 0.5 * g.d[edge];
  hi[edge] += 0.5 * g.d[edge];
  return shape_contains(obj, lo) && shape_contains(obj, hi);
}

// Writes `id` at every sample (offsets off_r, off_z in cells, z stride `stride`) that lies in the
// body of revolution (holds_rz: `edge`). The shapes are tested at the point (r, 0, z): with the
// object's centre at (r_c, 0, z_c) and a box's size (dr, 0, dz) the 3D tests become the ring, the
// sphere and the z-axis cylinder about the axis (shapes.hpp). Returns how many samples it wrote.
std::size_t paint_rz(const ObjectConfig& obj, std::uint8_t id, int edge, double off_r, double off_z,
              const GridGeometry& g, std::size_t stride, std::vector<std::uint8_t>& ids) {
  Vec3 p;
  std::size_t written = 0;
  for (int i = 0; i < g.n[0]; ++i) {
    p.x = (i + off_r) * g.d[0];
    for (int k = 0; k < g.n[2]; ++k) {
      p.z = (k + off_z) * g.d[2];
      if (!holds_rz(obj, p, edge, g)) continue;
      ids[static_cast<std::size_t>(i) * stride + k] = id;
      ++written;
    }
  }
  return written;
}

}  // namespace

MeshedIds mesh_cyl_objects(const std::vector<ObjectConfig>& objects, const MaterialTable& table,
                           const GridGeometry& g, const FieldLayout& layout,
                           const std::vector<Component>& components) {
  const std::vector<std::uint8_t> obj_ids = object_material_ids(objects, table);

  const std::uint8_t pec = MaterialTable::kPec;
  const std::size_t nzp = layout.nzp();
  MeshedIds m;
  m.object_samples.assign(objects.size(), 0);
  for (Component comp : components) {
    auto& ids = m.component[static_cast<int>(comp)];
    ids.assign(layout.cells(), MaterialTable::kVacuum);
    const auto off = yee_offset(comp);  // [0]: r, [2]: z; the phi offset has no meaning here
    const int axis = component_axis(comp);
    const bool edge = is_electric(comp) && axis != 1;
    for (std::size_t o = 0; o < objects.size(); ++o) {
      const bool pec_object = table.entry(obj_ids[o]).pec;
      const std::size_t held =
          paint_rz(objects[o], obj_ids[o], edge && pec_object ? axis : -1, off[0], off[2], g, nzp, ids);
      // A conductor acts through its E samples only: its H samples do not count as held.
      if (is_electric(comp) || !pec_object) m.object_samples[o] += held;
    }
    if (!is_electric(comp)) continue;
    for (int i = 0; i < layout.nx; ++i) {
      const std::size_t row = layout.index(i, 0, 0);
      if (component_axis(comp) != 2) ids[row] = pec;  // Er, Ephi on the wall z = 0
      std::fill(ids.begin() + row + layout.nz, ids.begin() + row + nzp, pec);
    }
  }

  m.cell_centre.assign(static_cast<std::size_t>(g.n[0]) * g.n[2], MaterialTable::kVacuum);
  for (std::size_t o = 0; o < objects.size(); ++o)
    paint_rz(objects[o], obj_ids[o], -1, 0.5, 0.5, g, static_cast<std::size_t>(g.n[2]), m.cell_centre);
  return m;
}

}  // namespace clfdtd
