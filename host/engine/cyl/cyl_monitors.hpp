// Flux monitors on the cylindrical engine (docs/CYLINDRICAL.md, "Flux monitors"). Each component's
// buffer holds its field planes one after another (2 q + part, nr rows of nzp floats each:
// cyl_fields.hpp), so a plane's row i is row plane * nr + i of one tall (planes * nr, 1, nz)
// layout. Seen that way, every monitor point (a region sample of one plane) is a 3D monitor
// point, and the 3D monitors' gather ring and batched accumulate (monitor_stages.hpp,
// cl_kernels/monitor_dft.cl) transform them unchanged, in the point order of
// model/cyl_monitor_build.hpp: the cylindrical model's monitors with stacked regions on that
// tall layout is all they need.
#pragma once
#include <memory>
#include <vector>

#include "engine/yee_fields.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd::engine {

// The model the monitor runner reads (its grid, layout, dt and monitors only): the tall layout
// (2 * modes * nr, 1, nz), each monitor's regions stacked over the planes
// (cyl_stacked_regions). Empty monitors when m has none.
std::unique_ptr<SimulationModel> cyl_monitor_model(const SimulationModel& m);

// The monitors' device buffers for m (part of cyl_buffer_needs).
std::vector<BufferNeed> cyl_monitor_buffer_needs(const SimulationModel& m, int batch_steps);

}  // namespace clfdtd::engine
