// The PEC-wall images of the far-field transforms: see near_to_far_images.hpp.
#include "monitors/near_to_far_images.hpp"

#include <stdexcept>

namespace clfdtd {

std::vector<PecWall> pec_walls(const SurfaceFields& s, const std::string& who) {
  std::vector<PecWall> walls;
  for (const MonitorFace& f : s.faces) {
    if (!f.on_pec_wall) continue;
    const PecWall w{f.axis, f.plane * s.cell_m[static_cast<std::size_t>(f.axis)], f.normal};
    bool same = false;
    for (const PecWall& o : walls) {
      if (o.axis != w.axis) continue;
      if (o.position_m != w.position_m)
        throw std::invalid_argument(who + ": faces on PEC walls at both ends of axis " +
                                    "xyz"[w.axis] +
                                    " (parallel plates have no finite set of images); at most "
                                    "one PEC wall per axis");
      same = true;
    }
    if (!same) walls.push_back(w);
  }
  return walls;
}

bool behind_pec_wall(const std::vector<PecWall>& walls, const std::array<double, 3>& u) {
  for (const PecWall& w : walls)
    if (u[static_cast<std::size_t>(w.axis)] * w.outward > 1e-12) return true;
  return false;
}

PecImage pec_image(const std::vector<PecWall>& walls, std::size_t sub) {
  PecImage im;
  for (std::size_t w = 0; w < walls.size(); ++w) {
    if (!(sub >> w & 1)) continue;
    const auto ax = static_cast<std::size_t>(walls[w].axis);
    im.mirror[ax] = -1;
    im.offset_m[ax] = 2 * walls[w].position_m;
    im.parity = -im.parity;
  }
  return im;
}

}  // namespace clfdtd
