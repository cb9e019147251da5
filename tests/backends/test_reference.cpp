// Physics sanity of the reference engine on its own (it is the oracle the device kernels are
// compared with, so it must be right by itself): two steps checked by hand, energy conservation
// and the analytic resonance of a PEC cavity, materials, UPML absorption and neutrality, mirror
// symmetry, PEC objects and walls, read_field and probe batches. Each case runs well under 2 s
// (Release) on a small grid.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/reference/reference_backend.hpp"
#include "backends/physics_helpers.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kD = 1e-3;  // cell size of every test grid, m

// |DFT| of x (time step dt) at frequency f, Hann-windowed, mean removed.
double dft_magnitude(const std::vector<double>& x, double dt, double f) {
  const std::size_t n = x.size();
  double mean = 0;
  for (double v : x) mean += v;
  mean /= static_cast<double>(n);
  std::complex<double> sum = 0;
  for (std::size_t t = 0; t < n; ++t) {
    const double w = 0.5 - 0.5 * std::cos(2 * kPi * static_cast<double>(t) / (n - 1));
    sum += w * (x[t] - mean) * std::polar(1.0, -2 * kPi * f * static_cast<double>(t) * dt);
  }
  return std::abs(sum);
}

// Energies of the state s (E at s dt) over the whole grid, measured around the step s -> s+1,
// which this performs. With the material weights eps = eps0 eps_r (per E sample) and
// mu = mu0 mu_r (per H sample):
//   invariant = dV sum (eps E^s.E^s + mu H^(s-1/2).H^(s+1/2)), exactly conserved by the lossless
//               scheme (and decreasing by dt sigma |E^(s+1) + E^s|^2 / 2 per step with losses);
//   centred   = dV sum (eps E^s.E^s + mu Hbar^2), Hbar = (H^(s-1/2) + H^(s+1/2)) / 2, the physical
//               energy to O(dt^2).
struct Energies {
  double invariant = 0, centred = 0;
};

Energies step_measuring_energy(ReferenceBackend& b, const SimulationModel& m, long s) {
  const std::size_t cells = m.layout.cells();
  auto weight = [&](int c, std::size_t q) {
    if (c < 3) return kEps0 * m.materials.entry(m.ids[c][q]).eps_r;
    const double mu_r = m.magnetic ? m.materials.entry(m.ids[c][q]).mu_r : 1.0;
    return kMu0 * mu_r;
  };
  Energies w;
  std::array<std::vector<double>, 3> h_old;
  for (int c = 0; c < 3; ++c) {
    const auto& e = b.field(static_cast<Component>(c));
    for (std::size_t q = 0; q < cells; ++q) w.invariant += weight(c, q) * e[q] * e[q];
    h_old[c] = b.field(static_cast<Component>(c + 3));
  }
  w.centred = w.invariant;
  b.step(s);
  for (int c = 0; c < 3; ++c) {
    const auto& h = b.field(static_cast<Component>(c + 3));
    for (std::size_t q = 0; q < cells; ++q) {
      const double mid = 0.5 * (h_old[c][q] + h[q]);
      w.invariant += weight(c + 3, q) * h_old[c][q] * h[q];
      w.centred += weight(c + 3, q) * mid * mid;
    }
  }
  const double dv = m.grid.d[0] * m.grid.d[1] * m.grid.d[2];
  w.invariant *= dv;
  w.centred *= dv;
  return w;
}

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

}  // namespace

TEST_CASE("reference: identity and interface constants") {
  RunConfig cfg = box_config({6, 5, 7}, kD, 2, BoundaryType::Pec);
  const SimulationModel m = SimulationModel::build(cfg);
  ReferenceBackend b(m);
  CHECK(b.name() == "reference");
  CHECK(b.device_description() == "host CPU (double precision reference)");
  CHECK(b.kernel_variant() == "double loops");
  CHECK(b.probe_batch_steps() == 256);
  for (int c = 0; c < 6; ++c) {
    CHECK(b.field(static_cast<Component>(c)).size() == m.layout.cells());
    CHECK(max_abs(b.field(static_cast<Component>(c))) == 0.0);
  }
  CHECK(b.fields_finite());
}

