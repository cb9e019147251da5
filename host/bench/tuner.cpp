// The auto-tuner: see tuner.hpp.
#include "bench/tuner.hpp"

#include <set>

namespace clfdtd {

std::vector<std::array<int, 3>> tuning_candidates(KernelVariant v) {
  switch (v) {
    case KernelVariant::Tile:  // the patent's 2x2x30 first: the baseline row
      return {{2, 2, 30}, {1, 1, 32}, {1, 2, 32}, {1, 4, 32}, {1, 8, 32},
              {2, 4, 16}, {1, 8, 16}, {1, 1, 64}, {2, 2, 16}, {1, 16, 8}};
    case KernelVariant::OnePass:  // planes, rows and float4s per group
      return {{8, 2, 32}, {8, 4, 32}, {16, 4, 32}, {4, 4, 32}, {4, 2, 32}, {16, 8, 32},
              {8, 8, 32}, {16, 2, 32}, {32, 4, 32}, {8, 4, 16}};
    case KernelVariant::Rows:
      return {{1, 8, 1}, {1, 16, 1}, {1, 32, 1}, {1, 64, 1}, {1, 128, 1}, {2, 16, 1}, {4, 8, 1}};
    case KernelVariant::Auto:
      break;
  }
  return {};
}

TuneOutcome tune_device(const DeviceConfig& base, int n, int repeats, double copy_gbs,
                        const std::function<void(const BenchRow&)>& on_row) {
  TuneOutcome out;
  std::set<std::string> seen;  // kernel_variant strings: clamping can map shapes onto each other
  for (KernelVariant v :
       {KernelVariant::Tile, KernelVariant::OnePass, KernelVariant::Rows}) {
    for (const auto& wg : tuning_candidates(v)) {
      BenchCase c;
      c.problem = "vacuum_upml";
      c.n = n;
      c.repeats = repeats;
      c.device = base;
      c.device.variant = v;
      c.device.workgroup = wg;
      BenchRow row = run_bench_case(c, copy_gbs);
      if (!seen.insert(row.variant).second) continue;
      if (out.key.empty()) out.key = tuning_key(row.backend, row.device, row.driver);
      if (on_row) on_row(row);
      if (row.gcells_per_s > out.best.gcells_per_s) {
        out.best.variant = v;
        out.best.workgroup = wg;
        out.best.gcells_per_s = row.gcells_per_s;
        out.best.n = n;
      }
      out.rows.push_back(row);
    }
  }
  if (!out.key.empty() && out.best.gcells_per_s > 0) store_tuning(out.key, out.best);
  return out;
}

}  // namespace clfdtd
