// The wall images both far-field transforms use (near_to_far.cpp in 3D, near_to_far_2d.cpp on a
// 2D contour). A monitor face lying on a bare PEC wall or a magnetic wall (boundary.pmc) carries
// no current that radiates (its currents and their images cancel); every other face's currents
// get their images in the wall, positions mirrored by R, the reflection of the wall's axis:
//   PEC wall:      J' = -R J (tangential reversed, normal kept),  M' =  R M;
//   magnetic wall: J' =  R J,                                     M' = -R M.
// With walls on several axes the images are those of every subset S of the walls:
// J' = (-1)^|S_pec| R_S J, M' = (-1)^|S_pmc| R_S M at R_S r + t_S. Two walls on one axis
// (parallel plates: infinitely many images) are refused.
//
// What the images stand for differs. A PEC wall is taken as a ground plane: the far field exists
// only in front of it. A magnetic wall is a symmetry plane: the images are the rest of the
// symmetric whole, whose pattern covers every direction and whose power is 2 per magnetic wall
// times the simulated part's.
#pragma once
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "monitors/surface_fields.hpp"

namespace clfdtd {

// A wall the surface touches: the plane x[axis] = position_m; directions with
// u[axis] * outward > 0 point behind it.
struct MirrorWall {
  int axis = 0;
  double position_m = 0;
  int outward = 1;
  bool magnetic = false;  // boundary.pmc: a symmetry plane, not a ground plane
};

// The walls of s's faces on walls, one per axis. Throws std::invalid_argument, starting with
// `who` ("near_to_far"), for walls at both ends of one axis.
std::vector<MirrorWall> mirror_walls(const SurfaceFields& s, const std::string& who);

// True when direction u points behind one of the PEC walls (no far field there; the magnetic
// walls' images radiate behind them).
bool behind_wall(const std::vector<MirrorWall>& walls, const std::array<double, 3>& u);

// How many times the simulated part the symmetric whole is: 2 per magnetic wall.
double whole_per_part(const std::vector<MirrorWall>& walls);

// The image in the walls of subset `sub` (bit w set: wall w mirrors): r' = mirror * r + offset_m
// per axis, J' = j_parity * mirror * J, M' = m_parity * mirror * M.
struct WallImage {
  int j_parity = 1;                       // (-1)^(PEC walls in S)
  int m_parity = 1;                       // (-1)^(magnetic walls in S)
  std::array<double, 3> mirror{1, 1, 1};  // R_S, per axis
  std::array<double, 3> offset_m{};       // t_S: 2 * position on each mirrored axis
};
WallImage wall_image(const std::vector<MirrorWall>& walls, std::size_t sub);

}  // namespace clfdtd
