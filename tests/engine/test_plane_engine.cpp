// The 2D Yee engine (tm and te, variants tile and rows, on every API with a device here) against
// a double-precision loop over the same model, cell by cell and probe by probe after a few
// hundred steps: UPML with a different layer count per face (none on one), a dielectric, a lossy
// and a magnetic rectangle, a PEC rectangle, ny not a multiple of 4 (padding lanes), sine
// sources, and work-groups that do not divide the grid. Tolerance: max |diff| <= 1e-5 of each
// component's max |value| (float vs double). Then energy against the same loop's sums, the
// device bytes against the memory check, and the variant rules.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "backends/physics_helpers.hpp"
#include "backends/tuning_cache.hpp"
#include "device/device.hpp"
#include "engine/plane/plane_engine.hpp"
#include "engine/plane/plane_fields.hpp"
#include "engine/plane/plane_variant.hpp"
#include "errors.hpp"
#include "model/upml_profile.hpp"

using namespace clfdtd;
using namespace clfdtd::engine;

namespace {

constexpr double kD = 1e-3;  // cell size, m
constexpr double kPi = 3.14159265358979323846;

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
  bool energy = false;
};

// A 2D SimulationModel as contract2d.md lays it out, built directly (positions of each
// component's samples decide its material id).
SimulationModel plane_model(const PlaneSpec& s) {
  SimulationModel m;
  m.grid.dims = 2;
  m.grid.n = {s.nx, s.ny, 1};
  m.grid.d = {kD, kD, 1.0};
  m.grid.dt = 0.9 * m.grid.courant_limit_dt();
  m.grid.steps = s.steps;
  m.layout = FieldLayout::xy_plane(s.nx, s.ny);
  m.materials = MaterialTable(s.materials);
  m.mode = s.mode;
  m.magnetic = m.materials.any_magnetic();
  m.energy = s.energy;
  for (Component c : m.active_components()) {
    if (!is_electric(c) && !m.magnetic) continue;
    auto& ids = m.ids[static_cast<int>(c)];
    ids.assign(m.layout.cells(), MaterialTable::kPec);  // padding: PEC
    const auto o = yee_offset(c);
    for (int i = 0; i < s.nx; ++i) {
      for (int j = 0; j < s.ny; ++j) {
        std::uint8_t id = MaterialTable::kVacuum;
        for (const Rect& r : s.rects) {
          const double x = i + o[0], y = j + o[1];
          if (x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1) {
            id = static_cast<std::uint8_t>(m.materials.find(r.material));
          }
        }
        // The low walls' tangential E.
        if ((c == Component::Ez && (i == 0 || j == 0)) || (c == Component::Ex && j == 0) ||
            (c == Component::Ey && i == 0)) {
          id = MaterialTable::kPec;
        }
        ids[m.layout.index(i, j, 0)] = id;
      }
    }
  }
  BoundaryConfig b;
  b.type = BoundaryType::Upml;
  b.layers = {s.layers[0], s.layers[1], s.layers[2], s.layers[3], 0, 0};
  m.upml = build_upml_profile(b, m.grid);
  for (const Drive& d : s.sources) {
    SourceModel src;
    src.name = "s" + std::to_string(m.sources.size());
    src.component = d.c;
    src.cell = {d.i, d.j, 0};
    for (long t = 0; t < s.steps; ++t) {
      src.j.push_back(d.amp * std::sin(2 * kPi * d.freq * (t + 0.5) * m.grid.dt));
    }
    m.sources.push_back(src);
  }
  if (!s.probes.empty()) {
    m.probes.probes.push_back({"p", 0, s.steps});
    for (const auto& p : s.probes) {
      ProbeSample ps;
      ps.component = static_cast<Component>(p[0]);
      ps.cell = {p[1], p[2], 0};
      m.probes.samples.push_back(ps);
    }
    m.probes.first_step = 0;
    m.probes.last_step = s.steps;
  }
  return m;
}

// The contract's equations in double, unpadded arrays a[i * ny + j], for the comparison.
class PlaneLoop {
public:
  explicit PlaneLoop(const SimulationModel& m) : m_(m), nx_(m.grid.n[0]), ny_(m.grid.n[1]) {
    for (auto& f : f_) f.assign(static_cast<std::size_t>(nx_) * ny_, 0.0);
    aux_ = f_;
    prev_ = f_;
  }
  const std::vector<double>& field(Component c) const { return f_[static_cast<int>(c)]; }

