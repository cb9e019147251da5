// near_to_far on the exact near fields of Hertzian dipoles sampled at the cell-face centres of a
// closed box: directivity, pattern and radiated power against the analytic answers, in free space
// and over PEC walls (image theory).
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "dipole_fields.hpp"
#include "monitors/near_to_far.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kF = kC0;  // 1 Hz * c: the wavelength is 1 m
constexpr double kLambda = 1.0;

// The box of nodes lo .. lo + cells (a cube), cell size d, around the given dipoles.
SurfaceFields dipole_box(int cells, double d, const std::vector<Dipole>& dipoles,
                         std::array<int, 3> lo = {3, 3, 3}) {
  const std::array<int, 3> hi{lo[0] + cells, lo[1] + cells, lo[2] + cells};
  return sample_surface(box_faces(lo, hi), {d, d, d}, {kF},
                        [&](double f) { return dipole_field(f, dipoles); });
}

Vec3 box_centre(int cells, double d, std::array<int, 3> lo = {3, 3, 3}) {
  return Vec3{(lo[0] + cells / 2.0) * d, (lo[1] + cells / 2.0) * d, (lo[2] + cells / 2.0) * d};
}

Vec3 direction(double theta_deg, double phi_deg) {
  const double th = theta_deg * M_PI / 180, ph = phi_deg * M_PI / 180;
  return Vec3{std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th)};
}

// Every included direction where the expected pattern is above -20 dB (relative to its peak)
// agrees within tol_db; returns the worst difference seen.
double check_pattern(const FarFieldPattern& pat, std::size_t f,
                     const std::function<double(const Vec3&)>& expected_dbi, double tol_db) {
  const std::size_t np = pat.phi_deg.size();
  double peak = -1e300;
  for (std::size_t t = 0; t < pat.theta_deg.size(); ++t)
    for (std::size_t p = 0; p < np; ++p)
      if (pat.included[t * np + p])
        peak = std::max(peak, expected_dbi(direction(pat.theta_deg[t], pat.phi_deg[p])));
  double worst = 0;
  int checked = 0;
  for (std::size_t t = 0; t < pat.theta_deg.size(); ++t)
    for (std::size_t p = 0; p < np; ++p) {
      if (!pat.included[t * np + p]) continue;
      const double want = expected_dbi(direction(pat.theta_deg[t], pat.phi_deg[p]));
      if (want < peak - 20) continue;
      const double got = pat.directivity_dbi[f][t * np + p];
      worst = std::max(worst, std::abs(got - want));
      ++checked;
      if (std::abs(got - want) > tol_db) {
        CAPTURE(pat.theta_deg[t]);
        CAPTURE(pat.phi_deg[p]);
        CAPTURE(got);
        CAPTURE(want);
        FAIL_CHECK("directivity off by more than " << tol_db << " dB");
        return worst;
      }
    }
  CHECK(checked > 0);
  return worst;
}

double dbi(double linear) { return 10 * std::log10(linear); }

// |got - want| <= tol, both values shown when not.
#define CHECK_WITHIN(got, want, tol)                 \
  do {                                               \
    const double got_ = (got), want_ = (want);       \
    CAPTURE(got_);                                   \
    CAPTURE(want_);                                  \
    CHECK(std::abs(got_ - want_) <= (tol));          \
  } while (0)

}  // namespace

TEST_CASE("near_to_far: a z dipole at the centre of a closed box, several cell sizes") {
  // cells per wavelength, cells per box side
  for (auto [per_lambda, side] : {std::pair{15, 16}, std::pair{20, 24}, std::pair{30, 30}}) {
    CAPTURE(per_lambda);
    CAPTURE(side);
    const double d = kLambda / per_lambda;
    const CVec3 p{0, 0, std::complex<double>(2e-9, 1e-9)};
    const SurfaceFields s = dipole_box(side, d, {{box_centre(side, d), p}});
    const FarFieldPattern pat = near_to_far(s, 5, 5);
    REQUIRE(pat.theta_deg.size() == 37);
    REQUIRE(pat.phi_deg.size() == 72);
    CHECK(pat.theta_deg.back() == 180.0);
    CHECK(pat.phi_deg.back() == 355.0);
    for (char inc : pat.included) CHECK(inc == 1);
    CHECK(pat.radiated_power[0] == doctest::Approx(dipole_power(kF, p)).epsilon(0.005));
    const std::size_t np = pat.phi_deg.size();
    for (std::size_t ph = 0; ph < np; ++ph)
      CHECK_WITHIN(pat.directivity_dbi[0][18 * np + ph], dbi(1.5), 0.02);
    check_pattern(pat, 0, [](const Vec3& u) { return dbi(1.5 * (1 - u.z * u.z)); }, 0.05);
  }
}

