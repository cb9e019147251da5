// Triangle surfaces as solids: the even-odd inside against analytic shapes, exact where the
// sample points line up with the mesh's corners and edges; open and badly oriented surfaces; the
// mesh file readers.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "geometry/mesh_builders.hpp"
#include "geometry/mesh_file.hpp"
#include "geometry/triangle_solid.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

bool in_box(const Point3& p, const Point3& lo, const Point3& hi) {
  for (int a = 0; a < 3; ++a)
    if (p[a] < lo[a] || p[a] > hi[a]) return false;
  return true;
}

std::string temp_path(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "clfdtd_test_geometry";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

}  // namespace

TEST_CASE("a box's triangles hold what the box holds: faces, edges and corners exactly") {
  // Points on a lattice that passes through every corner and edge of the subdivided faces (and
  // through the faces' planes), so that vertical lines run through shared edges and corners.
  const Point3 lo{0.25, 0.5, 0.125}, hi{0.75, 1.0, 0.625};
  for (int k : {1, 2, 4}) {
    CAPTURE(k);
    const TriangleSolid s(box_mesh(lo, hi, k));
    CHECK(s.triangle_count() == static_cast<std::size_t>(12 * k * k));
    CHECK(s.volume() == doctest::Approx(0.5 * 0.5 * 0.5));
    long mismatches = 0, inside = 0;
    for (int i = 0; i <= 32; ++i)
      for (int j = 0; j <= 48; ++j)
        for (int l = 0; l <= 24; ++l) {
          const Point3 p{i / 32.0, 0.25 + j / 48.0, l / 32.0 * 1.0};
          const bool want = in_box(p, lo, hi);
          inside += want;
          mismatches += s.contains(p) != want;
        }
    CHECK(inside > 1000);
    CHECK(mismatches == 0);
  }
}

TEST_CASE("a vertical line through a corner that many triangles share crosses the surface once") {
  // Double pyramids over rings of 3 to 9 corners at uneven angles: the line through both apexes
  // meets each fan at its corner only; below a ring corner (the outline) it grazes the surface.
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> jitter(0.3, 0.7), tilt(-0.01, 0.01);  // apex inside the ring
  for (int n = 3; n <= 9; ++n)
    for (int trial = 0; trial < 20; ++trial) {
      CAPTURE(n);
      CAPTURE(trial);
      TriangleMesh m;
      const double ax = 0.5 + tilt(rng), ay = 0.5 + tilt(rng);
      m.points.push_back({ax, ay, 1.0});
      m.points.push_back({ax, ay, -1.0});
      for (int i = 0; i < n; ++i) {
        const double a = 2 * M_PI * (i + jitter(rng)) / n, r = 0.3 + 0.2 * jitter(rng);
        m.points.push_back({0.5 + r * std::cos(a), 0.5 + r * std::sin(a), 0.0});
      }
      for (int i = 0; i < n; ++i) {
        const int p = 2 + i, q = 2 + (i + 1) % n;
        m.triangles.push_back({0, p, q});
        m.triangles.push_back({1, q, p});
      }
      REQUIRE(open_edges(m).count == 0);
      const TriangleSolid s(m);
      for (double z : {-0.9, -0.3, 0.0, 0.2, 0.7}) {
        CHECK(s.contains({ax, ay, z}));
      }
      CHECK_FALSE(s.contains({ax, ay, 1.1}));
      CHECK_FALSE(s.contains({ax, ay, -1.1}));
      for (int i = 0; i < n; ++i) {
        const Point3& c = m.points[static_cast<std::size_t>(2 + i)];
        CHECK(s.contains(c));
        CHECK_FALSE(s.contains({c[0], c[1], 0.1}));
        CHECK_FALSE(s.contains({c[0], c[1], -0.1}));
      }
    }
}

