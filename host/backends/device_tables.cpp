// The GPU backends' upload tables: see device_tables.hpp.
#include "backends/device_tables.hpp"

#include <map>
#include <utility>

namespace clfdtd {

MergedSources merge_sources(const SimulationModel& m) {
  MergedSources out;
  std::map<std::pair<int, std::size_t>, std::vector<double>> sums;
  for (const auto& s : m.sources) {
    out.steps = static_cast<long>(s.j.size());
    const auto key = std::make_pair(static_cast<int>(s.component),
                                    m.layout.index(s.cell[0], s.cell[1], s.cell[2]));
    auto& sum = sums[key];
    sum.resize(s.j.size(), 0.0);
    for (std::size_t t = 0; t < s.j.size(); ++t) sum[t] += s.j[t];
  }
  if (out.steps == 0) return out;
  for (const auto& [key, sum] : sums) {
    out.cells.push_back(key.first);
    out.cells.push_back(static_cast<std::int32_t>(key.second));
    out.j.insert(out.j.end(), sum.begin(), sum.end());
  }
  return out;
}

std::vector<float> profile_table(const AxisProfile& p) {
  std::vector<float> t;
  for (std::size_t i = 0; i < p.a.size(); ++i) {
    for (double v : {p.a[i], p.b[i], p.cp[i], p.cm[i]}) t.push_back(static_cast<float>(v));
  }
  return t;
}

std::vector<std::int32_t> pml_box_table(const UpmlProfile& u) {
  std::vector<std::int32_t> t;
  for (const auto& b : u.boxes)
    for (int v : {b.i0, b.i1, b.j0, b.j1, b.k0, b.k1, static_cast<int>(b.offset), 0}) t.push_back(v);
  return t;
}

std::vector<float> z_profile_split(const UpmlProfile& u) {
  std::vector<float> t;
  for (const AxisProfile* p : {&u.integer[2], &u.half[2]})
    for (const auto* v : {&p->a, &p->b, &p->cp, &p->cm})
      for (double x : *v) t.push_back(static_cast<float>(x));
  return t;
}

}  // namespace clfdtd
