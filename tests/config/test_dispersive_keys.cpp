// [material.<name>] debye, drude, lorentz: the poles they read and the inputs they refuse.
#include <doctest/doctest.h>

#include <string>

#include "config/load_config.hpp"
#include "errors.hpp"

using namespace clfdtd;

namespace {

const std::string kGrid = "[grid]\nsize = 0.1 0.1 0.1\ncell_size = 0.005\n[time]\nsteps = 10\n";

RunConfig load(const std::string& text, const std::string& grid = kGrid) {
  return load_config_text(grid + text, "poles.ini", {});
}

std::string error_of(const std::string& text, const std::string& grid = kGrid) {
  try {
    load(text, grid);
  } catch (const ConfigError& e) {
    return e.what();
  }
  FAIL("no ConfigError");
  return "";
}

}  // namespace

TEST_CASE("poles: debye, drude and lorentz groups read in that order, eps_r kept as eps_inf") {
  const RunConfig cfg = load("[material.m]\neps_r = 5\nlorentz = 2 1e9 1e8\n"
                             "drude = 3e9 0 4e9 1e8\ndebye = 75 9.4e-12\n");
  REQUIRE(cfg.materials.size() == 1);
  const MaterialConfig& m = cfg.materials.front();
  CHECK(m.eps_r == 5);
  REQUIRE(m.poles.size() == 4);
  CHECK(m.poles[0].kind == PoleKind::Debye);
  CHECK(m.poles[0].p[0] == 75);
  CHECK(m.poles[0].p[1] == doctest::Approx(9.4e-12));
  CHECK(m.poles[1].kind == PoleKind::Drude);
  CHECK(m.poles[1].p[0] == 3e9);
  CHECK(m.poles[1].p[1] == 0);  // a lossless plasma
  CHECK(m.poles[2].p[0] == 4e9);
  CHECK(m.poles[3].kind == PoleKind::Lorentz);
  CHECK(m.poles[3].p[1] == 1e9);
  CHECK(m.poles[3].p[2] == 1e8);
  CHECK(load("[material.plain]\neps_r = 3\n").materials.front().poles.empty());
}

TEST_CASE("poles: incomplete groups, zero or negative values, too many poles; 2D wave and cylindrical refused") {
  CHECK(error_of("[material.m]\ndebye = 75\n").find("groups of 2 numbers (delta_eps tau)") !=
        std::string::npos);
  CHECK(error_of("[material.m]\nlorentz = 2 1e9 1e8 3\n").find("groups of 3") != std::string::npos);
  CHECK(error_of("[material.m]\ndebye = 75 0\n").find("material.m.debye") != std::string::npos);
  CHECK(error_of("[material.m]\ndrude = 0 1e8\n").find("f_p > 0") != std::string::npos);
  CHECK(error_of("[material.m]\nlorentz = 2 0 1e8\n").find("f0 > 0") != std::string::npos);
  CHECK(error_of("[material.m]\ndrude = -3e9 1e8\n").find("material.m.drude") != std::string::npos);
  std::string nine = "[material.m]\ndebye =";
  for (int p = 0; p < 9; ++p) nine += " 1 1e-10";
  CHECK(error_of(nine + "\n").find("at most 8 poles") != std::string::npos);
  const std::string two_d = "[grid]\nsize = 0.1 0.1\ncell_size = 0.005\n[time]\nsteps = 10\n";
  CHECK(load("[material.m]\ndrude = 3e9 1e8\n", two_d).materials.front().poles.size() == 1);
  const std::string wave =
      "[grid]\nsize = 0.1 0.1\ncell_size = 0.005\nequation = wave\n[time]\nsteps = 10\n";
  CHECK(error_of("[material.m]\ndrude = 3e9 1e8\n", wave).find("no poles in a cylindrical model or a "
                                                                 "2D wave model") != std::string::npos);
  const std::string cyl = "[grid]\ncoordinates = cylindrical\nsize = 0.1 0.1\ncell_size = 0.005\n"
                          "[time]\nsteps = 10\n";
  CHECK(error_of("[material.m]\ndebye = 3 1e-10\n", cyl).find("no poles") != std::string::npos);
}

TEST_CASE("poles with anisotropy: three eps_r values share the poles; axes gives each axis its own material") {
  const RunConfig shared = load("[material.m]\neps_r = 2 3 4\ndrude = 3e9 1e8\n");
  const MaterialConfig& s = shared.materials.front();
  CHECK(s.anisotropic());
  CHECK_FALSE(s.per_axis_poles());
  for (std::size_t a = 0; a < 3; ++a) CHECK(s.poles_along(a).size() == 1);

  // A wire medium: a Drude plasma along z, vacuum across; and one with Lorentz along x, glass along y.
  const RunConfig cfg = load("[material.wires]\naxes = vacuum vacuum plasma\n"
                             "[material.plasma]\neps_r = 1.5\nsigma = 2\ndrude = 5e9 1e8\n"
                             "[material.glass]\neps_r = 4\nmu_r = 1.2\n"
                             "[material.mixed]\naxes = oscillator glass vacuum\n"
                             "[material.oscillator]\neps_r = 2\nlorentz = 1 8e9 1e7\n");
  auto named = [&](const std::string& n) -> const MaterialConfig& {
    for (const MaterialConfig& m : cfg.materials)
      if (m.name == n) return m;
    FAIL("no material " << n);
    return cfg.materials.front();
  };
  const MaterialConfig& w = named("wires");
  CHECK(w.anisotropic());
  CHECK(w.dispersive());
  CHECK(w.eps_axes == std::array<double, 3>{1, 1, 1.5});
  CHECK(w.sigma_axes == std::array<double, 3>{0, 0, 2});
  CHECK(w.eps_r == 1.5);  // the largest, as for three values
  CHECK(w.poles_along(0).empty());
  CHECK(w.poles_along(1).empty());
  REQUIRE(w.poles_along(2).size() == 1);
  CHECK(w.poles_along(2)[0].kind == PoleKind::Drude);
  CHECK(w.poles_along(2)[0].p[0] == 5e9);
  CHECK(w.all_poles().size() == 1);
  const MaterialConfig& x = named("mixed");
  CHECK(x.eps_axes == std::array<double, 3>{2, 4, 1});
  CHECK(x.mu_axes == std::array<double, 3>{1, 1.2, 1});
  REQUIRE(x.poles_along(0).size() == 1);
  CHECK(x.poles_along(0)[0].kind == PoleKind::Lorentz);
  CHECK(x.poles_along(1).empty());
  // A material of three equal axes is an isotropic one.
  CHECK_FALSE(load("[material.m]\naxes = g g g\n[material.g]\neps_r = 3\ndebye = 1 1e-9\n")
                  .materials.front().anisotropic());

  const std::string wave =
      "[grid]\nsize = 0.1 0.1\ncell_size = 0.005\nequation = wave\n[time]\nsteps = 10\n";
  CHECK(error_of("[material.m]\naxes = a vacuum vacuum\n[material.a]\neps_r = 2\n", wave)
            .find("no axes in a cylindrical model or with grid.equation = wave") !=
        std::string::npos);
}
