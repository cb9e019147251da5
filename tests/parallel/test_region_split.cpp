// A step split by rows (engine/plan.hpp RowSplit, what the halo overlap runs): the edge rows'
// stages, then the rest's, give the whole-grid step cell for cell, for the tile and rows
// variants on PoCL, on the split model (UPML on every face, a lossy magnetic dielectric, a PEC
// box, two dipoles, one on an edge plane); the hooks run in split order. And overlap_split: the
// send-plane rows of a part, then the rest, disjoint, covering its owned rows exactly.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "device/test_apis.hpp"
#include "engine/gpu_engine.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/parallel_model.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

bool have_opencl() {
  if (has_device(device::Api::OpenCL)) return true;
  MESSAGE("no OpenCL device: region split cases skipped");
  return false;
}

std::vector<std::vector<float>> all_fields(engine::GpuEngine& e) {
  std::vector<std::vector<float>> out(6);
  for (int c = 0; c < 6; ++c) e.read_field(static_cast<Component>(c), out[static_cast<std::size_t>(c)]);
  return out;
}

}  // namespace

TEST_CASE("a step split by rows equals the whole step, cell for cell (tile, rows)") {
  if (!have_opencl()) return;
  const SimulationModel m = split_model(24);
  const int nx = m.layout.nx, ny = m.layout.ny;
  // Dipole "b" sits at cell (6, 12, 7), "a" at (10, 9, 11): the edges hold both. Edges: planes
  // x = 6 and x = 10 over every y, and y = 12 between them; the rest: everything else, in four
  // boxes.
  engine::RowSplit split;
  split.edges = {{6, 0, 7, ny}, {10, 0, 11, ny}, {7, 12, 10, 13}};
  split.rest = {{0, 0, 6, ny}, {11, 0, nx, ny}, {7, 0, 10, 12}, {7, 13, 10, ny}};
  for (KernelVariant v : {KernelVariant::Tile, KernelVariant::Rows}) {
    INFO("variant " << (v == KernelVariant::Tile ? "tile" : "rows"));
    DeviceConfig dev;
    dev.variant = v;
    auto whole = engine::make_gpu_engine(device::Api::OpenCL, m, dev, true);
    auto parts = engine::make_gpu_engine(device::Api::OpenCL, m, dev, true, split);
    REQUIRE(parts->split());
    CHECK(!whole->split());
    std::vector<std::string> order;
    parts->set_step_hooks({[&](long) { order.push_back("h"); }, [&](long) { order.push_back("e"); },
                           [&](long) { order.push_back("h edges"); },
                           [&](long) { order.push_back("e edges"); }});
    for (long s = 0; s < m.grid.steps; ++s) {
      whole->step(s);
      parts->step(s);
    }
    CHECK(order.size() == 4 * static_cast<std::size_t>(m.grid.steps));
    CHECK(std::vector<std::string>(order.begin(), order.begin() + 4) ==
          std::vector<std::string>{"h edges", "h", "e edges", "e"});
    const auto a = all_fields(*whole), b = all_fields(*parts);
    for (std::size_t c = 0; c < 6; ++c) {
      INFO("component " << c);
      REQUIRE(a[c].size() == b[c].size());
      std::size_t differ = 0;
      double peak = 0;
      for (std::size_t i = 0; i < a[c].size(); ++i) {
        if (a[c][i] != b[c][i]) ++differ;
        peak = std::max(peak, static_cast<double>(std::abs(a[c][i])));
      }
      CHECK(differ == 0);
      CHECK(peak > 0);  // the sources reached every component
    }
  }
}

TEST_CASE("a split that leaves rows out does not update them") {
  if (!have_opencl()) return;
  const SimulationModel m = split_model(6);
  engine::RowSplit split;
  // Rows x < 5 only: both dipoles (x = 6 and 10) lie outside, so their J is never added and
  // nothing is updated where it would arrive.
  split.rest = {{0, 0, 5, m.layout.ny}};
  DeviceConfig dev;
  dev.variant = KernelVariant::Rows;
  auto e = engine::make_gpu_engine(device::Api::OpenCL, m, dev, true, split);
  for (long s = 0; s < m.grid.steps; ++s) e->step(s);
  std::size_t nonzero = 0;
  for (const auto& c : all_fields(*e))
    for (float v : c) nonzero += v != 0.0f ? 1 : 0;
  CHECK(nonzero == 0);
}

TEST_CASE("overlap_split: send-plane rows first, then the rest, covering the owned rows once") {
  const SimulationModel m = split_model(1);
  for (const auto& [ranks, parts] : split_cases()) {
    const parallel::Decomposition d = parallel::decompose(m.grid.n, ranks, parts);
    for (int r = 0; r < ranks; ++r) {
      INFO("split " << parts[0] << parts[1] << parts[2] << " rank " << r);
      const parallel::Part p = parallel::make_part(d, r);
      const engine::RowSplit s = parallel::overlap_split(p);
      const auto n = p.local_n();
      std::set<std::pair<int, int>> edge_rows, rest_rows;
      std::size_t count = 0;
      for (int part = 0; part < 2; ++part)
        for (const engine::RowBox& b : part == 0 ? s.edges : s.rest) {
          CHECK(!b.empty());
          for (int i = b.i0; i < b.i1; ++i)
            for (int j = b.j0; j < b.j1; ++j) {
              (part == 0 ? edge_rows : rest_rows).insert({i, j});
              ++count;
            }
        }
      const int i0 = p.ghost_lo[0], i1 = n[0] - p.ghost_hi[0];
      const int j0 = p.ghost_lo[1], j1 = n[1] - p.ghost_hi[1];
      CHECK(count == edge_rows.size() + rest_rows.size());  // disjoint
      CHECK(count == static_cast<std::size_t>((i1 - i0) * (j1 - j0)));
      for (const auto& [i, j] : edge_rows) CHECK((i >= i0 && i < i1 && j >= j0 && j < j1));
      for (const auto& [i, j] : rest_rows) CHECK((i >= i0 && i < i1 && j >= j0 && j < j1));
      // Every owned row of an x or y send plane is an edge row.
      for (const parallel::HaloFace& f : parallel::halo_faces(p)) {
        if (f.face >= 4) {
          CHECK(rest_rows.empty());  // a z plane spans every owned row
          continue;
        }
        for (int i = std::max(f.send.lo[0], i0); i < std::min(f.send.hi[0], i1); ++i)
          for (int j = std::max(f.send.lo[1], j0); j < std::min(f.send.hi[1], j1); ++j)
            CHECK(edge_rows.count({i, j}) == 1);
      }
      if (parts[2] == 1) CHECK(!rest_rows.empty());
    }
  }
}
