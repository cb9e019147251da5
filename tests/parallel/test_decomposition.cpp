// parallel::decompose: the split of the grid into one box per rank.
#include <doctest/doctest.h>

#include <array>
#include <string>

#include "errors.hpp"
#include "parallel/decomposition.hpp"

using clfdtd::ConfigError;
using clfdtd::parallel::Box;
using clfdtd::parallel::decompose;
using clfdtd::parallel::Decomposition;
using A3 = std::array<int, 3>;

namespace {

// Every cell of the grid lies in exactly one box.
void check_tiles(const Decomposition& d, const A3& n) {
  long total = 0;
  for (const Box& b : d.boxes) total += b.cells();
  CHECK(total == static_cast<long>(n[0]) * n[1] * n[2]);
  for (int i = 0; i < n[0]; ++i)
    for (int j = 0; j < n[1]; ++j)
      for (int k = 0; k < n[2]; ++k) {
        int owners = 0;
        for (const Box& b : d.boxes) owners += b.contains(i, j, k) ? 1 : 0;
        REQUIRE(owners == 1);
      }
}

ConfigError error_of(const A3& n, int ranks, const A3& requested) {
  try {
    decompose(n, ranks, requested);
  } catch (const ConfigError& e) {
    return e;
  }
  FAIL("no ConfigError for ranks " << ranks);
  return ConfigError("", 0, "", "");
}

}  // namespace

TEST_CASE("one rank: the whole grid, whatever is requested") {
  const A3 n{7, 5, 3};
  for (const A3& req : {A3{0, 0, 0}, A3{2, 2, 1}}) {
    const Decomposition d = decompose(n, 1, req);
    CHECK(d.parts == A3{1, 1, 1});
    REQUIRE(d.ranks() == 1);
    CHECK(d.boxes[0].lo == A3{0, 0, 0});
    CHECK(d.boxes[0].hi == n);
    for (int f = 0; f < 6; ++f) CHECK(d.neighbour(0, f) == -1);
  }
}

TEST_CASE("automatic: two ranks split the longest axis") {
  CHECK(decompose({10, 30, 20}, 2, {0, 0, 0}).parts == A3{1, 2, 1});
  CHECK(decompose({10, 20, 30}, 2, {0, 0, 0}).parts == A3{1, 1, 2});
  CHECK(decompose({40, 20, 30}, 2, {0, 0, 0}).parts == A3{2, 1, 1});
  // A cube: the first axis.
  CHECK(decompose({16, 16, 16}, 2, {0, 0, 0}).parts == A3{2, 1, 1});
}

TEST_CASE("automatic: factors go to the longest boxes in turn (2D and 3D splits)") {
  CHECK(decompose({16, 16, 16}, 4, {0, 0, 0}).parts == A3{2, 2, 1});
  CHECK(decompose({16, 16, 16}, 8, {0, 0, 0}).parts == A3{2, 2, 2});
  CHECK(decompose({64, 16, 16}, 4, {0, 0, 0}).parts == A3{4, 1, 1});
  CHECK(decompose({12, 12, 12}, 6, {0, 0, 0}).parts == A3{3, 2, 1});
  CHECK(decompose({30, 10, 10}, 3, {0, 0, 0}).parts == A3{3, 1, 1});
  const A3 n{9, 8, 7};
  const Decomposition d = decompose(n, 12, {0, 0, 0});
  CHECK(d.parts[0] * d.parts[1] * d.parts[2] == 12);
  check_tiles(d, n);
}