TEST_CASE("near_to_far: x and y dipoles: the pattern turns with the moment") {
  const int side = 24;
  const double d = kLambda / 20;
  for (int axis : {0, 1}) {
    CAPTURE(axis);
    CVec3 p{};
    p[axis] = 1e-9;
    const FarFieldPattern pat = near_to_far(dipole_box(side, d, {{box_centre(side, d), p}}), 5, 5);
    CHECK(pat.radiated_power[0] == doctest::Approx(dipole_power(kF, p)).epsilon(0.005));
    check_pattern(pat, 0, [axis](const Vec3& u) { return dbi(1.5 * (1 - u[axis] * u[axis])); }, 0.05);
    // The peak lies across the moment: on the z axis, and along the other horizontal axis.
    const std::size_t np = pat.phi_deg.size();
    CHECK_WITHIN(pat.directivity_dbi[0][0], dbi(1.5), 0.02);
    const std::size_t across = 18 * np + (axis == 0 ? 18 : 0);  // theta 90, phi 90 or 0
    CHECK_WITHIN(pat.directivity_dbi[0][across], dbi(1.5), 0.02);
  }
}

TEST_CASE("near_to_far: a dipole away from the box's centre has the same pattern (phase handling)") {
  // 30 cells per wavelength: the pattern's low parts (-17 dB) need them for 0.05 dB.
  const int side = 40;
  const double d = kLambda / 30;
  const Vec3 c = box_centre(side, d);
  const CVec3 p{0.3e-9, -0.5e-9, 0.8e-9};
  const Vec3 at{c.x + 0.31 * kLambda, c.y - 0.17 * kLambda, c.z + 0.23 * kLambda};
  const FarFieldPattern pat = near_to_far(dipole_box(side, d, {{at, p}}), 5, 5);
  CHECK(pat.radiated_power[0] == doctest::Approx(dipole_power(kF, p)).epsilon(0.005));
  const double p2 = 0.09 + 0.25 + 0.64;
  check_pattern(pat, 0,
                [&](const Vec3& u) {
                  const double up = u.x * 0.3 - u.y * 0.5 + u.z * 0.8;
                  return dbi(1.5 * (1 - up * up / p2));
                },
                0.05);
}

TEST_CASE("near_to_far: two dipoles a quarter wave apart in phase quadrature beam one way only") {
  // The one at +x lags by 90 degrees (exp(+i w t) phasor -i): their waves add toward +x and
  // cancel toward -x. With the transform's sign convention reversed the beam would point to -x.
  const int side = 30;
  const double d = kLambda / 30;
  const Vec3 c = box_centre(side, d);
  const std::vector<Dipole> pair{{{c.x - kLambda / 8, c.y, c.z}, {0, 0, 1e-9}},
                                 {{c.x + kLambda / 8, c.y, c.z}, {0, 0, std::complex<double>(0, -1e-9)}}};
  const FarFieldPattern pat = near_to_far(dipole_box(side, d, pair), 5, 5);
  auto intensity = [&](const Vec3& u) { return dipole_intensity(kF, pair, u); };
  const double power = integrate_sphere(intensity, 0, M_PI, 0, 2 * M_PI);
  CHECK(pat.radiated_power[0] == doctest::Approx(power).epsilon(0.005));
  check_pattern(pat, 0, [&](const Vec3& u) { return dbi(4 * M_PI * intensity(u) / power); }, 0.05);
  const std::size_t np = pat.phi_deg.size();
  CHECK(pat.directivity_dbi[0][18 * np + 0] > pat.directivity_dbi[0][18 * np + 36] + 30);
}

