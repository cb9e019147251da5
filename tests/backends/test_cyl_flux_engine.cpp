// The cylindrical flux monitor on the GPU engine (CylEngine, OpenCL: PoCL in CI) against the
// double reference: every transformed point (each mode slot's Re and Im plane, each component,
// every frequency) and the flux, for modes 0 1 2 driven on and off the axis, a closed ring
// section away from the axis and a disc from it, one of them decimated. The absorber is on the
// z faces only (the engine's r slab does not stretch 1/r yet: cyl_reference.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <string>

#include "backends/cyl_flux_helpers.hpp"
#include "backends/reference/cyl_reference.hpp"
#include "errors.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

#ifdef CLFDTD_HAVE_OPENCL
TEST_CASE("cylindrical engine (OpenCL) flux monitors equal the reference's, modes 0 1 2") {
  const std::string text =
      "[grid]\ncoordinates = cylindrical\nsize = 0.02 0.04\ncell_size = 0.001\nmodes = 0 1 2\n"
      "[time]\nsteps = 300\n[boundary]\ntype = upml\nlayers = 0 6 6\n"
      "[source.axial]\ntype = current\naxis = z\nposition = 0 0 0.02\nwaveform = gaussian_pulse\n"
      "frequency = 15e9\nbandwidth = 10e9\n"
      "[source.side]\ntype = current\naxis = phi\nposition = 0.004 35 0.017\n"
      "waveform = gaussian_pulse\nfrequency = 15e9\nbandwidth = 10e9\namplitude = 0.7\n"
      "[monitor.ring]\ntype = flux\nbox = 0.002 0.01 0.012 0.03\nfrequencies = 10e9 15e9 20e9\n"
      "decimation = 1\n"
      "[monitor.disc]\ntype = flux\nbox = 0 0.025 0.015 0.025\nfrequencies = 12e9 18e9\n"
      "decimation = 3\n";
  const SimulationModel m = cyl_model_of(text);
  DeviceConfig dev;
  dev.backend = BackendKind::OpenCl;
  std::unique_ptr<Backend> gpu;
  try {
    gpu = make_backend(m, dev);
  } catch (const DeviceError& e) {
    MESSAGE("no OpenCL device: " << e.what());
    return;
  }
  CylReference ref(m);
  const auto dg = run_dft(m, *gpu);
  const auto dr = run_dft(m, ref);
  for (std::size_t i = 0; i < m.monitors.size(); ++i) {
    const MonitorModel& mon = m.monitors[i];
    REQUIRE(dg[i].size() == dr[i].size());
    double scale = 0, diff = 0;
    for (std::size_t p = 0; p < dr[i].size(); ++p) {
      scale = std::max(scale, std::abs(dr[i][p]));
      diff = std::max(diff, std::abs(dg[i][p] - dr[i][p]));
    }
    MESSAGE("monitor " << mon.name << ": largest |transform| " << scale << ", largest difference " << diff);
    CHECK(scale > 0);
    CHECK(diff <= 1e-5 * scale);
    const auto fg = cyl_surface_flux(mon, m.grid, dg[i]);
    const auto fr = cyl_surface_flux(mon, m.grid, dr[i]);
    const auto per_mode = cyl_mode_flux(mon, m.grid, dr[i]);
    for (std::size_t f = 0; f < fr.size(); ++f) {
      MESSAGE(mon.name << " at " << mon.frequencies_hz[f] << " Hz: engine / reference - 1 = " << fg[f] / fr[f] - 1);
      CHECK(std::fabs(fg[f] - fr[f]) <= 1e-4 * std::fabs(fr[f]));
      for (const auto& q : per_mode) CHECK(q[f] != 0);  // every mode carries flux here
    }
  }
}
#endif
