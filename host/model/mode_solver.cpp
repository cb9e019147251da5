// The modes of a cross-section: the sparse eigenproblem of mode_solver.hpp assembled and solved.
//
// With h = eta0 H, k = K0, b = Beta and phi = j b E_w, Faraday's law at every H sample gives H
// from E:
//   h_u = (d_v phi / b - b E_v) / (k mu_u),  h_v = (b E_u - d_u phi / b) / (k mu_v),
//   h_w = j (d_u E_v - d_v E_u) / (k mu_w),  E_w = -j phi / b,
// and Ampere's law at every E sample that is not a conductor gives (docs/EQUATIONS.md)
//   E_t:  (k^2 eps_t - Ce^T mu_w^-1 Ce) E + mu_t^-1 G phi = b^2 mu_t^-1 E
//   phi:  (k^2 eps_w - G^T mu_t^-1 G) phi = -b^2 G^T mu_t^-1 E
// with Ce the curl from E_u, E_v to the cells (h_w's samples), G the gradient from the nodes to
// the E_u, E_v samples and -G^T its divergence back; mu_t^-1 is mu_v^-1 at E_u's samples and
// mu_u^-1 at E_v's (where h_v and h_u sit). The divergence runs over every E_u, E_v sample, a
// conductor's too: its E is zero but the H beside it is not. With phi = b^2 psi (as Lee, Sun and
// Cendes do for finite elements) the two rows become A z = b^2 B z in z = (E, psi) with symmetric
//   A = [k^2 eps_t - Ce^T mu_w^-1 Ce, 0; 0, 0],
//   B = [mu_t^-1, -mu_t^-1 G; -G^T mu_t^-1, G^T mu_t^-1 G - k^2 eps_w],
// whose B is regular: the nodes' unknowns only add eigenvalues b^2 = 0, further from the shift
// than any propagating mode. Lengths are counted in units of the smaller transverse cell.
#include "model/mode_solver.hpp"

