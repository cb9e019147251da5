// MonitorModels built by hand for the engine tests (the config's builder, model/monitor_build,
// is tested on its own): a closed flux box's face regions by the region rules of issue 18, dft
// regions, random mode shapes in the padded layout; and a sink keeping a run's mode rows.
#pragma once
#include <algorithm>
#include <array>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "model/simulation_model.hpp"
#include "solver/time_loop.hpp"

namespace clfdtd::test {

// One axis range [lo, hi) clipped to [0, n); false when nothing is left.
inline bool clip_range(int& lo, int& hi, int n) {
  lo = std::max(lo, 0);
  hi = std::min(hi, n);
  return lo < hi;
}

// A closed flux box between the nodes lo and hi: six faces (x first, low before high), per face
// (axis a, plane p, tangential b < c) the regions E_b, E_c, H_b, H_c:
//   E_b: a in [p, p+1), b in [lo_b, hi_b), c in [lo_c, hi_c + 1)
//   H_b: a in [p-1, p+1), b in [lo_b, hi_b + 1), c in [lo_c, hi_c)
// each clipped to the grid, empty ones dropped.
inline MonitorModel flux_box(const std::string& name, const std::array<int, 3>& lo,
                             const std::array<int, 3>& hi, const std::array<int, 3>& n,
                             std::vector<double> frequencies_hz) {
  MonitorModel mon;
  mon.name = name;
  mon.kind = MonitorKind::Flux;
  mon.lo = lo;
  mon.hi = hi;
  mon.frequencies_hz = std::move(frequencies_hz);
  for (int a = 0; a < 3; ++a) {
    for (int side = 0; side < 2; ++side) {
      MonitorFace face;
      face.axis = a;
      face.plane = side == 0 ? lo[a] : hi[a];
      face.normal = side == 0 ? -1 : 1;
      face.lo = lo;
      face.hi = hi;
      face.lo[a] = face.hi[a] = face.plane;
      mon.faces.push_back(face);
      const int b = a == 0 ? 1 : 0, c = a == 2 ? 1 : 2;
      for (bool electric : {true, false}) {
        for (int t : {b, c}) {
          const int u = t == b ? c : b;  // the other tangential axis
          DftRegion r;
          r.component = static_cast<Component>((electric ? 0 : 3) + t);
          r.lo[a] = electric ? face.plane : face.plane - 1;
          r.hi[a] = face.plane + 1;
          r.lo[t] = lo[t];
          r.hi[t] = electric ? hi[t] : hi[t] + 1;
          r.lo[u] = lo[u];
          r.hi[u] = electric ? hi[u] + 1 : hi[u];
          bool kept = true;
          for (int x = 0; x < 3; ++x) kept = clip_range(r.lo[x], r.hi[x], n[x]) && kept;
          if (kept) mon.regions.push_back(r);
        }
      }
    }
  }
  return mon;
}

inline DftRegion region(Component c, const std::array<int, 3>& lo, const std::array<int, 3>& hi) {
  DftRegion r;
  r.component = c;
  r.lo = lo;
  r.hi = hi;
  return r;
}

inline MonitorModel dft_monitor(const std::string& name, std::vector<DftRegion> regions,
                                std::vector<double> frequencies_hz) {
  MonitorModel mon;
  mon.name = name;
  mon.kind = MonitorKind::Dft;
  mon.regions = std::move(regions);
  mon.frequencies_hz = std::move(frequencies_hz);
  return mon;
}

// nmodes mode shapes of values in [-1, 1) on the grid's cells, zero in the padding lanes.
inline MonitorModel random_modes(const std::string& name, const SimulationModel& m, int nmodes,
                                 long every, unsigned seed) {
  MonitorModel mon;
  mon.name = name;
  mon.kind = MonitorKind::Modes;
  mon.nmodes = nmodes;
  mon.every = every;
  const auto& L = m.layout;
  mon.modes.assign(static_cast<std::size_t>(nmodes) * 3 * L.cells(), 0.0f);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int k = 0; k < nmodes; ++k) {
    for (int c = 0; c < 3; ++c) {
      float* mode = mon.modes.data() + (static_cast<std::size_t>(k) * 3 + c) * L.cells();
      for (int i = 0; i < L.nx; ++i)
        for (int j = 0; j < L.ny; ++j)
          for (int l = 0; l < L.nz; ++l) mode[L.index(i, j, l)] = u(gen);
    }
  }
  return mon;
}

// Keeps the mode rows of a time-loop run, per monitor: steps and values in order.
class ModeSink final : public LoopSink {
public:
  void probe_rows(long, int, const std::vector<double>&) override {}
  void snapshot(long, const std::array<std::vector<float>, 6>&) override {}
  void mode_rows(int monitor, const std::vector<long>& steps,
                 const std::vector<double>& values) override {
    auto& s = steps_[monitor];
    s.insert(s.end(), steps.begin(), steps.end());
    auto& v = values_[monitor];
    v.insert(v.end(), values.begin(), values.end());
    ++batches_[monitor];
  }
  std::map<int, std::vector<long>> steps_;
  std::map<int, std::vector<double>> values_;
  std::map<int, int> batches_;
};

}  // namespace clfdtd::test
