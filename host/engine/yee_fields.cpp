// The Yee solver's device buffers: checked, allocated, zeroed and uploaded once.
#include "engine/yee_fields.hpp"

#include <cstdint>
#include <cstdio>
#include <limits>

#include "backends/device_tables.hpp"
#include "engine/monitor_buffers.hpp"
#include "errors.hpp"
#include "model/grid_geometry.hpp"
#include "model/host_memory.hpp"

namespace clfdtd::engine {

namespace {

std::string bytes_text(unsigned long long bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%llu bytes (%.1f MiB)", bytes,
                static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

bool float4_slabs(KernelVariant v) { return v == KernelVariant::Tile || v == KernelVariant::OnePass; }

}  // namespace

std::vector<BufferNeed> yee_buffer_needs(const SimulationModel& m, KernelVariant v,
                                         int batch_steps) {
  const std::size_t cells = m.layout.cells();
  std::vector<BufferNeed> buffers;
  for (int c = 0; c < 6; ++c) {
    buffers.push_back({component_name(static_cast<Component>(c)), cells * sizeof(float)});
  }
  buffers.push_back({"material ids", cells});
  if (float4_slabs(v)) {
    buffers.push_back({"UPML auxiliary (x/y slabs)", upml_aux_floats(m, v) * sizeof(float)});
    buffers.push_back(
        {"UPML auxiliary (z slabs)", zslab_layout(m, v).float4s() * 4 * sizeof(float)});
  } else {
    buffers.push_back({"UPML auxiliary", m.upml.cells * sizeof(float)});
  }
  std::size_t j_entries = 0;
  for (const auto& s : m.sources) j_entries += s.j.size();
  buffers.push_back({"source table", j_entries * sizeof(float)});
  buffers.push_back({"probe batch", m.probes.samples.size() * batch_steps * sizeof(float)});
  for (BufferNeed& b : monitor_buffer_needs(m, batch_steps)) buffers.push_back(std::move(b));
  return buffers;
}

void check_device_memory(std::size_t total_bytes, const std::vector<BufferNeed>& buffers,
                         const device::DeviceInfo& info, std::size_t available_bytes) {
  if (total_bytes > available_bytes) {
    std::string has = bytes_text(available_bytes);
    if (available_bytes < info.global_mem_bytes) has += " free of " + bytes_text(info.global_mem_bytes);
    // The monitors' shares by name, in model order: a user can drop or shrink one of them.
    std::vector<std::pair<std::string, std::size_t>> monitors;
    for (const auto& b : buffers) {
      if (b.monitor.empty()) continue;
      if (monitors.empty() || monitors.back().first != b.monitor) monitors.push_back({b.monitor, 0});
      monitors.back().second += b.bytes;
    }
    std::string shares;
    for (const auto& [name, bytes] : monitors) {
      shares += (shares.empty() ? " (of which " : ", ") + std::string("monitor ") + name + " " +
                bytes_text(bytes);
    }
    if (!shares.empty()) shares += ")";
    throw OutOfMemoryError("model needs " + bytes_text(total_bytes) + shares + ", device " +
                           info.name + " has " + has +
                           "; use a coarser grid, fewer or smaller monitors, or a larger device");
  }
  for (const auto& b : buffers) {
    if (b.bytes > info.max_alloc_bytes) {
      throw OutOfMemoryError("buffer " + b.name + " needs " + bytes_text(b.bytes) + ", device " +
                             info.name + " allows " + bytes_text(info.max_alloc_bytes) +
                             " per buffer");
    }
  }
}

YeeFields::YeeFields(device::Device& dev, const SimulationModel& m, KernelVariant v,
                     int batch_steps) {
  const std::size_t device_bytes = variant_device_bytes(m, v, batch_steps);
  check_device_memory(device_bytes, yee_buffer_needs(m, v, batch_steps), dev.info(),
                      dev.available_bytes());
  // The float copies uploaded from here, and on a CPU device (PoCL) every buffer, are host memory.
  check_host_memory(gpu_engine_host_bytes(m, device_bytes, dev.info().type == "cpu"),
                    std::string("the ") + (dev.info().api == device::Api::Cuda ? "CUDA" : "OpenCL") +
                        " engine on " + dev.info().name);
  const std::size_t cells = m.layout.cells();
  auto upload = [&dev](const void* data, std::size_t bytes) {
    device::Buffer b = dev.alloc(bytes);
    dev.upload(b, data, bytes);
    return b;
  };
  auto zeros = [&dev](std::size_t bytes) {
    device::Buffer b = dev.alloc(bytes);
    dev.fill_zero(b);
    return b;
  };

  placeholder = zeros(4 * sizeof(float) * 8);
  for (auto& f : set[0]) f = zeros(cells * sizeof(float));
  if (v == KernelVariant::OnePass) {
    for (auto& f : set[1]) f = zeros(cells * sizeof(float));
  } else {
    set[1] = set[0];
  }
  for (int c = 0; c < 6; ++c) {
    ids[c] = c < 3 || m.magnetic ? upload(m.ids[c].data(), cells) : placeholder;
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

  if (m.upml.enabled()) {
    for (auto& a : aux) a = zeros(upml_aux_floats(m, v) * sizeof(float));
    if (float4_slabs(v)) {
      const ZSlabLayout z = zslab_layout(m, v);
      if (z.float4s() > 0) {
        for (auto& a : zaux) a = zeros(z.float4s() * 4 * sizeof(float));
      }
      const auto lanes = zslab_lane_table(m);
      zlanes = upload(lanes.data(), lanes.size() * sizeof(float));
    } else {
      const auto b = pml_box_table(m.upml);
      boxes = upload(b.data(), b.size() * sizeof(std::int32_t));
      const auto zs = z_profile_split(m.upml);
      z_split = upload(zs.data(), zs.size() * sizeof(float));
    }
    for (int a = 0; a < 3; ++a) {
      const auto ti = profile_table(m.upml.integer[a]), th = profile_table(m.upml.half[a]);
      profiles[a] = upload(ti.data(), ti.size() * sizeof(float));
      profiles[3 + a] = upload(th.data(), th.size() * sizeof(float));
    }
  }

  const MergedSources src = merge_sources(m);
  // The kernel indexes J[src * steps + s] with 32-bit ints.
  if (src.j.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    throw DeviceError("source table of " + std::to_string(src.j.size()) +
                      " entries exceeds 2^31 (fewer steps or sources)");
  }
  nsrc = static_cast<int>(src.cells.size() / 2);
  src_steps = src.steps;
  if (nsrc > 0) {
    src_cells = upload(src.cells.data(), src.cells.size() * sizeof(std::int32_t));
    src_j = upload(src.j.data(), src.j.size() * sizeof(float));
  }

  nsamples = static_cast<int>(m.probes.samples.size());
  if (nsamples > 0) {
    std::vector<std::int32_t> tab;
    for (const auto& s : m.probes.samples) {
      push_cell_entry(tab, static_cast<int>(s.component),
                      m.layout.index(s.cell[0], s.cell[1], s.cell[2]));
    }
    probe_cells = upload(tab.data(), tab.size() * sizeof(std::int32_t));
    probe_batch = zeros(static_cast<std::size_t>(nsamples) * batch_steps * sizeof(float));
  }
  flag = zeros(sizeof(std::int32_t));

  if (m.energy) {
    const std::size_t count4 = static_cast<std::size_t>(m.layout.nx) * m.layout.ny * m.layout.nz4;
    const std::size_t groups = std::min<std::size_t>(
        kEnergyMaxGroups, std::max<std::size_t>(1, (count4 + kEnergyGroup - 1) / kEnergyGroup));
    energy_groups = static_cast<int>(groups);
    for (auto& h : h_prev) h = zeros(cells * sizeof(float));  // no earlier H: first term 0
    const std::vector<float> eps = energy_weights(m, true), mu = energy_weights(m, false);
    energy_eps = upload(eps.data(), eps.size() * sizeof(float));
    energy_mu = m.magnetic ? upload(mu.data(), mu.size() * sizeof(float)) : placeholder;
    energy_partial = zeros(static_cast<std::size_t>(batch_steps) * 3 * groups * sizeof(float));
  }
}

}  // namespace clfdtd::engine