// Two steps by hand on a grid of unequal cell sides (dx, dy, dz = 1, 1.5, 2 mm): an Ez and an Ex
// current source in empty space. Step 0 only deposits -cb J[0]; step 1 spreads it to the four H
// samples around each (signs and 1/d per axis from the Plain update section) and adds -cb J[1].
TEST_CASE("reference: the first two steps by hand on unequal cells") {
  const std::array<double, 3> d{1e-3, 1.5e-3, 2e-3};
  RunConfig cfg = box_config({10, 9, 8}, kD, 2, BoundaryType::Pec);
  cfg.grid.size_m = Vec3{10 * d[0], 9 * d[1], 8 * d[2]};
  cfg.grid.cell_size_m = Vec3{d[0], d[1], d[2]};
  auto at_sample = [&](Component c, int i, int j, int k) {
    return sample_position(c, {i, j, k}, d);
  };
  cfg.sources.push_back(point_source("z", SourceKind::Current, Axis::Z,
                                     at_sample(Component::Ez, 3, 3, 3), WaveformKind::Sine, 20e9,
                                     5.0));
  cfg.sources.push_back(point_source("x", SourceKind::Current, Axis::X,
                                     at_sample(Component::Ex, 6, 5, 5), WaveformKind::Sine, 20e9,
                                     -3.0));
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.sources[0].cell == std::array<int, 3>{3, 3, 3});
  REQUIRE(m.sources[1].cell == std::array<int, 3>{6, 5, 5});
  const double cb = m.materials.e_coefficients(MaterialTable::kVacuum, m.grid.dt).cb;
  const double db = m.materials.h_coefficients(MaterialTable::kVacuum, m.grid.dt).db;
  const auto& jz = m.sources[0].j;
  const auto& jx = m.sources[1].j;
  REQUIRE(jz[0] != 0.0);
  REQUIRE(jx[0] != 0.0);

  ReferenceBackend b(m);
  auto val = [&](Component c, int i, int j, int k) { return b.field(c)[m.layout.index(i, j, k)]; };
  b.step(0);
  const double ez0 = -cb * jz[0], ex0 = -cb * jx[0];
  CHECK(val(Component::Ez, 3, 3, 3) == ez0);
  CHECK(val(Component::Ex, 6, 5, 5) == ex0);
  for (int c = 3; c < 6; ++c) CHECK(max_abs(b.field(static_cast<Component>(c))) == 0.0);

  b.step(1);
  // From Ez(3,3,3): Hx -= db (dEz/dy), Hy -= db (-dEz/dx).
  CHECK(val(Component::Hx, 3, 3, 3) == doctest::Approx(db * ez0 / d[1]).epsilon(1e-13));
  CHECK(val(Component::Hx, 3, 2, 3) == doctest::Approx(-db * ez0 / d[1]).epsilon(1e-13));
  CHECK(val(Component::Hy, 3, 3, 3) == doctest::Approx(-db * ez0 / d[0]).epsilon(1e-13));
  CHECK(val(Component::Hy, 2, 3, 3) == doctest::Approx(db * ez0 / d[0]).epsilon(1e-13));
  // From Ex(6,5,5): Hy -= db (dEx/dz), Hz -= db (-dEx/dy).
  CHECK(val(Component::Hy, 6, 5, 5) == doctest::Approx(db * ex0 / d[2]).epsilon(1e-13));
  CHECK(val(Component::Hy, 6, 5, 4) == doctest::Approx(-db * ex0 / d[2]).epsilon(1e-13));
  CHECK(val(Component::Hz, 6, 5, 5) == doctest::Approx(-db * ex0 / d[1]).epsilon(1e-13));
  CHECK(val(Component::Hz, 6, 4, 5) == doctest::Approx(db * ex0 / d[1]).epsilon(1e-13));
  int nonzero_h = 0;
  for (int c = 3; c < 6; ++c) {
    for (double v : b.field(static_cast<Component>(c))) nonzero_h += v != 0.0;
  }
  CHECK(nonzero_h == 8);
  // Back on the sources: Ez += cb (dHy/dx - dHx/dy) - cb J[1], and the same for Ex.
  const double ez1 = ez0 + cb * ((-db * ez0 / d[0] - db * ez0 / d[0]) / d[0] -
                                 (db * ez0 / d[1] + db * ez0 / d[1]) / d[1]) - cb * jz[1];
  const double ex1 = ex0 + cb * ((-db * ex0 / d[1] - db * ex0 / d[1]) / d[1] -
                                 (db * ex0 / d[2] + db * ex0 / d[2]) / d[2]) - cb * jx[1];
  CHECK(val(Component::Ez, 3, 3, 3) == doctest::Approx(ez1).epsilon(1e-13));
  CHECK(val(Component::Ex, 6, 5, 5) == doctest::Approx(ex1).epsilon(1e-13));
  // And the first E neighbours they reach: Ex(3,3,3) = cb (dHz/dy - dHy/dz) = -cb Hy(3,3,3)/dz,
  // Ez(6,5,4) = cb (dHy/dx - dHx/dy) = cb Hy(6,5,4)/dx.
  const double ex_n = -cb * (-db * ez0 / d[0]) / d[2];
  const double ez_n = cb * (-db * ex0 / d[2]) / d[0];
  CHECK(val(Component::Ex, 3, 3, 3) == doctest::Approx(ex_n).epsilon(1e-13));
  CHECK(val(Component::Ez, 6, 5, 4) == doctest::Approx(ez_n).epsilon(1e-13));
}

