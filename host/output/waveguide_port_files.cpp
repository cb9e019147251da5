// See waveguide_port_files.hpp.
#include "output/waveguide_port_files.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "errors.hpp"
#include "output/text_file.hpp"

namespace clfdtd {
namespace {

std::string number(double v) {
  if (std::isnan(v)) return "nan";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

int sole_driven(const SimulationModel& m) {
  int driven = -1, count = 0;
  for (std::size_t k = 0; k < m.waveguide_ports.size(); ++k)
    if (m.waveguide_ports[k].driven) {
      driven = static_cast<int>(k);
      ++count;
    }
  return count == 1 ? driven : -1;
}

}  // namespace

std::vector<WaveguidePortReport> waveguide_port_reports(const SimulationModel& m) {
  std::vector<WaveguidePortReport> out;
  const int sole = sole_driven(m);
  for (std::size_t k = 0; k < m.waveguide_ports.size(); ++k) {
    const WaveguidePortModel& p = m.waveguide_ports[k];
    WaveguidePortReport r;
    r.name = p.name;
    r.mode = p.mode_text();
    r.direction = std::string(p.sign > 0 ? "+" : "-") + "xyz"[p.axis];
    r.fill = p.fill;
    r.plane_m = p.plane * m.grid.d[p.axis];
    for (int a = 0; a < 3; ++a) {
      const int lo = a == p.axis ? p.plane : a == p.u ? p.lo[0] : p.lo[1];
      const int hi = a == p.axis ? p.plane : a == p.u ? p.hi[0] : p.hi[1];
      r.guide_m[a] = lo * m.grid.d[a];
      r.guide_m[3 + a] = hi * m.grid.d[a];
    }
    r.eps_r = p.eps_r;
    r.mu_r = p.mu_r;
    r.amplitude_v_per_m = p.source.amplitude;
    r.cutoff_hz = p.cutoff_hz;
    r.cutoff_analytic_hz = p.cutoff_analytic_hz;
    r.solved = p.solved > 0;
    r.n_line = p.n_line;
    r.driven = p.driven;
    r.sole_driven = static_cast<int>(k) == sole;
    r.frequencies_hz = p.frequencies_hz;
    out.push_back(std::move(r));
  }
  return out;
}

std::string waveguide_port_csv(const SimulationModel& m, std::size_t k, const std::vector<PortWaves>& waves) {
  const WaveguidePortModel& p = m.waveguide_ports[k];
  const PortWaves& w = waves[k];
  const int sole = sole_driven(m);
  // S21 from the driven waveguide port only at its own frequencies (row by row).
  const bool s11 = static_cast<int>(k) == sole;
  const bool s21 = (sole >= 0 && !s11 &&
                    m.waveguide_ports[static_cast<std::size_t>(sole)].frequencies_hz == p.frequencies_hz) ||
                   p.s21_from_lumped >= 0;
  // A driven lumped port's incoming wave instead: a = V_s / (2 sqrt(2 R)) in sqrt(J s), its
  // available power's square root (the measure of the waveguide ports' a and b).
  auto incident = [&](std::size_t f) -> std::complex<double> {
    if (p.s21_from_lumped < 0) return waves[static_cast<std::size_t>(sole)].a[f];
    const PortModel& l = m.ports.at(static_cast<std::size_t>(p.s21_from_lumped));
    return port_transform(l.v_source, p.frequencies_hz[f], m.grid.dt) / (2 * std::sqrt(2 * l.resistance_ohm));
  };
  std::string text = "frequency_hz,beta_rad_per_m,a_re,a_im,b_re,b_im";
  if (s11) text += ",s11_re,s11_im,s11_db";
  if (s21) text += ",s21_re,s21_im,s21_db";
  text += "\n";
  for (std::size_t f = 0; f < p.frequencies_hz.size(); ++f) {
    const bool carried = !std::isnan(w.a[f].real());
    text += number(p.frequencies_hz[f]) + "," + number(carried ? w.beta[f].real() : NAN) + "," +
            number(w.a[f].real()) + "," + number(w.a[f].imag()) + "," + number(w.b[f].real()) + "," +
            number(w.b[f].imag());
    if (s11 || s21) {
      const std::complex<double> s = w.b[f] / incident(f);
      text += "," + number(s.real()) + "," + number(s.imag()) + "," + number(20 * std::log10(std::abs(s)));
    }
    text += "\n";
  }
  return text;
}

void write_waveguide_port_files(const std::string& dir, const SimulationModel& m,
                                const std::vector<PortWaves>& waves) {
  if (m.waveguide_ports.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir + "/ports", ec);
  if (ec) throw OutputError("create", dir + "/ports", ec.message());
  for (std::size_t k = 0; k < m.waveguide_ports.size(); ++k)
    write_text_file(dir + "/ports/" + m.waveguide_ports[k].name + ".csv", waveguide_port_csv(m, k, waves));
}

}  // namespace clfdtd
