// Probe samples the tblock variant predicts: see probe_prediction.hpp.
#include "engine/probe_prediction.hpp"

#include <iterator>

#include "backends/device_tables.hpp"

namespace clfdtd::engine {

std::optional<std::vector<std::int32_t>> predictable_sample_sources(const SimulationModel& m,
                                                                    std::string* why) {
  const std::array<int, 3> n = m.grid.n;
  for (const ProbeSample& s : m.probes.samples) {
    const auto& c = s.cell;
    for (int d = 0; d < 7; ++d) {
      std::array<int, 3> p = c;
      if (d > 0) p[(d - 1) / 2] += d % 2 ? -1 : 1;
      if (p[0] < 0 || p[1] < 0 || p[2] < 0 || p[0] >= n[0] || p[1] >= n[1] || p[2] >= n[2]) continue;
      if (m.upml.in_pml(p[0], p[1], p[2], n)) {
        if (why) *why = "a probe sample at or beside a PML cell";
        return std::nullopt;
      }
    }
  }
  const SourceGroups driven = source_groups(m);  // merge_sources' rows, in its order
  std::vector<std::int32_t> rows;
  rows.reserve(m.probes.samples.size());
  for (const ProbeSample& s : m.probes.samples) {
    const auto it = driven.find(
        {static_cast<int>(s.component), m.layout.index(s.cell[0], s.cell[1], s.cell[2])});
    rows.push_back(it == driven.end() ? -1
                                      : static_cast<std::int32_t>(std::distance(driven.begin(), it)));
  }
  return rows;
}

}  // namespace clfdtd::engine
