// Hand-built SurfaceFields for the monitor tests: the faces of a closed box (or one plane) in the
// order and with the normals model/monitors.hpp gives them, one point at the centre of each cell
// face, and fields from a function of position.
#pragma once
#include <array>
#include <complex>
#include <functional>
#include <vector>

#include "monitors/surface_fields.hpp"

namespace clfdtd::test {

using FieldAt = std::function<void(const Vec3& r, CVec3& e, CVec3& h)>;

// The face of node plane `plane` on `axis`, over the cells lo .. hi - 1 of the two other axes.
inline MonitorFace face_of(int axis, int plane, int normal, std::array<int, 3> lo,
                           std::array<int, 3> hi, bool on_wall = false) {
  MonitorFace f;
  f.axis = axis;
  f.plane = plane;
  f.normal = normal;
  lo[axis] = hi[axis] = plane;
  f.lo = lo;
  f.hi = hi;
  f.on_wall = on_wall;
  return f;
}

// The six outward faces of the box of nodes lo .. hi: x faces first, then y, then z, low first.
inline std::vector<MonitorFace> box_faces(std::array<int, 3> lo, std::array<int, 3> hi) {
  std::vector<MonitorFace> faces;
  for (int a = 0; a < 3; ++a) {
    faces.push_back(face_of(a, lo[a], -1, lo, hi));
    faces.push_back(face_of(a, hi[a], +1, lo, hi));
  }
  return faces;
}

// Points at the cell-face centres of every face, and `field` there at each frequency.
inline SurfaceFields sample_surface(std::vector<MonitorFace> faces, std::array<double, 3> d,
                                    const std::vector<double>& frequencies_hz,
                                    const std::function<FieldAt(double f)>& field_at_frequency) {
  SurfaceFields s;
  s.faces = std::move(faces);
  s.cell_m = d;
  s.frequencies_hz = frequencies_hz;
  for (std::size_t fi = 0; fi < s.faces.size(); ++fi) {
    const MonitorFace& face = s.faces[fi];
    const int a = face.axis, b = (a + 1) % 3, c = (a + 2) % 3;
    for (int i = face.lo[b]; i < face.hi[b]; ++i)
      for (int j = face.lo[c]; j < face.hi[c]; ++j) {
        SurfacePoint p;
        p.r_m[a] = face.plane * d[a];
        p.r_m[b] = (i + 0.5) * d[b];
        p.r_m[c] = (j + 0.5) * d[c];
        p.area_m2 = d[b] * d[c];
        p.face = static_cast<int>(fi);
        s.points.push_back(p);
      }
  }
  for (double f : frequencies_hz) {
    const FieldAt field = field_at_frequency(f);
    std::vector<CVec3> e(s.points.size()), h(s.points.size());
    for (std::size_t p = 0; p < s.points.size(); ++p) field(s.points[p].r_m, e[p], h[p]);
    s.e.push_back(std::move(e));
    s.h.push_back(std::move(h));
  }
  return s;
}

}  // namespace clfdtd::test
