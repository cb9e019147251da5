// Shapes and the staggered mesher: voxel volumes against analytic ones, which Yee samples a thin
// object claims, the mean of both sides on faces, later-wins ordering, and the PEC wall / padding
// ids.
#include <doctest/doctest.h>

#include <cmath>

#include "errors.hpp"
#include "model/mesher.hpp"
#include "model/shapes.hpp"

using namespace clfdtd;

namespace {

GridGeometry cube_grid(int n, double d) {
  GridGeometry g;
  g.n = {n, n, n};
  g.d = {d, d, d};
  g.dt = 1e-12;
  g.steps = 1;
  return g;
}

ObjectConfig box(const std::string& material, Vec3 center, Vec3 size) {
  ObjectConfig o;
  o.name = "b";
  o.shape = ShapeKind::Box;
  o.center = center;
  o.size = size;
  o.material = material;
  return o;
}

// Volume covered by an object from its cell-centre ids.
double voxel_volume(const ObjectConfig& obj, double d, int n) {
  MaterialTable t({MaterialConfig{"m", 2.0}});
  const GridGeometry g = cube_grid(n, d);
  const MeshedIds m = mesh_objects({obj}, t, g, FieldLayout(n, n, n), false);
  long count = 0;
  for (auto id : m.cell_centre) count += (id == 2);
  return count * d * d * d;
}

std::uint8_t at(const MeshedIds& m, const FieldLayout& L, Component c, int i, int j, int k) {
  return m.component[static_cast<int>(c)][L.index(i, j, k)];
}

// The material a sample acts as: eps_r, mu_r, sigma of its entry.
std::array<double, 3> props(const MaterialTable& t, std::uint8_t id) {
  const MaterialEntry& e = t.entry(id);
  return {e.eps_r, e.mu_r, e.sigma};
}

// 17 x 19 x 23 cells of 10 x 12 x 9 mm: no symmetry for a shape to hide behind.
GridGeometry uneven_grid() {
  GridGeometry g;
  g.n = {17, 19, 23};
  g.d = {0.01, 0.012, 0.009};
  return g;
}

ObjectConfig ball(const std::string& material, Vec3 center, double radius) {
  ObjectConfig o;
  o.shape = ShapeKind::Sphere;
  o.center = center;
  o.radius = radius;
  o.material = material;
  return o;
}

// A cylinder along y, 0.5 m long: it pokes out of uneven_grid() at both ends.
ObjectConfig rod_y(const std::string& material, Vec3 center, double radius) {
  ObjectConfig o = ball(material, center, radius);
  o.shape = ShapeKind::Cylinder;
  o.axis = Axis::Y;
  o.length = 0.5;
  return o;
}

}  // namespace

TEST_CASE("shape containment includes the boundary") {
  const ObjectConfig b = box("m", Vec3{0.5, 0.5, 0.5}, Vec3{0.2, 0.4, 0.6});
  CHECK(shape_contains(b, Vec3{0.4, 0.3, 0.2}));      // a corner
  CHECK_FALSE(shape_contains(b, Vec3{0.39, 0.5, 0.5}));
  ObjectConfig s = b;
  s.shape = ShapeKind::Sphere;
  s.radius = 0.1;
  CHECK(shape_contains(s, Vec3{0.6, 0.5, 0.5}));
  CHECK_FALSE(shape_contains(s, Vec3{0.6, 0.51, 0.5}));
  ObjectConfig c = s;
  c.shape = ShapeKind::Cylinder;
  c.axis = Axis::Y;
  c.length = 0.4;
  CHECK(shape_contains(c, Vec3{0.6, 0.7, 0.5}));       // rim of the top cap
  CHECK_FALSE(shape_contains(c, Vec3{0.5, 0.71, 0.5}));
  CHECK_FALSE(shape_contains(c, Vec3{0.5, 0.5, 0.61}));
}

TEST_CASE("voxel volumes match the analytic volumes") {
  const double d = 0.01;
  const int n = 100;
  // Off-grid centres so the result does not hinge on boundary samples.
  ObjectConfig b = box("m", Vec3{0.503, 0.487, 0.511}, Vec3{0.31, 0.22, 0.43});
  CHECK(voxel_volume(b, d, n) == doctest::Approx(shape_volume(b)).epsilon(0.05));
  CHECK(shape_volume(b) == doctest::Approx(0.31 * 0.22 * 0.43));

  ObjectConfig s = b;
  s.shape = ShapeKind::Sphere;
  s.radius = 0.3;
  CHECK(shape_volume(s) == doctest::Approx(4.0 / 3.0 * M_PI * 0.027));
  CHECK(voxel_volume(s, d, n) == doctest::Approx(shape_volume(s)).epsilon(0.02));

  for (Axis ax : {Axis::X, Axis::Y, Axis::Z}) {
    ObjectConfig c = b;
    c.shape = ShapeKind::Cylinder;
    c.axis = ax;
    c.radius = 0.2;
    c.length = 0.55;
    CHECK(shape_volume(c) == doctest::Approx(M_PI * 0.04 * 0.55));
    CHECK(voxel_volume(c, d, n) == doctest::Approx(shape_volume(c)).epsilon(0.03));
  }
}

