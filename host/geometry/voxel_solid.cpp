// One label's voxels as a solid (voxel_solid.hpp).
#include "geometry/voxel_solid.hpp"

#include <algorithm>
#include <cmath>

namespace clfdtd {

namespace {
constexpr double kRelTol = 1e-9;
}

VoxelSolid::VoxelSolid(std::shared_ptr<const VoxelGrid> grid, std::int32_t label,
                       const Point3& origin, const Point3& spacing)
    : grid_(std::move(grid)), label_(label), origin_(origin), spacing_(spacing) {
  const VoxelGrid& g = *grid_;
  first_ = g.cells;
  last_ = {-1, -1, -1};
  for (int k = 0; k < g.cells[2]; ++k)
    for (int j = 0; j < g.cells[1]; ++j)
      for (int i = 0; i < g.cells[0]; ++i) {
        if (g.at(i, j, k) != label_) continue;
        ++count_;
        const int ijk[3] = {i, j, k};
        for (int a = 0; a < 3; ++a) {
          first_[a] = std::min(first_[a], ijk[a]);
          last_[a] = std::max(last_[a], ijk[a]);
        }
      }
  for (int a = 0; a < 3; ++a) {
    lo_[a] = count_ ? origin_[a] + first_[a] * spacing_[a] : origin_[a];
    hi_[a] = count_ ? origin_[a] + (last_[a] + 1) * spacing_[a] : origin_[a];
  }
}

bool VoxelSolid::contains(const Point3& p) const {
  if (count_ == 0) return false;
  const VoxelGrid& g = *grid_;
  // Per axis the one or two voxels whose closed extent holds p (two on a face between them).
  int from[3], to[3];
  for (int a = 0; a < 3; ++a) {
    const double u = (p[a] - origin_[a]) / spacing_[a];
    const double tol = kRelTol * std::max({static_cast<double>(g.cells[a]), std::fabs(u),
                                           std::fabs(origin_[a]) / spacing_[a]});
    const double f = std::floor(u - tol), l = std::floor(u + tol);
    if (l < first_[a] - 1 || f > last_[a] + 1) return false;
    // u just past a face belongs to the voxel below as well: floor(u - tol) reaches it.
    from[a] = static_cast<int>(std::max<double>(f, first_[a]));
    to[a] = static_cast<int>(std::min<double>(l, last_[a]));
    if (from[a] > to[a]) return false;
  }
  for (int k = from[2]; k <= to[2]; ++k)
    for (int j = from[1]; j <= to[1]; ++j)
      for (int i = from[0]; i <= to[0]; ++i)
        if (g.at(i, j, k) == label_) return true;
  return false;
}

double VoxelSolid::volume() const {
  return static_cast<double>(count_) * spacing_[0] * spacing_[1] * spacing_[2];
}

}  // namespace clfdtd
