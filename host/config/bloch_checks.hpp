// What a Bloch-periodic model (boundary.bloch_k, docs/PERIODIC.md) may hold in this version: its
// fields are complex (a real and an imaginary copy), and only what reads or drives them in ways
// that are defined for both copies is offered.
#pragma once
#include "config/run_config.hpp"

namespace clfdtd {

// Throws ConfigError (exit 2, naming the key) for a model with a non-zero boundary.bloch_k that
// also has a lumped or waveguide port, a plane wave, a dispersive material, a monitor, or a
// magnetic wall (boundary.pmc). Nothing for other models.
void check_bloch_config(const RunConfig& cfg);

}  // namespace clfdtd
