#include "model/cyl_pml.hpp"

#include <cmath>

namespace clfdtd {
namespace {

// UPML entries a = (2 kappa - s)/(2 kappa + s), b = 2/(2 kappa + s) with s = sigma dt / eps0 give
// kappa = (1 + a) / (2 b) and s = (1 - a) / b.
CylPmlAxis convert(const AxisProfile& p, int n) {
  CylPmlAxis out;
  out.inv_kappa.assign(n, 1.0);
  out.b.assign(n, 0.0);
  out.c.assign(n, 0.0);
  for (int i = 0; i < n && i < static_cast<int>(p.a.size()); ++i) {
    const double kappa = (1 + p.a[i]) / (2 * p.b[i]);
    const double s = (1 - p.a[i]) / p.b[i];
    if (s <= 0 && kappa == 1.0) continue;
    const double b = std::exp(-s / kappa);
    out.inv_kappa[i] = 1 / kappa;
    out.b[i] = b;
    out.c[i] = (b - 1) / kappa;
  }
  return out;
}

}  // namespace

CylPml build_cyl_pml(const UpmlProfile& upml, const std::array<int, 3>& n) {
  CylPml pml;
  pml.layers_r = upml.layers[static_cast<int>(Face::XHi)];
  pml.layers_z_lo = upml.layers[static_cast<int>(Face::ZLo)];
  pml.layers_z_hi = upml.layers[static_cast<int>(Face::ZHi)];
  pml.r[0] = convert(upml.integer[0], n[0]);
  pml.r[1] = convert(upml.half[0], n[0]);
  pml.z[0] = convert(upml.integer[2], n[2]);
  pml.z[1] = convert(upml.half[2], n[2]);
  return pml;
}

}  // namespace clfdtd
