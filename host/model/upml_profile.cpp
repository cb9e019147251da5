// Patent step 1-1-3: graded UPML profiles per axis and the disjoint boxes of PML cells.
#include "model/upml_profile.hpp"

#include <algorithm>
#include <cmath>

namespace clfdtd {

namespace {

// Fills one profile entry for conductivity sigma and stretching kappa (see upml_profile.hpp).
void set_entry(AxisProfile& p, int i, double sigma, double kappa, double dt) {
  const double s = sigma * dt / kEps0;
  p.a[i] = (2 * kappa - s) / (2 * kappa + s);
  p.b[i] = 2 / (2 * kappa + s);
  p.cp[i] = 2 * kappa + s;
  p.cm[i] = 2 * kappa - s;
}

// Depth fraction rho at position x (metres) along an axis of n cells of size d with lo / hi layers.
// Where both layers reach one position (tiny grids) the deeper one wins.
double depth(double x, int n, double d, int lo, int hi) {
  double rho = 0;
  if (lo > 0) {
    const double t = lo * d;
    rho = std::max(rho, std::clamp((t - x) / t, 0.0, 1.0));
  }
  if (hi > 0) {
    const double t = hi * d;
    const double x1 = (n - hi) * d;
    rho = std::max(rho, std::clamp((x - x1) / t, 0.0, 1.0));
  }
  return rho;
}

void build_axis(const BoundaryConfig& cfg, const GridGeometry& g, const std::array<int, 6>& layers,
                int axis, AxisProfile& integer, AxisProfile& half) {
  const int n = g.n[axis];
  const double d = g.d[axis];
  const int lo = layers[2 * axis], hi = layers[2 * axis + 1];
  // Both faces of an axis share the cell size, so one sigma_max serves the axis.
  const double sigma_max = cfg.sigma_max ? *cfg.sigma_max : optimal_sigma_max(cfg.grading, d);
  for (AxisProfile* p : {&integer, &half}) {
    p->a.assign(n, 1.0);
    p->b.assign(n, 1.0);
    p->cp.assign(n, 2.0);
    p->cm.assign(n, 2.0);
  }
  if (lo == 0 && hi == 0) return;
  for (int i = 0; i < n; ++i) {
    for (int h = 0; h < 2; ++h) {
      const double rho = depth((i + 0.5 * h) * d, n, d, lo, hi);
      // rho = 0 stays neutral even for grading 0 (pow(0, 0) would be 1).
      const double r = rho > 0 ? std::pow(rho, cfg.grading) : 0.0;
      set_entry(h ? half : integer, i, sigma_max * r, 1 + (cfg.kappa_max - 1) * r, g.dt);
    }
  }
}

}  // namespace

double optimal_sigma_max(double grading, double cell_size_m) {
  return 0.8 * (grading + 1) / (kEta0 * cell_size_m);
}

UpmlProfile build_upml_profile(const BoundaryConfig& cfg, const GridGeometry& g) {
  UpmlProfile u;
  if (cfg.type == BoundaryType::Upml) u.layers = cfg.layers;
  if (g.dims == 2) u.layers[4] = u.layers[5] = 0;
  for (int a = 0; a < 3; ++a) build_axis(cfg, g, u.layers, a, u.integer[a], u.half[a]);

  // Slab extents per axis, clamped so the boxes stay disjoint even if layers overlap
  // (build() rejects that case; this keeps the function total).
  std::array<int, 3> in_lo{}, in_hi{};  // interior [in_lo, in_hi) per axis
  for (int a = 0; a < 3; ++a) {
    const int n = g.n[a];
    in_lo[a] = std::clamp(u.layers[2 * a], 0, n);
    in_hi[a] = std::max(in_lo[a], std::clamp(n - u.layers[2 * a + 1], 0, n));
  }
  auto add = [&u](int i0, int i1, int j0, int j1, int k0, int k1) {
    PmlBox b{i0, i1, j0, j1, k0, k1, u.cells};
    if (i1 <= i0 || j1 <= j0 || k1 <= k0) return;
    u.cells += b.cells();
    u.boxes.push_back(b);
  };
  const int nx = g.n[0], ny = g.n[1], nz = g.n[2];
  // x slabs span everything; y slabs the x interior; z slabs the x and y interiors.
  add(0, in_lo[0], 0, ny, 0, nz);
  add(in_hi[0], nx, 0, ny, 0, nz);
  add(in_lo[0], in_hi[0], 0, in_lo[1], 0, nz);
  add(in_lo[0], in_hi[0], in_hi[1], ny, 0, nz);
  add(in_lo[0], in_hi[0], in_lo[1], in_hi[1], 0, in_lo[2]);
  add(in_lo[0], in_hi[0], in_lo[1], in_hi[1], in_hi[2], nz);
  return u;
}

}  // namespace clfdtd