TEST_CASE("the inside does not depend on the triangles' orientation; open edges are found") {
  TriangleMesh m = box_mesh({0, 0, 0}, {1, 1, 1}, 2);
  CHECK(open_edges(m).count == 0);
  CHECK(consistently_oriented(m));
  TriangleMesh flipped = m;
  std::swap(flipped.triangles[3][0], flipped.triangles[3][1]);
  CHECK(open_edges(flipped).count == 0);
  CHECK_FALSE(consistently_oriented(flipped));
  const TriangleSolid a(m), b(flipped);
  for (double x : {-0.1, 0.0, 0.3, 0.5, 1.0, 1.2})
    for (double z : {-0.5, 0.0, 0.5, 1.0, 1.5}) {
      CAPTURE(x);
      CAPTURE(z);
      CHECK(a.contains({x, 0.5, z}) == b.contains({x, 0.5, z}));
      CHECK(a.contains({x, 0.5, z}) == (x >= 0 && x <= 1 && z >= 0 && z <= 1));
    }
  TriangleMesh holed = m;
  holed.triangles.erase(holed.triangles.begin() + 5);
  const OpenEdges open = open_edges(holed);
  CHECK(open.count == 3);
  // A triangle with a corner given twice covers nothing and opens nothing.
  TriangleMesh with_sliver = m;
  with_sliver.triangles.push_back({0, 0, 1});
  CHECK(open_edges(with_sliver).count == 0);
}

TEST_CASE("an icosphere lies inside its sphere and holds the inscribed one") {
  const Point3 c{0.31, -0.2, 0.47};
  const double r = 0.2;
  const TriangleMesh m = icosphere(c, r, 4);  // 5120 triangles
  CHECK(open_edges(m).count == 0);
  const TriangleSolid s(m);
  CHECK(s.volume() == doctest::Approx(4.0 / 3.0 * M_PI * r * r * r).epsilon(0.01));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.2 * r, 1.2 * r);
  long wrong = 0, in = 0;
  for (int n = 0; n < 200000; ++n) {
    const Point3 p{c[0] + u(rng), c[1] + u(rng), c[2] + u(rng)};
    const double d = std::sqrt((p[0] - c[0]) * (p[0] - c[0]) + (p[1] - c[1]) * (p[1] - c[1]) +
                               (p[2] - c[2]) * (p[2] - c[2]));
    const bool got = s.contains(p);
    in += got;
    // Corners on the sphere: the faces sag inwards by at most 0.2% of r at this level.
    if (d <= 0.997 * r) wrong += !got;
    if (d > r * (1 + 1e-9)) wrong += got;
  }
  CHECK(in > 50000);
  CHECK(wrong == 0);
}

TEST_CASE("a torus (not convex along any line) holds what the analytic torus holds") {
  const Point3 c{0.5, 0.5, 0.5};
  const double big = 0.3, small = 0.1;
  const TriangleSolid s(torus(c, big, small, 256, 128));
  long wrong = 0, in = 0;
  for (int i = 0; i <= 60; ++i)
    for (int j = 0; j <= 60; ++j)
      for (int l = 0; l <= 30; ++l) {
        const Point3 p{0.1 + 0.8 * i / 60, 0.1 + 0.8 * j / 60, 0.35 + 0.3 * l / 30};
        const double rho = std::hypot(p[0] - c[0], p[1] - c[1]);
        const double tube = std::hypot(rho - big, p[2] - c[2]);
        const bool got = s.contains(p);
        in += got;
        // The faces cut the tube's circle by at most small * (1 - cos(pi / 128)) and the ring by
        // big * (1 - cos(pi / 256)): 1e-4 of the sizes between them.
        if (tube < small - 1e-4) wrong += !got;
        if (tube > small + 1e-4) wrong += got;
      }
  CHECK(in > 1000);
  CHECK(wrong == 0);
  CHECK_FALSE(s.contains(c));  // the hole
}

