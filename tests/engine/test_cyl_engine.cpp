// The cylindrical engine (variants tile and rows, on every API with a device here) on hand-built
// cylindrical models (the contract's representation: layout (nr, 1, nz), Er/Ephi PEC at z = 0,
// padding PEC, sources with mode_factor, probes with phi): the two variants agree cell by cell,
// the modes batched in one launch give each mode's run alone, m = 0 keeps TM and TE apart, closed
// PEC cavities ring at the Bessel-zero frequencies of TM010, TM110 and TM210 (the axis rules of
// m = 0, 1 and >= 2), the energy is conserved in a closed cavity and drained by the CPML, probes
// give sum_q Re(F_q e^{i m_q phi}), and the device bytes are what was allocated.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "config/load_config.hpp"
#include "device/device.hpp"
#include "engine/cyl/cyl_engine.hpp"
#include "engine/cyl/cyl_fields.hpp"
#include "engine/cyl_engine_models.hpp"
#include "errors.hpp"

#ifdef CLFDTD_HAVE_CUDA
#include "device/cuda/cuda_device.hpp"
#endif

using namespace clfdtd;
using namespace clfdtd::engine;
using namespace clfdtd::test;

TEST_CASE("cylindrical engine: tile and rows agree cell by cell, every mode, CPML, materials") {
  const SimulationModel m = cyl_model(mixed_spec());
  for (device::Api api : apis()) {
    auto tile = engine_on(api, m, config(KernelVariant::Tile, std::array<int, 3>{3, 2, 1}));
    auto rows = engine_on(api, m, config(KernelVariant::Rows, std::array<int, 3>{1, 5, 1}));
    INFO(tile->kernel_variant() << " vs " << rows->kernel_variant());
    CHECK(tile->kernel_variant().rfind("cyl-tile 3x2x1 (3 modes)", 0) == 0);
    CHECK(rows->kernel_variant().rfind("cyl-rows 1x5x1 (3 modes)", 0) == 0);
    run(*tile, m.grid.steps);
    run(*rows, m.grid.steps);
    CHECK(tile->fields_finite());
    CHECK(rows->fields_finite());
    // Float in both, summed in different orders (float4 lanes vs scalar loops): the m = 0 Er next
    // to the on-axis source, a difference of two large Hphi, is the worst (PoCL: 1.5e-5).
    check_same_fields(m, *tile, *rows, 5e-5);
    // Something happened in every mode and field family.
    for (std::size_t q = 0; q < m.grid.modes.size(); ++q) {
      std::vector<std::complex<float>> ez, hz;
      tile->read_mode_field(static_cast<int>(q), Component::Ez, ez);
      tile->read_mode_field(static_cast<int>(q), Component::Hz, hz);
      CHECK(max_abs(ez) > 0);
      CHECK(max_abs(hz) > 0);
    }
  }
}

TEST_CASE("cylindrical engine: modes batched in one launch equal each mode run alone") {
  CylSpec s = mixed_spec();
  const SimulationModel all = cyl_model(s);
  for (device::Api api : apis()) {
    auto batched = engine_on(api, all, config(KernelVariant::Tile));
    run(*batched, all.grid.steps);
    for (std::size_t q = 0; q < s.modes.size(); ++q) {
      CylSpec one = s;
      one.modes = {s.modes[q]};
      SimulationModel alone = cyl_model(one);
      alone.grid.dt = all.grid.dt;  // the Courant limit follows the largest mode
      alone.upml = all.upml;
      for (std::size_t n = 0; n < alone.sources.size(); ++n) {
        alone.sources[n] = all.sources[n];
        alone.sources[n].mode_factor = {all.sources[n].mode_factor[q]};
      }
      auto single = engine_on(api, alone, config(KernelVariant::Tile));
      run(*single, alone.grid.steps);
      for (int c = 0; c < 6; ++c) {
        std::vector<std::complex<float>> fa, fb;
        batched->read_mode_field(static_cast<int>(q), static_cast<Component>(c), fa);
        single->read_mode_field(0, static_cast<Component>(c), fb);
        INFO("m = " << s.modes[q] << " " << cyl_component_name(static_cast<Component>(c)));
        REQUIRE(fa.size() == fb.size());
        for (std::size_t n = 0; n < fa.size(); ++n) REQUIRE(fa[n] == fb[n]);
      }
    }
  }
}

