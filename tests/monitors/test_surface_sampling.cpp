// sample_surface: transformed Yee samples of a linear field are interpolated to the face centres
// exactly (linear interpolation is exact for linear fields), on every face of a closed box and of
// a plane, with the wall rule for H on a face that lies on the outer wall.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>

#include "model/field_layout.hpp"
#include "model/monitor_build.hpp"
#include "monitors/surface_sampling.hpp"

using namespace clfdtd;

namespace {

GridGeometry small_grid() {
  GridGeometry g;
  g.n = {8, 9, 10};
  g.d = {1e-3, 2e-3, 1.5e-3};
  g.dt = 1e-12;
  return g;
}

// A different linear function of position per component, complex, scaled per frequency.
std::complex<double> linear_field(int comp, const Vec3& r, std::size_t f) {
  const double v = 1.0 + (comp + 1) * 100 * r.x - (comp + 2) * 70 * r.y + (3 - comp) * 50 * r.z;
  return v * std::complex<double>(1.0 + f, 0.5 * comp - 1.0 * f);
}

MonitorModel box_monitor(const GridGeometry& g, std::array<int, 3> lo, std::array<int, 3> hi,
                         bool plane_z) {
  MonitorModel m;
  m.name = "box";
  m.kind = MonitorKind::Flux;
  m.lo = lo;
  m.hi = hi;
  m.frequencies_hz = {1e9, 2e9};
  for (int a = 0; a < 3; ++a) {
    for (int side = 0; side < 2; ++side) {
      if (plane_z && (a != 2 || side == 1)) continue;
      MonitorFace f;
      f.axis = a;
      f.plane = side == 0 && !plane_z ? lo[a] : (plane_z ? lo[a] : hi[a]);
      f.normal = side == 0 && !plane_z ? -1 : 1;
      f.lo = lo;
      f.hi = hi;
      f.lo[a] = f.hi[a] = f.plane;
      f.on_wall = f.plane == 0 || f.plane == g.n[a];
      m.faces.push_back(f);
      for (const DftRegion& r : face_regions(f, g.n)) m.regions.push_back(r);
    }
  }
  return m;
}

// The transform as read_dft would give it if the field were linear_field at each Yee sample.
std::vector<std::complex<double>> linear_dft(const MonitorModel& m, const GridGeometry& g) {
  std::vector<std::complex<double>> out;
  for (const DftRegion& r : m.regions)
    for (int i = r.lo[0]; i < r.hi[0]; ++i)
      for (int j = r.lo[1]; j < r.hi[1]; ++j)
        for (int k = r.lo[2]; k < r.hi[2]; ++k) {
          const Vec3 pos = sample_position(r.component, {i, j, k}, g.d);
          for (std::size_t f = 0; f < m.frequencies_hz.size(); ++f)
            out.push_back(linear_field(static_cast<int>(r.component), pos, f));
        }
  return out;
}

}  // namespace

TEST_CASE("sample_surface: a closed box inside the grid reproduces linear fields at face centres") {
  const GridGeometry g = small_grid();
  const MonitorModel m = box_monitor(g, {2, 2, 3}, {6, 7, 8}, false);
  const SurfaceFields s = sample_surface(m, g, linear_dft(m, g));
  std::size_t expected = 0;
  for (const MonitorFace& f : m.faces) {
    std::size_t cells = 1;
    for (int a = 0; a < 3; ++a)
      if (a != f.axis) cells *= static_cast<std::size_t>(f.hi[a] - f.lo[a]);
    expected += cells;
  }
  REQUIRE(s.points.size() == expected);
  REQUIRE(s.e.size() == 2);
  for (std::size_t p = 0; p < s.points.size(); ++p) {
    const MonitorFace& face = s.faces[static_cast<std::size_t>(s.points[p].face)];
    CHECK(s.points[p].r_m[face.axis] == doctest::Approx(face.plane * g.d[face.axis]));
    CHECK(s.points[p].area_m2 > 0);
    for (std::size_t f = 0; f < 2; ++f)
      for (int c = 0; c < 3; ++c) {
        if (c == face.axis) {
          CHECK(s.e[f][p][c] == std::complex<double>(0.0));
          continue;
        }
        const auto want_e = linear_field(c, s.points[p].r_m, f);
        const auto want_h = linear_field(3 + c, s.points[p].r_m, f);
        CHECK(std::abs(s.e[f][p][c] - want_e) < 1e-9 * std::abs(want_e) + 1e-12);
        CHECK(std::abs(s.h[f][p][c] - want_h) < 1e-9 * std::abs(want_h) + 1e-12);
      }
  }
}

TEST_CASE("sample_surface allocates what the host memory check counts (surface_fields_bytes)") {
  const GridGeometry g = small_grid();
  for (bool plane : {false, true}) {
    CAPTURE(plane);
    const MonitorModel m = plane ? box_monitor(g, {1, 1, 4}, {7, 8, 4}, true)
                                 : box_monitor(g, {2, 2, 3}, {6, 7, 8}, false);
    const SurfaceFields s = sample_surface(m, g, linear_dft(m, g));
    CHECK(surface_point_count(m) == s.points.size());
    std::size_t bytes = s.points.capacity() * sizeof(SurfacePoint) +
                        (s.e.capacity() + s.h.capacity()) * sizeof(s.e[0]);
    for (std::size_t f = 0; f < s.e.size(); ++f)
      bytes += (s.e[f].capacity() + s.h[f].capacity()) * sizeof(CVec3);
    CHECK(surface_fields_bytes(m) == bytes);
  }
}

TEST_CASE("sample_surface: on the outer wall H is its sample inside the grid") {
  const GridGeometry g = small_grid();
  // A z plane on the low wall: H's samples at k = -1 do not exist, those at k = 0 are used.
  const MonitorModel m = box_monitor(g, {1, 1, 0}, {7, 8, 0}, true);
  const auto dft = linear_dft(m, g);
  const SurfaceFields s = sample_surface(m, g, dft);
  REQUIRE(s.points.size() == 6u * 7u);
  for (std::size_t p = 0; p < s.points.size(); ++p) {
    Vec3 inside = s.points[p].r_m;
    inside.z = 0.5 * g.d[2];
    for (int c = 0; c < 2; ++c) {
      const auto want = linear_field(3 + c, inside, 0);
      CHECK(std::abs(s.h[0][p][c] - want) < 1e-9 * std::abs(want));
    }
  }
}

TEST_CASE("sample_surface: refuses a transform of the wrong size and regions off the rules") {
  const GridGeometry g = small_grid();
  MonitorModel m = box_monitor(g, {2, 2, 3}, {6, 7, 8}, false);
  auto dft = linear_dft(m, g);
  dft.pop_back();
  CHECK_THROWS_AS(sample_surface(m, g, dft), std::invalid_argument);
  dft.push_back(0.0);
  std::swap(m.regions[0], m.regions[1]);
  CHECK_THROWS_AS(sample_surface(m, g, dft), std::logic_error);
}
