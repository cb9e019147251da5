// Patent step 2: paint the objects onto every staggered component grid.
// Cost matters on 512^3 grids: the background is one fill, then each object visits only the index
// range of its bounding box (plus one index of slack per side for rounding), never the whole grid,
// and along z fills the run of inside samples instead of testing each one.
#include "model/mesher.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "errors.hpp"
#include "geometry/solid.hpp"
#include "model/shapes.hpp"

namespace clfdtd {

namespace {

struct Bounds {
  Vec3 lo, hi;
};

Bounds shape_bounds(const ObjectConfig& o);

// An object as the painting reads it: its keys, for a prism its cross-section's PolygonIndex
// (built once, so a point tests a few edges instead of every corner), its bounds, and along a
// periodic axis (boundary.periodic) that it reaches within a cell of an end of, the period: the
// grid then holds the object's copies one or more periods away as well (contains()), and `reach`
// spans the whole axis.
struct Shape : ObjectConfig {
  std::shared_ptr<const PolygonIndex> cross_section;
  Bounds own, reach;
  std::array<double, 3> period{};  // 0 where the object does not wrap
  bool wraps = false;
  // Along an axis with a magnetic wall (boundary.pmc) that the object reaches within a cell of:
  // the grid holds the object's mirror image too (points before the wall are read mirrored).
  std::array<bool, 3> mirror{};
  bool mirrors = false;
};

std::vector<Shape> indexed_shapes(const std::vector<ObjectConfig>& objects, const GridGeometry& g) {
  std::vector<Shape> out;
  out.reserve(objects.size());
  for (const ObjectConfig& o : objects) {
    Shape s;
    static_cast<ObjectConfig&>(s) = o;
    if (o.shape == ShapeKind::Prism) s.cross_section = std::make_shared<const PolygonIndex>(o.vertices);
    s.own = s.reach = shape_bounds(o);
    for (int a = 0; a < 3; ++a) {
      if (g.pmc[static_cast<std::size_t>(a)] && s.own.lo[a] <= g.d[a]) {
        s.mirror[a] = true;
        s.mirrors = true;
      }
      const double P = g.n[a] * g.d[a];
      if (!g.periodic[static_cast<std::size_t>(a)] || (s.own.lo[a] > g.d[a] && s.own.hi[a] < P - g.d[a]))
        continue;
      s.period[a] = P;
      s.wraps = true;
      s.reach.lo[a] = -P;
      s.reach.hi[a] = 2 * P;
    }
    out.push_back(std::move(s));
  }
  return out;
}

// Whether the object, or along the axes it wraps any copy of it whole periods away, holds p.
bool contains(const Shape& obj, Vec3 p) {
  const PolygonIndex* cut = obj.cross_section.get();
  // Before a magnetic wall lies the mirror image of what is after it: an object drawn on one side
  // only meshes as its symmetric whole would (the surface probes on the wall see both sides).
  if (obj.mirrors)
    for (int a = 0; a < 3; ++a)
      if (obj.mirror[a] && p[a] < 0) p[a] = -p[a];
  if (!obj.wraps) return shape_contains(obj, p, cut);
  // The shifts m P that bring p within the object's own bounds, per axis.
  std::array<int, 3> m0{}, m1{};
  for (int a = 0; a < 3; ++a) {
    const double P = obj.period[a];
    if (P == 0) continue;
    const double slack = 1e-9 * P;
    m0[a] = static_cast<int>(std::ceil((obj.own.lo[a] - slack - p[a]) / P));
    m1[a] = static_cast<int>(std::floor((obj.own.hi[a] + slack - p[a]) / P));
  }
  for (int i = m0[0]; i <= m1[0]; ++i)
    for (int j = m0[1]; j <= m1[1]; ++j)
      for (int k = m0[2]; k <= m1[2]; ++k) {
        const Vec3 q{p.x + i * obj.period[0], p.y + j * obj.period[1], p.z + k * obj.period[2]};
        if (shape_contains(obj, q, cut)) return true;
      }
  return false;
}

Bounds shape_bounds(const ObjectConfig& o) {
  Vec3 half;
  switch (o.shape) {
    case ShapeKind::Box: half = Vec3{0.5 * o.size.x, 0.5 * o.size.y, 0.5 * o.size.z}; break;
    case ShapeKind::Sphere: half = Vec3{o.radius, o.radius, o.radius}; break;
    case ShapeKind::Cylinder:
      half = Vec3{o.radius, o.radius, o.radius};
      half[static_cast<int>(o.axis)] = 0.5 * o.length;
      break;
    case ShapeKind::Mesh:
    case ShapeKind::Voxels: {
      Bounds b;
      if (!o.solid) return b;
      for (int a = 0; a < 3; ++a) {
        b.lo[a] = o.solid->lo()[a];
        b.hi[a] = o.solid->hi()[a];
      }
      return b;
    }
    case ShapeKind::Prism: {
      const int ax = static_cast<int>(o.axis);
      const auto [ua, va] = cross_axes(ax);
      Bounds b;
      b.lo = b.hi = o.center;
      b.lo[ax] -= 0.5 * o.length;
      b.hi[ax] += 0.5 * o.length;
      b.lo[ua] = b.hi[ua] = o.center[ua] + o.vertices[0][0];
      b.lo[va] = b.hi[va] = o.center[va] + o.vertices[0][1];
      for (const auto& v : o.vertices) {
        b.lo[ua] = std::min(b.lo[ua], o.center[ua] + v[0]);
        b.hi[ua] = std::max(b.hi[ua], o.center[ua] + v[0]);
        b.lo[va] = std::min(b.lo[va], o.center[va] + v[1]);
        b.hi[va] = std::max(b.hi[va], o.center[va] + v[1]);
      }
      return b;
    }
  }
  Bounds b;
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = o.center[a] - std::fabs(half[a]);
    b.hi[a] = o.center[a] + std::fabs(half[a]);
  }
  return b;
}

// Indices [first, last) along one axis whose sample (i + off) * d may lie in [lo, hi], clamped to
// [0, n). contains() makes the exact decision; the slack only guards against rounding.
void index_range(double lo, double hi, double off, double d, int n, int& first, int& last) {
  const double f = std::floor(lo / d - off) - 1;
  const double l = std::ceil(hi / d - off) + 2;
  first = static_cast<int>(std::max(0.0, std::min(f, static_cast<double>(n))));
  last = static_cast<int>(std::max(0.0, std::min(l, static_cast<double>(n))));
}

// How far the surface probes sit from a sample, in cells: past shape_contains' rounding tolerance,
// and close enough that only a surface through the sample itself (an object's face on the
// sample's grid plane) is seen.
constexpr double kSurfaceProbe = 1e-3;

// Whether `obj` holds the sample at p. A conductor's E sample stands for its whole Yee edge, the
// line from node to node along `edge` (the sample's axis; -1 for every other sample): it is PEC
// only when the object holds both ends. Tested at the midpoint alone, the edges reaching out of a
// wire thinner than a cell were PEC too, and hung off it as stubs to nodes nothing else connects:
// a wire of 0.6 cells' radius became a fishbone resonating 20% low (docs/EQUATIONS.md "PEC edges").
bool holds(const Shape& obj, const Vec3& p, int edge, const std::array<double, 3>& d) {
  if (edge < 0) return contains(obj, p);
  Vec3 lo = p, hi = p;
  lo[edge] -= 0.5 * d[edge];
  hi[edge] += 0.5 * d[edge];
  return contains(obj, lo) && contains(obj, hi);
}

// A sample held by `obj` that has the object's surface through it: a probe kSurfaceProbe cells away
// along one of the first `axes` axes is not held.
bool on_surface(const Shape& obj, const Vec3& p, const std::array<double, 3>& d, int axes,
                int edge) {
  for (int a = 0; a < axes; ++a)
    for (double side : {-1.0, 1.0}) {
      Vec3 q = p;
      q[a] += side * kSurfaceProbe * d[a];
      if (!holds(obj, q, edge, d)) return true;
    }
  // A concave inner corner (a sample on two faces meeting at 270 degrees) has every probe along
  // an axis inside: the diagonals in the plane of the two faces' normals see the missing
  // quadrant. A prism's lie across its axis; a mesh's or voxels' may lie along any pair of axes.
  auto diagonal_misses = [&](int ua, int va) {
    for (double su : {-1.0, 1.0})
      for (double sv : {-1.0, 1.0}) {
        Vec3 q = p;
        q[ua] += su * kSurfaceProbe * d[ua];
        q[va] += sv * kSurfaceProbe * d[va];
        if (!holds(obj, q, edge, d)) return true;
      }
    return false;
  };
  if (solid_from_file(obj.shape)) {
    for (int ua = 0; ua < axes; ++ua)
      for (int va = ua + 1; va < axes; ++va)
        if (diagonal_misses(ua, va)) return true;
    return false;
  }
  if (obj.shape == ShapeKind::Prism) {
    const auto [ua, va] = cross_axes(static_cast<int>(obj.axis));
    return va < axes && diagonal_misses(ua, va);
  }
  return false;
}

// Writes `id` at every sample of one grid (offset `off`, z stride `nzp`) that the object holds
// (holds(): `edge`), and, where `surface` is given, appends the samples its surface passes
// through (ends of z runs, or the whole run where it lies in a face). Returns how many samples
// it wrote.
std::size_t paint(const Shape& obj, std::uint8_t id, int edge, const std::array<double, 3>& off,
           const std::array<int, 3>& n, const std::array<double, 3>& d, std::size_t nzp,
           std::vector<std::uint8_t>& ids, std::vector<std::size_t>* surface) {
  const Bounds& b = obj.reach;
  std::array<int, 3> first{}, last{};
  for (int a = 0; a < 3; ++a) index_range(b.lo[a], b.hi[a], off[a], d[a], n[a], first[a], last[a]);
  // (An object wrapped along a periodic z meets a row at both ends: two runs.)
  const bool convex_along_z = !solid_from_file(obj.shape) && obj.period[2] == 0 &&
                              (obj.shape != ShapeKind::Prism || obj.axis == Axis::Z);
  Vec3 p;
  std::size_t written = 0;
  for (int i = first[0]; i < last[0]; ++i) {
    p.x = (i + off[0]) * d[0];
    for (int j = first[1]; j < last[1]; ++j) {
      p.y = (j + off[1]) * d[1];
      const std::size_t row = (static_cast<std::size_t>(i) * n[1] + j) * nzp;
      auto inside = [&](int k) {
        p.z = (k + off[2]) * d[2];
        return holds(obj, p, edge, d);
      };
      if (!convex_along_z) {  // a prism across z, a mesh or voxels may be concave there: every sample on its own
        for (int k = first[2]; k < last[2]; ++k) {
          if (!inside(k)) continue;
          ids[row + k] = id;
          ++written;
          if (surface && on_surface(obj, p, d, 3, edge)) surface->push_back(row + k);
        }
        continue;
      }
      // A box, sphere, cylinder or a prism along z meets a z row in one run (a segment lies in it
      // when both ends do): find both ends and fill between them, testing only the samples
      // outside the run (plus the two ends).
      int k0 = first[2];
      while (k0 < last[2] && !inside(k0)) ++k0;
      if (k0 == last[2]) continue;
      int k1 = last[2] - 1;
      while (k1 > k0 && !inside(k1)) --k1;
      std::fill(ids.begin() + row + k0, ids.begin() + row + k1 + 1, id);
      written += static_cast<std::size_t>(k1 - k0 + 1);
      if (!surface) continue;
      // Where an inner sample of the run lies on the surface, the whole run does (a face along
      // z); else only its ends may.
      const int mid = k0 + (k1 - k0) / 2;
      inside(mid);
      if (mid != k0 && mid != k1 && on_surface(obj, p, d, 2, edge)) {
        for (int k = k0; k <= k1; ++k) surface->push_back(row + k);
        continue;
      }
      for (int k : {k0, k1}) {  // the same sample twice when k0 == k1: duplicates are dropped
        inside(k);
        if (on_surface(obj, p, d, 3, edge)) surface->push_back(row + k);
      }
    }
  }
  return written;
}

// The outer PEC wall: tangential E on the low planes, and every E padding cell (k >= nz). A
// periodic axis (boundary.periodic) has no wall: its low plane is the plane after the high end;
// nor has a low magnetic wall (boundary.pmc).
void apply_walls(Component c, const FieldLayout& L, std::array<bool, 3> periodic,
                 const std::array<bool, 3>& pmc, std::vector<std::uint8_t>& ids) {
  // A magnetic wall (boundary.pmc) leaves tangential E free on its plane, as a periodic axis does.
  for (std::size_t a = 0; a < 3; ++a) periodic[a] = periodic[a] || pmc[a];
  const std::uint8_t pec = MaterialTable::kPec;
  const int axis = component_axis(c);
  const std::size_t nzp = L.nzp();
  for (int i = 0; i < L.nx; ++i) {
    for (int j = 0; j < L.ny; ++j) {
      const std::size_t row = L.index(i, j, 0);
      // Tangential means the component's axis differs from the wall normal.
      const bool wall_row = (i == 0 && axis != 0 && !periodic[0]) || (j == 0 && axis != 1 && !periodic[1]);
      if (wall_row) {
        std::fill(ids.begin() + row, ids.begin() + row + L.nz, pec);
      } else if (axis != 2 && !periodic[2]) {
        ids[row] = pec;  // k = 0 plane
      }
      std::fill(ids.begin() + row + L.nz, ids.begin() + row + nzp, pec);
    }
  }
}

// The plane's walls: tangential E on the low x and y lines (no z walls: the plane is infinite
// along z), and the row padding (j >= ny) of every component, which stays zero.
void apply_plane_walls(Component c, const FieldLayout& L, std::vector<std::uint8_t>& ids) {
  const std::uint8_t pec = MaterialTable::kPec;
  const int axis = component_axis(c);
  for (int i = 0; i < L.nx; ++i) {
    const std::size_t row = L.index(i, 0, 0);
    if (is_electric(c)) {
      if (i == 0 && axis != 0) std::fill(ids.begin() + row, ids.begin() + row + L.ny, pec);
      if (axis != 1) ids[row] = pec;  // j = 0 line
    }
    std::fill(ids.begin() + row + L.ny, ids.begin() + row + L.nyp(), pec);
  }
}

// Writes `id` at every sample of one plane grid (offset `off`, row stride `stride`) whose in-plane
// point lies in the object: the object is cut by the plane z = its centre, so a box is a
// rectangle and a sphere a disc. Returns how many samples it wrote.
std::size_t paint_plane(const Shape& obj, std::uint8_t id, int edge, const std::array<double, 3>& off,
                 const std::array<int, 3>& n, const std::array<double, 3>& d, std::size_t stride,
                 std::vector<std::uint8_t>& ids, std::vector<std::size_t>* surface) {
  const Bounds& b = obj.reach;
  std::array<int, 2> first{}, last{};
  for (int a = 0; a < 2; ++a) index_range(b.lo[a], b.hi[a], off[a], d[a], n[a], first[a], last[a]);
  Vec3 p;
  p.z = obj.center.z;
  std::size_t written = 0;
  for (int i = first[0]; i < last[0]; ++i) {
    p.x = (i + off[0]) * d[0];
    for (int j = first[1]; j < last[1]; ++j) {
      p.y = (j + off[1]) * d[1];
      if (!holds(obj, p, edge, d)) continue;
      const std::size_t at = static_cast<std::size_t>(i) * stride + j;
      ids[at] = id;
      ++written;
      if (surface && on_surface(obj, p, d, 2, edge)) surface->push_back(at);
    }
  }
  return written;
}

// The material at p by the objects' order: the last of `near` (indices into objects, ascending)
// holding it (holds(): `edges[o]`), else vacuum. A plane model tests each object's cut through its
// own centre.
std::uint8_t material_at(const std::vector<Shape>& objects,
                         const std::vector<std::uint8_t>& obj_ids, const std::vector<int>& edges,
                         const std::vector<std::size_t>& near, Vec3 p, bool plane,
                         const std::array<double, 3>& d) {
  for (std::size_t n = near.size(); n-- > 0;) {
    const std::size_t o = near[n];
    if (plane) p.z = objects[o].center.z;
    if (holds(objects[o], p, edges[o], d)) return obj_ids[o];
  }
  return MaterialTable::kVacuum;
}

double harmonic_mean(double a, double b) { return a > 0 && b > 0 ? 2 * a * b / (a + b) : 0.0; }

// The samples on objects' surfaces (`candidates`, painted inclusively so far) take the mean of the
// materials around them, probed at the 2^dims corners kSurfaceProbe cells away: the arithmetic
// mean of eps_r, mu_r and sigma where the materials change only across the component (a face
// parallel to it, the tangential case), else the harmonic mean of the two halves' means (a face
// normal to it). So a box whose faces lie on sample planes acts as exactly its size (the
// inclusive sample made it half a cell thicker at each such face: first order in the cell size).
// PEC wins: a sample where a probe sees a conductor, or on a zero-thickness PEC sheet not strictly
// inside a later object, is PEC. Where every corner agrees the inclusive id stays (a
// zero-thickness dielectric sheet). Returns the samples left inclusive because the table was full.
std::size_t average_surfaces(const std::vector<Shape>& objects,
                             const std::vector<std::uint8_t>& obj_ids, const std::vector<int>& edges,
                             MaterialTable& table,
                             Component comp, const GridGeometry& g, const FieldLayout& L,
                             std::vector<std::size_t>& candidates, std::vector<std::uint8_t>& ids) {
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  const std::array<double, 3> off = yee_offset(comp);
  const int axis = component_axis(comp);
  const int dims = L.plane ? 2 : 3;
  const int corners = 1 << dims;
  // Each object's bounds, widened past the probes, so a sample tests only the objects near it.
  std::vector<Bounds> bounds;
  for (const Shape& o : objects) {
    Bounds b = o.reach;
    for (int a = 0; a < 3; ++a) {
      const double pad = 2 * kSurfaceProbe * g.d[a] + 1e-9 * (std::fabs(b.lo[a]) + std::fabs(b.hi[a]));
      b.lo[a] -= pad;
      b.hi[a] += pad;
    }
    bounds.push_back(b);
  }
  // The objects by cell along one axis (ascending in each list), so a sample scans only its own
  // slice: the axis along which the objects span the fewest cells in all (z for layers stacked
  // in z, which span every x and y cell).
  auto cell_along = [&](int a, double v) {
    return static_cast<int>(std::clamp(std::floor(v / g.d[a]), 0.0, static_cast<double>(g.n[a] - 1)));
  };
  int slice_axis = 0;
  double fewest = -1;
  for (int a = 0; a < dims; ++a) {
    double spans = 0;
    for (const Bounds& b : bounds) spans += cell_along(a, b.hi[a]) - cell_along(a, b.lo[a]) + 1;
    if (fewest < 0 || spans < fewest) {
      fewest = spans;
      slice_axis = a;
    }
  }
  std::vector<std::vector<std::size_t>> by_slice(static_cast<std::size_t>(g.n[slice_axis]));
  for (std::size_t o = 0; o < objects.size(); ++o)
    for (int c = cell_along(slice_axis, bounds[o].lo[slice_axis]);
         c <= cell_along(slice_axis, bounds[o].hi[slice_axis]); ++c)
      by_slice[static_cast<std::size_t>(c)].push_back(o);
  std::vector<std::size_t> near;
  std::size_t unmixed = 0;
  for (std::size_t at : candidates) {
    if (table.entry(ids[at]).pec) continue;
    int i, j, k = 0;
    if (L.plane) {
      i = static_cast<int>(at / L.nyp());
      j = static_cast<int>(at % L.nyp());
    } else {
      k = static_cast<int>(at % L.nzp());
      const std::size_t row = at / L.nzp();
      j = static_cast<int>(row % static_cast<std::size_t>(L.ny));
      i = static_cast<int>(row / static_cast<std::size_t>(L.ny));
    }
    const Vec3 p{(i + off[0]) * g.d[0], (j + off[1]) * g.d[1], L.plane ? 0.0 : (k + off[2]) * g.d[2]};
    std::array<Vec3, 8> probe;
    for (int s = 0; s < corners; ++s) {
      probe[s] = p;
      for (int a = 0; a < dims; ++a)
        probe[s][a] += ((s >> a) & 1 ? 1.0 : -1.0) * kSurfaceProbe * g.d[a];
    }
    near.clear();
    for (std::size_t o : by_slice[static_cast<std::size_t>(cell_along(slice_axis, p[slice_axis]))]) {
      bool in = true;
      for (int a = 0; a < dims && in; ++a) in = p[a] >= bounds[o].lo[a] && p[a] <= bounds[o].hi[a];
      if (in) near.push_back(o);
    }
    // A zero-thickness PEC sheet through p (it holds p but none of the probes, which therefore
    // cannot see it), later than any object that holds p strictly. PEC bodies are seen by the
    // probes below, so a later object over them (an aperture) keeps its own material.
    bool pec = false;
    const bool near_pec = std::any_of(near.begin(), near.end(),
                                      [&](std::size_t o) { return table.entry(obj_ids[o]).pec; });
    for (std::size_t n = near.size(); near_pec && n-- > 0 && !pec;) {
      const std::size_t o = near[n];
      Vec3 q = p;
      if (L.plane) q.z = objects[o].center.z;
      if (!holds(objects[o], q, edges[o], g.d)) continue;
      int held = 0, missed = 0;
      for (int s = 0; s < corners && !(held && missed); ++s) {
        Vec3 c = probe[s];
        if (L.plane) c.z = objects[o].center.z;
        (holds(objects[o], c, edges[o], g.d) ? held : missed) += 1;
      }
      if (held == corners) break;
      pec = held == 0 && table.entry(obj_ids[o]).pec;
    }
    std::array<std::uint8_t, 8> m{};
    bool uniform = true;
    for (int s = 0; s < corners; ++s) {
      m[s] = material_at(objects, obj_ids, edges, near, probe[s], L.plane, g.d);
      pec = pec || table.entry(m[s]).pec;
      uniform = uniform && m[s] == m[0];
    }
    if (pec) {
      ids[at] = MaterialTable::kPec;
      continue;
    }
    if (uniform) continue;
    const bool across = axis < dims && [&] {
      for (int s = 0; s < corners; ++s)
        if (!((s >> axis) & 1) && m[s] != m[s | (1 << axis)]) return true;
      return false;
    }();
    auto mean = [&](double MaterialEntry::*prop, int half) {  // half: -1 all, 0 low, 1 high side
      double sum = 0;
      int count = 0;
      for (int s = 0; s < corners; ++s) {
        if (half >= 0 && ((s >> axis) & 1) != half) continue;
        sum += table.entry(m[s]).*prop;
        ++count;
      }
      return sum / count;
    };
    auto average = [&](double MaterialEntry::*prop) {
      return across ? harmonic_mean(mean(prop, 0), mean(prop, 1)) : mean(prop, -1);
    };
    // Poles. Along the face (the arithmetic case) they add up as susceptibilities do: each
    // corner's share of its material's poles. Across it the harmonic mean of eps(f) on the two
    // sides is a pole again where one side is a single-pole material and the other has none
    // (docs/EQUATIONS.md "Dispersive materials"); any other sample across a dispersive face keeps
    // the material of the object that includes it.
    std::vector<Pole> poles;
    double eps_r = average(&MaterialEntry::eps_r);
    const auto corner_poles = [&](int half) {
      int with = 0;
      for (int s = 0; s < corners; ++s)
        if ((half < 0 || ((s >> axis) & 1) == half) && !table.entry(m[s]).poles.empty()) ++with;
      return with;
    };
    if (!across) {
      for (int s = 0; s < corners; ++s) {
        for (const Pole& p : table.entry(m[s]).poles) {
          auto same = std::find_if(poles.begin(), poles.end(), [&](const Pole& q) { return q.same_kind(p); });
          if (same == poles.end()) {
            poles.push_back(p);
            poles.back().d = 0;
            same = poles.end() - 1;
          }
          same->d += p.d / corners;
        }
      }
    } else if (corner_poles(-1) > 0) {
      const int half = corner_poles(0) > 0 ? 0 : 1;  // the dispersive side
      bool single = corner_poles(1 - half) == 0;
      std::uint8_t material = 0;
      for (int s = 0; s < corners && single; ++s) {
        if (((s >> axis) & 1) != half) continue;
        if (material == 0) material = m[s];
        single = m[s] == material && table.entry(m[s]).poles.size() == 1;
      }
      if (!single) continue;  // keeps the inclusive id
      const double e1 = mean(&MaterialEntry::eps_r, 1 - half);
      const double einf = table.entry(material).eps_r;
      Pole p = table.entry(material).poles.front();
      eps_r = 2 * e1 * einf / (e1 + einf);
      p.c += p.d / (e1 + einf);
      p.d = 2 * e1 * e1 * p.d / ((e1 + einf) * (e1 + einf));
      poles.push_back(p);
    }
    const int id = table.mixture(eps_r, average(&MaterialEntry::mu_r),
                                 average(&MaterialEntry::sigma), poles);
    if (id < 0) {
      ++unmixed;
      continue;
    }
    ids[at] = static_cast<std::uint8_t>(id);
  }
  return unmixed;
}

}  // namespace

