// A port's samples: see port_box.hpp.
#include "model/port_box.hpp"

#include <algorithm>
#include <cmath>

#include "model/field_layout.hpp"

namespace clfdtd {

PortBox port_box(const SourceConfig& s, const GridGeometry& g) {
  const bool box = s.kind == SourceKind::Port && g.dims == 3 && !g.cylindrical;
  return sample_box(s.axis, s.position, box ? s.size_m : std::nullopt, g);
}

PortBox sample_box(Axis axis, const Vec3& position, const std::optional<Vec3>& size_m,
                   const GridGeometry& g) {
  const int a = static_cast<int>(axis);
  const Component c = static_cast<Component>(a);  // Ex, Ey, Ez share Axis order
  const std::array<int, 3> nearest = nearest_sample(c, position, g.n, g.d, g.periodic);
  std::array<int, 3> lo = nearest, count{1, 1, 1};
  if (size_m) {
    for (int b = 0; b < 3; ++b) {
      const double half = 0.5 * (*size_m)[b];
      // Under half a cell across the axis: the nearest node line, as the keys' text says (the
      // two faces rounded apart could straddle a midpoint and give two).
      if (!(half > 0) || (b != a && 2 * half < 0.5 * g.d[b])) continue;
      const long first = std::lround(cells_of(position[b] - half, g.d[b]));
      const long last = std::lround(cells_of(position[b] + half, g.d[b]));
      // Along the axis the samples lie between the planes (cells first .. last - 1); across it
      // on the node lines first .. last. Nodes past the last sample (the wall) are left out.
      const long hi = std::min<long>(b == a ? last - 1 : last, g.n[b] - 1);
      const long from = std::max<long>(0, first);
      if (hi < from) continue;  // thinner than a cell: the nearest sample
      lo[b] = static_cast<int>(from);
      count[b] = static_cast<int>(hi - from + 1);
    }
  }
  PortBox box;
  const int b1 = (a + 1) % 3, b2 = (a + 2) % 3;
  box.along = count[a];
  box.across = static_cast<long>(count[b1]) * count[b2];
  if (static_cast<double>(box.along) * static_cast<double>(box.across) >
      static_cast<double>(kMaxPortSamples))
    return box;  // too many: no cells (the caller refuses the size)
  for (int u = 0; u < count[b1]; ++u)
    for (int v = 0; v < count[b2]; ++v)
      for (int w = 0; w < count[a]; ++w) {
        std::array<int, 3> cell{};
        cell[a] = lo[a] + w;
        cell[b1] = lo[b1] + u;
        cell[b2] = lo[b2] + v;
        box.cells.push_back(cell);
      }
  return box;
}

std::size_t source_samples(const std::vector<SourceConfig>& sources, const GridGeometry& g) {
  std::size_t n = 0;
  for (const SourceConfig& s : sources) {
    const PortBox box = port_box(s, g);  // one sample unless a port's box
    n += static_cast<std::size_t>(box.along) * static_cast<std::size_t>(box.across);
  }
  return n;
}

}  // namespace clfdtd