TEST_CASE("overlapping bodies are their union where the surface is oriented; an inner shell facing in is a cavity") {
  TriangleMesh two = box_mesh({0, 0, 0}, {1, 1, 1}, 1);
  const TriangleMesh b = box_mesh({0.5, 0.5, 0.5}, {1.5, 1.5, 1.5}, 1);
  auto append = [](TriangleMesh& m, const TriangleMesh& add, bool flip) {
    const int base = static_cast<int>(m.points.size());
    m.points.insert(m.points.end(), add.points.begin(), add.points.end());
    for (auto t : add.triangles) {
      if (flip) std::swap(t[1], t[2]);
      m.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
    }
  };
  append(two, b, false);
  REQUIRE(consistently_oriented(two));
  const TriangleSolid u(two);
  CHECK(u.contains({0.75, 0.75, 0.75}));  // in both
  CHECK(u.contains({0.25, 0.25, 0.25}));
  CHECK(u.contains({1.25, 1.25, 1.25}));
  CHECK_FALSE(u.contains({1.25, 0.25, 0.25}));
  // A cavity: a shell inside another, facing inwards.
  TriangleMesh hollow = box_mesh({0, 0, 0}, {1, 1, 1}, 2);
  append(hollow, box_mesh({0.25, 0.25, 0.25}, {0.75, 0.75, 0.75}, 1), true);
  REQUIRE(consistently_oriented(hollow));
  const TriangleSolid h(hollow);
  CHECK(h.contains({0.1, 0.5, 0.5}));
  CHECK_FALSE(h.contains({0.5, 0.5, 0.5}));
  CHECK(h.contains({0.5, 0.5, 0.25}));  // the cavity's wall
}

TEST_CASE("a wall that is vertical but for rounding: a line through its sliver of shadow stays right") {
  // A triangular prism whose 45-degree wall x - y = 0.1 has its top corners a float's step off
  // (export or transform noise), and a box above it. Lines on the wall (x - y = 0.1 on grid
  // points) cross the wall's sliver of shadow: the crossing must lie on the wall (0 .. 1), not in
  // the gap below the box.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0, 1);
  long wrong = 0;
  for (int trial = 0; trial < 300; ++trial) {
    auto nudge = [&](double v) { return std::nextafter(v, u(rng) < 0.5 ? 0.0 : 1.0); };
    TriangleMesh m;
    m.points = {{0.2, 0.1, 0},          {0.6, 0.5, 0},          {0.2, 0.5, 0},
                {nudge(0.2), nudge(0.1), 1}, {nudge(0.6), nudge(0.5), 1}, {0.2, 0.5, 1}};
    m.triangles = {{0, 2, 1}, {3, 4, 5}, {0, 1, 4}, {0, 4, 3}, {1, 2, 5}, {1, 5, 4}, {2, 0, 3}, {2, 3, 5}};
    const TriangleMesh b = box_mesh({-0.1, -0.1, 2}, {1.1, 1.1, 3}, 1);
    const int base = static_cast<int>(m.points.size());
    m.points.insert(m.points.end(), b.points.begin(), b.points.end());
    for (const auto& t : b.triangles) m.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
    const TriangleSolid s(m);
    for (int k = 21; k < 60; ++k) {
      const double x = k * 0.01, y = (k - 10) * 0.01;
      for (double z : {1.25, 1.5, 1.75}) wrong += s.contains({x, y, z});
      wrong += !s.contains({x, y, 2.5});
    }
  }
  CHECK(wrong == 0);
}

TEST_CASE("a cylinder with fanned caps (every cap triangle through the centre) holds what the cylinder holds") {
  const int segments = 4000;
  TriangleMesh m;
  const double r = 0.4, h = 1.0;
  m.points.push_back({0, 0, 0});
  m.points.push_back({0, 0, h});
  for (int i = 0; i < segments; ++i) {
    const double a = 2 * M_PI * i / segments;
    m.points.push_back({r * std::cos(a), r * std::sin(a), 0});
    m.points.push_back({r * std::cos(a), r * std::sin(a), h});
  }
  for (int i = 0; i < segments; ++i) {
    const int b0 = 2 + 2 * i, t0 = b0 + 1, b1 = 2 + 2 * ((i + 1) % segments), t1 = b1 + 1;
    m.triangles.push_back({0, b1, b0});
    m.triangles.push_back({1, t0, t1});
    m.triangles.push_back({b0, b1, t1});
    m.triangles.push_back({b0, t1, t0});
  }
  REQUIRE(open_edges(m).count == 0);
  const TriangleSolid s(m);
  long wrong = 0;
  for (int i = -50; i <= 50; ++i)
    for (int j = -50; j <= 50; ++j)
      for (double z : {-0.1, 0.0, 0.5, 1.0, 1.1}) {
        const double x = 0.0083 * i, y = 0.0083 * j, rho = std::hypot(x, y);
        const bool want_in = rho < r * (1 - 1e-6) && z >= 0 && z <= h;
        const bool want_out = rho > r || z < 0 || z > h;
        const bool got = s.contains({x, y, z});
        wrong += (want_in && !got) || (want_out && got);
      }
  CHECK(wrong == 0);
  CHECK(s.contains({0, 0, 0.5}));  // the line through every fan triangle's corner
}