std::vector<std::uint8_t> object_material_ids(const std::vector<ObjectConfig>& objects,
                                              const MaterialTable& table) {
  std::vector<std::uint8_t> obj_ids;
  obj_ids.reserve(objects.size());
  for (const auto& o : objects) {
    const int id = table.find(o.material);
    if (id < 0) {
      throw ConfigError("", 0, "object." + o.name + ".material",
                        "a defined material, \"pec\" or \"vacuum\" (got \"" + o.material + "\")");
    }
    obj_ids.push_back(static_cast<std::uint8_t>(id));
  }
  return obj_ids;
}

MeshedIds mesh_objects(const std::vector<ObjectConfig>& configs, MaterialTable& table,
                       const GridGeometry& g, const FieldLayout& layout,
                       const std::vector<Component>& components) {
  const std::vector<std::uint8_t> obj_ids = object_material_ids(configs, table);
  const std::vector<Shape> objects = indexed_shapes(configs, g);
  for (const auto& o : objects) {
    if (layout.plane && o.shape == ShapeKind::Cylinder) {
      throw ConfigError("", 0, "object." + o.name + ".shape",
                        "box, sphere or prism in a 2D model (cylinder is not meaningful in 2D)");
    }
  }

  MeshedIds m;
  m.object_samples.assign(objects.size(), 0);
  for (Component comp : components) {
    auto& ids = m.component[static_cast<int>(comp)];
    ids.assign(layout.cells(), MaterialTable::kVacuum);
    std::vector<std::size_t> surface;
    // A conductor's E samples are edges (holds()); in a plane model only those along the plane.
    const int axis = component_axis(comp);
    // An anisotropic material's samples take the entry of their component's axis.
    std::vector<std::uint8_t> comp_ids(obj_ids.size());
    for (std::size_t o = 0; o < obj_ids.size(); ++o) comp_ids[o] = table.along(obj_ids[o], axis);
    const bool edge = is_electric(comp) && axis < (layout.plane ? 2 : 3);
    std::vector<int> edges(objects.size(), -1);
    for (std::size_t o = 0; o < objects.size(); ++o)
      if (edge && table.entry(obj_ids[o]).pec) edges[o] = axis;
    for (std::size_t o = 0; o < objects.size(); ++o) {
      // A conductor acts through its E samples only: its H samples do not count as held.
      const bool counted = is_electric(comp) || !table.entry(obj_ids[o]).pec;
      const std::size_t held =
          layout.plane
              ? paint_plane(objects[o], comp_ids[o], edges[o], yee_offset(comp), g.n, g.d, layout.nyp(), ids, &surface)
              : paint(objects[o], comp_ids[o], edges[o], yee_offset(comp), g.n, g.d, layout.nzp(), ids, &surface);
      if (counted) m.object_samples[o] += held;
    }
    m.unmixed_samples += average_surfaces(objects, comp_ids, edges, table, comp, g, layout, surface, ids);
    if (layout.plane) {
      apply_plane_walls(comp, layout, ids);
    } else if (is_electric(comp)) {
      apply_walls(comp, layout, g.periodic, g.pmc, ids);
    }
  }

  // Cell centres (model.vti) keep the objects' own materials, boundaries inclusive.
  m.cell_centre.assign(static_cast<std::size_t>(g.cells()), MaterialTable::kVacuum);
  for (std::size_t o = 0; o < objects.size(); ++o) {
    if (layout.plane) {
      paint_plane(objects[o], obj_ids[o], -1, {0.5, 0.5, 0.5}, g.n, g.d,
                  static_cast<std::size_t>(g.n[1]), m.cell_centre, nullptr);
    } else {
      paint(objects[o], obj_ids[o], -1, {0.5, 0.5, 0.5}, g.n, g.d, static_cast<std::size_t>(g.n[2]),
            m.cell_centre, nullptr);
    }
  }
  return m;
}

MeshedIds mesh_objects(const std::vector<ObjectConfig>& objects, MaterialTable& table,
                       const GridGeometry& g, const FieldLayout& layout, bool with_h) {
  using C = Component;
  std::vector<Component> components{C::Ex, C::Ey, C::Ez};
  if (with_h) components.insert(components.end(), {C::Hx, C::Hy, C::Hz});
  return mesh_objects(objects, table, g, layout, components);
}

}  // namespace clfdtd
