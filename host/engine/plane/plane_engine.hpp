// The 2D Yee engine (grid.dims = 2, equation = maxwell; tm: Ez Hx Hy, te: Hz Ex Ey) on any
// device of the device API, OpenCL or CUDA alike, from the same kernels (cl_kernels/plane_*.cl,
// with sources.cl, probes.cl and check_finite.cl). Setup happens once in the constructor: the
// variant and work-group (plane_variant.hpp), the device buffers (plane_fields.hpp, which owns
// the device memory), and the stage list of one step with every argument bound
// (plane_plan.hpp). The engine is destroyed before the SimulationModel it refers to.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "device/device.hpp"
#include "engine/monitor_stages.hpp"
#include "engine/plane/plane_fields.hpp"
#include "engine/plane/plane_plan.hpp"

namespace clfdtd::engine {

class PlaneEngine final : public Backend {
public:
  // Runs the 2D model `m` on `dev` with cfg's variant and work-group. Throws ConfigError
  // (device.variant = onepass), OutOfMemoryError,
  // DeviceError (also for a 3D model or equation = wave, which other engines run).
  PlaneEngine(const SimulationModel& m, const DeviceConfig& cfg,
              std::unique_ptr<device::Device> dev);
  ~PlaneEngine() override;

  std::string name() const override;                // "opencl", "cuda"
  std::string device_description() const override;  // "<device> (<platform>, <version>)"
  // "plane-tile 8x16x1" (wx x wy4 x 1), "plane-rows 1x64x1" (W rows per group); then the
  // device's code target where it has one ("... (sm_90)", CUDA), and " (tuned)" for a cached group.
  std::string kernel_variant() const override;

  void step(long s) override;
  void sample_probes(int slot) override;
  void read_probe_batch(int slots, std::vector<double>& out) override;
  int probe_batch_steps() const override { return kProbeBatchSteps; }
  // out[i * ny + j], nx * ny floats; zeros for a component the mode does not carry.
  void read_field(Component c, std::vector<float>& out) override;
  bool fields_finite() override;
  void finish() override;
  void sample_energy(int slot) override;
  void read_energy_batch(int slots, std::vector<EnergyTerms>& out) override;
  // Monitors (engine/monitor_stages.hpp): the 3D engine's stages over the plane layout.
  void accumulate_dft(long step) override;
  void read_dft(int monitor, std::vector<std::complex<double>>& out) override;
  void sample_modes(int monitor, int slot) override;
  void read_mode_batch(int monitor, int slots, std::vector<double>& out) override;
  double timed_steps(long first, long count) override;  // the device's timers
  double copy_bandwidth() override;
  bool has_device_timers() const override { return true; }
  std::string driver_version() const override { return dev_->info().driver; }
  // plane_device_bytes: every buffer this engine allocated (m: the model it was built for).
  std::size_t device_bytes(const SimulationModel& m) const override;

  KernelVariant variant() const { return variant_; }    // Tile or Rows
  std::array<int, 3> workgroup() const { return wg_; }  // tile (wx, wy4, 1), rows (1, W, 1)
  const PlaneFields& fields() const { return *fields_; }
  const StepPlan& plan() const { return plan_.step; }

  static constexpr int kProbeBatchSteps = 256;

private:
  void launch(const Stage& st, long value);

  const SimulationModel& m_;
  std::unique_ptr<device::Device> dev_;
  KernelVariant variant_ = KernelVariant::Tile;
  std::array<int, 3> wg_{};
  bool tuned_ = false;  // wg_ came from the tuning cache (kernel_variant says so)
  std::unique_ptr<PlaneFields> fields_;
  PlanePlan plan_;
  std::unique_ptr<MonitorRunner> monitors_;  // null when the model has no monitors
};

// The engine on the device of `api` that cfg.select names (device::choose_device).
// Throws ConfigError (no such device), DeviceError (none at all), as the constructor.
std::unique_ptr<Backend> make_plane_engine(device::Api api, const SimulationModel& m,
                                           const DeviceConfig& cfg);

}  // namespace clfdtd::engine