TEST_CASE("grid-aligned box covers exactly its cells at the cell centres") {
  ObjectConfig b = box("m", Vec3{0.5, 0.5, 0.5}, Vec3{0.3, 0.2, 0.4});
  CHECK(voxel_volume(b, 0.01, 100) == doctest::Approx(shape_volume(b)).epsilon(1e-9));
}

TEST_CASE("staggered sampling of a one-cell slab: faces on sample planes take the mean of both sides") {
  const double d = 0.01;
  const int n = 60;
  const GridGeometry g = cube_grid(n, d);
  const FieldLayout L(n, n, n);
  MaterialTable t({MaterialConfig{"m", 3.0, 2.0, 0.5}});
  // Slab z in [0.10, 0.11], x in [0.20, 0.50], y in [0.10, 0.30]: all faces on grid planes.
  const ObjectConfig slab = box("m", Vec3{0.35, 0.2, 0.105}, Vec3{0.3, 0.2, 0.01});
  const MeshedIds m = mesh_objects({slab}, t, g, L, true);
  const int j = 20;
  using P = std::array<double, 3>;
  const P inside{3.0, 2.0, 0.5}, vacuum{1.0, 1.0, 0.0};
  const P tangential{2.0, 1.5, 0.25};               // arithmetic means
  const P normal{1.5, 4.0 / 3.0, 0.0};              // harmonic means (sigma: 0 on one side)
  const P edge{1.5, 1.25, 0.125};                   // a quarter inside, tangential to both faces
  // Ex sits at z = k d: both z faces (k = 10, 11) lie on its planes, parallel to it.
  CHECK(at(m, L, Component::Ex, 30, j, 9) == MaterialTable::kVacuum);
  CHECK(props(t, at(m, L, Component::Ex, 30, j, 10)) == tangential);
  CHECK(props(t, at(m, L, Component::Ex, 30, j, 11)) == tangential);
  CHECK(at(m, L, Component::Ex, 30, j, 12) == MaterialTable::kVacuum);
  // x at (i + 1/2) d: i = 20..49, off the x faces.
  CHECK(at(m, L, Component::Ex, 19, j, 10) == MaterialTable::kVacuum);
  CHECK(props(t, at(m, L, Component::Ex, 20, j, 10)) == tangential);
  CHECK(props(t, at(m, L, Component::Ex, 49, j, 10)) == tangential);
  CHECK(at(m, L, Component::Ex, 50, j, 10) == MaterialTable::kVacuum);
  // Ey at x = i d, z = k d: on an x face and a z face (an edge), both parallel to it.
  CHECK(props(t, at(m, L, Component::Ey, 50, j, 10)) == edge);
  CHECK(at(m, L, Component::Ey, 51, j, 10) == MaterialTable::kVacuum);
  // Ez at z = (k + 1/2) d: k = 10 lies inside, its x faces at i = 20 and 50 run along it.
  CHECK(at(m, L, Component::Ez, 30, j, 9) == MaterialTable::kVacuum);
  CHECK(at(m, L, Component::Ez, 30, j, 10) == 2);
  CHECK(at(m, L, Component::Ez, 30, j, 11) == MaterialTable::kVacuum);
  CHECK(props(t, at(m, L, Component::Ez, 20, j, 10)) == tangential);
  // Hx, Hy at half z like Ez; Hz at integer z like Ex, but normal to the z faces.
  CHECK(at(m, L, Component::Hx, 30, j, 10) == 2);
  CHECK(at(m, L, Component::Hx, 30, j, 11) == MaterialTable::kVacuum);
  CHECK(props(t, at(m, L, Component::Hz, 30, j, 11)) == normal);
  // Hx at x = i d: normal to the x face at i = 20.
  CHECK(props(t, at(m, L, Component::Hx, 20, j, 10)) == normal);
  CHECK(props(t, at(m, L, Component::Ez, 30, j, 10)) == inside);
  CHECK(props(t, at(m, L, Component::Ez, 30, j, 30)) == vacuum);
  // Cell centres (model.vti) keep the object's material: one layer k = 10.
  auto centre = [&](int i, int jj, int k) { return m.cell_centre[(std::size_t(i) * n + jj) * n + k]; };
  CHECK(centre(30, j, 10) == 2);
  CHECK(centre(30, j, 9) == MaterialTable::kVacuum);
  CHECK(centre(30, j, 11) == MaterialTable::kVacuum);

  // A zero-thickness PEC sheet at z = 0.1 claims the tangential E samples only.
  const ObjectConfig sheet = box("pec", Vec3{0.35, 0.2, 0.1}, Vec3{0.3, 0.2, 0.0});
  const MeshedIds s = mesh_objects({sheet}, t, g, L, true);
  CHECK(at(s, L, Component::Ex, 30, j, 10) == MaterialTable::kPec);
  CHECK(at(s, L, Component::Ey, 30, j, 10) == MaterialTable::kPec);
  CHECK(at(s, L, Component::Hz, 30, j, 10) == MaterialTable::kPec);
  for (int k = 0; k < n; ++k) {
    CHECK(at(s, L, Component::Ez, 30, j, k) == MaterialTable::kVacuum);
    CHECK(at(s, L, Component::Hx, 30, j, k) == MaterialTable::kVacuum);
  }
  // The sheet under a later dielectric box whose face lies on it stays a conductor there; a
  // zero-thickness dielectric sheet keeps its material (no side to average with).
  const ObjectConfig above = box("m", Vec3{0.35, 0.2, 0.15}, Vec3{0.3, 0.2, 0.1});
  const MeshedIds u = mesh_objects({sheet, above}, t, g, L, false);
  CHECK(at(u, L, Component::Ex, 30, j, 10) == MaterialTable::kPec);
  CHECK(props(t, at(u, L, Component::Ex, 30, j, 11)) == inside);
  const ObjectConfig film = box("m", Vec3{0.35, 0.2, 0.1}, Vec3{0.3, 0.2, 0.0});
  const MeshedIds f = mesh_objects({film}, t, g, L, false);
  CHECK(at(f, L, Component::Ex, 30, j, 10) == 2);
}

