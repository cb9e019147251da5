// Port files: see port_files.hpp.
#include "output/port_files.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>

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

// How far a series has died down: its largest magnitude over the last 5% of the steps (at least
// one) against its largest over the whole run.
struct Tail {
  double tail = 0, peak = 0;
  double share() const { return peak > 0 ? tail / peak : 0; }
};

Tail tail_of(const std::vector<double>& x) {
  Tail t;
  if (x.empty()) return t;
  const std::size_t from = x.size() - std::max<std::size_t>(1, x.size() / 20);
  for (std::size_t n = 0; n < x.size(); ++n) {
    t.peak = std::max(t.peak, std::fabs(x[n]));
    if (n >= from) t.tail = std::max(t.tail, std::fabs(x[n]));
  }
  return t;
}

std::string number(const char* format, double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
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

// Port k alone drives the model: no other port, point source or plane wave (a port's own
// samples are sources of its name).
bool drives_alone(const SimulationModel& m, std::size_t k) {
  const bool sources_drive = std::any_of(m.sources.begin(), m.sources.end(), [&](const SourceModel& s) {
    const bool of_a_port = std::any_of(m.ports.begin(), m.ports.end(),
                                       [&](const PortModel& p) { return p.name == s.name; });
    return !of_a_port && drives(s);
  });
  return sole_driven_port(m, k) && m.plane_waves.empty() && !sources_drive;
}

// A port feeding a passive structure alone gets back at most what it sends: Re Z >= 0 and
// |S11| <= 1 at every frequency. Where its spectrum says otherwise the run is the cause (a
// series cut while still ringing): said with the frequencies, not left in the .s1p unremarked.
std::optional<std::string> non_passive_warning(const PortModel& port, const std::vector<PortPoint>& points,
                                               const GridGeometry& g) {
  std::size_t count = 0;
  const PortPoint* worst = nullptr;
  double largest_s11 = 0;
  for (const PortPoint& p : points) {
    largest_s11 = std::max(largest_s11, std::abs(p.s11));
    if (!(p.z.real() < 0)) continue;
    ++count;
    if (!worst || p.z.real() < worst->z.real()) worst = &p;
  }
  if (count == 0) return std::nullopt;
  return "port '" + port.name + "': its resistance is negative at " + std::to_string(count) + " of " +
         std::to_string(points.size()) + " frequencies (down to " + number("%.3g", worst->z.real()) +
         " ohm at " + number("%.4g", worst->frequency_hz) + " Hz; |S11| up to " +
         number("%.6g", largest_s11) + "), which a passive model fed by this port alone cannot "
         "give: the run ended before its fields died down; " + longer_run_advice(g) +
         " (ports/" + port.name + ".csv and .s1p hold these values as computed)";
}

// Port k's E at steps 0 .. steps_done (a stopped run's series ends there).
std::vector<double> steps_done_series(const std::vector<std::vector<double>>& e_series, std::size_t k,
                                      long steps_done) {
  const std::vector<double>& all = e_series.at(k);
  const std::size_t kept = std::min(all.size(), static_cast<std::size_t>(std::max(0L, steps_done)) + 1);
  return std::vector<double>(all.begin(), all.begin() + static_cast<long>(kept));
}

// The warning for the frequencies whose power still moved over the last 5% of the steps, or
// nothing; `head` names the port and the quantity ("port 'feed': its delivered power ...").
std::optional<std::string> moved_warning(const std::string& head, const std::vector<double>& freqs,
                                         const std::vector<double>& moved, const GridGeometry& g) {
  std::size_t count = 0, worst = 0;
  double lo = 0, hi = 0;
  for (std::size_t f = 0; f < moved.size(); ++f) {
    if (!(moved[f] > kPortPowerMoved)) continue;
    if (count == 0 || moved[f] > moved[worst]) worst = f;
    lo = count == 0 ? freqs[f] : std::min(lo, freqs[f]);
    hi = std::max(hi, freqs[f]);
    ++count;
  }
  if (count == 0) return std::nullopt;
  return head + " at " + std::to_string(count) + " of " + std::to_string(moved.size()) +
         " frequencies (" + number("%.4g", lo) + " to " + number("%.4g", hi) + " Hz) still moved by " +
         "up to " + number("%.3g", 100 * moved[worst]) + "% (at " + number("%.4g", freqs[worst]) +
         " Hz) over the last 5% of the steps, above the " + number("%.3g", 100 * kPortPowerMoved) +
         "% of a settled value: the series had not died down at those frequencies (where the "
         "resistance is small beside the reactance, a residue hardly seen in Z shifts it and the "
         "power); " + longer_run_advice(g);
}

}  // namespace

