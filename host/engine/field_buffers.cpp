// The engines' shared buffer setup (field_buffers.hpp).
#include "engine/field_buffers.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "backends/device_tables.hpp"
#include "errors.hpp"
#include "model/host_memory.hpp"

namespace clfdtd::engine {

namespace {

std::string bytes_text(unsigned long long bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%llu bytes (%.1f MiB)", bytes,
                static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

}  // namespace

std::size_t total_bytes(const std::vector<BufferNeed>& needs) {
  std::size_t total = 0;
  for (const BufferNeed& b : needs) total += b.bytes;
  return total;
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

std::size_t field_floor_bytes(const GridGeometry& g, const FieldLayout& layout, Equation equation) {
  if (g.cylindrical || equation == Equation::Wave) return 0;
  const std::size_t components = g.dims == 2 ? 3 : 6;
  return components * sizeof(float) * layout.cells() * (g.bloch() ? 2 : 1);  // Bloch: re and im
}

void check_field_floor(std::size_t floor_bytes, const device::DeviceInfo& info) {
  if (floor_bytes <= info.global_mem_bytes) return;
  throw OutOfMemoryError("the model's E and H fields alone (float32, once) need " +
                         bytes_text(floor_bytes) + ", device " + info.name + " has " +
                         bytes_text(info.global_mem_bytes) +
                         " in all; refused before meshing; use a coarser grid, a smaller domain "
                         "or a larger device");
}

void check_engine_memory(device::Device& dev, const SimulationModel& m,
                         const std::vector<BufferNeed>& needs, std::size_t device_bytes,
                         const std::string& solver, std::size_t extra_host_bytes) {
  const device::DeviceInfo& info = dev.info();
  check_device_memory(device_bytes, needs, info, dev.available_bytes());
  // The copies uploaded from the host, and on a CPU device (PoCL) every buffer, are host memory.
  check_host_memory(gpu_engine_host_bytes(m, device_bytes, info.type == "cpu") + extra_host_bytes,
                    "the " + (solver.empty() ? std::string() : solver + " ") +
                        (info.api == device::Api::Cuda ? "CUDA" : "OpenCL") + " engine on " +
                        info.name);
}

device::Buffer BufferAllocator::upload(const void* data, std::size_t bytes) {
  device::Buffer b = dev_.alloc(bytes);
  dev_.upload(b, data, bytes);
  allocated_ += bytes;
  return b;
}

device::Buffer BufferAllocator::zeros(std::size_t bytes) {
  device::Buffer b = dev_.alloc(bytes);
  dev_.fill_zero(b);
  allocated_ += bytes;
  return b;
}

CoefficientTables coefficient_tables(const SimulationModel& m) {
  const double dt = m.grid.dt;
  CoefficientTables t;
  t.e.assign(4 * 256, 0.0f);
  t.h.assign(4 * 256, 0.0f);
  for (std::size_t id = 0; id < m.materials.size(); ++id) {
    const auto e = m.materials.e_coefficients(static_cast<std::uint8_t>(id), dt);
    const auto h = m.materials.h_coefficients(static_cast<std::uint8_t>(id), dt);
    t.e[4 * id] = static_cast<float>(e.ca);
    t.e[4 * id + 1] = static_cast<float>(e.cb);
    t.e[4 * id + 2] = static_cast<float>(e.inv_eps_r);
    t.h[4 * id] = static_cast<float>(h.db);
    t.h[4 * id + 1] = static_cast<float>(h.inv_mu_r);
  }
  t.db_vacuum = static_cast<float>(m.materials.h_coefficients(MaterialTable::kVacuum, dt).db);
  return t;
}

MaterialBuffers upload_materials(BufferAllocator& alloc, const SimulationModel& m,
                                 const device::Buffer& placeholder) {
  MaterialBuffers out;
  out.ids.fill(placeholder);
  for (Component c : m.active_components()) {
    if (is_electric(c) || m.magnetic) out.ids[static_cast<int>(c)] = alloc.upload(m.id(c));
  }
  const CoefficientTables coef = coefficient_tables(m);
  out.ecoef = alloc.upload(coef.e);
  out.hcoef = m.magnetic ? alloc.upload(coef.h) : placeholder;
  out.db_vacuum = coef.db_vacuum;
  return out;
}

SourceBuffers upload_sources(BufferAllocator& alloc, const std::vector<std::int32_t>& cells,
                             const std::vector<float>& j, const device::Buffer& placeholder,
                             const std::string& fewer) {
  if (j.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    throw DeviceError("source table of " + std::to_string(j.size()) + " entries exceeds 2^31 (fewer " +
                      fewer + ")");
  }
  SourceBuffers out;
  out.count = static_cast<int>(cells.size() / 2);
  out.cells = out.j = placeholder;
  if (out.count > 0) {
    out.cells = alloc.upload(cells);
    out.j = alloc.upload(j);
  }
  return out;
}

PlaneWaveBuffers upload_plane_waves(BufferAllocator& alloc, const SimulationModel& m,
                                    const device::Buffer& placeholder) {
  PlaneWaveBuffers out;
  out.cells = out.start = out.rows = out.weights = out.table = placeholder;
  if (m.plane_waves.empty()) return out;
  const PlaneWaveEntries pw = post_step_entries(m.plane_waves, m.grid, m.layout, m.materials, m.ids);
  if (pw.count() == 0) return out;  // a rank's part the waves' surfaces miss
  std::vector<std::int32_t> cells;
  for (const auto& [comp, index] : pw.samples) push_cell_entry(cells, comp, index);
  if (pw.table.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    throw DeviceError("plane wave table of " + std::to_string(pw.table.size()) +
                      " entries exceeds 2^31 (fewer steps or a smaller box along the wave)");
  out.cells = alloc.upload(cells);
  out.start = alloc.upload(pw.start);
  if (!pw.rows.empty()) out.rows = alloc.upload(pw.rows);
  if (!pw.weights.empty()) out.weights = alloc.upload(pw.weights);
  if (!pw.table.empty()) out.table = alloc.upload(pw.table);
  out.count = pw.count();
  out.row_width = pw.row_width;
  out.steps = pw.steps;
  return out;
}

DispersionBuffers upload_dispersion(BufferAllocator& alloc, const DispersiveSamples& d,
                                    const device::Buffer& placeholder) {
  DispersionBuffers out;
  out.cells = out.table = out.state = placeholder;
  if (d.empty()) return out;
  // Per sample (component | (index % 4) << 3 | row << 5, float4 lane): the row rides in the
  // first int (cl_kernels/dispersion.cl), which leaves it 26 bits.
  if (d.rows.size() > (std::size_t{1} << 26))
    throw DeviceError("the dispersive stage's " + std::to_string(d.rows.size()) +
                      " material rows exceed its 2^26");
  std::vector<std::int32_t> cells;
  cells.reserve(2 * d.count());
  for (std::size_t n = 0; n < d.count(); ++n) {
    push_cell_entry(cells, d.comp[n], d.index[n]);
    cells[2 * n] += d.row[n] << 5;
  }
  out.row_stride = dispersion_row_stride(d);
  out.f_slot = static_cast<int>(d.f_slot());
  const auto stride = static_cast<std::size_t>(out.row_stride);
  std::vector<float> table(d.rows.size() * stride * 4, 0.0f);
  for (std::size_t r = 0; r < d.rows.size(); ++r) {
    const DispersionRow& row = d.rows[r];
    float* at = &table[r * stride * 4];
    at[0] = static_cast<float>(row.corr);
    at[1] = static_cast<float>(row.inv);
    at[2] = static_cast<float>(row.poles.size());
    at[3] = row.upml ? 1.0f : 0.0f;
    for (std::size_t p = 0; p < row.poles.size(); ++p)
      for (int k = 0; k < 4; ++k) at[4 * (1 + p) + k] = static_cast<float>(row.poles[p][k]);
    if (!row.upml) continue;
    float* profile = at + 4 * (stride - 2);
    const double values[8] = {row.a_v, row.b_v, row.a_w, row.b_w, row.cp_u, row.cm_u, 0, 0};
    for (int k = 0; k < 8; ++k) profile[k] = static_cast<float>(values[k]);
  }
  out.cells = alloc.upload(cells);
  out.table = alloc.upload(table);
  out.state = alloc.zeros(d.count() * d.state_slots() * sizeof(float));
  out.count = static_cast<int>(d.count());
  return out;
}

void plane_wave_table_args(Args& a, const PlaneWaveBuffers& pw) {
  a << pw.cells << pw.start << pw.rows << pw.weights << pw.table << pw.count << pw.row_width;
}

void dispersion_table_args(Args& a, const DispersionBuffers& d, bool before_in_state) {
  a << d.cells << d.table << d.state << d.count << d.row_stride << d.f_slot
    << static_cast<int>(before_in_state);
}

std::vector<std::int32_t> probe_cell_table(const SimulationModel& m) {
  std::vector<std::int32_t> tab;
  for (const auto& s : m.probes.samples) {
    push_cell_entry(tab, static_cast<int>(s.component),
                    m.layout.index(s.cell[0], s.cell[1], s.cell[2]));
  }
  return tab;
}

int energy_group_items(std::size_t kernel_max) {
  int items = kEnergyGroup;
  while (items > 1 && static_cast<std::size_t>(items) > kernel_max) items /= 2;
  return items;
}

int energy_group_items(const device::Program& program, const std::string& name) {
  return energy_group_items(program.kernel(name).max_group_size());
}

int energy_group_count(std::size_t float4_items) {
  return static_cast<int>(std::min<std::size_t>(
      kEnergyMaxGroups, std::max<std::size_t>(1, (float4_items + kEnergyGroup - 1) / kEnergyGroup)));
}

}  // namespace clfdtd::engine