#include "model/grid_geometry.hpp"
#include "model/parallel_tasks.hpp"

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <Spectra/GenEigsRealShiftSolver.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace clfdtd {

namespace {

constexpr double kPi = 3.14159265358979323846;

using Sparse = Eigen::SparseMatrix<double>;
using Triplets = std::vector<Eigen::Triplet<double>>;

// The shift-invert operator of A z = lambda B z for Spectra: y = (A - sigma B)^-1 B x.
class ShiftInvert {
 public:
  using Scalar = double;
  ShiftInvert(const Sparse& A, const Sparse& B) : A_(A), B_(B) {}
  Eigen::Index rows() const { return A_.rows(); }
  Eigen::Index cols() const { return A_.cols(); }
  void set_shift(double sigma) {
    const Sparse A = A_ - sigma * B_;
    lu_.analyzePattern(A);
    lu_.factorize(A);
    if (lu_.info() != Eigen::Success)
      throw std::runtime_error("mode solver: the shifted matrix could not be factorised (" +
                               lu_.lastErrorMessage() + ")");
  }
  void perform_op(const double* x_in, double* y_out) const {
    // A run asked to stop after its time loop ends a solve between iterations (one can take
    // minutes on a large window), not only between tasks (model/parallel_tasks.hpp).
    if (tasks_stopped()) throw TasksStopped();
    Eigen::Map<const Eigen::VectorXd> x(x_in, A_.rows());
    Eigen::Map<Eigen::VectorXd> y(y_out, A_.rows());
    y = lu_.solve(B_ * x);
  }

 private:
  const Sparse& A_;
  const Sparse& B_;
  Eigen::SparseLU<Sparse, Eigen::COLAMDOrdering<int>> lu_;
};

// Unknown numbering: E_u samples, then E_v samples, then nodes (phi), each where it is neither on
// the window's edge nor a conductor; -1 elsewhere.
struct Numbering {
  std::vector<int> u, v, node;
  int nu_unknowns = 0, nv_unknowns = 0, n_nodes = 0;
  int transverse() const { return nu_unknowns + nv_unknowns; }
  int total() const { return transverse() + n_nodes; }
};

Numbering number_unknowns(const CrossSection& cs) {
  Numbering n;
  n.u.assign(cs.u_samples(), -1);
  n.v.assign(cs.v_samples(), -1);
  n.node.assign(cs.nodes(), -1);
  int next = 0;
  for (int j = 1; j < cs.nv; ++j)
    for (int i = 0; i < cs.nu; ++i) {
      const std::size_t s = static_cast<std::size_t>(i) + static_cast<std::size_t>(cs.nu) * j;
      if (cs.eps_u[s] > 0) n.u[s] = next++;
    }
  n.nu_unknowns = next;
  for (int j = 0; j < cs.nv; ++j)
    for (int i = 1; i < cs.nu; ++i) {
      const std::size_t s = static_cast<std::size_t>(i) + static_cast<std::size_t>(cs.nu + 1) * j;
      if (cs.eps_v[s] > 0) n.v[s] = next++;
    }
  n.nv_unknowns = next - n.nu_unknowns;
  for (int j = 1; j < cs.nv; ++j)
    for (int i = 1; i < cs.nu; ++i) {
      const std::size_t s = static_cast<std::size_t>(i) + static_cast<std::size_t>(cs.nu + 1) * j;
      if (cs.eps_w[s] > 0) n.node[s] = next++;
    }
  n.n_nodes = next - n.transverse();
  return n;
}

void check_sizes(const CrossSection& cs) {
  if (cs.nu < 2 || cs.nv < 2)
    throw std::invalid_argument("mode solver: the window has " + std::to_string(cs.nu) + " x " +
                                std::to_string(cs.nv) + " cells; at least 2 x 2 are needed");
  if (cs.cells() > kModeSolverMaxCells)
    throw std::invalid_argument("mode solver: the window has " + std::to_string(cs.cells()) +
                                " cells; at most " + std::to_string(kModeSolverMaxCells));
  if (!(cs.du > 0 && cs.dv > 0 && cs.dw > 0 && cs.dt > 0))
    throw std::invalid_argument("mode solver: cell sizes and time step must be positive");
  const auto bad = [](const std::vector<double>& a, std::size_t n) { return a.size() != n; };
  if (bad(cs.eps_u, cs.u_samples()) || bad(cs.mu_v, cs.u_samples()) ||
      bad(cs.eps_v, cs.v_samples()) || bad(cs.mu_u, cs.v_samples()) ||
      bad(cs.eps_w, cs.nodes()) || bad(cs.mu_w, cs.cells()))
    throw std::invalid_argument("mode solver: sample arrays of the wrong size");
  for (const auto* a : {&cs.mu_u, &cs.mu_v, &cs.mu_w})
    for (double m : *a)
      if (!(m > 0)) throw std::invalid_argument("mode solver: a permeability is not positive");
  for (const auto* a : {&cs.eps_u, &cs.eps_v, &cs.eps_w})
    for (double e : *a)
      if (!(e >= 0) || !std::isfinite(e))
        throw std::invalid_argument("mode solver: a permittivity is negative or not finite");
}

}  // namespace

CrossSection CrossSection::uniform(int nu, int nv, double du, double dv, double dw, double dt,
                                   double eps_r, double mu_r) {
  CrossSection cs;
  cs.nu = nu;
  cs.nv = nv;
  cs.du = du;
  cs.dv = dv;
  cs.dw = dw;
  cs.dt = dt;
  cs.eps_u.assign(cs.u_samples(), eps_r);
  cs.eps_v.assign(cs.v_samples(), eps_r);
  cs.eps_w.assign(cs.nodes(), eps_r);
  cs.mu_u.assign(cs.v_samples(), mu_r);
  cs.mu_v.assign(cs.u_samples(), mu_r);
  cs.mu_w.assign(cs.cells(), mu_r);
  return cs;
}

double mode_solver_bytes(const CrossSection& cs, int count) {
  const double n = 3.0 * static_cast<double>(cs.cells()) + 16;
  // Nested dissection of a 2D grid fills the LU to ~31 n log2(n) / 8 entries (George's bound);
  // SparseLU's supernodes hold them as doubles with their indices, and the matrices K, M, the
  // Arnoldi basis and the modes come on top.
  const double fill = 31.0 / 8.0 * n * std::log2(n);
  const int ncv = std::max(2 * count + 1, 20);
  return 4.0 * fill * 12.0 + 40.0 * n * 12.0 + static_cast<double>(ncv + count) * n * 8.0 * 2;
}

namespace {

// The modes of solve_modes (near_beta_grid < 0) or solve_modes_near: assembled, solved by
// shift-invert about the largest Beta^2 or about near_beta_grid^2, sorted, made orthogonal.
std::vector<GuidedMode> solve(const CrossSection& cs, double f_hz, int count, double near_beta_grid) {
  check_sizes(cs);
  if (!(f_hz > 0) || !std::isfinite(f_hz))
    throw std::invalid_argument("mode solver: the frequency must be positive");
  if (count < 1) throw std::invalid_argument("mode solver: at least one mode must be asked for");
  const Numbering num = number_unknowns(cs);
  const int n = num.total();
  if (num.transverse() < 1) return {};
  const int nu = cs.nu, nv = cs.nv;
  // Lengths in units of L, the smaller transverse cell: the matrices' entries near 1.
  const double L = std::min(cs.du, cs.dv);
  const double du = cs.du / L, dv = cs.dv / L;
  const double k0 = 2 * std::sin(kPi * f_hz * cs.dt) / (kC0 * cs.dt) * L;  // K0 L
  const double k2 = k0 * k0;
  auto iu = [&](int i, int j) { return static_cast<std::size_t>(i) + static_cast<std::size_t>(nu) * j; };
  auto iv = [&](int i, int j) { return static_cast<std::size_t>(i) + static_cast<std::size_t>(nu + 1) * j; };
  auto node = [&](int i, int j) { return static_cast<std::size_t>(i) + static_cast<std::size_t>(nu + 1) * j; };
  auto cell = [&](int i, int j) { return static_cast<std::size_t>(i) + static_cast<std::size_t>(nu) * j; };

  // Ce: cells x transverse unknowns; G_all: every E_u, E_v sample x node unknowns.
  Triplets ce_t, g_t;
  for (int j = 0; j < nv; ++j)
    for (int i = 0; i < nu; ++i) {
      const int r = static_cast<int>(cell(i, j));
      // (E_v(i + 1, j) - E_v(i, j)) / du - (E_u(i, j + 1) - E_u(i, j)) / dv
      if (const int c = num.v[iv(i + 1, j)]; c >= 0) ce_t.emplace_back(r, c, 1 / du);
      if (const int c = num.v[iv(i, j)]; c >= 0) ce_t.emplace_back(r, c, -1 / du);
      if (const int c = num.u[iu(i, j + 1)]; c >= 0) ce_t.emplace_back(r, c, -1 / dv);
      if (const int c = num.u[iu(i, j)]; c >= 0) ce_t.emplace_back(r, c, 1 / dv);
    }
  const int nt = num.transverse();
  const int u_rows = static_cast<int>(cs.u_samples());
  for (int j = 0; j <= nv; ++j)
    for (int i = 0; i < nu; ++i) {
      const int r = static_cast<int>(iu(i, j));
      if (const int c = num.node[node(i + 1, j)]; c >= 0) g_t.emplace_back(r, c - nt, 1 / du);
      if (const int c = num.node[node(i, j)]; c >= 0) g_t.emplace_back(r, c - nt, -1 / du);
    }
  for (int j = 0; j < nv; ++j)
    for (int i = 0; i <= nu; ++i) {
      const int r = u_rows + static_cast<int>(iv(i, j));
      if (const int c = num.node[node(i, j + 1)]; c >= 0) g_t.emplace_back(r, c - nt, 1 / dv);
      if (const int c = num.node[node(i, j)]; c >= 0) g_t.emplace_back(r, c - nt, -1 / dv);
    }
  const int all_t = u_rows + static_cast<int>(cs.v_samples());
  Sparse Ce(static_cast<int>(cs.cells()), nt), G(all_t, std::max(1, num.n_nodes));
  Ce.setFromTriplets(ce_t.begin(), ce_t.end());
  G.setFromTriplets(g_t.begin(), g_t.end());

  // Per E_u, E_v sample: 1 / mu of the H sample beside it; per cell: 1 / mu_w.
  Eigen::VectorXd inv_mu_t(all_t), inv_mu_w(static_cast<int>(cs.cells()));
  for (std::size_t s = 0; s < cs.u_samples(); ++s) inv_mu_t[static_cast<int>(s)] = 1 / cs.mu_v[s];
  for (std::size_t s = 0; s < cs.v_samples(); ++s) inv_mu_t[u_rows + static_cast<int>(s)] = 1 / cs.mu_u[s];
  for (std::size_t s = 0; s < cs.cells(); ++s) inv_mu_w[static_cast<int>(s)] = 1 / cs.mu_w[s];
  // The rows of the transverse unknowns among all samples (P: nt x all_t selection).
  Triplets p_t;
  for (std::size_t s = 0; s < cs.u_samples(); ++s)
    if (num.u[s] >= 0) p_t.emplace_back(num.u[s], static_cast<int>(s), 1.0);
  for (std::size_t s = 0; s < cs.v_samples(); ++s)
    if (num.v[s] >= 0) p_t.emplace_back(num.v[s], u_rows + static_cast<int>(s), 1.0);
  Sparse P(nt, all_t);
  P.setFromTriplets(p_t.begin(), p_t.end());
  const Eigen::VectorXd inv_mu_x = P * inv_mu_t;
  Eigen::VectorXd eps_x(nt);
  for (std::size_t s = 0; s < cs.u_samples(); ++s)
    if (num.u[s] >= 0) eps_x[num.u[s]] = cs.eps_u[s];
  for (std::size_t s = 0; s < cs.v_samples(); ++s)
    if (num.v[s] >= 0) eps_x[num.v[s]] = cs.eps_v[s];
  Eigen::VectorXd eps_n = Eigen::VectorXd::Zero(std::max(1, num.n_nodes));
  for (std::size_t s = 0; s < cs.nodes(); ++s)
    if (num.node[s] >= 0) eps_n[num.node[s] - nt] = cs.eps_w[s];

  const Sparse Gx = P * G;  // the gradient at the transverse unknowns
  const Sparse Att = Sparse(Eigen::VectorXd(k2 * eps_x).asDiagonal()) -
                     Sparse(Ce.transpose()) * inv_mu_w.asDiagonal() * Ce;
  const Sparse Btp = -(inv_mu_x.asDiagonal() * Gx);
  const Sparse Bpp = Sparse(G.transpose()) * inv_mu_t.asDiagonal() * G -
                     Sparse(Eigen::VectorXd(k2 * eps_n).asDiagonal());
  Triplets a_t, b_t;
  auto append = [](Triplets& t, const Sparse& a, int r0, int c0) {
    for (int k = 0; k < a.outerSize(); ++k)
      for (Sparse::InnerIterator it(a, k); it; ++it)
        t.emplace_back(static_cast<int>(it.row()) + r0, static_cast<int>(it.col()) + c0, it.value());
  };
  append(a_t, Att, 0, 0);
  for (int r = 0; r < nt; ++r) b_t.emplace_back(r, r, inv_mu_x[r]);
  if (num.n_nodes > 0) {
    append(b_t, Btp, 0, nt);
    append(b_t, Sparse(Btp.transpose()), nt, 0);
    append(b_t, Bpp, nt, nt);
  }
  Sparse A(n, n), B(n, n);
  A.setFromTriplets(a_t.begin(), a_t.end());
  B.setFromTriplets(b_t.begin(), b_t.end());
  A.makeCompressed();
  B.makeCompressed();

  // No mode of a lossless guide travels faster along w than a plane wave in its densest material:
  // shift just above that Beta^2 and take the eigenvalues nearest to it.
  double n2_max = 0;
  for (std::size_t s = 0; s < cs.u_samples(); ++s) n2_max = std::max(n2_max, cs.eps_u[s] * cs.mu_v[s]);
  for (std::size_t s = 0; s < cs.v_samples(); ++s) n2_max = std::max(n2_max, cs.eps_v[s] * cs.mu_u[s]);
  const bool near = near_beta_grid >= 0;
  // Near a beta, the shift sits 1e-5 above it: a guess that is an eigenvalue to rounding (a port
  // measuring at its own launch frequency) would leave the shifted matrix singular.
  const double sigma = near ? near_beta_grid * L * near_beta_grid * L * (1 + 1e-5) : k2 * n2_max * 1.02 + 1e-9 * k2;
  // More eigenpairs than asked for: the list must not depend on `count` (a port's mode k is the
  // k-th row of clfdtd modes), a degenerate mode's partner must come with it, and the dropped
  // ones (backward-power, complex pairs, past the grid) must not shorten it. Near a given beta
  // two more than asked for (a partner), in a small Krylov space: a mode followed across a band
  // is found in a few steps.
  const int nev = std::min(count + (near ? 2 : 8), n - 2);
  if (nev < 1) return {};
  const int ncv = std::min(n, std::max(2 * nev + 1, near ? 8 : 20));
  ShiftInvert op(A, B);
  Spectra::GenEigsRealShiftSolver<ShiftInvert> eigs(op, nev, ncv, sigma);
  eigs.init();
  eigs.compute(Spectra::SortRule::LargestMagn, 2000, 1e-12);
  if (eigs.info() != Spectra::CompInfo::Successful)
    throw std::runtime_error("mode solver: the eigensolver did not converge (" +
                             std::to_string(nev) + " modes asked for)");
  const Eigen::VectorXcd lambda = eigs.eigenvalues();
  const Eigen::MatrixXcd vectors = eigs.eigenvectors();

  // 1/2 sum (E_a x H_b) . w dA: the power of a mode with itself, and the modes' orthogonality.
  auto cross = [&](const GuidedMode& a, const GuidedMode& b) {
    double p = 0;
    for (std::size_t s = 0; s < a.eu.size(); ++s) p += a.eu[s] * b.hv[s];
    for (std::size_t s = 0; s < a.ev.size(); ++s) p -= a.ev[s] * b.hu[s];
    return 0.5 * p * cs.du * cs.dv;
  };
  std::vector<GuidedMode> modes;
  const double dw = cs.dw;
  const double k0_true = 2 * kPi * f_hz / kC0;
  for (int m = 0; m < lambda.size(); ++m) {
    const double b2 = lambda[m].real();
    // Beta^2 = 0 belongs to the nodes' unknowns (and a mode at its cutoff): below n_eff 1e-3 of
    // the densest material a mode is not counted as travelling.
    if (!(b2 > 1e-6 * k2 * n2_max) || std::abs(lambda[m].imag()) > 1e-6 * std::abs(b2)) continue;
    const double b = std::sqrt(b2);  // Beta L
    if (b / L * dw / 2 >= 1) continue;  // past what the grid carries along w
    const Eigen::VectorXd z = vectors.col(m).real();
    GuidedMode g;
    g.beta_grid = b / L;
    g.beta = 2 / dw * std::asin(g.beta_grid * dw / 2);
    g.n_eff = g.beta / k0_true;
    const Eigen::VectorXd az = A * z, bz = B * z;
    g.residual = (az - b2 * bz).norm() / (az.norm() + b2 * bz.norm());
    if (!(g.residual < 1e-6)) continue;  // not an eigenpair (a shift on an eigenvalue to rounding)
    // Every sample's E and h = eta0 H from z (phi = b^2 psi); scaled to 1 W below.
    const Eigen::VectorXd x = z.head(nt);
    Eigen::VectorXd phi_all = Eigen::VectorXd::Zero(static_cast<int>(cs.nodes()));
    for (std::size_t s = 0; s < cs.nodes(); ++s)
      if (num.node[s] >= 0) phi_all[static_cast<int>(s)] = b2 * z[num.node[s]];
    Eigen::VectorXd grad_phi = Eigen::VectorXd::Zero(all_t);
    if (num.n_nodes > 0) grad_phi = b2 * (G * z.tail(num.n_nodes));
    const Eigen::VectorXd curl_e = Ce * x;
    g.eu.assign(cs.u_samples(), 0.0);
    g.ev.assign(cs.v_samples(), 0.0);
    g.ew.assign(cs.nodes(), 0.0);
    g.hu.assign(cs.v_samples(), 0.0);
    g.hv.assign(cs.u_samples(), 0.0);
    g.hw.assign(cs.cells(), 0.0);
    for (std::size_t s = 0; s < cs.u_samples(); ++s) {
      if (num.u[s] >= 0) g.eu[s] = x[num.u[s]];
      g.hv[s] = (b * g.eu[s] - grad_phi[static_cast<int>(s)] / b) / (k0 * cs.mu_v[s]) / kEta0;
    }
    for (std::size_t s = 0; s < cs.v_samples(); ++s) {
      if (num.v[s] >= 0) g.ev[s] = x[num.v[s]];
      g.hu[s] = (grad_phi[u_rows + static_cast<int>(s)] / b - b * g.ev[s]) / (k0 * cs.mu_u[s]) / kEta0;
    }
    for (std::size_t s = 0; s < cs.nodes(); ++s) g.ew[s] = -phi_all[static_cast<int>(s)] / b;
    for (std::size_t s = 0; s < cs.cells(); ++s)
      g.hw[s] = curl_e[static_cast<int>(s)] / (k0 * cs.mu_w[s]) / kEta0;
    if (!(cross(g, g) > 0)) continue;  // not a wave carrying power along +w
    modes.push_back(std::move(g));
  }
  std::sort(modes.begin(), modes.end(),
            [](const GuidedMode& a, const GuidedMode& b) { return a.beta > b.beta; });
  // Modes of one beta (within 1e-8): any combination of them is a mode too, and Arnoldi returns
  // some; made orthogonal in power (Gram-Schmidt) and each told how many share its beta. A
  // combination that is nothing new (a repeat: its power gone but for rounding) is dropped. Each
  // is scaled to 1 W, its largest transverse E sample positive.
  std::vector<GuidedMode> kept;
  for (std::size_t first = 0; first < modes.size();) {
    std::size_t last = first + 1;
    while (last < modes.size() && modes[first].beta - modes[last].beta <= 1e-8 * modes[first].beta) ++last;
    const std::size_t start = kept.size();
    for (std::size_t m = first; m < last; ++m) {
      GuidedMode g = std::move(modes[m]);
      const double own = cross(g, g);
      for (std::size_t o = start; o < kept.size(); ++o) {
        const double c = cross(g, kept[o]);
        auto sub = [&](std::vector<double>& x, const std::vector<double>& y) {
          for (std::size_t s = 0; s < x.size(); ++s) x[s] -= c * y[s];
        };
        sub(g.eu, kept[o].eu);
        sub(g.ev, kept[o].ev);
        sub(g.ew, kept[o].ew);
        sub(g.hu, kept[o].hu);
        sub(g.hv, kept[o].hv);
        sub(g.hw, kept[o].hw);
      }
      const double power = cross(g, g);
      if (!(power > 1e-6 * own)) continue;
      normalise_mode(g, power);
      kept.push_back(std::move(g));
    }
    for (std::size_t o = start; o < kept.size(); ++o) kept[o].degenerate = static_cast<int>(kept.size() - start);
    first = last;
  }
  if (near) {
    // The `count` nearest the beta asked about, then largest first again.
    const double b2 = near_beta_grid * near_beta_grid;
    std::stable_sort(kept.begin(), kept.end(), [&](const GuidedMode& a, const GuidedMode& b) {
      return std::fabs(a.beta_grid * a.beta_grid - b2) < std::fabs(b.beta_grid * b.beta_grid - b2);
    });
  }
  if (kept.size() > static_cast<std::size_t>(count)) kept.resize(static_cast<std::size_t>(count));
  if (near)
    std::sort(kept.begin(), kept.end(), [](const GuidedMode& a, const GuidedMode& b) { return a.beta > b.beta; });
  return kept;
}

}  // namespace

void normalise_mode(GuidedMode& m, double power) {
  double su = 0, sv = 0, peak = 0;
  for (double e : m.eu) su += e * e, peak = std::abs(e) > std::abs(peak) ? e : peak;
  for (double e : m.ev) sv += e * e, peak = std::abs(e) > std::abs(peak) ? e : peak;
  const double scale = (peak < 0 ? -1.0 : 1.0) / std::sqrt(power);
  for (auto* a : {&m.eu, &m.ev, &m.ew, &m.hu, &m.hv, &m.hw})
    for (double& value : *a) value *= scale;
  m.u_fraction = su / (su + sv);
}

std::vector<GuidedMode> solve_modes(const CrossSection& cs, double f_hz, int count) {
  return solve(cs, f_hz, count, -1);
}

std::vector<GuidedMode> solve_modes_near(const CrossSection& cs, double f_hz, double beta_grid, int count) {
  if (!(beta_grid > 0) || !std::isfinite(beta_grid))
    throw std::invalid_argument("mode solver: the beta to look near must be positive");
  return solve(cs, f_hz, count, beta_grid);
}

}  // namespace clfdtd
