// Plane waves (model/plane_wave.hpp) on the double-precision reference engine: outside the box
// the incident wave cancels to rounding, inside it is the waveform delayed by its travel from the
// driven node, with H = E / eta0 and E x H along the direction of travel; for every direction and
// polarisation. And the placements the model refuses.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <string>

#include "backends/physics_helpers.hpp"
#include "backends/reference/reference_backend.hpp"
#include "errors.hpp"
#include "model/waveforms.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kD = 1e-3;
constexpr int kN = 28;
constexpr int kLayers = 6;
constexpr double kPi = 3.14159265358979323846;

RunConfig wave_config(Axis e, int axis, int sign, long steps) {
  RunConfig cfg = box_config({kN, kN, kN}, kD, steps, BoundaryType::Upml, kLayers);
  // The box spans nodes 9 .. 19 on every axis.
  cfg.plane_waves = {plane_wave("pw", e, axis, sign, cells(14, 14, 14, kD), cells(10, 10, 10, kD),
                                WaveformKind::GaussianPulse, 10e9)};
  return cfg;
}

}  // namespace

TEST_CASE("plane wave: total field inside the box, nothing outside, every direction") {
  for (int axis = 0; axis < 3; ++axis) {
    for (int sign : {1, -1}) {
      for (int e = 0; e < 3; ++e) {
        if (e == axis) continue;
        INFO("E along " << std::string(1, "xyz"[e]) << ", travelling " << (sign > 0 ? "+" : "-")
                        << std::string(1, "xyz"[axis]));
        const long steps = 220;
        const RunConfig cfg = wave_config(static_cast<Axis>(e), axis, sign, steps);
        const SimulationModel m = SimulationModel::build(cfg);
        REQUIRE(m.plane_waves.size() == 1);
        const PlaneWaveModel& w = m.plane_waves.front();
        CHECK(w.lo == std::array<int, 3>{9, 9, 9});
        CHECK(w.hi == std::array<int, 3>{19, 19, 19});
        ReferenceBackend ref(m);
        const int q = 3 - e - axis;  // the H component's axis
        // The centre node 14: E_e there, H_q half a cell along the axis from it.
        std::array<int, 3> c{14, 14, 14};
        const std::size_t centre = m.layout.index(c[0], c[1], c[2]);
        double outside = 0, peak_e = 0, worst = 0, poynting = 0;
        const double drive = sign > 0 ? 9 - 3 : 19 + 3;  // the driven node (plane_wave.cpp)
        const double x_e = c[axis] + (axis == e ? 0.5 : 0.0);
        for (long s = 0; s < steps; ++s) {
          ref.step(s);
          const double t = static_cast<double>(s + 1) * m.grid.dt;
          const double delay = std::fabs(x_e - drive) * kD / kC0;
          const double expect = waveform_value(cfg.plane_waves.front(), t - delay);
          const double ev = ref.field(static_cast<Component>(e))[centre];
          worst = std::max(worst, std::fabs(ev - expect));
          peak_e = std::max(peak_e, std::fabs(ev));
          // H_q at (s + 1/2) dt beside E at (s + 1) dt: their product's sign is E x H's.
          const double hv = ref.field(static_cast<Component>(3 + q))[centre];
          const int cyc = (e + 1) % 3 == q ? 1 : -1;  // e x q = +-axis
          poynting += cyc * sign * ev * hv;
          if (s % 10 != 9) continue;
          for (int comp = 0; comp < 6; ++comp) {
            const auto& f = ref.field(static_cast<Component>(comp));
            for (int i = kLayers; i < kN - kLayers; ++i)
              for (int j = kLayers; j < kN - kLayers; ++j)
                for (int k = kLayers; k < kN - kLayers; ++k) {
                  // Cells 9 .. 19 hold samples inside the box (nodes 9 .. 19); 8 and 20 none.
                  const bool in = i >= 9 && i <= 19 && j >= 9 && j <= 19 && k >= 9 && k <= 19;
                  if (!in) outside = std::max(outside, std::fabs(f[m.layout.index(i, j, k)]));
                }
          }
        }
        CHECK(peak_e > 0.8);            // the pulse passed the centre (its peak is ~0.87)
        CHECK(worst < 0.01);            // dispersion over ~8 cells at 30 cells per wavelength
        CHECK(outside < 1e-12);         // cancelled to rounding
        CHECK(poynting > 0);            // power flows along the direction of travel
        // |H| = |E| / eta0 to within the half step and the grid's dispersion.
        const double hq = std::fabs(ref.field(static_cast<Component>(3 + q))[centre]);
        const double eq = std::fabs(ref.field(static_cast<Component>(e))[centre]);
        if (eq > 0.1) CHECK(hq * kEta0 == doctest::Approx(eq).epsilon(0.2));
      }
    }
  }
}