// A 24 x 20 x 10 mm PEC box (z the shortest side): the lowest mode is TM110 (Ez only),
// f = c/2 sqrt(1/a^2 + 1/b^2) = 9.76 GHz; the next (TM210) lies near 14.6 GHz.
TEST_CASE("reference: PEC cavity keeps its energy and rings at the analytic TM110 frequency") {
  const std::array<int, 3> n{24, 20, 10};
  const double a = n[0] * kD, bside = n[1] * kD;
  const double f110 = kC0 / 2 * std::sqrt(1 / (a * a) + 1 / (bside * bside));
  const long steps = 4000;

  RunConfig cfg = box_config(n, kD, steps, BoundaryType::Pec);
  // A z current off every symmetry plane, broadband enough to reach f110 (e^-1 at 15 GHz).
  cfg.sources.push_back(point_source("feed", SourceKind::Current, Axis::Z,
                                     yee_position(Component::Ez, 7, 6, 4, kD),
                                     WaveformKind::Gaussian, 15e9, 1e3));
  cfg.probes.push_back(
      point_probe("p", yee_position(Component::Ez, 17, 13, 6, kD), {Component::Ez}));
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.sources.size() == 1);
  REQUIRE(m.sources[0].cell == std::array<int, 3>{7, 6, 4});
  REQUIRE(m.probes.samples.size() == 1);
  const double dt = m.grid.dt;
  // The gaussian is below 1e-12 of its peak after t0 + 5.3 tau (t0 = 4 tau, tau = 1/(pi f)).
  const long quiet_from = static_cast<long>(std::ceil(9.3 / (kPi * 15e9) / dt)) + 1;
  REQUIRE(quiet_from < 200);

  ReferenceBackend b(m);
  ProbeRecorder rec(b, m);
  std::vector<double> invariant, centred;  // energies sampled after the source is off
  for (long s = 0; s <= steps; ++s) {
    rec.at_state(s);
    if (s == steps) break;
    if (s >= 200 && s % 25 == 0) {
      const Energies w = step_measuring_energy(b, m, s);
      invariant.push_back(w.invariant);
      centred.push_back(w.centred);
    } else {
      b.step(s);
    }
  }
  CHECK(b.fields_finite());

  REQUIRE(invariant.size() > 100);
  REQUIRE(invariant.front() > 0);
  double inv_drift = 0, centred_drift = 0;
  for (std::size_t q = 0; q < invariant.size(); ++q) {
    inv_drift = std::max(inv_drift, std::abs(invariant[q] / invariant.front() - 1));
    centred_drift = std::max(centred_drift, std::abs(centred[q] / centred.front() - 1));
  }
  INFO("invariant drift " << inv_drift << ", time-centred energy drift " << centred_drift);
  CHECK(centred_drift < 0.01);
  CHECK(inv_drift < 1e-9);

  // Spectrum of the probe after the source is off: the strongest line near f110.
  const auto series = rec.take();
  REQUIRE(series.size() == 1);
  REQUIRE(series[0].size() == static_cast<std::size_t>(steps + 1));
  const std::vector<double> ring(series[0].begin() + 200, series[0].end());
  double best_f = 0, best = -1;
  for (int q = 0; q <= 1200; ++q) {
    const double f = f110 * (0.6 + 0.8 * q / 1200.0);  // 0.6 .. 1.4 f110: TM110 only
    const double mag = dft_magnitude(ring, dt, f);
    if (mag > best) {
      best = mag;
      best_f = f;
    }
  }
  INFO("spectral peak " << best_f << " Hz, analytic TM110 " << f110 << " Hz");
  CHECK(std::abs(best_f / f110 - 1) < 0.02);
  CHECK(best_f > 0.61 * f110);  // a true peak, not the edge of the search range
  CHECK(best_f < 1.39 * f110);
}