TEST_CASE("uneven sizes: the first n % p boxes one cell longer") {
  const A3 n{3, 4, 11};
  const Decomposition d = decompose(n, 3, {0, 0, 0});
  REQUIRE(d.parts == A3{1, 1, 3});
  REQUIRE(d.ranks() == 3);
  CHECK(d.boxes[0].lo[2] == 0);
  CHECK(d.boxes[0].hi[2] == 4);
  CHECK(d.boxes[1].lo[2] == 4);
  CHECK(d.boxes[1].hi[2] == 8);
  CHECK(d.boxes[2].lo[2] == 8);
  CHECK(d.boxes[2].hi[2] == 11);
  for (const Box& b : d.boxes) {
    CHECK(b.lo[0] == 0);
    CHECK(b.hi[0] == 3);
    CHECK(b.lo[1] == 0);
    CHECK(b.hi[1] == 4);
  }
  check_tiles(d, n);
}

TEST_CASE("requested: rank order, coordinates and neighbours") {
  const A3 n{10, 9, 8};
  const Decomposition d = decompose(n, 12, {3, 2, 2});
  CHECK(d.parts == A3{3, 2, 2});
  REQUIRE(d.ranks() == 12);
  check_tiles(d, n);
  // rank = (px * parts[1] + py) * parts[2] + pz
  CHECK(d.coords(0) == A3{0, 0, 0});
  CHECK(d.coords(1) == A3{0, 0, 1});
  CHECK(d.coords(2) == A3{0, 1, 0});
  CHECK(d.coords(4) == A3{1, 0, 0});
  CHECK(d.coords(11) == A3{2, 1, 1});
  for (int r = 0; r < 12; ++r) CHECK(d.rank_at(d.coords(r)) == r);
  CHECK(d.rank_at({3, 0, 0}) == -1);
  CHECK(d.rank_at({0, -1, 0}) == -1);
  // Rank 5 = (1, 0, 1): x neighbours 1 and 9, y- wall, y+ 7, z- 4, z+ wall.
  CHECK(d.neighbour(5, 0) == 1);
  CHECK(d.neighbour(5, 1) == 9);
  CHECK(d.neighbour(5, 2) == -1);
  CHECK(d.neighbour(5, 3) == 7);
  CHECK(d.neighbour(5, 4) == 4);
  CHECK(d.neighbour(5, 5) == -1);
  // Neighbours share a face: the box across x+ starts where this one ends.
  CHECK(d.boxes[9].lo[0] == d.boxes[5].hi[0]);
  CHECK(d.boxes[9].lo[1] == d.boxes[5].lo[1]);
  CHECK(d.boxes[9].hi[2] == d.boxes[5].hi[2]);
  // x: 10 cells in 3 -> 4 3 3.
  CHECK(d.boxes[0].hi[0] == 4);
  CHECK(d.boxes[4].lo[0] == 4);
  CHECK(d.boxes[4].hi[0] == 7);
  CHECK(d.boxes[8].hi[0] == 10);
}

TEST_CASE("refusals name device.decomposition") {
  SUBCASE("product is not the rank count") {
    const ConfigError e = error_of({16, 16, 16}, 4, {2, 1, 1});
    CHECK(e.key() == "device.decomposition");
    CHECK(std::string(e.what()).find("2 1 1") != std::string::npos);
    CHECK(std::string(e.what()).find("4 MPI ranks") != std::string::npos);
  }
  SUBCASE("a zero among positive counts") {
    const ConfigError e = error_of({16, 16, 16}, 2, {2, 0, 1});
    CHECK(e.key() == "device.decomposition");
  }
  SUBCASE("fewer than 2 cells per box, requested") {
    const ConfigError e = error_of({16, 16, 5}, 3, {1, 1, 3});
    CHECK(e.key() == "device.decomposition");
    CHECK(std::string(e.what()).find("along z") != std::string::npos);
  }
  SUBCASE("fewer than 2 cells per box, automatic") {
    const ConfigError e = error_of({3, 3, 3}, 8, {0, 0, 0});
    CHECK(e.key() == "device.decomposition");
    CHECK(std::string(e.what()).find("automatic") != std::string::npos);
  }
  CHECK_NOTHROW(decompose({4, 4, 4}, 2, {2, 1, 1}));  // 2 cells each: the least allowed
}
