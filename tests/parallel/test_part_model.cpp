// parallel::slice_model on the split model (parallel_model.hpp) for 2- and 3-way splits along x,
// a 2 2 1 split and a 3-way z split: every part holds exactly the global ids, cell ids, PML status
// and profiles in its owned and ghost cells (PEC padding), its PML boxes cover exactly its PML
// cells once; every source, probe sample and monitor point is owned by exactly one part, at the
// right local cell; modes monitors keep the owned cells' shapes and zero in the ghosts.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "parallel/part_model.hpp"
#include "parallel/parallel_model.hpp"

using namespace clfdtd;
using namespace clfdtd::parallel;
using namespace clfdtd::test;

namespace {

void check_cells(const SimulationModel& g, const PartModel& pm) {
  const SimulationModel& m = pm.model;
  const Part& p = pm.part;
  const std::array<int, 3> n = p.local_n();
  REQUIRE(m.grid.n == n);
  const FieldLayout& L = m.layout;
  const FieldLayout& G = g.layout;
  for (std::size_t c = 0; c < 6; ++c) {
    REQUIRE(m.ids[c].size() == (g.ids[c].empty() ? 0 : L.cells()));
    if (g.ids[c].empty()) continue;
    int bad = 0;
    for (int i = 0; i < n[0]; ++i)
      for (int j = 0; j < n[1]; ++j)
        for (int k = 0; k < static_cast<int>(L.nzp()); ++k) {
          const std::uint8_t want =
              k < n[2] ? g.ids[c][G.index(p.origin[0] + i, p.origin[1] + j, p.origin[2] + k)]
                       : MaterialTable::kPec;
          bad += m.ids[c][L.index(i, j, k)] != want;
        }
    INFO("component " << c);
    CHECK(bad == 0);
  }
  int bad_cells = 0, bad_pml = 0;
  for (int i = 0; i < n[0]; ++i)
    for (int j = 0; j < n[1]; ++j)
      for (int k = 0; k < n[2]; ++k) {
        const int gi = p.origin[0] + i, gj = p.origin[1] + j, gk = p.origin[2] + k;
        const std::size_t gc = (static_cast<std::size_t>(gi) * g.grid.n[1] + gj) * g.grid.n[2] + gk;
        bad_cells += m.cell_ids[(static_cast<std::size_t>(i) * n[1] + j) * n[2] + k] != g.cell_ids[gc];
        bad_pml += m.upml.in_pml(i, j, k, n) != g.upml.in_pml(gi, gj, gk, g.grid.n);
      }
  CHECK(bad_cells == 0);
  CHECK(bad_pml == 0);
  for (int a = 0; a < 3; ++a) {
    for (int i = 0; i < n[a]; ++i) {
      const auto gi = static_cast<std::size_t>(p.origin[a] + i), li = static_cast<std::size_t>(i);
      CHECK(m.upml.integer[a].a[li] == g.upml.integer[a].a[gi]);
      CHECK(m.upml.integer[a].cm[li] == g.upml.integer[a].cm[gi]);
      CHECK(m.upml.half[a].b[li] == g.upml.half[a].b[gi]);
      CHECK(m.upml.half[a].cp[li] == g.upml.half[a].cp[gi]);
    }
  }
  // The boxes: disjoint, contiguous offsets, covering exactly the PML cells.
  std::vector<int> cover(static_cast<std::size_t>(n[0]) * n[1] * n[2], 0);
  std::size_t offset = 0;
  for (const PmlBox& b : m.upml.boxes) {
    CHECK(b.offset == offset);
    offset += b.cells();
    for (int i = b.i0; i < b.i1; ++i)
      for (int j = b.j0; j < b.j1; ++j)
        for (int k = b.k0; k < b.k1; ++k) ++cover[(static_cast<std::size_t>(i) * n[1] + j) * n[2] + k];
  }
  CHECK(offset == m.upml.cells);
  int bad_cover = 0;
  for (int i = 0; i < n[0]; ++i)
    for (int j = 0; j < n[1]; ++j)
      for (int k = 0; k < n[2]; ++k)
        bad_cover += cover[(static_cast<std::size_t>(i) * n[1] + j) * n[2] + k] !=
                     (m.upml.in_pml(i, j, k, n) ? 1 : 0);
  CHECK(bad_cover == 0);
  CHECK(m.energy == g.energy);
  CHECK(m.magnetic == g.magnetic);
}

// The cell of global point `p` of a DFT monitor.
std::array<int, 3> point_cell(const MonitorModel& mon, std::size_t p) {
  for (const DftRegion& r : mon.regions) {
    if (p < r.count()) {
      const std::size_t nj = static_cast<std::size_t>(r.hi[1] - r.lo[1]),
                        nk = static_cast<std::size_t>(r.hi[2] - r.lo[2]);
      return {r.lo[0] + static_cast<int>(p / (nj * nk)), r.lo[1] + static_cast<int>(p / nk % nj),
              r.lo[2] + static_cast<int>(p % nk)};
    }
    p -= r.count();
  }
  FAIL("point past the monitor's regions");
  return {};
}

}  // namespace

