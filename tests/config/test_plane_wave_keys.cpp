// [source.<name>] type = plane_wave: the keys it needs and refuses, read from a model file.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "config/load_config.hpp"
#include "errors.hpp"

using namespace clfdtd;

namespace {

const std::string kGrid =
    "[grid]\nsize = 0.1 0.1 0.1\ncell_size = 0.005\n[time]\nsteps = 10\n";

// Loads kGrid + `source` (and `grid` in place of kGrid's where given) from a scratch file.
RunConfig load(const std::string& source, const std::string& grid = kGrid) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("clfdtd_pw_" + std::to_string(getpid()) + ".ini"))
                               .string();
  {
    std::ofstream out(path);
    out << grid << source;
  }
  struct Remove {
    std::string p;
    ~Remove() { std::filesystem::remove(p); }
  } remove{path};
  return load_config(path, {});
}

std::string error_of(const std::string& source, const std::string& grid = kGrid) {
  try {
    load(source, grid);
  } catch (const ConfigError& e) {
    return e.what();
  }
  FAIL("no ConfigError");
  return "";
}

const std::string kWave =
    "[source.pw]\ntype = plane_wave\naxis = z\nposition = 0.05 0.05 0.05\nfrequency = 3e9\n";

}  // namespace

TEST_CASE("plane_wave: read into plane_waves with its direction and box") {
  const RunConfig cfg = load(kWave + "direction = -y\nsize = 0.04 0.05 0.06\namplitude = 2\n");
  CHECK(cfg.sources.empty());
  REQUIRE(cfg.plane_waves.size() == 1);
  const SourceConfig& s = cfg.plane_waves.front();
  CHECK(s.kind == SourceKind::PlaneWave);
  CHECK(s.axis == Axis::Z);
  CHECK(s.direction_axis == 1);
  CHECK(s.direction_sign == -1);
  REQUIRE(s.size_m);
  CHECK((*s.size_m)[2] == doctest::Approx(0.06));
  CHECK(s.amplitude == 2);
}

TEST_CASE("plane_wave: what it needs and what it refuses") {
  CHECK(error_of(kWave + "size = 0.04 0.04 0.04\n").find("source.pw.direction") != std::string::npos);
  CHECK(error_of(kWave + "direction = +x\n").find("source.pw.size") != std::string::npos);
  const std::string along = error_of(kWave + "direction = -z\nsize = 0.04 0.04 0.04\n");
  CHECK(along.find("a direction across the wave's E") != std::string::npos);
  CHECK(error_of(kWave + "direction = +x\nsize = 0.04 0.04 0.04\nresistance = 50\n")
            .find("no resistance unless type = port") != std::string::npos);
  // direction belongs to plane waves only
  CHECK(error_of("[source.d]\ntype = dipole\nposition = 0.05 0.05 0.05\nfrequency = 3e9\n"
                 "direction = +x\n")
            .find("no direction unless type = plane_wave") != std::string::npos);
  // 2D: two extents, E along z (tm) or in the plane (te), travelling in the plane; not in a
  // wave model or a cylindrical one
  const std::string two_d = "[grid]\nsize = 0.1 0.1\ncell_size = 0.005\n[time]\nsteps = 10\n";
  const std::string wave2d = "[source.pw]\ntype = plane_wave\nposition = 0.05 0.05\nfrequency = 3e9\n";
  const RunConfig ok = load(wave2d + "axis = z\ndirection = -y\nsize = 0.04 0.06\n", two_d);
  REQUIRE(ok.plane_waves.size() == 1);
  CHECK((*ok.plane_waves[0].size_m)[1] == doctest::Approx(0.06));
  CHECK(error_of(wave2d + "axis = z\ndirection = +x\nsize = 0.04 0.04 0\n", two_d)
            .find("source.pw.size") != std::string::npos);
  CHECK(error_of(wave2d + "axis = z\ndirection = +x\nsize = 0.04 0.12\n", two_d)
            .find("a box about the position inside the domain [0, 0.1] x [0, 0.1] m") != std::string::npos);
  const std::string wave_eq = "[grid]\nsize = 0.1 0.1\ncell_size = 0.005\nequation = wave\n[time]\nsteps = 10\n";
  CHECK(error_of(wave2d + "axis = z\ndirection = +x\nsize = 0.04 0.04\n", wave_eq)
            .find("plane_wave in a 3D or a 2D Yee model") != std::string::npos);
  const std::string cyl = "[grid]\ncoordinates = cylindrical\nsize = 0.1 0.1\ncell_size = 0.005\n"
                          "[time]\nsteps = 10\n";
  CHECK(error_of("[source.pw]\ntype = plane_wave\naxis = z\nposition = 0.05 0 0.05\nfrequency = 3e9\n"
                 "direction = +x\nsize = 0.04 0.04\n", cyl)
            .find("plane_wave in a 3D or a 2D Yee model") != std::string::npos);
}

