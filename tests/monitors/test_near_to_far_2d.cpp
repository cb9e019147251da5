// near_to_far_2d on the exact near fields of line sources (H0^(2), H1^(2)) at the edge centres of
// a rectangle's contour: the 2D directivity, the pattern and the power per metre against the
// analytic answers, tm and te, in free space and over a PEC wall (image theory).
#include <doctest/doctest.h>

#include <cmath>
#include <functional>

#include "line_source_fields.hpp"
#include "model/monitor_build.hpp"
#include "monitors/near_to_far_2d.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kF = kC0;  // the wavelength is 1 m
constexpr double kK = 2 * M_PI;

// The contour of the node rectangle lo..hi (x, y) of a grid of n cells of size d, its sides as
// build_monitors makes them (monitor_faces on two axes; `layers` per Face, 0 = a bare PEC wall),
// one point at each edge centre with the sources' exact field.
SurfaceFields contour(std::array<int, 2> lo, std::array<int, 2> hi, std::array<int, 2> n, double d,
                      const std::vector<LineSource>& sources, std::array<int, 6> layers = {5, 5, 5, 5, 0, 0}) {
  SurfaceFields s;
  s.two_d = true;
  s.cell_m = {d, d, 1.0};
  s.frequencies_hz = {kF};
  s.faces = monitor_faces({lo[0], lo[1], 0}, {hi[0], hi[1], 1}, {n[0], n[1], 1}, layers, 2);
  std::vector<CVec3> e, h;
  for (std::size_t fi = 0; fi < s.faces.size(); ++fi) {
    const MonitorFace& face = s.faces[fi];
    const int a = face.axis, b = 1 - a;
    for (int u = face.lo[b]; u < face.hi[b]; ++u) {
      SurfacePoint p;
      p.r_m[a] = face.plane * d;
      p.r_m[b] = (u + 0.5) * d;
      p.area_m2 = d * 1.0;
      p.face = static_cast<int>(fi);
      s.points.push_back(p);
      CVec3 ev{}, hv{};
      for (const LineSource& src : sources) src.add(kF, p.r_m.x, p.r_m.y, ev, hv);
      e.push_back(ev);
      h.push_back(hv);
    }
  }
  s.e.push_back(e);
  s.h.push_back(h);
  return s;
}

// Every included direction whose expected directivity is above -20 dB of the peak agrees within
// tol_db; returns the worst difference.
double check_pattern(const FarFieldPattern& pat, const std::function<double(double phi)>& expected,
                     double tol_db) {
  double peak = -1e300;
  for (std::size_t q = 0; q < pat.phi_deg.size(); ++q)
    if (pat.included[q]) peak = std::max(peak, 10 * std::log10(expected(pat.phi_deg[q] * M_PI / 180)));
  double worst = 0;
  int checked = 0;
  for (std::size_t q = 0; q < pat.phi_deg.size(); ++q) {
    if (!pat.included[q]) continue;
    const double want = 10 * std::log10(expected(pat.phi_deg[q] * M_PI / 180));
    if (want < peak - 20) continue;
    const double got = pat.directivity_dbi[0][q];
    worst = std::max(worst, std::abs(got - want));
    ++checked;
    CAPTURE(pat.phi_deg[q]);
    CHECK(std::abs(got - want) <= tol_db);
  }
  CHECK(checked > 0);
  return worst;
}

}  // namespace

TEST_CASE("near_to_far_2d: one line source, tm and te, radiates eta0 k I^2 / 8 uniformly (0 dB)") {
  for (bool te : {false, true}) {
    for (int cells_per_wavelength : {20, 40}) {
      CAPTURE(te);
      CAPTURE(cells_per_wavelength);
      const double d = 1.0 / cells_per_wavelength;
      const int side = cells_per_wavelength * 3 / 2;  // 1.5 wavelengths
      LineSource src;
      src.x0 = (4 + side / 2.0 + 0.3) * d;  // off the grid's nodes
      src.y0 = (4 + side / 2.0 - 0.2) * d;
      src.current = std::complex<double>(0.6, -0.8);
      src.te = te;
      const FarFieldPattern pat =
          near_to_far_2d(contour({4, 4}, {4 + side, 4 + side}, {side + 8, side + 8}, d, {src}), 5);
      CHECK(pat.theta_deg == std::vector<double>{90.0});
      CHECK(pat.phi_deg.size() == 72);
      const double p_exact = line_source_power(kF, 1.0);
      CHECK(pat.radiated_power[0] == doctest::Approx(p_exact).epsilon(0.005));
      const double worst = check_pattern(pat, [](double) { return 1.0; }, 0.02);
      MESSAGE("cells/wavelength " << cells_per_wavelength << (te ? " te" : " tm") << ": P' "
                                  << pat.radiated_power[0] / p_exact - 1 << " relative, D within "
                                  << worst << " dB");
    }
  }
}

