// The split of the grid into boxes, one per rank (see decomposition.hpp).
#include "parallel/decomposition.hpp"

#include <stdexcept>
#include <string>

#include "errors.hpp"

namespace clfdtd::parallel {
namespace {

const char* kKey = "device.decomposition";
const char* kAxis = "xyz";

std::string triple(const std::array<int, 3>& v) {
  return std::to_string(v[0]) + " " + std::to_string(v[1]) + " " + std::to_string(v[2]);
}

// The prime factors of k, largest first (so the largest factor goes to the longest axis).
std::vector<int> prime_factors_descending(int k) {
  std::vector<int> f;
  for (int p = 2; p * p <= k; ++p)
    while (k % p == 0) {
      f.push_back(p);
      k /= p;
    }
  if (k > 1) f.push_back(k);
  return {f.rbegin(), f.rend()};
}

// Each factor goes to the axis whose boxes are longest so far (the lower axis on a tie).
std::array<int, 3> automatic_parts(const std::array<int, 3>& n, int ranks) {
  std::array<int, 3> parts{1, 1, 1};
  for (int f : prime_factors_descending(ranks)) {
    int best = 0;
    for (int a = 1; a < 3; ++a)
      if (static_cast<double>(n[a]) / parts[a] > static_cast<double>(n[best]) / parts[best])
        best = a;
    parts[best] *= f;
  }
  return parts;
}

// Part `index` of `p` along an axis of n cells: the first n % p parts are one cell longer.
void part_range(int n, int p, int index, int& lo, int& hi) {
  const int base = n / p, extra = n % p;
  lo = index * base + (index < extra ? index : extra);
  hi = lo + base + (index < extra ? 1 : 0);
}

}  // namespace

long Box::cells() const {
  return static_cast<long>(hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
}

bool Box::contains(int i, int j, int k) const {
  return i >= lo[0] && i < hi[0] && j >= lo[1] && j < hi[1] && k >= lo[2] && k < hi[2];
}

std::array<int, 3> Decomposition::coords(int rank) const {
  if (rank < 0 || rank >= ranks()) throw std::out_of_range("rank " + std::to_string(rank) + " outside the decomposition");
  return {rank / (parts[1] * parts[2]), (rank / parts[2]) % parts[1], rank % parts[2]};
}

int Decomposition::rank_at(const std::array<int, 3>& p) const {
  for (int a = 0; a < 3; ++a)
    if (p[a] < 0 || p[a] >= parts[a]) return -1;
  return (p[0] * parts[1] + p[1]) * parts[2] + p[2];
}

int Decomposition::neighbour(int rank, int face) const {
  if (face < 0 || face > 5) throw std::out_of_range("face " + std::to_string(face) + " is not 0..5");
  std::array<int, 3> p = coords(rank);
  const int a = face / 2;
  p[a] += face % 2 == 0 ? -1 : 1;
  if (periodic[static_cast<std::size_t>(a)]) p[a] = (p[a] + parts[a]) % parts[a];
  return rank_at(p);
}

Decomposition decompose(const std::array<int, 3>& n, int ranks, const std::array<int, 3>& requested,
                        const std::array<bool, 3>& periodic, const std::array<bool, 3>& mirror_lo) {
  if (ranks < 1) throw std::invalid_argument("decompose: " + std::to_string(ranks) + " ranks");
  Decomposition d;
  d.periodic = periodic;
  d.mirror_lo = mirror_lo;
  const bool automatic = requested[0] == 0 && requested[1] == 0 && requested[2] == 0;
  if (ranks == 1) {
    d.parts = {1, 1, 1};
  } else if (automatic) {
    d.parts = automatic_parts(n, ranks);
  } else {
    for (int a = 0; a < 3; ++a)
      if (requested[a] < 1)
        throw ConfigError("", 0, kKey,
                          "expected three box counts >= 1 (or 0 0 0 for automatic), got " + triple(requested));
    const long product = static_cast<long>(requested[0]) * requested[1] * requested[2];
    if (product != ranks)
      throw ConfigError("", 0, kKey,
                        "the box counts " + triple(requested) + " make " + std::to_string(product) +
                            " boxes, but the run has " + std::to_string(ranks) +
                            " MPI ranks: their product must equal the rank count");
    d.parts = requested;
  }
  for (int a = 0; a < 3; ++a)
    if (d.parts[a] > 1 && n[a] / d.parts[a] < 2)
      throw ConfigError("", 0, kKey,
                        std::string("splitting ") + std::to_string(n[a]) + " cells along " + kAxis[a] +
                            " into " + std::to_string(d.parts[a]) +
                            " boxes leaves fewer than 2 cells per box (decomposition " + triple(d.parts) +
                            (automatic ? ", automatic" : "") + "): use fewer ranks or split other axes");
  d.boxes.resize(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    const std::array<int, 3> p = d.coords(r);
    Box& b = d.boxes[static_cast<std::size_t>(r)];
    for (int a = 0; a < 3; ++a) part_range(n[a], d.parts[a], p[a], b.lo[a], b.hi[a]);
  }
  return d;
}

}  // namespace clfdtd::parallel