  void step(long s) {
    if (m_.mode == PlaneMode::Tm) {
      for (int i = 0; i < nx_; ++i) {
        for (int j = 0; j < ny_; ++j) {
          const double e = at(Component::Ez, i, j);
          update(Component::Hx, i, j, (at(Component::Ez, i, j + 1) - e) / dy(), false);
          update(Component::Hy, i, j, -(at(Component::Ez, i + 1, j) - e) / dx(), false);
        }
      }
      for (int i = 0; i < nx_; ++i) {
        for (int j = 0; j < ny_; ++j) {
          const double curl = (at(Component::Hy, i, j) - at(Component::Hy, i - 1, j)) / dx() -
                              (at(Component::Hx, i, j) - at(Component::Hx, i, j - 1)) / dy();
          update(Component::Ez, i, j, curl, true);
        }
      }
    } else {
      for (int i = 0; i < nx_; ++i) {
        for (int j = 0; j < ny_; ++j) {
          const double curl = (at(Component::Ey, i + 1, j) - at(Component::Ey, i, j)) / dx() -
                              (at(Component::Ex, i, j + 1) - at(Component::Ex, i, j)) / dy();
          update(Component::Hz, i, j, curl, false);
        }
      }
      for (int i = 0; i < nx_; ++i) {
        for (int j = 0; j < ny_; ++j) {
          const double h = at(Component::Hz, i, j);
          update(Component::Ex, i, j, (h - at(Component::Hz, i, j - 1)) / dy(), true);
          update(Component::Ey, i, j, -(h - at(Component::Hz, i - 1, j)) / dx(), true);
        }
      }
    }
    for (const auto& src : m_.sources) {
      if (s >= static_cast<long>(src.j.size())) continue;
      const int i = src.cell[0], j = src.cell[1];
      const auto e = m_.materials.e_coefficients(id(src.component, i, j), m_.grid.dt);
      f_[static_cast<int>(src.component)][idx(i, j)] -= e.cb * src.j[static_cast<std::size_t>(s)];
    }
  }

  // energy.cl's sums (docs/EQUATIONS.md "Energy"), keeping H for the next call.
  EnergyTerms energy() {
    EnergyTerms t;
    const double dv = m_.grid.d[0] * m_.grid.d[1] * m_.grid.d[2];
    for (Component c : m_.active_components()) {
      const int k = static_cast<int>(c);
      for (int i = 0; i < nx_; ++i) {
        for (int j = 0; j < ny_; ++j) {
          const double v = f_[k][idx(i, j)];
          if (is_electric(c)) {
            const auto& e = m_.materials.entry(id(c, i, j));
            t.electric += 0.5 * kEps0 * dv * (e.pec ? 0.0 : e.eps_r) * v * v;
          } else {
            const double mu =
                m_.magnetic ? 1 / m_.materials.h_coefficients(id(c, i, j), m_.grid.dt).inv_mu_r
                            : 1.0;
            t.magnetic += 0.5 * kMu0 * dv * mu * v * prev_[k][idx(i, j)];
            t.magnetic_now += 0.5 * kMu0 * dv * mu * v * v;
            prev_[k][idx(i, j)] = v;
          }
        }
      }
    }
    return t;
  }

private:
  double dx() const { return m_.grid.d[0]; }
  double dy() const { return m_.grid.d[1]; }
  std::size_t idx(int i, int j) const { return static_cast<std::size_t>(i) * ny_ + j; }
  double at(Component c, int i, int j) const {
    if (i < 0 || j < 0 || i >= nx_ || j >= ny_) return 0;
    return f_[static_cast<int>(c)][idx(i, j)];
  }
  std::uint8_t id(Component c, int i, int j) const {
    const auto& ids = m_.ids[static_cast<int>(c)];
    return ids.empty() ? MaterialTable::kVacuum : ids[m_.layout.index(i, j, 0)];
  }
  bool pml(int i, int j) const {
    const auto& L = m_.upml.layers;
    return i < L[0] || i >= nx_ - L[1] || j < L[2] || j >= ny_ - L[3];
  }
  // (a, b, cp, cm) of axis a at cell index i, integer or half position.
  std::array<double, 4> prof(int a, int i, bool half) const {
    const AxisProfile& p = half ? m_.upml.half[a] : m_.upml.integer[a];
    return {p.a[i], p.b[i], p.cp[i], p.cm[i]};
  }

  // One sample of component c with curl bracket `curl`: the plain update or the UPML recursion
  // (upml_lanes.h) with the profiles at its position (z neutral).
  void update(Component c, int i, int j, double curl, bool electric) {
    const int k = static_cast<int>(c);
    double& f = f_[k][idx(i, j)];
    const double dt = m_.grid.dt;
    const std::uint8_t mid = id(c, i, j);
    if (!pml(i, j)) {
      if (electric) {
        const auto e = m_.materials.e_coefficients(mid, dt);
        f = e.ca * f + e.cb * curl;
      } else {
        f -= m_.materials.h_coefficients(mid, dt).db * curl;
      }
      return;
    }
    const std::array<double, 4> n{1, 1, 2, 2};
    std::array<double, 4> pv, pw, pu;
    const auto o = yee_offset(c);
    const auto px = prof(0, i, o[0] > 0), py = prof(1, j, o[1] > 0);
    // u = the component's axis, v and w the cyclic next ones; z neutral.
    switch (component_axis(c)) {
      case 0:
        pv = py, pw = n, pu = px;
        break;
      case 1:
        pv = n, pw = px, pu = py;
        break;
      default:
        pv = px, pw = py, pu = n;
        break;
    }
    const double scale = electric ? dt / kEps0 : -dt / kMu0;
    const double inv_r = electric
                             ? m_.materials.e_coefficients(mid, dt).inv_eps_r
                             : (m_.magnetic ? m_.materials.h_coefficients(mid, dt).inv_mu_r : 1.0);
    double& a = aux_[k][idx(i, j)];
    const double old = a;
    a = pv[0] * old + pv[1] * scale * curl;
    f = pw[0] * f + inv_r * (pu[2] * a - pu[3] * old) * pw[1] / 2;
  }

