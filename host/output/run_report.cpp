// run.json writer: see run_report.hpp. nlohmann::json keeps key order alphabetical, which is fine
// for a machine-read file; non-finite numbers come out as null.
#include "output/run_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "model/waveforms.hpp"
#include "output/output_marker.hpp"
#include "output/port_files.hpp"
#include "output/text_file.hpp"

namespace clfdtd {

double mcells_per_second(double cell_updates_per_step, long steps_done, double loop_seconds) {
  if (!(loop_seconds > 0)) return 0;
  return cell_updates_per_step * static_cast<double>(steps_done) / loop_seconds / 1e6;
}

double mcells_per_second(const std::array<int, 3>& n, long steps_done, double loop_seconds) {
  return mcells_per_second(static_cast<double>(n[0]) * n[1] * n[2], steps_done, loop_seconds);
}

long long cell_updates_per_step(const SimulationModel& m) {
  const long long cells = m.grid.cells();
  return m.cylindrical() ? cells * static_cast<long long>(m.grid.modes.size()) : cells;
}

namespace {

// 64-bit FNV-1a (Fowler, Noll, Vo): offset basis 14695981039346656037, prime 1099511628211.
class Fnv1a64 {
public:
  void bytes(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
      hash_ ^= p[i];
      hash_ *= 1099511628211ULL;
    }
  }
  template <class T>
  void value(const T& v) {
    static_assert(std::is_arithmetic_v<T>, "numbers only");
    bytes(&v, sizeof v);
  }
  // The count first, so that [1, 2] [3] and [1] [2, 3] differ.
  template <class T>
  void values(const std::vector<T>& v) {
    value(static_cast<std::uint64_t>(v.size()));
    if (!v.empty()) bytes(v.data(), v.size() * sizeof(T));
  }
  std::uint64_t hash() const { return hash_; }

private:
  std::uint64_t hash_ = 14695981039346656037ULL;
};

}  // namespace

std::string geometry_fingerprint(const SimulationModel& m) {
  Fnv1a64 h;
  h.value(m.grid.dims);
  h.value(static_cast<int>(m.two_d() ? m.mode : PlaneMode::Tm));
  h.value(static_cast<int>(m.two_d() ? m.equation : Equation::Maxwell));
  h.value(static_cast<int>(m.cylindrical()));
  h.values(m.grid.modes);
  for (int a = 0; a < 3; ++a) {
    h.value(m.grid.n[a]);
    h.value(m.grid.d[a]);
  }
  for (const auto& ids : m.ids) h.values(ids);
  h.values(m.cell_ids);
  h.value(static_cast<std::uint64_t>(m.materials.size()));
  for (std::size_t k = 0; k < m.materials.size(); ++k) {
    const MaterialEntry& e = m.materials.entry(static_cast<std::uint8_t>(k));
    h.value(e.eps_r);
    h.value(e.mu_r);
    h.value(e.sigma);
    h.value(static_cast<int>(e.pec));
    for (const Pole& pole : e.poles)  // none: the hash is what it was before poles counted
      for (double v : {pole.a, pole.b, pole.c, pole.d}) h.value(v);
  }
  for (int layers : m.upml.layers) h.value(layers);
  for (int a = 0; a < 3; ++a) {  // boundary.periodic and boundary.pmc change the physics
    h.value(static_cast<int>(m.grid.periodic[static_cast<std::size_t>(a)]));
    h.value(static_cast<int>(m.grid.pmc[static_cast<std::size_t>(a)]));
    if (m.grid.bloch()) h.value(m.grid.bloch_phase[static_cast<std::size_t>(a)]);
  }
  for (const auto* profiles : {&m.upml.integer, &m.upml.half})
    for (const AxisProfile& p : *profiles) {
      h.values(p.a);
      h.values(p.b);
      h.values(p.cp);
      h.values(p.cm);
    }
  h.value(static_cast<std::uint64_t>(m.ports.size()));
  for (const PortModel& p : m.ports) {
    h.value(static_cast<int>(p.component));
    h.value(static_cast<std::uint64_t>(p.cells.size()));
    for (const auto& cell : p.cells)
      for (int c : cell) h.value(c);
    h.value(p.along);
    h.value(p.across);
    h.value(p.length_m);
    h.value(p.area_m2);
    h.value(p.resistance_ohm);
  }
  // Waveguide ports: their planes, guides and modes (none: the hash of a model without them is
  // what it was before they existed).
  if (!m.waveguide_ports.empty()) h.value(static_cast<std::uint64_t>(m.waveguide_ports.size()));
  for (const WaveguidePortModel& p : m.waveguide_ports) {
    for (int v : {p.axis, p.sign, p.plane, p.lo[0], p.lo[1], p.hi[0], p.hi[1], static_cast<int>(p.te), p.mu, p.nv})
      h.value(v);
    if (p.solved > 0) {  // a solved mode: its number and the frequency its profile was taken at
      h.value(p.solved);
      h.value(p.source.frequency_hz);
    }
  }
  char text[32];
  std::snprintf(text, sizeof text, "fnv1a64:%016llx", static_cast<unsigned long long>(h.hash()));
  return text;
}

