// The exact fields of Hertzian dipoles (every 1/r, 1/r^2, 1/r^3 term) and their far-field
// radiation intensity, in the exp(+i w t) phasor convention of the monitors' transform
// (X(f) = sum x(t) exp(-i 2 pi f t) dt): an outgoing wave goes as exp(-i k r).
#pragma once
#include <cmath>
#include <complex>
#include <functional>
#include <vector>

#include "model/grid_geometry.hpp"
#include "surface_helpers.hpp"

namespace clfdtd::test {

struct Dipole {
  Vec3 r_m;  // position
  CVec3 p;   // moment, C m
};

// Jackson (9.18) with i -> -i (his exp(-i w t) convention turned into exp(+i w t)):
//   H = c k^2 / (4 pi) (n x p) exp(-i k r) / r (1 + 1 / (i k r)),
//   E = 1 / (4 pi eps0) [k^2 (n x p) x n exp(-i k r) / r + (3 n (n . p) - p) (1/r^3 + i k / r^2) exp(-i k r)].
inline FieldAt dipole_field(double f, std::vector<Dipole> dipoles) {
  return [f, dipoles](const Vec3& at, CVec3& e, CVec3& h) {
    using C = std::complex<double>;
    const double k = 2 * M_PI * f / kC0;
    e = {};
    h = {};
    for (const Dipole& d : dipoles) {
      const double rx = at.x - d.r_m.x, ry = at.y - d.r_m.y, rz = at.z - d.r_m.z;
      const double r = std::sqrt(rx * rx + ry * ry + rz * rz);
      const double n[3] = {rx / r, ry / r, rz / r};
      const C n_dot_p = n[0] * d.p[0] + n[1] * d.p[1] + n[2] * d.p[2];
      const C nxp[3] = {n[1] * d.p[2] - n[2] * d.p[1], n[2] * d.p[0] - n[0] * d.p[2],
                        n[0] * d.p[1] - n[1] * d.p[0]};
      const C nxpxn[3] = {nxp[1] * n[2] - nxp[2] * n[1], nxp[2] * n[0] - nxp[0] * n[2],
                          nxp[0] * n[1] - nxp[1] * n[0]};
      const C wave = std::exp(C(0, -k * r));
      const C h_scale = kC0 * k * k / (4 * M_PI) * wave / r * (1.0 + 1.0 / C(0, k * r));
      const C near = (1 / (r * r * r) + C(0, k) / (r * r)) * wave;
      for (int a = 0; a < 3; ++a) {
        h[a] += h_scale * nxp[a];
        e[a] += 1 / (4 * M_PI * kEps0) * (k * k * nxpxn[a] * wave / r + (3.0 * n[a] * n_dot_p - d.p[a]) * near);
      }
    }
  };
}

// Radiation intensity toward u: r^2 |E_far|^2 / (2 eta0) with
// E_far = k^2 / (4 pi eps0) exp(-i k r) / r sum (u x p) x u exp(+i k u . r_n).
inline double dipole_intensity(double f, const std::vector<Dipole>& dipoles, const Vec3& u) {
  using C = std::complex<double>;
  const double k = 2 * M_PI * f / kC0;
  C sum[3] = {};
  for (const Dipole& d : dipoles) {
    const C phase = std::exp(C(0, k * (u.x * d.r_m.x + u.y * d.r_m.y + u.z * d.r_m.z)));
    const C u_dot_p = u.x * d.p[0] + u.y * d.p[1] + u.z * d.p[2];
    for (int a = 0; a < 3; ++a) sum[a] += (d.p[a] - u_dot_p * u[a]) * phase;
  }
  const double e_scale = k * k / (4 * M_PI * kEps0);
  return e_scale * e_scale * (std::norm(sum[0]) + std::norm(sum[1]) + std::norm(sum[2])) / (2 * kEta0);
}

// The power a single dipole radiates in free space: mu0 w^4 |p|^2 / (12 pi c).
inline double dipole_power(double f, const CVec3& p) {
  const double w = 2 * M_PI * f;
  return kMu0 * std::pow(w, 4) * (std::norm(p[0]) + std::norm(p[1]) + std::norm(p[2])) / (12 * M_PI * kC0);
}

// The integral of intensity(u) over theta0..theta1, phi0..phi1 (radians; composite Simpson, n
// intervals each way): the radiated power into that part of the sphere.
inline double integrate_sphere(const std::function<double(const Vec3&)>& intensity, double theta0,
                               double theta1, double phi0, double phi1, int n = 400) {
  auto simpson_w = [n](int i) { return (i == 0 || i == n) ? 1.0 : (i % 2 ? 4.0 : 2.0); };
  const double dt = (theta1 - theta0) / n, dp = (phi1 - phi0) / n;
  double sum = 0;
  for (int i = 0; i <= n; ++i) {
    const double th = theta0 + i * dt;
    for (int j = 0; j <= n; ++j) {
      const double ph = phi0 + j * dp;
      const Vec3 u{std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th)};
      sum += simpson_w(i) * simpson_w(j) * intensity(u) * std::sin(th);
    }
  }
  return sum * dt * dp / 9;
}

}  // namespace clfdtd::test