  const SimulationModel& m_;
  int nx_, ny_;
  std::array<std::vector<double>, 6> f_, aux_, prev_;
};

const std::vector<device::Api>& apis() {
  static const std::vector<device::Api> out = [] {
    std::vector<device::Api> a;
    for (device::Api api : {device::Api::OpenCL, device::Api::Cuda}) {
      if (!device::list_devices(api).empty()) a.push_back(api);
    }
    return a;
  }();
  return out;
}

DeviceConfig config(KernelVariant v, std::optional<std::array<int, 3>> wg = std::nullopt) {
  DeviceConfig c;
  c.variant = v;
  c.workgroup = wg;
  return c;
}

// Runs the engine and the loop side by side; checks every active component and probe series.
void compare(const SimulationModel& m, Backend& b, double rel_tol = 1e-5) {
  INFO("device: " << b.device_description() << ", variant: " << b.kernel_variant());
  PlaneLoop ref(m);
  const std::size_t ns = m.probes.samples.size();
  std::vector<double> want;  // [step][sample], steps 1..steps
  REQUIRE(m.grid.steps <= b.probe_batch_steps());
  for (long s = 0; s < m.grid.steps; ++s) {
    ref.step(s);
    b.step(s);
    b.sample_probes(static_cast<int>(s));
    for (const auto& p : m.probes.samples) {
      want.push_back(
          ref.field(p.component)[static_cast<std::size_t>(p.cell[0]) * m.grid.n[1] + p.cell[1]]);
    }
  }
  b.finish();
  CHECK(b.fields_finite());
  for (Component c : m.active_components()) {
    std::vector<float> got;
    b.read_field(c, got);
    const auto& w = ref.field(c);
    REQUIRE(got.size() == w.size());
    double max_ref = 0, max_diff = 0;
    std::size_t at = 0;
    for (std::size_t k = 0; k < w.size(); ++k) {
      max_ref = std::max(max_ref, std::abs(w[k]));
      if (std::abs(got[k] - w[k]) > max_diff) {
        max_diff = std::abs(got[k] - w[k]);
        at = k;
      }
    }
    INFO(std::string(component_name(c))
         << ": max |ref| " << max_ref << ", max |diff| " << max_diff << " at i " << at / m.grid.n[1]
         << " j " << at % m.grid.n[1]);
    CHECK(max_ref > 0);
    CHECK(max_diff <= rel_tol * max_ref);
  }
  if (ns > 0) {
    std::vector<double> got;
    b.read_probe_batch(static_cast<int>(m.grid.steps), got);
    REQUIRE(got.size() == want.size());
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
    CHECK(zero.size() == static_cast<std::size_t>(m.grid.n[0]) * m.grid.n[1]);
    CHECK(std::all_of(zero.begin(), zero.end(), [](float v) { return v == 0.0f; }));
  }
}

void compare_everywhere(const SimulationModel& m, const std::vector<std::array<int, 3>>& shapes) {
  for (device::Api api : apis()) {
    for (KernelVariant v : {KernelVariant::Tile, KernelVariant::Rows}) {
      INFO("api " << std::string(device::api_name(api)) << ", variant "
                  << std::string(variant_name(v)));
      compare(m, *make_plane_engine(api, m, config(v)));
      for (const auto& wg : shapes) compare(m, *make_plane_engine(api, m, config(v, wg)));
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

TEST_CASE("plane engine vs double loop: tm, UPML, dielectric, conductor, magnetic, PEC") {
  const SimulationModel m = plane_model(mixed_spec(PlaneMode::Tm));
  REQUIRE(m.magnetic);
  REQUIRE(m.layout.nyp() == 20);
  // Shapes that divide neither 21 rows nor 5 float4s, and one work-item per group.
  compare_everywhere(m, {{3, 2, 1}, {1, 1, 1}});
}

TEST_CASE("plane engine vs double loop: te, UPML, dielectric, conductor, magnetic, PEC") {
  const SimulationModel m = plane_model(mixed_spec(PlaneMode::Te));
  REQUIRE(m.magnetic);
  compare_everywhere(m, {{4, 3, 1}});
}

TEST_CASE("plane engine vs double loop: PEC walls only, non-magnetic, ny a multiple of 4") {
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

TEST_CASE("plane engine energy: the three sums against the double loop, tm and te") {
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
        PlaneLoop ref(m);
        std::vector<EnergyTerms> want;
        for (long st = 0; st < m.grid.steps; ++st) {
          ref.step(st);
          b->step(st);
          b->sample_energy(static_cast<int>(st));
          want.push_back(ref.energy());
        }
        std::vector<EnergyTerms> got;
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
      CHECK(engine.fields().allocated == b->device_bytes(m));
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
