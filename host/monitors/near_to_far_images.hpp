// The PEC-wall images both far-field transforms use (near_to_far.cpp in 3D, near_to_far_2d.cpp
// on a 2D contour). A monitor face lying on a bare PEC wall carries no current of its own; every
// other face's currents get their images in the wall: positions mirrored, J' = -R J (tangential
// reversed, normal kept), M' = R M, R the reflection of the wall's axis. With walls on several
// axes the images are those of every subset S of the walls: J' = (-1)^|S| R_S J at R_S r + t_S.
// Two walls on one axis (parallel plates: infinitely many images) are refused.
#pragma once
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "monitors/surface_fields.hpp"

namespace clfdtd {

// A bare PEC wall the surface touches: the plane x[axis] = position_m; directions with
// u[axis] * outward > 0 point behind it.
struct PecWall {
  int axis = 0;
  double position_m = 0;
  int outward = 1;
};

// The walls of s's faces on PEC walls, one per axis. Throws std::invalid_argument, starting with
// `who` ("near_to_far"), for walls at both ends of one axis.
std::vector<PecWall> pec_walls(const SurfaceFields& s, const std::string& who);

// True when direction u points behind one of the walls (no far field there).
bool behind_pec_wall(const std::vector<PecWall>& walls, const std::array<double, 3>& u);

// The image in the walls of subset `sub` (bit w set: wall w mirrors): r' = mirror * r + offset_m
// per axis, J' = parity * mirror * J, M' = mirror * M.
struct PecImage {
  int parity = 1;                        // (-1)^|S|
  std::array<double, 3> mirror{1, 1, 1};  // R_S, per axis
  std::array<double, 3> offset_m{};       // t_S: 2 * position on each mirrored axis
};
PecImage pec_image(const std::vector<PecWall>& walls, std::size_t sub);

}  // namespace clfdtd
