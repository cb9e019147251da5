// The monitors' stages on the GPU engine and the batching that drives them (model/monitors.hpp,
// cl_kernels/monitor_dft.cl, cl_kernels/mode_projection.cl). Every variant runs them the same
// way: they are Sample-phase stages reading the current field set, bound per parity (stage.hpp).
//   DFT monitor: dft_gather after every accumulate_dft(n) with n a multiple of the monitor's
//   decimation D into ring slot b, and dft_accumulate when the ring is full or before a read
//   (value = the slots filled), with the batch's weights e^(-i 2 pi f t) D dt computed here in
//   double and uploaded first.
//   modes monitor: mode_project into batch slot `slot`; the host adds the groups' partial sums.
#pragma once
#include <complex>
#include <functional>
#include <vector>

#include "engine/monitor_buffers.hpp"
#include "engine/plan.hpp"
#include "engine/stage.hpp"

namespace clfdtd::engine {

// What the monitors' stages read, from any engine: its device, its program (every embedded
// kernel: monitor_dft.cl and mode_projection.cl among them), the model and the six field buffers
// Ex Ey Ez Hx Hy Hz by parity (stage.hpp; an in-place engine gives one set twice), in the
// model's layout (3D: padded z rows; 2D: FieldLayout::xy_plane). A component a 2D model does not
// carry may be any valid buffer (a placeholder): no region reads it, and the projection reads a
// carried E buffer in its place against mode data zeroed there (MonitorBuffers).
struct MonitorInputs {
  device::Device& dev;
  device::Program program;
  const SimulationModel& m;
  std::array<FieldSet, 2> sets;
};
MonitorInputs monitor_inputs(const PlanInputs& in);  // the 3D engine's (YeeFields)

// Stages parallel to MonitorBuffers::dft (gather, accumulate) and ::modes (project).
struct MonitorStages {
  std::vector<Stage> gather, accumulate, project;
};
MonitorStages plan_monitors(const MonitorInputs& in, const MonitorBuffers& b);

// The weights of one batch of a DFT monitor of decimation `every`, as dft_accumulate reads them:
// for kind E (0) and H (1), slot b < steps.size() and frequency f, e^(-i 2 pi f t) every dt with
// t = dft_time(Ex or Hx, steps[b], dt); zero elsewhere.
// out[((kind * ring_slots + b) * nfreq_pad + f) * 2 + {0 re, 1 im}].
void dft_batch_weights(const std::vector<double>& frequencies_hz, const std::vector<long>& steps,
                       double dt, int every, int ring_slots, int nfreq_pad,
                       std::vector<float>& out);

class MonitorRunner {
public:
  using Launch = std::function<void(const Stage&, long value)>;

  // Allocates the monitors' buffers (the memory was checked with the fields') and binds their
  // stages. `launch` runs a stage on the engine's current field set.
  MonitorRunner(const MonitorInputs& in, int batch_steps, Launch launch);
  MonitorRunner(const PlanInputs& in, int batch_steps, Launch launch)
      : MonitorRunner(monitor_inputs(in), batch_steps, std::move(launch)) {}

  void accumulate_dft(long step);
  // Whether accumulate_dft(step) reads the fields (a flux, dft or farfield monitor samples step).
  bool dft_due(long step) const;
  void read_dft(int monitor, std::vector<std::complex<double>>& out);
  void sample_modes(int monitor, int slot);
  void read_mode_batch(int monitor, int slots, std::vector<double>& out);
  std::size_t allocated_bytes() const { return buf_.allocated; }  // the monitors' buffers

private:
  void flush_dft(std::size_t d);  // accumulates monitor d's filled ring slots
  bool samples(std::size_t d, long step) const;  // DFT monitor d transforms `step` (every D-th)
  std::size_t dft_position(int monitor) const;
  std::size_t mode_position(int monitor) const;

  device::Device& dev_;
  const SimulationModel& m_;
  int batch_steps_;
  Launch launch_;
  MonitorBuffers buf_;
  MonitorStages stages_;
  std::vector<std::vector<long>> ring_steps_;  // per DFT monitor: the steps in its ring, in order
  std::vector<float> weights_;
};

}  // namespace clfdtd::engine
