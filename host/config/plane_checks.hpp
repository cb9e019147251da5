// 2D models (grid.dims == 2): the checks that need only the config, shared by load_config() (with
// the file's lines) and SimulationModel::build() (for configs made in code). docs/TWO_D.md lists
// what a 2D model, and a wave model in particular, refuses.
#pragma once
#include <vector>

#include "config/run_config.hpp"

namespace clfdtd {

// The components a 2D model carries: Ez Hx Hy (tm), Ex Ey Hz (te), Ez alone (wave).
std::vector<Component> plane_components(PlaneMode mode, Equation equation);

// Throws ConfigError (file, line, key) for what a 2D model cannot have: the wave equation in te,
// a cylinder, a source axis outside the mode's E components, a probe of a component the model
// does not carry, the onepass kernel variant; and for a wave model also mu_r != 1, output.energy
// and flux/farfield monitors. Does nothing for a 3D config.
void check_plane_config(const RunConfig& cfg);

}  // namespace clfdtd
