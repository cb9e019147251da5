// boundary.periodic (docs/PERIODIC.md). The reference engine wraps its neighbours; the device
// engines run a periodic model as parts whose ghost planes the halo exchange fills from the other
// end of the axis (the rank itself with one box there). Checked here:
// - the reference: a periodic grid is translation invariant (a dipole moved by a shift across the
//   ends gives the fields rolled by that shift, to rounding), which no walled grid is;
// - OpenCL (PoCL in CI) and CUDA (where there is a GPU) against the reference, every output (probes, energy, flux and dft
//   transforms, snapshots), for one process (the rows and tile variants) and split over 2 and 4
//   ranks as threads, with UPML along z, materials and PEC across the period's ends, and with all
//   three axes periodic;
// - a plane wave at normal incidence on a dielectric slab that fills the period: the flux through a
//   plane past the slab over the incident intensity and the cell's area is the slab's Fabry-Perot
//   transmission (within 0.008, 6 to 18 GHz; the slab's phase with the grid's wavenumber), and
//   through an anisotropic slab each polarisation's at the index along its E.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <functional>

#include "backends/monitor_helpers.hpp"
#include "backends/physics_helpers.hpp"
#include "backends/reference/reference_backend.hpp"
#include "device/test_apis.hpp"
#include "errors.hpp"
#include "monitors/surface_fields.hpp"
#include "monitors/surface_sampling.hpp"
#include "parallel/distributed_backend.hpp"
#include "parallel/split_outputs.hpp"
#include "parallel/thread_link.hpp"

using namespace clfdtd;
using namespace clfdtd::parallel;
using namespace clfdtd::test;

namespace {

constexpr double kD = 1e-3;

MonitorConfig flux_config(const std::string& name, const Vec3& lo, const Vec3& hi,
                          std::vector<double> freqs) {
  MonitorConfig c;
  c.name = name;
  c.kind = MonitorKind::Flux;
  c.box_lo = lo;
  c.box_hi = hi;
  c.frequencies_hz = std::move(freqs);
  return c;
}

// 12 x 10 x 20 cells, periodic along x and y (and z with all_periodic, then without UPML), UPML
// of 4 and 5 layers along z otherwise; a lossy magnetic dielectric and a PEC plate that touch the
// ends of the periodic axes, dipoles near them, probes on them, a flux plane across the whole
// period, a flux box spanning the period along x and clear of the ends along y, a dft region.
SimulationModel periodic_model(long steps, bool all_periodic) {
  RunConfig cfg = box_config({12, 10, 20}, kD, steps, BoundaryType::Upml, 4);
  cfg.boundary.periodic = {true, true, all_periodic};
  cfg.boundary.layers = {0, 0, 0, 0, all_periodic ? 0 : 4, all_periodic ? 0 : 5};
  cfg.materials = {material("glass", 3, 1.5, 0.02), material("metal", 1, 1, 0, true)};
  cfg.objects = {box("slab", "glass", {1, 5, 10}, {4, 4, 4}, kD),
                 box("plate", "metal", {6, 9.5, 13}, {3, 1, 2}, kD)};
  cfg.sources = {point_source("a", SourceKind::Dipole, Axis::Z, cells(0.3, 9.6, 10.2, kD),
                              WaveformKind::Gaussian, 40e9, 1e-15),
                 point_source("b", SourceKind::Dipole, Axis::X, cells(11.6, 0.4, all_periodic ? 19.6 : 7.4, kD),
                              WaveformKind::Gaussian, 30e9, 1e-15)};
  cfg.probes = {point_probe("edge", cells(0.0, 0.0, 10.0, kD),
                            {Component::Ex, Component::Ey, Component::Ez, Component::Hx,
                             Component::Hy, Component::Hz}),
                point_probe("far", cells(11.5, 9.5, 6.2, kD), {Component::Ez, Component::Hy})};
  cfg.monitors = {flux_config("plane", cells(0, 0, 15, kD), cells(12, 10, 15, kD), {30e9, 50e9}),
                  flux_config("box", cells(0, 2, 6, kD), cells(12, 8, 14, kD), {30e9, 50e9})};
  cfg.output.energy = true;
  SimulationModel m = SimulationModel::build(cfg);
  m.monitors.push_back(dft_monitor("cut", {region(Component::Ez, {0, 0, 11}, {12, 10, 12})}, {25e9}));
  m.snapshot_steps = {9, steps};
  return m;
}

bool have_opencl() {
  if (has_device(device::Api::OpenCL)) return true;
  MESSAGE("no OpenCL device: periodic device cases skipped");
  return false;
}

// A float engine against the double reference: within 2e-4 of each series' maximum.
void check_close(const OutputRecorder& got, const OutputRecorder& want, bool fields) {
  const std::string err = compare_outputs(got, want, fields, 2e-4);
  CHECK_MESSAGE(err.empty(), err);
}

}  // namespace

