// Flux monitors on the cylindrical engine: see cyl_monitors.hpp.
#include "engine/cyl/cyl_monitors.hpp"

#include "engine/monitor_buffers.hpp"
#include "model/cyl_monitor_build.hpp"

namespace clfdtd::engine {

std::unique_ptr<SimulationModel> cyl_monitor_model(const SimulationModel& m) {
  auto out = std::make_unique<SimulationModel>();
  const int slots = static_cast<int>(m.grid.modes.size());
  const int nr = m.layout.nx, planes = 2 * slots;
  out->grid = m.grid;
  out->grid.n[0] = planes * nr;
  out->layout = FieldLayout(planes * nr, 1, m.layout.nz);
  for (const MonitorModel& mon : m.monitors) {
    MonitorModel tall = mon;
    tall.regions = cyl_stacked_regions(mon, slots, nr);
    out->monitors.push_back(std::move(tall));
  }
  return out;
}

std::vector<BufferNeed> cyl_monitor_buffer_needs(const SimulationModel& m, int batch_steps) {
  if (m.monitors.empty()) return {};
  return monitor_buffer_needs(*cyl_monitor_model(m), batch_steps);
}

}  // namespace clfdtd::engine
