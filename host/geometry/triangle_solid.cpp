// A closed triangle surface as a solid (triangle_solid.hpp).
//
// A point's vertical line is tested against the triangles binned by their x-y bounds. Whether a
// triangle's shadow covers (x, y) is decided with exact orientation signs and one consistent
// tie-break (the point moved by an infinitesimal (e, e^2)), so a line through a shared edge or
// corner is counted in exactly one of the triangles around it: the parity is right even where the
// grid's samples line up with the mesh's edges, as they do for a CAD box on the grid.
#include "geometry/triangle_solid.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <unordered_map>

namespace clfdtd {

namespace {

// VTK's readers keep corners as float32 (and binary STL stores them so): a face meant to lie on a
// grid plane is off it by up to half a float's spacing, 6e-8 of the coordinate. The tolerance
// covers that, and stays far below the mesher's surface probes (1e-3 of a cell).
constexpr double kRelTol = 1e-7;

// Error-free transformations: a + b = s + e and a * b = p + e exactly.
void two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bv = s - a;
  e = (a - (s - bv)) + (b - bv);
}
void two_product(double a, double b, double& p, double& e) {
  p = a * b;
  e = std::fma(a, b, -p);
}

// The sign of the exact sum of n doubles: grown into a non-overlapping expansion, whose most
// significant non-zero component carries the sign.
int exact_sum_sign(const double* t, int n) {
  double h[40];
  int m = 0;
  for (int i = 0; i < n; ++i) {
    double q = t[i];
    int k = 0;
    for (int j = 0; j < m; ++j) {
      double s, e;
      two_sum(q, h[j], s, e);
      q = s;
      if (e != 0) h[k++] = e;
    }
    h[k++] = q;
    m = k;
  }
  for (int j = m - 1; j >= 0; --j)
    if (h[j] != 0) return h[j] > 0 ? 1 : -1;
  return 0;
}

// Sign of the orientation of (a, b, c) in the x-y plane (> 0: counter-clockwise), exact: a
// floating-point filter (Shewchuk's first bound), else the six products summed exactly.
int orient_sign(double ax, double ay, double bx, double by, double cx, double cy) {
  const double l = (bx - ax) * (cy - ay), r = (by - ay) * (cx - ax), det = l - r;
  const double bound = 3.3306690738754716e-16 * (std::fabs(l) + std::fabs(r));
  if (det > bound) return 1;
  if (-det > bound) return -1;
  double t[12];
  two_product(bx, cy, t[0], t[1]);
  two_product(-bx, ay, t[2], t[3]);
  two_product(-ax, cy, t[4], t[5]);
  two_product(-by, cx, t[6], t[7]);
  two_product(ax, by, t[8], t[9]);
  two_product(ay, cx, t[10], t[11]);
  return exact_sum_sign(t, 12);
}

bool before(const Point3& u, const Point3& v) { return u[0] < v[0] || (u[0] == v[0] && u[1] < v[1]); }

// Which side of the edge u-v (taken in x-y order, so both triangles sharing it ask the same
// question) the point (x, y) moved by (e, e^2) lies on: never on it.
int side_of_point(const Point3& u, const Point3& v, double x, double y) {
  const Point3& p = before(u, v) ? u : v;
  const Point3& q = before(u, v) ? v : u;
  const int s = orient_sign(p[0], p[1], q[0], q[1], x, y);
  if (s != 0) return s;
  if (q[1] != p[1]) return q[1] > p[1] ? -1 : 1;
  return 1;
}
int side_of_corner(const Point3& u, const Point3& v, const Point3& w) {
  const Point3& p = before(u, v) ? u : v;
  const Point3& q = before(u, v) ? v : u;
  return orient_sign(p[0], p[1], q[0], q[1], w[0], w[1]);
}

// Whether the triangle's shadow on the x-y plane holds (x, y) moved by (e, e^2).
bool covers(const Point3& a, const Point3& b, const Point3& c, double x, double y) {
  if (orient_sign(a[0], a[1], b[0], b[1], c[0], c[1]) == 0) return false;  // seen edge-on
  return side_of_point(a, b, x, y) == side_of_corner(a, b, c) &&
         side_of_point(b, c, x, y) == side_of_corner(b, c, a) &&
         side_of_point(c, a, x, y) == side_of_corner(c, a, b);
}

// The height of the triangle above (x, y), which its shadow covers: a convex combination of its
// corners' heights (barycentric weights clamped to the triangle's side, then normalised), so that
// a wall that is vertical but for rounding gives a height on the wall, not far off it.
double plane_z(const Point3& a, const Point3& b, const Point3& c, double x, double y) {
  const double area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  auto weight = [&](const Point3& u, const Point3& v) {  // the sub-triangle (u, v, p), same sense
    const double w = (v[0] - u[0]) * (y - u[1]) - (v[1] - u[1]) * (x - u[0]);
    return area >= 0 ? std::max(w, 0.0) : std::max(-w, 0.0);
  };
  const double wa = weight(b, c), wb = weight(c, a), wc = weight(a, b), sum = wa + wb + wc;
  if (!(sum > 0)) return (a[2] + b[2] + c[2]) / 3;
  return (wa * a[2] + wb * b[2] + wc * c[2]) / sum;
}

// The x range of the triangle's shadow within the slab y0 <= y <= y1, or false where it misses it.
bool x_range_in_slab(const Point3& a, const Point3& b, const Point3& c, double y0, double y1,
                     double& xlo, double& xhi) {
  const Point3* v[3] = {&a, &b, &c};
  bool any = false;
  auto take = [&](double x) {
    xlo = any ? std::min(xlo, x) : x;
    xhi = any ? std::max(xhi, x) : x;
    any = true;
  };
  for (int i = 0; i < 3; ++i) {
    const Point3& p = *v[i];
    const Point3& q = *v[(i + 1) % 3];
    if (p[1] >= y0 && p[1] <= y1) take(p[0]);
    for (double yb : {y0, y1})  // where the side crosses the slab's edges
      if ((p[1] - yb) * (q[1] - yb) < 0) take(p[0] + (yb - p[1]) / (q[1] - p[1]) * (q[0] - p[0]));
  }
  return any;
}

// The z range of the triangle's part above the square |x' - x| <= t, |y' - y| <= t, or false
// where it has none (the triangle clipped by the square's four sides).
bool clipped_z_range(const Point3& a, const Point3& b, const Point3& c, double x, double y,
                     double t, double& zlo, double& zhi) {
  Point3 poly[9] = {a, b, c}, out[9];
  int n = 3;
  const struct {
    int axis;
    double bound, sign;  // keep sign * (p[axis] - bound) >= 0
  } sides[4] = {{0, x - t, 1}, {0, x + t, -1}, {1, y - t, 1}, {1, y + t, -1}};
  for (const auto& s : sides) {
    int m = 0;
    for (int i = 0; i < n; ++i) {
      const Point3& p = poly[i];
      const Point3& q = poly[(i + 1) % n];
      const double dp = s.sign * (p[s.axis] - s.bound), dq = s.sign * (q[s.axis] - s.bound);
      if (dp >= 0) out[m++] = p;
      if ((dp >= 0) != (dq >= 0)) {
        const double u = dp / (dp - dq);
        out[m++] = {p[0] + u * (q[0] - p[0]), p[1] + u * (q[1] - p[1]), p[2] + u * (q[2] - p[2])};
      }
    }
    n = m;
    if (n == 0) return false;
    std::copy(out, out + n, poly);
  }
  zlo = zhi = poly[0][2];
  for (int i = 1; i < n; ++i) {
    zlo = std::min(zlo, poly[i][2]);
    zhi = std::max(zhi, poly[i][2]);
  }
  return true;
}

std::uint64_t edge_key(int i, int j) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(i)) << 32) |
         static_cast<std::uint32_t>(j);
}