TEST_CASE("periodic reference: a dipole moved across the ends gives the fields rolled") {
  const std::array<int, 3> shift{7, 4, 0};  // across both periodic axes' ends
  std::array<std::array<std::vector<float>, 6>, 2> runs;
  for (int r = 0; r < 2; ++r) {
    RunConfig cfg = box_config({12, 10, 16}, kD, 40, BoundaryType::Upml, 4);
    cfg.boundary.periodic = {true, true, false};
    cfg.boundary.layers = {0, 0, 0, 0, 4, 4};
    const double x = 9.3 + (r ? shift[0] : 0), y = 8.2 + (r ? shift[1] : 0);
    cfg.sources = {point_source("a", SourceKind::Dipole, Axis::Y, cells(std::fmod(x, 12), std::fmod(y, 10), 8.4, kD),
                                WaveformKind::Gaussian, 60e9, 1e-15)};
    const SimulationModel m = SimulationModel::build(cfg);
    ReferenceBackend ref(m);
    for (long s = 0; s < m.grid.steps; ++s) ref.step(s);
    for (int c = 0; c < 6; ++c) ref.read_field(static_cast<Component>(c), runs[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)]);
  }
  const int nx = 12, ny = 10, nz = 16;
  for (std::size_t c = 0; c < 6; ++c) {
    INFO("component " << c);
    double max = 0, diff = 0;
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < ny; ++j)
        for (int k = 0; k < nz; ++k) {
          const float a = runs[0][c][(static_cast<std::size_t>(i) * ny + j) * nz + k];
          const int is = (i + shift[0]) % nx, js = (j + shift[1]) % ny;
          const float b = runs[1][c][(static_cast<std::size_t>(is) * ny + js) * nz + k];
          max = std::max(max, static_cast<double>(std::fabs(a)));
          diff = std::max(diff, static_cast<double>(std::fabs(a - b)));
        }
    CHECK(max > 0);
    CHECK(diff <= 1e-6 * max);
  }
  // The fields have crossed the ends: cells next to both x ends hold them (not a PEC wall's zero).
  double at_end = 0;
  for (int j = 0; j < ny; ++j)
    for (int k = 0; k < nz; ++k)
      at_end = std::max(at_end, static_cast<double>(std::fabs(runs[0][1][(static_cast<std::size_t>(nx - 1) * ny + j) * nz + k])));
  CHECK(at_end > 0);
}

TEST_CASE("periodic: device parts give the reference's outputs (1, 2 and 4 ranks; rows, tile)") {
  std::vector<std::string> skipped;
  const std::vector<device::Api> apis = test_apis(&skipped);
  for (const std::string& s : skipped) MESSAGE(s);
  for (device::Api api : apis) {
    for (bool all_periodic : {false, true}) {
      INFO("api " << std::string(device::api_name(api)));
      INFO("all axes periodic: " << all_periodic);
      const SimulationModel m = periodic_model(60, all_periodic);
      OutputRecorder want;
      {
        ReferenceBackend ref(m);
        record_run(m, ref, want);
      }
      struct Case {
        int ranks;
        std::array<int, 3> parts;
        KernelVariant variant;
      };
      const std::vector<Case> cases{{1, {1, 1, 1}, KernelVariant::Rows},
                                    {1, {1, 1, 1}, KernelVariant::Tile},
                                    {2, {2, 1, 1}, KernelVariant::Rows},
                                    {4, {2, 2, 1}, KernelVariant::Tile}};
      for (const Case& c : cases) {
        INFO("split " << c.parts[0] << " " << c.parts[1] << " " << c.parts[2] << " variant "
                      << static_cast<int>(c.variant));
        DeviceConfig dev;
        dev.backend = api == device::Api::Cuda ? BackendKind::Cuda : BackendKind::OpenCl;
        dev.variant = c.variant;
        const Decomposition d = decompose(m.grid.n, c.ranks, c.parts, m.grid.periodic);
        ThreadGroup group(c.ranks);
        std::vector<OutputRecorder> rec(static_cast<std::size_t>(c.ranks));
        // One process has no other rank: device.halo_path = device is ignored, and its
        // exchange stays within the device.
        if (c.ranks == 1) dev.halo_path = HaloPath::Device;
        group.run([&](int r) {
          DistributedBackend b(m, dev, d, std::make_unique<ThreadLink>(group, r));
          if (c.ranks == 1) CHECK(std::string(b.halo_path()) == "local");
          record_run(m, b, rec[static_cast<std::size_t>(r)]);
        });
        for (int r = 0; r < c.ranks; ++r) {
          INFO("rank " << r);
          check_close(rec[static_cast<std::size_t>(r)], want, r == 0);
        }
      }
    }
  }
}

