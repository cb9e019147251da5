// Closed triangle surfaces for the tests: a box with subdivided faces, an icosphere, a torus, and
// STL writers (binary and ASCII).
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "geometry/triangle_solid.hpp"

namespace clfdtd::test {

// The box [lo, hi] with each face cut into k x k squares, each square into two triangles
// (diagonals alternating), the triangles facing outwards.
inline TriangleMesh box_mesh(const Point3& lo, const Point3& hi, int k) {
  TriangleMesh m;
  std::map<std::array<int, 3>, int> index;  // lattice corner -> point
  auto corner = [&](int i, int j, int l) {
    const std::array<int, 3> key{i, j, l};
    auto it = index.find(key);
    if (it != index.end()) return it->second;
    const int id = static_cast<int>(m.points.size());
    m.points.push_back({lo[0] + (hi[0] - lo[0]) * i / k, lo[1] + (hi[1] - lo[1]) * j / k,
                        lo[2] + (hi[2] - lo[2]) * l / k});
    index[key] = id;
    return id;
  };
  for (int axis = 0; axis < 3; ++axis)
    for (int side = 0; side <= 1; ++side) {
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      for (int a = 0; a < k; ++a)
        for (int b = 0; b < k; ++b) {
          auto at = [&](int da, int db) {
            std::array<int, 3> c{};
            c[axis] = side * k;
            c[u] = a + da;
            c[v] = b + db;
            return corner(c[0], c[1], c[2]);
          };
          int p00 = at(0, 0), p10 = at(1, 0), p11 = at(1, 1), p01 = at(0, 1);
          // (u, v, axis) is right-handed: counter-clockwise in u-v faces +axis.
          if (side == 0) std::swap(p10, p01);
          if ((a + b) % 2 == 0) {
            m.triangles.push_back({p00, p10, p11});
            m.triangles.push_back({p00, p11, p01});
          } else {
            m.triangles.push_back({p00, p10, p01});
            m.triangles.push_back({p10, p11, p01});
          }
        }
    }
  return m;
}

// An icosahedron subdivided `levels` times, its corners on the sphere of radius r about c.
inline TriangleMesh icosphere(const Point3& c, double r, int levels) {
  const double t = (1 + std::sqrt(5.0)) / 2;
  std::vector<Point3> p = {{-1, t, 0}, {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                           {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
  std::vector<std::array<int, 3>> f = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                       {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                       {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                       {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  auto unit = [](Point3 q) {
    const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    return Point3{q[0] / n, q[1] / n, q[2] / n};
  };
  for (auto& q : p) q = unit(q);
  for (int l = 0; l < levels; ++l) {
    std::map<std::pair<int, int>, int> mid;
    auto middle = [&](int a, int b) {
      const auto key = std::minmax(a, b);
      auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      p.push_back(unit({p[a][0] + p[b][0], p[a][1] + p[b][1], p[a][2] + p[b][2]}));
      return mid[key] = static_cast<int>(p.size()) - 1;
    };
    std::vector<std::array<int, 3>> g;
    for (const auto& tri : f) {
      const int a = middle(tri[0], tri[1]), b = middle(tri[1], tri[2]), d = middle(tri[2], tri[0]);
      g.push_back({tri[0], a, d});
      g.push_back({tri[1], b, a});
      g.push_back({tri[2], d, b});
      g.push_back({a, b, d});
    }
    f = g;
  }
  TriangleMesh m;
  for (const auto& q : p) m.points.push_back({c[0] + r * q[0], c[1] + r * q[1], c[2] + r * q[2]});
  m.triangles = f;
  return m;
}

// A torus about the z axis through c: ring radius big, tube radius small, nu x nv quads.
inline TriangleMesh torus(const Point3& c, double big, double small, int nu, int nv) {
  TriangleMesh m;
  const double two_pi = 2 * 3.14159265358979323846;
  for (int i = 0; i < nu; ++i)
    for (int j = 0; j < nv; ++j) {
      const double u = two_pi * i / nu, v = two_pi * j / nv;
      const double rr = big + small * std::cos(v);
      m.points.push_back({c[0] + rr * std::cos(u), c[1] + rr * std::sin(u), c[2] + small * std::sin(v)});
    }
  auto id = [&](int i, int j) { return ((i + nu) % nu) * nv + (j + nv) % nv; };
  for (int i = 0; i < nu; ++i)
    for (int j = 0; j < nv; ++j) {
      m.triangles.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      m.triangles.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  return m;
}

inline void write_stl(const std::string& path, const TriangleMesh& m, bool binary) {
  if (binary) {
    std::ofstream f(path, std::ios::binary);
    char header[80] = {};
    f.write(header, 80);
    const std::uint32_t n = static_cast<std::uint32_t>(m.triangles.size());
    f.write(reinterpret_cast<const char*>(&n), 4);
    for (const auto& t : m.triangles) {
      float v[12] = {};
      for (int c = 0; c < 3; ++c)
        for (int a = 0; a < 3; ++a) v[3 + 3 * c + a] = static_cast<float>(m.points[t[c]][a]);
      f.write(reinterpret_cast<const char*>(v), sizeof v);
      const std::uint16_t attr = 0;
      f.write(reinterpret_cast<const char*>(&attr), 2);
    }
    return;
  }
  std::ofstream f(path);
  f.precision(17);
  f << "solid test\n";
  for (const auto& t : m.triangles) {
    f << " facet normal 0 0 0\n  outer loop\n";
    for (int c = 0; c < 3; ++c)
      f << "   vertex " << m.points[t[c]][0] << " " << m.points[t[c]][1] << " " << m.points[t[c]][2] << "\n";
    f << "  endloop\n endfacet\n";
  }
  f << "endsolid test\n";
}

}  // namespace clfdtd::test
