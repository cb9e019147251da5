#include "model/cyl_pml.hpp"

#include <cmath>

namespace clfdtd {
namespace {

// UPML entries a = (2 kappa - s)/(2 kappa + s), b = 2/(2 kappa + s) with s = sigma dt / eps0 give
// kappa = (1 + a) / (2 b) and s = (1 - a) / b. With alpha (ad = alpha dt / eps0) the recursive
// convolution of s = kappa + sigma / (alpha + i w eps0) has
//   b = exp(-(s / kappa + ad)),  c = s / (s kappa + kappa^2 ad) (b - 1)
// ((b - 1) / kappa for ad = 0). Outside the layers sigma = 0: b = c = 0, psi stays 0.
CylPmlAxis convert(const AxisProfile& p, int n, double ad) {
  CylPmlAxis out;
  out.inv_kappa.assign(n, 1.0);
  out.b.assign(n, 0.0);
  out.c.assign(n, 0.0);
  out.kappa.assign(n, 1.0);
  out.sigma_dt.assign(n, 0.0);
  for (int i = 0; i < n && i < static_cast<int>(p.a.size()); ++i) {
    const double kappa = (1 + p.a[i]) / (2 * p.b[i]);
    const double s = (1 - p.a[i]) / p.b[i];
    if (s <= 0 && kappa == 1.0) continue;
    out.kappa[i] = kappa;
    out.inv_kappa[i] = 1 / kappa;
    if (s <= 0) continue;  // kappa alone: no convolution
    const double b = std::exp(-(s / kappa + ad));
    out.sigma_dt[i] = s;
    out.b[i] = b;
    out.c[i] = s / (s * kappa + kappa * kappa * ad) * (b - 1);
  }
  return out;
}

}  // namespace

CylPml build_cyl_pml(const UpmlProfile& upml, const std::array<int, 3>& n, double alpha_dt) {
  CylPml pml;
  pml.alpha_dt = alpha_dt;
  pml.layers_r = upml.layers[static_cast<int>(Face::XHi)];
  pml.layers_z_lo = upml.layers[static_cast<int>(Face::ZLo)];
  pml.layers_z_hi = upml.layers[static_cast<int>(Face::ZHi)];
  pml.r[0] = convert(upml.integer[0], n[0], alpha_dt);
  pml.r[1] = convert(upml.half[0], n[0], alpha_dt);
  pml.z[0] = convert(upml.integer[2], n[2], alpha_dt);
  pml.z[1] = convert(upml.half[2], n[2], alpha_dt);
  return pml;
}

}  // namespace clfdtd
