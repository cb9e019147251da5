// The stage list of one 2D Yee step, every kernel argument bound once (stage.hpp):
//   H: the x/y interior (plane_tile_h_* or plane_rows_h_*), then the PML cells (plane_upml_h_*);
//   E: the same for E;  sources: add_sources (sources.cl, value = the step index);
// and the samplers run between steps: sample_probes (probes.cl), check_finite (check_finite.cl,
// the active components passed for the inactive ones, which it then checks twice) and
// plane_energy_sums (plane_energy.cl). In place on the one field set.
#pragma once
#include <array>

#include "device/device.hpp"
#include "engine/plane/plane_fields.hpp"
#include "engine/stage.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd::engine {

struct PlanePlan {
  StepPlan step;
  Stage probes, energy, finite;  // empty kernels when the model has no probes / no energy
};

// v: Tile or Rows; wg as choose_plane_workgroup gave it.
PlanePlan plan_plane(const device::Program& program, const SimulationModel& m, const PlaneFields& f,
                     KernelVariant v, const std::array<int, 3>& wg);

// The kernels of variant v's H and E passes over the interior ("plane_tile_h_tm", ...).
std::array<std::string, 2> plane_main_kernels(const SimulationModel& m, KernelVariant v);

}  // namespace clfdtd::engine
