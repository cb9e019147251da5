// build_monitors on a 2D model (host/model/monitor_build.hpp): a rectangle's four sides (a line's
// one) on the x and y axes only, the regions of the model's mode, the dft fields' default and
// refusals, what the wave equation and a 2D farfield monitor refuse.
#include <doctest/doctest.h>

#include <string>

#include "errors.hpp"
#include "model/monitor_build.hpp"

using namespace clfdtd;

namespace {

using I3 = std::array<int, 3>;
using C = Component;

// A 20 x 16 plane of 1 mm cells; UPML of 3 cells on x and y (z layers left at the 3D default,
// which a plane has none of).
struct Plane {
  RunConfig cfg;
  GridGeometry g;
  explicit Plane(PlaneMode mode, Equation eq = Equation::Maxwell) {
    cfg.source_file = "plane.ini";
    cfg.grid.dims = 2;
    cfg.grid.mode = mode;
    cfg.grid.equation = eq;
    cfg.boundary.layers = {3, 3, 3, 3, 10, 10};
    g.dims = 2;
    g.n = {20, 16, 1};
    g.d = {1e-3, 1e-3, 1.0};
    g.dt = 2e-12;
  }
  MonitorConfig& add(MonitorKind kind, double x0, double y0, double x1, double y1) {
    MonitorConfig m;
    m.name = "m" + std::to_string(cfg.monitors.size());
    m.kind = kind;
    m.box_lo = Vec3{x0, y0, 0};
    m.box_hi = Vec3{x1, y1, 0};
    m.frequencies_hz = {1e10};
    if (kind == MonitorKind::Dft)
      for (int c = 0; c < 6; ++c) m.fields.push_back(static_cast<Component>(c));  // the loader's default
    cfg.monitors.push_back(m);
    cfg.lines["monitor." + m.name + ".box"] = 10 + static_cast<int>(cfg.monitors.size());
    return cfg.monitors.back();
  }
  std::vector<MonitorModel> build() {
    warnings.clear();
    return build_monitors(cfg, g, warnings);
  }
  std::vector<std::string> warnings;
};

bool region_is(const DftRegion& r, C c, I3 lo, I3 hi) {
  return r.component == c && r.lo == lo && r.hi == hi;
}

std::string refusal(Plane& p, const std::string& key) {
  try {
    p.build();
  } catch (const ConfigError& e) {
    CHECK(e.key() == key);
    return e.expected();
  }
  FAIL("expected a ConfigError naming " << key);
  return "";
}

}  // namespace

TEST_CASE("2D flux rectangle: four sides on x and y, tm regions (Ez, Hx, Hy), no z faces") {
  Plane p(PlaneMode::Tm);
  p.add(MonitorKind::Flux, 0.005, 0.004, 0.015, 0.012);
  const auto mons = p.build();
  REQUIRE(mons.size() == 1);
  const MonitorModel& m = mons[0];
  CHECK(m.lo == I3{5, 4, 0});
  CHECK(m.hi == I3{15, 12, 1});
  REQUIRE(m.faces.size() == 4);
  const int axis[] = {0, 0, 1, 1}, plane[] = {5, 15, 4, 12}, normal[] = {-1, 1, -1, 1};
  for (int i = 0; i < 4; ++i) {
    CHECK(m.faces[i].axis == axis[i]);
    CHECK(m.faces[i].plane == plane[i]);
    CHECK(m.faces[i].normal == normal[i]);
    CHECK_FALSE(m.faces[i].on_wall);
  }
  // x-low side (plane 5): Ez on the plane over the y nodes 4..12, Hy half a cell either side.
  // y-low side (plane 4): Ez over the x nodes 5..15, Hx half a cell either side. 2 regions a side.
  REQUIRE(m.regions.size() == 8);
  CHECK(region_is(m.regions[0], C::Ez, {5, 4, 0}, {6, 13, 1}));
  CHECK(region_is(m.regions[1], C::Hy, {4, 4, 0}, {6, 13, 1}));
  CHECK(region_is(m.regions[2], C::Ez, {15, 4, 0}, {16, 13, 1}));
  CHECK(region_is(m.regions[3], C::Hy, {14, 4, 0}, {16, 13, 1}));
  CHECK(region_is(m.regions[4], C::Ez, {5, 4, 0}, {16, 5, 1}));
  CHECK(region_is(m.regions[5], C::Hx, {5, 3, 0}, {16, 5, 1}));
  CHECK(region_is(m.regions[6], C::Ez, {5, 12, 0}, {16, 13, 1}));
  CHECK(region_is(m.regions[7], C::Hx, {5, 11, 0}, {16, 13, 1}));
  // The z layers of the boundary do not exist in a plane: no UPML warning for a box inside.
  CHECK(p.warnings.empty());
}

