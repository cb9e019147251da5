// Dispersive materials in 2D models (tm and te) on the 2D reference engine: a Drude-filled PEC
// rectangle rings at sqrt(f_c^2 + f_p^2) (the cavity's own Yee frequency f_c), and the UPML
// absorbs in a Debye half-space that runs through it (a small grid against a large one). The GPU
// stage is compared with this engine cell by cell in tests/engine/test_plane_engine.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "backends/reference/plane_reference.hpp"
#include "cyl_spectrum_helpers.hpp"
#include "errors.hpp"
#include "physics_helpers.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kPi = 3.14159265358979323846;

// A 2D model of nx x ny cells of size d (metres), `steps` steps, Courant 0.9; UPML with `layers`
// on every face, or PEC walls.
RunConfig plane_box(PlaneMode mode, int nx, int ny, double d, long steps, BoundaryType type,
                    int layers = 0) {
  RunConfig cfg;
  cfg.grid.dims = 2;
  cfg.grid.mode = mode;
  cfg.grid.size_m = Vec3{nx * d, ny * d, 1.0};
  cfg.grid.cell_size_m = Vec3{d, d, 1.0};
  cfg.grid.max_frequency_hz = kC0 / (10 * d);
  cfg.time.steps = steps;
  cfg.boundary.type = type;
  cfg.boundary.layers = type == BoundaryType::Upml
                            ? std::array<int, 6>{layers, layers, layers, layers, 0, 0}
                            : std::array<int, 6>{};
  cfg.snapshot.steps.clear();
  cfg.quiet = true;
  return cfg;
}

// A rectangle of material `mat` over x0..x1, y0..y1 (cell units) in a 2D model.
ObjectConfig rect(const std::string& name, const std::string& mat, double x0, double x1, double y0,
                  double y1, double d) {
  return box(name, mat, {(x0 + x1) / 2, (y0 + y1) / 2, 0}, {x1 - x0, y1 - y0, 0}, d);
}

// A Ricker line current 7 cells above a Debye soil (its top at 16 + off cells) that fills the
// grid's width and runs through the layers, on an n x n grid (UPML: 8 layers): the first 40 x 40
// model shifted by `off` cells. Returns the mode's E components over the cells [off, off + 40)^2
// (i, j, j fastest; component after component) after each of `at` steps, one after the other.
std::vector<double> half_space_e(PlaneMode mode, int n, int off, const std::vector<long>& at,
                                 BoundaryType type) {
  const double d = 5e-3;
  RunConfig cfg = plane_box(mode, n, n, d, at.back(), type, 8);
  cfg.materials = {dispersive("soil", 4, {pole(PoleKind::Debye, 6, 2e-10)}, 0.002)};
  const double top = 16 + off;
  cfg.objects = {rect("soil", "soil", -2, n + 2, -2, top, d)};
  const Axis axis = mode == PlaneMode::Tm ? Axis::Z : Axis::X;
  cfg.sources = {point_source("line", SourceKind::Current, axis, cells(20.0 + off, 23.2 + off, 0, d),
                              WaveformKind::Ricker, 2e9, 1e3)};
  cfg.sources[0].delay_s = 1 / 2e9;
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.dispersion.any_upml == (type == BoundaryType::Upml));
  PlaneReference ref(m);
  const std::vector<Component> comps = mode == PlaneMode::Tm
                                           ? std::vector<Component>{Component::Ez}
                                           : std::vector<Component>{Component::Ex, Component::Ey};
  std::vector<double> out;
  long s = 0;
  for (long stop : at) {
    for (; s < stop; ++s) ref.step(s);
    for (Component c : comps) {
      const auto& f = ref.field(c);
      for (int i = off; i < off + 40; ++i)
        for (int j = off; j < off + 40; ++j) out.push_back(f[m.layout.index(i, j, 0)]);
    }
  }
  return out;
}

// max |a - b| over the 24 x 24 interior of the 40 x 40 model (its cells 8..31) in every block of
// 1600 values, relative to max |b| there, away from the line source (6 cells and more from it).
double interior_error(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0, peak = 0;
  for (std::size_t t = 0; t < a.size() / 1600; ++t)
    for (int i = 8; i < 32; ++i)
      for (int j = 8; j < 32; ++j) {
        if ((i - 20) * (i - 20) + (j - 23) * (j - 23) < 36) continue;
        const std::size_t c = t * 1600 + static_cast<std::size_t>(i) * 40 + j;
        diff = std::max(diff, std::abs(a[c] - b[c]));
        peak = std::max(peak, std::abs(b[c]));
      }
  return diff / peak;
}

}  // namespace

