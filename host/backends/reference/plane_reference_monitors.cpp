// PlaneReference's monitors (plane_reference.hpp): the plain double sums of MonitorSums over the
// plane layout's arrays of the components the model carries. The wave equation keeps H only in
// its frame (not on the layout), and its model carries Ez alone: H reads as absent there.
#include "backends/reference/plane_reference.hpp"

#include "errors.hpp"

namespace clfdtd {

void PlaneReference::init_monitors() {
  if (m_.monitors.empty()) return;
  monitors_ = std::make_unique<MonitorSums>(
      m_, kProbeBatchSteps, [this](Component c) -> const std::vector<double>* {
        return m_.is_active(c) ? &f_[static_cast<int>(c)] : nullptr;
      });
}

void PlaneReference::accumulate_dft(long step) {
  if (monitors_) monitors_->accumulate_dft(step);
}

void PlaneReference::read_dft(int monitor, std::vector<std::complex<double>>& out) {
  if (!monitors_) throw DeviceError("read_dft: the model has no monitors");
  monitors_->read_dft(monitor, out);
}

void PlaneReference::sample_modes(int monitor, int slot) {
  if (!monitors_) throw DeviceError("sample_modes: the model has no monitors");
  monitors_->sample_modes(monitor, slot);
}

void PlaneReference::read_mode_batch(int monitor, int slots, std::vector<double>& out) {
  if (!monitors_) throw DeviceError("read_mode_batch: the model has no monitors");
  monitors_->read_mode_batch(monitor, slots, out);
}

}  // namespace clfdtd