TEST_CASE("periodic: a device engine given a periodic model whole refuses it") {
  if (!have_opencl()) return;
  const SimulationModel m = periodic_model(4, false);
  CHECK_THROWS_AS(engine::make_gpu_engine(device::Api::OpenCL, m, DeviceConfig{}), DeviceError);
}

namespace {

// A plane wave at normal incidence (travelling +z, E along `pol`) through a slab of `mat` 12 mm
// thick filling a 4 x 4 cell period of 0.5 mm cells: the flux through a plane past it over the
// incident intensity and the period's area at `freqs`, and the Fabry-Perot transmittance of an
// index n there, 1 / (1 + ((n^2 - 1) / 2n)^2 sin^2(k d)) with the grid's own wavenumber in the
// slab (Yee in 1D, as at normal incidence): sin(k dz / 2) / dz = sin(omega dt / 2) / (v dt), v = c / n.
struct SlabTransmittance {
  std::vector<double> freqs, t;
  double dt = 0, dz = 0.5e-3, thick = 12e-3;
  double fabry_perot(std::size_t f, double n) const {
    const double omega = 2 * M_PI * freqs[f], v = kC0 / n;
    const double k = 2 / dz * std::asin(dz / (v * dt) * std::sin(omega * dt / 2));
    return 1 / (1 + std::pow((n * n - 1) / (2 * n), 2) * std::pow(std::sin(k * thick), 2));
  }
  // The same for a complex permittivity (a lossy or evanescent slab, Im eps > 0 loss):
  // T = |(1 - r^2) e^{ikd} / (1 - r^2 e^{2ikd})|^2, r = (1 - n) / (1 + n), the root k of the
  // grid's relation above that decays into the slab (Im k >= 0).
  double fabry_perot(std::size_t f, std::complex<double> eps) const {
    using C = std::complex<double>;
    const C n = std::sqrt(eps), i{0, 1};
    const double omega = 2 * M_PI * freqs[f];
    C k = 2 / dz * std::asin(dz * n / (kC0 * dt) * std::sin(omega * dt / 2));
    if (k.imag() < 0 || (k.imag() == 0 && k.real() < 0)) k = -k;
    const C r2 = (1.0 - n) * (1.0 - n) / ((1.0 + n) * (1.0 + n));
    return std::norm((1.0 - r2) * std::exp(i * k * thick) / (1.0 - r2 * std::exp(2.0 * i * k * thick)));
  }
};

// The model's first flux monitor over the plane wave's incident intensity and the period's area
// `area` at `freqs`, on the double-precision reference engine.
std::vector<double> reference_transmittance(const SimulationModel& m, const std::vector<double>& freqs,
                                            double area) {
  ReferenceBackend ref(m);
  OutputRecorder rec;
  record_run(m, ref, rec);
  const std::vector<double> flux = surface_flux(sample_surface(m.monitors[0], m.grid, rec.dft[0]));
  const std::vector<double> inc = incident_intensity(m.plane_waves[0], freqs, m.grid.dt);
  std::vector<double> t;
  for (std::size_t f = 0; f < freqs.size(); ++f) t.push_back(flux[f] / (inc[f] * area));
  return t;
}

SlabTransmittance slab_transmittance(const MaterialConfig& mat, Axis pol) {
  SlabTransmittance out;
  const double d = out.dz;
  RunConfig cfg = box_config({4, 4, 480}, d, 6000, BoundaryType::Upml, 16);
  cfg.boundary.periodic = {true, true, false};
  cfg.boundary.layers = {0, 0, 0, 0, 16, 16};
  cfg.materials = {mat};
  cfg.objects = {box("slab", mat.name, {2, 2, 260}, {8, 8, 24}, d)};
  cfg.plane_waves = {plane_wave("pw", pol, 2, +1, cells(2, 2, 240, d), cells(4, 4, 400, d),
                                WaveformKind::GaussianPulse, 15e9)};
  cfg.plane_waves[0].bandwidth_hz = 20e9;
  out.freqs = {6e9, 9e9, 12e9, 15e9, 18e9};
  cfg.monitors = {flux_config("t", cells(0, 0, 400, d), cells(4, 4, 400, d), out.freqs)};
  const SimulationModel m = SimulationModel::build(cfg);
  out.dt = m.grid.dt;
  out.t = reference_transmittance(m, out.freqs, 16 * d * d);
  return out;
}

}  // namespace