TEST_CASE("plane wave: oblique incidence, in every octant and both polarisations: the wave "
          "inside the box, little outside") {
  // Directions off every axis (one per octant, and two in a coordinate plane), E along the given
  // axis made perpendicular to the direction: the field at the box's centre is e_hat times the
  // waveform delayed by its travel along k_hat; outside, what the line's interpolation and its
  // dispersion (matched at the source's frequency) leave.
  const std::vector<std::pair<Vec3, Axis>> cases = {
      {{1, 0.5, 0.3}, Axis::Z},   {{-1, 0.7, 0.2}, Axis::X}, {{0.4, -1, 0.5}, Axis::Z},
      {{0.3, 0.6, -1}, Axis::Y},  {{-0.5, -0.5, 1}, Axis::X}, {{-1, 0.4, -0.6}, Axis::Z},
      {{0.6, -0.3, -1}, Axis::X}, {{-0.2, -1, -0.7}, Axis::Z}, {{1, 1, 0}, Axis::Z}, {{1, 0, 1}, Axis::X},
      {{1, 0.05, 0}, Axis::Z},    {{-1, 0.3, -0.2}, Axis::Y}};  // 3 degrees off x; the worst the review found
  for (const auto& [dir, e_axis] : cases) {
    INFO("direction " << dir.x << " " << dir.y << " " << dir.z << ", axis " << std::string(1, "xyz"[static_cast<int>(e_axis)]));
    const long steps = 200;
    RunConfig cfg = wave_config(e_axis, 0, 1, steps);
    const double len = std::sqrt(dir.x * dir.x + dir.y * dir.y + dir.z * dir.z);
    cfg.plane_waves.front().direction_vector = Vec3{dir.x / len, dir.y / len, dir.z / len};
    const SimulationModel m = SimulationModel::build(cfg);
    REQUIRE(m.plane_waves.size() == 1);
    const PlaneWaveModel& w = m.plane_waves.front();
    REQUIRE(w.oblique);
    // e_hat: unit, (nearly) across k_hat.
    double ek = 0, ee = 0;
    for (int a = 0; a < 3; ++a) {
      ek += w.e_hat[a] * w.k_hat[a];
      ee += w.e_hat[a] * w.e_hat[a];
    }
    // E is across the grid's numerical wave vector, which leans off k_hat by O((k d)^2).
    CHECK(std::fabs(ek) < 1e-2);
    CHECK(ee == doctest::Approx(1).epsilon(1e-12));
    CHECK(w.slowness == doctest::Approx(1).epsilon(0.02));
    ReferenceBackend ref(m);
    const std::size_t centre = m.layout.index(14, 14, 14);
    // xi of the driven node: kDriveCells (3) line nodes before row 0.
    const double xi_drive = w.xi_first - 3 * w.line_step_m;
    double outside = 0, inside = 0, worst = 0, poynting = 0;
    for (long s = 0; s < steps; ++s) {
      ref.step(s);
      const double t = static_cast<double>(s + 1) * m.grid.dt;
      for (int comp = 0; comp < 3; ++comp) {
        const Vec3 at = sample_position(static_cast<Component>(comp), {14, 14, 14}, m.grid.d);
        const double xi = w.k_hat[0] * at.x + w.k_hat[1] * at.y + w.k_hat[2] * at.z;
        const double expect = w.e_hat[comp] * waveform_value(cfg.plane_waves.front(), t - (xi - xi_drive) / kC0);
        const double ev = ref.field(static_cast<Component>(comp))[centre];
        worst = std::max(worst, std::fabs(ev - expect));
        inside = std::max(inside, std::fabs(ev));
      }
      // E x H . k_hat at the centre (H half a step and half a cell off: its sign only).
      std::array<double, 3> ev{}, hv{};
      for (int a = 0; a < 3; ++a) {
        ev[a] = ref.field(static_cast<Component>(a))[centre];
        hv[a] = ref.field(static_cast<Component>(3 + a))[centre];
      }
      poynting += (ev[1] * hv[2] - ev[2] * hv[1]) * w.k_hat[0] + (ev[2] * hv[0] - ev[0] * hv[2]) * w.k_hat[1] +
                  (ev[0] * hv[1] - ev[1] * hv[0]) * w.k_hat[2];
      if (s % 10 != 9) continue;
      for (int comp = 0; comp < 6; ++comp) {
        const auto& f = ref.field(static_cast<Component>(comp));
        const double scale = comp < 3 ? 1.0 : kEta0;
        for (int i = kLayers; i < kN - kLayers; ++i)
          for (int j = kLayers; j < kN - kLayers; ++j)
            for (int k = kLayers; k < kN - kLayers; ++k) {
              const bool in = i >= 8 && i <= 20 && j >= 8 && j <= 20 && k >= 8 && k <= 20;
              if (!in) outside = std::max(outside, scale * std::fabs(f[m.layout.index(i, j, k)]));
            }
      }
    }
    CHECK(inside > 0.6);            // the pulse passed the centre
    CHECK(worst < 0.02);            // the grid's dispersion over ~10 cells, at 20-30 cells a wavelength
    CHECK(poynting > 0);            // power flows along k_hat
    MESSAGE("leakage " << 20 * std::log10(outside / inside) << " dB");
    CHECK(outside < 1e-3 * inside);  // -60 dB
  }
}