TEST_CASE("plane_wave: an oblique direction as a vector; a vector along an axis is that axis") {
  const std::string box = "size = 0.04 0.04 0.04\n";
  const RunConfig ob = load(kWave + "direction = 3, 4, 0\n" + box);
  REQUIRE(ob.plane_waves.front().direction_vector);
  const Vec3 k = *ob.plane_waves.front().direction_vector;
  CHECK(k.x == doctest::Approx(0.6));
  CHECK(k.y == doctest::Approx(0.8));
  CHECK(k.z == 0);
  const RunConfig axis = load(kWave + "direction = 0 -2 0\n" + box);
  CHECK_FALSE(axis.plane_waves.front().direction_vector);
  CHECK(axis.plane_waves.front().direction_axis == 1);
  CHECK(axis.plane_waves.front().direction_sign == -1);
  CHECK(load(kWave + "direction = +X\n" + box).plane_waves.front().direction_axis == 0);
  // Components below 1e-6 of the length are zero: the axis; the length does not matter.
  const RunConfig near = load(kWave + "direction = -1 1e-9 0\n" + box);
  CHECK_FALSE(near.plane_waves.front().direction_vector);
  CHECK(near.plane_waves.front().direction_axis == 0);
  CHECK(near.plane_waves.front().direction_sign == -1);
  const RunConfig tiny = load(kWave + "direction = 1e-10 1e-10 0\n" + box);
  REQUIRE(tiny.plane_waves.front().direction_vector);
  CHECK(tiny.plane_waves.front().direction_vector->x == doctest::Approx(std::sqrt(0.5)));
  CHECK(error_of(kWave + "direction = 0 0 0\n" + box).find("not of length 0") != std::string::npos);
  CHECK(error_of(kWave + "direction = 1 1\n" + box).find("or a vector x y z") != std::string::npos);
  CHECK(error_of(kWave + "direction = 1 one 0\n" + box).find("or a vector x y z") != std::string::npos);
  CHECK(error_of(kWave + "direction = +w\n" + box).find("or a vector x y z") != std::string::npos);
  CHECK(error_of(kWave + "direction = 0 0 5\n" + box).find("a direction across the wave's E") !=
        std::string::npos);
  // 2D: two numbers, in the plane
  const std::string two_d = "[grid]\nsize = 0.1 0.1\ncell_size = 0.005\n[time]\nsteps = 10\n";
  const std::string wave2d = "[source.pw]\ntype = plane_wave\nposition = 0.05 0.05\nfrequency = 3e9\n";
  const RunConfig ok = load(wave2d + "axis = z\ndirection = 1 -1\nsize = 0.04 0.06\n", two_d);
  REQUIRE(ok.plane_waves.front().direction_vector);
  CHECK(ok.plane_waves.front().direction_vector->y == doctest::Approx(-std::sqrt(0.5)));
  CHECK(error_of(wave2d + "axis = z\ndirection = 1 1 1\nsize = 0.04 0.06\n", two_d)
            .find("or a vector x y in the plane") != std::string::npos);
}
