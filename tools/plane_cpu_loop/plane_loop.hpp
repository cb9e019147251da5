// Seed 000's CPU baseline: a plain single-threaded 2D Yee tm loop (Ez Hx Hy) in vacuum inside PEC
// walls, written the way a scalar CPU code is written: two nested loops per half step, no threads,
// no hand vectorisation (the compiler may still vectorise it at -O3). clfdtd_plane_loop times it;
// tests/cli/test_cli_bench_plane.cpp checks it against the discrete cavity mode and the engines.
//
// Grid: nx x ny cells of d x d, the clfdtd 2D positions (docs/TWO_D.md): Ez (i, j), Hx (i, j+1/2),
// Hy (i+1/2, j). Ez is stored on the nodes 0..nx x 0..ny, row stride ny + 1; the wall nodes
// (i = 0, i = nx, j = 0, j = ny) are never written and stay zero: the PEC walls of clfdtd, whose
// Ez at i = 0 / j = 0 has the PEC id and whose values past index n read as zero.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace plane_loop {

constexpr double kC0 = 299792458.0;
constexpr double kMu0 = 1.25663706212e-6;
constexpr double kEps0 = 1.0 / (kMu0 * kC0 * kC0);
constexpr double kPi = 3.14159265358979323846;

template <class Real>
struct PlaneTm {
  int nx, ny;
  std::size_t stride;  // ny + 1
  double d, dt;
  Real ch, ce;         // dt / (mu0 d), dt / (eps0 d)
  std::vector<Real> ez, hx, hy;

  // The time step at `courant`, a fraction of the 2D limit d / (c sqrt 2).
  static double courant_dt(double d_, double courant) { return courant * d_ / (kC0 * std::sqrt(2.0)); }

  PlaneTm(int nx_, int ny_, double d_, double dt_)
      : nx(nx_), ny(ny_), stride(static_cast<std::size_t>(ny_) + 1), d(d_), dt(dt_),
        ch(static_cast<Real>(dt_ / (kMu0 * d_))), ce(static_cast<Real>(dt_ / (kEps0 * d_))),
        ez(static_cast<std::size_t>(nx_ + 1) * stride, Real(0)), hx(ez.size(), Real(0)),
        hy(ez.size(), Real(0)) {}

  std::size_t at(int i, int j) const { return static_cast<std::size_t>(i) * stride + j; }

  // The lowest cavity mode Ez = sin(pi i/nx) sin(pi j/ny), H = 0 at -dt/2: real data everywhere
  // (timings on zeros flatter a loop), and a known answer (mode_amplitude).
  void set_mode() {
    for (int i = 0; i <= nx; ++i)
      for (int j = 0; j <= ny; ++j)
        ez[at(i, j)] = (i == 0 || j == 0 || i == nx || j == ny)
                           ? Real(0)
                           : static_cast<Real>(std::sin(kPi * i / nx) * std::sin(kPi * j / ny));
    std::fill(hx.begin(), hx.end(), Real(0));
    std::fill(hy.begin(), hy.end(), Real(0));
  }

  // Ez of that mode after n steps divided by Ez at step 0: with H = 0 at -dt/2 the leapfrog gives
  // a_n = cos((n + 1/2) theta) / cos(theta / 2), sin(theta/2) = c dt sqrt(sum sin^2(k d/2)/d^2).
  double mode_amplitude(long n) const {
    const double s = kC0 * dt / d *
                     std::sqrt(std::pow(std::sin(kPi / (2.0 * nx)), 2) +
                               std::pow(std::sin(kPi / (2.0 * ny)), 2));
    const double theta = 2 * std::asin(s);
    return std::cos((n + 0.5) * theta) / std::cos(0.5 * theta);
  }

  // A source term added to Ez at node (i, j) after a step (clfdtd's E -= cb J, cb = dt / eps0).
  void add_ez(int i, int j, double v) { ez[at(i, j)] += static_cast<Real>(v); }

  // One step: H to (s + 1/2) dt, then E to (s + 1) dt.
  void step() {
    Real* __restrict e = ez.data();
    Real* __restrict x = hx.data();
    Real* __restrict y = hy.data();
    const std::size_t s = stride;
    for (int i = 0; i < nx; ++i) {
      for (int j = 0; j < ny; ++j) {
        const std::size_t c = i * s + j;
        x[c] -= ch * (e[c + 1] - e[c]);
        y[c] += ch * (e[c + s] - e[c]);
      }
    }
    for (int i = 1; i < nx; ++i) {
      for (int j = 1; j < ny; ++j) {
        const std::size_t c = i * s + j;
        e[c] += ce * ((y[c] - y[c - s]) - (x[c] - x[c - 1]));
      }
    }
  }
};

}  // namespace plane_loop
