// The global model sliced to one rank's part (part_model.hpp).
#include "parallel/part_model.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "errors.hpp"

namespace clfdtd::parallel {

Part make_part(const Decomposition& d, int rank) {
  if (rank < 0 || rank >= d.ranks()) {
    throw std::logic_error("make_part: rank " + std::to_string(rank) + " outside 0.." +
                        std::to_string(d.ranks() - 1));
  }
  Part p;
  p.owned = d.boxes[static_cast<std::size_t>(rank)];
  for (int f = 0; f < 6; ++f) p.neighbour[static_cast<std::size_t>(f)] = d.neighbour(rank, f);
  for (int a = 0; a < 3; ++a) {
    p.mirror_lo[a] = d.mirror_lo[static_cast<std::size_t>(a)] && p.owned.lo[a] == 0;
    p.ghost_lo[a] = p.neighbour[static_cast<std::size_t>(2 * a)] >= 0 || p.mirror_lo[a] ? 1 : 0;
    p.ghost_hi[a] = p.neighbour[static_cast<std::size_t>(2 * a + 1)] >= 0 ? 1 : 0;
    p.origin[a] = p.owned.lo[a] - p.ghost_lo[a];
  }
  return p;
}

namespace {

// The cells of a region (lo, hi exclusive) that `owned` owns; empty on some axis when none.
DftRegion clip(const DftRegion& r, const Box& owned) {
  DftRegion c = r;
  for (int a = 0; a < 3; ++a) {
    c.lo[a] = std::max(r.lo[a], owned.lo[a]);
    c.hi[a] = std::max(c.lo[a], std::min(r.hi[a], owned.hi[a]));
  }
  return c;
}

// Calls f(global point index) for every point of `c` (r clipped), in c's point order.
template <class F>
void for_points(const DftRegion& r, std::size_t first, const DftRegion& c, F&& f) {
  const std::size_t nj = static_cast<std::size_t>(r.hi[1] - r.lo[1]);
  const std::size_t nk = static_cast<std::size_t>(r.hi[2] - r.lo[2]);
  for (int i = c.lo[0]; i < c.hi[0]; ++i)
    for (int j = c.lo[1]; j < c.hi[1]; ++j)
      for (int k = c.lo[2]; k < c.hi[2]; ++k)
        f(first + (static_cast<std::size_t>(i - r.lo[0]) * nj + static_cast<std::size_t>(j - r.lo[1])) * nk +
          static_cast<std::size_t>(k - r.lo[2]));
}

// The global index of local index l along an axis of `global_n` cells whose local cell 0 is global
// `origin`: past either end of a periodic axis (a part's ghost plane there) the other end's; before
// a magnetic wall (the only other ghost plane before cell 0), its mirror image, cell 0.
int global_index(int origin, int l, int global_n, bool periodic) {
  const int g = origin + l;
  if (periodic) return (g % global_n + global_n) % global_n;
  return g < 0 ? -g - 1 : g;
}

AxisProfile slice_profile(const AxisProfile& p, int origin, int n, int global_n, bool periodic) {
  auto cut = [&](const std::vector<double>& v) {
    std::vector<double> out(static_cast<std::size_t>(n));
    for (int l = 0; l < n; ++l)
      out[static_cast<std::size_t>(l)] = v[static_cast<std::size_t>(global_index(origin, l, global_n, periodic))];
    return out;
  };
  return AxisProfile{cut(p.a), cut(p.b), cut(p.cp), cut(p.cm)};
}

UpmlProfile slice_upml(const UpmlProfile& g, const std::array<int, 3>& global_n,
                       const std::array<bool, 3>& periodic, const Part& part) {
  const std::array<int, 3> n = part.local_n();
  UpmlProfile u;
  for (int a = 0; a < 3; ++a) {
    const int o = part.origin[a];
    // Local layer counts: a local cell lies in a slab exactly where its global cell does
    // (global i < lo  <=>  local i < lo - origin; global i >= N - hi  <=>  local i >= n - hi').
    const int lo = g.layers[2 * a], hi = g.layers[2 * a + 1];
    u.layers[2 * a] = lo > 0 ? std::clamp(lo - o, 0, n[a]) : 0;
    u.layers[2 * a + 1] = hi > 0 ? std::clamp(hi - (global_n[a] - o - n[a]), 0, n[a]) : 0;
    u.integer[a] = slice_profile(g.integer[a], o, n[a], global_n[a], periodic[a]);
    u.half[a] = slice_profile(g.half[a], o, n[a], global_n[a], periodic[a]);
  }
  for (const PmlBox& b : g.boxes) {
    PmlBox c;
    int lo[3] = {std::max(b.i0, part.origin[0]), std::max(b.j0, part.origin[1]),
                 std::max(b.k0, part.origin[2])};
    int hi[3] = {std::min(b.i1, part.origin[0] + n[0]), std::min(b.j1, part.origin[1] + n[1]),
                 std::min(b.k1, part.origin[2] + n[2])};
    // Along a periodic axis (no layers of its own) every box spans the whole period: the ghost
    // planes past its ends are PML cells where the cells they copy are.
    const int b0[3] = {b.i0, b.j0, b.k0}, b1[3] = {b.i1, b.j1, b.k1};
    for (int a = 0; a < 3; ++a) {
      // Before a magnetic wall: the ghost plane lies in the boxes that start at the wall.
      if (part.mirror_lo[static_cast<std::size_t>(a)] && b0[a] == 0) lo[a] = part.origin[a];
      if (!periodic[static_cast<std::size_t>(a)]) continue;
      if (b0[a] != 0 || b1[a] != global_n[a])
        throw std::logic_error("slice_model: a PML box that does not span a periodic axis");
      lo[a] = part.origin[a];
      hi[a] = part.origin[a] + n[a];
    }
    if (hi[0] <= lo[0] || hi[1] <= lo[1] || hi[2] <= lo[2]) continue;
    c.i0 = lo[0] - part.origin[0];
    c.i1 = hi[0] - part.origin[0];
    c.j0 = lo[1] - part.origin[1];
    c.j1 = hi[1] - part.origin[1];
    c.k0 = lo[2] - part.origin[2];
    c.k1 = hi[2] - part.origin[2];
    c.offset = u.cells;
    u.cells += c.cells();
    u.boxes.push_back(c);
  }
  return u;
}

// The one-copy slice `pm` made two copies side by side along part.bloch_axis (part_model.hpp):
// every per-cell table repeated, the PML boxes (which span a periodic axis) over both copies;
// sources and probe samples stay in the first copy.
void stack_bloch_copies(PartModel& pm, const Part& part) {
  const auto s = static_cast<std::size_t>(part.bloch_axis);
  SimulationModel& m = pm.model;
  // What drives or reads the fields per sample stays in the first copy: only what both copies
  // need to see is offered (config/bloch_checks.hpp).
  if (!m.dispersion.empty() || !m.plane_waves.empty() || !m.monitors.empty() ||
      part.mirror_lo[0] || part.mirror_lo[1] || part.mirror_lo[2])
    throw std::logic_error("slice_model: a Bloch model with dispersive samples, plane waves, monitors or magnetic walls");
  const std::array<int, 3> n1 = m.grid.n;
  std::array<int, 3> n2 = n1;
  n2[s] *= 2;
  const FieldLayout one = m.layout;
  m.grid.n = n2;
  m.layout = FieldLayout(n2[0], n2[1], n2[2]);
  const FieldLayout& L = m.layout;
  auto from = [&](int i, int j, int k, std::array<int, 3>& c) {
    c = {i, j, k};
    c[s] %= n1[s];
  };
  std::array<int, 3> c{};
  for (auto& ids : m.ids) {
    if (ids.empty()) continue;
    std::vector<std::uint8_t> two(L.cells(), MaterialTable::kPec);  // padding is PEC
    for (int i = 0; i < n2[0]; ++i)
      for (int j = 0; j < n2[1]; ++j)
        for (int k = 0; k < n2[2]; ++k) {
          from(i, j, k, c);
          two[L.index(i, j, k)] = ids[one.index(c[0], c[1], c[2])];
        }
    ids = std::move(two);
  }
  if (!m.cell_ids.empty()) {
    std::vector<std::uint8_t> two(static_cast<std::size_t>(n2[0]) * n2[1] * n2[2]);
    for (int i = 0; i < n2[0]; ++i)
      for (int j = 0; j < n2[1]; ++j)
        for (int k = 0; k < n2[2]; ++k) {
          from(i, j, k, c);
          two[(static_cast<std::size_t>(i) * n2[1] + j) * n2[2] + k] =
              m.cell_ids[(static_cast<std::size_t>(c[0]) * n1[1] + c[1]) * n1[2] + c[2]];
        }
    m.cell_ids = std::move(two);
  }
  for (auto* profiles : {&m.upml.integer, &m.upml.half}) {
    AxisProfile& p = (*profiles)[s];
    for (auto* v : {&p.a, &p.b, &p.cp, &p.cm}) {
      const std::vector<double> copy = *v;
      v->insert(v->end(), copy.begin(), copy.end());
    }
  }
  m.upml.cells = 0;
  for (PmlBox& b : m.upml.boxes) {
    int* lo[3] = {&b.i0, &b.j0, &b.k0};
    int* hi[3] = {&b.i1, &b.j1, &b.k1};
    if (*lo[s] != 0 || *hi[s] != n1[s])
      throw std::logic_error("slice_model: a PML box that does not span the Bloch axis");
    *hi[s] = n2[s];
    b.offset = m.upml.cells;
    m.upml.cells += b.cells();
  }
  pm.part = part;
}

}  // namespace

std::vector<int> owned_probe_samples(const ProbeSet& probes, const Box& owned) {
  std::vector<int> out;
  for (std::size_t s = 0; s < probes.samples.size(); ++s) {
    const auto& c = probes.samples[s].cell;
    if (owned.contains(c[0], c[1], c[2])) out.push_back(static_cast<int>(s));
  }
  return out;
}

std::vector<std::size_t> owned_monitor_points(const MonitorModel& mon, const Box& owned) {
  std::vector<std::size_t> out;
  if (mon.kind == MonitorKind::Modes) return out;
  std::size_t first = 0;
  for (const DftRegion& r : mon.regions) {
    for_points(r, first, clip(r, owned), [&](std::size_t p) { out.push_back(p); });
    first += r.count();
  }
  return out;
}

PartModel slice_model(const SimulationModel& global, const Part& part) {
  if (global.two_d() || global.cylindrical()) {
    throw std::logic_error("slice_model: only 3D models are split over ranks");
  }
  if (part.bloch_axis >= 0) {
    Part one = part;
    one.bloch_axis = -1;
    PartModel out = slice_model(global, one);
    stack_bloch_copies(out, part);
    return out;
  }
  const std::array<int, 3> n = part.local_n();
  const std::array<int, 3> o = part.origin;
  const FieldLayout& G = global.layout;
  PartModel out;
  out.part = part;
  SimulationModel& m = out.model;
  // Member by member: the global tables (ids, mode shapes) are never copied whole.
  m.grid = global.grid;
  m.grid.n = n;
  // The part's own engine knows nothing of periodic axes or magnetic walls: its ghost planes
  // carry them.
  m.grid.periodic = {};
  m.grid.pmc = {};
  const std::array<bool, 3>& periodic = global.grid.periodic;
  const std::array<int, 3>& gn = global.grid.n;
  auto gi = [&](int a, int l) { return global_index(o[a], l, gn[a], periodic[a]); };
  m.layout = FieldLayout(n[0], n[1], n[2]);
  const FieldLayout& L = m.layout;
  m.materials = global.materials;
  m.magnetic = global.magnetic;
  m.probes.probes = global.probes.probes;
  m.probes.first_step = global.probes.first_step;
  m.probes.last_step = global.probes.last_step;
  m.snapshot_steps = global.snapshot_steps;
  m.snapshot_e = global.snapshot_e;
  m.snapshot_h = global.snapshot_h;
  m.energy = global.energy;
  m.mode = global.mode;
  m.equation = global.equation;

  for (std::size_t c = 0; c < 6; ++c) {
    if (global.ids[c].empty()) continue;
    std::vector<std::uint8_t> ids(L.cells(), MaterialTable::kPec);  // padding is PEC
    for (int i = 0; i < n[0]; ++i)
      for (int j = 0; j < n[1]; ++j) {
        if (!periodic[2] && !part.mirror_lo[2]) {
          const std::uint8_t* src = &global.ids[c][G.index(gi(0, i), gi(1, j), o[2])];
          std::copy(src, src + n[2], &ids[L.index(i, j, 0)]);
          continue;
        }
        for (int k = 0; k < n[2]; ++k)
          ids[L.index(i, j, k)] = global.ids[c][G.index(gi(0, i), gi(1, j), gi(2, k))];
      }
    m.ids[c] = std::move(ids);
  }
  if (!global.cell_ids.empty()) {
    std::vector<std::uint8_t> cells(static_cast<std::size_t>(n[0]) * n[1] * n[2]);
    for (int i = 0; i < n[0]; ++i)
      for (int j = 0; j < n[1]; ++j)
        for (int k = 0; k < n[2]; ++k)
          cells[(static_cast<std::size_t>(i) * n[1] + j) * n[2] + k] =
              global.cell_ids[(static_cast<std::size_t>(gi(0, i)) * gn[1] + gi(1, j)) * gn[2] + gi(2, k)];
    m.cell_ids = std::move(cells);
  }
  m.upml = slice_upml(global.upml, global.grid.n, periodic, part);

  for (const SourceModel& s : global.sources) {
    if (!part.owned.contains(s.cell[0], s.cell[1], s.cell[2])) continue;
    SourceModel local = s;
    for (int a = 0; a < 3; ++a) local.cell[a] -= o[a];
    m.sources.push_back(std::move(local));
  }

  out.probe_samples = owned_probe_samples(global.probes, part.owned);
  for (int s : out.probe_samples) {
    ProbeSample local = global.probes.samples[static_cast<std::size_t>(s)];
    for (int a = 0; a < 3; ++a) local.cell[a] -= o[a];
    m.probes.samples.push_back(local);
  }

  // Dispersive samples the part owns, at their local index (a ghost sample's E comes from its
  // owner by the halo exchange after the step); the rows are the global ones.
  if (!global.dispersion.empty()) {
    const DispersiveSamples& gd = global.dispersion;
    DispersiveSamples& d = m.dispersion;
    d.rows = gd.rows;
    d.max_poles = gd.max_poles;
    d.any_upml = gd.any_upml;
    const std::size_t nzp = G.nzp();
    for (std::size_t s = 0; s < gd.count(); ++s) {
      const std::size_t at = gd.index[s];
      const int k = static_cast<int>(at % nzp);
      const std::size_t ij = at / nzp;
      const int j = static_cast<int>(ij % static_cast<std::size_t>(G.ny));
      const int i = static_cast<int>(ij / static_cast<std::size_t>(G.ny));
      if (!part.owned.contains(i, j, k)) continue;
      d.comp.push_back(gd.comp[s]);
      d.index.push_back(L.index(i - o[0], j - o[1], k - o[2]));
      d.row.push_back(gd.row[s]);
    }
  }
  // Plane waves: the corrections of every sample in the local box, ghosts included. A ghost H
  // sample's correction reaches owned E samples through post_step_entries (their curl reads it);
  // what it adds to ghost samples the halo exchange replaces. Along a periodic axis a ghost plane
  // takes the corrections of the cells at the other end.
  for (const PlaneWaveModel& gw : global.plane_waves) {
    PlaneWaveModel w = gw;
    for (auto* terms : {&w.h_terms, &w.e_terms}) {
      std::vector<PlaneWaveTerm> kept;
      for (const PlaneWaveTerm& t : *terms) {
        // Each axis' local images of the term's cell: itself, and past a periodic axis' ends.
        std::array<std::vector<int>, 3> at;
        for (int a = 0; a < 3; ++a)
          for (int shift : {0, -gn[a], gn[a]}) {
            if (shift != 0 && !periodic[a]) continue;
            const int l = t.cell[a] + shift - o[a];
            if (l >= 0 && l < n[a]) at[a].push_back(l);
          }
        for (int i : at[0])
          for (int j : at[1])
            for (int k : at[2]) {
              PlaneWaveTerm local = t;
              local.cell = {i, j, k};
              kept.push_back(local);
            }
      }
      *terms = std::move(kept);
    }
    m.plane_waves.push_back(std::move(w));
  }

  out.monitor_points.resize(global.monitors.size());
  for (std::size_t mi = 0; mi < global.monitors.size(); ++mi) {
    const MonitorModel& gm = global.monitors[mi];
    MonitorModel lm;
    lm.name = gm.name;
    lm.kind = gm.kind;
    lm.frequencies_hz = gm.frequencies_hz;
    lm.theta_step_deg = gm.theta_step_deg;
    lm.phi_step_deg = gm.phi_step_deg;
    lm.dft_every = gm.dft_every;
    lm.nmodes = gm.nmodes;
    lm.every = gm.every;
    lm.modes_file = gm.modes_file;
    // The faces serve the host's flux and far-field sums, which run on the global model.
    for (int a = 0; a < 3; ++a) {
      lm.lo[a] = std::clamp(gm.lo[a] - o[a], 0, n[a]);
      lm.hi[a] = std::clamp(gm.hi[a] - o[a], lm.lo[a], n[a]);
    }
    if (gm.kind == MonitorKind::Modes) {
      const std::size_t gc = G.cells(), lc = L.cells();
      std::vector<float> modes(static_cast<std::size_t>(gm.nmodes) * 3 * lc, 0.0f);
      for (std::size_t kc = 0; kc < static_cast<std::size_t>(gm.nmodes) * 3; ++kc)
        for (int i = part.ghost_lo[0]; i < n[0] - part.ghost_hi[0]; ++i)
          for (int j = part.ghost_lo[1]; j < n[1] - part.ghost_hi[1]; ++j) {
            const int k0 = part.ghost_lo[2], k1 = n[2] - part.ghost_hi[2];
            const float* src = &gm.modes[kc * gc + G.index(o[0] + i, o[1] + j, o[2] + k0)];
            std::copy(src, src + (k1 - k0), &modes[kc * lc + L.index(i, j, k0)]);
          }
      lm.modes = std::move(modes);
      m.monitors.push_back(std::move(lm));
      continue;
    }
    for (const DftRegion& r : gm.regions) {
      DftRegion c = clip(r, part.owned);
      if (c.count() == 0) continue;
      for (int a = 0; a < 3; ++a) {
        c.lo[a] -= o[a];
        c.hi[a] -= o[a];
      }
      lm.regions.push_back(c);
    }
    out.monitor_points[mi] = owned_monitor_points(gm, part.owned);
    m.monitors.push_back(std::move(lm));
  }
  return out;
}

}  // namespace clfdtd::parallel