TEST_CASE("periodic: a plane wave through a dielectric slab filling the period (Fabry-Perot)") {
  // An eps_r 4 slab; at 18 GHz the slab's wavelength is 17 cells.
  const SlabTransmittance s = slab_transmittance(material("glass", 4, 1, 0), Axis::X);
  for (std::size_t f = 0; f < s.freqs.size(); ++f) {
    INFO("f " << s.freqs[f] << " Hz: T " << s.t[f] << ", analytic " << s.fabry_perot(f, 2));
    CHECK(std::fabs(s.t[f] - s.fabry_perot(f, 2)) < 0.008);
  }
}

// docs/EQUATIONS.md "Anisotropic materials": eps_r 4 along x, 2.25 along y (n 2 and 1.5), 9
// along z (which a wave along z never sees).
TEST_CASE("periodic: each polarisation crosses an anisotropic slab at its own index (Fabry-Perot)") {
  const MaterialConfig crystal = anisotropic_material("calcite", {4, 2.25, 9}, {1, 1, 1}, {0, 0, 0});
  for (const Axis pol : {Axis::X, Axis::Y}) {
    const double n = pol == Axis::X ? 2 : 1.5, other = pol == Axis::X ? 1.5 : 2;
    INFO("E along " << (pol == Axis::X ? "x" : "y"));
    const SlabTransmittance s = slab_transmittance(crystal, pol);
    int apart = 0;  // frequencies where the other index's formula is off by more than 0.05
    for (std::size_t f = 0; f < s.freqs.size(); ++f) {
      INFO("f " << s.freqs[f] << " Hz: T " << s.t[f] << ", analytic " << s.fabry_perot(f, n));
      CHECK(std::fabs(s.t[f] - s.fabry_perot(f, n)) < 0.008);
      apart += std::fabs(s.t[f] - s.fabry_perot(f, other)) > 0.05;
    }
    CHECK(apart >= 2);
  }
}

// docs/EQUATIONS.md "Anisotropic materials": a wire medium (material axes: a Drude plasma along x,
// vacuum along y and z), the effective medium of thin wires along x. E along x meets the plasma
// (eps = 1 - f_p^2 / (f^2 + i f gamma), f_p 12 GHz) and is stopped below f_p; E along y crosses
// as through vacuum: a polariser.
TEST_CASE("periodic: a wire medium slab (Drude along x only) stops E along x below f_p and passes E along y") {
  MaterialConfig wires = material("wires", 1, 1, 0);
  wires.pole_axes[0] = {PoleConfig{PoleKind::Drude, {12e9, 0.3e9, 0}}};
  REQUIRE(wires.anisotropic());
  const SlabTransmittance x = slab_transmittance(wires, Axis::X);
  for (std::size_t f = 0; f < x.freqs.size(); ++f) {
    const double fr = x.freqs[f];
    const std::complex<double> eps = 1.0 - 144e18 / (fr * fr + std::complex<double>(0, 1) * fr * 0.3e9);
    INFO("E along x, f " << fr << " Hz: T " << x.t[f] << ", analytic " << x.fabry_perot(f, eps));
    CHECK(std::fabs(x.t[f] - x.fabry_perot(f, eps)) < 0.01);
  }
  CHECK(x.t[0] < 0.05);  // 6 GHz: the field decays over the slab
  const SlabTransmittance y = slab_transmittance(wires, Axis::Y);
  for (std::size_t f = 0; f < y.freqs.size(); ++f) {
    INFO("E along y, f " << y.freqs[f] << " Hz: T " << y.t[f]);
    CHECK(std::fabs(y.t[f] - 1) < 0.008);
  }
}

