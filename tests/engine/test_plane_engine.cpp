// The 2D Yee engine (tm and te, variants tile and rows, on every API with a device here) against
// PlaneReference (double precision) on models from SimulationModel::build, cell by cell and
// probe by probe after 200 steps: UPML with a different layer count per face (none on one), a
// dielectric, a lossy and a magnetic rectangle, a PEC rectangle, ny not a multiple of 4 (padding
// lanes), sine line currents, and work-groups that do not divide the grid. Tolerance: max |diff|
// <= 1e-5 of each component's max |value| (float vs double; PoCL shows <= 2e-6). Then energy
// against the reference's sums, the device bytes against the memory check, and the variant rules.
#include <doctest/doctest.h>

#include <optional>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "backends/physics_helpers.hpp"
#include "backends/reference/plane_reference.hpp"
#include "backends/tuning_cache.hpp"
#include "device/device.hpp"
#include "device/test_apis.hpp"
#include "engine/plane/plane_engine.hpp"
#include "engine/plane/plane_fields.hpp"
#include "engine/plane/plane_variant.hpp"
#include "errors.hpp"

#ifdef CLFDTD_HAVE_CUDA
#include "device/cuda/cuda_device.hpp"
#endif

using namespace clfdtd;
using namespace clfdtd::engine;

