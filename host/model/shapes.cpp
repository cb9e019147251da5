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
  }
  return 0;
}

}  // namespace clfdtd
