// Patent step 2: geometric primitives of the 3D model; a point is inside when contains() says so
// (boundaries count as inside).
#pragma once
#include <array>
#include <vector>

#include "config/run_config.hpp"

namespace clfdtd {

// A prism's cross-section: whether (u, w) lies in the polygon (boundary included; its area is
// config's polygon_area). Every edge is tested: O(vertices) a point.
bool polygon_contains(const std::vector<std::array<double, 2>>& v, double u, double w);

// The same test with the edges binned along w, so a point reads only the edges that span its w or
// come within the boundary tolerance of it: contains() returns exactly what polygon_contains()
// does, in O(edges per bin). The mesher builds one per prism (a 400-corner outline on 8 M cells
// took minutes with the plain test).
class PolygonIndex {
public:
  explicit PolygonIndex(const std::vector<std::array<double, 2>>& v);
  bool contains(double u, double w) const;

private:
  int bin(double w) const;
  std::vector<std::array<double, 2>> v_;
  double w0_ = 0, inv_width_ = 0, vertex_scale_ = 0;
  int bins_ = 1;
  std::vector<std::vector<int>> edges_;  // per bin: edge i runs from vertex i - 1 (mod n) to i
};

// With `cross_section` (a prism's PolygonIndex) the prism is tested through it.
bool shape_contains(const ObjectConfig& obj, const Vec3& p, const PolygonIndex* cross_section = nullptr);
double shape_volume(const ObjectConfig& obj);  // analytic volume, m^3 (for tests and reports)

}  // namespace clfdtd
