// Voxel files and one label's voxels as a solid: placement from the file's extent, origin and
// spacing; faces inclusive; what a bad file is told.
#include <doctest/doctest.h>

#include <filesystem>
#include <memory>

#include "geometry/voxel_file.hpp"
#include "geometry/voxel_files.hpp"
#include "geometry/voxel_solid.hpp"

using namespace clfdtd;

namespace {

std::string temp_path(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "clfdtd_test_voxels";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

std::string error_of(const std::string& path) {
  try {
    read_voxel_file(path, 1000);
  } catch (const VoxelFileError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("one label's voxels hold their closed boxes and nothing else") {
  auto grid = std::make_shared<VoxelGrid>();
  grid->cells = {3, 2, 2};
  grid->labels = {0, 1, 0,  //
                  1, 1, 0,  //
                  0, 0, 0,  //
                  0, 2, 0};
  const VoxelSolid one(grid, 1, {1.0, 2.0, 3.0}, {0.5, 0.25, 1.0});
  CHECK(one.voxel_count() == 3);
  CHECK(one.volume() == doctest::Approx(3 * 0.5 * 0.25 * 1.0));
  CHECK(one.lo() == Point3{1.0, 2.0, 3.0});
  CHECK(one.hi() == Point3{2.0, 2.5, 4.0});
  CHECK(one.contains({1.75, 2.1, 3.5}));   // voxel (1, 0, 0)
  CHECK(one.contains({1.25, 2.4, 3.5}));   // voxel (0, 1, 0)
  CHECK_FALSE(one.contains({1.25, 2.1, 3.5}));  // voxel (0, 0, 0): label 0
  CHECK(one.contains({1.5, 2.25, 3.5}));   // the corner the three share
  CHECK(one.contains({2.0, 2.1, 4.0}));    // the outer corner of (1, 0, 0)
  CHECK_FALSE(one.contains({2.0 + 1e-6, 2.1, 3.5}));
  CHECK_FALSE(one.contains({1.75, 2.1, 4.01}));  // above: (1, 0, 1) is label 0
  const VoxelSolid two(grid, 2, {0, 0, 0}, {1, 1, 1});
  CHECK(two.contains({1.5, 1.5, 1.5}));
  CHECK(two.contains({1.0, 1.0, 1.0}));    // a corner of it, shared with label-0 voxels
  CHECK_FALSE(two.contains({0.5, 1.5, 1.5}));
  const VoxelSolid none(grid, 9, {0, 0, 0}, {1, 1, 1});
  CHECK(none.voxel_count() == 0);
  CHECK_FALSE(none.contains({0.5, 0.5, 0.5}));
}

TEST_CASE("voxel files: extent, origin and spacing place the voxels; x runs fastest") {
  if (!voxel_files_readable()) {
    MESSAGE("this build reads no voxel files (no VTK): skipped");
    return;
  }
  const std::string path = temp_path("block.vti");
  std::vector<double> labels(4 * 3 * 2);
  for (std::size_t v = 0; v < labels.size(); ++v) labels[v] = static_cast<double>(v);
  test::write_voxel_vti(path, {4, 3, 2}, {0.5, -1, 2}, {0.1, 0.2, 0.3}, labels, "UInt8", {2, 0, 1});
  const VoxelGrid g = read_voxel_file(path, 1000);
  CHECK(g.cells == std::array<int, 3>{4, 3, 2});
  CHECK(g.origin[0] == doctest::Approx(0.7));  // origin + extent start x spacing
  CHECK(g.origin[2] == doctest::Approx(2.3));
  CHECK(g.spacing[1] == doctest::Approx(0.2));
  CHECK(g.at(1, 0, 0) == 1);
  CHECK(g.at(0, 1, 0) == 4);
  CHECK(g.at(0, 0, 1) == 12);
  CHECK(error_of(temp_path("none.vti")).find("no such file") != std::string::npos);
  const std::string big = temp_path("big.vti");
  test::write_voxel_vti(big, {20, 10, 10}, {0, 0, 0}, {1, 1, 1}, std::vector<double>(2000, 1.0));
  CHECK(error_of(big).find("at most 1000 voxels; it has 20 x 10 x 10 = 2000") != std::string::npos);
  const std::string frac = temp_path("frac.vti");
  test::write_voxel_vti(frac, {2, 1, 1}, {0, 0, 0}, {1, 1, 1}, {1.0, 2.5}, "Float64");
  CHECK(error_of(frac).find("voxel (1, 0, 0) holds 2.5") != std::string::npos);
  // Fewer values than voxels (VTK's reader would crash on it): counted first.
  const std::string short_ascii = temp_path("short.vti");
  test::write_voxel_vti(short_ascii, {2, 3, 4}, {0, 0, 0}, {1, 1, 1}, std::vector<double>(20, 1.0));
  CHECK(error_of(short_ascii).find("of 24 values (one a voxel); it holds 20") != std::string::npos);
  // An extent whose product does not fit 64 bits: refused, not wrapped.
  const std::string huge = temp_path("huge.vti");
  test::write_voxel_vti(huge, {2097152, 2097152, 4194304}, {0, 0, 0}, {1, 1, 1}, {});
  CHECK(error_of(huge).find("at most 1000 voxels") != std::string::npos);
  const std::string cut = temp_path("cut.vti");
  test::write_voxel_vti(cut, {2, 1, 1}, {0, 0, 0}, {1, 1, 1}, {1.0, 2.0}, "Int32", {0, 0, 0}, false);
  CHECK(error_of(cut).find("ending in </VTKFile>") != std::string::npos);
}
