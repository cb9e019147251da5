// The 2D Yee solver's device buffers: counted, checked, allocated, zeroed and uploaded once.
#include "engine/plane/plane_fields.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <utility>

#include "backends/device_tables.hpp"
#include "engine/monitor_buffers.hpp"
#include "errors.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd::engine {

namespace {

std::size_t merged_source_count(const SimulationModel& m) {
  std::set<std::pair<int, std::size_t>> keys;
  for (const auto& s : m.sources) {
    keys.insert({static_cast<int>(s.component), m.layout.index(s.cell[0], s.cell[1], 0)});
  }
  return m.sources.empty() || m.sources.front().j.empty() ? 0 : keys.size();
}

int plane_energy_groups(const SimulationModel& m) {
  return energy_group_count(static_cast<std::size_t>(m.layout.nx) * m.layout.ny4);
}

}  // namespace

std::size_t plane_pml_cells(const SimulationModel& m) {
  const auto& L = m.upml.layers;
  const auto nx = static_cast<std::size_t>(m.layout.nx), ny = static_cast<std::size_t>(m.layout.ny);
  const std::size_t xs = static_cast<std::size_t>(L[0] + L[1]);
  return xs * ny + (nx - xs) * static_cast<std::size_t>(L[2] + L[3]);
}

std::vector<BufferNeed> plane_buffer_needs(const SimulationModel& m, int batch_steps) {
  const std::size_t cells = m.layout.cells(), f = sizeof(float);
  const auto batch = static_cast<std::size_t>(std::max(batch_steps, 0));
  std::vector<BufferNeed> out;
  out.push_back({"placeholder", kPlaceholderBytes});
  for (Component c : m.active_components()) out.push_back({component_name(c), cells * f});
  for (Component c : m.active_components()) {
    if (is_electric(c) || m.magnetic) {
      out.push_back({std::string("material ids ") + component_name(c), cells});
    }
  }
  out.push_back({"E coefficients", kTableBytes});
  if (m.magnetic) out.push_back({"H coefficients", kTableBytes});
  const std::size_t pml = plane_pml_cells(m);
  if (pml > 0) {
    for (int a = 0; a < 3; ++a) out.push_back({"UPML auxiliary", pml * f});
    const std::size_t nx = static_cast<std::size_t>(m.layout.nx),
                      ny = static_cast<std::size_t>(m.layout.ny);
    out.push_back({"UPML profiles", 2 * (nx + ny) * 4 * f});
  }
  const std::size_t nsrc = merged_source_count(m);
  if (nsrc > 0) {
    out.push_back({"source cells", nsrc * 2 * sizeof(std::int32_t)});
    out.push_back({"source table", nsrc * m.sources.front().j.size() * f});
  }
  if (!m.plane_waves.empty())
    out.push_back({"plane wave tables", plane_wave_device_bytes(m.plane_waves)});
  if (!m.dispersion.empty())
    out.push_back({"dispersive samples and their polarisation", dispersion_device_bytes(m.dispersion)});
  const std::size_t ns = m.probes.samples.size();
  if (ns > 0) {
    out.push_back({"probe cells", ns * 2 * sizeof(std::int32_t)});
    out.push_back({"probe batch", ns * batch * f});
  }
  out.push_back({"finite flag", sizeof(std::int32_t)});
  if (m.energy) {
    for (Component c : m.active_components()) {
      if (!is_electric(c))
        out.push_back({std::string("energy copy of ") + component_name(c), cells * f});
    }
    out.push_back({"energy eps_r", kWeightBytes});
    if (m.magnetic) out.push_back({"energy mu_r", kWeightBytes});
    out.push_back(
        {"energy partial sums", batch * 3 * static_cast<std::size_t>(plane_energy_groups(m)) * f});
  }
  // The monitors' buffers, which the engine's MonitorRunner allocates (MonitorBuffers::allocated).
  for (BufferNeed& b : monitor_buffer_needs(m, batch_steps)) out.push_back(std::move(b));
  return out;
}