TEST_CASE("plane wave: a scatterer inside the box shows outside, a box near the UPML is refused") {
  RunConfig cfg = wave_config(Axis::Z, 0, 1, 220);
  cfg.materials = {material("glass", 4, 1, 0)};
  cfg.objects = {sphere("ball", "glass", {14, 14, 14}, 3, kD)};
  const SimulationModel m = SimulationModel::build(cfg);
  ReferenceBackend ref(m);
  // Scattered field outside the box, past it (x = 22) on the axis of travel.
  double scattered = 0;
  for (long s = 0; s < 220; ++s) {
    ref.step(s);
    scattered = std::max(scattered, std::fabs(ref.field(Component::Ez)[m.layout.index(22, 14, 14)]));
  }
  CHECK(scattered > 1e-3);

  auto refused = [](RunConfig c, const std::string& text) {
    try {
      SimulationModel::build(c);
    } catch (const ConfigError& e) {
      INFO(std::string(e.what()));
      CHECK(std::string(e.what()).find(text) != std::string::npos);
      CHECK(e.key() == "source.pw.size");
      return;
    }
    FAIL("no ConfigError");
  };
  RunConfig near = wave_config(Axis::Z, 0, 1, 10);
  near.plane_waves.front().size_m = cells(20, 10, 10, kD);  // x nodes 4 .. 24: in the UPML
  refused(near, "at least 2 cells away from the UPML");
  RunConfig thin = wave_config(Axis::Z, 0, 1, 10);
  thin.plane_waves.front().size_m = cells(10, 0.2, 10, kD);
  refused(thin, "at least one cell thick along y");
  RunConfig crossing = wave_config(Axis::Z, 0, 1, 10);
  crossing.materials = {material("glass", 4, 1, 0)};
  crossing.objects = {box("slab", "glass", {14, 14, 14}, {30, 4, 4}, kD)};
  refused(crossing, "a total-field box whose surface lies in one material");
  // The slab's faces halve cells: those samples are named as mixtures (no key names them).
  refused(crossing, "is in a mixture of the materials an object's surface divides there");
  // Across the face y = 19 alone, which runs along E (z) and the travel (x): only H samples take
  // corrections there; the E samples they read are in the block.
  RunConfig side = wave_config(Axis::Z, 0, 1, 10);
  side.materials = {material("glass", 4, 1, 0)};
  side.objects = {box("block", "glass", {14, 19, 14}, {2, 2, 2}, kD)};
  refused(side, "a total-field box whose surface lies in one material");
  // A port's sample on the surface is a lossy one (its conductivity), so no vacuum either.
  RunConfig ported = wave_config(Axis::Z, 0, 1, 10);
  SourceConfig port = point_source("feed", SourceKind::Port, Axis::Z, cells(9, 14, 14.5, kD),
                                   WaveformKind::GaussianPulse, 10e9);
  ported.sources = {port};
  refused(ported, "a total-field box whose surface lies in one material");

  // Amplitude and frequency: checked like a point source's, naming the key.
  auto refused_key = [](RunConfig c, const std::string& key) {
    try {
      SimulationModel::build(c);
    } catch (const ConfigError& e) {
      INFO(std::string(e.what()));
      CHECK(e.key() == key);
      return;
    }
    FAIL("no ConfigError");
  };
  RunConfig loud = wave_config(Axis::Z, 0, 1, 10);
  loud.plane_waves.front().amplitude = 1e40;
  refused_key(loud, "source.pw.amplitude");
  loud.plane_waves.front().amplitude = std::nan("");
  refused_key(loud, "source.pw.amplitude");
  RunConfig fast = wave_config(Axis::Z, 0, 1, 10);
  fast.plane_waves.front().frequency_hz = 1e14;
  refused_key(fast, "source.pw.frequency");
}

