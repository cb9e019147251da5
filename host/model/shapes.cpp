// Patent step 2: geometric primitives. Boundaries count as inside, with a tiny relative tolerance so
// that a face placed exactly on a grid plane includes that plane whatever the rounding of
// center +- size/2 (otherwise a slab's thickness in cells would depend on last-bit noise).
#include "model/shapes.hpp"

#include <algorithm>
#include <cmath>

#include "geometry/solid.hpp"

namespace clfdtd {

namespace {
constexpr double kPi = 3.14159265358979323846;
constexpr double kRelTol = 1e-9;

// |v| <= half, tolerant to rounding relative to the magnitudes involved.
bool within(double v, double half, double scale) {
  return std::fabs(v) <= half + kRelTol * std::max(half, scale);
}

// One edge a-b of the even-odd test at (u, w): whether it toggles the parity, and the squared
// distance from (u, w) to it.
bool edge_crosses(const std::array<double, 2>& a, const std::array<double, 2>& b, double u, double w) {
  const double ax = a[0], ay = a[1], bx = b[0], by = b[1];
  return (ay > w) != (by > w) && u < ax + (w - ay) * (bx - ax) / (by - ay);
}
double edge_distance2(const std::array<double, 2>& a, const std::array<double, 2>& b, double u, double w) {
  const double ax = a[0], ay = a[1], ex = b[0] - ax, ey = b[1] - ay, len2 = ex * ex + ey * ey;
  const double t = len2 > 0 ? std::clamp(((u - ax) * ex + (w - ay) * ey) / len2, 0.0, 1.0) : 0.0;
  const double dx = u - (ax + t * ex), dy = w - (ay + t * ey);
  return dx * dx + dy * dy;
}

}  // namespace

// Even-odd rule, the boundary inside: a point within rounding of an edge (relative to the
// polygon's size) counts as on it, so a side placed exactly on a grid line includes that line
// as a box's face does.
bool polygon_contains(const std::vector<std::array<double, 2>>& v, double u, double w) {
  double scale = std::max(std::fabs(u), std::fabs(w)), nearest2 = 1e300;
  bool inside = false;
  for (std::size_t i = 0, j = v.size() - 1; i < v.size(); j = i++) {
    scale = std::max({scale, std::fabs(v[i][0]), std::fabs(v[i][1])});
    nearest2 = std::min(nearest2, edge_distance2(v[j], v[i], u, w));
    if (edge_crosses(v[j], v[i], u, w)) inside = !inside;
  }
  const double tol = kRelTol * scale;
  return inside || nearest2 <= tol * tol;
}

PolygonIndex::PolygonIndex(const std::vector<std::array<double, 2>>& v) : v_(v) {
  if (v_.empty()) return;
  double w1 = v_[0][1];
  w0_ = v_[0][1];
  for (const auto& p : v_) {
    w0_ = std::min(w0_, p[1]);
    w1 = std::max(w1, p[1]);
    vertex_scale_ = std::max({vertex_scale_, std::fabs(p[0]), std::fabs(p[1])});
  }
  bins_ = static_cast<int>(std::clamp<std::size_t>(v_.size(), 1, 4096));
  inv_width_ = w1 > w0_ ? bins_ / (w1 - w0_) : 0.0;
  edges_.resize(static_cast<std::size_t>(bins_));
  // An edge goes into every bin its w range [min, max] touches. A crossing edge spans the
  // point's w, and an edge within the tolerance comes within it in w: bin() is monotonic, so
  // both lie in the bins the queries below read.
  for (std::size_t i = 0, j = v_.size() - 1; i < v_.size(); j = i++)
    for (int b = bin(std::min(v_[j][1], v_[i][1])); b <= bin(std::max(v_[j][1], v_[i][1])); ++b)
      edges_[static_cast<std::size_t>(b)].push_back(static_cast<int>(i));
}

int PolygonIndex::bin(double w) const {
  const double b = std::floor((w - w0_) * inv_width_);
  return static_cast<int>(std::clamp(b, 0.0, static_cast<double>(bins_ - 1)));
}

bool PolygonIndex::contains(double u, double w) const {
  if (v_.empty()) return false;
  const std::size_t n = v_.size();
  auto from = [&](int i) { return v_[(static_cast<std::size_t>(i) + n - 1) % n]; };
  bool inside = false;
  for (int i : edges_[static_cast<std::size_t>(bin(w))])
    if (edge_crosses(from(i), v_[static_cast<std::size_t>(i)], u, w)) inside = !inside;
  if (inside) return true;
  const double tol = kRelTol * std::max({std::fabs(u), std::fabs(w), vertex_scale_});
  for (int b = bin(w - tol); b <= bin(w + tol); ++b)
    for (int i : edges_[static_cast<std::size_t>(b)])
      if (edge_distance2(from(i), v_[static_cast<std::size_t>(i)], u, w) <= tol * tol) return true;
  return false;
}

bool shape_contains(const ObjectConfig& obj, const Vec3& p, const PolygonIndex* cross_section) {
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
      return cross_section ? cross_section->contains(p[ua] - c[ua], p[va] - c[va])
                           : polygon_contains(obj.vertices, p[ua] - c[ua], p[va] - c[va]);
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
    case ShapeKind::Mesh:
    case ShapeKind::Voxels: return obj.solid && obj.solid->contains({p.x, p.y, p.z});
  }
  return false;
}

double shape_volume(const ObjectConfig& obj) {
  switch (obj.shape) {
    case ShapeKind::Box: return obj.size.x * obj.size.y * obj.size.z;
    case ShapeKind::Sphere: return 4.0 / 3.0 * kPi * obj.radius * obj.radius * obj.radius;
    case ShapeKind::Cylinder: return kPi * obj.radius * obj.radius * obj.length;
    case ShapeKind::Prism: return polygon_area(obj.vertices) * obj.length;
    case ShapeKind::Mesh:
    case ShapeKind::Voxels: return obj.solid ? obj.solid->volume() : 0.0;
  }
  return 0;
}

}  // namespace clfdtd
