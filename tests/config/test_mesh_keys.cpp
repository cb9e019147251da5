// object.*.shape = mesh: the file read while the model loads, scaled and placed; the mistakes a
// CAD export makes (a hole, millimetres taken for metres, a missing file) refused with where.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "config/load_config.hpp"
#include "errors.hpp"
#include "geometry/mesh_builders.hpp"
#include "geometry/mesh_file.hpp"
#include "geometry/voxel_file.hpp"
#include "geometry/voxel_files.hpp"
#include "geometry/triangle_solid.hpp"

using namespace clfdtd;

namespace {

std::string temp_path(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "clfdtd_test_mesh_keys";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

const std::string kHead =
    "[grid]\nsize = 0.4 0.4 0.4\ncell_size = 0.01\n[time]\nsteps = 10\n"
    "[material.d]\neps_r = 4\n"
    "[source.s]\nposition = 0.3 0.3 0.3\nfrequency = 1e9\n";

std::string error_of(const std::string& text, const std::vector<std::string>& args = {}) {
  try {
    load_config_text(text, "c.ini", args);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a mesh object: the file scaled to metres, placed by its bounds' centre where given") {
  if (!mesh_files_readable()) {
    MESSAGE("this build reads no mesh files (no VTK): skipped");
    return;
  }
  // A part drawn in millimetres, 100 x 50 x 20 mm from (10, 20, 30) mm.
  const std::string stl = temp_path("part_mm.stl");
  test::write_stl(stl, test::box_mesh({10, 20, 30}, {110, 70, 50}, 2), true);
  const std::string obj = "[object.part]\nshape = mesh\nfile = " + stl + "\nmaterial = d\n";
  const RunConfig a = load_config_text(kHead + obj + "scale = 1e-3\n", "c.ini", {});
  REQUIRE(a.objects.size() == 1);
  REQUIRE(a.objects[0].solid);
  const Solid& s = *a.objects[0].solid;
  CHECK(s.lo()[0] == doctest::Approx(0.01));
  CHECK(s.hi()[1] == doctest::Approx(0.07));
  CHECK(s.hi()[2] == doctest::Approx(0.05));
  CHECK(s.volume() == doctest::Approx(0.1 * 0.05 * 0.02));
  const RunConfig b = load_config_text(kHead + obj + "scale = 1e-3\ncenter = 0.2 0.2 0.2\n", "c.ini", {});
  CHECK(b.objects[0].solid->lo()[0] == doctest::Approx(0.15));
  CHECK(b.objects[0].solid->hi()[2] == doctest::Approx(0.21));
  // Turned a quarter about x (y-up to z-up): 100 x 20 x 50 mm, exactly.
  const RunConfig c =
      load_config_text(kHead + obj + "scale = 1e-3\ncenter = 0.2 0.2 0.2\nrotate = 90 0 0\n", "c.ini", {});
  CHECK(c.objects[0].solid->lo()[0] == doctest::Approx(0.15));
  CHECK(c.objects[0].solid->lo()[1] == doctest::Approx(0.19));
  CHECK(c.objects[0].solid->lo()[2] == doctest::Approx(0.175));
  CHECK(c.objects[0].solid->hi()[2] == doctest::Approx(0.225));
  CHECK(c.objects[0].solid->volume() == doctest::Approx(0.1 * 0.05 * 0.02));
  // A quarter about z without placing: (x, y) -> (-y, x).
  const RunConfig e = load_config_text(kHead + obj + "scale = 1e-3\nrotate = 0 0 -270\n", "c.ini",
                                       {"--object.part.center=0.2 0.2 0.2"});
  CHECK(e.objects[0].solid->hi()[0] - e.objects[0].solid->lo()[0] == doctest::Approx(0.05));
  CHECK(e.objects[0].solid->hi()[1] - e.objects[0].solid->lo()[1] == doctest::Approx(0.1));
  CHECK(error_of(kHead + obj + "rotate = 90 0\n").find("rotate") != std::string::npos);
  // The file's units taken for metres: 0.11 m .. 110 m reaches the domain, 10 .. 110 m does not.
  const std::string far = error_of(kHead + obj + "center = 100 0 0\n");
  CHECK(far.find("object.part.center") != std::string::npos);
  const std::string mm = error_of(kHead + "[object.part]\nshape = mesh\nfile = " + stl +
                                  "\nmaterial = d\n", {"--object.part.scale=2"});
  CHECK(mm.find("object.part.scale") != std::string::npos);
  CHECK(mm.find("times the domain") != std::string::npos);
  CHECK(mm.find("scale = 1e-3") != std::string::npos);
}

TEST_CASE("mesh objects: an open surface, a missing file, the wrong keys and models are refused") {
  const std::string stl = temp_path("holed.stl");
  TriangleMesh m = test::box_mesh({0.1, 0.1, 0.1}, {0.2, 0.2, 0.2}, 1);
  m.triangles.pop_back();
  test::write_stl(stl, m, false);
  const std::string holed = error_of(kHead + "[object.o]\nshape = mesh\nfile = " + stl + "\nmaterial = d\n");
  if (mesh_files_readable()) {
    CHECK(holed.find("'object.o.file'") != std::string::npos);
    CHECK(holed.find("3 open edges, the first from") != std::string::npos);
  } else {
    CHECK(holed.find("need VTK") != std::string::npos);
  }
  const std::string missing =
      error_of(kHead + "[object.o]\nshape = mesh\nfile = no/such.stl\nmaterial = d\n");
  CHECK(missing.find("c.ini:") == 0);
  CHECK(missing.find("no such file") != std::string::npos);
  CHECK(error_of(kHead + "[object.o]\nshape = mesh\nmaterial = d\n").find("required for a mesh") !=
        std::string::npos);
  CHECK(error_of(kHead + "[object.o]\nshape = box\ncenter = 0.2 0.2 0.2\nsize = 0.1 0.1 0.1\n"
                         "file = a.stl\nmaterial = d\n")
            .find("no file for a box") != std::string::npos);
  CHECK(error_of(kHead + "[object.o]\nshape = box\ncenter = 0.2 0.2 0.2\nsize = 0.1 0.1 0.1\n"
                         "scale = 2\nmaterial = d\n")
            .find("no scale for a box") != std::string::npos);
  const std::string two_d =
      "[grid]\nsize = 0.4 0.4\ncell_size = 0.01\n[time]\nsteps = 10\n[source.s]\nposition = 0.3 "
      "0.3\nfrequency = 1e9\n[object.o]\nshape = mesh\nfile = " + stl + "\nmaterial = vacuum\n";
  CHECK(error_of(two_d).find("mesh and voxels are not meaningful in 2D") != std::string::npos);
}

TEST_CASE("voxel objects: one file, one object per label, placed by the whole block") {
  if (!voxel_files_readable()) {
    MESSAGE("this build reads no voxel files (no VTK): skipped");
    return;
  }
  // 4 x 2 x 1 voxels of 10 mm: labels 1 1 0 3 / 0 0 3 3 (x fastest).
  const std::string vti = temp_path("soil.vti");
  test::write_voxel_vti(vti, {4, 2, 1}, {0, 0, 0}, {10, 10, 10}, {1, 1, 0, 3, 0, 0, 3, 3}, "Int16");
  const std::string objs = "[object.a]\nshape = voxels\nfile = " + vti +
                           "\nlabel = 1\nscale = 1e-3\ncenter = 0.2 0.2 0.2\nmaterial = d\n"
                           "[object.b]\nshape = voxels\nfile = " + vti +
                           "\nlabel = 3\nscale = 1e-3\ncenter = 0.2 0.2 0.2\nmaterial = pec\n";
  const RunConfig c = load_config_text(kHead + objs, "c.ini", {});
  REQUIRE(c.objects.size() == 2);
  // The block spans 0.18 .. 0.22 in x about the centre: label 1 is its first two voxels.
  CHECK(c.objects[0].solid->lo()[0] == doctest::Approx(0.18));
  CHECK(c.objects[0].solid->hi()[0] == doctest::Approx(0.20));
  CHECK(c.objects[1].solid->lo()[0] == doctest::Approx(0.20));
  CHECK(c.objects[1].solid->hi()[0] == doctest::Approx(0.22));
  CHECK(c.objects[1].solid->volume() == doctest::Approx(3e-6));
  const std::string missing = error_of(kHead + objs, {"--object.b.label=2"});
  CHECK(missing.find("'object.b.label'") != std::string::npos);
  CHECK(missing.find("labels found: 0 1 3") != std::string::npos);
  CHECK(error_of(kHead + objs, {"--object.a.rotate=90 0 0"}).find("no rotate for a voxels") !=
        std::string::npos);
  CHECK(error_of(kHead + "[object.a]\nshape = voxels\nfile = " + vti + "\nmaterial = d\n")
            .find("required for a voxels") != std::string::npos);
}