TEST_CASE("cylindrical engine: m = 0 with an on-axis Ez source stays TM (Ephi, Hr, Hz zero)") {
  CylSpec s;
  s.sources = {{Component::Ez, 0, 9}};
  s.layers = {3, 3, 3};
  const SimulationModel m = cyl_model(s);
  for (device::Api api : apis()) {
    for (KernelVariant v : {KernelVariant::Tile, KernelVariant::Rows}) {
      auto e = engine_on(api, m, config(v));
      run(*e, m.grid.steps);
      std::vector<std::complex<float>> f;
      for (Component c : {Component::Ey, Component::Hx, Component::Hz}) {
        e->read_mode_field(0, c, f);
        CHECK(max_abs(f) == 0);
      }
      for (Component c : {Component::Ex, Component::Ez, Component::Hy}) {
        e->read_mode_field(0, c, f);
        CHECK(max_abs(f) > 0);
      }
      // A real source in m = 0 gives a real field.
      e->read_mode_field(0, Component::Ez, f);
      for (const auto& x : f) REQUIRE(x.imag() == 0);
    }
  }
}

// The closed PEC cylinder of radius R: TM_mn0 (Ez alone, uniform in z) rings at
// f = c x_mn / (2 pi R), x_mn the n-th zero of J_m. A pulse drives Ez; the probe's spectrum after
// the pulse peaks there. 20 cells across the radius: the discretisation (Yee dispersion at ~50
// cells per wavelength, the axis rules) stays within 0.5% (PoCL: -0.05%, -0.06%, -0.08%).
TEST_CASE("cylindrical engine: PEC cavity TM010, TM110, TM210 at the Bessel zeros") {
  struct Case {
    int m;
    double zero;
  };
  for (const Case& cs : {Case{0, 2.404825557695773}, Case{1, 3.831705970207512},
                         Case{2, 5.135622301840683}}) {
    CylSpec s;
    s.nr = 20;
    s.nz = 4;
    s.modes = {cs.m};
    s.steps = 4000;
    const int ik = cs.m == 0 ? 0 : 9;
    s.sources = {{Component::Ez, ik, 1}};
    s.probes = {{Component::Ez, cs.m == 0 ? 0 : 12, 2}};
    const SimulationModel m = cyl_model(s);
    const double expect = kC0 * cs.zero / (2 * kPi * s.nr * s.dr);
    for (device::Api api : apis()) {
      auto e = engine_on(api, m, config(KernelVariant::Auto));
      std::vector<double> series, batch;
      for (long t = 0; t < s.steps; ++t) {
        e->step(t);
        const int slot = static_cast<int>(t % e->probe_batch_steps());
        e->sample_probes(slot);
        if (slot == e->probe_batch_steps() - 1 || t == s.steps - 1) {
          e->read_probe_batch(slot + 1, batch);
          series.insert(series.end(), batch.begin(), batch.end());
        }
      }
      REQUIRE(series.size() == static_cast<std::size_t>(s.steps));
      // Spectrum after the pulse (t > 100 steps), Hann window, on a fine grid around expect.
      const double dt = m.grid.dt;
      double best_f = 0, best = -1;
      for (double f = 0.8 * expect; f <= 1.2 * expect; f += expect * 1e-4) {
        std::complex<double> acc = 0;
        const long t0 = 100, n = s.steps - t0;
        for (long t = t0; t < s.steps; ++t) {
          const double w = 0.5 - 0.5 * std::cos(2 * kPi * (t - t0) / (n - 1));
          acc += w * series[t] * std::polar(1.0, -2 * kPi * f * t * dt);
        }
        if (std::abs(acc) > best) {
          best = std::abs(acc);
          best_f = f;
        }
      }
      INFO("m = " << cs.m << ": " << best_f << " Hz vs " << expect << " Hz, "
                  << 100 * (best_f / expect - 1) << "%");
      CHECK(std::abs(best_f / expect - 1) < 5e-3);
    }
  }
}