// An open vacuum box (8-layer UPML on every face) lets a dipole pulse leave; the same box with
// bare PEC walls keeps it. The dipole's J = dp/dt deposits no net charge, so nothing static stays.
// Energies are summed over the physical region (the cells inside the open box's UPML); the peak
// includes the dipole's reactive near field, so even the closed box ends well below its peak.
TEST_CASE("reference: UPML absorbs an outgoing pulse, PEC walls keep it") {
  const std::array<int, 3> n{32, 32, 32};
  const long steps = 300;
  const CellRange region{{8, 8, 8}, {24, 24, 24}};
  std::array<double, 2> last{}, peak{};  // [0] UPML, [1] PEC
  for (int run = 0; run < 2; ++run) {
    const BoundaryType type = run == 0 ? BoundaryType::Upml : BoundaryType::Pec;
    RunConfig cfg = box_config(n, kD, steps, type, 8);
    cfg.sources.push_back(point_source("dip", SourceKind::Dipole, Axis::Z,
                                       yee_position(Component::Ez, 16, 16, 15, kD),
                                       WaveformKind::Gaussian, 20e9, 1e-12));
    const SimulationModel m = SimulationModel::build(cfg);
    CHECK(m.upml.enabled() == (type == BoundaryType::Upml));
    ReferenceBackend b(m);
    for (long s = 0; s < steps; ++s) {
      b.step(s);
      if ((s + 1) % 5 == 0 || s + 1 == steps) {
        last[run] = vacuum_energy(b, m, region);
        peak[run] = std::max(peak[run], last[run]);
      }
    }
    CHECK(b.fields_finite());
    REQUIRE(peak[run] > 0);
  }
  INFO("final / peak energy: upml " << last[0] / peak[0] << ", pec " << last[1] / peak[1]);
  CHECK(last[0] < 1e-4 * peak[0]);
  CHECK(last[1] > 1e-3 * peak[1]);
  CHECK(last[1] > 100 * last[0]);
}

