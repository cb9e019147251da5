// A solid read from a file (object.*.shape = mesh or voxels): what the mesher asks of it. The
// analytic shapes (model/shapes.hpp) answer the same questions from their keys.
#pragma once
#include <array>

namespace clfdtd {

using Point3 = std::array<double, 3>;

class Solid {
public:
  virtual ~Solid() = default;
  // Whether the solid holds p (m); its surface counts as inside, within 1e-9 of its size.
  virtual bool contains(const Point3& p) const = 0;
  // Bounds (m): contains() is false outside them (but for the tolerance).
  virtual const Point3& lo() const = 0;
  virtual const Point3& hi() const = 0;
  virtual double volume() const = 0;  // m^3
};

}  // namespace clfdtd
