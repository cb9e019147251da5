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
#include "model/host_memory.hpp"

namespace clfdtd::engine {

namespace {

constexpr std::size_t kPlaceholderBytes = 4 * sizeof(float) * 8;
constexpr std::size_t kTableBytes = 4 * sizeof(float) * 256;  // float4 per material id
constexpr std::size_t kWeightBytes = sizeof(float) * 256;     // energy weight per id

std::size_t merged_source_count(const SimulationModel& m) {
  std::set<std::pair<int, std::size_t>> keys;
  for (const auto& s : m.sources) {
    keys.insert({static_cast<int>(s.component), m.layout.index(s.cell[0], s.cell[1], 0)});
  }
  return m.sources.empty() || m.sources.front().j.empty() ? 0 : keys.size();
}

int energy_group_count(const SimulationModel& m) {
  const std::size_t count4 = static_cast<std::size_t>(m.layout.nx) * m.layout.ny4;
  return static_cast<int>(std::min<std::size_t>(
      kEnergyMaxGroups, std::max<std::size_t>(1, (count4 + kEnergyGroup - 1) / kEnergyGroup)));
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
        {"energy partial sums", batch * 3 * static_cast<std::size_t>(energy_group_count(m)) * f});
  }
  // The monitors' buffers, which the engine's MonitorRunner allocates (MonitorBuffers::allocated).
  for (BufferNeed& b : monitor_buffer_needs(m, batch_steps)) out.push_back(std::move(b));
  return out;
}

std::size_t plane_device_bytes(const SimulationModel& m, int batch_steps) {
  std::size_t total = 0;
  for (const auto& b : plane_buffer_needs(m, batch_steps)) total += b.bytes;
  return total;
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
  const std::size_t device_bytes = plane_device_bytes(m, batch_steps);
  check_device_memory(device_bytes, plane_buffer_needs(m, batch_steps), dev.info(),
                      dev.available_bytes());
  check_host_memory(gpu_engine_host_bytes(m, device_bytes, dev.info().type == "cpu"),
                    std::string("the 2D ") +
                        (dev.info().api == device::Api::Cuda ? "CUDA" : "OpenCL") + " engine on " +
                        dev.info().name);
  const std::size_t cells = m.layout.cells();
  auto upload = [&](const void* data, std::size_t bytes) {
    device::Buffer b = dev.alloc(bytes);
    dev.upload(b, data, bytes);
    allocated += bytes;
    return b;
  };
  auto zeros = [&](std::size_t bytes) {
    device::Buffer b = dev.alloc(bytes);
    dev.fill_zero(b);
    allocated += bytes;
    return b;
  };

  placeholder = zeros(kPlaceholderBytes);
  for (int c = 0; c < 6; ++c) field[c] = ids[c] = placeholder;
  for (Component c : m.active_components())
    field[static_cast<int>(c)] = zeros(cells * sizeof(float));
  for (Component c : m.active_components()) {
    if (is_electric(c) || m.magnetic) ids[static_cast<int>(c)] = upload(m.id(c).data(), cells);
  }

  // Coefficient tables cover all 256 possible ids, so no id can read past the end.
  const double dt = m.grid.dt;
  std::vector<float> etab(4 * 256, 0.0f), htab(4 * 256, 0.0f);
  for (std::size_t id = 0; id < m.materials.size(); ++id) {
    const auto e = m.materials.e_coefficients(static_cast<std::uint8_t>(id), dt);
    const auto h = m.materials.h_coefficients(static_cast<std::uint8_t>(id), dt);
    etab[4 * id] = static_cast<float>(e.ca);
    etab[4 * id + 1] = static_cast<float>(e.cb);
    etab[4 * id + 2] = static_cast<float>(e.inv_eps_r);
    htab[4 * id] = static_cast<float>(h.db);
    htab[4 * id + 1] = static_cast<float>(h.inv_mu_r);
  }
  ecoef = upload(etab.data(), etab.size() * sizeof(float));
  hcoef = m.magnetic ? upload(htab.data(), htab.size() * sizeof(float)) : placeholder;
  db_vacuum = static_cast<float>(m.materials.h_coefficients(MaterialTable::kVacuum, dt).db);

  pml_cells = plane_pml_cells(m);
  for (auto& a : aux) a = placeholder;
  for (auto& p : profiles) p = placeholder;
  if (pml_cells > 0) {
    for (auto& a : aux) a = zeros(pml_cells * sizeof(float));
    const std::vector<float> t[4] = {profile_table(m.upml.integer[0]),
                                     profile_table(m.upml.integer[1]),
                                     profile_table(m.upml.half[0]), profile_table(m.upml.half[1])};
    for (int p = 0; p < 4; ++p) profiles[p] = upload(t[p].data(), t[p].size() * sizeof(float));
  }

  const MergedSources src = merge_sources(m);
  // The kernel indexes J[src * steps + s] with 32-bit ints.
  if (src.j.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    throw DeviceError("source table of " + std::to_string(src.j.size()) +
                      " entries exceeds 2^31 (fewer steps or sources)");
  }
  nsrc = static_cast<int>(src.cells.size() / 2);
  src_steps = src.steps;
  src_cells = src_j = placeholder;
  if (nsrc > 0) {
    src_cells = upload(src.cells.data(), src.cells.size() * sizeof(std::int32_t));
    src_j = upload(src.j.data(), src.j.size() * sizeof(float));
  }

  nsamples = static_cast<int>(m.probes.samples.size());
  probe_cells = probe_batch = placeholder;
  if (nsamples > 0) {
    std::vector<std::int32_t> tab;
    for (const auto& s : m.probes.samples) {
      push_cell_entry(tab, static_cast<int>(s.component), m.layout.index(s.cell[0], s.cell[1], 0));
    }
    probe_cells = upload(tab.data(), tab.size() * sizeof(std::int32_t));
    probe_batch = zeros(static_cast<std::size_t>(nsamples) * batch_steps * sizeof(float));
  }
  flag = zeros(sizeof(std::int32_t));

  for (auto& h : h_prev) h = placeholder;
  energy_eps = energy_mu = energy_partial = placeholder;
  if (m.energy) {
    energy_groups = energy_group_count(m);
    int n = 0;
    for (Component c : m.active_components()) {
      if (!is_electric(c)) h_prev[n++] = zeros(cells * sizeof(float));  // no earlier H: 0
    }
    const std::vector<float> eps = energy_weights(m, true), mu = energy_weights(m, false);
    energy_eps = upload(eps.data(), eps.size() * sizeof(float));
    energy_mu = m.magnetic ? upload(mu.data(), mu.size() * sizeof(float)) : placeholder;
    energy_partial =
        zeros(static_cast<std::size_t>(batch_steps) * 3 * energy_groups * sizeof(float));
  }
}

}  // namespace clfdtd::engine