TEST_CASE("an anisotropic material: each component takes its axis' entry, inside and on surfaces") {
  const double d = 0.01;
  const int n = 40;
  const GridGeometry g = cube_grid(n, d);
  const FieldLayout L(n, n, n);
  MaterialConfig c{"c", 6.0, 3.0, 0.3};
  c.eps_axes = {2, 4, 6};
  c.mu_axes = {1, 3, 2};
  c.sigma_axes = {0.1, 0.2, 0.3};
  REQUIRE(c.anisotropic());
  MaterialTable t({c});
  REQUIRE(t.size() == 5);  // pec, vacuum and the three axes
  CHECK(t.find("c") == 2);
  CHECK(t.entry(3).name == "c (y)");
  CHECK(t.entry(4).name == "c (z)");
  for (int a = 0; a < 3; ++a) {
    CHECK(t.along(2, a) == 2 + a);
    CHECK(t.named(static_cast<std::uint8_t>(2 + a)) == 2);  // messages name the user's material
  }
  CHECK(t.along(MaterialTable::kVacuum, 2) == MaterialTable::kVacuum);
  // x in [0.10, 0.30], y in [0.10, 0.30], z in [0.10, 0.20]: faces on grid planes.
  const MeshedIds m = mesh_objects({box("c", Vec3{0.2, 0.2, 0.15}, Vec3{0.2, 0.2, 0.1})}, t, g, L, true);
  using P = std::array<double, 3>;
  CHECK(props(t, at(m, L, Component::Ex, 20, 20, 15)) == P{2, 1, 0.1});
  CHECK(props(t, at(m, L, Component::Ey, 20, 20, 15)) == P{4, 3, 0.2});
  CHECK(props(t, at(m, L, Component::Ez, 20, 20, 15)) == P{6, 2, 0.3});
  CHECK(props(t, at(m, L, Component::Hx, 20, 20, 15)) == P{2, 1, 0.1});
  CHECK(props(t, at(m, L, Component::Hy, 20, 20, 15)) == P{4, 3, 0.2});
  CHECK(props(t, at(m, L, Component::Hz, 20, 20, 15)) == P{6, 2, 0.3});
  // On the z face at z = 0.10 (k = 10): Ex and Ey lie along it (arithmetic means with vacuum of
  // their own axis' values), Hz crosses it (harmonic means of its axis' values).
  CHECK(props(t, at(m, L, Component::Ex, 20, 20, 10)) == P{1.5, 1, 0.05});
  CHECK(props(t, at(m, L, Component::Ey, 20, 20, 10)) == P{2.5, 2, 0.1});
  CHECK(props(t, at(m, L, Component::Hz, 20, 20, 10)) == P{12.0 / 7, 4.0 / 3, 0.0});
  // Cell centres (model.vti) keep the material's own id.
  CHECK(m.cell_centre[(std::size_t(20) * n + 20) * n + 15] == 2);
}

