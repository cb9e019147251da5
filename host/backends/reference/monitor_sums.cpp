// MonitorSums: see monitor_sums.hpp. The loops are those of ReferenceBackend's monitors.
#include "backends/reference/monitor_sums.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "errors.hpp"
#include "model/host_memory.hpp"

namespace clfdtd {

MonitorSums::MonitorSums(const SimulationModel& m, int batch_steps, FieldOf field)
    : m_(m), batch_steps_(std::max(batch_steps, 1)), field_(std::move(field)) {
  std::size_t bytes = 0;
  for (const MonitorModel& mon : m.monitors) {
    const bool dft = mon.kind != MonitorKind::Modes;
    bytes += dft ? mon.points() * mon.frequencies_hz.size() * sizeof(std::complex<double>)
                 : static_cast<std::size_t>(batch_steps_) * mon.nmodes * sizeof(double);
  }
  check_host_memory(bytes, "the reference engine's monitor sums");
  const std::array<int, 3>& n = m.grid.n;
  for (const MonitorModel& mon : m.monitors) {
    const bool dft = mon.kind != MonitorKind::Modes;
    const std::size_t mode_values = static_cast<std::size_t>(mon.nmodes) * 3 * m.layout.cells();
    if (!dft && mon.modes.size() != mode_values)
      throw DeviceError("monitor " + mon.name + ": mode data holds " +
                        std::to_string(mon.modes.size()) + " values, expected " +
                        std::to_string(mode_values) + " (modes x 3 x padded cells)");
    for (const DftRegion& r : mon.regions)
      for (int a = 0; a < 3; ++a)
        if (r.count() > 0 && (r.lo[a] < 0 || r.hi[a] > n[a]))
          throw DeviceError("monitor " + mon.name + ": a " + component_name(r.component) +
                            " region covers cells " + std::to_string(r.lo[a]) + ".." +
                            std::to_string(r.hi[a] - 1) + " along axis " + "xyz"[a] +
                            ", outside the grid's 0.." + std::to_string(n[a] - 1));
    dft_.emplace_back(dft ? mon.points() * mon.frequencies_hz.size() : 0);
    mode_batch_.emplace_back(dft ? 0 : static_cast<std::size_t>(batch_steps_) * mon.nmodes);
  }
}

void MonitorSums::accumulate_dft(long step) {
  const double two_pi = 2 * std::acos(-1.0);
  const double dt = m_.grid.dt;
  std::vector<std::complex<double>> w;  // e^(-i 2 pi f t) D dt of the current region's component
  for (std::size_t mi = 0; mi < m_.monitors.size(); ++mi) {
    const MonitorModel& mon = m_.monitors[mi];
    if (mon.kind == MonitorKind::Modes) continue;
    const long every = std::max(1, mon.dft_every);
    if (step % every != 0) continue;
    const double weight = static_cast<double>(every) * dt;
    const std::size_t nf = mon.frequencies_hz.size();
    std::size_t point = 0;
    for (const DftRegion& r : mon.regions) {
      const std::vector<double>* field = field_(r.component);
      if (!field) {  // a component the engine does not carry: zero, nothing to add
        point += r.count();
        continue;
      }
      const double t = dft_time(r.component, step, dt);
      w.resize(nf);
      for (std::size_t f = 0; f < nf; ++f) w[f] = std::polar(weight, -two_pi * mon.frequencies_hz[f] * t);
      for (int i = r.lo[0]; i < r.hi[0]; ++i)
        for (int j = r.lo[1]; j < r.hi[1]; ++j)
          for (int k = r.lo[2]; k < r.hi[2]; ++k, ++point) {
            const double x = (*field)[m_.layout.index(i, j, k)];
            for (std::size_t f = 0; f < nf; ++f) dft_[mi][point * nf + f] += x * w[f];
          }
    }
  }
}

void MonitorSums::read_dft(int monitor, std::vector<std::complex<double>>& out) const {
  if (monitor < 0 || monitor >= static_cast<int>(m_.monitors.size()) ||
      m_.monitors[static_cast<std::size_t>(monitor)].kind == MonitorKind::Modes)
    throw DeviceError("read_dft: monitor " + std::to_string(monitor) +
                      " is not a flux, dft or farfield monitor of the model");
  out = dft_[static_cast<std::size_t>(monitor)];
}

void MonitorSums::sample_modes(int monitor, int slot) {
  if (monitor < 0 || monitor >= static_cast<int>(m_.monitors.size()) ||
      m_.monitors[static_cast<std::size_t>(monitor)].kind != MonitorKind::Modes)
    throw DeviceError("sample_modes: monitor " + std::to_string(monitor) +
                      " is not a modes monitor of the model");
  if (slot < 0 || slot >= batch_steps_)
    throw DeviceError("mode batch slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(batch_steps_ - 1));
  const MonitorModel& mon = m_.monitors[static_cast<std::size_t>(monitor)];
  const std::size_t cells = m_.layout.cells();
  const double dv = m_.grid.d[0] * m_.grid.d[1] * m_.grid.d[2];
  for (int k = 0; k < mon.nmodes; ++k) {
    double sum = 0;  // sum over cells of E . mode_k
    for (int c = 0; c < 3; ++c) {
      const std::vector<double>* e = field_(static_cast<Component>(c));
      if (!e) continue;
      const float* mode = mon.modes.data() + (static_cast<std::size_t>(k) * 3 + c) * cells;
      for (std::size_t q = 0; q < cells; ++q) sum += (*e)[q] * mode[q];
    }
    mode_batch_[static_cast<std::size_t>(monitor)][static_cast<std::size_t>(slot) * mon.nmodes + k] =
        sum * dv;
  }
}

void MonitorSums::read_mode_batch(int monitor, int slots, std::vector<double>& out) const {
  out.clear();
  if (monitor < 0 || monitor >= static_cast<int>(m_.monitors.size()) || slots <= 0) return;
  const auto& batch = mode_batch_[static_cast<std::size_t>(monitor)];
  const auto nmodes = static_cast<std::size_t>(m_.monitors[static_cast<std::size_t>(monitor)].nmodes);
  const std::size_t n = std::min(batch.size(), static_cast<std::size_t>(slots) * nmodes);
  out.assign(batch.begin(), batch.begin() + static_cast<std::ptrdiff_t>(n));
}

}  // namespace clfdtd
