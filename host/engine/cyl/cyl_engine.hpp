// The cylindrical (body-of-revolution) engine (docs/CYLINDRICAL.md): every angular mode of
// grid.modes as a complex (r, z) field set, all modes in each launch, on any device of the device
// API, OpenCL or CUDA alike, from the same kernels (cl_kernels/cyl_*.cl with check_finite.cl).
// Setup happens once in the constructor: the variant and work-group (cyl_plan.hpp), the device
// buffers (cyl_fields.hpp), and the stage list of one step with every argument bound; the rest
// is the device engine's (device_engine.hpp). The engine is destroyed before the SimulationModel
// it refers to.
#pragma once
#include <array>
#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "engine/cyl/cyl_fields.hpp"
#include "engine/cyl/cyl_plan.hpp"
#include "engine/device_engine.hpp"

namespace clfdtd::engine {

class CylEngine final : public DeviceEngine {
public:
  // Runs the cylindrical model `m` on `dev` with cfg's variant and work-group (flux monitors
  // through the 3D monitors' stages: cyl_monitors.hpp). Throws ConfigError
  // (device.variant = onepass), OutOfMemoryError,
  // DeviceError (also for a model that is not cylindrical).
  CylEngine(const SimulationModel& m, const DeviceConfig& cfg, std::unique_ptr<device::Device> dev);
  ~CylEngine() override;

  // "cyl-tile 8x16x1 (3 modes)" (wr x wz4 x 1), "cyl-tile-local ..." (device.cyl_staging =
  // local), "... unaligned (3 modes)" (device.cyl_align = false), "cyl-rows 1x64x1 (1 mode)"; then
  // the device's code target where it has one ("... (sm_90)", CUDA), " (tuned)" when the
  // work-group came from the tuning cache (kind "cyl", cyl_plan.hpp).
  std::string kernel_variant() const override;

  void step(long s) override;
  // The physical field at phi = 0, sum_q Re F_q: out[i * nz + k], nr * nz floats.
  void read_field(Component c, std::vector<float>& out) override;
  void read_mode_field(int slot, Component c, std::vector<std::complex<float>>& out) override;
  // cyl_device_bytes: every buffer this engine allocated (m: the model it was built for).
  std::size_t device_bytes(const SimulationModel& m) const override;

  KernelVariant variant() const { return variant_; }  // Tile or Rows
  // workgroup(): tile (wr, wz4, 1), rows (1, W, 1)
  const CylFields& fields() const { return *fields_; }
  const StepPlan& plan() const { return plan_.step; }

private:
  // Every plane (mode slot, part) of component c, padded: [2 q + part][nr * nzp].
  std::vector<float> read_planes(Component c);

  KernelVariant variant_ = KernelVariant::Tile;
  CylTileChoice tile_;
  std::unique_ptr<CylFields> fields_;
  // What the flux monitors' runner reads (cyl_monitors.hpp); it outlives the runner's work.
  std::unique_ptr<SimulationModel> monitor_model_;
  CylPlan plan_;
};

// The engine on the device of `api` that cfg.select names (device::choose_device).
std::unique_ptr<Backend> make_cyl_engine(device::Api api, const SimulationModel& m,
                                         const DeviceConfig& cfg);

}  // namespace clfdtd::engine
