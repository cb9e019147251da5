// Modes that share a beta (GuidedMode::degenerate > 1: a square guide's TE10 and TE01, a round
// guide's or fibre's pair) come from the solver in an arbitrary combination. Any orthogonal
// rotation of such a group is again a set of modes, each carrying 1 W and orthogonal to the
// others; these pick the rotation a port needs.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

#include "model/mode_solver.hpp"

namespace clfdtd {

// The modes sharing modes[k]'s beta, as the solver grouped them (consecutive, each with
// `degenerate` = the group's size): [first, first + size).
std::pair<std::size_t, std::size_t> degenerate_group(const std::vector<GuidedMode>& modes, std::size_t k);

// Rotates the group holding modes[k] so that its first member has the most |E|^2 on the E_u
// samples (along_u) or on the E_v samples, the others following with less.
void polarize_group(std::vector<GuidedMode>& modes, std::size_t k, bool along_u);

// Rotates every group so that its first member is the combination most like the E profile
// (eu, ev): the profile's projection on the group.
void align_groups(std::vector<GuidedMode>& modes, const std::vector<double>& eu, const std::vector<double>& ev);

}  // namespace clfdtd
