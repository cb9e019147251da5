// The plane waves a periodic Yee grid holds, for the tests that find them by harmonic inversion
// (test_bloch.cpp: vacuum at a Bloch k; test_anisotropic.cpp: a diagonal anisotropic medium).
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <vector>

#include "model/grid_geometry.hpp"

namespace clfdtd::test {

// The Yee grid's frequencies (Hz) in (f1, f2) of the plane waves q = k + G of a box of n cells of size d
// periodic along every axis and filled with a medium of diagonal eps and mu: with K the grid's
// wavenumbers, the matrix B = eps^-1/2 [K]x^T mu^-1 [K]x eps^-1/2 has the eigenvalue 0 (along
// eps^1/2 K) and two whose sum is its trace and whose product is the sum of its principal 2 x 2
// minors; each is (2 sin(pi f dt) / (c dt))^2.
inline std::vector<double> yee_frequencies(const std::array<int, 3>& n, double d, const std::array<double, 3>& k,
                                    const std::array<double, 3>& eps, const std::array<double, 3>& mu,
                                    double dt, double f1, double f2) {
  const double pi = std::acos(-1.0);
  std::set<double> out;
  for (int a = -4; a <= 4; ++a)
    for (int b = -4; b <= 4; ++b)
      for (int c = -4; c <= 4; ++c) {
        const int m[3] = {a, b, c};
        double K[3];
        for (int x = 0; x < 3; ++x) {
          const double q = k[static_cast<std::size_t>(x)] + 2 * pi * m[x] / (n[static_cast<std::size_t>(x)] * d);
          K[x] = 2 * std::sin(q * d / 2) / d;
        }
        // [K]x: the cross product with K as a matrix; C = [K]x^T diag(1/mu) [K]x.
        const double X[3][3] = {{0, -K[2], K[1]}, {K[2], 0, -K[0]}, {-K[1], K[0], 0}};
        double B[3][3];
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) {
            double s = 0;
            for (int l = 0; l < 3; ++l) s += X[l][i] * X[l][j] / mu[static_cast<std::size_t>(l)];
            B[i][j] = s / std::sqrt(eps[static_cast<std::size_t>(i)] * eps[static_cast<std::size_t>(j)]);
          }
        const double trace = B[0][0] + B[1][1] + B[2][2];
        const double minors = B[0][0] * B[1][1] - B[0][1] * B[1][0] + B[1][1] * B[2][2] -
                              B[1][2] * B[2][1] + B[0][0] * B[2][2] - B[0][2] * B[2][0];
        const double disc = std::sqrt(std::max(0.0, trace * trace - 4 * minors));
        for (const double lambda : {(trace - disc) / 2, (trace + disc) / 2}) {
          const double v = kC0 * dt * std::sqrt(std::max(0.0, lambda)) / 2;
          if (v >= 1 || v <= 0) continue;
          const double f = std::asin(v) / (pi * dt);
          if (f > f1 && f < f2) out.insert(f);
        }
      }
  // Degenerate waves are one frequency (two equal eigenvalues come out of the square root of a
  // rounded zero ~1e-8 apart).
  std::vector<double> merged;
  for (const double f : out)
    if (merged.empty() || f > merged.back() * (1 + 1e-7)) merged.push_back(f);
  return merged;
}

}  // namespace clfdtd::test
