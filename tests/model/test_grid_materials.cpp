// Grid derivation (patent steps 1-1-1 / 1-1-2) and the material table coefficients.
#include <doctest/doctest.h>

#include <cmath>

#include "errors.hpp"
#include "model/grid_geometry.hpp"
#include "model/materials.hpp"

using namespace clfdtd;

TEST_CASE("cell size is lambda_min / 10 and dt is 0.9 of the Courant limit") {
  RunConfig cfg;
  cfg.grid.size_m = Vec3{0.3, 0.6, 0.15};
  cfg.grid.max_frequency_hz = 1e9;
  cfg.time.steps = 123;
  const GridGeometry g = derive_grid_geometry(cfg);
  const double lambda = kC0 / 1e9;
  for (int a = 0; a < 3; ++a) CHECK(g.d[a] == doctest::Approx(lambda / 10).epsilon(1e-12));
  CHECK(g.n == std::array<int, 3>{10, 20, 5});  // 0.3 / 0.02998 = 10.007 rounds to 10
  const double limit = g.d[0] / (kC0 * std::sqrt(3.0));
  CHECK(g.courant_limit_dt() == doctest::Approx(limit).epsilon(1e-12));
  CHECK(g.dt == doctest::Approx(0.9 * limit).epsilon(1e-12));
  CHECK(g.steps == 123);
  CHECK(g.cells() == 1000);
}

TEST_CASE("explicit cell size, per-axis Courant limit and steps from a duration") {
  RunConfig cfg;
  cfg.grid.size_m = Vec3{0.1, 0.1, 0.1};
  cfg.grid.cell_size_m = Vec3{0.01, 0.02, 0.005};
  cfg.grid.max_frequency_hz = 1e9;  // ignored: the explicit size wins
  cfg.grid.courant = 0.5;
  cfg.time.duration_s = 1e-9;
  const GridGeometry g = derive_grid_geometry(cfg);
  CHECK(g.n == std::array<int, 3>{10, 5, 20});
  const double limit = 1.0 / (kC0 * std::sqrt(1e4 + 2.5e3 + 4e4));
  CHECK(g.dt == doctest::Approx(0.5 * limit).epsilon(1e-12));
  CHECK(g.steps == static_cast<long>(std::ceil(1e-9 / g.dt)));
}

TEST_CASE("a domain thinner than half a cell still has one cell") {
  RunConfig cfg;
  cfg.grid.size_m = Vec3{0.1, 0.1, 0.001};
  cfg.grid.cell_size_m = Vec3{0.01, 0.01, 0.01};
  cfg.time.steps = 1;
  CHECK(derive_grid_geometry(cfg).n == std::array<int, 3>{10, 10, 1});
}

TEST_CASE("material table: built-in ids, lookup and coefficients") {
  MaterialConfig diel{"diel", 4.0, 1.0, 0.5, false};
  MaterialConfig ferrite{"ferrite", 1.0, 2.5, 0.0, false};
  MaterialConfig metal{"metal", 1.0, 1.0, 0.0, true};
  const MaterialTable t({diel, ferrite, metal});
  REQUIRE(t.size() == 5);
  CHECK(t.find("pec") == MaterialTable::kPec);
  CHECK(t.find("vacuum") == MaterialTable::kVacuum);
  CHECK(t.find("diel") == 2);
  CHECK(t.find("metal") == 4);
  CHECK(t.find("nothing") == -1);
  CHECK(t.any_magnetic());
  CHECK_FALSE(MaterialTable({diel, metal}).any_magnetic());

  const double dt = 1e-12;
  const ECoefficients v = t.e_coefficients(MaterialTable::kVacuum, dt);
  CHECK(v.ca == 1.0);
  CHECK(v.cb == doctest::Approx(dt / kEps0));
  CHECK(v.inv_eps_r == 1.0);

  const double eps = 4.0 * kEps0, q = 0.5 * dt / (2 * eps);
  const ECoefficients e = t.e_coefficients(2, dt);
  CHECK(e.ca == doctest::Approx((1 - q) / (1 + q)));
  CHECK(e.cb == doctest::Approx(dt / eps / (1 + q)));
  CHECK(e.inv_eps_r == doctest::Approx(0.25));

  for (std::uint8_t id : {MaterialTable::kPec, std::uint8_t(4)}) {
    const ECoefficients p = t.e_coefficients(id, dt);
    CHECK(p.ca == 0.0);
    CHECK(p.cb == 0.0);
    CHECK(p.inv_eps_r == 0.0);
  }
  const HCoefficients h = t.h_coefficients(3, dt);
  CHECK(h.db == doctest::Approx(dt / (kMu0 * 2.5)));
  CHECK(h.inv_mu_r == doctest::Approx(0.4));
  CHECK(t.h_coefficients(MaterialTable::kVacuum, dt).db == doctest::Approx(dt / kMu0));
}

TEST_CASE("material table: at most 256 entries and unique names") {
  std::vector<MaterialConfig> many;
  for (int i = 0; i < 254; ++i) many.push_back(MaterialConfig{"m" + std::to_string(i)});
  CHECK(MaterialTable(many).size() == 256);
  many.push_back(MaterialConfig{"one_too_many"});
  CHECK_THROWS_AS(MaterialTable{many}, ConfigError);
  CHECK_THROWS_AS(MaterialTable({MaterialConfig{"a"}, MaterialConfig{"a"}}), ConfigError);
  CHECK_THROWS_AS(MaterialTable({MaterialConfig{"vacuum"}}), ConfigError);
}
