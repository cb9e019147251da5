// The one place for field index math (mirrored by cl_kernels/fdtd_common.h; tests check both agree).
// Patent step 1-2: every array is contiguous with z fastest, phi[(i*Ny + j)*Nzp + k], where the z
// extent is padded to Nzp = 4*nz4 so that 4 consecutive z cells form one float4 lane.
// Yee positions of the values stored at cell (i,j,k), in units of the cell size:
//   Ex (i+1/2, j, k)   Ey (i, j+1/2, k)   Ez (i, j, k+1/2)
//   Hx (i, j+1/2, k+1/2)   Hy (i+1/2, j, k+1/2)   Hz (i+1/2, j+1/2, k)
// The outer wall is PEC: tangential E on the low planes (index 0) is held at zero by the PEC
// material id, and values past the high end (index n) are zero. Padding cells (k >= nz) are PEC.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

#include "config/run_config.hpp"

namespace clfdtd {

struct FieldLayout {
  int nx = 0, ny = 0, nz = 0;  // cells
  int nz4 = 0;                 // float4 lanes along z: ceil(nz / 4); 0 for a plane
  // 2D (the x-y plane, nz = 1): rows along y padded to nyp = 4*ny4, float4 lanes of 4
  // consecutive y cells, phi[i*nyp + j]; padding cells (j >= ny) are PEC.
  bool plane = false;
  int ny4 = 0;                 // plane only: float4 lanes along y, ceil(ny / 4)

  FieldLayout() = default;
  FieldLayout(int nx_, int ny_, int nz_) : nx(nx_), ny(ny_), nz(nz_), nz4((nz_ + 3) / 4) {}
  static FieldLayout xy_plane(int nx_, int ny_) {
    FieldLayout L;
    L.nx = nx_;
    L.ny = ny_;
    L.nz = 1;
    L.plane = true;
    L.ny4 = (ny_ + 3) / 4;
    return L;
  }

  std::size_t nzp() const { return static_cast<std::size_t>(nz4) * 4; }  // 3D only
  std::size_t nyp() const { return static_cast<std::size_t>(ny4) * 4; }  // plane only
  std::size_t cells() const {  // padded
    return plane ? static_cast<std::size_t>(nx) * nyp()
                 : static_cast<std::size_t>(nx) * ny * nzp();
  }
  std::size_t index(int i, int j, int k) const {  // plane: k is 0
    return plane ? static_cast<std::size_t>(i) * nyp() + j
                 : (static_cast<std::size_t>(i) * ny + j) * nzp() + k;
  }
};

// Offset of a component's sample point inside its cell, in cells (0 or 0.5 per axis).
inline std::array<double, 3> yee_offset(Component c) {
  std::array<double, 3> o{0, 0, 0};
  const int a = component_axis(c);
  if (is_electric(c)) {
    o[a] = 0.5;
  } else {
    o[(a + 1) % 3] = 0.5;
    o[(a + 2) % 3] = 0.5;
  }
  return o;
}

// p / d in cells, taken as the nearest multiple of half a cell where it is within rounding of
// one: a point given halfway between two samples (0.295 m in 5 mm cells, 58.99999999999999 cells
// in doubles, against 0.28 m's 56.00000000000001) then picks the same side wherever it lies.
inline double cells_of(double p, double d) {
  const double q = p / d;
  const double h = std::round(2 * q);
  return std::abs(2 * q - h) <= 1e-9 * std::max(1.0, std::abs(2 * q)) ? h / 2 : q;
}

// The grid sample of component c nearest to a point (metres), clamped into the grid; halfway
// between two, the higher one. Along a periodic axis (boundary.periodic) sample n is sample 0.
inline std::array<int, 3> nearest_sample(Component c, const Vec3& p, const std::array<int, 3>& n,
                                         const std::array<double, 3>& d,
                                         const std::array<bool, 3>& periodic = {}) {
  const auto o = yee_offset(c);
  std::array<int, 3> idx{};
  for (int a = 0; a < 3; ++a) {
    long v = std::lround(cells_of(p[a], d[a]) - o[a]);
    if (periodic[static_cast<std::size_t>(a)] && v == n[a]) v = 0;
    if (v < 0) v = 0;
    if (v > n[a] - 1) v = n[a] - 1;
    idx[a] = static_cast<int>(v);
  }
  return idx;
}

// Position (metres) of component c's sample at cell (i,j,k).
inline Vec3 sample_position(Component c, const std::array<int, 3>& ijk, const std::array<double, 3>& d) {
  const auto o = yee_offset(c);
  return Vec3{(ijk[0] + o[0]) * d[0], (ijk[1] + o[1]) * d[1], (ijk[2] + o[2]) * d[2]};
}

}  // namespace clfdtd
