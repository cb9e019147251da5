// Mesh objects in the mesher: a box's triangles mesh exactly as the box (surface mixtures and a
// conductor's edges included), an icosphere as the sphere but for the samples between the two.
#include <doctest/doctest.h>

#include <filesystem>
#include <memory>

#include "config/load_config.hpp"
#include "geometry/mesh_builders.hpp"
#include "geometry/mesh_file.hpp"
#include "geometry/voxel_solid.hpp"
#include "model/mesher.hpp"
#include "model/shapes.hpp"

using namespace clfdtd;

namespace {

GridGeometry uneven_grid() {  // no symmetry for a shape to hide behind
  GridGeometry g;
  g.n = {17, 19, 23};
  g.d = {0.01, 0.012, 0.009};
  return g;
}

ObjectConfig mesh_object(const std::string& material, TriangleMesh m) {
  ObjectConfig o;
  o.name = "m";
  o.shape = ShapeKind::Mesh;
  o.solid = std::make_shared<const TriangleSolid>(std::move(m));
  o.material = material;
  return o;
}

// Every sample of every component acts as the same material (eps_r, mu_r, sigma) in both.
long differing_samples(const MeshedIds& a, const MaterialTable& ta, const MeshedIds& b,
                       const MaterialTable& tb) {
  long n = 0;
  for (int c = 0; c < 6; ++c)
    for (std::size_t s = 0; s < a.component[c].size(); ++s) {
      const MaterialEntry& x = ta.entry(a.component[c][s]);
      const MaterialEntry& y = tb.entry(b.component[c][s]);
      n += x.eps_r != y.eps_r || x.mu_r != y.mu_r || x.sigma != y.sigma;
    }
  return n;
}

ObjectConfig box_object(const Vec3& center, const Vec3& size, const std::string& material) {
  ObjectConfig b;
  b.name = "b";
  b.shape = ShapeKind::Box;
  b.center = center;
  b.size = size;
  b.material = material;
  return b;
}

}  // namespace

TEST_CASE("a box's triangles mesh exactly as the box: faces on and off the sample planes, PEC edges") {
  const GridGeometry g = uneven_grid();
  const FieldLayout L(17, 19, 23);
  // x faces on Ey/Ez/Hx planes (0.04, 0.12), y faces off every plane, z faces on Ex/Ey/Hz planes.
  const Vec3 lo{0.04, 0.031, 0.045}, hi{0.12, 0.157, 0.144};
  for (const char* material : {"d", "pec"}) {
    for (int k : {1, 3}) {
      CAPTURE(material);
      CAPTURE(k);
      const ObjectConfig b = box_object(Vec3{(lo.x + hi.x) / 2, (lo.y + hi.y) / 2, (lo.z + hi.z) / 2},
                                        Vec3{hi.x - lo.x, hi.y - lo.y, hi.z - lo.z}, material);
      // The box computes its faces from centre and size: the mesh takes the same numbers.
      const Point3 mlo{b.center.x - b.size.x / 2, b.center.y - b.size.y / 2, b.center.z - b.size.z / 2};
      const Point3 mhi{b.center.x + b.size.x / 2, b.center.y + b.size.y / 2, b.center.z + b.size.z / 2};
      const ObjectConfig m = mesh_object(material, test::box_mesh(mlo, mhi, k));
      MaterialTable ta({MaterialConfig{"d", 3.0, 2.0, 0.5}}), tb({MaterialConfig{"d", 3.0, 2.0, 0.5}});
      const MeshedIds a = mesh_objects({b}, ta, g, L, true);
      const MeshedIds c = mesh_objects({m}, tb, g, L, true);
      CHECK(differing_samples(a, ta, c, tb) == 0);
      CHECK(a.cell_centre == c.cell_centre);
      CHECK(a.object_samples == c.object_samples);
    }
  }
}

TEST_CASE("a box from an STL file in metres (float32 corners off the sample planes) meshes as the box") {
  if (!mesh_files_readable()) {
    MESSAGE("this build reads no mesh files (no VTK): skipped");
    return;
  }
  const GridGeometry g = uneven_grid();
  const FieldLayout L(17, 19, 23);
  // Faces at 0.03, 0.13 (x), 0.036, 0.156 (y), 0.045, 0.144 (z).
  const ObjectConfig b = box_object(Vec3{0.08, 0.096, 0.0945}, Vec3{0.1, 0.12, 0.099}, "d");
  const Point3 lo{0.03, 0.036, 0.045}, hi{0.13, 0.156, 0.144};
  const auto path = std::filesystem::temp_directory_path() / "clfdtd_test_box_m.stl";
  test::write_stl(path.string(), test::box_mesh(lo, hi, 2), true);
  const ObjectConfig m = mesh_object("d", read_mesh_file(path.string()));
  CHECK(m.solid->lo()[0] != 0.03);  // float32: 0.029999999329447746
  MaterialTable ta({MaterialConfig{"d", 3.0, 2.0, 0.5}}), tb({MaterialConfig{"d", 3.0, 2.0, 0.5}});
  const MeshedIds a = mesh_objects({b}, ta, g, L, true);
  const MeshedIds c = mesh_objects({m}, tb, g, L, true);
  CHECK(differing_samples(a, ta, c, tb) == 0);
  CHECK(a.object_samples == c.object_samples);
}