TEST_CASE("plane wave: the incident intensity is the waveform's spectrum, 1/2 |E(f)|^2 / eta0") {
  // gaussian_pulse sin(2 pi f0 t') exp(-(t'/tau)^2): |W(f)| = tau sqrt(pi) / 2 |exp(-(pi tau
  // (f - f0))^2) - exp(-(pi tau (f + f0))^2)|, whatever the delay.
  RunConfig cfg = wave_config(Axis::Y, 2, -1, 600);
  cfg.plane_waves.front().amplitude = 3;
  const SimulationModel m = SimulationModel::build(cfg);
  const double f0 = 10e9, tau = 2 / (kPi * f0);
  const std::vector<double> freqs{5e9, 8e9, 10e9, 12e9, 15e9};
  const std::vector<double> got = incident_intensity(m.plane_waves.front(), freqs, m.grid.dt);
  REQUIRE(got.size() == freqs.size());
  for (std::size_t k = 0; k < freqs.size(); ++k) {
    const double f = freqs[k];
    const double w = tau * std::sqrt(kPi) / 2 *
                     std::fabs(std::exp(-std::pow(kPi * tau * (f - f0), 2)) -
                               std::exp(-std::pow(kPi * tau * (f + f0), 2)));
    const double expect = 0.5 * std::pow(3 * w, 2) / (kMu0 * kC0);
    INFO("f = " << f);
    CHECK(got[k] == doctest::Approx(expect).epsilon(0.02));
  }
}

TEST_CASE("plane wave: in a dielectric or lossy background, slower or decaying, nothing outside") {
  // A slab of background material fills the whole plain region; the box lies inside it.
  for (const double sigma : {0.0, 0.05}) {
    INFO("sigma " << sigma);
    RunConfig cfg = wave_config(Axis::Z, 0, 1, 260);
    cfg.materials = {material("soil", 4, 1, sigma)};
    cfg.objects = {box("ground", "soil", {14, 14, 14}, {40, 40, 40}, kD)};
    const SimulationModel m = SimulationModel::build(cfg);
    REQUIRE(m.plane_waves.size() == 1);
    CHECK(m.plane_waves.front().background == "soil");
    CHECK(m.plane_waves.front().impedance_ohm ==
          (sigma == 0 ? doctest::Approx(kMu0 * kC0 / 2) : doctest::Approx(0)));
    ReferenceBackend ref(m);
    const std::size_t centre = m.layout.index(14, 14, 14);
    double outside = 0, peak = 0, worst = 0;
    for (long s = 0; s < 260; ++s) {
      ref.step(s);
      // At half the speed of light: the driven node (6) is 8 cells before the centre.
      const double t = static_cast<double>(s + 1) * m.grid.dt;
      const double expect = waveform_value(cfg.plane_waves.front(), t - 8 * kD / (kC0 / 2));
      const double ev = ref.field(Component::Ez)[centre];
      peak = std::max(peak, std::fabs(ev));
      worst = std::max(worst, std::fabs(ev - expect));
      for (int i = kLayers; i < kN - kLayers; ++i)
        for (int k : {7, 21})
          outside = std::max(outside, std::fabs(ref.field(Component::Ez)[m.layout.index(i, 14, k)]));
    }
    CHECK(outside < 1e-12);
    if (sigma == 0) {
      CHECK(peak > 0.8);
      CHECK(worst < 0.05);  // dispersion: 15 cells per wavelength in the soil at 10 GHz, 7.5 at 20
    } else {
      // sigma / (omega eps) ~ 0.22 at 10 GHz: the pulse has lost a part of itself over 8 mm
      CHECK(peak < 0.85);
      CHECK(peak > 0.5);
    }
  }
}

TEST_CASE("plane wave: oblique in a dielectric background, at its speed; refused in a lossy one") {
  for (const double sigma : {0.0, 0.05}) {
    INFO("sigma " << sigma);
    RunConfig cfg = wave_config(Axis::Z, 0, 1, 420);
    cfg.plane_waves.front().frequency_hz = 5e9;  // 15 cells per wavelength in the soil's top band
    cfg.plane_waves.front().direction_vector = Vec3{0.6, 0.8, 0};
    cfg.materials = {material("soil", 4, 1, sigma)};
    cfg.objects = {box("ground", "soil", {14, 14, 14}, {40, 40, 40}, kD)};
    if (sigma > 0) {
      CHECK_THROWS_WITH_AS(SimulationModel::build(cfg),
                           doctest::Contains("an oblique wave needs a lossless, non-dispersive one"),
                           ConfigError);
      continue;
    }
    const SimulationModel m = SimulationModel::build(cfg);
    const PlaneWaveModel& w = m.plane_waves.front();
    CHECK(w.background == "soil");
    CHECK(w.impedance_ohm == doctest::Approx(kMu0 * kC0 / 2));
    ReferenceBackend ref(m);
    const std::size_t centre = m.layout.index(14, 14, 14);
    const Vec3 at = sample_position(Component::Ez, {14, 14, 14}, m.grid.d);
    const double xi = w.k_hat[0] * at.x + w.k_hat[1] * at.y - (w.xi_first - 3 * w.line_step_m);
    double outside = 0, peak = 0, worst = 0;
    for (long s = 0; s < 420; ++s) {
      ref.step(s);
      const double t = static_cast<double>(s + 1) * m.grid.dt;
      const double ev = ref.field(Component::Ez)[centre];
      peak = std::max(peak, std::fabs(ev));
      worst = std::max(worst, std::fabs(ev - waveform_value(cfg.plane_waves.front(), t - xi / (kC0 / 2))));
      for (int i = kLayers; i < kN - kLayers; ++i)
        for (int k : {7, 21})
          outside = std::max(outside, std::fabs(ref.field(Component::Ez)[m.layout.index(i, 14, k)]));
    }
    CHECK(peak > 0.8);  // the pulse passed the centre
    CHECK(worst < 0.05);
    MESSAGE("leakage " << 20 * std::log10(outside / peak) << " dB");
    CHECK(outside < 1e-3 * peak);
  }
}

