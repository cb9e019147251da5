// UPML profiles (grading, neutral outside the layers, a/b/cp/cm) and the disjoint PML boxes.
#include <doctest/doctest.h>

#include <cmath>

#include "model/upml_profile.hpp"

using namespace clfdtd;

namespace {

GridGeometry grid(int nx, int ny, int nz, double d = 0.01) {
  GridGeometry g;
  g.n = {nx, ny, nz};
  g.d = {d, d, d};
  g.dt = 0.9 * g.courant_limit_dt();
  g.steps = 10;
  return g;
}

void check_entry(const AxisProfile& p, int i, double sigma, double kappa, double dt) {
  const double s = sigma * dt / kEps0;
  CHECK(p.a[i] == doctest::Approx((2 * kappa - s) / (2 * kappa + s)));
  CHECK(p.b[i] == doctest::Approx(2 / (2 * kappa + s)));
  CHECK(p.cp[i] == doctest::Approx(2 * kappa + s));
  CHECK(p.cm[i] == doctest::Approx(2 * kappa - s));
}

void check_neutral(const AxisProfile& p, int i) {
  CHECK(p.a[i] == 1.0);
  CHECK(p.b[i] == 1.0);
  CHECK(p.cp[i] == 2.0);
  CHECK(p.cm[i] == 2.0);
}

}  // namespace

TEST_CASE("optimal sigma_max") {
  CHECK(optimal_sigma_max(3, 0.01) == doctest::Approx(0.8 * 4 / (kEta0 * 0.01)));
}

TEST_CASE("graded profile values, neutral interior") {
  const GridGeometry g = grid(20, 20, 20);
  BoundaryConfig cfg;
  cfg.layers = {5, 5, 5, 5, 5, 5};
  cfg.grading = 3;
  cfg.kappa_max = 2;
  const UpmlProfile u = build_upml_profile(cfg, g);
  const double smax = optimal_sigma_max(3, 0.01);
  auto sigma = [&](double rho) { return smax * std::pow(rho, 3); };
  auto kappa = [&](double rho) { return 1 + std::pow(rho, 3); };
  for (int a = 0; a < 3; ++a) {
    REQUIRE(u.integer[a].a.size() == 20);
    REQUIRE(u.half[a].cm.size() == 20);
    for (int i = 5; i < 15; ++i) {  // exactly the non-PML indices
      check_neutral(u.integer[a], i);
      check_neutral(u.half[a], i);
    }
    check_entry(u.integer[a], 0, sigma(1.0), kappa(1.0), g.dt);   // at the outer wall
    check_entry(u.integer[a], 2, sigma(0.6), kappa(0.6), g.dt);   // x = 2d, rho = 3/5
    check_entry(u.half[a], 2, sigma(0.5), kappa(0.5), g.dt);      // x = 2.5d
    check_entry(u.half[a], 4, sigma(0.1), kappa(0.1), g.dt);
    check_entry(u.integer[a], 17, sigma(0.4), kappa(0.4), g.dt);  // X1 = 15d
    check_entry(u.half[a], 17, sigma(0.5), kappa(0.5), g.dt);
    check_entry(u.half[a], 19, sigma(0.9), kappa(0.9), g.dt);
  }
}

TEST_CASE("explicit sigma_max, per-face layers, and faces without a layer") {
  GridGeometry g = grid(12, 10, 8);
  g.d = {0.01, 0.02, 0.005};
  g.dt = 0.9 * g.courant_limit_dt();
  BoundaryConfig cfg;
  cfg.layers = {4, 0, 0, 0, 2, 3};
  cfg.grading = 2;
  cfg.sigma_max = 7.0;
  const UpmlProfile u = build_upml_profile(cfg, g);
  check_entry(u.integer[0], 1, 7.0 * 0.75 * 0.75, 1, g.dt);
  for (int i = 4; i < 12; ++i) check_neutral(u.half[0], i);
  for (int j = 0; j < 10; ++j) {
    check_neutral(u.integer[1], j);
    check_neutral(u.half[1], j);
  }
  check_entry(u.half[2], 0, 7.0 * 0.75 * 0.75, 1, g.dt);  // (2 - 0.5)/2
  check_entry(u.integer[2], 7, 7.0 * (4.0 / 9), 1, g.dt);  // X1 = 5 dz, rho = 2/3
  check_neutral(u.integer[2], 5);
}

