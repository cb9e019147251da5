// Rotations within degenerate groups of modes: see mode_combination.hpp.
#include "model/mode_combination.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>

namespace clfdtd {

namespace {

// Replaces modes[first .. first + n) by their combinations with the eigenvectors of the symmetric
// n x n `likeness`, the largest eigenvalue's first; each new mode's largest E sample positive
// (the solver's sign rule).
void rotate_by(std::vector<GuidedMode>& modes, std::size_t first, std::size_t n, const Eigen::MatrixXd& likeness) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(likeness);
  const Eigen::MatrixXd& vec = eig.eigenvectors();  // eigenvalues ascending
  std::vector<GuidedMode> rotated;
  for (std::size_t r = 0; r < n; ++r) {
    const Eigen::Index col = static_cast<Eigen::Index>(n - 1 - r);
    GuidedMode g = modes[first];
    using Field = std::vector<double> GuidedMode::*;
    for (const Field f : {&GuidedMode::eu, &GuidedMode::ev, &GuidedMode::ew, &GuidedMode::hu, &GuidedMode::hv,
                          &GuidedMode::hw}) {
      std::vector<double>& out = g.*f;
      for (std::size_t s = 0; s < out.size(); ++s) {
        double v = 0;
        for (std::size_t i = 0; i < n; ++i) v += vec(static_cast<Eigen::Index>(i), col) * (modes[first + i].*f)[s];
        out[s] = v;
      }
    }
    double su = 0, sv = 0, peak = 0;
    for (double e : g.eu) su += e * e, peak = std::abs(e) > std::abs(peak) ? e : peak;
    for (double e : g.ev) sv += e * e, peak = std::abs(e) > std::abs(peak) ? e : peak;
    if (peak < 0)
      for (auto* a : {&g.eu, &g.ev, &g.ew, &g.hu, &g.hv, &g.hw})
        for (double& value : *a) value = -value;
    g.u_fraction = su / (su + sv);
    rotated.push_back(std::move(g));
  }
  for (std::size_t r = 0; r < n; ++r) modes[first + r] = std::move(rotated[r]);
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) s += a[i] * b[i];
  return s;
}

}  // namespace

std::pair<std::size_t, std::size_t> degenerate_group(const std::vector<GuidedMode>& modes, std::size_t k) {
  std::size_t first = 0;
  while (first < modes.size()) {
    // A list cut short (the modes near a beta) may hold only some of a group.
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
  Eigen::MatrixXd like(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const GuidedMode &a = modes[first + i], &b = modes[first + j];
      like(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = along_u ? dot(a.eu, b.eu) : dot(a.ev, b.ev);
    }
  rotate_by(modes, first, n, like);
}

void align_groups(std::vector<GuidedMode>& modes, const std::vector<double>& eu, const std::vector<double>& ev) {
  for (std::size_t k = 0; k < modes.size();) {
    const auto [first, n] = degenerate_group(modes, k);
    if (n > 1) {
      Eigen::VectorXd p(static_cast<Eigen::Index>(n));
      for (std::size_t i = 0; i < n; ++i)
        p(static_cast<Eigen::Index>(i)) = dot(modes[first + i].eu, eu) + dot(modes[first + i].ev, ev);
      rotate_by(modes, first, n, p * p.transpose());
    }
    k = first + n;
  }
}

}  // namespace clfdtd
