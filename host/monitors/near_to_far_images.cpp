// The wall images of the far-field transforms: see near_to_far_images.hpp.
#include "monitors/near_to_far_images.hpp"

#include <stdexcept>

namespace clfdtd {

std::vector<MirrorWall> mirror_walls(const SurfaceFields& s, const std::string& who) {
  std::vector<MirrorWall> walls;
  for (const MonitorFace& f : s.faces) {
    if (!f.on_wall) continue;
    const MirrorWall w{f.axis, f.plane * s.cell_m[static_cast<std::size_t>(f.axis)], f.normal, f.magnetic_wall};
    bool same = false;
    for (const MirrorWall& o : walls) {
      if (o.axis != w.axis) continue;
      if (o.position_m != w.position_m)
        throw std::invalid_argument(who + ": faces on walls at both ends of axis " + "xyz"[w.axis] +
                                    " (parallel plates have no finite set of images); at most "
                                    "one wall per axis");
      same = true;
    }
    if (!same) walls.push_back(w);
  }
  return walls;
}

bool behind_wall(const std::vector<MirrorWall>& walls, const std::array<double, 3>& u) {
  for (const MirrorWall& w : walls)
    if (!w.magnetic && u[static_cast<std::size_t>(w.axis)] * w.outward > 1e-12) return true;
  return false;
}

double whole_per_part(const std::vector<MirrorWall>& walls) {
  double n = 1;
  for (const MirrorWall& w : walls) n *= w.magnetic ? 2 : 1;
  return n;
}

WallImage wall_image(const std::vector<MirrorWall>& walls, std::size_t sub) {
  WallImage im;
  for (std::size_t w = 0; w < walls.size(); ++w) {
    if (!(sub >> w & 1)) continue;
    const auto ax = static_cast<std::size_t>(walls[w].axis);
    im.mirror[ax] = -1;
    im.offset_m[ax] = 2 * walls[w].position_m;
    (walls[w].magnetic ? im.m_parity : im.j_parity) *= -1;
  }
  return im;
}

}  // namespace clfdtd