std::vector<double> delivered_moved(const PortModel& port, const std::vector<PortPoint>& full,
                                    const std::vector<double>& e, double dt) {
  const std::size_t n = e.empty() ? 0 : e.size() - 1;  // steps
  const std::vector<double> early(e.begin(), e.begin() + static_cast<long>(e.size() - n / 20));
  const std::vector<PortPoint> part = port_spectrum(port, port_series(port, early, dt));
  std::vector<double> out;
  for (std::size_t f = 0; f < full.size(); ++f) {
    const double change = std::fabs(full[f].delivered - part[f].delivered);
    out.push_back(change == 0 ? 0.0 : change / std::fabs(full[f].delivered));
  }
  return out;
}

bool sole_driven_port(const SimulationModel& m, std::size_t k) {
  std::size_t driven = 0;
  for (const PortModel& p : m.ports) driven += p.driven ? 1 : 0;
  return driven == 1 && m.ports.at(k).driven;
}

double port_images(const PortModel& port, const GridGeometry& g) {
  double n = 1;
  for (int a = 0; a < 3; ++a) {
    if (!g.pmc[static_cast<std::size_t>(a)]) continue;
    // On the wall: its E samples lie in the wall's plane (tangential to it, on node plane 0).
    bool on_wall = static_cast<int>(port.component) != a;
    for (const std::array<int, 3>& c : port.cells) on_wall = on_wall && c[static_cast<std::size_t>(a)] == 0;
    if (!on_wall) n *= 2;
  }
  return n;
}

std::optional<DrivingPortPower> driving_port_power(const SimulationModel& m,
                                                   const std::vector<std::vector<double>>& e_series,
                                                   long steps_done, const std::vector<double>& freqs) {
  for (std::size_t k = 0; k < m.ports.size(); ++k) {
    if (!drives_alone(m, k)) continue;
    PortModel port = m.ports[k];
    port.frequencies_hz = freqs;
    const std::vector<double> e = steps_done_series(e_series, k, steps_done);
    const PortSeries s = port_series(port, e, m.grid.dt);
    DrivingPortPower out;
    out.port = port.name;
    const std::vector<PortPoint> points = port_spectrum(port, s);
    out.moved = delivered_moved(port, points, e, m.grid.dt);
    // The far field is the symmetric whole's (boundary.pmc): a port on a magnetic wall is the
    // whole's port, one clear of it has an image port beside it in the whole.
    const double images = port_images(port, m.grid);
    auto available = [&](double f) {
      return images * std::norm(port_transform(s.source_v, f, s.dt)) / (8 * port.resistance_ohm);
    };
    for (const PortPoint& p : points) {
      out.delivered.push_back(images * p.delivered);
      out.available.push_back(available(p.frequency_hz));
      out.available_peak = std::max(out.available_peak, out.available.back());
    }
    for (double f : m.ports[k].frequencies_hz) out.available_peak = std::max(out.available_peak, available(f));
    return out;
  }
  return std::nullopt;
}

std::optional<std::string> gain_moved_warning(const std::string& monitor, const DrivingPortPower& p,
                                             const std::vector<double>& freqs, const GridGeometry& g) {
  return moved_warning("monitor '" + monitor + "': the gain and radiation efficiency rest on port '" +
                           p.port + "''s delivered power, which",
                       freqs, p.moved, g);
}

