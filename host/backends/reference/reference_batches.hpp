// The batches the reference backends (ReferenceBackend, PlaneReference) fill between reads, as
// the GPU engines fill theirs on the device: the probe samples, [slot * samples + sample], and
// the energy terms, one per slot, allocated at the first energy sample.
#pragma once
#include <cstddef>
#include <vector>

#include "backends/backend.hpp"

namespace clfdtd {

class ReferenceBatches {
public:
  ReferenceBatches(int steps, std::size_t samples);

  // Where slot `slot`'s samples go (`samples` values).
  double* probe_slot(int slot) { return probes_.data() + static_cast<std::size_t>(slot) * samples_; }
  // The first `slots` slots, as Backend::read_probe_batch gives them.
  void read_probes(int slots, std::vector<double>& out) const;

  // Checks `slot` (DeviceError outside 0..steps - 1) and allocates the energy slots at the first
  // call; returns true at that first call (the caller then starts its H copy at zero).
  bool begin_energy(int slot);
  void store_energy(int slot, const EnergyTerms& terms) {
    energy_[static_cast<std::size_t>(slot)] = terms;
  }
  // The first `slots` slots filled so far (none before the first energy sample).
  void read_energy(int slots, std::vector<EnergyTerms>& out) const;

  std::size_t probe_values() const { return probes_.size(); }

private:
  int steps_;
  std::size_t samples_;
  std::vector<double> probes_;
  std::vector<EnergyTerms> energy_;
};

}  // namespace clfdtd