TEST_CASE("cylindrical engine: energy conserved in a closed cavity, drained by the CPML") {
  // The closed cavity takes m = 0, 2, 3 (m = 1's axis samples Ephi, Hr are left out of the
  // energy, CylReference's invariant; the reference tests m = 1). The CPML run takes m = 1..3
  // with off-axis sources (m = 0's slow low-frequency tail would hide the others): with 1/r~ in
  // the r slab the energy falls and never rises again (1/r unstretched, m = 2 rose ~40x from
  // its minimum between steps 500 and 1000 in this box).
  auto spec = [](bool absorber) {
    CylSpec s;
    s.nr = 15;
    s.nz = 17;
    s.modes = absorber ? std::vector<int>{1, 2, 3} : std::vector<int>{0, 2, 3};
    s.steps = absorber ? 1000 : 600;
    s.energy = true;
    if (absorber) s.layers = {5, 5, 5};
    s.materials = {MaterialConfig{"glass", 2.0, 1.0, 0.0, false}};
    s.regions = {{"glass", 0.0, 4.0, 6.0, 10.0}};
    s.sources = {{Component::Ez, absorber ? 2 : 0, 8}, {Component::Ex, 3, 8, 20.0},
                 {Component::Ey, 4, 9, 50.0}};
    return s;
  };
  for (device::Api api : apis()) {
    // electric(s) + magnetic(s + 1) for s > 100 (the pulse is over), per run.
    std::vector<double> total[2];
    for (int absorber = 0; absorber < 2; ++absorber) {
      const SimulationModel m = cyl_model(spec(absorber == 1));
      auto e = engine_on(api, m, config(KernelVariant::Auto));
      std::vector<EnergyTerms> batch;
      double electric_prev = 0;
      for (long t = 0; t < m.grid.steps; ++t) {
        e->step(t);
        const int slot = static_cast<int>(t % 2);
        e->sample_energy(slot);
        e->read_energy_batch(slot + 1, batch);
        const EnergyTerms& now = batch.back();
        if (t > 100) total[absorber].push_back(electric_prev + now.magnetic);
        electric_prev = now.electric;
      }
    }
    const auto& closed = total[0];
    const double peak = *std::max_element(closed.begin(), closed.end());
    const double lowest = *std::min_element(closed.begin(), closed.end());
    const auto& open = total[1];
    const double open_min = *std::min_element(open.begin(), open.end());
    INFO("closed: " << lowest << " .. " << peak << " J; CPML: " << open.front() << " -> "
                    << open.back() << " J (min " << open_min << ")");
    REQUIRE(lowest > 0);
    CHECK((peak - lowest) <= 1e-4 * peak);
    CHECK(open.back() < 1e-2 * open.front());
    CHECK(open.back() <= 10 * std::max(open_min, 1e-12 * open.front()));
  }
}

