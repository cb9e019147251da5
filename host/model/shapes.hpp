// Patent step 2: geometric primitives of the 3D model; a point is inside when contains() says so
// (boundaries count as inside).
#pragma once
#include "config/run_config.hpp"

namespace clfdtd {

bool shape_contains(const ObjectConfig& obj, const Vec3& p);
// A prism's cross-section: whether (u, w) lies in the polygon (boundary included; its area is
// config's polygon_area).
bool polygon_contains(const std::vector<std::array<double, 2>>& v, double u, double w);
double shape_volume(const ObjectConfig& obj);  // analytic volume, m^3 (for tests and reports)

}  // namespace clfdtd