TEST_CASE("plane wave: oblique placements that build, and a frequency the grid cannot carry") {
  // H along x (direction in the y-z plane): the Ex sample at the box's low corner takes no
  // correction and is read by none, so an object there is no part of the surface (the code
  // review's case, once an internal error).
  RunConfig cfg = wave_config(Axis::Y, 0, 1, 10);
  cfg.plane_waves.front().direction_vector = Vec3{0, std::sqrt(0.5), std::sqrt(0.5)};
  cfg.materials = {material("glass", 4, 1, 0), material("lossy", 2, 1, 0.5)};
  cfg.objects = {box("dot", "glass", {9.5, 9, 9}, {0.4, 0.4, 0.4}, kD)};
  const SimulationModel m = SimulationModel::build(cfg);
  CHECK(m.plane_waves.front().background == "vacuum");
  cfg.objects[0].material = "lossy";
  CHECK(SimulationModel::build(cfg).plane_waves.front().background == "vacuum");
  // 1 mm cells, dt at 0.9 of the limit: the grid carries up to 152 GHz along this diagonal of a
  // face (206 GHz along a cube's diagonal, the config's limit): 180 GHz has no wave along it.
  cfg.objects.clear();
  cfg.plane_waves.front().frequency_hz = 180e9;
  CHECK_THROWS_WITH_AS(SimulationModel::build(cfg),
                       doctest::Contains("is above the grid's cut-off along it"), ConfigError);
}