// Materials in a PEC cavity: a dielectric-magnetic block (eps_r 4, mu_r 2) keeps the discrete
// invariant (eps and mu per sample) constant, so the per-id coefficients and the H ids are used
// consistently; a lossy block (sigma) makes it fall at every step after the source is off.
// (Zero-mean gaussian_pulse feeds: a plain gaussian current would leave a static charge whose
// field, screened by the lossy block, dominates the energy and hardly decays.)
TEST_CASE("reference: cavity with dielectric, magnetic and lossy material blocks") {
  const std::array<int, 3> n{16, 14, 10};
  const long steps = 600;
  for (double sigma : {0.0, 1.0}) {
    RunConfig cfg = box_config(n, kD, steps, BoundaryType::Pec);
    MaterialConfig mat;
    mat.name = "block";
    mat.eps_r = 4;
    mat.mu_r = sigma > 0 ? 1 : 2;
    mat.sigma = sigma;
    cfg.materials.push_back(mat);
    ObjectConfig obj;
    obj.name = "block";
    obj.shape = ShapeKind::Box;
    obj.center = Vec3{9.3 * kD, 7.2 * kD, 5.1 * kD};
    obj.size = Vec3{6.4 * kD, 5.5 * kD, 4.3 * kD};
    obj.material = "block";
    cfg.objects.push_back(obj);
    cfg.sources.push_back(point_source("feed", SourceKind::Current, Axis::Z,
                                       yee_position(Component::Ez, 3, 4, 4, kD),
                                       WaveformKind::GaussianPulse, 12e9, 1e3));
    cfg.sources.push_back(point_source("feedx", SourceKind::Current, Axis::X,
                                       yee_position(Component::Ex, 4, 10, 3, kD),
                                       WaveformKind::GaussianPulse, 12e9, 1e3));
    // bandwidth 24 GHz: tau = 2/(pi bw) ~ 15 steps, off (< 1e-12) by step 150
    for (auto& src : cfg.sources) src.bandwidth_hz = 24e9;
    const SimulationModel m = SimulationModel::build(cfg);
    CHECK(m.magnetic == (sigma == 0));
    const std::uint8_t block = static_cast<std::uint8_t>(m.materials.find("block"));
    CHECK(std::count(m.ids[0].begin(), m.ids[0].end(), block) > 100);
    if (m.magnetic) CHECK(std::count(m.ids[3].begin(), m.ids[3].end(), block) > 100);
    ReferenceBackend b(m);
    std::vector<double> invariant;
    for (long s = 0; s < steps; ++s) {
      if (s >= 200 && s % 10 == 0) {
        invariant.push_back(step_measuring_energy(b, m, s).invariant);
      } else {
        b.step(s);
      }
    }
    CHECK(b.fields_finite());
    REQUIRE(invariant.size() > 30);
    REQUIRE(invariant.front() > 0);
    if (sigma == 0) {
      double drift = 0;
      for (double w : invariant) drift = std::max(drift, std::abs(w / invariant.front() - 1));
      INFO("lossless invariant drift " << drift);
      CHECK(drift < 1e-9);
    } else {
      bool falling = true;
      for (std::size_t q = 1; q < invariant.size(); ++q) {
        falling = falling && invariant[q] < invariant[q - 1];
      }
      INFO("lossy invariant: last / first " << invariant.back() / invariant.front());
      CHECK(falling);
      CHECK(invariant.back() < 0.99 * invariant.front());
    }
  }
}

// With sigma_max = 0 and kappa_max = 1 every UPML profile is neutral (a = b = 1, cp = cm = 2), and
// the UPML update of the PML cells (auxiliaries and all) must reproduce the plain update of a
// bare PEC box to rounding; the layers differ per face so every box of the PML list is exercised.
TEST_CASE("reference: neutral UPML layers reproduce the plain update") {
  const std::array<int, 3> n{18, 16, 15};
  const long steps = 120;
  std::array<std::array<std::vector<double>, 6>, 2> state;
  for (int run = 0; run < 2; ++run) {
    RunConfig cfg = box_config(n, kD, steps, run == 0 ? BoundaryType::Pec : BoundaryType::Upml);
    if (run == 1) {
      cfg.boundary.layers = {3, 5, 2, 4, 6, 1};
      cfg.boundary.sigma_max = 0.0;
      cfg.boundary.kappa_max = 1.0;
    }
    cfg.sources.push_back(point_source("z", SourceKind::Dipole, Axis::Z,
                                       yee_position(Component::Ez, 8, 7, 7, kD),
                                       WaveformKind::Gaussian, 30e9, 1e-12));
    cfg.sources.push_back(point_source("y", SourceKind::Current, Axis::Y,
                                       yee_position(Component::Ey, 9, 6, 8, kD),
                                       WaveformKind::GaussianPulse, 30e9, 1e3));
    const SimulationModel m = SimulationModel::build(cfg);
    CHECK(m.upml.enabled() == (run == 1));
    if (run == 1) CHECK(m.upml.boxes.size() == 6u);
    ReferenceBackend b(m);
    for (long s = 0; s < steps; ++s) b.step(s);
    for (int c = 0; c < 6; ++c) state[run][c] = b.field(static_cast<Component>(c));
  }
  for (int c = 0; c < 6; ++c) {
    const double scale = max_abs(state[0][c]);
    REQUIRE(scale > 0);
    double worst = 0;
    for (std::size_t q = 0; q < state[0][c].size(); ++q) {
      worst = std::max(worst, std::abs(state[0][c][q] - state[1][c][q]) / scale);
    }
    INFO(std::string(component_name(static_cast<Component>(c)))
         << ": worst relative difference " << worst);
    CHECK(worst < 1e-11);
  }
}

