// The guided modes of a cross-section of the Yee grid (docs/EQUATIONS.md "Modes of a
// cross-section"): the fields of the model's own grid that travel along an axis w as
// exp(j omega t - j beta w), for any guide the mesh holds (dielectric wires and slabs, coax,
// microstrip, metal guides of any shape, several materials).
//
// The window is nu x nv cells of the plane across w, with (u, v, w) right-handed; its edges are
// conductors. The samples sit where the 3D grid has them: on the plane, E_u at (i + 1/2, j), E_v at
// (i, j + 1/2), H_w at (i + 1/2, j + 1/2); half a cell along w, E_w at the nodes (i, j), H_u at
// (i, j + 1/2), H_v at (i + 1/2, j). With the Yee differences along w and in time replaced by
// their exact factors, Beta = 2 sin(beta d_w / 2) / d_w and K0 = 2 sin(omega dt / 2) / (c dt), the
// 3D updates become a generalized eigenproblem K z = Beta^2 M z in z = (E_u, E_v, phi) with
// phi = j Beta E_w; its solutions are exact modes of the 3D scheme (no dispersion but the grid's
// own), found by shift-invert Arnoldi (Spectra, over Eigen's sparse LU) near the largest Beta^2 the
// materials allow.
#pragma once
#include <cstdint>
#include <vector>

namespace clfdtd {

// Sample arrays of a window of nu x nv cells, index i + (row length) * j:
//   u-directed E and v-directed H: nu x (nv + 1)     (i + 1/2, j)
//   v-directed E and u-directed H: (nu + 1) x nv     (i, j + 1/2)
//   w-directed E (nodes): (nu + 1) x (nv + 1)        (i, j)
//   w-directed H (cells): nu x nv                    (i + 1/2, j + 1/2)
struct CrossSection {
  int nu = 0, nv = 0;
  double du = 0, dv = 0, dw = 0;  // cell sizes along u, v and the axis w (m)
  double dt = 0;                  // the time step (s)
  // Relative permittivity at each E sample, 0 at a conductor (PEC); the window's edges are
  // conductors whatever these hold. Relative permeability at each H sample.
  std::vector<double> eps_u, eps_v, eps_w;
  std::vector<double> mu_u, mu_v, mu_w;

  // An empty window of uniform eps_r and mu_r.
  static CrossSection uniform(int nu, int nv, double du, double dv, double dw, double dt,
                              double eps_r, double mu_r);
  std::size_t u_samples() const { return static_cast<std::size_t>(nu) * (nv + 1); }
  std::size_t v_samples() const { return static_cast<std::size_t>(nu + 1) * nv; }
  std::size_t nodes() const { return static_cast<std::size_t>(nu + 1) * (nv + 1); }
  std::size_t cells() const { return static_cast<std::size_t>(nu) * nv; }
};

// One mode travelling along +w at frequency f: E in V/m, H in A/m, at the samples above (E_u,
// E_v, H_w on the plane; E_w, H_u, H_v as they are half a cell along w times exp(+j beta d_w / 2),
// i.e. referred to the plane). E_u, E_v, H_u, H_v are real; E_w = j ew and H_w = j hw, the arrays
// holding ew and hw. Scaled to carry 1 W across the plane (1/2 Re sum (E x H*) . w d_u d_v), the
// largest |E_u|, |E_v| sample positive.
struct GuidedMode {
  double beta = 0;       // the grid's propagation constant (rad/m)
  double n_eff = 0;      // beta c / omega
  double beta_grid = 0;  // Beta = 2 sin(beta d_w / 2) / d_w, the eigenvalue's root (rad/m)
  double residual = 0;   // |K z - Beta^2 M z| / (|K z| + Beta^2 |M z|)
  double u_fraction = 0; // sum |E_u|^2 / sum (|E_u|^2 + |E_v|^2): 1 for a mode with E along u only
  int degenerate = 1;    // how many of the modes found share its beta (within 1e-8), itself included:
                         // > 1 means any combination of them is a mode too (they come orthogonal)
  std::vector<double> eu, ev, ew, hu, hv, hw;
};

// Scales m, whose power across the plane is `power` (W), to carry 1 W with its largest E_u, E_v
// sample positive, and sets its u_fraction: the form every listed mode takes.
void normalise_mode(GuidedMode& m, double power);

// Limits of the solve: the window's cells, and what the factorisation of a sparse matrix of about
// three unknowns per cell needs (checked by the callers before they ask).
constexpr std::size_t kModeSolverMaxCells = 1u << 20;
// Host bytes the solve of `cs` may hold at its peak (the sparse LU's fill estimated from a 2D
// grid's nested-dissection bound, with a margin).
double mode_solver_bytes(const CrossSection& cs, int count);

// Up to `count` propagating modes at f_hz, largest beta first (the list is the same whatever
// `count`: a longer one only goes on); fewer when fewer are found (modes whose Beta^2 is not
// positive, or past what the grid carries along w, are dropped). Modes of one beta are
// orthogonal in power, each with `degenerate` set.
// Throws std::invalid_argument for a window of fewer than 2 x 2 cells or more than
// kModeSolverMaxCells, sample arrays of the wrong size, a non-positive mu, f_hz <= 0, count < 1,
// and std::runtime_error when the eigensolver does not converge.
std::vector<GuidedMode> solve_modes(const CrossSection& cs, double f_hz, int count);

// Up to `count` propagating modes at f_hz whose Beta lies nearest beta_grid (rad/m; the
// GuidedMode's beta_grid), largest beta first, with the fields and scaling of solve_modes: the
// quick solve of a mode followed across a band (a handful of eigenpairs instead of all above it).
// `degenerate` counts only the partners found with it; which combination of a degenerate pair
// comes back is not defined. Throws as solve_modes, and for beta_grid <= 0.
std::vector<GuidedMode> solve_modes_near(const CrossSection& cs, double f_hz, double beta_grid, int count);

}  // namespace clfdtd
