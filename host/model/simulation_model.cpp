// Patent steps 1 and 2: the whole model built once from a checked RunConfig. Checks that need the
// derived grid (the config loader cannot make them) happen here and name the offending key.
#include "model/simulation_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "config/bloch_checks.hpp"
#include "config/cyl_checks.hpp"
#include "config/plane_checks.hpp"
#include "errors.hpp"
#include "model/dft_decimation.hpp"
#include "model/host_memory.hpp"
#include "model/input_limits.hpp"
#include "model/port_box.hpp"
#include "model/resonance_window.hpp"
#include "model/cyl_mesher.hpp"
#include "model/mesher.hpp"
#include "model/mode_expansion.hpp"
#include "model/model_warnings.hpp"
#include "model/monitor_build.hpp"
#include "model/number_text.hpp"
#include "model/shapes.hpp"
#include "model/waveforms.hpp"
#include "monitors/harmonic_inversion.hpp"

namespace clfdtd {

namespace {

// Cylindrical models name Ex..Hz Er, Ephi, Ez, Hr, Hphi, Hz.
const char* name_in(const GridGeometry& g, Component c) {
  return g.cylindrical ? cyl_component_name(c) : component_name(c);
}

// The 3D kernels address a component array by float4 lanes in 32-bit arithmetic and by scalar
// cell in 64-bit (cl_kernels/fdtd_common.h): at most 2^31 - 1 lanes, about 8.6e9 padded cells.
// The 2D and cylindrical kernels index scalars in 32 bits: fewer than 2^31 cells.
constexpr double kMaxLanesPerComponent = 2147483647.0;   // 2^31 - 1
constexpr double kMaxCellsPerComponent2D = 2147483648.0;  // 2^31

[[noreturn]] void fail(const RunConfig& cfg, const std::string& key, const std::string& what) {
  throw cfg.error_at(key, what);
}

// Errors raised below the model (material table, mesher) carry no file; add where they came from.
[[noreturn]] void relocate(const RunConfig& cfg, const ConfigError& e) {
  fail(cfg, e.key(), e.expected());
}

std::string first_dispersive_material(const RunConfig& cfg) {
  for (const MaterialConfig& mc : cfg.materials)
    if (mc.dispersive()) return mc.name;
  return "";
}

bool second_order(const MaterialConfig& mc) {
  for (const PoleConfig& p : mc.all_poles())
    if (pole_of(p).second_order()) return true;
  return false;
}

// A Drude or Lorentz sample in the UPML: names the object (the last such one holding the sample
// or within half a cell of it), where the sample is and where the layers begin.
[[noreturn]] void refuse_second_order_in_pml(const RunConfig& cfg, const SimulationModel& m) {
  const auto [c, i, j, k] = *m.dispersion.second_order_in_pml;
  const Component comp = static_cast<Component>(c);
  const auto off = yee_offset(comp);
  const GridGeometry& g = m.grid;
  const Vec3 p{(i + off[0]) * g.d[0], (j + off[1]) * g.d[1], (k + off[2]) * g.d[2]};
  const ObjectConfig* found = nullptr;
  for (auto o = cfg.objects.rbegin(); o != cfg.objects.rend() && !found; ++o) {
    const MaterialConfig* mat = nullptr;
    for (const MaterialConfig& mc : cfg.materials)
      if (mc.name == o->material) mat = &mc;
    if (!mat || !second_order(*mat) || mat->pec) continue;
    for (int s = 0; s < 1 + 2 * g.dims && !found; ++s) {
      Vec3 q = p;
      if (g.dims == 2) q.z = o->center.z;  // a 2D shape is tested in its own plane, as the mesher does
      if (s > 0) q[(s - 1) / 2] += (s % 2 ? -0.5 : 0.5) * g.d[(s - 1) / 2];
      if (shape_contains(*o, q)) found = &*o;
    }
  }
  const auto& L = m.upml.layers;
  char where[400];
  if (g.dims == 2) {
    std::snprintf(where, sizeof where,
                  "its %s sample at (%.6g, %.6g) m lies in the layers (boundary.layers: the "
                  "interior is x %.6g..%.6g, y %.6g..%.6g m)",
                  component_name(comp), p[0], p[1], L[0] * g.d[0], (g.n[0] - L[1]) * g.d[0],
                  L[2] * g.d[1], (g.n[1] - L[3]) * g.d[1]);
  } else {
    std::snprintf(where, sizeof where,
                  "its %s sample at (%.6g, %.6g, %.6g) m lies in the layers (boundary.layers: the "
                  "interior is x %.6g..%.6g, y %.6g..%.6g, z %.6g..%.6g m)",
                  component_name(comp), p[0], p[1], p[2], L[0] * g.d[0], (g.n[0] - L[1]) * g.d[0],
                  L[2] * g.d[1], (g.n[1] - L[3]) * g.d[1], L[4] * g.d[2], (g.n[2] - L[5]) * g.d[2]);
  }
  const std::string what =
      found ? "object '" + found->name + "' of material '" + found->material + "'"
            : std::string("a Drude or Lorentz material's surface mixture");
  fail(cfg, found ? "object." + found->name : std::string("boundary.layers"),
       "a Drude or Lorentz material kept out of the UPML layers (a PML grows without bound in "
       "such media; Debye materials may run into the layers): " + what + " reaches them, " +
           where +
           ". End the object at least half a cell inside the interior, or let a material without "
           "those poles (eps_r and sigma at the band's centre, or Debye poles) carry it into the "
           "layers as an object of its own; either way the step in material there reflects a "
           "little, so keep it away from what you measure");
}

void check_grid(const RunConfig& cfg, const GridGeometry& g) {
  // 3D pads z to whole float4 lanes, 2D pads y (the plane's rows).
  const int padded_axis = g.dims == 2 ? 1 : 2;
  double padded = 1;
  std::string cells;  // the cells along each axis, as many as asked for (g.n stops at 2^31 - 1)
  for (int a = 0; a < g.dims; ++a) {
    if (g.cylindrical && a == 1) continue;  // phi is no grid axis: n = 1
    const double ratio = cfg.grid.size_m[a] / g.d[a];
    // A positive size below half a cell still gets one cell (derive_grid_geometry); only a
    // non-positive or non-finite extent or cell size leaves no grid at all.
    if (!std::isfinite(ratio) || !(g.d[a] > 0) || !(cfg.grid.size_m[a] > 0)) {
      fail(cfg, "grid.size", std::string("a positive, finite extent and cell size along ") +
                                 axis_name(g, a));
    }
    const double n = std::max(1.0, std::round(ratio));
    padded *= (a == padded_axis) ? 4 * std::ceil(n / 4) : n;
    std::ostringstream count;
    count.precision(n < 1e9 ? 10 : 3);
    count << n;
    cells += (cells.empty() ? "" : " x ") + count.str();
  }
  const bool lanes = g.dims == 3 && !g.cylindrical;
  if (lanes ? padded / 4 > kMaxLanesPerComponent : padded > kMaxCellsPerComponent2D) {
    // The size or the cell (or the band and resolution that set the cell): whichever the
    // command line changed is blamed, not the file's line of the other.
    fail(cfg, cfg.culprit({"grid.size", "grid.cell_size", "grid.max_frequency", "grid.cells_per_wavelength"}),
         std::string(lanes ? "at most 2^31 - 1 float4 lanes (about 8.6e9 cells) per field "
                             "component in 3D"
                           : "at most 2^31 cells per field component in 2D and cylindrical "
                             "models") +
             " (the grid has " + cells + "); use a coarser cell or a smaller domain");
  }
}

void check_layers(const RunConfig& cfg, const GridGeometry& g) {
  if (cfg.boundary.type != BoundaryType::Upml) return;
  for (int a = 0; a < g.dims; ++a) {
    if (g.cylindrical && a == 1) continue;  // no layers along phi
    const int lo = cfg.boundary.layers[2 * a], hi = cfg.boundary.layers[2 * a + 1];
    if (lo + hi >= g.n[a]) {
      // A cell derived from grid.max_frequency may be the culprit (a frequency in GHz).
      const std::string cell =
          cfg.grid.cell_size_m ? "cells of " + number_text(g.d[a]) + " m"
                               : "cells of " + number_text(g.d[a]) + " m from grid.max_frequency = " +
                                     number_text(cfg.grid.max_frequency_hz) +
                                     " Hz / grid.cells_per_wavelength = " +
                                     number_text(cfg.grid.cells_per_wavelength);
      const std::string fill = std::to_string(lo) + " + " + std::to_string(hi) + " layers fill all " +
                               std::to_string(g.n[a]) + " cells of the domain (" + cell + ")";
      // The grid keys are to blame where the command line changed them and not the layers.
      const std::string key =
          cfg.culprit({"boundary.layers", "grid.cell_size", "grid.size", "grid.max_frequency",
                       "grid.cells_per_wavelength", "boundary.type"});
      if (key == "boundary.type")
        fail(cfg, key, std::string("a boundary whose UPML layers leave cells between them along ") +
                           axis_name(g, a) + ": " + fill);
      if (key == "boundary.layers")
        fail(cfg, key, std::string("UPML layers along ") + axis_name(g, a) +
                           " that leave cells between them: " + fill);
      fail(cfg, key, std::string("a grid with cells between the UPML layers along ") +
                         axis_name(g, a) + ": " + fill);
    }
  }
}

void check_sources(const RunConfig& cfg, const SimulationModel& m) {
  for (std::size_t i = 0; i < m.sources.size(); ++i) {
    const SourceModel& s = m.sources[i];
    // A port's box (its samples past the first follow the configured sources): the box, not
    // the position, reaches into the UPML or onto PEC.
    const bool box = i >= cfg.sources.size() || cfg.sources[i].size_m.has_value();
    const std::string key = "source." + s.name + (box ? ".size" : ".position");
    const std::string what = box ? "a box whose samples lie " : "a position ";
    const auto& c = s.cell;
    // The sample's indices and where it lies (a Yee sample sits half a cell off the nodes along
    // its own axis: index k of Ez is at (k + 1/2) dz).
    const Vec3 at = sample_position(s.component, c, m.grid.d);
    const bool plane = m.two_d() && !m.cylindrical();  // x y; cylindrical: r z
    std::string indices, metres;
    for (int b = 0; b < 3; ++b) {
      if ((m.cylindrical() && b == 1) || (plane && b == 2)) continue;
      indices += (indices.empty() ? "" : ", ") + std::to_string(c[b]);
      metres += (metres.empty() ? "" : ", ") + number_text(at[b]);
    }
    const std::string where = std::string(name_in(m.grid, s.component)) + " sample (" + indices +
                              ") at (" + metres + ") m";
    // The axis carries no r or phi direction: Ephi's sample at i = 0 lies on it.
    if (m.cylindrical() && s.component != Component::Ez && c[0] == 0 &&
        sample_position(s.component, c, m.grid.d).x == 0) {
      fail(cfg, key,
           std::string("a position off the axis for ") +
               (s.component == Component::Ex ? "an r" : "a phi") +
               "-directed source (its nearest " + where + " is on the axis, r = 0)");
    }
    if (m.upml.in_pml(c[0], c[1], c[2], m.grid.n)) {
      fail(cfg, key, what + "outside the UPML layers (the driven " + where + " is in them)");
    }
    if (m.id(s.component)[m.layout.index(c[0], c[1], c[2])] == MaterialTable::kPec) {
      fail(cfg, key, what + "off PEC (the driven " + where + " is PEC, a wall or a conductor)");
    }
    // The wave engine advances the frame with Yee's update, which takes J, not its difference.
    if (m.equation == Equation::Wave && m.upml.in_wave_frame(c[0], c[1], m.grid.n)) {
      fail(cfg, key,
           "a position at least one cell inside the UPML layers in a wave model (the driven " +
               where + " is in the absorber's frame: the UPML cells and the ring of cells next "
               "to them)");
    }
  }
}

// Snapshot steps and probe windows past the run's last step. When the command line shortened the
// run, the file's are dropped (snapshots) or cut (probe windows) with a warning each; when the
// run's length is the file's own, the file contradicts itself and is refused (the loader refuses
// it for time.steps already; for time.duration only the grid tells the step count).
void check_steps_within_run(const RunConfig& cfg, SimulationModel& m) {
  const long last = m.grid.steps;
  const std::string past = " is past the run's last step " + std::to_string(last) +
                           " (the command line shortened the run)";
  const std::string within =
      cfg.time.steps ? " within time.steps = " + std::to_string(last) + ", got "
                     : " within the run's " + std::to_string(last) + " steps (time.duration / dt), got ";
  std::string dropped;  // one warning for all the snapshots a shortened run leaves out
  int ndropped = 0;
  for (long s : cfg.snapshot.steps) {
    if (s <= last) continue;
    if (!cfg.time.from_command_line) fail(cfg, "snapshot.steps", "steps" + within + std::to_string(s));
    dropped += (ndropped++ ? " " : "") + std::to_string(s);
  }
  if (ndropped > 0)
    m.warnings.push_back(ndropped == 1 ? "snapshot step " + dropped + past + ": not taken"
                                       : "snapshot steps " + dropped + " are" + past.substr(3) +
                                             ": not taken");  // past minus its " is"
  for (const auto& p : cfg.probes) {
    if (!p.steps || (*p.steps)[1] <= last) continue;
    const long n1 = (*p.steps)[0];
    const std::string window = std::to_string(n1) + ".." + std::to_string((*p.steps)[1]);
    if (!cfg.time.from_command_line) fail(cfg, "probe." + p.name + ".steps", "a window" + within + window);
    m.warnings.push_back("probe '" + p.name + "' window " + window + past +
                         (n1 > last ? ": it records nothing"
                                    : ": cut to " + std::to_string(n1) + ".." + std::to_string(last)));
  }
}

}  // namespace

std::vector<Component> SimulationModel::active_components() const {
  using C = Component;
  if (!two_d()) return {C::Ex, C::Ey, C::Ez, C::Hx, C::Hy, C::Hz};
  return plane_components(mode, equation);
}

FieldLayout layout_for(const GridGeometry& g) {
  return g.dims == 2 ? FieldLayout::xy_plane(g.n[0], g.n[1]) : FieldLayout(g.n[0], g.n[1], g.n[2]);
}

std::vector<Component> meshed_components(const RunConfig& cfg, bool magnetic) {
  using C = Component;
  std::vector<Component> all = cfg.grid.dims == 2
                                   ? plane_components(cfg.grid.mode, cfg.grid.equation)
                                   : std::vector<Component>{C::Ex, C::Ey, C::Ez, C::Hx, C::Hy, C::Hz};
  std::vector<Component> out;
  for (Component c : all)
    if (is_electric(c) || magnetic) out.push_back(c);
  return out;
}

bool SimulationModel::is_active(Component c) const {
  for (Component a : active_components())
    if (a == c) return true;
  return false;
}

SimulationModel SimulationModel::build(
    const RunConfig& cfg,
    const std::function<void(const GridGeometry&, const FieldLayout&)>& before_tables) {
  check_plane_config(cfg);
  check_cyl_config(cfg);
  check_bloch_config(cfg);
  SimulationModel m;
  m.grid = derive_grid_geometry(cfg);
  if (m.two_d()) {
    m.mode = cfg.grid.mode;
    m.equation = cfg.grid.equation;
  }
  check_grid(cfg, m.grid);
  check_layers(cfg, m.grid);
  if (cfg.boundary.type == BoundaryType::Upml && !m.cylindrical() && !m.grid.any_periodic() &&
      std::all_of(cfg.boundary.layers.begin(), cfg.boundary.layers.begin() + 2 * m.grid.dims,
                  [](int l) { return l == 0; }))
    m.warnings.push_back("boundary.type = upml with boundary.layers = 0 on every face: nothing "
                         "absorbs, the domain is a closed PEC box (boundary.type = pec says so)");
  add_extent_warnings(cfg, m.grid, m.warnings);
  check_step_count(cfg, m.grid);
  check_upml_conductivity(cfg, m.grid);
  check_source_frequencies(cfg, m.grid);
  check_source_delays(cfg);
  m.layout = layout_for(m.grid);
  if (before_tables) before_tables(m.grid, m.layout);

  try {
    m.materials = MaterialTable(cfg.materials);
  } catch (const ConfigError& e) {
    relocate(cfg, e);
  }
  // The loader refuses these (load_config.cpp); a model built in code meets the same rule here,
  // since the cylindrical mesher and the scalar wave solver take one value per material.
  for (const MaterialConfig& mc : cfg.materials)
    if (!mc.pec && mc.anisotropic() && (m.cylindrical() || cfg.grid.equation == Equation::Wave))
      fail(cfg, "material." + mc.name + ".eps_r",
           "one value in a cylindrical model or with grid.equation = wave (anisotropic materials: 3D "
           "and 2D Maxwell models)");
  m.magnetic = m.materials.any_magnetic();
  // Regions and faces only; a modes monitor's arrays are read after the memory check.
  m.monitors = build_monitors(cfg, m.grid, m.warnings);
  // Before the first big table: a model too large for the host is refused with the numbers
  // instead of ending under the kernel's OOM killer.
  check_host_memory(model_host_bytes(cfg, m.grid, m.magnetic, m.monitors),
                    "the model (material ids, source tables, model.vti, snapshot and monitor buffers)");
  std::vector<std::size_t> object_samples;
  try {
    MeshedIds meshed = m.cylindrical()
                           ? mesh_cyl_objects(cfg.objects, m.materials, m.grid, m.layout,
                                              meshed_components(cfg, m.magnetic))
                           : mesh_objects(cfg.objects, m.materials, m.grid, m.layout,
                                          meshed_components(cfg, m.magnetic));
    add_object_warnings(cfg, meshed.object_samples, m.warnings);
    object_samples = std::move(meshed.object_samples);
    for (int c = 0; c < 6; ++c) m.ids[c] = std::move(meshed.component[c]);
    m.cell_ids = std::move(meshed.cell_centre);
    if (meshed.unmixed_samples > 0)
      m.warnings.push_back(std::to_string(meshed.unmixed_samples) +
                           " samples on object surfaces keep the material of the object that "
                           "includes them instead of the mean of both sides: the material table "
                           "is full (256 entries with the mixtures)");
  } catch (const ConfigError& e) {
    relocate(cfg, e);
  }

  m.upml = build_upml_profile(cfg.boundary, m.grid);
  m.sources = build_sources(cfg.sources, m.grid);
  check_source_amplitudes(cfg, m.grid, m.sources);
  add_source_warnings(cfg, m.grid, object_samples, m.warnings);
  if (cfg.plane_waves.empty() && cfg.waveguide_ports.empty()) {
    choose_dft_decimation(cfg, m.sources, m.grid.dt, m.monitors, m.warnings);
  } else {
    // The monitors' decimation sees a plane wave (a waveguide port) as a source of its incident
    // E's waveform.
    std::vector<SourceModel> driving = m.sources;
    std::vector<SourceConfig> waves = cfg.plane_waves;
    waves.insert(waves.end(), cfg.waveguide_ports.begin(), cfg.waveguide_ports.end());
    for (const SourceConfig& c : waves) {
      SourceModel pw;
      pw.name = c.name;
      pw.j.resize(static_cast<std::size_t>(std::max(0L, m.grid.steps)));
      for (std::size_t k = 0; k < pw.j.size(); ++k)
        pw.j[k] = c.amplitude * waveform_value(c, (static_cast<double>(k) + 0.5) * m.grid.dt);
      driving.push_back(std::move(pw));
    }
    choose_dft_decimation(cfg, driving, m.grid.dt, m.monitors, m.warnings);
  }
  check_sources(cfg, m);
  m.ports = build_ports(cfg, m.sources, m.grid);
  for (std::string& w : port_box_warnings(m.ports, m.materials, m.layout, m.ids, m.grid, m.upml))
    m.warnings.push_back(std::move(w));
  add_port_conductivity(cfg, m.ports, m.materials, m.layout, m.ids);
  m.lumped = build_lumped(cfg, m.grid);
  check_lumped(cfg, m);
  add_lumped_elements(cfg, m.lumped, m.materials, m.layout, m.ids);
  // After the ports' conductivity: a port's sample on the box's surface is no vacuum.
  try {
    m.plane_waves = build_plane_waves(cfg, m.grid, m.layout, m.materials, m.ids, m.magnetic, m.upml);
  } catch (const ConfigError& e) {
    relocate(cfg, e);
  }
  const bool others_drive =
      std::any_of(m.sources.begin(), m.sources.end(), drives) ||
      std::any_of(cfg.waveguide_ports.begin(), cfg.waveguide_ports.end(),
                  [](const SourceConfig& c) { return c.amplitude != 0; });
  for (std::string& w : plane_wave_monitor_warnings(m.plane_waves, cfg, m.grid, others_drive))
    m.warnings.push_back(std::move(w));
  try {
    // After the plane waves' checks (a port's injection is no plane wave) and the user's monitors
    // (whose decimation is chosen: the ports' transforms take every step).
    m.waveguide_ports = build_waveguide_ports(cfg, m.grid, m.layout, m.materials, m.ids, m.upml,
                                              m.ports, m.plane_waves, m.monitors);
  } catch (const ConfigError& e) {
    relocate(cfg, e);
  }
  for (std::string& w : waveguide_port_warnings(m.waveguide_ports, m.monitors, m.grid, m.layout,
                                                m.materials, m.ids, m.upml))
    m.warnings.push_back(std::move(w));
  for (std::string& w : farfield_medium(m.monitors, m.layout, m.ids, m.materials))
    m.warnings.push_back(std::move(w));
  try {
    for (std::string& w : check_mode_expansions(cfg, m)) m.warnings.push_back(std::move(w));
  } catch (const ConfigError& e) {
    relocate(cfg, e);
  }
  if (m.materials.any_dispersive() &&
      (m.cylindrical() || (m.two_d() && m.equation == Equation::Wave)))  // load_config refuses it too
    fail(cfg, "material." + first_dispersive_material(cfg), kNoPolesHere);
  if (m.materials.any_dispersive()) {
    m.dispersion = dispersive_samples(m.materials, m.layout, m.ids, m.upml, m.grid.n, m.grid.dt);
    if (m.dispersion.second_order_in_pml) refuse_second_order_in_pml(cfg, m);
    if (m.dispersion.too_many > 0)
      fail(cfg, "material." + first_dispersive_material(cfg),
           "at most " + std::to_string(kMaxDispersiveSamples) + " dispersive E samples (the GPU "
           "stage's 32-bit index), got " + std::to_string(m.dispersion.too_many) +
               ": fewer or smaller dispersive objects, or larger cells");
    if (cfg.output.energy && !m.dispersion.empty())
      m.warnings.push_back("energy.csv counts the energy of E and H only: the polarisation of the "
                           "dispersive materials (and of lumped elements with an inductor, or R and C "
                           "in series) stores and dissipates energy it does not count");
  }
  if (cfg.given("device.halo_overlap") && cfg.device.halo_overlap &&
      (!m.plane_waves.empty() || !m.dispersion.empty()))
    m.warnings.push_back(std::string("device.halo_overlap = true is not used: over MPI ranks a "
                                     "model with ") +
                         (m.plane_waves.empty() ? "dispersive materials or lumped poles" : "plane waves") +
                         " exchanges the halos after the whole step (docs/MPI.md)");
  for (const auto& s : m.sources) {
    // On the axis only m = 0 carries Ez: with no m = 0 listed such a source drives nothing.
    const bool drives = std::any_of(s.mode_factor.begin(), s.mode_factor.end(),
                                    [](const std::complex<double>& f) { return f != 0.0; });
    if (m.cylindrical() && !drives)
      m.warnings.push_back("source '" + s.name +
                           "' is on the axis, where only m = 0 has Ez, and grid.modes lists no "
                           "m = 0: it drives nothing");
  }
  check_steps_within_run(cfg, m);
  m.probes = build_probes(cfg.probes, m.grid);
  add_probe_warnings(m.probes, m.upml, m.grid, m.warnings);
  if (!m.cylindrical()) add_probe_pec_warnings(m.probes, m.ids, m.layout, m.materials, m.warnings);
  add_port_samples(m.ports, m.probes, m.grid);
  plan_resonances(cfg, m);
  load_mode_shapes(m.grid, m.layout, m.monitors);

  for (long s : cfg.snapshot.steps) {
    if (s >= 0 && s <= m.grid.steps) m.snapshot_steps.push_back(s);
  }
  std::sort(m.snapshot_steps.begin(), m.snapshot_steps.end());
  m.snapshot_steps.erase(std::unique(m.snapshot_steps.begin(), m.snapshot_steps.end()),
                         m.snapshot_steps.end());
  m.snapshot_e = cfg.snapshot.e;
  m.snapshot_h = cfg.snapshot.h && m.equation != Equation::Wave;  // wave: no H to save
  m.energy = cfg.output.energy;
  return m;
}

std::size_t model_host_bytes(const RunConfig& cfg, const GridGeometry& g, bool magnetic,
                             const std::vector<MonitorModel>& monitors) {
  const FieldLayout layout = layout_for(g);
  const std::size_t cells = layout.cells();
  const std::size_t id_arrays = meshed_components(cfg, magnetic).size();
  std::size_t bytes = id_arrays * cells + static_cast<std::size_t>(g.cells());  // ids
  // The sources' J per step, in double, and the float copy a device engine uploads from
  // (gpu_engine_host_bytes): counted here so that a long run is refused before either exists.
  // A port's box counts each sample.
  bytes += plane_wave_table_values(cfg, g) * (sizeof(double) + sizeof(float));  // + the float copy
  bytes += plane_wave_term_bytes(cfg, g);  // their corrections and the engine's merge of them
  // A waveguide port: its line's table (2 values a step, double and float) and drive (a double a
  // step), and its transform's points (4 per sample of the plane, a complex double per frequency,
  // on the device and read back), at most the domain's cross-section.
  for (const SourceConfig& w : cfg.waveguide_ports) {
    bytes += static_cast<std::size_t>(std::max(0L, g.steps)) * (3 * sizeof(double) + 2 * sizeof(float));
    const int a = w.direction_axis;
    const std::size_t plane = static_cast<std::size_t>(g.n[(a + 1) % 3]) * g.n[(a + 2) % 3];
    const std::size_t freqs = w.frequencies_hz.empty() ? 201 : w.frequencies_hz.size();
    bytes += 4 * plane * freqs * 2 * 2 * sizeof(double);
  }
  bytes += source_samples(cfg.sources, g) * static_cast<std::size_t>(std::max(0L, g.steps)) *
           (sizeof(double) + sizeof(float));
  // Per port and step: its V_s table, its E as the run records it and the copy the files are
  // made from, its series (time, V_s, V, I) and the text of ports/<name>.time.csv (~70 B a row).
  const std::size_t ports = static_cast<std::size_t>(std::count_if(
      cfg.sources.begin(), cfg.sources.end(), [](const SourceConfig& s) { return s.kind == SourceKind::Port; }));
  bytes += ports * static_cast<std::size_t>(std::max(0L, g.steps) + 1) * 16 * sizeof(double);
  // Per field of a probe with a resonance band: its series (a double a step, at most what the
  // analysis takes) and the analysis' copy.
  // The analysis itself (kAnalysisBytes, monitors/harmonic_inversion.hpp), at least one series
  // at a time (more side by side where the host memory holds them then), and its low-pass' taps,
  // built only for a series at least that long.
  bool resonances = false;
  std::size_t taps = 0;
  for (const ProbeConfig& p : cfg.probes)
    if (p.resonances_hz) {
      resonances = true;
      const std::size_t series = static_cast<std::size_t>(std::max(0L, g.steps)) + 1;
      const BandPlan plan = BandPlan::of(g.dt, (*p.resonances_hz)[0], (*p.resonances_hz)[1]);
      bytes += p.fields.size() * std::min(series, plan.max_length()) * 2 * sizeof(double);
      if (plan.min_length() <= series) taps = std::max(taps, static_cast<std::size_t>(plan.taps));
    }
  if (resonances) bytes += static_cast<std::size_t>(kAnalysisBytes) + taps * sizeof(double);
  const bool snapshots = std::any_of(cfg.snapshot.steps.begin(), cfg.snapshot.steps.end(),
                                     [&](long s) { return s >= 0 && s <= g.steps; });
  // model.vti, written before the loop and freed: eps_r, mu_r and sigma as floats, a copy of
  // the material ids, with a dispersive material the pole counts and with an anisotropic one the
  // three values of each as 3-vectors: 13 to 49 B per cell. The snapshots come later, so the
  // larger of the two counts.
  const bool poles = std::any_of(cfg.materials.begin(), cfg.materials.end(),
                                 [](const MaterialConfig& mc) { return mc.dispersive(); }) ||
                     std::any_of(cfg.lumped.begin(), cfg.lumped.end(),
                                 [](const LumpedConfig& e) { return e.has_pole(); });
  const bool axes = std::any_of(cfg.materials.begin(), cfg.materials.end(),
                                [](const MaterialConfig& mc) { return !mc.pec && mc.anisotropic(); });
  const std::size_t model_vti = ((3 + (axes ? 9 : 0)) * sizeof(float) + 1 + (poles ? 1 : 0)) *
                                static_cast<std::size_t>(g.cells());
  std::size_t writers = 0;
  // A snapshot reads back 6 float fields; the .vti writer adds 3-vectors of E and H, their
  // magnitudes and one cell-centred component at a time: 15 floats per cell in all (2D reads
  // back and writes fewer: the same bound holds).
  if (snapshots && g.cylindrical) {
    // Per mode the six complex fields read back (48 B per cell); the writer's image of one mode,
    // 12 float arrays (<C>_re, <C>_im) and VTK's copy; with phi_samples = N the 3D
    // reconstruction (output/cyl_snapshot.hpp): 17 floats per point at N + 1 angles, and VTK's
    // copy while it is written.
    const std::size_t modes = g.modes.size();
    writers = modes * 6 * 2 * sizeof(float) * cells + 2 * 12 * sizeof(float) * cells;
    const int n_phi = cfg.snapshot.phi_samples;
    if (n_phi > 0) writers += 2 * 17 * sizeof(float) * cells * static_cast<std::size_t>(n_phi + 1);
  } else if (snapshots) {
    writers = 15 * sizeof(float) * cells;
  }
  bytes += std::max(model_vti, writers);
  if (g.cylindrical) bytes += cfg.sources.size() * g.modes.size() * 2 * sizeof(double);  // factors
  return bytes + monitor_host_bytes(monitors, g, layout);
}

std::size_t gpu_engine_host_bytes(const SimulationModel& m, std::size_t device_bytes,
                                  bool device_memory_is_host) {
  std::size_t bytes = 0;
  for (const auto& s : m.sources) bytes += s.j.size() * sizeof(float);
  bytes += m.dispersion.count() * 3 * sizeof(std::int32_t);  // the cell entries and rows uploaded
  return bytes + (device_memory_is_host ? device_bytes : 0);
}

std::size_t SimulationModel::device_bytes(int probe_batch_steps, bool one_pass) const {
  if (two_d()) return plane_device_bytes(probe_batch_steps);
  if (cylindrical()) return cyl_device_bytes(probe_batch_steps);
  const std::size_t cells = layout.cells();
  const std::size_t f = sizeof(float);
  std::size_t bytes = (one_pass ? 12 : 6) * f * cells;  // Ex..Hz (twice when double-buffered)
  if (one_pass) bytes += (magnetic ? 2 : 1) * (cells / 4);  // E (and H) ids per float4
  bytes += (magnetic ? 6 : 3) * cells;                 // uint8 ids
  bytes += 6 * f * upml.cells;                         // D and B auxiliaries of the PML cells
  bytes += materials.size() * 5 * f;                   // ca, cb, inv_eps_r, db, inv_mu_r
  std::size_t axis_cells = 0;
  for (int a = 0; a < 3; ++a) axis_cells += static_cast<std::size_t>(grid.n[a]);
  bytes += 2 * 4 * f * axis_cells;                     // a, b, cp, cm at integer and half positions
  bytes += upml.boxes.size() * 8 * sizeof(int);        // box bounds and offsets
  for (const auto& s : sources) bytes += s.j.size() * f + 4 * sizeof(int);
  bytes += plane_wave_device_bytes(plane_waves);
  bytes += dispersion_device_bytes(dispersion);
  const std::size_t batch = probe_batch_steps > 0 ? static_cast<std::size_t>(probe_batch_steps) : 0;
  bytes += probes.samples.size() * (batch * f + 4 * sizeof(int));  // values + sample cells
  if (energy) bytes += 3 * f * cells + batch * 3 * f * kEnergyMaxGroups;  // H copy, partial sums
  return bytes;
}

// The model's own count of what a cylindrical GPU engine needs (engine::CylEngine reports its
// exact allocation through Backend::device_bytes): per mode six complex float fields, 48 B per
// cell of the padded (nr, 1, nz) layout; the uint8 ids; per mode the CPML psi auxiliaries, one
// complex float per stretched difference: 4 per cell of the r slab (Ephi, Ez, Hphi, Hz differ
// along r) and 4 per cell of the z slabs (Er, Ephi, Hr, Hphi differ along z); the coefficient
// and CPML tables; per mode the r slab's 1/r~ auxiliaries (16 floats per cell); the source tables
// with their complex mode factors; the probe buffers; with
// energy, a copy of the H fields per mode and the partial sums.
std::size_t SimulationModel::cyl_device_bytes(int probe_batch_steps) const {
  const std::size_t cells = layout.cells();
  const std::size_t f = sizeof(float), cf = 2 * sizeof(float);
  const std::size_t modes = grid.modes.size();
  const std::size_t nr = static_cast<std::size_t>(grid.n[0]), nz = static_cast<std::size_t>(grid.n[2]);
  std::size_t bytes = modes * 6 * cf * cells;          // Er..Hz per mode, complex
  bytes += (magnetic ? 6 : 3) * cells;                 // uint8 ids
  const std::size_t r_slab = static_cast<std::size_t>(upml.layers[static_cast<int>(Face::XHi)]) * nz;
  const std::size_t z_slab = static_cast<std::size_t>(upml.layers[static_cast<int>(Face::ZLo)] +
                                                      upml.layers[static_cast<int>(Face::ZHi)]) * nr;
  bytes += modes * 4 * cf * (r_slab + z_slab);         // psi auxiliaries
  // The stretched 1/r~ of the r slab: G = F / r~ and the previous F, complex, for each of the
  // four 1/r terms (Er, Ez, Hr, Hz): 16 floats per r-slab cell and mode.
  bytes += modes * 16 * f * r_slab;
  bytes += materials.size() * 5 * f;                   // ca, cb, inv_eps_r, db, inv_mu_r
  bytes += 2 * 3 * f * (nr + nz);                      // inv_kappa, b, c at integer and half positions
  for (const auto& s : sources) bytes += s.j.size() * f + modes * cf + 4 * sizeof(int);
  const std::size_t batch = probe_batch_steps > 0 ? static_cast<std::size_t>(probe_batch_steps) : 0;
  bytes += probes.samples.size() * (batch * f + 4 * sizeof(int));
  if (energy) bytes += modes * 3 * cf * cells + batch * 3 * f * kEnergyMaxGroups;
  return bytes;
}

std::size_t SimulationModel::wave_frame_cells() const {
  if (!upml.enabled()) return 0;
  std::size_t n = 0;
  for (int i = 0; i < grid.n[0]; ++i)
    for (int j = 0; j < grid.n[1]; ++j) n += upml.in_wave_frame(i, j, grid.n) ? 1 : 0;
  return n;
}

std::size_t SimulationModel::plane_device_bytes(int probe_batch_steps) const {
  const std::size_t cells = layout.cells();
  const std::size_t f = sizeof(float);
  const bool wave = equation == Equation::Wave;
  std::size_t id_arrays = 0;
  for (const auto& ids_c : ids) id_arrays += ids_c.empty() ? 0 : 1;
  // Fields: Yee's three components, or the wave equation's u at two steps.
  std::size_t bytes = (wave ? 2 : 3) * f * cells + id_arrays * cells;
  // UPML auxiliaries: one per component per PML cell (tm: Dz Bx By; te: Dx Dy Bz). The wave
  // solver keeps Yee tm compactly over its frame: Hx, Hy and the three auxiliaries.
  bytes += wave ? 5 * f * wave_frame_cells() : 3 * f * upml.cells;
  bytes += materials.size() * 5 * f;  // ca, cb, inv_eps_r, db, inv_mu_r
  const std::size_t axis_cells = static_cast<std::size_t>(grid.n[0]) + grid.n[1];
  bytes += 2 * 4 * f * axis_cells;    // a, b, cp, cm at integer and half positions, x and y
  bytes += upml.boxes.size() * 8 * sizeof(int);
  for (const auto& s : sources) bytes += s.j.size() * f + 4 * sizeof(int);
  const std::size_t batch = probe_batch_steps > 0 ? static_cast<std::size_t>(probe_batch_steps) : 0;
  bytes += probes.samples.size() * (batch * f + 4 * sizeof(int));
  // energy: a copy of the H components (tm: 2, te: 1) and the partial sums.
  if (energy) bytes += (mode == PlaneMode::Tm ? 2 : 1) * f * cells + batch * 3 * f * kEnergyMaxGroups;
  return bytes;
}

}  // namespace clfdtd
