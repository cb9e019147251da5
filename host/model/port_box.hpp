// The E samples a lumped port spans (model/ports.hpp, docs/PORTS.md): one sample by default, or
// the samples of the port's axis component inside a box (source.<name>.size) - `along` of them in
// series along the axis in each of `across` parallel columns.
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <vector>

#include "config/run_config.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd {

// More would only be a mistyped size: each sample carries its own source table.
constexpr std::size_t kMaxPortSamples = 1000;

struct PortBox {
  std::vector<std::array<int, 3>> cells;  // column by column, each column along the axis; empty
                                          // where along x across exceeds kMaxPortSamples
  long along = 1;                         // samples in series along the axis (a column)
  long across = 1;                        // columns side by side
};

// A port source's samples. Along the axis: the cells between the box's two end planes (each
// rounded to the nearest grid plane; at least one cell). Across it: every node line from the
// box's low face to its high face, rounded the same way. Without a size (or where an extent is
// zero), and for any other source or a 2D or cylindrical model: the sample nearest the position.
PortBox port_box(const SourceConfig& s, const GridGeometry& g);

// The same box for any E component along `axis` (a lumped element's, config/run_config.hpp):
// without a size, the sample nearest `position`.
PortBox sample_box(Axis axis, const Vec3& position, const std::optional<Vec3>& size_m,
                   const GridGeometry& g);

// How many E samples the model's sources drive: one each, a port's box its own count.
std::size_t source_samples(const std::vector<SourceConfig>& sources, const GridGeometry& g);

}  // namespace clfdtd
