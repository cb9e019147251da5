// Port files: see port_files.hpp.
#include "output/port_files.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "errors.hpp"
#include "output/text_file.hpp"

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

}  // namespace

std::vector<std::string> write_port_files(const std::string& dir, const SimulationModel& m,
                                          const std::vector<std::vector<double>>& e_series) {
  std::vector<std::string> warnings;
  if (m.ports.empty()) return warnings;
  std::error_code ec;
  std::filesystem::create_directories(dir + "/ports", ec);
  if (ec) throw OutputError("create", dir + "/ports", ec.message());
  for (std::size_t k = 0; k < m.ports.size(); ++k) {
    const PortModel& port = m.ports[k];
    const PortSeries s = port_series(port, e_series.at(k), m.grid.dt);
    write_text_file(dir + "/ports/" + port.name + ".time.csv", series_csv(s));
    write_text_file(dir + "/ports/" + port.name + ".csv", spectrum_csv(port_spectrum(port, s)));
    const double tail = tail_share(s.current_a);
    if (tail > 1e-3) {
      char share[32];
      std::snprintf(share, sizeof share, "%.2g%%", 100 * tail);
      warnings.push_back("port '" + port.name + "': its current in the last 5% of the run is still " +
                         share + " of its peak, so Z and S11 come from a cut-off series; run " +
                         "longer (time.steps) until it dies down");
    }
  }
  return warnings;
}

}  // namespace clfdtd
