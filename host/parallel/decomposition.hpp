// How the global grid is split into one box per rank (issue 21): along the longest axes first,
// or as device.decomposition asks; box sizes along an axis differ by at most one cell.
#pragma once
#include <array>
#include <vector>

namespace clfdtd::parallel {

struct Box {  // cells [lo, hi) per axis, global indices
  std::array<int, 3> lo{}, hi{};
  long cells() const;
  bool contains(int i, int j, int k) const;
};

struct Decomposition {
  std::array<int, 3> parts{1, 1, 1};  // boxes along x, y, z
  std::vector<Box> boxes;             // by rank: rank = (px * parts[1] + py) * parts[2] + pz
  // boundary.periodic: along these axes the last box's high neighbour is the first box (the
  // rank itself with one box there).
  std::array<bool, 3> periodic{};
  // boundary.pmc: the low face of these axes is a magnetic wall (the first box mirrors its H).
  std::array<bool, 3> mirror_lo{};
  int ranks() const { return static_cast<int>(boxes.size()); }
  std::array<int, 3> coords(int rank) const;
  // The rank of the box at coords p, -1 outside the grid.
  int rank_at(const std::array<int, 3>& p) const;
  // The neighbour across face f (0..5: x-, x+, y-, y+, z-, z+), -1 at the global wall; across
  // the ends of a periodic axis, the box at the other end.
  int neighbour(int rank, int face) const;
};

// Splits grid n into `ranks` boxes. requested = device.decomposition (all zero = automatic:
// factors of `ranks` given to the longest axes first, e.g. 2 -> along the longest axis; 4 on a
// cube -> 2 2 1). Along an axis split into p parts, sizes differ by at most one cell (the first
// n % p parts one larger). Throws ConfigError (key device.decomposition) when the product of
// requested parts is not `ranks`, or a part would have fewer than 2 cells along a split axis.
// With one rank the request is ignored: one box, the whole grid.
Decomposition decompose(const std::array<int, 3>& n, int ranks, const std::array<int, 3>& requested,
                        const std::array<bool, 3>& periodic = {},
                        const std::array<bool, 3>& mirror_lo = {});

}  // namespace clfdtd::parallel
