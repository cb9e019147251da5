// The 2D Yee engine (grid.dims = 2, equation = maxwell; tm: Ez Hx Hy, te: Hz Ex Ey) on any
// device of the device API, OpenCL or CUDA alike, from the same kernels (cl_kernels/plane_*.cl,
// with sources.cl, probes.cl and check_finite.cl). Setup happens once in the constructor: the
// variant and work-group (plane_variant.hpp), the device buffers (plane_fields.hpp, which owns
// the device memory), and the stage list of one step with every argument bound
// (plane_plan.hpp); the rest is the device engine's (device_engine.hpp). The engine is destroyed before the SimulationModel it refers to.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "engine/device_engine.hpp"
#include "engine/plane/plane_fields.hpp"
#include "engine/plane/plane_plan.hpp"

namespace clfdtd::engine {

class PlaneEngine final : public DeviceEngine {
public:
  // Runs the 2D model `m` on `dev` with cfg's variant and work-group. Throws ConfigError
  // (device.variant = onepass), OutOfMemoryError,
  // DeviceError (also for a 3D model or equation = wave, which other engines run).
  PlaneEngine(const SimulationModel& m, const DeviceConfig& cfg,
              std::unique_ptr<device::Device> dev);
  ~PlaneEngine() override;

  // "plane-tile 8x16x1" (wx x wy4 x 1), "plane-rows 1x64x1" (W rows per group); then the
  // device's code target where it has one ("... (sm_90)", CUDA), and " (tuned)" for a cached group.
  std::string kernel_variant() const override;

  void step(long s) override;
  // out[i * ny + j], nx * ny floats; zeros for a component the mode does not carry.
  void read_field(Component c, std::vector<float>& out) override;
  // plane_device_bytes: every buffer this engine allocated, the monitors' included (m: the
  // model it was built for); allocated_bytes() counts them as they were allocated.
  std::size_t device_bytes(const SimulationModel& m) const override;
  std::size_t allocated_bytes() const { return fields_->allocated + monitor_bytes_allocated(); }

  KernelVariant variant() const { return variant_; }  // Tile or Rows
  // workgroup(): tile (wx, wy4, 1), rows (1, W, 1)
  const PlaneFields& fields() const { return *fields_; }
  const StepPlan& plan() const { return plan_.step; }

private:
  KernelVariant variant_ = KernelVariant::Tile;
  std::unique_ptr<PlaneFields> fields_;
  PlanePlan plan_;
};

// The engine on the device of `api` that cfg.select names (device::choose_device).
// Throws ConfigError (no such device), DeviceError (none at all), as the constructor.
std::unique_ptr<Backend> make_plane_engine(device::Api api, const SimulationModel& m,
                                           const DeviceConfig& cfg);

}  // namespace clfdtd::engine
