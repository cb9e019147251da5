// The cylindrical CPML tables: sigma and kappa recovered from the UPML profile, the CFS
// b = exp(-(s/kappa + alpha dt/eps0)), c = s / (s kappa + kappa^2 alpha dt/eps0) (b - 1)
// ((b - 1)/kappa for alpha = 0), neutral (1, 0, 0) outside the layers.
#include <doctest/doctest.h>

#include <cmath>

#include "model/cyl_pml.hpp"

using namespace clfdtd;

TEST_CASE("cylindrical CPML tables from the UPML profile") {
  GridGeometry g;
  g.n = {30, 1, 40};
  g.d = {0.01, 1.0, 0.01};
  g.dt = 1e-11;
  g.steps = 10;
  BoundaryConfig b;
  b.layers = {0, 8, 0, 0, 6, 7};
  b.kappa_max = 3;
  const UpmlProfile upml = build_upml_profile(b, g);
  const CylPml pml = build_cyl_pml(upml, g.n);
  CHECK(pml.layers_r == 8);
  CHECK(pml.layers_z_lo == 6);
  CHECK(pml.layers_z_hi == 7);
  CHECK(pml.enabled());
  CHECK(pml.in_r_slab(22, 30));
  CHECK_FALSE(pml.in_r_slab(21, 30));
  CHECK(pml.in_z_slab(5, 40));
  CHECK(pml.in_z_slab(33, 40));
  CHECK_FALSE(pml.in_z_slab(6, 40));
  // Interior: neutral.
  CHECK(pml.r[0].inv_kappa[5] == 1.0);
  CHECK(pml.r[0].b[5] == 0.0);
  CHECK(pml.r[0].c[5] == 0.0);
  // Deep in the r layer: sigma and kappa from the profile's a, b.
  for (int half = 0; half < 2; ++half) {
    const AxisProfile& p = half ? upml.half[0] : upml.integer[0];
    const int i = 28;
    const double kappa = (1 + p.a[i]) / (2 * p.b[i]);
    const double s = (1 - p.a[i]) / p.b[i];
    CHECK(kappa > 1.5);
    CHECK(s > 0.01);
    CHECK(pml.r[half].inv_kappa[i] == doctest::Approx(1 / kappa));
    CHECK(pml.r[half].kappa[i] == doctest::Approx(kappa));
    CHECK(pml.r[half].sigma_dt[i] == doctest::Approx(s));
    // The CFS alpha (alpha dt / eps0 = kCylPmlAlphaDt in every layer).
    const double ad = kCylPmlAlphaDt, b = std::exp(-(s / kappa + ad));
    CHECK(pml.alpha_dt == ad);
    CHECK(ad > 0);
    CHECK(pml.r[half].b[i] == doctest::Approx(b));
    CHECK(pml.r[half].c[i] == doctest::Approx(s / (s * kappa + kappa * kappa * ad) * (b - 1)));
    // alpha = 0: the plain CPML's b = exp(-s / kappa), c = (b - 1) / kappa.
    const CylPml plain = build_cyl_pml(upml, g.n, 0.0);
    CHECK(plain.r[half].b[i] == doctest::Approx(std::exp(-s / kappa)));
    CHECK(plain.r[half].c[i] == doctest::Approx((std::exp(-s / kappa) - 1) / kappa));
  }
  CHECK(pml.r[0].kappa[5] == 1.0);
  CHECK(pml.r[0].sigma_dt[5] == 0.0);
  CHECK(pml.z[0].b[1] > 0.0);
  CHECK(pml.z[0].b[1] < 1.0);
}

TEST_CASE("cylindrical Courant limit follows the largest mode") {
  GridGeometry g;
  g.cylindrical = true;
  g.n = {10, 1, 10};
  g.d = {0.01, 1.0, 0.02};
  g.modes = {0, 2};
  CHECK(g.courant_limit_dt() ==
        doctest::Approx(1 / (kC0 * std::sqrt(9.25 / (0.01 * 0.01) + 1 / (0.02 * 0.02)))));
  g.modes = {0};
  CHECK(g.courant_limit_dt() == doctest::Approx(1 / (kC0 * std::sqrt(1.25e4 + 2500))));
}
