// Exact fields of a 2D line source, exp(+i w t) convention (the monitors' transform gives phasors
// of it), for the 2D monitor tests. An electric line current I (A) along z at (x0, y0) in vacuum
// (Balanis, Advanced Engineering Electromagnetics, 11.3.1, with j -> i):
//   Ez = -(k eta0 I / 4) H0^(2)(k rho),   H_phi = -(i k I / 4) H1^(2)(k rho),
// i.e. Hx = (i k I / 4) H1^(2)(k rho) (y - y0) / rho, Hy = -(i k I / 4) H1^(2)(k rho) (x - x0) / rho;
// it radiates P' = eta0 k I^2 / 8 per metre (tm). Its dual (E' = eta0 H, H' = -E / eta0, also a
// solution of the source-free equations) is the te field of a magnetic line current, with the
// same P'.
#pragma once
#include <cmath>
#include <complex>

#include "model/grid_geometry.hpp"
#include "monitors/surface_fields.hpp"

namespace clfdtd::test {

inline std::complex<double> hankel2(int order, double x) {
  return {std::cyl_bessel_j(static_cast<double>(order), x),
          -std::cyl_neumann(static_cast<double>(order), x)};
}

struct LineSource {
  double x0 = 0, y0 = 0;
  std::complex<double> current = 1.0;  // A
  bool te = false;                     // the dual field (Hz, Ex, Ey)

  // Adds the source's field at (x, y) at frequency f to e and h.
  void add(double f, double x, double y, CVec3& e, CVec3& h) const {
    const double k = 2 * M_PI * f / kC0;
    const double dx = x - x0, dy = y - y0, rho = std::hypot(dx, dy);
    const std::complex<double> i(0, 1);
    const std::complex<double> ez = -(k * kEta0 / 4) * current * hankel2(0, k * rho);
    const std::complex<double> h1 = (i * k / 4.0) * current * hankel2(1, k * rho);
    const std::complex<double> hx = h1 * dy / rho, hy = -h1 * dx / rho;
    if (!te) {
      e[2] += ez;
      h[0] += hx;
      h[1] += hy;
    } else {
      e[0] += kEta0 * hx;
      e[1] += kEta0 * hy;
      h[2] += -ez / kEta0;
    }
  }
};

// eta0 k |I|^2 / 8: what a line source radiates per metre of depth.
inline double line_source_power(double f, double current) {
  return kEta0 * (2 * M_PI * f / kC0) * current * current / 8;
}

}  // namespace clfdtd::test