TEST_CASE("two boxes sharing a face: the face takes the mean of the two, not of either and vacuum") {
  const double d = 0.01;
  const int n = 30;
  const GridGeometry g = cube_grid(n, d);
  const FieldLayout L(n, n, n);
  MaterialTable t({MaterialConfig{"a", 2.0}, MaterialConfig{"b", 6.0}});
  // a: z in [0.05, 0.10], b: z in [0.10, 0.20]; both wider than the grid in x and y.
  const ObjectConfig a = box("a", Vec3{0.15, 0.15, 0.075}, Vec3{1, 1, 0.05});
  const ObjectConfig b = box("b", Vec3{0.15, 0.15, 0.15}, Vec3{1, 1, 0.1});
  for (const auto& order : {std::vector<ObjectConfig>{a, b}, std::vector<ObjectConfig>{b, a}}) {
    const MeshedIds m = mesh_objects(order, t, g, L, false);
    CHECK(t.entry(at(m, L, Component::Ex, 15, 15, 10)).eps_r == 4.0);  // tangential: (2 + 6) / 2
    CHECK(t.entry(at(m, L, Component::Ex, 15, 15, 5)).eps_r == 1.5);   // a on vacuum
    CHECK(t.entry(at(m, L, Component::Ex, 15, 15, 20)).eps_r == 3.5);   // b on vacuum
    CHECK(t.entry(at(m, L, Component::Ez, 15, 15, 9)).eps_r == 2.0);
    CHECK(t.entry(at(m, L, Component::Ez, 15, 15, 10)).eps_r == 6.0);
  }
  // The same mixture is one entry: pec, vacuum, a, b and three means.
  CHECK(t.size() == 7);
  // A PEC box's face against a dielectric is PEC whichever comes later.
  MaterialTable tp({MaterialConfig{"a", 2.0}});
  const ObjectConfig ground = box("pec", Vec3{0.15, 0.15, 0.075}, Vec3{1, 1, 0.05});
  const ObjectConfig substrate = box("a", Vec3{0.15, 0.15, 0.15}, Vec3{1, 1, 0.1});
  const MeshedIds p = mesh_objects({ground, substrate}, tp, g, L, false);
  CHECK(at(p, L, Component::Ex, 15, 15, 10) == MaterialTable::kPec);
  CHECK(tp.entry(at(p, L, Component::Ex, 15, 15, 20)).eps_r == 1.5);
  // An aperture: a vacuum box through a PEC plate (z 0.10 .. 0.12) stays open at both ends; its
  // side walls stay conductors.
  const ObjectConfig plate = box("pec", Vec3{0.15, 0.15, 0.11}, Vec3{1, 1, 0.02});
  const ObjectConfig hole = box("vacuum", Vec3{0.15, 0.15, 0.11}, Vec3{0.06, 0.06, 0.02});
  const MeshedIds h = mesh_objects({plate, hole}, tp, g, L, false);
  for (int k : {10, 11, 12}) {
    CHECK(at(h, L, Component::Ex, 15, 15, k) == MaterialTable::kVacuum);
    CHECK(at(h, L, Component::Ey, 15, 15, k) == MaterialTable::kVacuum);
  }
  CHECK(at(h, L, Component::Ey, 12, 15, 11) == MaterialTable::kPec);  // x = 0.12: the hole's wall
  CHECK(at(h, L, Component::Ex, 5, 15, 11) == MaterialTable::kPec);   // the plate itself
  // A dielectric box over a PEC box of the same size replaces it, faces included.
  const ObjectConfig conductor = box("pec", Vec3{0.15, 0.15, 0.15}, Vec3{0.1, 0.1, 0.1});
  const ObjectConfig over = box("a", Vec3{0.15, 0.15, 0.15}, Vec3{0.1, 0.1, 0.1});
  const MeshedIds o = mesh_objects({conductor, over}, tp, g, L, false);
  CHECK(tp.entry(at(o, L, Component::Ex, 15, 15, 10)).eps_r == 1.5);
  CHECK(at(o, L, Component::Ex, 15, 15, 15) == 2);
}

TEST_CASE("layers stacked along z: each face takes the mean of its two layers") {
  // 64 slabs across the whole x-y extent (each spans every x and y cell), the case the per-axis
  // object lists pick z for (a scan of every object per sample took 8.5 s for 128 layers on a
  // 128^2 face in review).
  const int n = 64;
  const GridGeometry g = cube_grid(n, 0.01);
  const FieldLayout L(n, n, n);
  MaterialTable t({MaterialConfig{"a", 2.0}, MaterialConfig{"b", 3.0}});
  std::vector<ObjectConfig> stack;
  for (int l = 0; l < n; ++l)
    stack.push_back(box(l % 2 ? "a" : "b", Vec3{0.32, 0.32, (l + 0.5) * 0.01}, Vec3{1, 1, 0.01}));
  const MeshedIds m = mesh_objects(stack, t, g, L, false);
  // Ex at z = k d lies on the face between layers k - 1 and k: the mean of a and b.
  CHECK(t.entry(at(m, L, Component::Ex, 30, 30, 20)).eps_r == 2.5);
  CHECK(at(m, L, Component::Ez, 30, 30, 20) == 3);  // inside layer 20 (b)
}

