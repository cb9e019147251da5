// face_regions: see monitor_regions.hpp.
#include "model/monitor_regions.hpp"

#include <algorithm>

namespace clfdtd {

std::vector<DftRegion> face_regions(const MonitorFace& face, const std::array<int, 3>& n) {
  const int a = face.axis, p = face.plane;
  const int b0 = (a + 1) % 3, c0 = (a + 2) % 3;
  const int tb = std::min(b0, c0), tc = std::max(b0, c0);
  std::vector<DftRegion> out;
  auto add = [&](Component comp, std::array<int, 3> lo, std::array<int, 3> hi) {
    for (int x = 0; x < 3; ++x) {
      lo[x] = std::max(lo[x], 0);
      hi[x] = std::min(hi[x], n[x]);
    }
    DftRegion r{comp, lo, hi};
    if (r.count() > 0) out.push_back(r);
  };
  for (bool electric : {true, false}) {
    for (int b : {tb, tc}) {
      const int c = b == tb ? tc : tb;
      std::array<int, 3> lo{}, hi{};
      if (electric) {
        lo[a] = p, hi[a] = p + 1;
        lo[b] = face.lo[b], hi[b] = face.hi[b];
        lo[c] = face.lo[c], hi[c] = face.hi[c] + 1;
        add(static_cast<Component>(b), lo, hi);
      } else {
        lo[a] = p - 1, hi[a] = p + 1;
        lo[b] = face.lo[b], hi[b] = face.hi[b] + 1;
        lo[c] = face.lo[c], hi[c] = face.hi[c];
        add(static_cast<Component>(3 + b), lo, hi);
      }
    }
  }
  return out;
}

}  // namespace clfdtd
