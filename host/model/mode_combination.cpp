// Rotations within degenerate groups of modes: see mode_combination.hpp.
#include "model/mode_combination.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace clfdtd {

namespace {

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) s += a[i] * b[i];
  return s;
}

// The group's transverse-E Gram matrix, sum over the samples of E_i . E_j.
Eigen::MatrixXd e_gram(const std::vector<GuidedMode>& modes, std::size_t first, std::size_t n) {
  Eigen::MatrixXd g(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      g(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) =
          dot(modes[first + i].eu, modes[first + j].eu) + dot(modes[first + i].ev, modes[first + j].ev);
  return g;
}

// The group's Gram matrix of E_u (along_u) or E_v alone.
Eigen::MatrixXd axis_gram(const std::vector<GuidedMode>& modes, std::size_t first, std::size_t n, bool along_u) {
  Eigen::MatrixXd on_axis(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const GuidedMode &a = modes[first + i], &b = modes[first + j];
      on_axis(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = along_u ? dot(a.eu, b.eu) : dot(a.ev, b.ev);
    }
  return on_axis;
}

// Orthonormal coefficient vectors (columns) for the group's new members: the first maximises
// c^T A c / c^T G c over the whole group, each next one the same over what is orthogonal to those
// before. Orthonormal coefficients keep the members 1 W each and orthogonal in power (the solver
// made them so, and the cross power is bilinear).
Eigen::MatrixXd successive_maxima(const Eigen::MatrixXd& a, const Eigen::MatrixXd& g) {
  const Eigen::Index n = a.rows();
  Eigen::MatrixXd out(n, n);
  Eigen::MatrixXd q = Eigen::MatrixXd::Identity(n, n);  // the part still to fill
  for (Eigen::Index r = 0; r < n; ++r) {
    const Eigen::MatrixXd ar = q.transpose() * a * q;
    Eigen::MatrixXd gr = q.transpose() * g * q;
    gr += 1e-14 * gr.trace() * Eigen::MatrixXd::Identity(gr.rows(), gr.cols());
    const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> eig(ar, gr);
    Eigen::VectorXd c = q * eig.eigenvectors().col(ar.rows() - 1);  // eigenvalues ascending
    c.normalize();
    out.col(r) = c;
    if (r + 1 == n) break;
    // What is left: span(q) without c.
    const Eigen::MatrixXd rest = q * q.transpose() - c * c.transpose();
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> split(rest);
    q = split.eigenvectors().rightCols(q.cols() - 1);
  }
  return out;
}

// Replaces modes[first .. first + n) by their combinations with the columns of `coef` (orthonormal:
// each still carries 1 W), in the solver's form (normalise_mode).
void combine(std::vector<GuidedMode>& modes, std::size_t first, std::size_t n, const Eigen::MatrixXd& coef) {
  std::vector<GuidedMode> rotated;
  for (std::size_t r = 0; r < n; ++r) {
    GuidedMode g = modes[first];
    using Field = std::vector<double> GuidedMode::*;
    for (const Field f : {&GuidedMode::eu, &GuidedMode::ev, &GuidedMode::ew, &GuidedMode::hu, &GuidedMode::hv,
                          &GuidedMode::hw}) {
      std::vector<double>& out = g.*f;
      for (std::size_t s = 0; s < out.size(); ++s) {
        double v = 0;
        for (std::size_t i = 0; i < n; ++i)
          v += coef(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(r)) * (modes[first + i].*f)[s];
        out[s] = v;
      }
    }
    normalise_mode(g, 1.0);
    rotated.push_back(std::move(g));
  }
  for (std::size_t r = 0; r < n; ++r) modes[first + r] = std::move(rotated[r]);
}

}  // namespace

std::pair<std::size_t, std::size_t> degenerate_group(const std::vector<GuidedMode>& modes, std::size_t k) {
  std::size_t first = 0;
  while (first < modes.size()) {
    // A list cut short (the modes near a beta, the first `count`) may hold only some of a group.
    const std::size_t most = std::max<std::size_t>(1, static_cast<std::size_t>(modes[first].degenerate));
    std::size_t n = 1;
    while (n < most && first + n < modes.size() &&
           std::fabs(modes[first + n].beta - modes[first].beta) <= 1e-8 * modes[first].beta)
      ++n;
    if (k < first + n) return {first, n};
    first += n;
  }
  return {k, 1};
}

void polarize_group(std::vector<GuidedMode>& modes, std::size_t k, bool along_u) {
  const auto [first, n] = degenerate_group(modes, k);
  if (n < 2) return;
  combine(modes, first, n, successive_maxima(axis_gram(modes, first, n, along_u), e_gram(modes, first, n)));
}

double polarization_overlap(const std::vector<GuidedMode>& modes, std::size_t k) {
  const auto [first, n] = degenerate_group(modes, k);
  if (n < 2) return 0;
  const Eigen::MatrixXd g = e_gram(modes, first, n);
  const Eigen::VectorXd cu = successive_maxima(axis_gram(modes, first, n, true), g).col(0);
  const Eigen::VectorXd cv = successive_maxima(axis_gram(modes, first, n, false), g).col(0);
  return std::fabs(cu.dot(cv));
}

void polarize_groups(std::vector<GuidedMode>& modes, bool along_u) {
  for (std::size_t k = 0; k < modes.size(); k += degenerate_group(modes, k).second) polarize_group(modes, k, along_u);
}

std::vector<GuidedMode> solve_modes_turned(const CrossSection& cs, double f_hz, int count) {
  std::vector<GuidedMode> modes = solve_modes(cs, f_hz, count);
  if (!modes.empty()) {
    const int shared = modes.back().degenerate;
    if (degenerate_group(modes, modes.size() - 1).second < static_cast<std::size_t>(shared))
      modes = solve_modes(cs, f_hz, count + shared - 1);
  }
  polarize_groups(modes, true);
  if (modes.size() > static_cast<std::size_t>(count)) modes.resize(static_cast<std::size_t>(count));
  return modes;
}

void align_groups(std::vector<GuidedMode>& modes, const std::vector<double>& eu, const std::vector<double>& ev) {
  for (std::size_t k = 0; k < modes.size();) {
    const auto [first, n] = degenerate_group(modes, k);
    if (n > 1) {
      // (c . p)^2 / (c^T G c), p the overlaps with the profile: largest for the best fit.
      Eigen::VectorXd p(static_cast<Eigen::Index>(n));
      for (std::size_t i = 0; i < n; ++i)
        p(static_cast<Eigen::Index>(i)) = dot(modes[first + i].eu, eu) + dot(modes[first + i].ev, ev);
      combine(modes, first, n, successive_maxima(p * p.transpose(), e_gram(modes, first, n)));
    }
    k = first + n;
  }
}

}  // namespace clfdtd
