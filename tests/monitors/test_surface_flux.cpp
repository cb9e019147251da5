// surface_flux: 1/2 Re sum (E x conj H) . n dA over the points of the surface, per frequency.
#include <doctest/doctest.h>

#include <cmath>

#include "model/grid_geometry.hpp"
#include "monitors/surface_fields.hpp"
#include "surface_helpers.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

// A plane wave travelling along +axis `dir` with E along `pol` (|E| = e0 V/m s), in the
// exp(+i w t) phasor convention of the monitors' transform: exp(-i k r) along the travel.
FieldAt plane_wave(double f, int dir, int pol, std::complex<double> e0) {
  return [=](const Vec3& r, CVec3& e, CVec3& h) {
    const double k = 2 * M_PI * f / kC0;
    const std::complex<double> phase = e0 * std::exp(std::complex<double>(0, -k * r[dir]));
    e = {};
    h = {};
    e[pol] = phase;
    // H = (k_hat x E) / eta0
    const int hc = 3 - dir - pol;
    const int sign = ((dir + 1) % 3 == pol) ? 1 : -1;  // e_dir x e_pol = sign e_hc
    h[hc] = static_cast<double>(sign) * phase / kEta0;
  };
}

}  // namespace

TEST_CASE("surface_flux: a plane wave through a plane is |E|^2 / (2 eta0) times its area") {
  const std::array<double, 3> d{0.01, 0.02, 0.015};
  const std::complex<double> e0(3.0, -4.0);  // |E| = 5
  const std::vector<double> freqs{1e9, 3e9};
  for (int dir = 0; dir < 3; ++dir)
    for (int pol : {(dir + 1) % 3, (dir + 2) % 3}) {
      CAPTURE(dir);
      CAPTURE(pol);
      std::array<int, 3> lo{2, 3, 4}, hi{12, 9, 14};
      const std::vector<MonitorFace> plane{face_of(dir, 5, +1, lo, hi)};
      const SurfaceFields s = sample_surface(plane, d, freqs,
                                             [&](double f) { return plane_wave(f, dir, pol, e0); });
      const int b = (dir + 1) % 3, c = (dir + 2) % 3;
      const double area = (hi[b] - lo[b]) * d[b] * (hi[c] - lo[c]) * d[c];
      const std::vector<double> flux = surface_flux(s);
      REQUIRE(flux.size() == freqs.size());
      for (double p : flux) CHECK(p == doctest::Approx(25.0 / (2 * kEta0) * area).epsilon(1e-12));

      // The same plane with the normal along -axis: the flux changes sign.
      const std::vector<MonitorFace> back{face_of(dir, 5, -1, lo, hi)};
      const SurfaceFields sb = sample_surface(back, d, freqs,
                                              [&](double f) { return plane_wave(f, dir, pol, e0); });
      for (double p : surface_flux(sb))
        CHECK(p == doctest::Approx(-25.0 / (2 * kEta0) * area).epsilon(1e-12));
    }
}

TEST_CASE("surface_flux: a plane wave through a closed box nets zero, each face's outflow cancelled") {
  const std::array<double, 3> d{0.01, 0.01, 0.01};
  const SurfaceFields s = sample_surface(box_faces({1, 2, 3}, {9, 8, 11}), d, {2e9},
                                         [&](double f) { return plane_wave(f, 2, 0, 1.0); });
  const double one_face = 1.0 / (2 * kEta0) * 8 * 6 * d[0] * d[1];
  CHECK(std::abs(surface_flux(s)[0]) < 1e-12 * one_face);
  // Without the low z face (the inflow), the outflow through the high one remains.
  SurfaceFields open = s;
  std::vector<SurfacePoint> kept;
  std::vector<CVec3> ke, kh;
  for (std::size_t p = 0; p < s.points.size(); ++p)
    if (s.points[p].face != 4) {
      kept.push_back(s.points[p]);
      ke.push_back(s.e[0][p]);
      kh.push_back(s.h[0][p]);
    }
  open.points = kept;
  open.e = {ke};
  open.h = {kh};
  CHECK(surface_flux(open)[0] == doctest::Approx(one_face).epsilon(1e-12));
}

TEST_CASE("surface_flux: fields not one per point and frequency are refused") {
  SurfaceFields s = sample_surface(box_faces({0, 0, 0}, {2, 2, 2}), {0.1, 0.1, 0.1}, {1e9},
                                   [&](double f) { return plane_wave(f, 0, 1, 1.0); });
  s.h[0].pop_back();
  CHECK_THROWS_WITH_AS(surface_flux(s), doctest::Contains("one entry per point"),
                       std::invalid_argument);
}
