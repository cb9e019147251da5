// The GPU engine: the 3D Yee solver on any device of the device API (host/device/device.hpp),
// OpenCL or CUDA alike. Setup happens once in the constructor: the variant and work-group
// (variant_choice.hpp), the device buffers (yee_fields.hpp, which owns the device memory), and
// the stage list of one step with every kernel argument bound (plan.hpp). step() walks that list
// phase by phase; probes, energy and the finite check are stages of the same kind, run between
// steps, and so are the monitors' (monitor_stages.hpp). The engine is destroyed before the SimulationModel it refers to.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "device/device.hpp"
#include "engine/monitor_stages.hpp"
#include "engine/stage.hpp"
#include "engine/yee_fields.hpp"

namespace clfdtd::engine {

class GpuEngine final : public Backend {
public:
  // Runs `m` on `dev` with cfg's variant and work-group (cfg.select was used to open `dev`).
  // Throws ConfigError (a variant the engine does not have), OutOfMemoryError, DeviceError.
  GpuEngine(const SimulationModel& m, const DeviceConfig& cfg, std::unique_ptr<device::Device> dev);
  ~GpuEngine() override;

  std::string name() const override;                // "opencl", "cuda"
  std::string device_description() const override;  // "<device> (<platform>, <version>)"
  // "onepass 8x2x32", "float4-tile 2x2x30", "rows 1x8x1"; then the device's code target where
  // it has one ("... (sm_90)", CUDA), and " (tuned)" when the choice came from the tuning cache.
  std::string kernel_variant() const override;

  void step(long s) override;
  void sample_probes(int slot) override;
  void read_probe_batch(int slots, std::vector<double>& out) override;
  int probe_batch_steps() const override { return kProbeBatchSteps; }
  void read_field(Component c, std::vector<float>& out) override;
  bool fields_finite() override;
  void finish() override;
  void sample_energy(int slot) override;
  void read_energy_batch(int slots, std::vector<EnergyTerms>& out) override;
  // Monitors (monitor_stages.hpp): every variant, stages reading the current field set.
  void accumulate_dft(long step) override;
  void read_dft(int monitor, std::vector<std::complex<double>>& out) override;
  void sample_modes(int monitor, int slot) override;
  void read_mode_batch(int monitor, int slots, std::vector<double>& out) override;
  double timed_steps(long first, long count) override;  // the device's timers
  double copy_bandwidth() override;  // best of five device-to-device copies, device-timed
  bool has_device_timers() const override { return true; }
  std::string driver_version() const override { return dev_->info().driver; }
  bool one_pass() const override { return variant_ == KernelVariant::OnePass; }
  // The chosen variant's allocation (device_tables.hpp variant_device_bytes); m is the model
  // this engine was built for.
  std::size_t device_bytes(const SimulationModel& m) const override;

  const device::DeviceInfo& device_info() const { return dev_->info(); }
  KernelVariant variant() const { return variant_; }     // Tile, OnePass or Rows, never Auto
  std::array<int, 3> workgroup() const { return wg_; }   // x, y, z (z4 for tile and onepass)
  const StepPlan& plan() const { return plan_; }

  static constexpr int kProbeBatchSteps = 256;

private:
  void run_phase(Phase phase, long s);
  void launch(const Stage& st, long value);

  const SimulationModel& m_;
  std::unique_ptr<device::Device> dev_;
  KernelVariant variant_ = KernelVariant::Tile;
  std::array<int, 3> wg_{};
  bool tuned_ = false;
  std::unique_ptr<YeeFields> fields_;
  StepPlan plan_;
  Stage probes_, energy_, finite_;
  std::unique_ptr<MonitorRunner> monitors_;  // null when the model has no monitors
  int parity_ = 0;  // steps taken, mod 2: which field set is current (stage.hpp)
};

// The device's copy bandwidth in bytes per second (read + write counted): the best of five
// device-to-device copies of a large buffer, device-timed; 0 when too little memory is free.
double device_copy_bandwidth(device::Device& dev);

// The engine on the device of `api` that cfg.select names (device::choose_device).
// Throws ConfigError (no such device), DeviceError (none at all), as the constructor.
std::unique_ptr<GpuEngine> make_gpu_engine(device::Api api, const SimulationModel& m,
                                           const DeviceConfig& cfg);

}  // namespace clfdtd::engine