TEST_CASE("make_part: owned box, ghost planes where a neighbour is, origin") {
  const Decomposition d = decompose({20, 18, 22}, 4, {2, 2, 1});
  const Part p = make_part(d, 3);  // the high x, high y box
  CHECK(p.owned.lo == std::array<int, 3>{10, 9, 0});
  CHECK(p.owned.hi == std::array<int, 3>{20, 18, 22});
  CHECK(p.ghost_lo == std::array<int, 3>{1, 1, 0});
  CHECK(p.ghost_hi == std::array<int, 3>{0, 0, 0});
  CHECK(p.origin == std::array<int, 3>{9, 8, 0});
  CHECK(p.local_n() == std::array<int, 3>{11, 10, 22});
  CHECK(p.neighbour == std::array<int, 6>{1, -1, 2, -1, -1, -1});
}

TEST_CASE("slice_model: every part holds the global model in its owned and ghost cells") {
  const SimulationModel g = split_model(10);
  REQUIRE(g.magnetic);
  for (const auto& [ranks, parts] : split_cases()) {
    INFO("split " << parts[0] << " " << parts[1] << " " << parts[2]);
    const Decomposition d = decompose(g.grid.n, ranks, parts);
    std::map<std::string, int> source_owners;
    std::vector<int> sample_owners(g.probes.samples.size(), 0);
    std::vector<std::vector<int>> point_owners;
    for (const MonitorModel& mon : g.monitors) point_owners.emplace_back(mon.points(), 0);
    std::vector<std::vector<float>> modes_sum(1, std::vector<float>(g.monitors[2].modes.size(), 0));
    for (int r = 0; r < ranks; ++r) {
      INFO("rank " << r);
      const PartModel pm = slice_model(g, make_part(d, r));
      check_cells(g, pm);
      const Part& p = pm.part;
      for (const SourceModel& s : pm.model.sources) {
        ++source_owners[s.name];
        const auto it = std::find_if(g.sources.begin(), g.sources.end(),
                                     [&](const SourceModel& x) { return x.name == s.name; });
        REQUIRE(it != g.sources.end());
        for (int a = 0; a < 3; ++a) CHECK(s.cell[a] + p.origin[a] == it->cell[a]);
        CHECK(s.j == it->j);
      }
      REQUIRE(pm.probe_samples.size() == pm.model.probes.samples.size());
      CHECK(pm.model.probes.probes.size() == g.probes.probes.size());
      for (std::size_t l = 0; l < pm.probe_samples.size(); ++l) {
        const ProbeSample& want = g.probes.samples[static_cast<std::size_t>(pm.probe_samples[l])];
        const ProbeSample& got = pm.model.probes.samples[l];
        ++sample_owners[static_cast<std::size_t>(pm.probe_samples[l])];
        CHECK(got.component == want.component);
        CHECK(got.probe == want.probe);
        for (int a = 0; a < 3; ++a) CHECK(got.cell[a] + p.origin[a] == want.cell[a]);
      }
      REQUIRE(pm.model.monitors.size() == g.monitors.size());
      for (std::size_t mi = 0; mi < 2; ++mi) {
        const MonitorModel& lm = pm.model.monitors[mi];
        const std::vector<std::size_t>& map = pm.monitor_points[mi];
        REQUIRE(map.size() == lm.points());
        CHECK(lm.frequencies_hz == g.monitors[mi].frequencies_hz);
        CHECK(map == owned_monitor_points(g.monitors[mi], p.owned));
        for (std::size_t l = 0; l < map.size(); ++l) {
          ++point_owners[mi][map[l]];
          const std::array<int, 3> gc = point_cell(g.monitors[mi], map[l]);
          const std::array<int, 3> lc = point_cell(lm, l);
          for (int a = 0; a < 3; ++a) CHECK(lc[a] + p.origin[a] == gc[a]);
        }
      }
      // Modes: the owned cells' shapes, zero in ghost and padding cells.
      const MonitorModel& lm = pm.model.monitors[2];
      const FieldLayout& L = pm.model.layout;
      const FieldLayout& G = g.layout;
      REQUIRE(lm.modes.size() == static_cast<std::size_t>(lm.nmodes) * 3 * L.cells());
      const std::array<int, 3> n = p.local_n();
      int ghost_nonzero = 0;
      for (std::size_t kc = 0; kc < static_cast<std::size_t>(lm.nmodes) * 3; ++kc)
        for (int i = 0; i < n[0]; ++i)
          for (int j = 0; j < n[1]; ++j)
            for (int k = 0; k < n[2]; ++k) {
              const float v = lm.modes[kc * L.cells() + L.index(i, j, k)];
              const int gi = p.origin[0] + i, gj = p.origin[1] + j, gk = p.origin[2] + k;
              if (p.owned.contains(gi, gj, gk))
                modes_sum[0][kc * G.cells() + G.index(gi, gj, gk)] += v;
              else
                ghost_nonzero += v != 0;
            }
      CHECK(ghost_nonzero == 0);
    }
    for (const SourceModel& s : g.sources) CHECK(source_owners[s.name] == 1);
    CHECK(std::all_of(sample_owners.begin(), sample_owners.end(), [](int o) { return o == 1; }));
    for (std::size_t mi = 0; mi < 2; ++mi) {
      INFO("monitor " << g.monitors[mi].name);
      CHECK(std::all_of(point_owners[mi].begin(), point_owners[mi].end(),
                        [](int o) { return o == 1; }));
    }
    CHECK(modes_sum[0] == g.monitors[2].modes);
  }
}