bool degenerate(const std::array<int, 3>& t) { return t[0] == t[1] || t[1] == t[2] || t[2] == t[0]; }

std::atomic<std::uint64_t> next_serial{1};

}  // namespace

OpenEdges open_edges(const TriangleMesh& mesh) {
  std::unordered_map<std::uint64_t, int> uses;
  uses.reserve(mesh.triangles.size() * 3 / 2 + 1);
  for (const auto& t : mesh.triangles) {
    if (degenerate(t)) continue;
    for (int e = 0; e < 3; ++e) {
      const int i = t[e], j = t[(e + 1) % 3];
      ++uses[edge_key(std::min(i, j), std::max(i, j))];
    }
  }
  OpenEdges out;
  for (const auto& t : mesh.triangles) {  // in file order, so the first one reported is stable
    if (degenerate(t)) continue;
    for (int e = 0; e < 3; ++e) {
      const int i = t[e], j = t[(e + 1) % 3];
      auto it = uses.find(edge_key(std::min(i, j), std::max(i, j)));
      if (it == uses.end() || it->second % 2 == 0) continue;
      if (out.count == 0) {
        out.a = mesh.points[static_cast<std::size_t>(i)];
        out.b = mesh.points[static_cast<std::size_t>(j)];
      }
      ++out.count;
      uses.erase(it);  // each open edge once
    }
  }
  return out;
}