TEST_CASE("mesher ids agree with shape_contains at every sample") {
  // The mesher fills runs along z instead of testing each sample; check it against brute force.
  const GridGeometry g = uneven_grid();
  const FieldLayout L(17, 19, 23);
  MaterialTable t({MaterialConfig{"a", 2.0}, MaterialConfig{"b", 3.0, 2.0}});
  const ObjectConfig s = ball("a", Vec3{0.08, 0.1, 0.1}, 0.061);
  const ObjectConfig c = rod_y("b", Vec3{0.08, 0.1, 0.1}, 0.043);
  const MeshedIds m = mesh_objects({s, c}, t, g, L, true);
  int mixtures = 0;
  for (int comp = 0; comp < 6; ++comp) {
    const auto cc = static_cast<Component>(comp);
    for (int i = 1; i < 17; ++i)  // index 0 planes hold wall ids
      for (int j = 1; j < 19; ++j)
        for (int k = 1; k < 23; ++k) {
          const Vec3 p = sample_position(cc, {i, j, k}, g.d);
          const std::uint8_t expect = shape_contains(c, p) ? 3 : (shape_contains(s, p) ? 2 : 1);
          const std::uint8_t got = at(m, L, cc, i, j, k);
          // A sample a surface passes through (within a thousandth of a cell) is a mixture.
          if (got != expect && !(got > 3 && expect > 1))
            FAIL(component_name(cc) << " " << i << "," << j << "," << k);
          mixtures += got > 3;
        }
  }
  CHECK(mixtures < 20);  // these radii put almost no sample on a surface
}

TEST_CASE("a conductor's E sample is PEC only where the object holds its whole edge") {
  // A z wire of 0.6 cells' radius on a node line: its E samples on the axis are PEC, the x and y
  // edges that start on the axis and end a cell away, outside the wire, are not (their midpoints
  // lie inside: PEC there made the wire a fishbone of stubs resonating 20% low). At 1.2 cells'
  // radius those edges lie inside and are PEC.
  const GridGeometry g = cube_grid(20, 0.01);
  const FieldLayout L(20, 20, 20);
  MaterialTable t({MaterialConfig{"glass", 4.0}});
  ObjectConfig wire;
  wire.shape = ShapeKind::Cylinder;
  wire.axis = Axis::Z;
  wire.center = Vec3{0.1, 0.1, 0.1};
  wire.length = 0.1;
  wire.radius = 0.006;
  wire.material = "pec";
  const MeshedIds thin = mesh_objects({wire}, t, g, L, false);
  CHECK(at(thin, L, Component::Ez, 10, 10, 10) == MaterialTable::kPec);
  for (int side : {9, 10}) {
    CHECK(at(thin, L, Component::Ex, side, 10, 10) == MaterialTable::kVacuum);
    CHECK(at(thin, L, Component::Ey, 10, side, 10) == MaterialTable::kVacuum);
  }
  wire.radius = 0.012;
  const MeshedIds thick = mesh_objects({wire}, t, g, L, false);
  CHECK(at(thick, L, Component::Ex, 10, 10, 10) == MaterialTable::kPec);
  CHECK(at(thick, L, Component::Ez, 11, 10, 10) == MaterialTable::kPec);
  CHECK(at(thick, L, Component::Ez, 11, 11, 10) == MaterialTable::kVacuum);  // 1.41 cells out
  // A dielectric keeps the midpoint: its samples are points of a material, not conductors.
  wire.radius = 0.006;
  wire.material = "glass";
  const MeshedIds glass = mesh_objects({wire}, t, g, L, false);
  CHECK(at(glass, L, Component::Ex, 10, 10, 10) == 2);

  // Brute force over a PEC sphere and a PEC cylinder on an uneven grid: an E sample is PEC
  // exactly where both ends of its edge lie in an object.
  const GridGeometry u = uneven_grid();
  const FieldLayout U(17, 19, 23);
  const ObjectConfig s = ball("pec", Vec3{0.08, 0.1, 0.1}, 0.061);
  const ObjectConfig c = rod_y("pec", Vec3{0.12, 0.1, 0.15}, 0.033);
  const MeshedIds m = mesh_objects({s, c}, t, u, U, false);
  int pec = 0;
  for (int comp = 0; comp < 3; ++comp) {
    const auto cc = static_cast<Component>(comp);
    const int a = component_axis(cc);
    for (int i = 1; i < 17; ++i)  // index 0 planes hold wall ids
      for (int j = 1; j < 19; ++j)
        for (int k = 1; k < 23; ++k) {
          Vec3 lo = sample_position(cc, {i, j, k}, u.d), hi = lo;
          lo[a] -= 0.5 * u.d[a];
          hi[a] += 0.5 * u.d[a];
          const bool expect = (shape_contains(s, lo) && shape_contains(s, hi)) ||
                              (shape_contains(c, lo) && shape_contains(c, hi));
          const bool got = at(m, U, cc, i, j, k) == MaterialTable::kPec;
          if (got != expect) FAIL(component_name(cc) << " " << i << "," << j << "," << k);
          pec += got;
        }
  }
  CHECK(pec > 1000);

  // A PEC sheet between node planes holds no E edge: with H meshed too (a magnetic model) it
  // still counts as holding no sample, so the run warns about it.
  MaterialTable mt({MaterialConfig{"ferrite", 1.0, 2.0}});
  const ObjectConfig sheet = box("pec", Vec3{0.1, 0.1, 0.105}, Vec3{0.05, 0.05, 0.002});
  const MeshedIds hs = mesh_objects({sheet}, mt, g, L, true);
  CHECK(hs.object_samples[0] == 0);
  CHECK_FALSE(hs.component[3].empty());
}

