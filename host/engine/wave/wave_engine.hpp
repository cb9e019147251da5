// The scalar wave solver for 2D tm models ([grid] equation = wave) on any device of the device API,
// OpenCL or CUDA alike (contract2d.md, "Wave"; seed 001). Ez alone in the interior, u and u_prev
// swapping roles every step (8 bytes a cell plus the 1-byte id, against Yee tm's 12 + 1), advanced
// by the wave update; the frame around it (the UPML cells and a ring inside them, wave_frame.hpp)
// by Yee tm with UPML, so the whole equals Yee tm + UPML to float rounding.
// Kernels (cl_kernels/wave_interior.cl, wave_frame.cl), by device.variant:
//   tile  wave_pairsum: a work-group tile of u in local memory, the cross stencil's pair sums
//         formed once each and shared by two cells (seed 001; wave_cross when dx != dy);
//   rows  wave_rows: one work-item per x row, a plain loop along y, for CPUs;
//   auto  wave_cross on a GPU: the plain stencil, one cell per work-item, no local memory, which
//         runs at the memory's pace and beat the pair sums by ~1.6x on an H100
//         (choose_wave_kernel); rows otherwise. onepass does not exist in 2D.
// make_wave_engine(..., WaveKernel) runs any of the three (the benchmark's comparison).
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "device/device.hpp"
#include "engine/monitor_stages.hpp"
#include "engine/stage.hpp"
#include "engine/wave/wave_frame.hpp"

namespace clfdtd::engine {

enum class WaveKernel { PairSum, Cross, Rows };
const char* wave_kernel_name(WaveKernel k);  // "wave-pairsum", "wave-cross", "wave-rows"

// The interior kernel device.variant asks for on a device of `device_type` ("gpu", "cpu", ...)
// for m: tile -> PairSum (Cross when dx != dy), rows -> Rows, auto -> Cross on a GPU, else Rows.
// Throws ConfigError (key device.variant) for onepass.
WaveKernel choose_wave_kernel(const SimulationModel& m, KernelVariant v,
                              const std::string& device_type);

// Device bytes the wave engine allocates for m: u, u_prev, the Ez ids, the frames' H, auxiliaries
// and cell tables, the coefficient and profile tables, sources and probes, the monitors' buffers
// (no energy).
std::size_t wave_device_bytes(const SimulationModel& m, int probe_batch_steps);

class WaveEngine final : public Backend {
public:
  // Runs `m` (2D, tm, equation = wave, non-magnetic) on `dev` with `kernel` and cfg's work-group
  // (device.workgroup = X Y 1: the pair-sum or cross tile, X along x, Y along y; rows: X rows a
  // group). Throws ConfigError (a model the wave solver does not take, a bad work-group),
  // OutOfMemoryError (checked before allocating), DeviceError.
  WaveEngine(const SimulationModel& m, const DeviceConfig& cfg, WaveKernel kernel,
             std::unique_ptr<device::Device> dev);
  ~WaveEngine() override;

  std::string name() const override;                // "opencl", "cuda"
  std::string device_description() const override;  // "<device> (<platform>, <version>)"
  // "wave-pairsum 8x32x1", "wave-cross 8x32x1", "wave-rows 1x8x1"; then the code target where
  // the device has one ("... (sm_90)", CUDA), and " (tuned)" for a cached work-group.
  std::string kernel_variant() const override;

  void step(long s) override;
  void sample_probes(int slot) override;
  void read_probe_batch(int slots, std::vector<double>& out) override;
  int probe_batch_steps() const override { return kProbeBatchSteps; }
  // Ez: u at s dt; the other components are not carried: zeros.
  void read_field(Component c, std::vector<float>& out) override;
  bool fields_finite() override;
  void finish() override;
  double timed_steps(long first, long count) override;  // the device's timers
  double copy_bandwidth() override;
  bool has_device_timers() const override { return true; }
  std::string driver_version() const override { return dev_->info().driver; }
  std::size_t device_bytes(const SimulationModel& m) const override;
  // Monitors (engine/monitor_stages.hpp): dft and modes monitors of Ez (u) only.
  void accumulate_dft(long step) override;
  void read_dft(int monitor, std::vector<std::complex<double>>& out) override;
  void sample_modes(int monitor, int slot) override;
  void read_mode_batch(int monitor, int slots, std::vector<double>& out) override;

  WaveKernel kernel() const { return kernel_; }
  std::array<int, 3> workgroup() const { return wg_; }
  const WaveFrame& frame() const { return frame_; }

  static constexpr int kProbeBatchSteps = 256;

private:
  void launch(const Stage& st, long value);
  void build_buffers();
  void build_stages(const device::Program& program);

  const SimulationModel& m_;
  std::unique_ptr<device::Device> dev_;
  WaveKernel kernel_ = WaveKernel::PairSum;
  std::array<int, 3> wg_{};
  bool tuned_ = false;  // wg_ came from the tuning cache (kernel_variant says so)
  WaveFrame frame_;

  // u[p]: Ez after an even (p = 0) or odd (p = 1) number of steps; the step from parity p reads
  // u[p] and writes u[1 - p], which holds u^(n-1) until then.
  std::array<device::Buffer, 2> u_;
  device::Buffer id_, wcoef_, ecoef_, placeholder_;
  device::Buffer hx_, hy_, bx_, by_, dz_, h_cells_, e_cells_;
  std::array<device::Buffer, 4> profiles_;  // integer x, half x, integer y, half y
  device::Buffer src_cells_, src_dj_;       // (2, index) per merged source; J[s] - J[s-1]
  int nsrc_ = 0;
  long src_steps_ = 0;                      // entries per source in src_dj_
  device::Buffer probe_cells_, probe_batch_, flag_;
  int nsamples_ = 0;

  std::vector<Stage> plan_;  // H frame, E frame, interior, sources: kernel[parity]
  Stage probes_, finite_;
  int parity_ = 0;
  std::unique_ptr<MonitorRunner> monitors_;  // null when the model has no monitors
};

// The engine on the device of `api` that cfg.select names, with choose_wave_kernel's kernel (or
// `kernel` when given). Throws ConfigError (no such device, a model it does not take),
// DeviceError (no device at all), as the constructor.
std::unique_ptr<Backend> make_wave_engine(device::Api api, const SimulationModel& m,
                                          const DeviceConfig& cfg);
std::unique_ptr<WaveEngine> make_wave_engine(device::Api api, const SimulationModel& m,
                                             const DeviceConfig& cfg, WaveKernel kernel);

}  // namespace clfdtd::engine