TEST_CASE("near_to_far: a vertical dipole at height h over a PEC wall: the half-space answer") {
  // The box stands on the wall z = 0 (its low z face on_wall); image theory: the field above
  // is the dipole's and its image's (same moment at -h): U = U0 4 cos^2(k h cos theta), and
  // D(theta) = 4 sin^2 theta cos^2(k h cos theta) / (2/3 + 2 sin a / a^3 - 2 cos a / a^2), a = 2 k h,
  // P = P0 (1 + 3 (sin a / a^3 - cos a / a^2)); for h -> 0, D(90) = 3 (4.77 dBi), P = 2 P0.
  const int side = 24;
  const double d = kLambda / 20;
  const double k = 2 * M_PI / kLambda;
  for (double h : {0.0, 0.1, 0.25, 0.4}) {
    CAPTURE(h);
    const std::array<int, 3> lo{2, 2, 0}, hi{2 + side, 2 + side, side};
    std::vector<MonitorFace> faces = box_faces(lo, hi);
    faces[4].on_wall = true;  // z low, plane 0
    const CVec3 p{0, 0, 1e-9};
    const double x = (lo[0] + side / 2.0) * d, y = (lo[1] + side / 2.0) * d;
    // A dipole exactly on the wall is its own image: one dipole of twice the moment.
    const std::vector<Dipole> with_image =
        h == 0 ? std::vector<Dipole>{{{x, y, 0}, {0, 0, 2e-9}}}
               : std::vector<Dipole>{{{x, y, h}, p}, {{x, y, -h}, p}};
    const SurfaceFields s = sample_surface(faces, {d, d, d}, {kF},
                                           [&](double f) { return dipole_field(f, with_image); });
    const FarFieldPattern pat = near_to_far(s, 5, 5);
    const double a = 2 * k * h;
    const double g = h == 0 ? 2.0 / 3 : 2 * std::sin(a) / (a * a * a) - 2 * std::cos(a) / (a * a);
    CHECK(pat.radiated_power[0] == doctest::Approx(dipole_power(kF, p) * (1 + 1.5 * g)).epsilon(0.005));
    const std::size_t np = pat.phi_deg.size();
    for (std::size_t t = 0; t < pat.theta_deg.size(); ++t)
      for (std::size_t ph = 0; ph < np; ++ph)
        CHECK(static_cast<bool>(pat.included[t * np + ph]) == (pat.theta_deg[t] <= 90));
    check_pattern(pat, 0,
                  [&](const Vec3& u) {
                    const double c = std::cos(k * h * u.z);
                    return dbi(4 * (1 - u.z * u.z) * c * c / (2.0 / 3 + g));
                  },
                  0.05);
    if (h == 0)
      CHECK_WITHIN(pat.directivity_dbi[0][18 * np], dbi(3), 0.02);
  }
}

TEST_CASE("near_to_far: a horizontal dipole in a PEC corner (two walls): images in each and both") {
  // Walls x = 0 and z = 0 (the box's low x and low z faces); the dipole along y at (hx, ., hz)
  // has images -p at (-hx, ., hz) and (hx, ., -hz) and +p at (-hx, ., -hz); only directions with
  // u_x >= 0 and u_z >= 0 are included.
  const int side = 20;
  const double d = kLambda / 20;
  const std::array<int, 3> lo{0, 2, 0}, hi{side, 2 + side, side};
  std::vector<MonitorFace> faces = box_faces(lo, hi);
  faces[0].on_wall = true;
  faces[4].on_wall = true;
  const double hx = 0.3, hz = 0.2, y = (lo[1] + side / 2.0) * d;
  const std::complex<double> m = 1e-9;
  const std::vector<Dipole> with_images{{{hx, y, hz}, {0, m, 0}},
                                        {{-hx, y, hz}, {0, -m, 0}},
                                        {{hx, y, -hz}, {0, -m, 0}},
                                        {{-hx, y, -hz}, {0, m, 0}}};
  const SurfaceFields s = sample_surface(faces, {d, d, d}, {kF},
                                         [&](double f) { return dipole_field(f, with_images); });
  const FarFieldPattern pat = near_to_far(s, 5, 5);
  auto intensity = [&](const Vec3& u) { return dipole_intensity(kF, with_images, u); };
  const double quarter = integrate_sphere(intensity, 0, M_PI / 2, -M_PI / 2, M_PI / 2);
  CHECK(pat.radiated_power[0] == doctest::Approx(quarter).epsilon(0.005));
  const std::size_t np = pat.phi_deg.size();
  for (std::size_t t = 0; t < pat.theta_deg.size(); ++t)
    for (std::size_t ph = 0; ph < np; ++ph) {
      const Vec3 u = direction(pat.theta_deg[t], pat.phi_deg[ph]);
      CHECK(static_cast<bool>(pat.included[t * np + ph]) == (u.x > -1e-9 && u.z > -1e-9));
    }
  check_pattern(pat, 0, [&](const Vec3& u) { return dbi(4 * M_PI * intensity(u) / quarter); }, 0.05);
}