TEST_CASE("plane wave: monitors that cross the total-field box are warned about") {
  // The box spans nodes 9 .. 19 (wave_config); monitors in nodes, 1 mm cells.
  auto monitor = [](const std::string& name, MonitorKind kind, const Vec3& lo, const Vec3& hi) {
    MonitorConfig c;
    c.name = name;
    c.kind = kind;
    c.box_lo = cells(lo[0], lo[1], lo[2], kD);
    c.box_hi = cells(hi[0], hi[1], hi[2], kD);
    c.frequencies_hz = {10e9};
    return c;
  };
  RunConfig cfg = wave_config(Axis::Z, 0, 1, 50);
  cfg.monitors = {monitor("around", MonitorKind::Flux, {8, 8, 8}, {20, 20, 20}),
                  monitor("inside", MonitorKind::Flux, {10, 10, 10}, {18, 18, 18}),
                  monitor("plane_in", MonitorKind::Flux, {12, 10, 10}, {12, 18, 18}),
                  monitor("crossing", MonitorKind::Flux, {12, 8, 8}, {20, 20, 20}),
                  monitor("on_face", MonitorKind::Flux, {9, 8, 8}, {20, 20, 20}),
                  monitor("ff_around", MonitorKind::FarField, {7, 7, 7}, {21, 21, 21}),
                  monitor("ff_inside", MonitorKind::FarField, {10, 10, 10}, {18, 18, 18})};
  const SimulationModel m = SimulationModel::build(cfg);
  auto warned = [&](const std::string& name) {
    for (const std::string& w : m.warnings)
      if (w.rfind("monitor '" + name + "' and plane wave", 0) == 0) return true;
    return false;
  };
  CHECK_FALSE(warned("around"));
  CHECK_FALSE(warned("inside"));
  CHECK_FALSE(warned("plane_in"));
  CHECK(warned("crossing"));
  CHECK(warned("on_face"));
  CHECK_FALSE(warned("ff_around"));
  CHECK(warned("ff_inside"));
  auto no_column = [&](const SimulationModel& model) {
    for (const std::string& w : model.warnings)
      if (w.find("no cross_section_m2 column") != std::string::npos) return true;
    return false;
  };
  CHECK_FALSE(no_column(m));  // vacuum
  // In a lossy or dispersive background the flux CSV has no cross-section column: said once per
  // flux monitor.
  cfg.monitors = {monitor("around", MonitorKind::Flux, {8, 8, 8}, {20, 20, 20})};
  cfg.objects = {box("fill", "soil", {14, 14, 14}, {40, 40, 40}, kD)};
  for (const MaterialConfig& soil : {material("soil", 4, 1, 0.01), dispersive("soil", 4, {pole(PoleKind::Debye, 6, 2e-11)}),
                                     material("soil", 4, 1, 0)}) {
    cfg.materials = {soil};
    const SimulationModel lit = SimulationModel::build(cfg);
    CHECK(no_column(lit) == (soil.sigma != 0 || !soil.poles.empty()));
  }
  // Two waves, or a wave and a point source: no column either, and said so.
  cfg.objects.clear();
  cfg.materials.clear();
  RunConfig two = cfg;
  two.plane_waves.push_back(plane_wave("pw2", Axis::Y, 2, 1, cells(14, 14, 14, kD), cells(10, 10, 10, kD),
                                       WaveformKind::GaussianPulse, 10e9));
  auto said = [](const SimulationModel& model, const std::string& text) {
    for (const std::string& w : model.warnings)
      if (w.find(text) != std::string::npos) return true;
    return false;
  };
  CHECK(said(SimulationModel::build(two), "no cross_section_m2 column (2 plane waves light the model"));
  RunConfig driven = cfg;
  driven.sources = {point_source("d", SourceKind::Dipole, Axis::Z, cells(7.2, 14, 14, kD),
                                 WaveformKind::Gaussian, 10e9, 1e-15)};
  CHECK(said(SimulationModel::build(driven), "no cross_section_m2 column (a point source or port drives"));
  CHECK_FALSE(said(SimulationModel::build(cfg), "no cross_section_m2 column"));
  // An explicit device.halo_overlap = true cannot hold with plane waves: said, not ignored.
  const std::string unused = "device.halo_overlap = true is not used";
  CHECK_FALSE(said(SimulationModel::build(cfg), unused));
  RunConfig overlap = cfg;
  overlap.cli_keys.insert("device.halo_overlap");
  CHECK(said(SimulationModel::build(overlap), unused + ": over MPI ranks a model with plane waves"));
  overlap.device.halo_overlap = false;
  CHECK_FALSE(said(SimulationModel::build(overlap), unused));
  // A far-field box in one lossless medium takes its eps_r and mu_r; in two materials, or in a
  // lossy one, vacuum's, and a warning says so.
  RunConfig ff = cfg;
  ff.monitors = {monitor("ff", MonitorKind::FarField, {7, 7, 7}, {21, 21, 21})};
  const std::string needs = "the far-field transform needs one lossless, non-dispersive medium";
  const SimulationModel in_vacuum = SimulationModel::build(ff);
  CHECK_FALSE(said(in_vacuum, needs));
  CHECK(in_vacuum.monitors.front().medium_eps_r == 1);
  ff.materials = {material("glass", 2, 1.5, 0)};
  ff.objects = {box("fill", "glass", {14, 14, 14}, {40, 40, 40}, kD)};
  const SimulationModel in_glass = SimulationModel::build(ff);
  CHECK_FALSE(said(in_glass, needs));
  CHECK(in_glass.monitors.front().medium_eps_r == 2);
  CHECK(in_glass.monitors.front().medium_mu_r == 1.5);
  ff.objects = {box("half", "glass", {14, 14, 3.5}, {40, 40, 8}, kD)};  // z < 7.5: across the ff box
  const SimulationModel half = SimulationModel::build(ff);
  CHECK(said(half, "monitor 'ff': its surface lies in '"));
  CHECK(said(half, "' and in '"));
  CHECK(said(half, needs));
  CHECK(half.monitors.front().medium_eps_r == 1);
  ff.materials = {material("glass", 2, 1, 0.01)};
  ff.objects = {box("fill", "glass", {14, 14, 14}, {40, 40, 40}, kD)};
  CHECK(said(SimulationModel::build(ff), "lies in 'glass', which conducts"));
}