TEST_CASE("2D dispersion: a Drude-filled PEC rectangle rings at sqrt(f_c^2 + f_p^2), tm and te") {
  // 1 mm cells. tm: 12 x 12, Ez's mode (1, 1) at f_c = c / (2 a) sqrt(2); te: 12 x 5, Hz's mode
  // (1, 0) at c / (2 a), the next ones (2, 0), (0, 1) at twice that and more. Each on the Yee
  // grid: (2 / (c dt)) sin(w dt / 2) = (2 / d) sin(k d / 2) sqrt(number of axes with k).
  const double d = 1e-3, fp = 12e9;
  for (PlaneMode mode : {PlaneMode::Tm, PlaneMode::Te}) {
    const bool tm = mode == PlaneMode::Tm;
    INFO("mode " << (tm ? "tm" : "te"));
    const int nx = 12, ny = tm ? 12 : 5;
    RunConfig cfg = plane_box(mode, nx, ny, d, 6000, BoundaryType::Pec);
    cfg.materials = {dispersive("plasma", 1, {pole(PoleKind::Drude, fp, 0)})};
    cfg.objects = {rect("fill", "plasma", -1, nx + 1, -1, ny + 1, d)};
    cfg.sources = {point_source("s", SourceKind::Current, tm ? Axis::Z : Axis::Y,
                                cells(4, tm ? 5 : 2.5, 0, d), WaveformKind::GaussianPulse, 12e9, 1e3)};
    cfg.probes = {point_probe("p", cells(7, tm ? 8 : 2.5, 0, d), {tm ? Component::Ez : Component::Ey})};
    const SimulationModel m = SimulationModel::build(cfg);
    REQUIRE(m.dispersion.count() > 0);
    PlaneReference ref(m);
    const auto series = probe_series(ref, 1, 6000);
    const double dt = m.grid.dt, k = kPi / (nx * d);
    const double axes = tm ? 2.0 : 1.0;
    const double wc = 2 / dt * std::asin(kC0 * dt / d * std::sin(k * d / 2) * std::sqrt(axes));
    const double fc = wc / (2 * kPi);
    const double want = std::sqrt(fc * fc + fp * fp);  // eps(w) = 1 - w_p^2 / w^2
    const double got = peak_frequency(series[0], dt, want, 0.2);
    INFO("f_c = " << fc << " Hz, want " << want << " Hz, got " << got << " Hz");
    CHECK(got == doctest::Approx(want).epsilon(3e-3));
    CHECK(std::abs(got - fc) > 0.15 * fc);  // a cavity without the plasma is far off
  }
}

TEST_CASE("2D dispersion: the UPML absorbs in a Debye half-space that runs through it, tm and te") {
  // The same soil and line current on a 40 x 40 grid with 8 layers and on a 112 x 112 grid (the
  // model shifted by 36 cells): after 130 steps nothing from the large grid's walls has come back
  // into the small model's interior, so the difference there is what the small grid's layers
  // reflect; PEC walls of the small size reflect everything. Measured: the layers take it down
  // ~3000x (tm 3.3e-4 against 1.03, te 2.4e-4 against 0.67); the soil's layer samples stepped by
  // the interior's rule instead of the UPML's leave 0.18 and 0.23.
  for (PlaneMode mode : {PlaneMode::Tm, PlaneMode::Te}) {
    INFO("mode " << (mode == PlaneMode::Tm ? "tm" : "te"));
    const std::vector<long> at{50, 70, 90, 110, 130};
    const auto free_space = half_space_e(mode, 112, 36, at, BoundaryType::Upml);
    const auto upml = half_space_e(mode, 40, 0, at, BoundaryType::Upml);
    const auto pec = half_space_e(mode, 40, 0, at, BoundaryType::Pec);
    const double err_upml = interior_error(upml, free_space), err_pec = interior_error(pec, free_space);
    MESSAGE((mode == PlaneMode::Tm ? "tm" : "te") << ": interior difference to the large grid: UPML "
                                                   << err_upml << ", PEC walls " << err_pec);
    CHECK(err_pec > 0.1);
    CHECK(err_upml < 0.004 * err_pec);
  }
}

TEST_CASE("2D dispersion: a Drude object reaching into the layers is refused, naming it and the plane") {
  const double d = 1e-3;
  RunConfig cfg = plane_box(PlaneMode::Te, 30, 30, d, 10, BoundaryType::Upml, 5);
  cfg.materials = {dispersive("plasma", 1, {pole(PoleKind::Drude, 12e9, 1e9)})};
  cfg.objects = {rect("metal", "plasma", 10, 20, 2, 8, d)};
  std::string what;
  try {
    SimulationModel::build(cfg);
  } catch (const ConfigError& e) {
    what = e.what();
  }
  INFO(what);
  CHECK(what.find("object.metal") != std::string::npos);
  CHECK(what.find("m lies in the layers") != std::string::npos);
  CHECK(what.find("interior is x 0.005..0.025, y 0.005..0.025 m)") != std::string::npos);
  cfg.objects = {rect("metal", "plasma", 10, 20, 6, 8, d)};  // inside the interior: runs
  CHECK(SimulationModel::build(cfg).dispersion.count() > 0);
}