TEST_CASE("grading 0 keeps the interior neutral") {
  BoundaryConfig cfg;
  cfg.layers = {3, 3, 3, 3, 3, 3};
  cfg.grading = 0;
  const GridGeometry g = grid(10, 10, 10);
  const UpmlProfile u = build_upml_profile(cfg, g);
  check_neutral(u.integer[0], 3);
  check_neutral(u.half[0], 6);
  check_entry(u.half[0], 2, optimal_sigma_max(0, 0.01), 1, g.dt);
}

TEST_CASE("overlapping low and high layers take the deeper rho") {
  BoundaryConfig cfg;
  cfg.layers = {2, 2, 0, 0, 0, 0};
  cfg.grading = 1;
  cfg.sigma_max = 10;
  const GridGeometry g = grid(3, 4, 4);
  const UpmlProfile u = build_upml_profile(cfg, g);
  check_entry(u.integer[0], 1, 5, 1, g.dt);  // low: (2-1)/2, high: 0
  check_entry(u.integer[0], 2, 5, 1, g.dt);  // low: 0, high: (2-1)/2
  check_entry(u.half[0], 2, 7.5, 1, g.dt);   // high: 1.5/2
}

TEST_CASE("PEC boundary: no layers, no boxes, neutral profiles") {
  BoundaryConfig cfg;
  cfg.type = BoundaryType::Pec;
  const GridGeometry g = grid(8, 8, 8);
  const UpmlProfile u = build_upml_profile(cfg, g);
  CHECK(u.layers == std::array<int, 6>{});
  CHECK(u.boxes.empty());
  CHECK(u.cells == 0);
  CHECK_FALSE(u.enabled());
  for (int a = 0; a < 3; ++a)
    for (int i = 0; i < 8; ++i) check_neutral(u.integer[a], i), check_neutral(u.half[a], i);
  CHECK_FALSE(u.in_pml(0, 0, 0, g.n));
}

TEST_CASE("PML boxes are disjoint and cover exactly the PML cells") {
  const std::array<std::array<int, 6>, 5> cases{{
      {2, 0, 3, 1, 0, 4},
      {1, 1, 1, 1, 1, 1},
      {0, 0, 0, 0, 0, 2},
      {3, 2, 0, 0, 1, 0},
      {0, 0, 0, 0, 0, 0},
  }};
  const GridGeometry g = grid(7, 9, 11);
  for (const auto& layers : cases) {
    CAPTURE(layers[0]);
    BoundaryConfig cfg;
    cfg.layers = layers;
    const UpmlProfile u = build_upml_profile(cfg, g);
    std::vector<int> hits(7 * 9 * 11, 0);
    std::size_t offset = 0;
    for (const PmlBox& b : u.boxes) {
      CHECK(b.cells() > 0);
      CHECK(b.offset == offset);
      offset += b.cells();
      for (int i = b.i0; i < b.i1; ++i)
        for (int j = b.j0; j < b.j1; ++j)
          for (int k = b.k0; k < b.k1; ++k) ++hits[(i * 9 + j) * 11 + k];
    }
    CHECK(u.cells == offset);
    std::size_t pml = 0;
    for (int i = 0; i < 7; ++i)
      for (int j = 0; j < 9; ++j)
        for (int k = 0; k < 11; ++k) {
          const bool in = u.in_pml(i, j, k, g.n);
          pml += in;
          if (hits[(i * 9 + j) * 11 + k] != (in ? 1 : 0)) FAIL("cell " << i << "," << j << "," << k);
        }
    CHECK(u.cells == pml);
    CHECK(u.boxes.size() <= 6);
  }
}