TEST_CASE("an icosphere meshes as its sphere but for samples in the sliver between them") {
  const GridGeometry g = uneven_grid();
  const FieldLayout L(17, 19, 23);
  const Vec3 c{0.083, 0.1, 0.1};
  const double r = 0.061;
  ObjectConfig s;
  s.name = "s";
  s.shape = ShapeKind::Sphere;
  s.center = c;
  s.radius = r;
  s.material = "d";
  const ObjectConfig m = mesh_object("d", test::icosphere({c.x, c.y, c.z}, r, 5));
  MaterialTable ta({MaterialConfig{"d", 3.0}}), tb({MaterialConfig{"d", 3.0}});
  const MeshedIds a = mesh_objects({s}, ta, g, L, true);
  const MeshedIds b = mesh_objects({m}, tb, g, L, true);
  long inside = 0;
  for (auto id : a.cell_centre) inside += id == 2;
  CHECK(inside > 300);
  // Level 5 sags by at most 0.05% of r (3e-5 m, 0.3% of a cell). A shell 4e-5 m thick (with the
  // surface probes) over the sphere holds about 2 samples of each of the 6 components.
  const long differ = differing_samples(a, ta, b, tb);
  CHECK(differ <= 20);
  CHECK(shape_volume(m) == doctest::Approx(shape_volume(s)).epsilon(0.002));
}

TEST_CASE("voxels on the grid's cells mesh as boxes: two labels sharing a face take the mean of both") {
  const GridGeometry g = uneven_grid();
  const FieldLayout L(17, 19, 23);
  auto grid = std::make_shared<VoxelGrid>();
  grid->cells = {17, 19, 23};
  grid->labels.assign(17 * 19 * 23, 0);
  for (int k = 0; k < 23; ++k)
    for (int j = 0; j < 19; ++j)
      for (int i = 0; i < 17; ++i) {
        const bool in_x = i >= 3 && i < 12, in_y = j >= 3 && j < 13;
        std::int32_t& v = grid->labels[static_cast<std::size_t>(i + 17 * (j + 19 * k))];
        if (in_x && in_y && k >= 5 && k < 16) v = 1;
        if (in_x && in_y && k >= 16 && k < 20) v = 2;
      }
  const Point3 origin{0, 0, 0}, spacing{g.d[0], g.d[1], g.d[2]};
  auto voxel_object = [&](std::int32_t label, const std::string& material) {
    ObjectConfig o;
    o.name = "v" + std::to_string(label);
    o.shape = ShapeKind::Voxels;
    o.label = label;
    o.solid = std::make_shared<const VoxelSolid>(grid, label, origin, spacing);
    o.material = material;
    return o;
  };
  auto box = [&](double z0, double z1, const std::string& material) {
    return box_object(Vec3{(3 + 12) / 2.0 * g.d[0], (3 + 13) / 2.0 * g.d[1], (z0 + z1) / 2 * g.d[2]},
                      Vec3{9 * g.d[0], 10 * g.d[1], (z1 - z0) * g.d[2]}, material);
  };
  for (const char* upper : {"e", "pec"}) {
    CAPTURE(upper);
    MaterialTable ta({MaterialConfig{"d", 3.0, 2.0, 0.5}, MaterialConfig{"e", 6.0}}),
        tb({MaterialConfig{"d", 3.0, 2.0, 0.5}, MaterialConfig{"e", 6.0}});
    const MeshedIds a = mesh_objects({box(5, 16, "d"), box(16, 20, upper)}, ta, g, L, true);
    const MeshedIds c = mesh_objects({voxel_object(1, "d"), voxel_object(2, upper)}, tb, g, L, true);
    CHECK(differing_samples(a, ta, c, tb) == 0);
    CHECK(a.object_samples == c.object_samples);
  }
}

TEST_CASE("a box drawn in mm far from the file's origin (float32 there), placed by center, meshes as the box") {
  if (!mesh_files_readable()) {
    MESSAGE("this build reads no mesh files (no VTK): skipped");
    return;
  }
  const GridGeometry g = uneven_grid();
  const FieldLayout L(17, 19, 23);
  const ObjectConfig b = box_object(Vec3{0.08, 0.096, 0.0945}, Vec3{0.1, 0.12, 0.099}, "d");
  for (double off : {0.0, 4000.0}) {
    CAPTURE(off);
    const auto path = std::filesystem::temp_directory_path() / "clfdtd_test_box_far.stl";
    test::write_stl(path.string(),
                    test::box_mesh({off + 0.3, off + 40.3, off + 0.3}, {off + 100.3, off + 160.3, off + 99.3}, 2),
                    true);
    const RunConfig cfg = load_config_text(
        "[grid]\nsize = 0.4 0.4 0.4\ncell_size = 0.01\n[time]\nsteps = 1\n[material.d]\neps_r = 3\n"
        "[object.m]\nshape = mesh\nfile = " + path.string() +
            "\nscale = 1e-3\ncenter = 0.08 0.096 0.0945\nmaterial = d\n"
            "[source.s]\nposition = 0.3 0.3 0.3\nfrequency = 1e9\n",
        "c.ini", {"--boundary.layers=5"});
    MaterialTable ta({MaterialConfig{"d", 3.0, 2.0, 0.5}}), tb({MaterialConfig{"d", 3.0, 2.0, 0.5}});
    const MeshedIds a = mesh_objects({b}, ta, g, L, true);
    const MeshedIds c = mesh_objects({cfg.objects[0]}, tb, g, L, true);
    CHECK(differing_samples(a, ta, c, tb) == 0);
    CHECK(a.object_samples == c.object_samples);
  }
}