RunReport report_from_model(const SimulationModel& m) {
  RunReport r;
  r.dims = m.grid.dims;
  if (m.two_d()) {
    r.mode = m.mode == PlaneMode::Tm ? "tm" : "te";
    r.equation = m.equation == Equation::Wave ? "wave" : "maxwell";
  }
  r.cylindrical = m.cylindrical();
  if (r.cylindrical) r.modes = m.grid.modes;
  for (int a = 0; a < 3; ++a)
    if (m.grid.periodic[static_cast<std::size_t>(a)]) r.periodic.push_back(std::string(1, "xyz"[a]));
  for (int a = 0; a < 3; ++a)
    if (m.grid.pmc[static_cast<std::size_t>(a)]) r.pmc.push_back(std::string(1, "xyz"[a]));
  r.bloch_k = m.grid.bloch_k;
  r.n = m.grid.n;
  r.boxes = {{0, 0, 0, r.n[0], r.n[1], r.n[2]}};  // one process: one box, the whole grid
  r.cell_size_m = m.grid.d;
  r.dt_s = m.grid.dt;
  // Hashing every id array costs about a second per 1e9 samples: only a model with ports, whose
  // runs `clfdtd sparams` joins, pays it.
  if (!m.ports.empty() || !m.waveguide_ports.empty()) r.geometry_fingerprint = geometry_fingerprint(m);
  r.cell_updates_per_step = cell_updates_per_step(m);
  r.steps = m.grid.steps;
  // The probes.csv columns; the ports' samples after them are reported as ports.
  for (std::size_t k = 0; k < m.probes.csv_samples(); ++k) {
    const ProbeSample& s = m.probes.samples[k];
    r.probes.push_back({m.probes.probes.at(s.probe).name,
                        r.cylindrical ? cyl_component_name(s.component) : component_name(s.component),
                        s.position_m, s.phi_rad * 180 / 3.14159265358979323846});
  }
  for (std::size_t k = 0; k < m.ports.size(); ++k) {
    const PortModel& p = m.ports[k];
    Vec3 centre{0, 0, 0};
    for (const auto& cell : p.cells) {
      const Vec3 at = sample_position(p.component, cell, m.grid.d);
      for (int a = 0; a < 3; ++a) centre[a] += at[a] / static_cast<double>(p.cells.size());
    }
    r.ports.push_back({p.name, component_name(p.component), centre, p.resistance_ohm,
                       p.frequencies_hz, p.driven, sole_driven_port(m, k), p.along, p.across});
  }
  for (const LumpedModel& e : m.lumped) {
    Vec3 centre{0, 0, 0};
    for (const auto& cell : e.cells) {
      const Vec3 at = sample_position(e.component, cell, m.grid.d);
      for (int a = 0; a < 3; ++a) centre[a] += at[a] / static_cast<double>(e.cells.size());
    }
    r.lumped.push_back({e.name, component_name(e.component),
                        e.circuit == LumpedCircuit::Series ? "series" : "parallel", centre,
                        e.resistance_ohm, e.inductance_h, e.capacitance_f, e.along, e.across});
  }
  for (const PlaneWaveModel& w : m.plane_waves) {
    if (w.guided_port) continue;
    PlaneWaveReport p;
    p.name = w.name;
    p.field = w.oblique ? e_field_text(w) : component_name(static_cast<Component>(w.e_comp));
    p.direction = direction_text(w);
    p.background = w.background;
    p.waveform = waveform_name(w.source.waveform);
    p.amplitude_v_per_m = w.source.amplitude;
    p.frequency_hz = w.source.frequency_hz;
    // Along a periodic axis the box spans the period (its lo and hi lie past the ends).
    auto node = [&](int a, int v) {
      return m.grid.periodic[static_cast<std::size_t>(a)] ? std::clamp(v, 0, m.grid.n[a]) : v;
    };
    for (int a = 0; a < m.grid.dims; ++a) p.box_m.push_back(node(a, w.lo[a]) * m.grid.d[a]);
    for (int a = 0; a < m.grid.dims; ++a) p.box_m.push_back(node(a, w.hi[a]) * m.grid.d[a]);
    if (w.oblique) {
      p.k_hat = w.k_hat;
      p.e_hat = w.e_hat;
    } else {
      p.k_hat[w.axis] = w.sign;
      p.e_hat[w.e_comp] = 1;
    }
    r.plane_waves.push_back(std::move(p));
  }
  for (const DispersiveCount& c : dispersive_counts(m.materials, m.dispersion)) {
    DispersiveReport d;
    d.name = c.name;
    d.samples = c.samples;
    if (c.entry) {
      d.eps_inf = c.entry->eps_r;
      d.sigma = c.entry->sigma;
      d.poles = c.entry->pole_keys;
    }
    r.dispersive.push_back(std::move(d));
  }
  r.monitors = monitor_reports(m);
  r.waveguide_ports = waveguide_port_reports(m);
  r.resonances = resonance_reports(m);
  return r;
}

