// The host-side layout tables the float4 kernels index by (backends/device_tables.hpp): where the
// tile kernels start and which float4s of a row belong to the z slabs, per variant. The kernels'
// results are checked against the reference engine elsewhere; this pins the layout itself.
#include <doctest/doctest.h>

#include "backends/device_tables.hpp"
#include "backends/physics_helpers.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

SimulationModel upml_cube(int n, const std::array<int, 6>& layers) {
  RunConfig cfg = box_config({n, n, n}, 1e-3, 10, BoundaryType::Upml);
  cfg.boundary.layers = layers;
  return SimulationModel::build(cfg);
}

}  // namespace

TEST_CASE("z-slab float4s: rounded out to float4 pairs for tile and onepass") {
  // 64 cells along z: 16 float4s; 10 layers reach into float4 2 at the low end and from float4
  // 13 (cell 54) at the high end, so the slabs are float4s 0-3 and 12-15 (whole 32 B sectors).
  const SimulationModel m = upml_cube(64, {10, 10, 10, 10, 10, 10});
  for (KernelVariant v : {KernelVariant::Tile, KernelVariant::OnePass}) {
    const ZSlabLayout z = zslab_layout(m, v);
    CHECK(z.zq_lo == 4);
    CHECK(z.zq_hi == 12);
    CHECK(z.znq == 8);
    CHECK(z.nxi == 44);
    CHECK(z.nyi == 44);
    CHECK(z.float4s() == 44u * 44u * 8u);
  }
}

TEST_CASE("z-slab float4s: a face without layers keeps its float4s plain") {
  const SimulationModel m = upml_cube(64, {0, 0, 0, 0, 0, 7});
  const ZSlabLayout tile = zslab_layout(m, KernelVariant::Tile);
  CHECK(tile.zq_lo == 0);
  CHECK(tile.zq_hi == 14);  // (64 - 7) / 4 = 14, already even
  CHECK(tile.znq == 2);
  const SimulationModel none = upml_cube(64, {3, 3, 3, 3, 0, 0});
  const ZSlabLayout z = zslab_layout(none, KernelVariant::Tile);
  CHECK(z.float4s() == 0u);
  CHECK(z.zq_hi == none.layout.nz4);
}

TEST_CASE("tile kernels cover the x/y interior rows") {
  const SimulationModel m = upml_cube(32, {3, 4, 0, 2, 5, 1});
  const auto rows = tile_rows(m);
  CHECK(rows[0] == 32 - 3 - 4);
  CHECK(rows[1] == 32 - 0 - 2);
  const SimulationModel pec = SimulationModel::build(box_config({9, 7, 5}, 1e-3, 10,
                                                                BoundaryType::Pec));
  CHECK(tile_rows(pec) == std::array<int, 2>{9, 7});
}

TEST_CASE("variant_device_bytes: the tile and onepass auxiliaries as they are allocated") {
  // 64^3 with 10 layers on every face: x/y-slab rows 20 * 64 + 44 * 20 = 2160, each 16 float4s
  // (64 floats) in 6 auxiliary arrays; 44 * 44 * 8 z-slab float4s in 2 float4 arrays (Bz, Dz);
  // the z-lane table (8 float4s per float4 kq). The model's own count has 6 floats per PML cell
  // instead.
  const SimulationModel m = upml_cube(64, {10, 10, 10, 10, 10, 10});
  const std::size_t f = sizeof(float);
  const std::size_t own = 6 * f * 2160 * 64 + 2 * 4 * f * 44 * 44 * 8 + 8 * 4 * f * 16;
  const std::size_t model_aux = 6 * f * m.upml.cells;
  CHECK(variant_device_bytes(m, KernelVariant::Tile, 8) == m.device_bytes(8) - model_aux + own);
  CHECK(variant_device_bytes(m, KernelVariant::OnePass, 8) ==
        m.device_bytes(8, true) - model_aux + own);
  CHECK(own != model_aux);  // so the model's count alone would be wrong
  // rows allocates what the model counts.
  CHECK(variant_device_bytes(m, KernelVariant::Rows, 8) == m.device_bytes(8));
  const SimulationModel pec = upml_cube(64, {0, 0, 0, 0, 0, 0});
  CHECK(variant_device_bytes(pec, KernelVariant::Tile, 8) == pec.device_bytes(8));
}