TEST_CASE("later objects override earlier ones; H ids only on request") {
  const GridGeometry g = cube_grid(20, 0.01);
  const FieldLayout L(20, 20, 20);
  MaterialTable t({MaterialConfig{"a", 2.0}, MaterialConfig{"b", 3.0}});
  const ObjectConfig big = box("a", Vec3{0.1, 0.1, 0.1}, Vec3{0.1, 0.1, 0.1});
  const ObjectConfig small = box("b", Vec3{0.1, 0.1, 0.1}, Vec3{0.02, 0.02, 0.02});
  const MeshedIds m = mesh_objects({big, small}, t, g, L, false);
  CHECK(at(m, L, Component::Ey, 10, 10, 10) == 3);
  CHECK(at(m, L, Component::Ey, 13, 10, 10) == 2);
  const MeshedIds r = mesh_objects({small, big}, t, g, L, false);
  CHECK(at(r, L, Component::Ey, 10, 10, 10) == 2);
  for (int c = 3; c < 6; ++c) CHECK(m.component[c].empty());
  CHECK(m.cell_centre.size() == 8000);
  CHECK_THROWS_AS(mesh_objects({box("nope", Vec3{}, Vec3{})}, t, g, L, false), ConfigError);
}

TEST_CASE("tangential E on the low walls and all E padding cells are PEC") {
  const int nx = 5, ny = 6, nz = 7;  // nzp = 8: one padding cell
  GridGeometry g;
  g.n = {nx, ny, nz};
  g.d = {0.01, 0.01, 0.01};
  const FieldLayout L(nx, ny, nz);
  // A vacuum object over everything must not undo the walls.
  const ObjectConfig all = box("vacuum", Vec3{0.5, 0.5, 0.5}, Vec3{2, 2, 2});
  MaterialTable t({MaterialConfig{"mu", 1, 2}});
  const MeshedIds m = mesh_objects({all}, t, g, L, true);
  for (int c = 0; c < 6; ++c) {
    const auto comp = static_cast<Component>(c);
    const int axis = component_axis(comp);
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < ny; ++j)
        for (int k = 0; k < int(L.nzp()); ++k) {
          bool pec = false;
          if (is_electric(comp)) {
            pec = k >= nz || (i == 0 && axis != 0) || (j == 0 && axis != 1) ||
                  (k == 0 && axis != 2);
          }
          const auto expect = pec ? MaterialTable::kPec : MaterialTable::kVacuum;
          if (at(m, L, comp, i, j, k) != expect) {
            FAIL(component_name(comp) << " at " << i << "," << j << "," << k);
          }
        }
  }
}

namespace {

// A prism along `axis` with the cross-section `corners` (relative to the centre).
ObjectConfig prism(const std::string& material, Vec3 center, Axis axis, double length,
                   std::vector<std::array<double, 2>> corners) {
  ObjectConfig o = box(material, center, Vec3{});
  o.shape = ShapeKind::Prism;
  o.axis = axis;
  o.length = length;
  o.vertices = std::move(corners);
  return o;
}

}  // namespace