// A z dipole at the exact centre of a 30 x 30 x 31 box with UPML: Ez is even under the three
// mirrors x -> -x (i -> 30 - i), y -> -y, z -> -z (k -> 30 - k for Ez's half position) and under
// the x <-> y swap, and the discrete grid, walls and UPML share those symmetries.
TEST_CASE("reference: Ez of a centred z dipole is mirror symmetric with UPML") {
  const std::array<int, 3> n{30, 30, 31};
  const long steps = 160;
  RunConfig cfg = box_config(n, kD, steps, BoundaryType::Upml, 8);
  cfg.sources.push_back(point_source("dip", SourceKind::Dipole, Axis::Z,
                                     yee_position(Component::Ez, 15, 15, 15, kD),
                                     WaveformKind::Gaussian, 20e9, 1e-12));
  // Probe (5, 12, 11) and its images; x = 5 and 25 lie in the UPML (8 layers: i < 8, i >= 22).
  const int pi = 5, pj = 12, pk = 11;
  std::vector<std::array<int, 3>> cells;
  for (int mx = 0; mx < 2; ++mx) {
    for (int my = 0; my < 2; ++my) {
      for (int mz = 0; mz < 2; ++mz) {
        const int i = mx ? n[0] - pi : pi, j = my ? n[1] - pj : pj, k = mz ? n[2] - 1 - pk : pk;
        cells.push_back({i, j, k});
        cells.push_back({j, i, k});  // x <-> y swap
      }
    }
  }
  for (std::size_t q = 0; q < cells.size(); ++q) {
    cfg.probes.push_back(point_probe("p" + std::to_string(q),
                                     yee_position(Component::Ez, cells[q][0], cells[q][1],
                                                  cells[q][2], kD),
                                     {Component::Ez}));
  }
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.sources[0].cell == std::array<int, 3>{15, 15, 15});
  for (std::size_t q = 0; q < cells.size(); ++q) REQUIRE(m.probes.samples[q].cell == cells[q]);

  ReferenceBackend b(m);
  ProbeRecorder rec(b, m);
  for (long s = 0; s <= steps; ++s) {
    rec.at_state(s);
    if (s < steps) b.step(s);
  }
  const auto series = rec.take();
  const double scale = max_abs(series[0]);
  REQUIRE(scale > 0);
  double worst = 0;
  for (std::size_t q = 1; q < series.size(); ++q) {
    REQUIRE(series[q].size() == series[0].size());
    for (std::size_t t = 0; t < series[0].size(); ++t) {
      worst = std::max(worst, std::abs(series[q][t] - series[0][t]) / scale);
    }
  }
  INFO("worst relative mismatch of the mirrored probes " << worst);
  CHECK(worst < 1e-10);

  // The whole Ez field at the end, every cell against its three mirror images.
  const auto& ez = b.field(Component::Ez);
  const double fscale = max_abs(ez);
  REQUIRE(fscale > 0);
  double worst_field = 0;
  for (int i = 1; i < n[0]; ++i) {
    for (int j = 1; j < n[1]; ++j) {
      for (int k = 0; k < n[2]; ++k) {
        const double v = ez[m.layout.index(i, j, k)];
        for (double w : {ez[m.layout.index(n[0] - i, j, k)], ez[m.layout.index(i, n[1] - j, k)],
                         ez[m.layout.index(i, j, n[2] - 1 - k)], ez[m.layout.index(j, i, k)]}) {
          worst_field = std::max(worst_field, std::abs(v - w) / fscale);
        }
      }
    }
  }
  INFO("worst relative mismatch over the field " << worst_field);
  CHECK(worst_field < 1e-10);
}

