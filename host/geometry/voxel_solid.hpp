// Voxels as solids (object.*.shape = voxels, docs/MODEL_KEYS.md): a block of labelled boxes read
// from a file (a CT scan, a soil model, a phantom), and one label's voxels as one object's solid.
// A point is held where a voxel of that label holds it, its faces included (within 1e-9 of the
// block's size or position, in voxels), as a box's faces are; the voxels need not line up with the grid, each field sample
// takes the label of the voxel it lies in.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "geometry/solid.hpp"

namespace clfdtd {

struct VoxelGrid {
  std::array<int, 3> cells{};   // voxels along x, y, z
  Point3 origin{};              // the low corner of voxel (0, 0, 0), in the file's units
  Point3 spacing{};             // one voxel's edges, in the file's units
  std::vector<std::int32_t> labels;  // voxel (i, j, k) at i + nx (j + ny k): x fastest, as VTK
  std::int32_t at(int i, int j, int k) const {
    return labels[static_cast<std::size_t>(i) +
                  static_cast<std::size_t>(cells[0]) *
                      (static_cast<std::size_t>(j) + static_cast<std::size_t>(cells[1]) * k)];
  }
};

class VoxelSolid : public Solid {
public:
  // One label's voxels of `grid` (shared by the objects of one file), placed: voxel (0, 0, 0)'s
  // low corner at `origin`, voxels `spacing` long (m).
  VoxelSolid(std::shared_ptr<const VoxelGrid> grid, std::int32_t label, const Point3& origin,
             const Point3& spacing);
  bool contains(const Point3& p) const override;
  const Point3& lo() const override { return lo_; }
  const Point3& hi() const override { return hi_; }
  double volume() const override;
  std::size_t voxel_count() const { return count_; }  // voxels of the label

private:
  std::shared_ptr<const VoxelGrid> grid_;
  std::int32_t label_;
  Point3 origin_{}, spacing_{};
  std::array<int, 3> first_{}, last_{};  // the label's voxels lie in [first, last] per axis
  Point3 lo_{}, hi_{};
  std::size_t count_ = 0;
};

}  // namespace clfdtd
