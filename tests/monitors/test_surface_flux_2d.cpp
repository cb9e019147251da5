// A 2D flux monitor from its Yee samples to W/m: sample_surface on a plane model (the edge
// centres of the contour, no averaging along z) reproduces linear fields exactly, tm and te; the
// flux of a line source's exact fields through a rectangle is eta0 k I^2 / 8 per metre, and
// through a line across it the half that crosses.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <functional>
#include <string>

#include "line_source_fields.hpp"
#include "model/field_layout.hpp"
#include "model/monitor_build.hpp"
#include "monitors/surface_sampling.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

GridGeometry plane_grid(int nx, int ny, double d) {
  GridGeometry g;
  g.dims = 2;
  g.n = {nx, ny, 1};
  g.d = {d, 0.8 * d, 1.0};
  g.dt = 1e-12;
  return g;
}

std::vector<Component> mode_components(bool te) {
  using C = Component;
  return te ? std::vector<C>{C::Ex, C::Ey, C::Hz} : std::vector<C>{C::Ez, C::Hx, C::Hy};
}

// A flux monitor over the node rectangle lo..hi as build_monitors makes it in 2D.
MonitorModel plane_monitor(const GridGeometry& g, std::array<int, 2> lo, std::array<int, 2> hi,
                           bool te, std::vector<double> freqs, std::array<int, 6> layers = {2, 2, 2, 2, 0, 0}) {
  MonitorModel m;
  m.name = "contour";
  m.kind = MonitorKind::Flux;
  m.lo = {lo[0], lo[1], 0};
  m.hi = {hi[0], hi[1], 1};
  m.frequencies_hz = std::move(freqs);
  m.faces = monitor_faces(m.lo, m.hi, g.n, layers, 2);
  for (const MonitorFace& f : m.faces)
    for (const DftRegion& r : face_regions(f, g.n, mode_components(te))) m.regions.push_back(r);
  return m;
}

// The transform as read_dft gives it when each Yee sample holds value(component, x, y, f).
std::vector<std::complex<double>> sampled(
    const MonitorModel& m, const GridGeometry& g,
    const std::function<std::complex<double>(Component, double, double, std::size_t)>& value) {
  std::vector<std::complex<double>> out;
  for (const DftRegion& r : m.regions)
    for (int i = r.lo[0]; i < r.hi[0]; ++i)
      for (int j = r.lo[1]; j < r.hi[1]; ++j)
        for (int k = r.lo[2]; k < r.hi[2]; ++k) {
          const Vec3 pos = sample_position(r.component, {i, j, k}, g.d);
          for (std::size_t f = 0; f < m.frequencies_hz.size(); ++f)
            out.push_back(value(r.component, pos.x, pos.y, f));
        }
  return out;
}

std::complex<double> linear(Component c, double x, double y, std::size_t f) {
  const int k = static_cast<int>(c);
  return (1.0 + (k + 1) * 100 * x - (k + 2) * 70 * y) * std::complex<double>(1.0 + f, 0.5 * k - f);
}

}  // namespace

TEST_CASE("sample_surface 2D: linear fields at the contour's edge centres, tm and te") {
  const GridGeometry g = plane_grid(12, 10, 1e-3);
  for (bool te : {false, true}) {
    for (bool on_wall : {false, true}) {
      CAPTURE(te);
      CAPTURE(on_wall);
      // On the wall: the x-low side on x = 0 (a bare PEC wall), where H has only its inside plane.
      const std::array<int, 2> lo{on_wall ? 0 : 3, 2};
      const MonitorModel m =
          plane_monitor(g, lo, {9, 8}, te, {1e9, 2e9}, {on_wall ? 0 : 2, 2, 2, 2, 0, 0});
      const SurfaceFields s = sample_surface(m, g, sampled(m, g, linear));
      CHECK(s.two_d);
      REQUIRE(s.points.size() == static_cast<std::size_t>(2 * (9 - lo[0]) + 2 * (8 - 2)));
      for (std::size_t p = 0; p < s.points.size(); ++p) {
        const SurfacePoint& pt = s.points[p];
        const MonitorFace& face = s.faces[static_cast<std::size_t>(pt.face)];
        CHECK(pt.r_m.z == 0.0);
        CHECK(pt.area_m2 == doctest::Approx(g.d[1 - face.axis] * 1.0));
        const int b = 1 - face.axis;
        for (std::size_t f = 0; f < 2; ++f) {
          for (Component c : mode_components(te)) {
            const int axis = component_axis(c);
            if (axis == face.axis) continue;  // the normal component is not sampled
            const auto& v = is_electric(c) ? s.e[f][p] : s.h[f][p];
            std::complex<double> want = linear(c, pt.r_m.x, pt.r_m.y, f);
            // On the wall plane, H is the inside sample: half a cell in, linear moves it.
            if (on_wall && face.plane == 0 && face.axis == 0 && !is_electric(c))
              want = linear(c, 0.5 * g.d[0], pt.r_m.y, f);
            const std::string name = component_name(c);
            CAPTURE(name);
            CAPTURE(b);
            CHECK(std::abs(v[static_cast<std::size_t>(axis)] - want) < 1e-12 * std::abs(want) + 1e-12);
          }
        }
      }
    }
  }
}

TEST_CASE("2D flux of a line source's exact Yee samples: eta0 k I^2 / 8 per metre, half through a line") {
  const double f = kC0;  // a wavelength of 1 m
  for (bool te : {false, true}) {
    CAPTURE(te);
    // 40 cells per wavelength (dy = 0.8 dx): the interpolation's error, O((k d)^2), is ~0.3%.
    const GridGeometry g = plane_grid(80, 100, 1.0 / 40);
    LineSource src;
    src.x0 = 40.3 * g.d[0];
    src.y0 = 50.6 * g.d[1];
    src.current = 2.0;
    src.te = te;
    auto field = [&](Component c, double x, double y, std::size_t) {
      CVec3 e{}, h{};
      src.add(f, x, y, e, h);
      const auto a = static_cast<std::size_t>(component_axis(c));
      return is_electric(c) ? e[a] : h[a];
    };
    const double p_exact = line_source_power(f, 2.0);
    const MonitorModel box = plane_monitor(g, {10, 15}, {70, 85}, te, {f});
    const double flux = surface_flux(sample_surface(box, g, sampled(box, g, field)))[0];
    CHECK(flux == doctest::Approx(p_exact).epsilon(0.01));
    MESSAGE((te ? "te" : "tm") << " contour: flux / (eta0 k I^2 / 8) - 1 = " << flux / p_exact - 1);
    // A line source's mean Poynting vector is radial everywhere (E_z H_phi*, or its dual), so a
    // line x = const takes P' times the angle it subtends over 2 pi.
    const MonitorModel line = plane_monitor(g, {60, 5}, {60, 95}, te, {f});
    const double line_flux = surface_flux(sample_surface(line, g, sampled(line, g, field)))[0];
    const double dx = 60 * g.d[0] - src.x0;
    const double angle = std::atan2(95 * g.d[1] - src.y0, dx) - std::atan2(5 * g.d[1] - src.y0, dx);
    CHECK(line_flux == doctest::Approx(p_exact * angle / (2 * M_PI)).epsilon(0.01));
  }
}