// A PEC plate (14 x 14 x 2.5 cells, normal z) between a dipole and the far side of a PEC box:
// every E sample inside the conductor stays exactly zero while the field around it is not.
TEST_CASE("reference: E inside a PEC plate stays exactly zero") {
  const std::array<int, 3> n{24, 24, 24};
  const long steps = 150;
  RunConfig cfg = box_config(n, kD, steps, BoundaryType::Upml, 6);
  ObjectConfig plate;
  plate.name = "plate";
  plate.shape = ShapeKind::Box;
  plate.center = Vec3{12 * kD, 12 * kD, 14 * kD};
  plate.size = Vec3{14 * kD, 14 * kD, 2.5 * kD};
  plate.material = "pec";
  cfg.objects.push_back(plate);
  // Tilted feed (an x and a z dipole) so all three E components are excited near the plate.
  cfg.sources.push_back(point_source("fz", SourceKind::Dipole, Axis::Z,
                                     yee_position(Component::Ez, 11, 13, 10, kD),
                                     WaveformKind::Gaussian, 20e9, 1e-12));
  cfg.sources.push_back(point_source("fx", SourceKind::Dipole, Axis::X,
                                     yee_position(Component::Ex, 12, 10, 11, kD),
                                     WaveformKind::Gaussian, 20e9, 1e-12));
  const SimulationModel m = SimulationModel::build(cfg);

  // Samples strictly inside the plate (0.1 cell margin, so the mesher's boundary rule is moot).
  auto inside = [&](const Vec3& p) {
    for (int a = 0; a < 3; ++a) {
      if (std::abs(p[a] - plate.center[a]) > plate.size[a] / 2 - 0.1 * kD) return false;
    }
    return true;
  };
  std::array<std::vector<std::size_t>, 3> in_plate;
  for (int c = 0; c < 3; ++c) {
    for (int i = 0; i < n[0]; ++i) {
      for (int j = 0; j < n[1]; ++j) {
        for (int k = 0; k < n[2]; ++k) {
          if (inside(yee_position(static_cast<Component>(c), i, j, k, kD))) {
            in_plate[c].push_back(m.layout.index(i, j, k));
          }
        }
      }
    }
  }
  // Ex, Ey (tangential) on the planes k = 13, 14, 15; Ez on k + 1/2 = 13.5, 14.5.
  // (half positions 5.5 .. 18.5: 14 samples; integer positions 6 .. 18: 13 samples)
  CHECK(in_plate[0].size() == 14u * 13u * 3u);
  CHECK(in_plate[1].size() == 13u * 14u * 3u);
  CHECK(in_plate[2].size() == 13u * 13u * 2u);
  for (int c = 0; c < 3; ++c) {
    for (std::size_t q : in_plate[c]) REQUIRE(m.ids[c][q] == MaterialTable::kPec);
  }

  ReferenceBackend b(m);
  double worst_inside = 0, below = 0;
  for (long s = 0; s < steps; ++s) {
    b.step(s);
    for (int c = 0; c < 3; ++c) {
      const auto& e = b.field(static_cast<Component>(c));
      for (std::size_t q : in_plate[c]) worst_inside = std::max(worst_inside, std::abs(e[q]));
    }
    // Tangential E under the plate's lower face (z = 12.75 cells) at k = 12: excited, not zero.
    for (int i = 6; i < 18; ++i) {
      for (int j = 6; j < 18; ++j) {
        below = std::max(below, std::abs(b.field(Component::Ex)[m.layout.index(i, j, 12)]));
      }
    }
  }
  CHECK(b.fields_finite());
  CHECK(worst_inside == 0.0);
  CHECK(below > 0.0);
}