TEST_CASE("plane wave: in a dispersive background, nothing outside, the line's field inside") {
  // The Debye background fills the grid, layers included; Drude and Lorentz ones (refused in the
  // layers) the cells 7..21 around the box (its corrections touch 8..20). The line takes the
  // grid's pole step, so the corrections cancel outside to rounding and the total field inside
  // is the line's own.
  for (const MaterialConfig& bg :
       {dispersive("water", 4, {pole(PoleKind::Debye, 6, 2e-11, 0)}),
        dispersive("plasma", 1, {pole(PoleKind::Drude, 5e9, 1e9, 0)}),
        dispersive("osc", 2, {pole(PoleKind::Lorentz, 2, 30e9, 1e9)})}) {
    INFO("background " << bg.name);
    RunConfig cfg = wave_config(Axis::Z, 0, 1, 200);
    cfg.materials = {bg};
    const bool debye = bg.poles.front().kind == PoleKind::Debye;
    const double fill = debye ? 40 : 14;
    cfg.objects = {box("fill", bg.name, {14, 14, 14}, {fill, fill, fill}, kD)};
    const SimulationModel m = SimulationModel::build(cfg);
    REQUIRE(m.plane_waves.size() == 1);
    const PlaneWaveModel& w = m.plane_waves.front();
    CHECK(w.background == bg.name);
    CHECK(w.impedance_ohm == 0);  // frequency-dependent: no incident intensity
    CHECK(m.dispersion.any_upml == debye);
    ReferenceBackend ref(m);
    const std::size_t centre = m.layout.index(14, 14, 14);
    const int row = 14 - w.first;  // the line's node at the centre
    double outside = 0, peak = 0, worst = 0;
    for (long s = 0; s + 1 < 200; ++s) {
      ref.step(s);
      const double ev = ref.field(Component::Ez)[centre];
      const double line = w.table[static_cast<std::size_t>(s + 1) * w.row_width() + row];
      peak = std::max(peak, std::fabs(ev));
      worst = std::max(worst, std::fabs(ev - line));
      for (int i = kLayers; i < kN - kLayers; ++i)
        for (int k : {7, 21})
          outside = std::max(outside, std::fabs(ref.field(Component::Ez)[m.layout.index(i, 14, k)]));
    }
    CHECK(peak > 0.2);
    CHECK(worst < 1e-12);
    CHECK(outside < 1e-12);
  }
}

// An anisotropic background (docs/EQUATIONS.md "Anisotropic materials"): a wave along an axis
// with E along p and H along q meets eps_p, sigma_p and the poles along p, and mu_q; the line
// takes those, so the corrections cancel outside to rounding (a line with another axis' values
// leaves a wave outside) and the total field inside is the line's own.
TEST_CASE("plane wave: in an anisotropic background, each polarisation at its own axes' values, nothing outside") {
  MaterialConfig crystal = anisotropic_material("crystal", {2, 4, 6}, {1.5, 1, 2}, {0, 0, 0});
  MaterialConfig wet = anisotropic_material("wet", {3, 2, 2}, {1, 1, 1}, {0, 0.02, 0});
  wet.pole_axes[0] = {pole(PoleKind::Debye, 6, 2e-11, 0)};  // poles along x only
  struct Case {
    Axis e;
    int axis, sign;
    const MaterialConfig* bg;
    int p, q;  // E's and H's axes
  };
  const Case cases[] = {{Axis::X, 2, 1, &crystal, 0, 1}, {Axis::Y, 2, 1, &crystal, 1, 0},
                        {Axis::Z, 0, -1, &crystal, 2, 1}, {Axis::X, 1, -1, &crystal, 0, 2},
                        {Axis::X, 2, 1, &wet, 0, 1},      {Axis::Y, 2, -1, &wet, 1, 0},
                        {Axis::Z, 1, 1, &wet, 2, 0}};  // wet along z: lossless, an impedance
  for (const Case& c : cases) {
    INFO("background " << c.bg->name << ", E along " << std::string(1, "xyz"[c.p]) << ", travel along "
                        << std::string(1, "xyz"[c.axis]));
    RunConfig cfg = wave_config(c.e, c.axis, c.sign, 160);
    cfg.materials = {*c.bg};
    cfg.objects = {box("fill", c.bg->name, {14, 14, 14}, {40, 40, 40}, kD)};
    const SimulationModel m = SimulationModel::build(cfg);
    REQUIRE(m.plane_waves.size() == 1);
    const PlaneWaveModel& w = m.plane_waves.front();
    CHECK(w.background == c.bg->name);
    const bool plain = c.bg->sigma_axes[static_cast<std::size_t>(c.p)] == 0 && c.bg->poles_along(static_cast<std::size_t>(c.p)).empty();
    CHECK((w.impedance_ohm > 0) == plain);
    CHECK(w.impedance_ohm == (plain ? doctest::Approx(kMu0 * kC0 * std::sqrt(c.bg->mu_axes[static_cast<std::size_t>(c.q)] /
                                                                              c.bg->eps_axes[static_cast<std::size_t>(c.p)]))
                                    : doctest::Approx(0)));
    ReferenceBackend ref(m);
    const Component ec = static_cast<Component>(c.p);
    const std::size_t centre = m.layout.index(14, 14, 14);
    const int row = 14 - w.first;
    double outside = 0, peak = 0, worst = 0;
    for (long s = 0; s + 1 < 160; ++s) {
      ref.step(s);
      const double ev = ref.field(ec)[centre];
      const double line = w.table[static_cast<std::size_t>(s + 1) * w.row_width() + row];
      peak = std::max(peak, std::fabs(ev));
      worst = std::max(worst, std::fabs(ev - line));
      // Two planes across the travel, 2 cells outside the box on either side.
      for (int i = kLayers; i < kN - kLayers; ++i)
        for (int k : {7, 21}) {
          std::array<int, 3> at{14, 14, 14};
          at[static_cast<std::size_t>(c.axis)] = k;
          at[static_cast<std::size_t>(c.axis == 0 ? 1 : 0)] = i;
          outside = std::max(outside, std::fabs(ref.field(ec)[m.layout.index(at[0], at[1], at[2])]));
        }
    }
    CHECK(peak > 0.1);  // the Debye axis' loss takes a part of the pulse
    CHECK(worst < 1e-12);
    CHECK(outside < 1e-12 * peak);
  }
}