std::size_t plane_device_bytes(const SimulationModel& m, int batch_steps) {
  return total_bytes(plane_buffer_needs(m, batch_steps));
}

PlaneFields::PlaneFields(device::Device& dev, const SimulationModel& m, int batch_steps) {
  for (const auto& s : m.sources) {
    if (!m.is_active(s.component)) {
      throw ConfigError("", 0, "source." + s.name + ".axis",
                        std::string("a current along an axis whose E the 2D mode carries (") +
                            component_name(s.component) + " is not in this mode)");
    }
  }
  for (const auto& s : m.probes.samples) {
    if (!m.is_active(s.component)) {
      throw ConfigError("", 0, "probe." + m.probes.probes[s.probe].name + ".fields",
                        std::string("fields the 2D mode carries (") + component_name(s.component) +
                            " is not in this mode)");
    }
  }
  const std::vector<BufferNeed> needs = plane_buffer_needs(m, batch_steps);
  check_engine_memory(dev, m, needs, total_bytes(needs), "2D");
  const std::size_t cells = m.layout.cells();
  BufferAllocator alloc(dev);

  placeholder = alloc.zeros(kPlaceholderBytes);
  field.fill(placeholder);
  for (Component c : m.active_components())
    field[static_cast<int>(c)] = alloc.zeros(cells * sizeof(float));
  MaterialBuffers mat = upload_materials(alloc, m, placeholder);
  ids = mat.ids;
  ecoef = mat.ecoef;
  hcoef = mat.hcoef;
  db_vacuum = mat.db_vacuum;

  pml_cells = plane_pml_cells(m);
  for (auto& a : aux) a = placeholder;
  for (auto& p : profiles) p = placeholder;
  if (pml_cells > 0) {
    for (auto& a : aux) a = alloc.zeros(pml_cells * sizeof(float));
    const std::vector<float> t[4] = {profile_table(m.upml.integer[0]),
                                     profile_table(m.upml.integer[1]),
                                     profile_table(m.upml.half[0]), profile_table(m.upml.half[1])};
    for (int p = 0; p < 4; ++p) profiles[p] = alloc.upload(t[p]);
  }

  const MergedSources src = merge_sources(m);
  const SourceBuffers sources = upload_sources(alloc, src.cells, src.j, placeholder, "steps or sources");
  src_cells = sources.cells;
  src_j = sources.j;
  nsrc = sources.count;
  src_steps = src.steps;

  pw = upload_plane_waves(alloc, m, placeholder);
  disp = upload_dispersion(alloc, m.dispersion, placeholder);

  nsamples = static_cast<int>(m.probes.samples.size());
  probe_cells = probe_batch = placeholder;
  if (nsamples > 0) {
    probe_cells = alloc.upload(probe_cell_table(m));
    probe_batch = alloc.zeros(static_cast<std::size_t>(nsamples) * batch_steps * sizeof(float));
  }
  flag = alloc.zeros(sizeof(std::int32_t));

  for (auto& h : h_prev) h = placeholder;
  energy_eps = energy_mu = energy_partial = placeholder;
  if (m.energy) {
    energy_groups = plane_energy_groups(m);
    int n = 0;
    for (Component c : m.active_components()) {
      if (!is_electric(c)) h_prev[n++] = alloc.zeros(cells * sizeof(float));  // no earlier H: 0
    }
    const std::vector<float> eps = energy_weights(m, true), mu = energy_weights(m, false);
    energy_eps = alloc.upload(eps);
    energy_mu = m.magnetic ? alloc.upload(mu) : placeholder;
    energy_partial =
        alloc.zeros(static_cast<std::size_t>(batch_steps) * 3 * energy_groups * sizeof(float));
  }
  allocated = alloc.allocated();
}

}  // namespace clfdtd::engine