// read_field: unpadded, (i*ny + j)*nz + k, float copies of the state, and exactly zero tangential
// E on the low wall planes (the high planes lie outside the arrays).
TEST_CASE("reference: read_field layout and zero tangential E on the PEC walls") {
  const std::array<int, 3> n{12, 10, 9};  // nz = 9: three padding cells per column
  for (BoundaryType type : {BoundaryType::Pec, BoundaryType::Upml}) {
    RunConfig cfg = box_config(n, kD, 80, type, 2);
    cfg.sources.push_back(point_source("fz", SourceKind::Current, Axis::Z,
                                       yee_position(Component::Ez, 5, 4, 3, kD),
                                       WaveformKind::GaussianPulse, 40e9, 1.0));
    cfg.sources.push_back(point_source("fy", SourceKind::Current, Axis::Y,
                                       yee_position(Component::Ey, 6, 4, 5, kD),
                                       WaveformKind::GaussianPulse, 40e9, 1.0));
    cfg.sources.push_back(point_source("fx", SourceKind::Current, Axis::X,
                                       yee_position(Component::Ex, 5, 6, 4, kD),
                                       WaveformKind::GaussianPulse, 40e9, 1.0));
    cfg.probes.push_back(point_probe("p", yee_position(Component::Hy, 3, 7, 2, kD),
                                     {Component::Hy, Component::Ex}));
    const SimulationModel m = SimulationModel::build(cfg);
    ReferenceBackend b(m);
    for (long s = 0; s < 80; ++s) b.step(s);
    CHECK(b.fields_finite());

    // Probe samples equal the state at their cells.
    b.sample_probes(3);
    std::vector<double> batch;
    b.read_probe_batch(4, batch);
    REQUIRE(batch.size() == 8u);
    for (std::size_t p = 0; p < 2; ++p) {
      const ProbeSample& smp = m.probes.samples[p];
      CHECK(batch[3 * 2 + p] ==
            b.field(smp.component)[m.layout.index(smp.cell[0], smp.cell[1], smp.cell[2])]);
    }

    std::vector<float> out;
    auto unpadded = [&](int i, int j, int k) {
      return (static_cast<std::size_t>(i) * n[1] + j) * n[2] + k;
    };
    for (int c = 0; c < 6; ++c) {
      const Component comp = static_cast<Component>(c);
      b.read_field(comp, out);
      REQUIRE(out.size() == static_cast<std::size_t>(n[0] * n[1] * n[2]));
      const auto& f = b.field(comp);
      double nonzero = 0;
      for (int i = 0; i < n[0]; ++i) {
        for (int j = 0; j < n[1]; ++j) {
          for (int k = 0; k < n[2]; ++k) {
            const float v = out[unpadded(i, j, k)];
            REQUIRE(v == static_cast<float>(f[m.layout.index(i, j, k)]));
            nonzero = std::max(nonzero, static_cast<double>(std::abs(v)));
          }
        }
      }
      CHECK(nonzero > 0);
      if (!is_electric(comp)) continue;
      // Tangential E on the low planes: Ey, Ez at i = 0; Ex, Ez at j = 0; Ex, Ey at k = 0.
      double wall = 0;
      for (int i = 0; i < n[0]; ++i) {
        for (int j = 0; j < n[1]; ++j) {
          for (int k = 0; k < n[2]; ++k) {
            const bool tangential = (i == 0 && c != 0) || (j == 0 && c != 1) || (k == 0 && c != 2);
            if (tangential) {
              wall = std::max(wall, static_cast<double>(std::abs(out[unpadded(i, j, k)])));
            }
          }
        }
      }
      INFO(std::string(component_name(comp)));
      CHECK(wall == 0.0);
    }
    // The padding cells (k >= nz) stay zero in every component.
    for (int c = 0; c < 6; ++c) {
      double pad = 0;
      const auto& f = b.field(static_cast<Component>(c));
      for (int i = 0; i < n[0]; ++i) {
        for (int j = 0; j < n[1]; ++j) {
          for (int k = n[2]; k < static_cast<int>(m.layout.nzp()); ++k) {
            pad = std::max(pad, std::abs(f[m.layout.index(i, j, k)]));
          }
        }
      }
      CHECK(pad == 0.0);
    }
  }
}