bool consistently_oriented(const TriangleMesh& mesh) {
  std::unordered_map<std::uint64_t, int> balance;  // uses i -> j minus uses j -> i, i < j
  for (const auto& t : mesh.triangles) {
    if (degenerate(t)) continue;
    for (int e = 0; e < 3; ++e) {
      const int i = t[e], j = t[(e + 1) % 3];
      balance[edge_key(std::min(i, j), std::max(i, j))] += i < j ? 1 : -1;
    }
  }
  return std::all_of(balance.begin(), balance.end(), [](const auto& kv) { return kv.second == 0; });
}

TriangleSolid::TriangleSolid(TriangleMesh mesh, double min_tolerance)
    : oriented_(consistently_oriented(mesh)), serial_(next_serial++) {
  bool first = true;
  for (const auto& t : mesh.triangles) {
    if (degenerate(t)) continue;
    Tri tr{mesh.points[static_cast<std::size_t>(t[0])], mesh.points[static_cast<std::size_t>(t[1])],
           mesh.points[static_cast<std::size_t>(t[2])], 0, 0, 0, 0};
    tr.xlo = std::min({tr.a[0], tr.b[0], tr.c[0]});
    tr.xhi = std::max({tr.a[0], tr.b[0], tr.c[0]});
    tr.ylo = std::min({tr.a[1], tr.b[1], tr.c[1]});
    tr.yhi = std::max({tr.a[1], tr.b[1], tr.c[1]});
    for (const Point3* p : {&tr.a, &tr.b, &tr.c})
      for (int ax = 0; ax < 3; ++ax) {
        lo_[ax] = first ? (*p)[ax] : std::min(lo_[ax], (*p)[ax]);
        hi_[ax] = first ? (*p)[ax] : std::max(hi_[ax], (*p)[ax]);
        if (ax == 2) first = false;
      }
    tri_.push_back(tr);
  }
  double scale = 0;
  for (int ax = 0; ax < 3; ++ax)
    scale = std::max({scale, std::fabs(lo_[ax]), std::fabs(hi_[ax]), hi_[ax] - lo_[ax]});
  tol_ = std::max(kRelTol * scale, min_tolerance);
  if (tri_.empty()) return;

  // About two triangles per bin on a surface spread evenly over x and y.
  const int per_axis = static_cast<int>(std::clamp(std::sqrt(tri_.size() / 2.0), 1.0, 1024.0));
  nbx_ = nby_ = per_axis;
  const double wx = hi_[0] - lo_[0] + 2 * tol_, wy = hi_[1] - lo_[1] + 2 * tol_;
  inv_bx_ = wx > 0 ? nbx_ / wx : 0;
  inv_by_ = wy > 0 ? nby_ / wy : 0;
  // A triangle goes into every bin its x-y bounds, widened by the tolerance, touch: a column
  // reads only its own bin, and every triangle within the tolerance of it is there.
  // Row by row of bins, only the bins the shadow's x range in that row touches: a long thin
  // triangle (a fan's, from a cap's centre to its rim) takes a bin per row, not its whole box.
  std::vector<std::size_t> count(static_cast<std::size_t>(nbx_) * nby_ + 1, 0);
  const double row = inv_by_ > 0 ? 1 / inv_by_ : 0, slack = 2 * tol_ + 1e-12 * (std::fabs(lo_[1]) + row);
  auto each_bin = [&](const Tri& t, auto&& f) {
    for (int j = bin_y(t.ylo - tol_); j <= bin_y(t.yhi + tol_); ++j) {
      const double y0 = lo_[1] - tol_ + j * row - slack, y1 = lo_[1] - tol_ + (j + 1) * row + slack;
      double xlo, xhi;
      if (!x_range_in_slab(t.a, t.b, t.c, j == 0 ? -1e300 : y0, j == nby_ - 1 ? 1e300 : y1, xlo, xhi))
        continue;
      for (int i = bin_x(xlo - tol_); i <= bin_x(xhi + tol_); ++i)
        f(static_cast<std::size_t>(j) * nbx_ + i);
    }
  };
  for (const Tri& t : tri_) each_bin(t, [&](std::size_t b) { ++count[b + 1]; });
  bin_start_.assign(count.size(), 0);
  for (std::size_t b = 1; b < count.size(); ++b) bin_start_[b] = bin_start_[b - 1] + count[b];
  bin_tris_.resize(bin_start_.back());
  std::vector<std::size_t> fill(bin_start_.begin(), bin_start_.end() - 1);
  for (std::size_t i = 0; i < tri_.size(); ++i)
    each_bin(tri_[i], [&](std::size_t b) { bin_tris_[fill[b]++] = static_cast<std::uint32_t>(i); });
}