TEST_CASE("polygon containment: convex, concave, either way round, the boundary inside") {
  const std::vector<std::array<double, 2>> tri{{0, 0}, {1, 0}, {0, 1}};
  CHECK(polygon_contains(tri, 0.2, 0.2));
  CHECK(polygon_contains(tri, 0.5, 0.5));        // on the hypotenuse
  CHECK(polygon_contains(tri, 0, 0));            // a corner
  CHECK(polygon_contains(tri, 0.5, 0));          // on an edge
  CHECK_FALSE(polygon_contains(tri, 0.51, 0.5));
  CHECK_FALSE(polygon_contains(tri, -0.01, 0.5));
  const std::vector<std::array<double, 2>> back{{0, 1}, {1, 0}, {0, 0}};
  CHECK(polygon_contains(back, 0.2, 0.2));
  CHECK_FALSE(polygon_contains(back, 0.6, 0.6));
  // An L: the notch (upper right) is outside.
  const std::vector<std::array<double, 2>> ell{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
  CHECK(polygon_contains(ell, 0.5, 1.5));
  CHECK(polygon_contains(ell, 1.5, 0.5));
  CHECK(polygon_contains(ell, 1.5, 1.0));        // on the notch's edge
  CHECK_FALSE(polygon_contains(ell, 1.5, 1.5));
  CHECK(polygon_area(ell) == doctest::Approx(3.0));
  CHECK(polygon_area(back) == doctest::Approx(0.5));
}

TEST_CASE("PolygonIndex answers exactly as polygon_contains, boundaries and corners included") {
  using Poly = std::vector<std::array<double, 2>>;
  // A 240-corner star (concave, irregular), a comb with edges on grid lines and repeated w
  // values, the L, and a triangle: tested on a grid through every corner and edge, at the
  // corners themselves, at points a hair off them, and outside the polygon's w range.
  Poly star;
  for (int k = 0; k < 240; ++k) {
    const double t = 2 * 3.14159265358979 * k / 240, r = 0.3 + 0.1 * std::sin(7 * t);
    star.push_back({r * std::cos(t), r * std::sin(t)});
  }
  Poly comb{{0, 0}, {0.5, 0}, {0.5, 0.1}, {0.1, 0.1}, {0.1, 0.2}, {0.5, 0.2}, {0.5, 0.3},
            {0.1, 0.3}, {0.1, 0.4}, {0.5, 0.4}, {0.5, 0.5}, {0, 0.5}};
  const Poly ell{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
  const Poly tri{{0, 0}, {1, 0}, {0, 1}};
  std::size_t tested = 0, inside = 0;
  for (const Poly* poly : std::vector<const Poly*>{&star, &comb, &ell, &tri}) {
    const PolygonIndex index(*poly);
    double lo = 1e300, hi = -1e300;
    for (const auto& v : *poly) lo = std::min({lo, v[0], v[1]}), hi = std::max({hi, v[0], v[1]});
    std::vector<double> at;
    for (int k = -10; k <= 110; ++k) at.push_back(lo + (hi - lo) * k / 100.0);
    for (const auto& v : *poly)
      for (double e : {0.0, 1e-12, -1e-12, 1e-6, -1e-6}) at.push_back(v[0] + e), at.push_back(v[1] + e);
    for (double u : at)
      for (double w : at) {
        const bool want = polygon_contains(*poly, u, w);
        if (index.contains(u, w) != want) {
          FAIL_CHECK("PolygonIndex differs at (" << u << ", " << w << "): polygon_contains says " << want);
        }
        ++tested;
        inside += want;
      }
  }
  CHECK(tested > 100000);
  CHECK(inside > 10000);
}

TEST_CASE("a prism with a rectangular cross-section meshes exactly as the box, along every axis") {
  const GridGeometry g = uneven_grid();
  const FieldLayout L(17, 19, 23);
  const Vec3 c{0.083, 0.1, 0.1};
  const Vec3 size{0.061, 0.084, 0.072};  // faces off the sample planes and on some of them
  for (Axis ax : {Axis::X, Axis::Y, Axis::Z}) {
    const int a = static_cast<int>(ax);
    const int ua = a == 0 ? 1 : 0, va = a == 2 ? 1 : 2;
    const double hu = 0.5 * size[ua], hv = 0.5 * size[va];
    const ObjectConfig p = prism("a", c, ax, size[a], {{-hu, -hv}, {hu, -hv}, {hu, hv}, {-hu, hv}});
    MaterialTable t1({MaterialConfig{"a", 2.0}}), t2({MaterialConfig{"a", 2.0}});
    const MeshedIds mp = mesh_objects({p}, t1, g, L, true);
    const MeshedIds mb = mesh_objects({box("a", c, size)}, t2, g, L, true);
    for (int comp = 0; comp < 6; ++comp) CHECK(mp.component[comp] == mb.component[comp]);
    CHECK(shape_volume(p) == doctest::Approx(shape_volume(box("a", c, size))));
  }
}

TEST_CASE("a triangular prism: its voxel volume is its area times its length, ids agree with shape_contains") {
  const double d = 0.01;
  const int n = 100;
  for (Axis ax : {Axis::X, Axis::Y, Axis::Z}) {
    const ObjectConfig p = prism("m", Vec3{0.503, 0.487, 0.511}, ax, 0.43,
                                 {{-0.3, -0.2}, {0.25, -0.17}, {0.02, 0.31}});
    CHECK(shape_volume(p) == doctest::Approx(polygon_area(p.vertices) * 0.43));
    CHECK(voxel_volume(p, d, n) == doctest::Approx(shape_volume(p)).epsilon(0.03));
  }
  const GridGeometry g = uneven_grid();
  const FieldLayout L(17, 19, 23);
  MaterialTable t({MaterialConfig{"a", 2.0}});
  // A concave (L-shaped) cross-section along y.
  const ObjectConfig p = prism("a", Vec3{0.08, 0.1, 0.1}, Axis::Y, 0.12,
                               {{-0.051, -0.043}, {0.047, -0.043}, {0.047, 0.005}, {0.003, 0.005},
                                {0.003, 0.049}, {-0.051, 0.049}});
  const MeshedIds m = mesh_objects({p}, t, g, L, true);
  int inside = 0;
  for (int comp = 0; comp < 6; ++comp) {
    const auto cc = static_cast<Component>(comp);
    for (int i = 1; i < 17; ++i)
      for (int j = 1; j < 19; ++j)
        for (int k = 1; k < 23; ++k) {
          const Vec3 q = sample_position(cc, {i, j, k}, g.d);
          const std::uint8_t expect = shape_contains(p, q) ? 2 : 1;
          const std::uint8_t got = at(m, L, cc, i, j, k);
          if (got != expect && !(got > 2 && expect > 0))
            FAIL(component_name(cc) << " " << i << "," << j << "," << k);
          inside += got == 2;
        }
  }
  CHECK(inside > 500);
  CHECK_FALSE(shape_contains(p, Vec3{0.08 + 0.025, 0.1, 0.1 + 0.025}));  // the notch
  CHECK(shape_contains(p, Vec3{0.08 - 0.025, 0.1, 0.1 + 0.025}));
}

TEST_CASE("a concave prism across z (a C along x) meshes as the same C built from boxes, faces included") {
  // The C in the y-z plane: bars at the bottom and top, a spine at low y; a z row at high y
  // crosses it twice, which a run from its first to its last sample would fill; the samples on
  // its two inner corners (faces meeting at 270 degrees) take 3/4 of the material, as the boxes
  // give them.
  const GridGeometry g = uneven_grid();
  const FieldLayout L(17, 19, 23);
  const double y0 = 0.048, z0 = 0.045, s = 0.036;  // faces on sample planes: 4 and 5 cells
  const ObjectConfig c = prism("a", Vec3{0.08, y0, z0}, Axis::X, 0.1,
                               {{0, 0}, {3 * s, 0}, {3 * s, s}, {s, s}, {s, 2 * s}, {3 * s, 2 * s},
                                {3 * s, 3 * s}, {0, 3 * s}});
  const std::vector<ObjectConfig> bars{
      box("a", Vec3{0.08, y0 + 1.5 * s, z0 + 0.5 * s}, Vec3{0.1, 3 * s, s}),
      box("a", Vec3{0.08, y0 + 1.5 * s, z0 + 2.5 * s}, Vec3{0.1, 3 * s, s}),
      box("a", Vec3{0.08, y0 + 0.5 * s, z0 + 1.5 * s}, Vec3{0.1, s, s})};
  MaterialTable t1({MaterialConfig{"a", 4.0}}), t2({MaterialConfig{"a", 4.0}});
  const MeshedIds mc = mesh_objects({c}, t1, g, L, true);
  const MeshedIds mb = mesh_objects(bars, t2, g, L, true);
  int differ = 0, gap = 0;
  for (int comp = 0; comp < 6; ++comp) {
    const auto cc = static_cast<Component>(comp);
    for (int i = 1; i < 17; ++i)
      for (int j = 1; j < 19; ++j)
        for (int k = 1; k < 23; ++k) {
          const auto pc = props(t1, at(mc, L, cc, i, j, k)), pb = props(t2, at(mb, L, cc, i, j, k));
          differ += pc != pb;
          const Vec3 q = sample_position(cc, {i, j, k}, g.d);
          gap += q.y > y0 + 1.2 * s && q.z > z0 + 1.2 * s && q.z < z0 + 1.8 * s && q.x > 0.04 &&
                 q.x < 0.12 && pc[0] == 1.0;
        }
  }
  CHECK(differ == 0);
  CHECK(gap > 50);  // the C's mouth stays vacuum
}

TEST_CASE("polygons that cross themselves or lie on a line are refused by the model loader") {
  // (config-side check: see tests/config/test_load_errors.cpp; here the area of a bow tie)
  const std::vector<std::array<double, 2>> bow{{0, 0}, {1, 1}, {1, 0}, {0, 1}};
  CHECK(polygon_area(bow) == doctest::Approx(0.0));
}