std::vector<std::string> write_port_files(const std::string& dir, const SimulationModel& m,
                                          const std::vector<std::vector<double>>& e_series,
                                          long steps_done, const std::vector<PortWaves>& guided) {
  std::vector<std::string> warnings;
  if (m.ports.empty()) return warnings;
  std::error_code ec;
  std::filesystem::create_directories(dir + "/ports", ec);
  if (ec) throw OutputError("create", dir + "/ports", ec.message());
  for (std::size_t k = 0; k < m.ports.size(); ++k) {
    const PortModel& port = m.ports[k];
    const std::vector<double> e = steps_done_series(e_series, k, steps_done);
    const PortSeries s = port_series(port, e, m.grid.dt);
    write_text_file(dir + "/ports/" + port.name + ".time.csv", series_csv(s));
    const PortModel* incident = port.s21_from >= 0 ? &m.ports.at(static_cast<std::size_t>(port.s21_from)) : nullptr;
    std::vector<PortPoint> points = port_spectrum(port, s, incident);
    // A driven waveguide port's incoming wave a (sqrt(J s)): b = V / sqrt(2 R), the received
    // power's square root (the flux monitor's measure, as a is).
    const bool from_guided = port.s21_from_guided >= 0 &&
                             static_cast<std::size_t>(port.s21_from_guided) < guided.size();
    if (from_guided) {
      const PortWaves& w = guided[static_cast<std::size_t>(port.s21_from_guided)];
      for (std::size_t f = 0; f < points.size() && f < w.a.size(); ++f)
        points[f].s21 = points[f].v / std::sqrt(2 * port.resistance_ohm) / w.a[f];
    }
    write_text_file(dir + "/ports/" + port.name + ".csv",
                    port.driven ? spectrum_csv(points) : received_csv(points, incident != nullptr || from_guided));
    if (sole_driven_port(m, k))
      write_text_file(dir + "/ports/" + port.name + ".s1p", s1p_text(port, points));
    if (steps_done < m.grid.steps) {
      warnings.push_back("port '" + port.name + "': the run stopped at step " +
                         std::to_string(steps_done) + " of " + std::to_string(m.grid.steps) +
                         ", so its spectrum comes from the steps done");
      continue;
    }
    // A series cut off before it has died down gives spectra of the cut (ripples, a wrong
    // resistance). The voltage and the current each: at a driven port the source's pulse sets
    // the current's peak, and a gap still ringing at the end shows in its voltage first.
    std::string late;
    const std::pair<const char*, const std::vector<double>*> series[] = {
        {"voltage", &s.voltage_v}, {"current", &s.current_a}};
    for (const auto& [what, values] : series) {
      const Tail t = tail_of(*values);
      if (t.share() <= kPortTailShare) continue;
      const char* unit = values == &s.voltage_v ? " V" : " A";
      late += std::string(late.empty() ? "" : ", ") + "its " + what + " " +
              number("%.3g", 100 * t.share()) + "% of its peak (" + number("%.3g", t.tail) + unit +
              " of " + number("%.3g", t.peak) + unit + ")";
    }
    if (!late.empty())
      warnings.push_back("port '" + port.name + "' has not died down by the end of the run: over "
                         "its last 5% of steps it still reaches " + late + ", above the 0.1% of a "
                         "finished series, so its spectrum comes from a cut-off series; " +
                         longer_run_advice(m.grid) + " until it dies down");
    // Died down by the time series' measure, yet not at every frequency: said per frequency.
    else if (auto w = moved_warning("port '" + port.name + "': its " +
                                   (port.driven ? "delivered" : "received") + " power (ports/" +
                                   port.name + ".csv)",
                               port.frequencies_hz, delivered_moved(port, points, e, m.grid.dt), m.grid))
      warnings.push_back(*w);
    if (port.driven && drives_alone(m, k))
      if (auto w = non_passive_warning(port, points, m.grid)) warnings.push_back(*w);
  }
  return warnings;
}

}  // namespace clfdtd
