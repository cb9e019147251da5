// resonances.csv: see resonance_file.hpp.
#include "output/resonance_file.hpp"

#include <algorithm>
#include <cstdio>

#include "model/monitors.hpp"
#include "model/number_text.hpp"
#include "model/parallel_tasks.hpp"
#include "output/text_file.hpp"

namespace clfdtd {

namespace {

std::string field_name(const SimulationModel& m, Component c) {
  return m.cylindrical() ? cyl_component_name(c) : component_name(c);
}

std::string band_text(const std::array<double, 2>& band) {
  return number_text(band[0], 7) + " .. " + number_text(band[1], 7) + " Hz";
}

// The samples a report's series holds once steps_done steps have run.
std::size_t usable(const ResonanceReport& r, long steps_done) {
  const long last = std::min(steps_done, r.to_step);
  return last >= r.from_step ? static_cast<std::size_t>(last - r.from_step) + 1 : 0;
}

}  // namespace

std::vector<ResonanceReport> resonance_reports(const SimulationModel& m) {
  std::vector<ResonanceReport> out;
  for (std::size_t k = 0; k < m.probes.csv_samples(); ++k) {
    const ProbeSample& s = m.probes.samples[k];
    const ProbeModel& p = m.probes.probes.at(static_cast<std::size_t>(s.probe));
    if (!p.resonances_hz) continue;
    ResonanceReport r;
    r.sample = k;
    r.probe = p.name;
    r.field = field_name(m, s.component);
    r.band_hz = *p.resonances_hz;
    r.from_step = p.resonance_from;
    r.to_step = p.n2;
    r.t0_s = dft_time(s.component, p.resonance_from, m.grid.dt);
    out.push_back(r);
  }
  return out;
}

std::vector<std::string> resonance_plan_warnings(const SimulationModel& m) {
  std::vector<std::string> out;
  const double dt = m.grid.dt;
  for (const ProbeModel& p : m.probes.probes) {
    if (!p.resonances_hz) continue;
    const std::string what = "probe '" + p.name + "': resonances in " + band_text(*p.resonances_hz);
    if (p.resonance_from > p.n2) {
      out.push_back(what + ": none will be found, the sources still drive at step " + std::to_string(p.n2) +
                    ", where the probe's window ends: lengthen time.steps or the probe's steps (a sine source "
                    "never stops)");
      continue;
    }
    const std::size_t need = BandPlan::of(dt, (*p.resonances_hz)[0], (*p.resonances_hz)[1]).min_length();
    const std::size_t have = static_cast<std::size_t>(p.n2 - p.resonance_from) + 1;
    if (have < need)
      out.push_back(what + ": none will be found, the band needs " + std::to_string(need) + " steps (" +
                    number_text(static_cast<double>(need) * dt, 3) + " s) of ringing and the probe records " +
                    std::to_string(have) + " after step " + std::to_string(p.resonance_from) +
                    ", when the sources have ended (lengthen time.steps or widen the band)");
  }
  return out;
}

std::vector<std::string> write_resonance_file(const std::string& dir, const SimulationModel& m,
                                              const std::vector<std::vector<double>>& series,
                                              long steps_done, std::vector<ResonanceReport>& reports) {
  std::vector<std::string> warnings;
  if (reports.empty()) return warnings;
  std::string text = "probe,field,frequency_hz,decay_per_s,q,amplitude,unit,phase_rad,error,t0_s\n";
  const std::vector<double> none;
  auto samples = [&](const ResonanceReport& r) -> const std::vector<double>& {
    return r.sample < series.size() ? series[r.sample] : none;
  };
  auto analysed = [&](const ResonanceReport& r) {
    return std::min(usable(r, steps_done), samples(r).size());
  };
  auto long_enough = [&](const ResonanceReport& r) {
    return analysed(r) >= BandPlan::of(m.grid.dt, r.band_hz[0], r.band_hz[1]).min_length();
  };
  // The analyses side by side (each takes seconds at its largest size); one the memory did not
  // hold then runs again alone, where running out of memory ends the run (exit 4).
  std::vector<std::optional<HarmonicInversion>> found(reports.size());
  std::vector<std::size_t> todo;  // the series long enough to analyse
  for (std::size_t i = 0; i < reports.size(); ++i)
    if (long_enough(reports[i])) todo.push_back(i);
  auto analyse = [&](std::size_t i) {
    const ResonanceReport& r = reports[i];
    const std::vector<double>& xs = samples(r);
    const std::vector<double> x(xs.begin(), xs.begin() + static_cast<long>(analysed(r)));
    found[i] = find_resonances(x, m.grid.dt, r.band_hz[0], r.band_hz[1]);
  };
  run_tasks_in_parallel(todo.size(), kAnalysisBytes, [&](std::size_t t) { analyse(todo[t]); });
  for (std::size_t i : todo) {
    if (found[i]) continue;
    if (tasks_stopped())
      note_task_skipped();
    else
      analyse(i);
  }
  for (std::size_t i = 0; i < reports.size(); ++i) {
    ResonanceReport& r = reports[i];
    const ProbeSample& s = m.probes.samples.at(r.sample);
    const std::size_t full = usable(r, steps_done), n = analysed(r);
    r.to_step = r.from_step + static_cast<long>(n) - 1;
    const std::string name = "probe '" + r.probe + "' " + r.field;
    if (!found[i]) {
      r.found = 0;
      if (steps_done < m.grid.steps)
        warnings.push_back(name + ": the run ended after " + std::to_string(n) +
                           " steps of ringing, too few for resonances in " + band_text(r.band_hz));
      continue;
    }
    const HarmonicInversion& h = *found[i];
    if (full > n)
      warnings.push_back(name + ": resonances from the first " + number_text(static_cast<double>(n) * m.grid.dt, 3) +
                         " s of its " + number_text(static_cast<double>(full) * m.grid.dt, 3) +
                         " s of ringing only (the analysis' largest size for the band " + band_text(r.band_hz) +
                         "; a narrower band takes a longer stretch)");
    if (h.unresolved)
      warnings.push_back(name + ": the band " + band_text(r.band_hz) +
                         " holds terms the analysis could not pin down (its two pencils disagree on them): "
                         "resonances may be missing; narrow the band or lengthen the ringing");
    r.found = h.resonances.size();
    r.resonances = h.resonances;
    const std::string unit = is_electric(s.component) ? "V/m" : "A/m";
    for (const Resonance& z : h.resonances) {
      char row[320];
      std::snprintf(row, sizeof row, ",%.10g,%.9g,%.9g,%.9g,%s,%.9g,%.3g,%.12g\n", z.frequency_hz,
                    z.decay_per_s, z.quality, z.amplitude, unit.c_str(), z.phase_rad, z.error, r.t0_s);
      text += csv_field(r.probe) + "," + r.field + row;
    }
  }
  write_text_file(dir + "/" + kResonanceFile, text);
  return warnings;
}

std::vector<std::string> resonance_summary(const std::vector<ResonanceReport>& reports) {
  std::vector<std::string> lines;
  for (const ResonanceReport& r : reports) {
    if (!r.found) continue;
    std::string line = r.probe + "." + r.field + ": " + std::to_string(*r.found) + " in " + band_text(r.band_hz);
    const std::size_t shown = std::min<std::size_t>(r.resonances.size(), 4);
    for (std::size_t i = 0; i < shown; ++i) {
      char item[96];
      std::snprintf(item, sizeof item, "%s%.7g Hz (Q %.4g)", i == 0 ? ": " : ", ",
                    r.resonances[i].frequency_hz, r.resonances[i].quality);
      line += item;
    }
    if (r.resonances.size() > shown) line += ", ...";
    lines.push_back(line);
  }
  return lines;
}

}  // namespace clfdtd