TEST_CASE("mesh files: binary and ASCII STL read alike; errors say what is wrong") {
  if (!mesh_files_readable()) {
    MESSAGE("this build reads no mesh files (no VTK): skipped");
    return;
  }
  const TriangleMesh m = box_mesh({0.5, 0, -1}, {2, 1.5, 0.25}, 3);
  for (bool binary : {true, false}) {
    CAPTURE(binary);
    const std::string path = temp_path(binary ? "box_b.stl" : "box_a.STL");
    write_stl(path, m, binary);
    const TriangleMesh r = read_mesh_file(path);
    CHECK(r.triangles.size() == m.triangles.size());
    CHECK(r.points.size() == m.points.size());  // STL's repeated corners merged again
    CHECK(open_edges(r).count == 0);
    const TriangleSolid s(r);
    CHECK(s.lo()[0] == 0.5);
    CHECK(s.hi()[2] == 0.25);
    CHECK(s.volume() == doctest::Approx(1.5 * 1.5 * 1.25));
  }
  auto message = [](const std::string& path) {
    try {
      read_mesh_file(path);
    } catch (const MeshFileError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message(temp_path("missing.stl")).find("no such file") != std::string::npos);
  // A binary STL cut short: its header still counts every triangle.
  const std::string whole = temp_path("whole.stl"), cut = temp_path("cut.stl");
  write_stl(whole, m, true);
  {
    std::ifstream in(whole, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() - 120);
  }
  CHECK(message(cut).find("cut short") != std::string::npos);
  CHECK(message(cut).find("the 108 triangles its header counts") != std::string::npos);
  const std::string txt = temp_path("box.txt");
  write_stl(txt, m, false);
  CHECK(message(txt).find(".stl or .obj") != std::string::npos);
  const std::string empty = temp_path("empty.stl");
  { std::ofstream(empty) << "solid nothing\nendsolid nothing\n"; }
  CHECK(message(empty).find("no triangles") != std::string::npos);
  // OBJ: quads are split into triangles.
  const std::string obj = temp_path("cube.obj");
  {
    std::ofstream f(obj);
    f << "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
         "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";
  }
  const TriangleMesh q = read_mesh_file(obj);
  CHECK(q.triangles.size() == 12);
  CHECK(open_edges(q).count == 0);
  CHECK(TriangleSolid(q).volume() == doctest::Approx(1.0));
  // Faces that index normals apart from corners (as exports often do): still closed.
  const std::string normals = temp_path("cube_vn.obj");
  {
    std::ofstream f(normals);
    f << "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
         "vn 0 0 -1\nvn 0 0 1\nvn 0 -1 0\nvn 1 0 0\nvn 0 1 0\nvn -1 0 0\n"
         "f 1//1 4//1 3//1 2//1\nf 5//2 6//2 7//2 8//2\nf 1//3 2//3 6//3 5//3\n"
         "f 2//4 3//4 7//4 6//4\nf 3//5 4//5 8//5 7//5\nf 4//6 1//6 5//6 8//6\n";
  }
  const TriangleMesh n = read_mesh_file(normals);
  CHECK(open_edges(n).count == 0);
  CHECK(TriangleSolid(n).volume() == doctest::Approx(1.0));
}
