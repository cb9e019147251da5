// Patent step 2: geometric primitives. Boundaries count as inside, with a tiny relative tolerance so
// that a face placed exactly on a grid plane includes that plane whatever the rounding of
// center +- size/2 (otherwise a slab's thickness in cells would depend on last-bit noise).
#include "model/shapes.hpp"

#include <algorithm>
#include <cmath>

namespace clfdtd {

namespace {
constexpr double kPi = 3.14159265358979323846;
constexpr double kRelTol = 1e-9;

// |v| <= half, tolerant to rounding relative to the magnitudes involved.
bool within(double v, double half, double scale) {
  return std::fabs(v) <= half + kRelTol * std::max(half, scale);
}
}  // namespace

// Even-odd rule, the boundary inside: a point within rounding of an edge (relative to the
// polygon's size) counts as on it, so a side placed exactly on a grid line includes that line
// as a box's face does.
bool polygon_contains(const std::vector<std::array<double, 2>>& v, double u, double w) {
  double scale = std::max(std::fabs(u), std::fabs(w)), nearest2 = 1e300;
  bool inside = false;
  for (std::size_t i = 0, j = v.size() - 1; i < v.size(); j = i++) {
    const double ax = v[j][0], ay = v[j][1], bx = v[i][0], by = v[i][1];
    scale = std::max({scale, std::fabs(bx), std::fabs(by)});
    const double ex = bx - ax, ey = by - ay, len2 = ex * ex + ey * ey;
    // Distance from (u, w) to the edge a-b.
    const double t = len2 > 0 ? std::clamp(((u - ax) * ex + (w - ay) * ey) / len2, 0.0, 1.0) : 0.0;
    const double dx = u - (ax + t * ex), dy = w - (ay + t * ey);
    nearest2 = std::min(nearest2, dx * dx + dy * dy);
    if ((ay > w) != (by > w) && u < ax + (w - ay) * ex / ey) inside = !inside;
  }
  const double tol = kRelTol * scale;
  return inside || nearest2 <= tol * tol;
}

bool shape_contains(const ObjectConfig& obj, const Vec3& p) {
  const Vec3& c = obj.center;
  switch (obj.shape) {
    case ShapeKind::Box:
      for (int a = 0; a < 3; ++a) {
        if (!within(p[a] - c[a], 0.5 * obj.size[a], std::fabs(c[a]))) return false;
      }
      return true;
    case ShapeKind::Sphere: {
      double r2 = 0;
      for (int a = 0; a < 3; ++a) r2 += (p[a] - c[a]) * (p[a] - c[a]);
      return r2 <= obj.radius * obj.radius * (1 + 2 * kRelTol);
    }
    case ShapeKind::Prism: {
      const int ax = static_cast<int>(obj.axis);
      if (obj.length > 0 && !within(p[ax] - c[ax], 0.5 * obj.length, std::fabs(c[ax]))) return false;
      const auto [ua, va] = cross_axes(ax);
      return polygon_contains(obj.vertices, p[ua] - c[ua], p[va] - c[va]);
    }
    case ShapeKind::Cylinder: {
      const int ax = static_cast<int>(obj.axis);
      if (!within(p[ax] - c[ax], 0.5 * obj.length, std::fabs(c[ax]))) return false;
      double r2 = 0;
      for (int a = 0; a < 3; ++a) {
        if (a != ax) r2 += (p[a] - c[a]) * (p[a] - c[a]);
      }
      return r2 <= obj.radius * obj.radius * (1 + 2 * kRelTol);
    }
  }
  return false;
}

double shape_volume(const ObjectConfig& obj) {
  switch (obj.shape) {
    case ShapeKind::Box: return obj.size.x * obj.size.y * obj.size.z;
    case ShapeKind::Sphere: return 4.0 / 3.0 * kPi * obj.radius * obj.radius * obj.radius;
    case ShapeKind::Cylinder: return kPi * obj.radius * obj.radius * obj.length;
    case ShapeKind::Prism: return polygon_area(obj.vertices) * obj.length;
  }
  return 0;
}

}  // namespace clfdtd
