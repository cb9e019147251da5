// The Yee solver's device buffers: checked, allocated, zeroed and uploaded once.
#include "engine/yee_fields.hpp"

#include <cstdint>
#include <limits>

#include "backends/device_tables.hpp"
#include "engine/monitor_buffers.hpp"
#include "errors.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd::engine {

namespace {

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
  if (v == KernelVariant::OnePass) {
    buffers.push_back({"E ids per float4", cells / 4});
    if (m.magnetic) buffers.push_back({"H ids per float4", cells / 4});
  }
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
  if (!m.plane_waves.empty())
    buffers.push_back({"plane wave tables", plane_wave_device_bytes(m.plane_waves)});
  if (!m.dispersion.empty())
    buffers.push_back({"dispersive samples and their polarisation", dispersion_device_bytes(m.dispersion)});
  buffers.push_back({"probe batch", m.probes.samples.size() * batch_steps * sizeof(float)});
  for (BufferNeed& b : monitor_buffer_needs(m, batch_steps)) buffers.push_back(std::move(b));
  return buffers;
}

YeeFields::YeeFields(device::Device& dev, const SimulationModel& m, KernelVariant v,
                     int batch_steps) {
  const std::size_t device_bytes = variant_device_bytes(m, v, batch_steps);
  // Host: onepass and tblock's ids per float4 are built there before their upload, one table at
  // a time.
  const std::size_t table_bytes = v == KernelVariant::OnePass ? m.layout.cells() / 4 : 0;
  check_engine_memory(dev, m, yee_buffer_needs(m, v, batch_steps), device_bytes, "", table_bytes);
  const std::size_t cells = m.layout.cells();
  BufferAllocator alloc(dev);

  placeholder = alloc.zeros(kPlaceholderBytes);
  for (auto& f : set[0]) f = alloc.zeros(cells * sizeof(float));
  if (v == KernelVariant::OnePass) {
    for (auto& f : set[1]) f = alloc.zeros(cells * sizeof(float));
  } else {
    set[1] = set[0];
  }
  MaterialBuffers mat = upload_materials(alloc, m, placeholder);
  ids = mat.ids;
  e_ids4 = placeholder;
  h_ids4 = placeholder;
  if (v == KernelVariant::OnePass) {
    e_ids4 = alloc.upload(e_id_float4_table(m));
    if (m.magnetic) h_ids4 = alloc.upload(h_id_float4_table(m));
  }
  ecoef = mat.ecoef;
  hcoef = mat.hcoef;
  db_vacuum = mat.db_vacuum;

  if (m.upml.enabled()) {
    for (auto& a : aux) a = alloc.zeros(upml_aux_floats(m, v) * sizeof(float));
    if (float4_slabs(v)) {
      const ZSlabLayout z = zslab_layout(m, v);
      if (z.float4s() > 0) {
        for (auto& a : zaux) a = alloc.zeros(z.float4s() * 4 * sizeof(float));
      }
      const auto lanes = zslab_lane_table(m);
      zlanes = alloc.upload(lanes);
    } else {
      const auto b = pml_box_table(m.upml);
      boxes = alloc.upload(b);
      const auto zs = z_profile_split(m.upml);
      z_split = alloc.upload(zs);
    }
    for (int a = 0; a < 3; ++a) {
      const auto ti = profile_table(m.upml.integer[a]), th = profile_table(m.upml.half[a]);
      profiles[a] = alloc.upload(ti);
      profiles[3 + a] = alloc.upload(th);
    }
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
  if (nsamples > 0) {
    probe_cells = alloc.upload(probe_cell_table(m));
    probe_batch = alloc.zeros(static_cast<std::size_t>(nsamples) * batch_steps * sizeof(float));
  }
  flag = alloc.zeros(sizeof(std::int32_t));

  if (m.energy) {
    energy_groups =
        energy_group_count(static_cast<std::size_t>(m.layout.nx) * m.layout.ny * m.layout.nz4);
    const auto groups = static_cast<std::size_t>(energy_groups);
    for (auto& h : h_prev) h = alloc.zeros(cells * sizeof(float));  // no earlier H: first term 0
    const std::vector<float> eps = energy_weights(m, true), mu = energy_weights(m, false);
    energy_eps = alloc.upload(eps);
    energy_mu = m.magnetic ? alloc.upload(mu) : placeholder;
    energy_partial = alloc.zeros(static_cast<std::size_t>(batch_steps) * 3 * groups * sizeof(float));
  }
}

}  // namespace clfdtd::engine