namespace {

// A sheet of lumped elements (docs/PORTS.md "Lumped elements") across the whole 4 x 4 cell period
// on one node plane: 4 Ex samples in series along x, 4 node lines side by side along y, so the
// sheet's impedance per square is the element's Z. A plane wave along z, E along x, crosses it:
// T = |2 Z / (2 Z + eta0)|^2 (a shunt impedance on a line of impedance eta0).
struct SheetTransmittance {
  std::vector<double> freqs, t;
};

SheetTransmittance sheet_transmittance(LumpedConfig e) {
  SheetTransmittance out;
  const double d = 0.5e-3;
  RunConfig cfg = box_config({4, 4, 480}, d, 6000, BoundaryType::Upml, 16);
  cfg.boundary.periodic = {true, true, false};
  cfg.boundary.layers = {0, 0, 0, 0, 16, 16};
  e.name = "sheet";
  e.axis = Axis::X;
  e.position = cells(2, 2, 260, d);
  e.size_m = cells(4, 4, 0, d);
  cfg.lumped = {e};
  cfg.plane_waves = {plane_wave("pw", Axis::X, 2, +1, cells(2, 2, 240, d), cells(4, 4, 400, d),
                                WaveformKind::GaussianPulse, 12e9)};
  cfg.plane_waves[0].bandwidth_hz = 20e9;
  out.freqs = {4e9, 7e9, 10e9, 12e9, 14e9, 17e9, 20e9};
  cfg.monitors = {flux_config("t", cells(0, 0, 400, d), cells(4, 4, 400, d), out.freqs)};
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.lumped.size() == 1);
  REQUIRE(m.lumped[0].along == 4);
  REQUIRE(m.lumped[0].across == 4);
  out.t = reference_transmittance(m, out.freqs, 16 * d * d);
  return out;
}

double sheet_formula(std::complex<double> z) {
  constexpr double kEta0 = 376.730313668;
  return std::norm(2.0 * z / (2.0 * z + kEta0));
}

void check_sheet(const LumpedConfig& e, const std::function<std::complex<double>(double)>& z_of) {
  const SheetTransmittance s = sheet_transmittance(e);
  double lo = 1, hi = 0, worst = 0;
  for (std::size_t f = 0; f < s.freqs.size(); ++f) {
    const double want = sheet_formula(z_of(2 * M_PI * s.freqs[f]));
    INFO("f " << s.freqs[f] << " Hz: T " << s.t[f] << ", circuit " << want);
    CHECK(std::fabs(s.t[f] - want) < 0.006);
    worst = std::max(worst, std::fabs(s.t[f] - want));
    lo = std::min(lo, want);
    hi = std::max(hi, want);
  }
  MESSAGE("T from " << lo << " to " << hi << ", max |T - circuit| " << worst);
  CHECK(hi - lo > 0.2);  // the band shows the circuit, not a flat resistor
}

}  // namespace

TEST_CASE("periodic: a sheet of lumped elements transmits as its circuit's impedance (series R L C, R C, parallel R L C)") {
  const std::complex<double> j{0, 1};
  LumpedConfig rlc;  // resonant at 12 GHz: there the sheet is 60 ohm
  rlc.resistance_ohm = 60;
  rlc.inductance_h = 1e-9;
  rlc.capacitance_f = 1 / (std::pow(2 * M_PI * 12e9, 2) * 1e-9);
  rlc.circuit = LumpedCircuit::Series;
  {
    INFO("series R L C");
    check_sheet(rlc, [&](double w) { return 60.0 + j * w * 1e-9 + 1.0 / (j * w * *rlc.capacitance_f); });
  }
  LumpedConfig rc;
  rc.resistance_ohm = 40;
  rc.capacitance_f = 0.1e-12;
  rc.circuit = LumpedCircuit::Series;
  {
    INFO("series R C");
    check_sheet(rc, [&](double w) { return 40.0 + 1.0 / (j * w * 0.1e-12); });
  }
  LumpedConfig tank;  // resonant at 12 GHz: there the sheet is 400 ohm
  tank.resistance_ohm = 400;
  tank.inductance_h = 1e-9;
  tank.capacitance_f = *rlc.capacitance_f;
  tank.circuit = LumpedCircuit::Parallel;
  {
    INFO("parallel R L C");
    check_sheet(tank, [&](double w) {
      return 1.0 / (1.0 / 400.0 + 1.0 / (j * w * 1e-9) + j * w * *rlc.capacitance_f);
    });
  }
}