int TriangleSolid::bin_x(double x) const {
  const double b = std::floor((x - (lo_[0] - tol_)) * inv_bx_);
  return static_cast<int>(std::clamp(b, 0.0, static_cast<double>(nbx_ - 1)));
}
int TriangleSolid::bin_y(double y) const {
  const double b = std::floor((y - (lo_[1] - tol_)) * inv_by_);
  return static_cast<int>(std::clamp(b, 0.0, static_cast<double>(nby_ - 1)));
}

TriangleSolid::Column TriangleSolid::column(double x, double y) const {
  Column col;
  if (tri_.empty() || x < lo_[0] - tol_ || x > hi_[0] + tol_ || y < lo_[1] - tol_ ||
      y > hi_[1] + tol_)
    return col;
  const std::size_t b = static_cast<std::size_t>(bin_y(y)) * nbx_ + bin_x(x);
  for (std::size_t k = bin_start_[b]; k < bin_start_[b + 1]; ++k) {
    const Tri& t = tri_[bin_tris_[k]];
    if (x < t.xlo - tol_ || x > t.xhi + tol_ || y < t.ylo - tol_ || y > t.yhi + tol_) continue;
    double z0, z1;
    if (clipped_z_range(t.a, t.b, t.c, x, y, tol_, z0, z1)) col.near.push_back({z0 - tol_, z1 + tol_});
    if (covers(t.a, t.b, t.c, x, y)) {
      const int facing = orient_sign(t.a[0], t.a[1], t.b[0], t.b[1], t.c[0], t.c[1]);
      col.crossings.push_back({plane_z(t.a, t.b, t.c, x, y), facing});
    }
  }
  std::sort(col.crossings.begin(), col.crossings.end());
  std::sort(col.near.begin(), col.near.end());
  std::size_t m = 0;
  for (const auto& r : col.near) {
    if (m > 0 && r[0] <= col.near[m - 1][1]) {
      col.near[m - 1][1] = std::max(col.near[m - 1][1], r[1]);
    } else {
      col.near[m++] = r;
    }
  }
  col.near.resize(m);
  return col;
}

// The meshers test many points of few columns in turn (a row of samples, and the probes beside
// each): the last columns asked for are kept per thread.
const TriangleSolid::Column& TriangleSolid::cached_column(double x, double y) const {
  struct Entry {
    std::uint64_t serial = 0;
    double x = 0, y = 0;
    Column col;
  };
  constexpr int kEntries = 32;
  thread_local Entry cache[kEntries];
  thread_local int next = 0;
  for (Entry& e : cache)
    if (e.serial == serial_ && e.x == x && e.y == y) return e.col;
  Entry& e = cache[next];
  next = (next + 1) % kEntries;
  e.col = column(x, y);
  e.serial = serial_;
  e.x = x;
  e.y = y;
  return e.col;
}

bool TriangleSolid::contains(const Point3& p) const {
  for (int ax = 0; ax < 3; ++ax)
    if (p[ax] < lo_[ax] - tol_ || p[ax] > hi_[ax] + tol_) return false;
  const Column& c = cached_column(p[0], p[1]);
  const auto first_above = std::upper_bound(c.crossings.begin(), c.crossings.end(),
                                            Crossing{p[2], 1});
  if (oriented_) {  // nonzero winding: a face towards +z is left upwards, one towards -z entered
    int winding = 0;
    for (auto it = first_above; it != c.crossings.end(); ++it) winding += it->facing;
    if (winding != 0) return true;
  } else if ((c.crossings.end() - first_above) % 2 == 1) {
    return true;
  }
  for (const auto& r : c.near)
    if (p[2] >= r[0] && p[2] <= r[1]) return true;
  return false;
}

double TriangleSolid::volume() const {
  double v = 0;
  for (const Tri& t : tri_) {
    v += t.a[0] * (t.b[1] * t.c[2] - t.b[2] * t.c[1]) - t.a[1] * (t.b[0] * t.c[2] - t.b[2] * t.c[0]) +
         t.a[2] * (t.b[0] * t.c[1] - t.b[1] * t.c[0]);
  }
  return std::fabs(v) / 6;
}

}  // namespace clfdtd
