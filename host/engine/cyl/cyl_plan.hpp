// The stage list of one cylindrical step, every kernel argument bound once (stage.hpp), all mode
// slots in each launch (the slot is the last NDRange dimension):
//   H: the rows left of the r slab outside the z slabs (cyl_tile_h or cyl_rows_h), then the PML
//      cells (cyl_pml_h);  E: the same for E;  sources: cyl_add_sources (value = the step index);
// and the samplers run between steps: cyl_sample_probes, check_finite (check_finite.cl over all
// planes of the six components) and cyl_energy_sums. In place on the one field set.
#pragma once
#include <array>
#include <string>

#include "device/device.hpp"
#include "engine/cyl/cyl_fields.hpp"
#include "engine/stage.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd::engine {

struct CylPlan {
  StepPlan step;
  Stage probes, energy, finite;  // empty kernels when the model has no probes / no energy
};

// v: Tile or Rows; wg as choose_cyl_workgroup gave it.
CylPlan plan_cyl(const device::Program& program, const SimulationModel& m, const CylFields& f,
                 KernelVariant v, const std::array<int, 3>& wg);

// The kernels of variant v's H and E passes ("cyl_tile_h", "cyl_tile_e", ...).
std::array<std::string, 2> cyl_main_kernels(KernelVariant v);

// Which variant runs (device.variant: auto = rows on a CPU, tile elsewhere; onepass refused with
// a ConfigError naming device.variant) and its work-group: tile (wr, wz4, 1), wr rows along r by
// wz4 float4s along z, default 8 x 16; rows (1, W, 1), default W = 64; device.workgroup as asked
// (tile: X and Y; rows: the product), clamped to the grid and the device's limits.
KernelVariant resolve_cyl_variant(const DeviceConfig& cfg, const std::string& device_type);
std::array<int, 3> choose_cyl_workgroup(KernelVariant v,
                                        const std::optional<std::array<int, 3>>& requested,
                                        const FieldLayout& layout, std::size_t max_group,
                                        const std::array<std::size_t, 3>& max_items);

}  // namespace clfdtd::engine