// An oblique wave in an anisotropic background is refused (its line has one speed).
TEST_CASE("plane wave: an oblique wave in an anisotropic background is refused") {
  RunConfig cfg = wave_config(Axis::X, 2, 1, 10);
  cfg.materials = {anisotropic_material("crystal", {2, 4, 6}, {1, 1, 1}, {0, 0, 0})};
  cfg.objects = {box("fill", "crystal", {14, 14, 14}, {40, 40, 40}, kD)};
  cfg.plane_waves[0].direction_vector = Vec3{0.3, 0, 1};
  try {
    SimulationModel::build(cfg);
    FAIL("built");
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()).find("which is anisotropic (a wave along an axis, +x .. -z, may travel in one;") !=
          std::string::npos);
  }
}

TEST_CASE("plane wave: a sine in a Lorentz background has the wavenumber of the discrete dispersion relation") {
  // Yee's leapfrog with the trapezoidal pole step: sin(k d / 2) / d = sqrt(eps_d) sin(w dt / 2) /
  // (c dt), eps_d = eps_inf + chi(W), W = (2 / dt) tan(w dt / 2) (complex with the pole's loss).
  // Below the resonance (f0 = 30 GHz) at 12 GHz eps is about 2 + 2 / (1 - 0.16) = 4.4: the
  // phase over 4 cells of the line must match the relation to 1e-3 rad, and differ from what
  // eps_inf alone gives by far more.
  const double f = 12e9, f0 = 30e9, gamma = 2e9, d_eps = 2, eps_inf = 2;
  RunConfig cfg = wave_config(Axis::Z, 0, 1, 2400);
  cfg.plane_waves.front().waveform = WaveformKind::Sine;
  cfg.plane_waves.front().frequency_hz = f;
  cfg.materials = {dispersive("osc", eps_inf, {pole(PoleKind::Lorentz, d_eps, f0, gamma)})};
  cfg.objects = {box("fill", "osc", {14, 14, 14}, {14, 14, 14}, kD)};
  const SimulationModel m = SimulationModel::build(cfg);
  const PlaneWaveModel& w = m.plane_waves.front();
  const double dt = m.grid.dt, wdt = 2 * kPi * f * dt;
  // Least squares of a cos(w t) + b sin(w t) over the last 1000 steps: the phasor a - i b.
  auto phasor = [&](int row) {
    double cc = 0, ss = 0, cs = 0, xc = 0, xs = 0;
    for (long s = 1400; s < 2400; ++s) {
      const double x = w.table[static_cast<std::size_t>(s) * w.row_width() + row];
      const double c = std::cos(wdt * static_cast<double>(s)), sn = std::sin(wdt * static_cast<double>(s));
      cc += c * c;
      ss += sn * sn;
      cs += c * sn;
      xc += x * c;
      xs += x * sn;
    }
    const double det = cc * ss - cs * cs;
    return std::complex<double>((xc * ss - xs * cs) / det, -(xs * cc - xc * cs) / det);
  };
  const double measured = -std::arg(phasor(6) / phasor(2));  // Re k 4 d
  const double big_w = 2 / dt * std::tan(wdt / 2), w0 = 2 * kPi * f0;
  const std::complex<double> eps_d =
      eps_inf + d_eps * w0 * w0 / std::complex<double>(w0 * w0 - big_w * big_w, -big_w * 2 * kPi * gamma);
  auto phase_over_4 = [&](std::complex<double> eps) {
    return 4 * std::real(2.0 * std::asin(kD * std::sqrt(eps) * std::sin(wdt / 2) / (kC0 * dt)));
  };
  MESSAGE("phase over 4 cells: " << measured << " rad; discrete relation " << phase_over_4(eps_d)
                                 << ", eps_inf alone " << phase_over_4(eps_inf));
  CHECK(std::fabs(measured - phase_over_4(eps_d)) < 1e-3);
  CHECK(std::fabs(measured - phase_over_4(eps_inf)) > 0.3);
}