TEST_CASE("near_to_far: grids, several frequencies, and what it refuses") {
  const int side = 16;
  const double d = kLambda / 20;
  const Vec3 c = box_centre(side, d);
  SurfaceFields s = sample_surface(box_faces({3, 3, 3}, {3 + side, 3 + side, 3 + side}), {d, d, d},
                                   {0.8 * kF, kF},
                                   [&](double f) { return dipole_field(f, {{c, {0, 0, 1e-9}}}); });
  const FarFieldPattern pat = near_to_far(s, 7, 50);
  REQUIRE(pat.theta_deg.size() == 26);  // 0 .. 175
  CHECK(pat.theta_deg.back() == doctest::Approx(175));
  REQUIRE(pat.phi_deg.size() == 8);     // 0 .. 350
  CHECK(pat.phi_deg.back() == doctest::Approx(350));
  REQUIRE(pat.directivity_dbi.size() == 2);
  for (std::size_t f = 0; f < 2; ++f) {
    CHECK(pat.radiated_power[f] ==
          doctest::Approx(dipole_power(s.frequencies_hz[f], {0, 0, 1e-9})).epsilon(0.005));
    check_pattern(pat, f, [](const Vec3& u) { return dbi(1.5 * (1 - u.z * u.z)); }, 0.05);
  }

  CHECK_THROWS_WITH_AS(near_to_far(s, 0, 5), doctest::Contains("theta_step"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(near_to_far(s, 5, 400), doctest::Contains("phi_step"), std::invalid_argument);
  SurfaceFields plates = s;
  plates.faces[4].on_wall = plates.faces[5].on_wall = true;
  CHECK_THROWS_WITH_AS(near_to_far(plates, 5, 5), doctest::Contains("both ends of axis z"),
                       std::invalid_argument);
  SurfaceFields moved = s;
  moved.points[7].r_m.x += 0.3 * d;
  CHECK_THROWS_WITH_AS(near_to_far(moved, 5, 5), doctest::Contains("not a cell-face centre"),
                       std::invalid_argument);
}

// Not a check: the time of the transform at the size the issue names, a 512^3 box (1.57e6
// points) with 37 x 72 directions. Run with `test_monitors -tc='*512*' --no-skip`.
TEST_CASE("near_to_far: time of a 512^3 box, 37 x 72 directions" * doctest::skip()) {
  const int side = 512;
  const double d = kLambda / 20;
  const Vec3 c = box_centre(side, d, {0, 0, 0});
  const auto t0 = std::chrono::steady_clock::now();
  const SurfaceFields s = sample_surface(box_faces({0, 0, 0}, {side, side, side}), {d, d, d}, {kF},
                                         [&](double f) { return dipole_field(f, {{c, {0, 0, 1e-9}}}); });
  const auto t1 = std::chrono::steady_clock::now();
  const FarFieldPattern pat = near_to_far(s, 5, 5);
  const auto t2 = std::chrono::steady_clock::now();
  std::printf("512^3 box: %zu points; fields %.2f s, near_to_far %.2f s; D(90) = %.4f dBi\n",
              s.points.size(), std::chrono::duration<double>(t1 - t0).count(),
              std::chrono::duration<double>(t2 - t1).count(),
              pat.directivity_dbi[0][18 * pat.phi_deg.size()]);
}