TEST_CASE("cylindrical engine: probes give sum_q Re(F_q e^{i m_q phi}); read_field the phi = 0 sum") {
  CylSpec s = mixed_spec();
  s.steps = 60;
  const SimulationModel m = cyl_model(s);
  for (device::Api api : apis()) {
    for (KernelVariant v : {KernelVariant::Tile, KernelVariant::Rows}) {
      auto e = engine_on(api, m, config(v));
      run(*e, m.grid.steps);
      e->sample_probes(0);
      std::vector<double> got;
      e->read_probe_batch(1, got);
      REQUIRE(got.size() == s.probes.size());
      for (std::size_t n = 0; n < s.probes.size(); ++n) {
        const Probe& p = s.probes[n];
        double want = 0, scale = 0;
        for (std::size_t q = 0; q < s.modes.size(); ++q) {
          std::vector<std::complex<float>> f;
          e->read_mode_field(static_cast<int>(q), p.c, f);
          const std::complex<double> v = f[static_cast<std::size_t>(p.i) * s.nz + p.k];
          want += (v * std::polar(1.0, s.modes[q] * p.phi_deg * kPi / 180)).real();
          scale += std::abs(v);
        }
        REQUIRE(scale > 0);
        CHECK(std::abs(got[n] - want) <= 1e-5 * scale);
      }
      std::vector<float> phys;
      e->read_field(Component::Ez, phys);
      REQUIRE(phys.size() == static_cast<std::size_t>(s.nr) * s.nz);
      double worst = 0, scale = 0;
      std::vector<double> want(phys.size(), 0.0);
      for (std::size_t q = 0; q < s.modes.size(); ++q) {
        std::vector<std::complex<float>> f;
        e->read_mode_field(static_cast<int>(q), Component::Ez, f);
        for (std::size_t n = 0; n < f.size(); ++n) want[n] += f[n].real();
      }
      for (std::size_t n = 0; n < phys.size(); ++n) {
        worst = std::max(worst, std::abs(phys[n] - want[n]));
        scale = std::max(scale, std::abs(want[n]));
      }
      CHECK(scale > 0);
      CHECK(worst <= 1e-6 * scale);
    }
  }
}

TEST_CASE("cylindrical engine: device bytes are the allocation; variants and refusals") {
  CylSpec s = mixed_spec();
  s.energy = true;
  const SimulationModel m = cyl_model(s);
  for (device::Api api : apis()) {
    auto e = engine_on(api, m, config(KernelVariant::Auto));
    CHECK(e->device_bytes(m) == e->fields().allocated);
    CHECK(e->device_bytes(m) == cyl_device_bytes(m, e->probe_batch_steps()));
    // The psi auxiliaries exist in the slabs only: 8 complex per PML cell and mode.
    const std::size_t pml = 5 * 23 + (17 - 5) * (4 + 6);
    CHECK(cyl_pml_cells(m) == pml);
    CHECK_THROWS_AS(engine_on(api, m, config(KernelVariant::OnePass)), ConfigError);
    const auto devices = device::list_devices(api);
    const bool cpu = devices[device::choose_device(devices, "")].type == "cpu";
    CHECK(e->variant() == (cpu ? KernelVariant::Rows : KernelVariant::Tile));
  }
}


TEST_CASE("cylindrical engine: device bytes with flux monitors are the allocation") {
  // A large ring section and a disc, modes 0 1 2: the monitors' buffers (region tables, ring,
  // weights, accumulators of every field plane's samples) are part of the count.
  const std::string text =
      "[grid]\ncoordinates = cylindrical\nsize = 0.016 0.02\ncell_size = 0.001\nmodes = 0 1 2\n"
      "[time]\nsteps = 10\n[boundary]\nlayers = 4\n"
      "[source.s]\ntype = current\naxis = z\nposition = 0.0045 30 0.01\nfrequency = 2e10\n"
      "[monitor.ring]\ntype = flux\nbox = 0.002 0.005 0.011 0.015\n"
      "frequencies = 1e10 1.5e10 2e10 2.5e10 3e10\n"
      "[monitor.disc]\ntype = flux\nbox = 0 0.01 0.011 0.01\nfrequencies = 2e10\n";
  RunConfig cfg = load_config_text(text, "cyl.ini", {});
  cfg.quiet = true;
  cfg.snapshot.steps.clear();
  const SimulationModel with = SimulationModel::build(cfg);
  REQUIRE(with.monitors.size() == 2);
  SimulationModel without = SimulationModel::build(cfg);
  without.monitors.clear();
  for (device::Api api : apis()) {
    auto e = engine_on(api, with, config(KernelVariant::Auto));
    const std::size_t monitors = e->monitor_bytes_allocated();
    // At least the accumulators: 2 x 3 planes x points x frequencies complex floats.
    CHECK(monitors >= 6 * (with.monitors[0].points() * 5 + with.monitors[1].points()) * 8);
    CHECK(e->device_bytes(with) == e->fields().allocated + monitors);
    CHECK(e->device_bytes(with) - cyl_device_bytes(without, e->probe_batch_steps()) == monitors);
  }
}