TEST_CASE("near_to_far_2d: two line sources in phase half a wavelength apart: the array factor") {
  // D(phi) = 2 cos^2(k s cos(phi) / 2) / (1 + J0(k s)), s the spacing along x.
  const double d = 1.0 / 20, s = 0.5;
  const int side = 40;
  for (bool te : {false, true}) {
    CAPTURE(te);
    LineSource a, b;
    a.x0 = (5 + side / 2.0) * d - s / 2;
    b.x0 = a.x0 + s;
    a.y0 = b.y0 = (5 + side / 2.0) * d;
    a.te = b.te = te;
    const FarFieldPattern pat =
        near_to_far_2d(contour({5, 5}, {5 + side, 5 + side}, {side + 10, side + 10}, d, {a, b}), 5);
    const double j0 = std::cyl_bessel_j(0.0, kK * s);
    check_pattern(pat, [&](double phi) {
      const double c = std::cos(kK * s * std::cos(phi) / 2);
      return 2 * c * c / (1 + j0);
    }, 0.05);
    CHECK(pat.radiated_power[0] == doctest::Approx(4 * line_source_power(kF, 1.0) * (1 + j0) / 2).epsilon(0.005));
  }
}

TEST_CASE("near_to_far_2d: a quarter-wave pair in phase quadrature beams to +x only (the sign)") {
  // I2 = -i I1 at +x lags by 90 degrees: exp(+i w t) puts the beam on +x, the null on -x.
  const double d = 1.0 / 20;
  const int side = 30;
  LineSource a, b;
  a.x0 = (5 + side / 2.0) * d - 0.125;
  b.x0 = a.x0 + 0.25;
  a.y0 = b.y0 = (5 + side / 2.0) * d;
  b.current = std::complex<double>(0, -1);
  const FarFieldPattern pat =
      near_to_far_2d(contour({5, 5}, {5 + side, 5 + side}, {side + 10, side + 10}, d, {a, b}), 5);
  // |AF|^2 = 4 cos^2(pi/4 (cos phi - 1)); P' = 2 P1 (1 + 0) (J0(k s) times cos(90 deg) = 0).
  check_pattern(pat, [](double phi) {
    const double c = std::cos(M_PI / 4 * (std::cos(phi) - 1));
    return 4 * c * c / 2;
  }, 0.05);
  CHECK(pat.directivity_dbi[0][0] == doctest::Approx(10 * std::log10(2.0)).epsilon(0.01));
  CHECK(pat.directivity_dbi[0][36] < -25);  // phi = 180
}

TEST_CASE("near_to_far_2d: a line source at height h over a PEC wall: the half-plane answer") {
  // tm: image -I at -h, D = 4 sin^2(k h sin phi) / (1 - J0(2 k h)), P' = P1 (1 - J0(2 k h));
  // te (magnetic current): image +I, D = 4 cos^2(k h sin phi) / (1 + J0(2 k h)).
  const double d = 1.0 / 20;
  const int side = 30;
  for (bool te : {false, true}) {
    for (double h : {0.25, 0.4}) {
      CAPTURE(te);
      CAPTURE(h);
      LineSource src, image;
      src.x0 = image.x0 = (5 + side / 2.0) * d;
      src.y0 = h;
      image.y0 = -h;
      src.te = image.te = te;
      image.current = te ? 1.0 : -1.0;
      // The contour's low y side lies on the bare PEC wall y = 0 (0 layers on y-low).
      const FarFieldPattern pat = near_to_far_2d(
          contour({5, 0}, {5 + side, side}, {side + 10, side + 10}, d, {src, image}, {5, 5, 0, 5, 0, 0}),
          5);
      for (std::size_t q = 0; q < pat.phi_deg.size(); ++q)
        CHECK(static_cast<bool>(pat.included[q]) == (pat.phi_deg[q] <= 180));
      const double j0 = std::cyl_bessel_j(0.0, 2 * kK * h);
      const double p_exact = line_source_power(kF, 1.0) * (te ? 1 + j0 : 1 - j0);
      CHECK(pat.radiated_power[0] == doctest::Approx(p_exact).epsilon(0.005));
      check_pattern(pat, [&](double phi) {
        const double s = std::sin(kK * h * std::sin(phi)), c = std::cos(kK * h * std::sin(phi));
        return te ? 4 * c * c / (1 + j0) : 4 * s * s / (1 - j0);
      }, 0.05);
    }
  }
}

TEST_CASE("near_to_far_2d: refuses a 3D surface, a bad phi_step, parallel PEC walls") {
  LineSource src;
  src.x0 = src.y0 = 0.5;
  SurfaceFields s = contour({5, 5}, {15, 15}, {20, 20}, 0.05, {src});
  CHECK_THROWS_AS(near_to_far_2d(s, 0), std::invalid_argument);
  CHECK_THROWS_AS(near_to_far_2d(s, 400), std::invalid_argument);
  SurfaceFields s3 = s;
  s3.two_d = false;
  CHECK_THROWS_AS(near_to_far_2d(s3, 5), std::invalid_argument);
  SurfaceFields walls = contour({0, 5}, {20, 15}, {20, 20}, 0.05, {src}, {0, 0, 5, 5, 0, 0});
  CHECK_THROWS_AS(near_to_far_2d(walls, 5), std::invalid_argument);
}
