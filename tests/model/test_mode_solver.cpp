// The cross-section mode solver (model/mode_solver.hpp) against what is known exactly on the grid:
// a metal rectangle's TE and TM modes (the grid's transverse wavenumbers), a coax's TEM mode
// (Beta = K0 sqrt(eps mu)), a dielectric slab's fundamental mode against the 1D problem it reduces
// to on the grid, and the continuum slab formula as the cells shrink; modes carry 1 W each and are
// orthogonal in power.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <vector>

#include "model/grid_geometry.hpp"
#include "model/mode_combination.hpp"
#include "model/mode_solver.hpp"
#include "model/parallel_tasks.hpp"

using namespace clfdtd;

namespace {

constexpr double kPi = 3.14159265358979323846;

double courant_dt(double du, double dv, double dw) {
  return 0.9 / (kC0 * std::sqrt(1 / (du * du) + 1 / (dv * dv) + 1 / (dw * dw)));
}

double grid_k0(double f, double dt) { return 2 * std::sin(kPi * f * dt) / (kC0 * dt); }

// K = 2 sin(k d / 2) / d for k = m pi / a.
double grid_k(int m, double a, double d) { return 2 / d * std::sin(m * kPi / a * d / 2); }

// 1/2 sum (E_a x H_b) . w du dv.
double cross_power(const CrossSection& cs, const GuidedMode& a, const GuidedMode& b) {
  double p = 0;
  for (std::size_t s = 0; s < a.eu.size(); ++s) p += a.eu[s] * b.hv[s];
  for (std::size_t s = 0; s < a.ev.size(); ++s) p -= a.ev[s] * b.hu[s];
  return 0.5 * p * cs.du * cs.dv;
}

// Every E sample's permittivity from its position (i, j in cells): E_u at (i + 1/2, j), E_v at
// (i, j + 1/2), E_w at the nodes.
void fill_eps(CrossSection& cs, const std::function<double(double, double)>& eps) {
  for (int j = 0; j <= cs.nv; ++j)
    for (int i = 0; i <= cs.nu; ++i) {
      if (i < cs.nu) cs.eps_u[i + cs.nu * j] = eps(i + 0.5, j);
      if (j < cs.nv) cs.eps_v[i + (cs.nu + 1) * j] = eps(i, j + 0.5);
      cs.eps_w[i + (cs.nu + 1) * j] = eps(i, j);
    }
}

// The largest eigenvalue of the symmetric tridiagonal matrix (diag d, off-diagonal e), by
// bisection on the Sturm count.
double largest_eigenvalue(const std::vector<double>& d, double e) {
  auto count_below = [&](double x) {
    int n = 0;
    double q = 1;
    for (std::size_t i = 0; i < d.size(); ++i) {
      q = d[i] - x - (i == 0 ? 0.0 : e * e / q);
      if (q == 0) q = 1e-300;
      if (q < 0) ++n;
    }
    return n;
  };
  // Gershgorin's discs hold every eigenvalue.
  double lo = *std::min_element(d.begin(), d.end()) - 2 * std::abs(e);
  double hi = *std::max_element(d.begin(), d.end()) + 2 * std::abs(e);
  for (int it = 0; it < 400; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (count_below(mid) == static_cast<int>(d.size())) hi = mid;
    else lo = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

TEST_CASE("mode solver: a metal rectangle's TE and TM modes on the grid's transverse wavenumbers") {
  const int nu = 22, nv = 10;
  const double d = 1e-3, dt = courant_dt(d, d, d);
  for (const double eps : {1.0, 2.25}) {
    CAPTURE(eps);
    const CrossSection cs = CrossSection::uniform(nu, nv, d, d, d, dt, eps, 1.0);
    const double f = 18e9 / std::sqrt(eps);
    const double k0 = grid_k0(f, dt);
    // TE10, TE20, TE01, TE11 and TM11 (the last two of one Beta) propagate; TE30 does not.
    std::vector<double> expected;
    for (auto [m, n] : std::vector<std::pair<int, int>>{{1, 0}, {2, 0}, {0, 1}, {1, 1}, {1, 1}}) {
      const double kc2 = std::pow(grid_k(m, nu * d, d), 2) + std::pow(grid_k(n, nv * d, d), 2);
      expected.push_back(std::sqrt(k0 * k0 * eps - kc2));
    }
    std::sort(expected.rbegin(), expected.rend());
    const std::vector<GuidedMode> modes = solve_modes(cs, f, 7);
    REQUIRE(modes.size() == expected.size());
    for (std::size_t m = 0; m < modes.size(); ++m) {
      CAPTURE(m);
      CHECK(modes[m].beta_grid == doctest::Approx(expected[m]).epsilon(1e-9));
      CHECK(modes[m].beta == doctest::Approx(2 / d * std::asin(expected[m] * d / 2)).epsilon(1e-9));
      CHECK(modes[m].residual < 1e-8);
    }
    // TE10: E along v only, as sin(pi u / a).
    CHECK(modes[0].u_fraction < 1e-12);
    const GuidedMode& te10 = modes[0];
    const double peak = *std::max_element(te10.ev.begin(), te10.ev.end());
    for (int i = 0; i <= nu; ++i)
      CHECK(te10.ev[static_cast<std::size_t>(i) + (nu + 1) * 4] ==
            doctest::Approx(peak * std::sin(kPi * i / nu)).epsilon(1e-7).scale(peak));
    CHECK(cross_power(cs, te10, te10) == doctest::Approx(1.0).epsilon(1e-12));
  }
}

TEST_CASE("mode solver: a coax's TEM mode travels at K0 sqrt(eps mu) exactly, curl-free") {
  const int n = 30;
  const double d = 1e-3, dt = courant_dt(d, d, d);
  CrossSection cs = CrossSection::uniform(n, n, d, d, d, dt, 2.25, 1.0);
  // A PEC inner conductor of 10 x 10 cells in the middle: every E sample on or inside it.
  fill_eps(cs, [](double x, double y) { return x >= 10 && x <= 20 && y >= 10 && y <= 20 ? 0.0 : 2.25; });
  const double f = 2e9;
  const std::vector<GuidedMode> modes = solve_modes(cs, f, 1);
  REQUIRE(modes.size() == 1);
  CHECK(modes[0].beta_grid == doctest::Approx(grid_k0(f, dt) * 1.5).epsilon(1e-9));
  double e_peak = 0, ew_peak = 0, hw_peak = 0;
  for (double e : modes[0].eu) e_peak = std::max(e_peak, std::abs(e));
  for (double e : modes[0].ew) ew_peak = std::max(ew_peak, std::abs(e));
  for (double h : modes[0].hw) hw_peak = std::max(hw_peak, std::abs(h));
  CHECK(ew_peak < 1e-8 * e_peak);
  CHECK(hw_peak < 1e-8 * e_peak / kEta0);
  // Four-fold symmetric: as much E along u as along v.
  CHECK(modes[0].u_fraction == doctest::Approx(0.5).epsilon(1e-9));
  // H = E sqrt(eps / mu) / eta0 for a TEM wave (h_v beside E_u), referred to the same plane.
  for (std::size_t s = 0; s < modes[0].eu.size(); ++s)
    CHECK(modes[0].hv[s] == doctest::Approx(modes[0].eu[s] * 1.5 / kEta0 * modes[0].beta_grid /
                                            (grid_k0(f, dt) * 1.5)).scale(e_peak / kEta0));
}

TEST_CASE("mode solver: a dielectric slab's fundamental mode is the 1D slab problem of the grid") {
  // A silicon slab (eps 12) 20 cells thick across v, the full width along u (8 cells between
  // walls that E_u meets head on): the mode with E_u uniform along u is the 1D problem
  //   (f[j+1] - 2 f[j] + f[j-1]) / dv^2 + K0^2 eps_u[j] f[j] = Beta^2 f[j].
  const int nu = 8, nv = 240;
  const double du = 50e-9, dv = 10e-9, dw = 20e-9, dt = courant_dt(du, dv, dw);
  const double f = kC0 / 1.55e-6;
  CrossSection cs = CrossSection::uniform(nu, nv, du, dv, dw, dt, 1.0, 1.0);
  const int j0 = 110, j1 = 130;  // the slab's faces, node planes
  auto eps_at = [&](double j) { return j > j0 && j < j1 ? 12.0 : (j == j0 || j == j1 ? 6.5 : 1.0); };
  fill_eps(cs, [&](double, double y) { return eps_at(y); });
  const std::vector<GuidedMode> modes = solve_modes(cs, f, 2);
  REQUIRE(!modes.empty());
  const double k0 = grid_k0(f, dt);
  std::vector<double> diag;
  for (int j = 1; j < nv; ++j) diag.push_back(-2 / (dv * dv) + k0 * k0 * eps_at(j));
  const double b2 = largest_eigenvalue(diag, 1 / (dv * dv));
  CHECK(modes[0].beta_grid * modes[0].beta_grid == doctest::Approx(b2).epsilon(1e-9));
  CHECK(modes[0].u_fraction > 1 - 1e-12);
  if (modes.size() > 1) CHECK(std::abs(cross_power(cs, modes[0], modes[1])) < 1e-9);
}

TEST_CASE("mode solver: the slab's n_eff converges on the continuum formula") {
  // TE0 of a symmetric slab of thickness t: kappa tan(kappa t / 2) = gamma.
  const double n1 = std::sqrt(12.0), t = 220e-9, lambda = 1.55e-6, k = 2 * kPi / lambda;
  auto mismatch = [&](double n) {
    const double kappa = k * std::sqrt(n1 * n1 - n * n), gamma = k * std::sqrt(n * n - 1);
    return kappa * std::tan(kappa * t / 2) - gamma;
  };
  double lo = 1.0 + 1e-9, hi = n1 - 1e-9;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    (mismatch(mid) > 0 ? lo : hi) = mid;  // kappa tan(...) falls as n rises
  }
  const double n_exact = 0.5 * (lo + hi);
  double previous_error = 1;
  for (const int cells : {11, 22, 44}) {
    CAPTURE(cells);
    const double dv = t / cells, du = 100e-9, dw = 20e-9, dt = courant_dt(du, dv, dw);
    const int nv = static_cast<int>(std::lround(2.4e-6 / dv)) / 2 * 2, nu = 4;
    const int j0 = (nv - cells) / 2, j1 = j0 + cells;
    CrossSection cs = CrossSection::uniform(nu, nv, du, dv, dw, dt, 1.0, 1.0);
    fill_eps(cs, [&](double, double y) { return y > j0 && y < j1 ? 12.0 : (y == j0 || y == j1 ? 6.5 : 1.0); });
    const std::vector<GuidedMode> modes = solve_modes(cs, kC0 / lambda, 1);
    REQUIRE(modes.size() == 1);
    // Beta / K0: the grid's dispersion along w and in time, which the grid's own n_eff keeps,
    // taken out; what is left is the cross-section's.
    const double n_transverse = modes[0].beta_grid / grid_k0(kC0 / lambda, dt);
    const double error = std::abs(n_transverse - n_exact);
    INFO("cells " << cells << ": " << n_transverse << " against " << n_exact);
    CHECK(error < previous_error / 2.5);
    previous_error = error;
  }
  CHECK(previous_error < 3e-4);
}

namespace {

// A 20 x 14-cell metal rectangle with a dielectric block in one corner: no symmetry, no
// degenerate modes.
CrossSection cornered_block_guide() {
  const int nu = 20, nv = 14;
  const double d = 1e-3, dt = courant_dt(d, d, d);
  CrossSection cs = CrossSection::uniform(nu, nv, d, d, d, dt, 1.0, 1.0);
  fill_eps(cs, [](double x, double y) { return x < 9 && y < 6 ? 4.0 : (x <= 9 && y <= 6 ? 2.5 : 1.0); });
  return cs;
}

}  // namespace

TEST_CASE("mode solver: modes are orthogonal in power and carry 1 W") {
  const CrossSection cs = cornered_block_guide();
  const std::vector<GuidedMode> modes = solve_modes(cs, 16e9, 5);
  REQUIRE(modes.size() >= 3);
  for (std::size_t a = 0; a < modes.size(); ++a) {
    CHECK(modes[a].residual < 1e-8);
    for (std::size_t b = 0; b < modes.size(); ++b) {
      CAPTURE(a);
      CAPTURE(b);
      CHECK(cross_power(cs, modes[a], modes[b]) == doctest::Approx(a == b ? 1.0 : 0.0).scale(1).epsilon(1e-9));
    }
  }
  for (std::size_t a = 1; a < modes.size(); ++a) CHECK(modes[a].beta < modes[a - 1].beta);
}

TEST_CASE("mode solver: the modes near a beta are those of the full list") {
  // Each of the cornered block guide's modes, looked for near a beta a few percent off its own,
  // is found with the same beta and the same fields (up to rounding).
  const CrossSection cs = cornered_block_guide();
  const std::vector<GuidedMode> modes = solve_modes(cs, 16e9, 4);
  REQUIRE(modes.size() >= 3);
  for (std::size_t m = 0; m < modes.size(); ++m) {
    CAPTURE(m);
    // A guess nearer this mode than its neighbours.
    double guess = modes[m].beta_grid * 1.01;
    if (m > 0) guess = std::min(guess, 0.5 * (modes[m].beta_grid + modes[m - 1].beta_grid));
    const std::vector<GuidedMode> near = solve_modes_near(cs, 16e9, guess, 1);
    REQUIRE(near.size() == 1);
    CHECK(near[0].beta == doctest::Approx(modes[m].beta).epsilon(1e-11));
    CHECK(near[0].residual < 1e-8);
    CHECK(cross_power(cs, near[0], modes[m]) == doctest::Approx(1.0).epsilon(1e-9));
    for (std::size_t s = 0; s < near[0].eu.size(); ++s) CHECK(near[0].eu[s] == doctest::Approx(modes[m].eu[s]).scale(1).epsilon(1e-7));
    // A guess that is the eigenvalue itself (a port measuring at its launch frequency).
    const std::vector<GuidedMode> exact = solve_modes_near(cs, 16e9, modes[m].beta_grid, 1);
    REQUIRE(exact.size() == 1);
    CHECK(exact[0].beta == doctest::Approx(modes[m].beta).epsilon(1e-11));
    CHECK(exact[0].residual < 1e-8);
    CHECK(cross_power(cs, exact[0], modes[m]) == doctest::Approx(1.0).epsilon(1e-9));
  }
  CHECK_THROWS_AS(solve_modes_near(cs, 16e9, 0, 1), std::invalid_argument);
}

TEST_CASE("mode solver: what it refuses") {
  const double d = 1e-3, dt = courant_dt(d, d, d);
  CHECK_THROWS_AS(solve_modes(CrossSection::uniform(1, 5, d, d, d, dt, 1, 1), 1e10, 1), std::invalid_argument);
  CHECK_THROWS_AS(solve_modes(CrossSection::uniform(5, 5, d, d, d, dt, 1, 1), 0, 1), std::invalid_argument);
  CHECK_THROWS_AS(solve_modes(CrossSection::uniform(5, 5, d, d, d, dt, 1, 1), 1e10, 0), std::invalid_argument);
  CrossSection bad = CrossSection::uniform(5, 5, d, d, d, dt, 1, 1);
  bad.eps_u.pop_back();
  CHECK_THROWS_AS(solve_modes(bad, 1e10, 1), std::invalid_argument);
  // Below every cutoff: no mode.
  CHECK(solve_modes(CrossSection::uniform(10, 5, d, d, d, dt, 1, 1), 1e9, 2).empty());
}

TEST_CASE("mode solver: degenerate modes of a square guide come both, orthogonal, whatever count") {
  const int n = 20;
  const double d = 1e-3, dt = courant_dt(d, d, d);
  const CrossSection cs = CrossSection::uniform(n, n, d, d, d, dt, 1.0, 1.0);
  for (const double f : {9e9, 12e9}) {
    CAPTURE(f);
    const std::vector<GuidedMode> modes = solve_modes(cs, f, 6);
    // TE10 and TE01 at 9 GHz; TE11 and TM11 as well at 12 GHz.
    REQUIRE(modes.size() == (f < 10e9 ? 2u : 4u));
    for (std::size_t a = 0; a < modes.size(); ++a) {
      CHECK(modes[a].degenerate == 2);
      for (std::size_t b = 0; b < modes.size(); ++b)
        CHECK(cross_power(cs, modes[a], modes[b]) == doctest::Approx(a == b ? 1.0 : 0.0).scale(1).epsilon(1e-9));
    }
    // The list does not depend on how many are asked for.
    const std::vector<GuidedMode> one = solve_modes(cs, f, 1);
    REQUIRE(one.size() == 1);
    CHECK(one[0].beta == doctest::Approx(modes[0].beta).epsilon(1e-12));
  }
}

TEST_CASE("mode combinations: a degenerate pair turned along an axis, or towards a profile") {
  // TE10 and TE01 of a square guide at 9 GHz, each mixed with the other into an arbitrary pair.
  const int n = 20;
  const double d = 1e-3, dt = courant_dt(d, d, d);
  const CrossSection cs = CrossSection::uniform(n, n, d, d, d, dt, 1.0, 1.0);
  const std::vector<GuidedMode> solved = solve_modes(cs, 9e9, 2);
  REQUIRE(solved.size() == 2);
  REQUIRE(degenerate_group(solved, 1) == std::pair<std::size_t, std::size_t>{0, 2});
  // The same pair turned by 30 degrees (still modes, orthogonal, 1 W each).
  std::vector<GuidedMode> mixed = solved;
  const double c = std::cos(0.5236), s = std::sin(0.5236);
  for (auto f : {&GuidedMode::eu, &GuidedMode::ev, &GuidedMode::ew, &GuidedMode::hu, &GuidedMode::hv, &GuidedMode::hw})
    for (std::size_t i = 0; i < (solved[0].*f).size(); ++i) {
      (mixed[0].*f)[i] = c * (solved[0].*f)[i] + s * (solved[1].*f)[i];
      (mixed[1].*f)[i] = -s * (solved[0].*f)[i] + c * (solved[1].*f)[i];
    }
  for (const bool along_u : {true, false}) {
    CAPTURE(along_u);
    std::vector<GuidedMode> turned = mixed;
    polarize_group(turned, 1, along_u);
    // A metal square's TE10 / TE01 have E along one axis only.
    CHECK(turned[0].u_fraction == doctest::Approx(along_u ? 1.0 : 0.0).scale(1).epsilon(1e-9));
    CHECK(turned[1].u_fraction == doctest::Approx(along_u ? 0.0 : 1.0).scale(1).epsilon(1e-9));
    for (std::size_t a = 0; a < 2; ++a)
      for (std::size_t b = 0; b < 2; ++b)
        CHECK(cross_power(cs, turned[a], turned[b]) == doctest::Approx(a == b ? 1.0 : 0.0).scale(1).epsilon(1e-9));
    // Back towards the mixed pair's first member: found again, sign and all.
    align_groups(turned, mixed[0].eu, mixed[0].ev);
    CHECK(std::fabs(cross_power(cs, turned[0], mixed[0])) == doctest::Approx(1.0).epsilon(1e-9));
    CHECK(cross_power(cs, turned[1], mixed[0]) == doctest::Approx(0.0).scale(1).epsilon(1e-9));
  }
  CHECK(polarization_overlap(solved, 0) < 1e-9);  // TE10 and TE01: x and y are orthogonal
  // At 12 GHz TE11 and TM11 share a beta as well: a combination with E along v only exists, but
  // the ones along u and along v overlap in power.
  std::vector<GuidedMode> four = solve_modes(cs, 12e9, 4);
  REQUIRE(four.size() == 4);
  CHECK(degenerate_group(four, 2) == std::pair<std::size_t, std::size_t>{2, 2});
  CHECK(polarization_overlap(four, 3) > 0.1);
  polarize_group(four, 3, false);
  CHECK(four[2].u_fraction == doctest::Approx(0.0).scale(1).epsilon(1e-9));
  CHECK(cross_power(cs, four[2], four[3]) == doctest::Approx(0.0).scale(1).epsilon(1e-9));
  CHECK(cross_power(cs, four[3], four[3]) == doctest::Approx(1.0).epsilon(1e-9));
  // Listed turned whatever the count: a count that cuts the group still gets its first member
  // turned along u (TE01 of the pair, E along x).
  for (const int count : {1, 2}) {
    CAPTURE(count);
    const std::vector<GuidedMode> listed = solve_modes_turned(cs, 9e9, count);
    REQUIRE(listed.size() == static_cast<std::size_t>(count));
    CHECK(listed[0].u_fraction == doctest::Approx(1.0).epsilon(1e-9));
  }
  // A mode alone is left as it is.
  std::vector<GuidedMode> single = solve_modes(CrossSection::uniform(20, 14, d, d, d, dt, 1.0, 1.0), 9e9, 1);
  REQUIRE(single.size() == 1);
  const std::vector<double> before = single[0].eu;
  polarize_group(single, 0, false);
  CHECK(single[0].eu == before);
}

// A run asked to stop after its time loop ends a solve between its iterations (a large window's
// solve can outlast the grace a stop signal gives), and a task runner counts it as skipped.
TEST_CASE("mode solver: a stop request ends a solve midway; the task counts as skipped") {
  const double d = 1e-3, dt = courant_dt(d, d, d);
  const CrossSection cs = CrossSection::uniform(20, 10, d, d, d, dt, 1.0, 1.0);
  set_task_stop([] { return true; });
  CHECK_THROWS_AS(solve_modes(cs, 10e9, 1), TasksStopped);
  bool finished = false;
  run_tasks_in_parallel(1, 1.0, [&](std::size_t) {
    solve_modes(cs, 10e9, 1);
    finished = true;
  });
  set_task_stop(nullptr);
  CHECK(!finished);
  CHECK(tasks_skipped());
  CHECK(!solve_modes(cs, 10e9, 1).empty());  // no stop asked: it solves
}