TEST_CASE("cylindrical engine: make_backend runs a model from SimulationModel::build") {
  // R = 16 mm in 16 cells, Z = 20 mm in 20 cells, modes 0 1 2, CPML 4 layers on r_hi and z,
  // an off-axis z current at phi = 30 deg and a probe of every component at phi = 60 deg.
  const std::string text =
      "[grid]\ncoordinates = cylindrical\nsize = 0.016 0.02\ncell_size = 0.001\nmodes = 0 1 2\n"
      "[time]\nsteps = 80\n[boundary]\nlayers = 4\n"
      "[source.s]\ntype = current\naxis = z\nposition = 0.0045 30 0.01\nfrequency = 2e10\n"
      "[probe.p]\nposition = 0.006 60 0.012\nfields = Er Ephi Ez Hr Hphi Hz\n"
      "[output]\nenergy = true\n";
  RunConfig cfg = load_config_text(text, "cyl.ini", {});
  cfg.quiet = true;
  cfg.snapshot.steps.clear();
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.cylindrical());
  for (device::Api api : apis()) {
    DeviceConfig dc;
    dc.backend = api == device::Api::Cuda ? BackendKind::Cuda : BackendKind::OpenCl;
    auto b = make_backend(m, dc);
    CHECK(b->kernel_variant().rfind("cyl-", 0) == 0);
    CHECK(b->kernel_variant().find("(3 modes)") != std::string::npos);
    for (long s = 0; s < m.grid.steps; ++s) {
      b->step(s);
      b->sample_probes(static_cast<int>(s));
    }
    CHECK(b->fields_finite());
    std::vector<double> series;
    b->read_probe_batch(static_cast<int>(m.grid.steps), series);
    REQUIRE(series.size() == 6 * static_cast<std::size_t>(m.grid.steps));
    // Off the axis and off phi = 0, the z current drives every component of the sum.
    for (int c = 0; c < 6; ++c) {
      double peak = 0;
      for (long s = 0; s < m.grid.steps; ++s) peak = std::max(peak, std::abs(series[6 * s + c]));
      INFO(cyl_component_name(static_cast<Component>(c)));
      CHECK(peak > 0);
    }
    CHECK(b->device_bytes(m) == cyl_device_bytes(m, b->probe_batch_steps()));
  }
}

#ifdef CLFDTD_HAVE_CUDA
// NVRTC needs no GPU: the cylindrical kernels compile in every CUDA build and keep their names.
TEST_CASE("cylindrical engine kernels: NVRTC compiles them, magnetic and not") {
  for (int magnetic : {0, 1}) {
    const std::string ptx = device::compile_cuda_program(
        {{"TILE_X", 1}, {"TILE_Y", 1}, {"TILE_Z4", 1}, {"MAGNETIC", magnetic}}, "compute_90");
    for (const char* k : {"cyl_tile_h", "cyl_tile_e", "cyl_rows_h", "cyl_rows_e", "cyl_pml_h",
                          "cyl_pml_e", "cyl_add_sources", "cyl_sample_probes",
                          "cyl_energy_sums"}) {
      INFO(std::string(k) << ", MAGNETIC " << magnetic);
      CHECK(ptx.find(std::string(".entry ") + k + "(") != std::string::npos);
    }
  }
}
#endif