void write_run_json(const std::string& path, const RunReport& r) {
  using nlohmann::json;
  // A monitor's or port's file by name while the run goes on; once it has ended, only a file it
  // wrote (a non-finite or failed run has none of them): null otherwise.
  const auto written = [&](const std::string& file) -> json {
    if (r.files && !std::binary_search(r.files->begin(), r.files->end(), file)) return nullptr;
    return file;
  };
  json probes = json::array();
  for (const ProbeReport& p : r.probes) {
    probes.push_back({{"name", p.name}, {"field", p.field},
                      {"position_m", {p.position_m.x, p.position_m.y, p.position_m.z}}});
    if (r.cylindrical) probes.back()["phi_deg"] = p.phi_deg;
  }
  json devices = json::array();
  for (const DeviceReport& d : r.devices) {
    devices.push_back({{"device", d.description}});
    if (r.cylindrical) devices.back()["modes"] = d.modes;
  }
  json monitors = json::array();
  for (const MonitorReport& m : r.monitors) {
    if (m.type == "waveguide_port") continue;  // under waveguide_ports
    json entry = {{"name", m.name}, {"type", m.type}, {"file", written(m.file)}};
    if (m.type == "modes") {
      entry["modes"] = m.modes;
    } else {
      entry["frequencies_hz"] = m.frequencies_hz;
      entry["decimation"] = m.decimation;
    }
    // The CSV's unit (monitors/<name>.csv): J s, or J s per metre of a 2D model's depth.
    const std::string unit = m.per_metre ? "_J_s_per_m" : "_J_s";
    if (!m.flux.empty()) entry["flux" + unit] = m.flux;
    if (!m.radiated_power.empty()) entry["radiated_power" + unit] = m.radiated_power;
    if (!m.radiation_efficiency.empty()) {
      json e = json::array();
      for (double v : m.radiation_efficiency) e.push_back(std::isfinite(v) ? json(v) : json(nullptr));
      entry["radiation_efficiency"] = e;
    }
    if (!m.cross_section.empty()) {  // JSON has no NaN: null where the CSV leaves the field empty
      json cs = json::array();
      for (double v : m.cross_section) cs.push_back(std::isfinite(v) ? json(v) : json(nullptr));
      entry[m.per_metre ? "scattering_width_m" : "cross_section_m2"] = cs;
    }
    monitors.push_back(entry);
  }
  json ports = json::array();
  for (const PortReport& p : r.ports)
    ports.push_back({{"name", p.name},
                     {"field", p.field},
                     {"position_m", {p.position_m.x, p.position_m.y, p.position_m.z}},
                     {"resistance_ohm", p.resistance_ohm},
                     {"frequencies_hz", p.frequencies_hz},
                     {"driven", p.driven},
                     {"samples_along", p.samples_along},
                     {"samples_across", p.samples_across},
                     {"file", written(p.file())},
                     {"time_file", written(p.time_file())}});
  for (std::size_t k = 0; k < r.ports.size(); ++k)
    if (r.ports[k].sole_driven) ports[k]["touchstone_file"] = written(r.ports[k].touchstone_file());
  json lumped = json::array();
  auto value = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  for (const LumpedReport& e : r.lumped)
    lumped.push_back({{"name", e.name},
                      {"field", e.field},
                      {"position_m", {e.position_m.x, e.position_m.y, e.position_m.z}},
                      {"circuit", e.circuit},
                      {"resistance_ohm", value(e.resistance_ohm)},
                      {"inductance_h", value(e.inductance_h)},
                      {"capacitance_f", value(e.capacitance_f)},
                      {"samples_along", e.samples_along},
                      {"samples_across", e.samples_across}});
  json j = {
      {"program", kProgramName},
      {"version", CLFDTD_VERSION},
      {"status", r.status},
      {"reason", r.reason},
      {"warnings", r.warnings},
      {"backend", r.backend},
      {"device", r.device},
      {"devices", devices},
      {"kernel_variant", r.kernel_variant},
      {"model_file", r.model_file},
      {"cells", {r.n[0], r.n[1], r.n[2]}},
      {"cells_total", static_cast<long long>(r.n[0]) * r.n[1] * r.n[2]},
      {"cell_size_m", {r.cell_size_m[0], r.cell_size_m[1], r.cell_size_m[2]}},
      {"dt_s", r.dt_s},
      {"geometry_fingerprint", r.geometry_fingerprint.empty() ? json(nullptr) : json(r.geometry_fingerprint)},
      {"steps_planned", r.steps},
      // Not known while the run goes on: a run killed then never says how far it got.
      {"steps_done", r.status == "running" ? json(nullptr) : json(r.steps_done)},
      {"loop_time_s", r.loop_seconds},
      {"cell_updates_per_step", r.cell_updates_per_step},
      {"mcells_per_s", r.mcells_per_s},
      {"device_bytes", r.device_bytes},
      {"probes", probes},
      {"monitors", monitors},
      {"ports", ports},
      {"lumped", lumped},
      {"dims", r.dims},
      {"coordinates", r.cylindrical ? "cylindrical" : "cartesian"},
      {"periodic", r.periodic},
      {"pmc", r.pmc},
      {"bloch_k_rad_per_m", r.bloch_k},
      {"ranks", r.ranks},
      {"decomposition", {{"parts", r.parts}, {"boxes", r.boxes}}},
  };
  if (!r.plane_waves.empty()) {
    json waves = json::array();
    for (const PlaneWaveReport& w : r.plane_waves)
      waves.push_back({{"name", w.name},
                       {"field", w.field},
                       {"direction", w.direction},
                       {"background", w.background},
                       {"waveform", w.waveform},
                       {"amplitude_V_per_m", w.amplitude_v_per_m},
                       {"frequency_hz", w.frequency_hz},
                       {"box_m", w.box_m},
                       {"direction_vector", w.k_hat},
                       {"e_vector", w.e_hat}});
    j["plane_waves"] = waves;
  }
  if (!r.waveguide_ports.empty()) {
    json wports = json::array();
    for (const WaveguidePortReport& p : r.waveguide_ports) {
      json entry = {{"name", p.name},
                    {"mode", p.mode},
                    {"direction", p.direction},
                    {"plane_m", p.plane_m},
                    {"guide_m", p.guide_m},
                    {"amplitude_V_per_m", p.amplitude_v_per_m},
                    {"driven", p.driven},
                    {"sole_driven", p.sole_driven},
                    {"frequencies_hz", p.frequencies_hz},
                    {"file", written(p.file())}};
      if (p.solved) {
        entry["n_line"] = p.n_line;  // the solved mode's B / K0 at the source's frequency
      } else {
        entry["fill"] = p.fill;
        entry["eps_r"] = p.eps_r;
        entry["mu_r"] = p.mu_r;
        entry["cutoff_hz"] = p.cutoff_hz;
        entry["cutoff_analytic_hz"] = p.cutoff_analytic_hz;
      }
      wports.push_back(entry);
    }
    j["waveguide_ports"] = wports;
  }
  if (!r.resonances.empty()) {
    json list = json::array();
    for (const ResonanceReport& x : r.resonances) {
      json entry = {{"probe", x.probe},         {"field", x.field},
                    {"band_hz", x.band_hz},     {"from_step", x.from_step},
                    {"t0_s", x.t0_s},           {"file", written(kResonanceFile)}};
      entry["to_step"] = x.found ? json(x.to_step) : json(nullptr);
      entry["found"] = x.found ? json(*x.found) : json(nullptr);
      list.push_back(entry);
    }
    j["resonances"] = list;
  }
  if (!r.dispersive.empty()) {
    json materials = json::array();
    for (const DispersiveReport& d : r.dispersive) {
      json poles = json::array();
      for (const PoleConfig& p : d.poles) {
        if (p.kind == PoleKind::Debye)
          poles.push_back({{"kind", "debye"}, {"delta_eps", p.p[0]}, {"tau_s", p.p[1]}});
        else if (p.kind == PoleKind::Drude)
          poles.push_back({{"kind", "drude"}, {"f_p_hz", p.p[0]}, {"gamma_hz", p.p[1]}});
        else
          poles.push_back({{"kind", "lorentz"}, {"delta_eps", p.p[0]}, {"f0_hz", p.p[1]}, {"gamma_hz", p.p[2]}});
      }
      // The surface mixtures' entry has no material of its own: poles empty, no eps_inf.
      json e = {{"name", d.name}, {"e_samples", d.samples}, {"poles", poles}};
      if (!d.poles.empty()) {
        e["eps_inf"] = d.eps_inf;
        e["sigma_S_per_m"] = d.sigma;
      }
      materials.push_back(e);
    }
    j["dispersive_materials"] = materials;
  }
  if (r.cylindrical) j["modes"] = r.modes;
  if (r.files) j["files"] = *r.files;
  if (r.halo) {
    const RunReport::Halo& h = *r.halo;
    json hidden = nullptr;
    if (h.exchange_s > 0) hidden = 1.0 - h.exposed_s / h.exchange_s;
    j["halo"] = {{"overlap", h.overlap},
                 {"path", h.path},
                 {"exchange_s", h.exchange_s},
                 {"exposed_s", h.exposed_s},
                 {"hidden_fraction", hidden},
                 {"max_over_ranks", {{"exchange_s", h.exchange_s_max}, {"exposed_s", h.exposed_s_max}}}};
  }
  if (r.dims == 2) {
    j["mode"] = r.mode;
    j["equation"] = r.equation;
  }
  // Probe names come from the model file and may hold any bytes: replace what is not UTF-8.
  // Written beside and renamed over: a process ended in between (a second Ctrl-C) leaves the
  // previous run.json whole, so the folder stays recognisably clfdtd's.
  replace_text_file(path, j.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
}

}  // namespace clfdtd
