// Flux monitors of a cylindrical model: see cyl_monitor_build.hpp.
#include "model/cyl_monitor_build.hpp"

#include "model/monitor_build.hpp"

namespace clfdtd {

std::vector<MonitorFace> cyl_monitor_faces(const std::array<int, 3>& lo, const std::array<int, 3>& hi) {
  auto face = [&](int a, int plane, int normal) {
    MonitorFace f;
    f.axis = a;
    f.plane = plane;
    f.normal = normal;
    f.lo = lo;
    f.hi = hi;
    f.lo[a] = f.hi[a] = plane;
    return f;
  };
  std::vector<MonitorFace> faces;
  for (int a : {0, 2}) {
    if (lo[a] == hi[a]) return {face(a, lo[a], +1)};
  }
  if (lo[0] > 0) faces.push_back(face(0, lo[0], -1));
  faces.push_back(face(0, hi[0], +1));
  faces.push_back(face(2, lo[2], -1));
  faces.push_back(face(2, hi[2], +1));
  return faces;
}

std::vector<DftRegion> cyl_monitor_regions(const std::vector<MonitorFace>& faces,
                                           const std::array<int, 3>& n) {
  std::vector<DftRegion> out;
  for (const MonitorFace& f : faces)
    for (const DftRegion& r : face_regions(f, n)) out.push_back(r);
  return out;
}

std::size_t cyl_monitor_points(const MonitorModel& mon, int mode_slots) {
  return 2 * static_cast<std::size_t>(mode_slots) * mon.points();
}

std::vector<DftRegion> cyl_stacked_regions(const MonitorModel& mon, int mode_slots, int nr) {
  std::vector<DftRegion> out;
  for (int plane = 0; plane < 2 * mode_slots; ++plane) {
    for (DftRegion r : mon.regions) {
      r.lo[0] += plane * nr;
      r.hi[0] += plane * nr;
      out.push_back(r);
    }
  }
  return out;
}

}  // namespace clfdtd
