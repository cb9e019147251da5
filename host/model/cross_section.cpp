// A model's cross-section for the mode solver (cross_section.hpp).
#include "model/cross_section.hpp"

#include <algorithm>
#include <stdexcept>

#include "config/run_config.hpp"
#include "model/number_text.hpp"

namespace clfdtd {

CrossSection model_cross_section(const GridGeometry& g, const FieldLayout& layout,
                                 const MaterialTable& materials,
                                 const std::array<std::vector<std::uint8_t>, 6>& ids, const ModeWindow& w) {
  const int a = w.axis, u = w.u(), v = w.v();
  if (a < 0 || a > 2 || w.plane < 0 || w.plane >= g.n[a] || w.lo[0] < 0 || w.lo[1] < 0 ||
      w.hi[0] > g.n[u] || w.hi[1] > g.n[v] || w.hi[0] <= w.lo[0] || w.hi[1] <= w.lo[1])
    throw std::invalid_argument("the mode window lies outside the grid");
  CrossSection cs = CrossSection::uniform(w.hi[0] - w.lo[0], w.hi[1] - w.lo[1], g.d[u], g.d[v], g.d[a],
                                          g.dt, 0.0, 1.0);
  // Component of each field along u, v and the axis.
  auto comp = [](int axis, bool h) { return static_cast<Component>(axis + (h ? 3 : 0)); };
  // The material at window sample (i, j) of a component, or nullptr at the grid's high end (a
  // sample index n: the domain's wall, which the layout does not store).
  auto entry = [&](Component c, int i, int j) -> const MaterialEntry* {
    std::array<int, 3> cell{};
    cell[a] = w.plane;
    cell[u] = w.lo[0] + i;
    cell[v] = w.lo[1] + j;
    for (int k = 0; k < 3; ++k)
      if (cell[k] >= g.n[k]) return nullptr;
    // A model without magnetic materials keeps no H ids: every H sample is vacuum's.
    const std::vector<std::uint8_t>& id_c = ids[static_cast<int>(c)];
    if (id_c.empty()) return &materials.entry(MaterialTable::kVacuum);
    const std::uint8_t id = id_c[layout.index(cell[0], cell[1], cell[2])];
    const MaterialEntry& e = materials.entry(id);
    if (!e.pec && (e.sigma > 0 || e.dispersive()))
      throw std::invalid_argument("material '" + materials.user_name(id) +
                                  "' in the mode window is " +
                                  (e.dispersive() ? "dispersive" : "lossy (sigma > 0)") +
                                  ": the mode solver takes lossless, non-dispersive materials");
    return &e;
  };
  auto eps_of = [&](Component c, int i, int j) {
    const MaterialEntry* e = entry(c, i, j);
    return e == nullptr || e->pec ? 0.0 : e->eps_r;
  };
  auto mu_of = [&](Component c, int i, int j) {
    const MaterialEntry* e = entry(c, i, j);
    return e == nullptr || e->pec ? 1.0 : e->mu_r;
  };
  const Component eu = comp(u, false), ev = comp(v, false), ew = comp(a, false);
  const Component hu = comp(u, true), hv = comp(v, true), hw = comp(a, true);
  for (int j = 0; j <= cs.nv; ++j)
    for (int i = 0; i <= cs.nu; ++i) {
      const std::size_t node = static_cast<std::size_t>(i) + static_cast<std::size_t>(cs.nu + 1) * j;
      if (i < cs.nu) {
        const std::size_t s = static_cast<std::size_t>(i) + static_cast<std::size_t>(cs.nu) * j;
        cs.eps_u[s] = eps_of(eu, i, j);
        cs.mu_v[s] = mu_of(hv, i, j);
      }
      cs.eps_w[node] = eps_of(ew, i, j);
    }
  for (int j = 0; j < cs.nv; ++j)
    for (int i = 0; i <= cs.nu; ++i) {
      const std::size_t s = static_cast<std::size_t>(i) + static_cast<std::size_t>(cs.nu + 1) * j;
      cs.eps_v[s] = eps_of(ev, i, j);
      cs.mu_u[s] = mu_of(hu, i, j);
    }
  for (int j = 0; j < cs.nv; ++j)
    for (int i = 0; i < cs.nu; ++i)
      cs.mu_w[static_cast<std::size_t>(i) + static_cast<std::size_t>(cs.nu) * j] = mu_of(hw, i, j);
  return cs;
}

std::string guide_change(const GridGeometry& g, const FieldLayout& layout,
                         const std::array<std::vector<std::uint8_t>, 6>& ids, const ModeWindow& w) {
  const int u = w.u(), v = w.v();
  for (int c = 0; c < 6; ++c) {
    if (ids[c].empty()) continue;
    for (int iu = std::max(0, w.lo[0]); iu <= std::min(w.hi[0], g.n[u] - 1); ++iu)
      for (int iv = std::max(0, w.lo[1]); iv <= std::min(w.hi[1], g.n[v] - 1); ++iv) {
        std::array<int, 3> at{};
        at[u] = iu;
        at[v] = iv;
        at[w.axis] = w.plane;
        const std::uint8_t here = ids[c][layout.index(at[0], at[1], at[2])];
        for (const int dw : {-1, 1}) {
          at[w.axis] = w.plane + dw;
          if (at[w.axis] < 0 || at[w.axis] >= g.n[w.axis]) continue;
          if (ids[c][layout.index(at[0], at[1], at[2])] != here)
            return std::string(component_name(static_cast<Component>(c))) + " differs at " + axis_name(g, u) +
                   " = " + number_text(iu * g.d[u]) + " m, " + axis_name(g, v) + " = " + number_text(iv * g.d[v]) +
                   " m";
        }
      }
  }
  return "";
}

std::string window_size_problem(const GridGeometry& g, const ModeWindow& w) {
  const int axes[2] = {w.u(), w.v()};
  for (int t = 0; t < 2; ++t)
    if (w.hi[t] - w.lo[t] < 2) return std::string("a window at least 2 cells wide along ") + axis_name(g, axes[t]);
  const std::size_t cells = static_cast<std::size_t>(w.hi[0] - w.lo[0]) * static_cast<std::size_t>(w.hi[1] - w.lo[1]);
  if (cells > kModeSolverMaxCells)
    return "a window of at most " + std::to_string(kModeSolverMaxCells) + " cells, got " + std::to_string(cells);
  return "";
}

std::string window_in_upml(const GridGeometry& g, const ModeWindow& w, const std::array<int, 6>& layers) {
  const int axes[2] = {w.u(), w.v()};
  for (int t = 0; t < 2; ++t) {
    const int a = axes[t];
    const int inner_lo = layers[2 * a], inner_hi = g.n[a] - layers[2 * a + 1];
    if (w.lo[t] >= inner_lo && w.hi[t] <= inner_hi) continue;
    return std::string("along ") + axis_name(g, a) + " it spans " + number_text(w.lo[t] * g.d[a]) + " to " +
           number_text(w.hi[t] * g.d[a]) + " m, the layers leave " + number_text(inner_lo * g.d[a]) + " to " +
           number_text(inner_hi * g.d[a]) + " m";
  }
  return "";
}

}  // namespace clfdtd