TEST_CASE("2D flux: te regions (Ex, Ey, Hz), a line, a side on the PEC wall, a side in the UPML") {
  Plane p(PlaneMode::Te);
  p.add(MonitorKind::Flux, 0.005, 0.004, 0.015, 0.012);
  auto mons = p.build();
  REQUIRE(mons[0].regions.size() == 8);
  CHECK(region_is(mons[0].regions[0], C::Ey, {5, 4, 0}, {6, 12, 1}));
  CHECK(region_is(mons[0].regions[1], C::Hz, {4, 4, 0}, {6, 12, 1}));
  CHECK(region_is(mons[0].regions[4], C::Ex, {5, 4, 0}, {15, 5, 1}));
  CHECK(region_is(mons[0].regions[5], C::Hz, {5, 3, 0}, {15, 5, 1}));

  Plane line(PlaneMode::Tm);
  line.add(MonitorKind::Flux, 0.007, 0.004, 0.007, 0.012);  // a line across x
  mons = line.build();
  REQUIRE(mons[0].faces.size() == 1);
  CHECK(mons[0].faces[0].axis == 0);
  CHECK(mons[0].faces[0].plane == 7);
  CHECK(mons[0].faces[0].normal == 1);
  REQUIRE(mons[0].regions.size() == 2);
  CHECK(region_is(mons[0].regions[0], C::Ez, {7, 4, 0}, {8, 13, 1}));
  CHECK(region_is(mons[0].regions[1], C::Hy, {6, 4, 0}, {8, 13, 1}));

  Plane pec(PlaneMode::Tm);
  pec.cfg.boundary.type = BoundaryType::Pec;
  pec.add(MonitorKind::Flux, 0.0, 0.004, 0.015, 0.012);
  mons = pec.build();
  REQUIRE(mons[0].faces.size() == 4);
  CHECK(mons[0].faces[0].on_wall);  // x = 0
  CHECK_FALSE(mons[0].faces[1].on_wall);
  // Ez on the wall plane is a sample of the grid (held at zero by the PEC id); Hy has only the
  // inside plane.
  CHECK(region_is(mons[0].regions[0], C::Ez, {0, 4, 0}, {1, 13, 1}));
  CHECK(region_is(mons[0].regions[1], C::Hy, {0, 4, 0}, {1, 13, 1}));

  Plane upml(PlaneMode::Tm);
  upml.add(MonitorKind::Flux, 0.002, 0.004, 0.015, 0.012);  // x-low side 2 < 3 layers
  upml.build();
  REQUIRE(upml.warnings.size() == 1);
  CHECK(upml.warnings[0].find("x-low (x = 0.002 m)") != std::string::npos);
}

TEST_CASE("2D dft: the fields default to the model's components; others are refused") {
  Plane tm(PlaneMode::Tm);
  tm.add(MonitorKind::Dft, 0.002, 0.003, 0.006, 0.003);  // a line: one cell across y
  auto mons = tm.build();
  REQUIRE(mons[0].regions.size() == 3);
  CHECK(region_is(mons[0].regions[0], C::Ez, {2, 3, 0}, {6, 4, 1}));
  CHECK(mons[0].regions[1].component == C::Hx);
  CHECK(mons[0].regions[2].component == C::Hy);

  Plane te(PlaneMode::Te);
  te.add(MonitorKind::Dft, 0.002, 0.003, 0.006, 0.008);
  mons = te.build();
  REQUIRE(mons[0].regions.size() == 3);
  CHECK(region_is(mons[0].regions[0], C::Ex, {2, 3, 0}, {6, 8, 1}));
  CHECK(mons[0].regions[2].component == C::Hz);

  Plane given(PlaneMode::Tm);
  given.add(MonitorKind::Dft, 0.002, 0.003, 0.006, 0.008).fields = {C::Hy};
  given.cfg.lines["monitor.m0.fields"] = 20;
  mons = given.build();
  REQUIRE(mons[0].regions.size() == 1);
  CHECK(mons[0].regions[0].component == C::Hy);

  Plane wrong(PlaneMode::Tm);
  wrong.add(MonitorKind::Dft, 0.002, 0.003, 0.006, 0.008).fields = {C::Ez, C::Ex};
  wrong.cfg.lines["monitor.m0.fields"] = 20;
  const std::string what = refusal(wrong, "monitor.m0.fields");
  CHECK(what.find("tm model (Ez Hx Hy), got Ex") != std::string::npos);

  Plane wave(PlaneMode::Tm, Equation::Wave);
  wave.add(MonitorKind::Dft, 0.002, 0.003, 0.006, 0.008);
  mons = wave.build();
  REQUIRE(mons[0].regions.size() == 1);
  CHECK(mons[0].regions[0].component == C::Ez);
}

TEST_CASE("2D refusals: flux and farfield in a wave model, a farfield line, theta_step, a point") {
  Plane wave(PlaneMode::Tm, Equation::Wave);
  wave.add(MonitorKind::Flux, 0.005, 0.004, 0.015, 0.012);
  CHECK(refusal(wave, "monitor.m0.type").find("got flux") != std::string::npos);
  Plane wave_ff(PlaneMode::Tm, Equation::Wave);
  wave_ff.add(MonitorKind::FarField, 0.005, 0.004, 0.015, 0.012);
  CHECK(refusal(wave_ff, "monitor.m0.type").find("got farfield") != std::string::npos);

  Plane line(PlaneMode::Te);
  line.add(MonitorKind::FarField, 0.005, 0.004, 0.005, 0.012);
  CHECK(refusal(line, "monitor.m0.box").find("rectangle") != std::string::npos);

  Plane theta(PlaneMode::Tm);
  theta.add(MonitorKind::FarField, 0.005, 0.004, 0.015, 0.012);
  theta.cfg.lines["monitor.m0.theta_step"] = 22;
  CHECK(refusal(theta, "monitor.m0.theta_step").find("phi_step") != std::string::npos);

  Plane point(PlaneMode::Tm);
  point.add(MonitorKind::Flux, 0.005, 0.004, 0.005, 0.004);
  CHECK(refusal(point, "monitor.m0.box").find("point") != std::string::npos);

  Plane ok(PlaneMode::Te);  // a farfield rectangle is fine, with 4 sides
  ok.add(MonitorKind::FarField, 0.005, 0.004, 0.015, 0.012);
  CHECK(ok.build()[0].faces.size() == 4);
}