TEST_CASE("cell entries: (component + 8 * (cell % 4), cell / 4), past 2^31 cells, refused past 2^31 lanes") {
  using E = std::array<std::int32_t, 2>;
  CHECK(cell_entry(0, 0) == E{0, 0});
  CHECK(cell_entry(5, 39) == E{5 + 24, 9});
  CHECK(cell_entry(2, 3000000003ull) == E{2 + 24, 750000000});  // a cell past 2^31
  CHECK(cell_entry(1, 4ull * 2147483647ull + 2) == E{1 + 16, 2147483647});
  CHECK_THROWS_AS(cell_entry(1, 4ull * 2147483648ull), DeviceError);
  std::vector<std::int32_t> table;
  push_cell_entry(table, 3, 6);
  CHECK(table == std::vector<std::int32_t>{3 + 16, 1});
}

TEST_CASE("E ids per float4: the id all twelve E samples share, else mixed") {
  SimulationModel m = SimulationModel::build(box_config({8, 8, 16}, 1e-3, 10, BoundaryType::Pec));
  const auto& L = m.layout;
  const auto float4_of = [&](int i, int j, int k) { return L.index(i, j, k) / 4; };
  auto set12 = [&](std::size_t q, std::uint8_t v) {
    for (Component c : {Component::Ex, Component::Ey, Component::Ez})
      for (std::size_t l = 0; l < 4; ++l) m.ids[static_cast<int>(c)][4 * q + l] = v;
  };
  std::vector<std::uint8_t> t = e_id_float4_table(m);
  REQUIRE(t.size() == L.cells() / 4);
  CHECK(t[float4_of(3, 3, 4)] == MaterialTable::kVacuum);
  CHECK(t[float4_of(3, 3, 0)] == kIdsMixed);  // Ex and Ey are PEC at the k = 0 wall
  CHECK(t[float4_of(0, 3, 4)] == kIdsMixed);  // Ey and Ez are PEC on the i = 0 wall, Ex is not

  set12(float4_of(4, 4, 8), 7);
  m.ids[static_cast<int>(Component::Ez)][4 * float4_of(5, 4, 8) + 3] = 7;  // one lane of one component
  m.ids[static_cast<int>(Component::Ey)][4 * float4_of(6, 4, 8)] = 7;
  set12(float4_of(3, 5, 8), kIdsMixed);  // a shared 255 cannot be told from mixed: mixed
  t = e_id_float4_table(m);
  CHECK(t[float4_of(4, 4, 8)] == 7);
  CHECK(t[float4_of(5, 4, 8)] == kIdsMixed);
  CHECK(t[float4_of(6, 4, 8)] == kIdsMixed);
  CHECK(t[float4_of(3, 5, 8)] == kIdsMixed);
  CHECK(t[float4_of(4, 4, 12)] == MaterialTable::kVacuum);
}

TEST_CASE("H ids per float4: the id all twelve H samples share, else mixed") {
  RunConfig cfg = box_config({8, 8, 16}, 1e-3, 10, BoundaryType::Pec);
  cfg.materials.push_back(material("ferrite", 1, 3, 0));
  cfg.objects.push_back(box("core", "ferrite", {4, 4, 8}, {4, 4, 8}, 1e-3));  // cells 2..5, 4..11
  SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.magnetic);
  const auto& L = m.layout;
  const auto float4_of = [&](int i, int j, int k) { return L.index(i, j, k) / 4; };
  const auto& hx = m.ids[static_cast<int>(Component::Hx)];
  const std::uint8_t ferrite = hx[L.index(3, 3, 9)];
  REQUIRE(ferrite != MaterialTable::kVacuum);
  std::vector<std::uint8_t> t = h_id_float4_table(m);
  REQUIRE(t.size() == L.cells() / 4);
  CHECK(t[float4_of(3, 3, 8)] == ferrite);  // inside the core, all three components
  CHECK(t[float4_of(6, 6, 12)] == MaterialTable::kVacuum);
  // Every float4: the shared id or mixed, and the core's surface makes some mixed.
  std::size_t mixed = 0;
  for (std::size_t q = 0; q < t.size(); ++q) {
    bool same = true;
    for (int c = 3; c < 6; ++c)
      for (std::size_t l = 0; l < 4; ++l) same = same && m.ids[c][4 * q + l] == hx[4 * q];
    CHECK(t[q] == (same ? hx[4 * q] : kIdsMixed));
    mixed += t[q] == kIdsMixed;
  }
  CHECK(mixed > 0);

  // One lane of one component decides; the E table does not look at H.
  m.ids[static_cast<int>(Component::Hy)][4 * float4_of(6, 6, 12) + 2] = ferrite;
  CHECK(h_id_float4_table(m)[float4_of(6, 6, 12)] == kIdsMixed);
  CHECK(e_id_float4_table(m)[float4_of(6, 6, 12)] == MaterialTable::kVacuum);
}
