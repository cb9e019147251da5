// The Yee samples a monitor face needs, as DftRegions (the rule the builder applies and the
// surface interpolation reads back; model/monitors.hpp). For the face (axis a, node plane p,
// cells lo..hi-1 on the tangential axes) and each tangential axis b with the other one c:
//   E_b: a in [p, p+1),   b in [lo_b, hi_b),     c in [lo_c, hi_c + 1)   (averaged along c)
//   H_b: a in [p-1, p+1), b in [lo_b, hi_b + 1), c in [lo_c, hi_c)       (averaged along a and b)
// so that every component reaches the centre (b + 1/2, c + 1/2) of each cell face on the plane.
// Each range is clipped to [0, n) (a sample outside the grid reads zero: the PEC wall, or past
// the high end); regions with nothing left are dropped. Order: E_b, E_c, H_b, H_c with b < c.
#pragma once
#include <array>
#include <vector>

#include "model/monitors.hpp"

namespace clfdtd {

std::vector<DftRegion> face_regions(const MonitorFace& face, const std::array<int, 3>& n);

}  // namespace clfdtd
