// The monitors' stages and their batching: see monitor_stages.hpp.
#include "engine/monitor_stages.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/variant_choice.hpp"
#include "errors.hpp"

namespace clfdtd::engine {

namespace {

// bind_kernel (plan.hpp) over the monitor inputs' field sets.
BoundKernel bind_monitor_kernel(const MonitorInputs& in, const std::string& name, const Bind& bind) {
  BoundKernel out;
  const bool two_sets = !in.sets[0][0].same(in.sets[1][0]);
  for (int p = 0; p < (two_sets ? 2 : 1); ++p) {
    out.kernel[p] = in.program.kernel(name);
    Args a(out.kernel[p]);
    bind(a, in.sets[p], in.sets[1 - p]);
    out.value_arg = a.value_arg();
  }
  if (!two_sets) out.kernel[1] = out.kernel[0];
  return out;
}

}  // namespace

MonitorInputs monitor_inputs(const PlanInputs& in) {
  return MonitorInputs{in.dev, in.program, in.m, in.f.set};
}

MonitorStages plan_monitors(const MonitorInputs& in, const MonitorBuffers& b) {
  const SimulationModel& m = in.m;
  const auto& L = m.layout;
  // The gather's cell index (i * ny + j) * nzp + k: a plane row i * nyp + j is that with
  // ny = nyp, nzp = 1 (k = 0).
  const int row = L.plane ? static_cast<int>(L.nyp()) : L.ny;
  const int depth = L.plane ? 1 : static_cast<int>(L.nzp());
  // The projection's E: a component the model does not carry reads a carried one (its mode
  // data is zero there).
  std::array<int, 3> e_of{0, 1, 2};
  int carried = 2;
  for (int c = 0; c < 3; ++c)
    if (m.is_active(static_cast<Component>(c))) carried = c;
  for (int c = 0; c < 3; ++c)
    if (!m.is_active(static_cast<Component>(c))) e_of[static_cast<std::size_t>(c)] = carried;
  MonitorStages out;
  for (const DftMonitorBuffers& d : b.dft) {
    BoundKernel g =
        bind_monitor_kernel(in, "dft_gather", [&](Args& a, const FieldSet& cur, const FieldSet&) {
          for (const auto& c : cur) a << c;
          a << d.regions << d.nregions << d.npoints << row << depth << d.ring;
          a.value();
        });
    out.gather.push_back(linear_stage(Phase::Sample, g, static_cast<std::size_t>(d.npoints)));
    BoundKernel k =
        bind_monitor_kernel(in, "dft_accumulate", [&](Args& a, const FieldSet&, const FieldSet&) {
          a << d.ring << d.regions << d.nregions << d.npoints << d.weights << d.ring_slots
            << d.nfreq << d.nfreq_pad << d.acc;
          a.value();
        });
    // Dimension 1: the frequency chunks of DFT_CHUNK.
    Stage s = linear_stage(Phase::Sample, k, static_cast<std::size_t>(d.npoints));
    s.global = device::Range(s.global[0], static_cast<std::size_t>(d.nfreq_pad / kDftChunk));
    s.local = device::Range(s.local[0], 1);
    out.accumulate.push_back(s);
  }
  const int count4 = static_cast<int>(L.cells() / 4);
  for (const ModeMonitorBuffers& d : b.modes) {
    // The largest power-of-two group up to kModeGroup this device runs the kernel with (the
    // local memory is sized for kModeGroup); at least kModeBlock, as the last store needs.
    int group = kModeGroup;
    auto bind_project = [&] {
      return bind_monitor_kernel(in, "mode_project", [&](Args& a, const FieldSet& cur, const FieldSet&) {
        a << cur[e_of[0]] << cur[e_of[1]] << cur[e_of[2]] << d.modes << d.nmodes << count4
          << d.groups * group
          << d.groups << d.partial;
        a.value();
      });
    };
    BoundKernel k = bind_project();
    for (;
         group >= kModeBlock && k.kernel[0].max_group_size() < static_cast<std::size_t>(group);
         group /= 2) {
    }
    if (group < kModeBlock) {
      throw DeviceError("the mode projection kernel needs work-groups of at least " +
                        std::to_string(kModeBlock) + " items; " + in.dev.info().name + " allows " +
                        std::to_string(k.kernel[0].max_group_size()));
    }
    if (group != kModeGroup) k = bind_project();  // the stride argument follows the group
    Stage s;
    s.phase = Phase::Sample;
    s.kernel = k.kernel;
    s.value_arg = k.value_arg;
    s.local = device::Range(static_cast<std::size_t>(group), 1);
    s.global = device::Range(static_cast<std::size_t>(d.groups) * group,
                             static_cast<std::size_t>((d.nmodes + kModeBlock - 1) / kModeBlock));
    out.project.push_back(s);
  }
  return out;
}

void dft_batch_weights(const std::vector<double>& frequencies_hz, const std::vector<long>& steps,
                       double dt, int every, int ring_slots, int nfreq_pad,
                       std::vector<float>& out) {
  const double weight = static_cast<double>(every) * dt;
  out.assign(2 * static_cast<std::size_t>(ring_slots) * nfreq_pad * 2, 0.0f);
  const double two_pi = 2 * std::acos(-1.0);
  for (int kind = 0; kind < 2; ++kind) {
    const Component c = kind == 0 ? Component::Ex : Component::Hx;
    for (std::size_t b = 0; b < steps.size() && b < static_cast<std::size_t>(ring_slots); ++b) {
      const double t = dft_time(c, steps[b], dt);
      for (std::size_t f = 0; f < frequencies_hz.size(); ++f) {
        const double phase = -two_pi * frequencies_hz[f] * t;
        const std::size_t at =
            ((static_cast<std::size_t>(kind) * ring_slots + b) * nfreq_pad + f) * 2;
        out[at] = static_cast<float>(std::cos(phase) * weight);
        out[at + 1] = static_cast<float>(std::sin(phase) * weight);
      }
    }
  }
}

MonitorRunner::MonitorRunner(const MonitorInputs& in, int batch_steps, Launch launch)
    : dev_(in.dev),
      m_(in.m),
      batch_steps_(batch_steps),
      launch_(std::move(launch)),
      buf_(in.dev, in.m, batch_steps),
      stages_(plan_monitors(in, buf_)),
      ring_steps_(buf_.dft.size()) {}

std::size_t MonitorRunner::dft_position(int monitor) const {
  for (std::size_t d = 0; d < buf_.dft.size(); ++d) {
    if (buf_.dft[d].monitor == monitor) return d;
  }
  return buf_.dft.size();
}

std::size_t MonitorRunner::mode_position(int monitor) const {
  for (std::size_t d = 0; d < buf_.modes.size(); ++d) {
    if (buf_.modes[d].monitor == monitor) return d;
  }
  return buf_.modes.size();
}

bool MonitorRunner::samples(std::size_t d, long step) const {
  return step % std::max(1, m_.monitors[static_cast<std::size_t>(buf_.dft[d].monitor)].dft_every) == 0;
}

bool MonitorRunner::dft_due(long step) const {
  for (std::size_t d = 0; d < buf_.dft.size(); ++d)
    if (samples(d, step)) return true;
  return false;
}

void MonitorRunner::accumulate_dft(long step) {
  for (std::size_t d = 0; d < buf_.dft.size(); ++d) {
    if (!samples(d, step)) continue;
    auto& steps = ring_steps_[d];
    launch_(stages_.gather[d], static_cast<long>(steps.size()));
    steps.push_back(step);
    if (static_cast<int>(steps.size()) == buf_.dft[d].ring_slots) flush_dft(d);
  }
}

void MonitorRunner::flush_dft(std::size_t d) {
  auto& steps = ring_steps_[d];
  if (steps.empty()) return;
  const DftMonitorBuffers& b = buf_.dft[d];
  const MonitorModel& mon = m_.monitors[static_cast<std::size_t>(b.monitor)];
  dft_batch_weights(mon.frequencies_hz, steps, m_.grid.dt, std::max(1, mon.dft_every),
                    b.ring_slots, b.nfreq_pad, weights_);
  // In-order queue: the previous batch's accumulate has read the weights before this upload.
  dev_.upload(b.weights, weights_.data(), weights_.size() * sizeof(float));
  launch_(stages_.accumulate[d], static_cast<long>(steps.size()));
  steps.clear();
}

void MonitorRunner::read_dft(int monitor, std::vector<std::complex<double>>& out) {
  out.clear();
  if (monitor < 0 || monitor >= static_cast<int>(m_.monitors.size()) ||
      !is_dft_monitor(m_.monitors[static_cast<std::size_t>(monitor)])) {
    throw DeviceError("read_dft: monitor " + std::to_string(monitor) +
                      " is not a flux, dft or farfield monitor of the model");
  }
  const std::size_t d = dft_position(monitor);
  if (d == buf_.dft.size()) return;  // no points or no frequencies: nothing to transform
  flush_dft(d);
  const DftMonitorBuffers& b = buf_.dft[d];
  const std::size_t np = static_cast<std::size_t>(b.npoints),
                    nf = static_cast<std::size_t>(b.nfreq);
  std::vector<float> acc(2 * nf * np);
  dev_.read(b.acc, acc.data(), acc.size() * sizeof(float));
  out.resize(np * nf);
  for (std::size_t f = 0; f < nf; ++f) {
    const float* re = acc.data() + 2 * f * np;
    const float* im = re + np;
    for (std::size_t p = 0; p < np; ++p) out[p * nf + f] = {re[p], im[p]};
  }
}

void MonitorRunner::sample_modes(int monitor, int slot) {
  if (slot < 0 || slot >= batch_steps_) {
    throw DeviceError("mode batch slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(batch_steps_ - 1));
  }
  if (monitor < 0 || monitor >= static_cast<int>(m_.monitors.size()) ||
      m_.monitors[static_cast<std::size_t>(monitor)].kind != MonitorKind::Modes) {
    throw DeviceError("sample_modes: monitor " + std::to_string(monitor) +
                      " is not a modes monitor of the model");
  }
  const std::size_t d = mode_position(monitor);
  if (d < buf_.modes.size()) launch_(stages_.project[d], slot);
}

void MonitorRunner::read_mode_batch(int monitor, int slots, std::vector<double>& out) {
  out.clear();
  const std::size_t d = mode_position(monitor);
  if (d == buf_.modes.size() || slots <= 0) return;
  slots = std::min(slots, batch_steps_);
  const ModeMonitorBuffers& b = buf_.modes[d];
  const std::size_t nk = static_cast<std::size_t>(b.nmodes),
                    ng = static_cast<std::size_t>(b.groups);
  std::vector<float> partial(static_cast<std::size_t>(slots) * nk * ng);
  dev_.read(b.partial, partial.data(), partial.size() * sizeof(float));
  const double dv = m_.grid.d[0] * m_.grid.d[1] * m_.grid.d[2];
  out.resize(static_cast<std::size_t>(slots) * nk);
  for (std::size_t r = 0; r < out.size(); ++r) {
    double sum = 0;
    for (std::size_t g = 0; g < ng; ++g) sum += partial[r * ng + g];
    out[r] = sum * dv;
  }
}

}  // namespace clfdtd::engine
