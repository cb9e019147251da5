// Lumped ports: see ports.hpp and docs/PORTS.md.
#include "model/ports.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "model/input_limits.hpp"
#include "model/number_text.hpp"
#include "model/port_box.hpp"

namespace clfdtd {

namespace {
constexpr double kPi = 3.14159265358979323846;

// sum_n x[n] e^(-i 2 pi f (n + 1/2) dt) dt, by a rotating phasor (double: the drift over 1e7
// steps stays near 1e-9).
std::complex<double> transform(const std::vector<double>& x, double f, double dt) {
  const std::complex<double> step = std::polar(1.0, -2 * kPi * f * dt);
  std::complex<double> w = std::polar(1.0, -kPi * f * dt), sum = 0;
  for (std::size_t n = 0; n < x.size(); ++n) {
    sum += x[n] * w;
    w *= step;
    if ((n & 1023) == 1023) w /= std::abs(w);
  }
  return sum * dt;
}
}  // namespace

std::vector<double> source_band(const std::vector<double>& v_source, double dt, double f_max,
                                int n, double fraction) {
  // Only the part of the table that carries the pulse: a Gaussian's long zero tail costs time
  // and adds nothing.
  double peak = 0;
  for (double v : v_source) peak = std::max(peak, std::fabs(v));
  if (!(peak > 0) || !(f_max > 0) || n < 1) return {};
  std::size_t first = 0, last = v_source.size();
  while (first < last && std::fabs(v_source[first]) < 1e-9 * peak) ++first;
  while (last > first && std::fabs(v_source[last - 1]) < 1e-9 * peak) --last;
  const std::vector<double> pulse(v_source.begin() + static_cast<long>(first),
                                  v_source.begin() + static_cast<long>(last));
  constexpr int kSearch = 500;
  std::vector<double> mag(kSearch + 1, 0.0);
  for (int k = 1; k <= kSearch; ++k) mag[k] = std::abs(transform(pulse, f_max * k / kSearch, dt));
  const double top = *std::max_element(mag.begin(), mag.end());
  int lo = kSearch, hi = 1;
  for (int k = 1; k <= kSearch; ++k)
    if (mag[k] >= fraction * top) {
      lo = std::min(lo, k);
      hi = std::max(hi, k);
    }
  if (lo > hi) return {};
  // Each edge found to 1e-6 of the search step between the grid points around it.
  const double level = fraction * top, step = f_max / kSearch;
  auto edge = [&](double inside, double outside) {
    for (int it = 0; it < 20; ++it) {
      const double mid = 0.5 * (inside + outside);
      (std::abs(transform(pulse, mid, dt)) >= level ? inside : outside) = mid;
    }
    return inside;
  };
  const double f_lo = lo == 1 ? step / 10 : edge(lo * step, (lo - 1) * step);
  const double f_hi = hi == kSearch ? f_max : edge(hi * step, (hi + 1) * step);
  std::vector<double> out;
  for (int k = 0; k < n; ++k)
    out.push_back(n == 1 || f_hi <= f_lo ? f_lo : f_lo + (f_hi - f_lo) * k / (n - 1));
  return out;
}

std::vector<PortModel> build_ports(const RunConfig& cfg, const std::vector<SourceModel>& sources,
                                   const GridGeometry& g) {
  std::vector<PortModel> ports;
  const double cutoff = grid_cutoff_frequency_hz(cfg, g);
  for (std::size_t i = 0; i < cfg.sources.size() && i < sources.size(); ++i) {
    const SourceConfig& c = cfg.sources[i];
    if (c.kind != SourceKind::Port) continue;
    const SourceModel& s = sources[i];
    PortModel p;
    p.name = c.name;
    p.component = s.component;
    p.cell = s.cell;
    const PortBox box = port_box(c, g);
    p.cells = box.cells;
    p.along = box.along;
    p.across = box.across;
    const int a = static_cast<int>(s.component);  // Ex, Ey, Ez: the axis
    // A box across a magnetic wall's axis that starts on the wall and reaches off it: the whole
    // port would count the wall's columns once and the others twice (boundary.pmc).
    for (int b = 0; b < 3; ++b) {
      if (b == a || !g.pmc[static_cast<std::size_t>(b)]) continue;
      bool on = false, off = false;
      for (const auto& cell : p.cells) (cell[static_cast<std::size_t>(b)] == 0 ? on : off) = true;
      if (on && off)
        throw cfg.error_at("source." + c.name + ".size",
                           std::string("a port box on the magnetic wall ") + "xyz"[b] +
                               " = 0 that stays on it, or one clear of it (this one starts on it "
                               "and reaches off it: its image would count the wall's columns once "
                               "and the others twice)");
    }
    p.length_m = g.d[a] * static_cast<double>(p.along);
    p.area_m2 = g.d[(a + 1) % 3] * g.d[(a + 2) % 3] * static_cast<double>(p.across);
    p.resistance_ohm = c.resistance_ohm;
    p.v_source.reserve(s.j.size());
    for (double j : s.j) p.v_source.push_back(j * p.resistance_ohm * p.area_m2);
    // Another source's current on the sample would flow through the gap beside the port's own,
    // and I = (V_s - V) / R would no longer be the gap's current.
    // (The port's own samples past its first are sources of its name: model/sources.hpp.)
    for (std::size_t k = 0; k < sources.size(); ++k)
      if (sources[k].name != p.name && sources[k].component == p.component &&
          std::find(p.cells.begin(), p.cells.end(), sources[k].cell) != p.cells.end())
        throw cfg.error_at(
            "source." + c.name + (c.size_m ? ".size" : ".position"),
            std::string(p.cells.size() > 1 ? "samples" : "a sample") +
                " no other source drives (source '" + sources[k].name + "' drives " +
                (p.cells.size() > 1 ? "one of its " : "the same ") +
                component_name(p.component) + " samples)");
    for (double f : c.frequencies_hz)
      if (f > cutoff)
        throw cfg.error_at("source." + c.name + ".frequencies",
                           "frequencies in (0, " + number_text(cutoff) +
                               "] Hz, the highest a wave on this grid can have (asin(courant) / "
                               "(pi dt)), got " + number_text(f));
    p.driven = std::any_of(p.v_source.begin(), p.v_source.end(), [](double v) { return v != 0; });
    p.frequencies_hz = c.frequencies_hz;
    if (p.frequencies_hz.empty() && p.driven) p.frequencies_hz = source_band(p.v_source, g.dt, cutoff);
    ports.push_back(std::move(p));
  }
  // An undriven port (amplitude 0, a load that receives) takes the first driven port's band.
  const PortModel* first_driven = nullptr;
  std::size_t driven = 0;
  for (const PortModel& p : ports)
    if (p.driven && driven++ == 0) first_driven = &p;
  // A driven waveguide port gives its band instead (simulation_model.cpp, once it is built).
  const bool guided_drive = std::any_of(cfg.waveguide_ports.begin(), cfg.waveguide_ports.end(),
                                        [](const SourceConfig& w) { return w.amplitude != 0; });
  for (PortModel& p : ports) {
    if (p.driven) continue;
    if (p.frequencies_hz.empty()) {
      if (!first_driven && guided_drive) continue;
      if (!first_driven)
        throw cfg.error_at("source." + p.name + ".frequencies",
                           "frequencies for a port with amplitude 0 when no port is driven (such "
                           "a port takes a driven port's band)");
      p.frequencies_hz = first_driven->frequencies_hz;
    }
    // S21 needs one incident wave: the one driven port's.
    if (driven == 1) p.s21_from = static_cast<int>(first_driven - ports.data());
  }
  return ports;
}

std::vector<std::string> port_box_warnings(const std::vector<PortModel>& ports,
                                           const MaterialTable& table, const FieldLayout& layout,
                                           const std::array<std::vector<std::uint8_t>, 6>& ids,
                                           const GridGeometry& g, const UpmlProfile& upml) {
  std::vector<std::string> out;
  // Every port's samples (another port's sample in a gap is a second element in series, not an
  // unfed stretch of it).
  std::vector<std::pair<int, std::array<int, 3>>> port_samples;
  for (const PortModel& p : ports)
    for (const std::array<int, 3>& c : p.cells) port_samples.push_back({static_cast<int>(p.component), c});
  auto is_port_sample = [&](int comp, const std::array<int, 3>& c) {
    return std::find(port_samples.begin(), port_samples.end(), std::make_pair(comp, c)) !=
           port_samples.end();
  };
  // Past either end of a periodic axis lies the other end (boundary.periodic).
  auto wrap = [&](int b, int v) { return g.periodic[static_cast<std::size_t>(b)] ? (v % g.n[b] + g.n[b]) % g.n[b] : v; };
  auto pec_at = [&](int comp, std::array<int, 3> c) {
    for (int b = 0; b < 3; ++b) {
      c[b] = wrap(b, c[b]);
      if (c[b] < 0 || c[b] >= g.n[b]) return false;
    }
    return table.entry(ids[comp][layout.index(c[0], c[1], c[2])]).pec;
  };
  for (const PortModel& p : ports) {
    const int a = static_cast<int>(p.component);
    // Node m along the axis of a column (its transverse node `t`) lies on a conductor where an E
    // sample with that node as an end is PEC: the sample along the axis on either side, or one
    // across it in the node's plane (a strip or a plate thinner than a cell holds only those),
    // or where m is on the domain's wall.
    auto conductor_at = [&](std::array<int, 3> t, int m) {
      if (!g.periodic[static_cast<std::size_t>(a)] && (m <= 0 || m >= g.n[a])) return true;
      t[a] = m;
      std::array<int, 3> before = t;
      before[a] = m - 1;
      if (pec_at(a, t) || pec_at(a, before)) return true;
      for (int b = 0; b < 3; ++b) {
        if (b == a) continue;
        std::array<int, 3> back = t;
        back[b] -= 1;
        if (pec_at(b, t) || pec_at(b, back)) return true;
      }
      return false;
    };
    // The nearest conductor past node `m` going `dir`: `samples` along the axis to it (-1: none
    // within kGapReach samples, or the UPML first), of which `unfed` are plain samples (another
    // port's sample on the way is a second element in series, fed by that port).
    constexpr int kGapReach = 4;
    struct Reach {
      int samples = -1, unfed = 0;
      bool past_port = false;
    };
    auto reach = [&](std::array<int, 3> t, int m, int dir) {
      Reach r;
      for (int k = 0; k <= kGapReach; ++k) {
        if (conductor_at(t, m + dir * k)) {
          r.samples = k;
          return r;
        }
        std::array<int, 3> c = t;
        c[a] = wrap(a, dir > 0 ? m + k : m - k - 1);  // the sample just past node m + dir k
        if (c[a] < 0 || c[a] >= g.n[a] || upml.in_pml(c[0], c[1], c[2], g.n)) break;
        if (is_port_sample(a, c))
          r.past_port = true;
        else
          ++r.unfed;
      }
      r.samples = -1;
      return r;
    };
    long floating = 0, short_of_gap = 0, spanned = 0;
    bool one_gap = true, past_port = false;
    int gap_lo = 0, gap_hi = 0;  // the first short column's gap, in nodes along the axis
    long unfed = 0;              // its unfed samples
    for (std::size_t c = 0; c < p.cells.size(); c += static_cast<std::size_t>(p.along)) {
      const std::array<int, 3>& first = p.cells[c];
      const int lo = first[a], hi = p.cells[c + static_cast<std::size_t>(p.along) - 1][a] + 1;
      const Reach below = reach(first, lo, -1), above = reach(first, hi, +1);
      if (below.samples < 0 || above.samples < 0) {
        ++floating;
        continue;
      }
      // Conductors at or a few samples past both ends: where any plain sample between is left
      // unfed, the gap is longer than the port and that sample sits in series with it.
      if (below.unfed + above.unfed == 0) {
        ++spanned;
        continue;
      }
      past_port = past_port || below.past_port || above.past_port;
      if (short_of_gap++ == 0) {
        gap_lo = lo - below.samples;
        gap_hi = hi + above.samples;
        unfed = below.unfed + above.unfed;
      } else if (gap_lo != lo - below.samples || gap_hi != hi + above.samples) {
        one_gap = false;
      }
    }
    if (short_of_gap > 0) {
      std::string advice;
      if (one_gap && spanned == 0 && floating == 0 && !past_port) {
        // The box that spans the gap: about the gap's centre along the axis, the port's columns
        // across it.
        std::array<double, 3> centre{}, size{};
        centre[a] = 0.5 * (gap_lo + gap_hi) * g.d[a];
        size[a] = (gap_hi - gap_lo) * g.d[a];
        for (int b = 0; b < 3; ++b) {
          if (b == a) continue;
          centre[b] = 0.5 * (p.cells.front()[b] + p.cells.back()[b]) * g.d[b];
          size[b] = (p.cells.back()[b] - p.cells.front()[b]) * g.d[b];
        }
        auto triple = [](const std::array<double, 3>& v) {
          return number_text(v[0]) + " " + number_text(v[1]) + " " + number_text(v[2]);
        };
        advice = "Span the whole gap: source." + p.name + ".position = " + triple(centre) +
                 ", source." + p.name + ".size = " + triple(size);
      } else {
        advice = "Let the ports' boxes fill each gap from conductor to conductor along " +
                 std::string(axis_name(g, a));
      }
      const std::string axis = axis_name(g, a);
      const long held = gap_hi - gap_lo;
      out.push_back(
          "port '" + p.name + "': the gap it feeds is longer than the port: " +
          (p.across > 1 && short_of_gap > 1
               ? std::to_string(short_of_gap) + " of its " + std::to_string(p.across) +
                     " sample columns leave samples unfed between the conductors along " + axis +
                     (one_gap ? " (" + std::to_string(unfed) + " of " + std::to_string(held) + ")"
                              : "")
               : "along " + axis + " the conductors are " + std::to_string(held) +
                     " samples apart and " + std::to_string(unfed) + " of them " +
                     (unfed > 1 ? "are" : "is") + " fed by no port") +
          "; an unfed sample sits in series with the port as a capacitor, so its Z and S11 are "
          "not the gap's (refining the grid turns a one-cell gap into several cells with one "
          "fed). " + advice + " (docs/PORTS.md)");
    }
    if (p.cells.size() < 2) continue;  // one sample free at both ends: a source in space
    if (floating > 0)
      out.push_back("port '" + p.name + "': " + std::to_string(floating) + " of its " +
                    std::to_string(p.across) + " sample columns end on no conductor at one end "
                    "or both (no PEC sample has the end's node as an end, nor one within " +
                    std::to_string(kGapReach) + " samples past it): such a box "
                    "is a resistor spread through space that loses power inside itself, which "
                    "its Z counts; let its end faces touch conductors, as a feed between a strip "
                    "and its ground does (docs/PORTS.md)");
  }
  return out;
}

std::complex<double> port_transform(const std::vector<double>& x, double f, double dt) {
  return transform(x, f, dt);
}

void add_port_conductivity(const RunConfig& cfg, const std::vector<PortModel>& ports,
                           MaterialTable& table, const FieldLayout& layout,
                           std::array<std::vector<std::uint8_t>, 6>& ids) {
  for (const PortModel& p : ports) {
    std::vector<std::uint8_t>& id = ids[static_cast<int>(p.component)];
    for (const std::array<int, 3>& cell : p.cells) {
      const std::size_t at = layout.index(cell[0], cell[1], cell[2]);
      const MaterialEntry& e = table.entry(id[at]);
      const double sigma = e.sigma + p.length_m / (p.resistance_ohm * p.area_m2);
      if (!std::isfinite(sigma))
        throw cfg.error_at("source." + p.name + ".resistance",
                           "a resistance whose conductivity L / (R A) over the sample is finite, got " +
                               number_text(p.resistance_ohm) + " ohm");
      // A port in a dispersive material keeps its poles (a copy: mixture() may grow the table).
      const std::vector<Pole> poles = e.poles;
      const int mixed = table.mixture(e.eps_r, e.mu_r, sigma, poles);
      if (mixed < 0)
        throw cfg.error_at("source." + p.name + ".type",
                           "room in the material table for the port's conductivity (256 entries, "
                           "the surface mixtures included, are taken)");
      id[at] = static_cast<std::uint8_t>(mixed);
    }
  }
}

void add_port_samples(std::vector<PortModel>& ports, ProbeSet& probes, const GridGeometry& g) {
  if (ports.empty()) return;
  if (probes.port_samples == 0) {
    probes.csv_first_step = probes.first_step;
    probes.csv_last_step = probes.last_step;
  }
  for (PortModel& p : ports) {
    ProbeModel m;
    m.name = "port " + p.name;
    m.n1 = 0;
    m.n2 = g.steps;
    p.probe_samples.clear();
    for (const std::array<int, 3>& cell : p.cells) {
      ProbeSample s;
      s.probe = static_cast<int>(probes.probes.size());
      s.component = p.component;
      s.cell = cell;
      s.position_m = sample_position(p.component, cell, g.d);
      p.probe_samples.push_back(probes.samples.size());
      probes.samples.push_back(s);
      ++probes.port_samples;
    }
    probes.probes.push_back(m);
    probes.first_step = 0;  // a port records every step
    probes.last_step = g.steps;
  }
}

PortSeries port_series(const PortModel& port, const std::vector<double>& e, double dt) {
  PortSeries s;
  s.dt = dt;
  const std::size_t n = std::min(port.v_source.size(), e.empty() ? 0 : e.size() - 1);
  for (std::size_t k = 0; k < n; ++k) {
    const double v = -0.5 * (e[k] + e[k + 1]) * port.length_m;
    s.time_s.push_back((static_cast<double>(k) + 0.5) * dt);
    s.source_v.push_back(port.v_source[k]);
    s.voltage_v.push_back(v);
    s.current_a.push_back((port.v_source[k] - v) / port.resistance_ohm);
  }
  return s;
}

std::vector<PortPoint> port_spectrum(const PortModel& port, const PortSeries& s,
                                     const PortModel* incident) {
  std::vector<PortPoint> out;
  const double dt = s.dt;
  for (double f : port.frequencies_hz) {
    const std::complex<double> v = transform(s.voltage_v, f, dt), i = transform(s.current_a, f, dt);
    PortPoint p;
    p.frequency_hz = f;
    p.v = v;
    p.i = i;
    if (incident) {
      // b = (V - R I) / (2 sqrt(R)) = V / sqrt(R) here (V_s = 0), a = V_s / (2 sqrt(R_1)).
      const std::complex<double> vs = transform(incident->v_source, f, dt);
      p.s21 = 2.0 * v / vs * std::sqrt(incident->resistance_ohm / port.resistance_ohm);
    }
    p.z = v / i;
    p.s11 = (p.z - port.resistance_ohm) / (p.z + port.resistance_ohm);
    p.delivered = 0.5 * std::real(v * std::conj(i));
    out.push_back(p);
  }
  return out;
}

}  // namespace clfdtd
