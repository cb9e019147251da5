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

// Rotates the group holding modes[k] so that its first member has the largest share of its
// transverse |E|^2 on the E_u samples (along_u) or on the E_v samples, each next one the largest
// share over the combinations orthogonal (in power) to those before.
void polarize_group(std::vector<GuidedMode>& modes, std::size_t k, bool along_u);

// How far the group holding modes[k] is from having orthogonal combinations along u and along v:
// |c_u . c_v| for the first members polarize_group would pick either way (0 for a TE pair such as
// a square guide's TE10 and TE01; a TE and a TM mode of one beta, a square guide's TE11 and TM11,
// leave the two overlapping in power). 0 for a mode alone.
double polarization_overlap(const std::vector<GuidedMode>& modes, std::size_t k);

// polarize_group for every group of the list: the combination it lists (clfdtd modes,
// mode_expansion monitors) then does not depend on the solver's start vector.
void polarize_groups(std::vector<GuidedMode>& modes, bool along_u);

// solve_modes's first `count` modes with every group turned by polarize_groups(along_u = true),
// a group that the count cuts solved whole first: the rows mean the same whatever the count.
std::vector<GuidedMode> solve_modes_turned(const CrossSection& cs, double f_hz, int count);

// Rotates every group so that its first member is the combination most like the E profile
// (eu, ev): the largest cosine between its transverse E and the profile.
void align_groups(std::vector<GuidedMode>& modes, const std::vector<double>& eu, const std::vector<double>& ev);

}  // namespace clfdtd