namespace {

constexpr double kD = 1e-3;  // cell size, m

// A rectangle of one material over sample positions x0 <= x < x1, y0 <= y < y1 (cell units).
struct Rect {
  std::string material;
  double x0, x1, y0, y1;
};
struct Drive {
  Component c;
  int i, j;
  double freq, amp;
};

struct PlaneSpec {
  int nx = 21, ny = 19;
  long steps = 200;
  PlaneMode mode = PlaneMode::Tm;
  std::array<int, 4> layers{0, 0, 0, 0};  // x_lo x_hi y_lo y_hi
  std::vector<MaterialConfig> materials;
  std::vector<Rect> rects;
  std::vector<Drive> sources;
  std::vector<std::array<int, 3>> probes;  // component, i, j
  std::vector<SourceConfig> waves;         // plane waves (positions and sizes in metres)
  bool energy = false;
};

// The 2D model of `s` through SimulationModel::build: rectangles as box objects, sine line
// currents at the Yee samples (i, j) of their components, probes at the samples they name.
SimulationModel plane_model(const PlaneSpec& s) {
  RunConfig cfg;
  cfg.grid.dims = 2;
  cfg.grid.mode = s.mode;
  cfg.grid.size_m = Vec3{s.nx * kD, s.ny * kD, 1.0};
  cfg.grid.cell_size_m = Vec3{kD, kD, 1.0};
  cfg.grid.max_frequency_hz = kC0 / (10 * kD);
  cfg.time.steps = s.steps;
  cfg.boundary.type = BoundaryType::Upml;
  cfg.boundary.layers = {s.layers[0], s.layers[1], s.layers[2], s.layers[3], 0, 0};
  cfg.snapshot.steps.clear();
  cfg.quiet = true;
  cfg.output.energy = s.energy;
  cfg.materials = s.materials;
  for (const Rect& r : s.rects) {
    cfg.objects.push_back(test::box("r" + std::to_string(cfg.objects.size()), r.material,
                                    {(r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2, 0},
                                    {r.x1 - r.x0, r.y1 - r.y0, 0}, kD));
  }
  const double d = kD;
  auto at = [d](Component c, int i, int j) {
    Vec3 p = sample_position(c, {i, j, 0}, {d, d, 1.0});
    p.z = 0;
    return p;
  };
  for (const Drive& v : s.sources) {
    cfg.sources.push_back(test::point_source("s" + std::to_string(cfg.sources.size()),
                                             SourceKind::Current,
                                             static_cast<Axis>(component_axis(v.c)),
                                             at(v.c, v.i, v.j), WaveformKind::Sine, v.freq, v.amp));
  }
  for (const auto& p : s.probes) {
    const auto c = static_cast<Component>(p[0]);
    cfg.probes.push_back(
        test::point_probe("p" + std::to_string(cfg.probes.size()), at(c, p[1], p[2]), {c}));
  }
  cfg.plane_waves = s.waves;
  SimulationModel m = SimulationModel::build(cfg);
  // The drives and probes sit where the spec says.
  for (std::size_t k = 0; k < s.sources.size(); ++k) {
    REQUIRE(m.sources[k].cell == std::array<int, 3>{s.sources[k].i, s.sources[k].j, 0});
  }
  for (std::size_t k = 0; k < s.probes.size(); ++k) {
    REQUIRE(m.probes.samples[k].cell == std::array<int, 3>{s.probes[k][1], s.probes[k][2], 0});
  }
  return m;
}

const std::vector<device::Api>& apis() {
  static const std::vector<device::Api> out = clfdtd::test::test_apis();
  return out;
}

DeviceConfig config(KernelVariant v, std::optional<std::array<int, 3>> wg = std::nullopt) {
  DeviceConfig c;
  c.variant = v;
  c.workgroup = wg;
  return c;
}

// Runs the engine and PlaneReference side by side; checks every active component and probe
// series, and that the components the mode does not carry read zero.
void compare(const SimulationModel& m, Backend& b, double rel_tol = 1e-5) {
  INFO("device: " << b.device_description() << ", variant: " << b.kernel_variant());
  PlaneReference ref(m);
  REQUIRE(m.grid.steps <= b.probe_batch_steps());
  for (long s = 0; s < m.grid.steps; ++s) {
    ref.step(s);
    b.step(s);
    ref.sample_probes(static_cast<int>(s));
    b.sample_probes(static_cast<int>(s));
  }
  b.finish();
  CHECK(b.fields_finite());
  const int nx = m.grid.n[0], ny = m.grid.n[1];
  for (Component c : m.active_components()) {
    std::vector<float> got;
    b.read_field(c, got);
    const auto& w = ref.field(c);
    REQUIRE(got.size() == static_cast<std::size_t>(nx) * ny);
    double max_ref = 0, max_diff = 0;
    std::array<int, 2> at{};
    for (int i = 0; i < nx; ++i) {
      for (int j = 0; j < ny; ++j) {
        const double want = w[m.layout.index(i, j, 0)];
        const double diff = std::abs(got[static_cast<std::size_t>(i) * ny + j] - want);
        max_ref = std::max(max_ref, std::abs(want));
        if (diff > max_diff) {
          max_diff = diff;
          at = {i, j};
        }
      }
    }
    INFO(std::string(component_name(c)) << ": max |ref| " << max_ref << ", max |diff| " << max_diff
                                        << " at i " << at[0] << " j " << at[1]);
    CHECK(max_ref > 0);
    CHECK(max_diff <= rel_tol * max_ref);
  }
  const std::size_t ns = m.probes.samples.size();
  if (ns > 0) {
    std::vector<double> want, got;
    ref.read_probe_batch(static_cast<int>(m.grid.steps), want);
    b.read_probe_batch(static_cast<int>(m.grid.steps), got);
    REQUIRE(got.size() == want.size());
    REQUIRE(got.size() == ns * static_cast<std::size_t>(m.grid.steps));
    for (std::size_t p = 0; p < ns; ++p) {
      double max_ref = 0, max_diff = 0;
      for (std::size_t t = p; t < want.size(); t += ns) {
        max_ref = std::max(max_ref, std::abs(want[t]));
        max_diff = std::max(max_diff, std::abs(got[t] - want[t]));
      }
      INFO("probe sample " << p << ": max |ref| " << max_ref << ", max |diff| " << max_diff);
      CHECK(max_ref > 0);
      CHECK(max_diff <= rel_tol * max_ref);
    }
  }
  std::vector<float> zero;
  for (int c = 0; c < 6; ++c) {
    if (m.is_active(static_cast<Component>(c))) continue;
    b.read_field(static_cast<Component>(c), zero);
    CHECK(zero.size() == static_cast<std::size_t>(nx) * ny);
    CHECK(std::all_of(zero.begin(), zero.end(), [](float v) { return v == 0.0f; }));
  }
}

void compare_everywhere(const SimulationModel& m, const std::vector<std::array<int, 3>>& shapes,
                        double rel_tol = 1e-5) {
  for (device::Api api : apis()) {
    for (KernelVariant v : {KernelVariant::Tile, KernelVariant::Rows}) {
      INFO("api " << std::string(device::api_name(api)) << ", variant "
                  << std::string(variant_name(v)));
      compare(m, *make_plane_engine(api, m, config(v)), rel_tol);
      for (const auto& wg : shapes) compare(m, *make_plane_engine(api, m, config(v, wg)), rel_tol);
    }
  }
}

// UPML on three faces (3, 4, 0, 2 layers), glass, a lossy block reaching into the x-low PML, a
// ferrite (mu_r = 2), a PEC plate; 21 x 19 cells (ny padded to 20).
PlaneSpec mixed_spec(PlaneMode mode) {
  PlaneSpec s;
  s.mode = mode;
  s.layers = {3, 4, 0, 2};
  s.materials = {test::material("glass", 4, 1, 0), test::material("lossy", 2, 1, 0.5),
                 test::material("ferrite", 1, 2, 0)};
  s.rects = {{"glass", 5, 9, 4, 12},
             {"lossy", 1, 7, 13, 16},
             {"ferrite", 12, 15, 3, 8},
             {"pec", 14, 16, 11, 15}};
  const bool tm = mode == PlaneMode::Tm;
  s.sources = {{tm ? Component::Ez : Component::Ex, 10, 9, 15e9, 2e7},
               {tm ? Component::Ez : Component::Ey, 7, 6, 11e9, 1e7}};
  s.probes = tm ? std::vector<std::array<int, 3>>{{2, 11, 10}, {3, 8, 8}, {4, 1, 17}}
                : std::vector<std::array<int, 3>>{{0, 11, 10}, {1, 8, 8}, {5, 1, 17}};
  return s;
}

}  // namespace

TEST_CASE("plane engine vs PlaneReference: tm, UPML, dielectric, conductor, magnetic, PEC") {
  const SimulationModel m = plane_model(mixed_spec(PlaneMode::Tm));
  REQUIRE(m.magnetic);
  REQUIRE(m.layout.nyp() == 20);
  // Shapes that divide neither 21 rows nor 5 float4s, and one work-item per group.
  compare_everywhere(m, {{3, 2, 1}, {1, 1, 1}});
}

TEST_CASE("plane engine vs PlaneReference: te, UPML, dielectric, conductor, magnetic, PEC") {
  const SimulationModel m = plane_model(mixed_spec(PlaneMode::Te));
  REQUIRE(m.magnetic);
  compare_everywhere(m, {{4, 3, 1}});
}

TEST_CASE("plane engine vs PlaneReference: PEC walls only, non-magnetic, ny a multiple of 4") {
  for (PlaneMode mode : {PlaneMode::Tm, PlaneMode::Te}) {
    PlaneSpec s = mixed_spec(mode);
    s.nx = 17;
    s.ny = 16;
    s.layers = {0, 0, 0, 0};
    s.materials = {test::material("glass", 3, 1, 0)};
    s.rects = {{"glass", 3, 8, 2, 9}, {"pec", 12, 14, 10, 13}};
    s.probes.pop_back();  // the third sat in a PML cell
    const SimulationModel m = plane_model(s);
    REQUIRE_FALSE(m.magnetic);
    REQUIRE(m.layout.nyp() == 16);
    compare_everywhere(m, {{2, 3, 1}});
  }
}

TEST_CASE("plane engine vs PlaneReference: Debye soil through the UPML, Drude and Lorentz inside, tm and te") {
  // A two-pole Debye soil fills y < 6 cells across the whole grid (the x slabs, the y-low slab
  // and their corners); a Debye block runs into the y-high slab; Drude and Lorentz blocks stay in
  // the interior (refused in the layers). Their faces carry surface mixtures (shares of the poles,
  // and a Drude face's harmonic mean as a Lorentz pole).
  for (PlaneMode mode : {PlaneMode::Tm, PlaneMode::Te}) {
    PlaneSpec s = mixed_spec(mode);
    s.nx = 23;
    s.ny = 21;
    s.layers = {3, 4, 2, 3};
    s.materials = {test::dispersive("soil", 4, {test::pole(PoleKind::Debye, 6, 3e-11),
                                                test::pole(PoleKind::Debye, 2, 4e-12)}, 0.05),
                   test::dispersive("clay", 2.5, {test::pole(PoleKind::Debye, 9, 8e-11)}),
                   test::dispersive("plasma", 1.2, {test::pole(PoleKind::Drude, 40e9, 4e9)}),
                   test::dispersive("osc", 2, {test::pole(PoleKind::Lorentz, 3, 30e9, 2e9)})};
    s.rects = {{"soil", -2, 25, -2, 6},
               {"clay", 15, 19, 15, 24},
               {"plasma", 5, 9, 9, 12},
               {"osc", 13, 16, 8, 11}};
    const bool tm = mode == PlaneMode::Tm;
    s.sources = {{tm ? Component::Ez : Component::Ex, 11, 13, 15e9, 2e7},
                 {tm ? Component::Ez : Component::Ey, 9, 7, 11e9, 1e7}};
    s.probes = tm ? std::vector<std::array<int, 3>>{{2, 11, 4}, {2, 7, 10}, {3, 1, 3}}
                  : std::vector<std::array<int, 3>>{{0, 11, 4}, {1, 14, 9}, {5, 1, 3}};
    const SimulationModel m = plane_model(s);
    REQUIRE(m.dispersion.any_upml);
    REQUIRE(m.dispersion.max_poles == 2);
    std::set<std::uint8_t> comps(m.dispersion.comp.begin(), m.dispersion.comp.end());
    CHECK(comps == (tm ? std::set<std::uint8_t>{2} : std::set<std::uint8_t>{0, 1}));
    compare_everywhere(m, {{3, 2, 1}});
  }
}

TEST_CASE("plane engine vs PlaneReference: plane waves (tm, te; each direction) on dielectric, Drude and PEC objects") {
  // A total-field box over most of the interior with a dielectric, a Drude and a PEC rectangle
  // inside it, a line current outside it as well; the waves run along +x, -y (tm) and -x, +y
  // (te), the last in a Debye background that fills the grid and runs into the layers.
  // Two more run obliquely (tm and te: a direction in the plane off both axes).
  struct Case {
    PlaneMode mode;
    Axis e;
    int axis, sign;
    bool debye_background;
    std::optional<Vec3> oblique = std::nullopt;
  };
  for (const Case& c : {Case{PlaneMode::Tm, Axis::Z, 0, 1, false}, Case{PlaneMode::Tm, Axis::Z, 1, -1, false},
                        Case{PlaneMode::Te, Axis::Y, 0, -1, false}, Case{PlaneMode::Te, Axis::X, 1, 1, true},
                        Case{PlaneMode::Tm, Axis::Z, 0, 1, false, Vec3{0.6, -0.8, 0}},
                        Case{PlaneMode::Te, Axis::X, 0, 1, false, Vec3{-0.28, 0.96, 0}}}) {
    INFO("mode " << (c.mode == PlaneMode::Tm ? "tm" : "te") << ", axis " << c.axis << ", sign " << c.sign
                 << (c.oblique ? ", oblique" : ""));
    PlaneSpec s = mixed_spec(c.mode);
    s.nx = 31;
    s.ny = 29;
    s.layers = {4, 3, 3, 4};
    s.materials = {test::material("glass", 3, 1, 0),
                   test::dispersive("plasma", 1.2, {test::pole(PoleKind::Drude, 40e9, 4e9)}),
                   test::dispersive("soil", 3, {test::pole(PoleKind::Debye, 4, 3e-11)})};
    s.rects.clear();
    if (c.debye_background) s.rects.push_back({"soil", -2, 33, -2, 31});
    s.rects.push_back({"glass", 10, 14, 9, 13});
    s.rects.push_back({"plasma", 16, 19, 15, 19});
    s.rects.push_back({"pec", 11, 13, 17, 19});
    const bool tm = c.mode == PlaneMode::Tm;
    s.sources = {{tm ? Component::Ez : Component::Ex, 8, 24, 15e9, 1e6}};
    s.probes = tm ? std::vector<std::array<int, 3>>{{2, 15, 14}, {2, 6, 6}, {4, 24, 22}}
                  : std::vector<std::array<int, 3>>{{0, 15, 14}, {1, 6, 6}, {5, 24, 22}};
    // The box: cells 7..24 x 7..23 (faces 3 cells from the layers or more).
    s.waves = {test::plane_wave("w", c.e, c.axis, c.sign, {15.5 * kD, 15 * kD, 0},
                                {17 * kD, 16 * kD, 0}, WaveformKind::GaussianPulse, 30e9, 100)};
    s.waves[0].direction_vector = c.oblique;
    const SimulationModel m = plane_model(s);
    REQUIRE(m.plane_waves.size() == 1);
    CHECK(m.plane_waves[0].oblique == c.oblique.has_value());
    CHECK(m.plane_waves[0].background == (c.debye_background ? "soil" : "vacuum"));
    CHECK(m.plane_waves[0].lo == std::array<int, 3>{7, 7, 0});
    CHECK(m.plane_waves[0].hi == std::array<int, 3>{24, 23, 1});
    CHECK(!m.plane_waves[0].e_terms.empty());
    CHECK(!m.plane_waves[0].h_terms.empty());
    // The engine adds every correction after the step, from float weights summed per sample
    // (post_step_entries): 1.1e-5 of a probe's peak measured on PoCL, beside 1e-6 elsewhere.
    compare_everywhere(m, {{4, 3, 1}}, 5e-5);
  }
}

TEST_CASE("plane engine energy: the three sums against PlaneReference, tm and te") {
  for (PlaneMode mode : {PlaneMode::Tm, PlaneMode::Te}) {
    PlaneSpec s = mixed_spec(mode);
    s.steps = 120;
    s.energy = true;
    const SimulationModel m = plane_model(s);
    for (device::Api api : apis()) {
      for (KernelVariant v : {KernelVariant::Tile, KernelVariant::Rows}) {
        auto b = make_plane_engine(api, m, config(v));
        INFO("mode " << std::string(mode == PlaneMode::Tm ? "tm" : "te") << ", "
                     << b->kernel_variant());
        PlaneReference ref(m);
        for (long st = 0; st < m.grid.steps; ++st) {
          ref.step(st);
          b->step(st);
          ref.sample_energy(static_cast<int>(st));
          b->sample_energy(static_cast<int>(st));
        }
        std::vector<EnergyTerms> want, got;
        ref.read_energy_batch(static_cast<int>(m.grid.steps), want);
        b->read_energy_batch(static_cast<int>(m.grid.steps), got);
        REQUIRE(got.size() == want.size());
        double max_e = 0, max_m = 0, de = 0, dm = 0, dn = 0;
        for (std::size_t t = 0; t < want.size(); ++t) {
          max_e = std::max(max_e, want[t].electric);
          max_m = std::max(max_m, want[t].magnetic_now);
          de = std::max(de, std::abs(got[t].electric - want[t].electric));
          dm = std::max(dm, std::abs(got[t].magnetic - want[t].magnetic));
          dn = std::max(dn, std::abs(got[t].magnetic_now - want[t].magnetic_now));
        }
        INFO("max electric " << max_e << " (diff " << de << "), max magnetic " << max_m << " (diff "
                             << dm << ", now " << dn << ")");
        CHECK(max_e > 0);
        CHECK(max_m > 0);
        CHECK(de <= 1e-5 * max_e);
        CHECK(dm <= 1e-5 * max_m);
        CHECK(dn <= 1e-5 * max_m);
      }
    }
  }
}

TEST_CASE("plane engine device bytes: every buffer counted, checked before allocating") {
  for (PlaneMode mode : {PlaneMode::Tm, PlaneMode::Te}) {
    PlaneSpec s = mixed_spec(mode);
    s.energy = true;
    const SimulationModel m = plane_model(s);
    const int batch = PlaneEngine::kProbeBatchSteps;
    std::size_t sum = 0;
    for (const auto& b : plane_buffer_needs(m, batch)) sum += b.bytes;
    CHECK(plane_device_bytes(m, batch) == sum);
    // 3 fields + ids: tm Ez (magnetic: Hx Hy ids too); UPML 3 floats per PML cell.
    const std::size_t pml = (3 + 4) * 19 + (21 - 7) * (0 + 2);
    CHECK(plane_pml_cells(m) == pml);
    CHECK(pml == m.upml.cells);
    for (device::Api api : apis()) {
      auto b = make_plane_engine(api, m, config(KernelVariant::Tile));
      const auto& engine = dynamic_cast<const PlaneEngine&>(*b);
      CHECK(engine.allocated_bytes() == b->device_bytes(m));
      CHECK(b->device_bytes(m) == sum);
      // The same count is what the memory check refuses when the device is too small.
      device::DeviceInfo small;
      small.name = "tiny";
      small.global_mem_bytes = sum - 1;
      small.max_alloc_bytes = sum;
      CHECK_THROWS_AS(check_device_memory(sum, plane_buffer_needs(m, batch), small, sum - 1),
                      OutOfMemoryError);
      CHECK_NOTHROW(check_device_memory(sum, plane_buffer_needs(m, batch), small, sum));
    }
  }
}

TEST_CASE("plane engine variants: auto, tile, rows, work-groups, onepass refused") {
  const SimulationModel m = plane_model(mixed_spec(PlaneMode::Tm));
  CHECK(resolve_plane_variant(config(KernelVariant::Auto), "cpu") == KernelVariant::Rows);
  CHECK(resolve_plane_variant(config(KernelVariant::Auto), "gpu") == KernelVariant::Tile);
  CHECK(resolve_plane_variant(config(KernelVariant::Tile), "cpu") == KernelVariant::Tile);
  CHECK_THROWS_AS(resolve_plane_variant(config(KernelVariant::OnePass), "gpu"), ConfigError);
  const std::array<std::size_t, 3> big{1024, 1024, 64};
  CHECK(choose_plane_workgroup(KernelVariant::Tile, std::nullopt, m.layout, 1024, big) ==
        std::array<int, 3>{8, 5, 1});  // wy4 clamped to ny4 = 5
  CHECK(choose_plane_workgroup(KernelVariant::Tile, std::array<int, 3>{64, 64, 1}, m.layout, 32,
                               big) == std::array<int, 3>{6, 5, 1});  // 21 x 5 halved to 11, 6 rows
  CHECK(choose_plane_workgroup(KernelVariant::Rows, std::nullopt, m.layout, 1024, big) ==
        std::array<int, 3>{1, 21, 1});  // clamped to nx = 21
  CHECK(choose_plane_workgroup(KernelVariant::Rows, std::array<int, 3>{2, 4, 1}, m.layout, 1024,
                               big) == std::array<int, 3>{1, 8, 1});
  for (device::Api api : apis()) {
    CHECK_THROWS_AS(make_plane_engine(api, m, config(KernelVariant::OnePass)), ConfigError);
    const auto tile =
        make_plane_engine(api, m, config(KernelVariant::Tile, std::array<int, 3>{3, 2, 1}));
    CHECK(tile->kernel_variant().rfind("plane-tile 3x2x1", 0) == 0);
    const auto rows = make_plane_engine(api, m, config(KernelVariant::Rows));
    CHECK(rows->kernel_variant().rfind("plane-rows 1x21x1", 0) == 0);
  }
}

#ifdef CLFDTD_HAVE_CUDA
// NVRTC needs no GPU: the plane kernels compile in every CUDA build and keep their names.
TEST_CASE("plane engine kernels: NVRTC compiles them, magnetic and not") {
  for (int magnetic : {0, 1}) {
    const std::string ptx = device::compile_cuda_program(
        {{"TILE_X", 1}, {"TILE_Y", 1}, {"TILE_Z4", 1}, {"MAGNETIC", magnetic}}, "compute_90");
    for (const char* k :
         {"plane_tile_h_tm", "plane_tile_e_tm", "plane_tile_h_te", "plane_tile_e_te",
          "plane_rows_h_tm", "plane_rows_e_tm", "plane_rows_h_te", "plane_rows_e_te",
          "plane_upml_h_tm", "plane_upml_e_tm", "plane_upml_h_te", "plane_upml_e_te",
          "plane_energy_sums"}) {
      INFO(std::string(k) << ", MAGNETIC " << magnetic);
      CHECK(ptx.find(std::string(".entry ") + k + "(") != std::string::npos);
    }
  }
}
#endif
