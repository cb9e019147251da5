// The cylindrical flux monitor on the double reference (docs/CYLINDRICAL.md, "Flux monitors"):
// a z current element on the axis (m = 0), an x one across it (m = 1) and a z one 3 mm off the
// axis (its power split over m = 0..3) inside a closed ring section radiate the analytic dipole
// power mu0 w^2 |P'|^2 / (12 pi c0) (measured within 2 %: 0.4..1.7 % on the axis, the grid's
// dispersion at 20..10 cells per wavelength); a ring section beside the source, enclosing none of
// it, sees a net flux of ~0 (measured 2e-8 of the radiated power: the flux sums are the Yee
// scheme's own Poynting balance).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "backends/cyl_flux_helpers.hpp"
#include "backends/reference/cyl_reference.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

// R = 30 mm, Z = 60 mm, 1 mm cells, an 8-cell CPML; a 15 GHz pulse (20 cells per wavelength)
// at z = 30 mm, 1.5 ns (the pulse is over); flux at 10, 15 and 20 GHz. `source` and `modes`
// complete the model.
std::string flux_model(const std::string& modes, const std::string& source, const std::string& box) {
  return "[grid]\ncoordinates = cylindrical\nsize = 0.03 0.06\ncell_size = 0.001\nmodes = " + modes +
         "\n[time]\nduration = 1.5e-9\n[boundary]\ntype = upml\nlayers = 8\n[source.feed]\ntype = "
         "current\n" + source + "\nwaveform = gaussian_pulse\nfrequency = 15e9\nbandwidth = 10e9\n"
         "[monitor.box]\ntype = flux\nbox = " + box + "\nfrequencies = 10e9 15e9 20e9\n";
}

}  // namespace

TEST_CASE("cylindrical reference flux: z and x dipoles on the axis, a z dipole off it (modes 0..3)") {
  struct Case {
    const char* what;
    std::string modes, source;
  };
  for (const Case& c : {Case{"z dipole on the axis, m = 0", "0", "axis = z\nposition = 0 0 0.03"},
                        Case{"x dipole across the axis, m = 1", "1", "axis = r\nposition = 0.0005 0 0.03"},
                        Case{"z dipole at r = 3 mm, m = 0 1 2 3", "0 1 2 3", "axis = z\nposition = 0.003 0 0.03"}}) {
    const SimulationModel m = cyl_model_of(flux_model(c.modes, c.source, "0 0.018 0.014 0.042"));
    CylReference ref(m);
    const auto dft = run_dft(m, ref);
    const MonitorModel& mon = m.monitors[0];
    const std::vector<double> flux = cyl_surface_flux(mon, m.grid, dft[0]);
    const auto per_mode = cyl_mode_flux(mon, m.grid, dft[0]);
    const std::vector<double> power = dipole_power(m, m.sources[0], mon.frequencies_hz);
    for (std::size_t f = 0; f < flux.size(); ++f) {
      std::string split;
      for (const auto& q : per_mode) split += " " + std::to_string(q[f] / power[f]);
      INFO(std::string(c.what) << ", " << mon.frequencies_hz[f] << " Hz: flux " << flux[f] << ", dipole formula "
                  << power[f] << ", per mode / formula" << split);
      MESSAGE(std::string(c.what) << ", " << mon.frequencies_hz[f] << " Hz: flux / formula " << flux[f] / power[f]
                     << ", per mode" << split);
      CHECK(std::fabs(flux[f] / power[f] - 1) < 0.025);
    }
    // Off the axis m = 1 carries 15..45 % of the power: a wrong m > 0 weight would show.
    if (per_mode.size() == 4) CHECK(per_mode[1][0] > 0.1 * power[0]);
  }
}

TEST_CASE("cylindrical reference flux: a ring section beside the source holds no net flux") {
  // The source on the axis at z = 30 mm; the ring 5..15 mm x 20..40 mm around it encloses none.
  const SimulationModel m =
      cyl_model_of(flux_model("0", "axis = z\nposition = 0 0 0.03", "0.005 0.02 0.015 0.04"));
  CylReference ref(m);
  const auto dft = run_dft(m, ref);
  const std::vector<double> net = cyl_surface_flux(m.monitors[0], m.grid, dft[0]);
  const std::vector<double> power = dipole_power(m, m.sources[0], m.monitors[0].frequencies_hz);
  for (std::size_t f = 0; f < net.size(); ++f) {
    INFO(m.monitors[0].frequencies_hz[f] << " Hz: net " << net[f] << ", radiated " << power[f]);
    MESSAGE("beside: net / radiated " << net[f] / power[f]);
    CHECK(std::fabs(net[f]) < 1e-6 * power[f]);
  }
}
