// The reference backends' probe and energy batches: see reference_batches.hpp.
#include "backends/reference/reference_batches.hpp"

#include <algorithm>
#include <string>

#include "errors.hpp"

namespace clfdtd {

ReferenceBatches::ReferenceBatches(int steps, std::size_t samples)
    : steps_(steps), samples_(samples), probes_(static_cast<std::size_t>(steps) * samples, 0.0) {}

void ReferenceBatches::read_probes(int slots, std::vector<double>& out) const {
  const std::size_t n = static_cast<std::size_t>(slots) * samples_;
  out.assign(probes_.begin(), probes_.begin() + static_cast<std::ptrdiff_t>(n));
}

bool ReferenceBatches::begin_energy(int slot) {
  if (slot < 0 || slot >= steps_) {
    throw DeviceError("energy batch slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(steps_ - 1));
  }
  if (!energy_.empty()) return false;
  energy_.assign(static_cast<std::size_t>(steps_), EnergyTerms{});
  return true;
}

void ReferenceBatches::read_energy(int slots, std::vector<EnergyTerms>& out) const {
  const std::size_t n =
      std::min<std::size_t>(static_cast<std::size_t>(std::max(slots, 0)), energy_.size());
  out.assign(energy_.begin(), energy_.begin() + static_cast<std::ptrdiff_t>(n));
}

}  // namespace clfdtd
