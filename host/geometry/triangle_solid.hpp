// A closed triangle surface read as a solid (object.*.shape = mesh, docs/MODEL_KEYS.md): which
// points it holds, its bounds and its volume. Where every edge is used once in each direction (a
// consistently oriented export) the inside is the nonzero winding rule: a vertical line from the
// point upwards leaves the surface through more faces than it enters, so bodies that overlap
// (a multi-body export) are their union and an inward-facing shell inside another is a cavity.
// Otherwise it is the even-odd rule (an odd number of crossings), which needs no orientation.
// As for the analytic shapes (model/shapes.hpp), the surface itself counts as inside, within a
// tolerance of 1e-7 of the mesh's size and position, or more where the caller says (the float32
// rounding of the files' corners): a face on a grid plane includes that plane.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "geometry/solid.hpp"

namespace clfdtd {

struct TriangleMesh {
  std::vector<Point3> points;
  std::vector<std::array<int, 3>> triangles;  // corners: indices into points
};

// Why a surface does not enclose a solid: an edge that an odd number of triangles share (a hole,
// or a face hanging loose), with the first one found; triangles with a corner given twice are
// not counted (they cover nothing).
struct OpenEdges {
  std::size_t count = 0;
  Point3 a{}, b{};  // the first open edge's ends
};
OpenEdges open_edges(const TriangleMesh& mesh);

// Whether every edge is used once in each direction: the surface is consistently oriented, so
// its signed volume is its volume.
bool consistently_oriented(const TriangleMesh& mesh);

class TriangleSolid : public Solid {
public:
  // The mesh must be closed (open_edges(mesh).count == 0); triangles that are points or lines
  // are dropped. The tolerance is 1e-7 of the mesh's size and position, or `min_tolerance` (m)
  // where that is larger (corners rounded far from where they were placed).
  explicit TriangleSolid(TriangleMesh mesh, double min_tolerance = 0);

  bool contains(const Point3& p) const override;
  const Point3& lo() const override { return lo_; }
  const Point3& hi() const override { return hi_; }
  std::size_t triangle_count() const { return tri_.size(); }
  // The volume from the divergence theorem (|sum of signed tetrahedra|): the enclosed volume of a
  // consistently oriented surface whose bodies do not overlap (overlaps count twice), otherwise
  // an estimate.
  double volume() const override;

  // What a vertical line at (x, y) meets, sorted by z: where it crosses the surface (and which
  // way the face there looks), and the z ranges where it runs within the tolerance of it (a face
  // along z, or a crossing).
  struct Crossing {
    double z;
    int facing;  // +1: the face looks towards +z (the line leaves the solid there), -1: towards -z
    bool operator<(const Crossing& o) const { return z < o.z; }
  };
  struct Column {
    std::vector<Crossing> crossings;
    std::vector<std::array<double, 2>> near;  // merged, disjoint, ascending
  };
  Column column(double x, double y) const;

private:
  struct Tri {
    Point3 a, b, c;
    double xlo, xhi, ylo, yhi;  // bounds in x and y
  };
  int bin_x(double x) const;
  int bin_y(double y) const;
  const Column& cached_column(double x, double y) const;

  std::vector<Tri> tri_;
  Point3 lo_{}, hi_{};
  double tol_ = 0;
  int nbx_ = 1, nby_ = 1;
  double inv_bx_ = 0, inv_by_ = 0;
  bool oriented_ = false;  // nonzero winding (else even-odd)
  std::vector<std::size_t> bin_start_;  // bin b's triangles: bin_tris_[start[b]..start[b+1])
  std::vector<std::uint32_t> bin_tris_;
  std::uint64_t serial_ = 0;  // tells this solid's columns apart in the per-thread cache
};

}  // namespace clfdtd
