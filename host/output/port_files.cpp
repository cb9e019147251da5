// Port files: see port_files.hpp.
#include "output/port_files.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "errors.hpp"
#include "output/text_file.hpp"
#include "output/touchstone.hpp"

namespace clfdtd {

namespace {

std::string row(const char* format, double a, double b, double c, double d) {
  char buf[160];
  std::snprintf(buf, sizeof buf, format, a, b, c, d);
  return buf;
}

std::string spectrum_csv(const std::vector<PortPoint>& points) {
  std::string text = "frequency_hz,z_re_ohm,z_im_ohm,s11_re,s11_im,s11_db,delivered_J_s\n";
  for (const PortPoint& p : points) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%.9g,%.9g,%.9g,%.9g,%.9g,%.6g,%.9g\n", p.frequency_hz,
                  p.z.real(), p.z.imag(), p.s11.real(), p.s11.imag(),
                  20 * std::log10(std::abs(p.s11)), p.delivered);
    text += buf;
  }
  return text;
}

// An undriven port: what it receives, and S21 from the one driven port when there is one.
std::string received_csv(const std::vector<PortPoint>& points, bool s21) {
  std::string text = "frequency_hz,v_re_V_s,v_im_V_s,i_re_A_s,i_im_A_s,received_J_s";
  text += s21 ? ",s21_re,s21_im,s21_db\n" : "\n";
  for (const PortPoint& p : points) {
    char buf[320];
    int n = std::snprintf(buf, sizeof buf, "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g", p.frequency_hz,
                          p.v.real(), p.v.imag(), p.i.real(), p.i.imag(), -p.delivered);
    if (s21 && n > 0 && n < static_cast<int>(sizeof buf))
      std::snprintf(buf + n, sizeof buf - static_cast<std::size_t>(n), ",%.9g,%.9g,%.6g",
                    p.s21.real(), p.s21.imag(), 20 * std::log10(std::abs(p.s21)));
    text += buf;
    text += "\n";
  }
  return text;
}

std::string series_csv(const PortSeries& s) {
  std::string text = "time_s,source_V,voltage_V,current_A\n";
  for (std::size_t n = 0; n < s.time_s.size(); ++n)
    text += row("%.9g,%.9g,%.9g,%.9g\n", s.time_s[n], s.source_v[n], s.voltage_v[n], s.current_a[n]);
  return text;
}

// The share of the current's peak still flowing in the last 5% of the series.
double tail_share(const std::vector<double>& current) {
  double peak = 0, tail = 0;
  const std::size_t from = current.size() - current.size() / 20;
  for (std::size_t n = 0; n < current.size(); ++n) {
    peak = std::max(peak, std::fabs(current[n]));
    if (n >= from) tail = std::max(tail, std::fabs(current[n]));
  }
  return peak > 0 ? tail / peak : 0;
}

// S11 of the one driven port as a one-port Touchstone file: with every other port terminated in
// its resistance, that is the network's S11.
std::string s1p_text(const PortModel& port, const std::vector<PortPoint>& points) {
  NetworkData d;
  d.port_names = {port.name};
  d.reference_ohm = {port.resistance_ohm};
  d.comments = {"clfdtd " CLFDTD_VERSION ": S11 of port " + port.name + " (" +
                    std::to_string(points.size()) + " frequencies), reference " +
                    touchstone_number(port.resistance_ohm) + " ohm"};
  for (const PortPoint& p : points) {
    d.frequencies_hz.push_back(p.frequency_hz);
    d.s.push_back({p.s11});
  }
  return touchstone_text(d);
}

}  // namespace

bool sole_driven_port(const SimulationModel& m, std::size_t k) {
  std::size_t driven = 0;
  for (const PortModel& p : m.ports) driven += p.driven ? 1 : 0;
  return driven == 1 && m.ports.at(k).driven;
}

std::vector<std::string> write_port_files(const std::string& dir, const SimulationModel& m,
                                          const std::vector<std::vector<double>>& e_series,
                                          long steps_done) {
  std::vector<std::string> warnings;
  if (m.ports.empty()) return warnings;
  std::error_code ec;
  std::filesystem::create_directories(dir + "/ports", ec);
  if (ec) throw OutputError("create", dir + "/ports", ec.message());
  for (std::size_t k = 0; k < m.ports.size(); ++k) {
    const PortModel& port = m.ports[k];
    // Only the steps the run did: E at steps 0 .. steps_done.
    const std::vector<double>& all = e_series.at(k);
    const std::size_t kept = std::min(all.size(), static_cast<std::size_t>(std::max(0L, steps_done)) + 1);
    const std::vector<double> e(all.begin(), all.begin() + static_cast<long>(kept));
    const PortSeries s = port_series(port, e, m.grid.dt);
    write_text_file(dir + "/ports/" + port.name + ".time.csv", series_csv(s));
    const PortModel* incident = port.s21_from >= 0 ? &m.ports.at(static_cast<std::size_t>(port.s21_from)) : nullptr;
    const std::vector<PortPoint> points = port_spectrum(port, s, incident);
    write_text_file(dir + "/ports/" + port.name + ".csv",
                    port.driven ? spectrum_csv(points) : received_csv(points, incident != nullptr));
    if (sole_driven_port(m, k))
      write_text_file(dir + "/ports/" + port.name + ".s1p", s1p_text(port, points));
    if (steps_done < m.grid.steps) {
      warnings.push_back("port '" + port.name + "': the run stopped at step " +
                         std::to_string(steps_done) + " of " + std::to_string(m.grid.steps) +
                         ", so its spectrum comes from the steps done");
      continue;
    }
    const double tail = tail_share(s.current_a);
    if (tail > 1e-3) {
      char share[32];
      std::snprintf(share, sizeof share, "%.2g%%", 100 * tail);
      warnings.push_back("port '" + port.name + "': its current in the last 5% of the run is still " +
                         share + " of its peak, so its spectrum comes from a cut-off series; run " +
                         "longer (time.steps) until it dies down");
    }
  }
  return warnings;
}

}  // namespace clfdtd
