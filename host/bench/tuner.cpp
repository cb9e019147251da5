// The auto-tuner: see tuner.hpp.
#include "bench/tuner.hpp"

#include <algorithm>
#include <set>

#include "bench/plane_problems.hpp"
#include "device/device.hpp"
#include "engine/cyl/cyl_plan.hpp"
#include "engine/plane/plane_variant.hpp"
#include "engine/wave/wave_engine.hpp"
#include "engine/wave/wave_workgroup.hpp"
#include "errors.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd {

std::vector<std::array<int, 3>> tuning_candidates(KernelVariant v) {
  switch (v) {
    case KernelVariant::Tile:  // the patent's 2x2x30 first: the baseline row
      return {{2, 2, 30}, {1, 1, 32}, {1, 2, 32}, {1, 4, 32}, {1, 8, 32},
              {2, 4, 16}, {1, 8, 16}, {1, 1, 64}, {2, 2, 16}, {1, 16, 8}};
    case KernelVariant::OnePass:  // planes, rows and float4s per group
      return {{8, 2, 32}, {8, 4, 32}, {16, 4, 32}, {4, 4, 32}, {4, 2, 32}, {16, 8, 32},
              {8, 8, 32}, {16, 2, 32}, {32, 4, 32}, {8, 4, 16}};
    case KernelVariant::TBlock:  // planes, owned rows and owned float4s (halo: 3 rows, 2 float4s)
      // (at most 384 work-items: variant_choice.hpp kTBlockMaxItems)
      // Rows of 16 work-items (owned z4 = 14) fill whole warps: the fastest on the H200. Planes 0:
      // the chunk length tblock_chunk_planes picks for the grid (variant_choice.hpp), measured
      // here and stored as 0, so that a winner tuned at one size runs other sizes with their own
      // (at N = 384 the 96 planes best at 512 ran 5% below 32; docs/BENCHMARKS.md).
      return {{0, 9, 14}, {0, 5, 14}, {0, 13, 14}, {0, 17, 14}, {0, 9, 30}, {0, 5, 30},
              {0, 13, 22}};
    case KernelVariant::Rows:
      return {{1, 8, 1}, {1, 16, 1}, {1, 32, 1}, {1, 64, 1}, {1, 128, 1}, {2, 16, 1}, {4, 8, 1}};
    case KernelVariant::Auto:
      break;
  }
  return {};
}

namespace {

// The type ("gpu", "cpu", ...) of the device `base` selects: what auto resolves by.
std::string device_type(const DeviceConfig& base) {
  const device::Api api =
      base.backend == BackendKind::Cuda ? device::Api::Cuda : device::Api::OpenCL;
  const std::vector<device::DeviceInfo> devices = device::list_devices(api);
  if (devices.empty()) {
    throw DeviceError(std::string("bench --tune: no ") +
                      (api == device::Api::Cuda ? "CUDA" : "OpenCL") + " device found");
  }
  return devices[static_cast<std::size_t>(device::choose_device(devices, base.select))].type;
}

}  // namespace

TuneOutcome tune_device(const DeviceConfig& base, int n, int repeats, double copy_gbs,
                        const std::function<void(const BenchRow&)>& on_row, long steps) {
  TuneOutcome out;
  // One search: every candidate of `variants` on `problem`, the fastest into `best`; returns the
  // device's key for models with UPML or without (empty when nothing ran).
  auto search = [&](const std::string& problem, bool upml, const std::vector<KernelVariant>& variants,
                    TunedChoice& best) {
    std::string key;
    std::set<std::string> seen;  // kernel_variant strings: clamping can map shapes onto each other
    for (KernelVariant v : variants) {
      for (const auto& wg : tuning_candidates(v)) {
        BenchCase c;
        c.problem = problem;
        c.n = n;
        c.repeats = repeats;
        c.steps = steps;
        c.device = base;
        c.device.variant = v;
        c.device.workgroup = wg;  // given, so the engine does not read the cache being written
        BenchRow row = run_bench_case(c, copy_gbs);
        if (!seen.insert(row.variant).second) continue;
        if (key.empty())
          key = upml ? tuning_key(row.backend, row.device, row.driver)
                     : no_upml_tuning_key(row.backend, row.device, row.driver);
        if (on_row) on_row(row);
        if (row.gcells_per_s > best.gcells_per_s) {
          best.variant = v;
          best.workgroup = wg;
          best.gcells_per_s = row.gcells_per_s;
          best.n = n;
          best.problem = problem;
        }
        out.rows.push_back(row);
      }
    }
    return key;
  };
  // Models with UPML: tblock too (its pass over the box past the layers, its shell pass for the
  // rest; on a grid too small for that box it steps as onepass and says so in its variant).
  out.key = search("vacuum_upml", true,
                   {KernelVariant::Tile, KernelVariant::OnePass, KernelVariant::TBlock, KernelVariant::Rows},
                   out.best);
  // Models without UPML: tblock's two steps per pass compete; rows only on a CPU (auto's untuned
  // choice there; on a GPU it would only lengthen the search).
  std::vector<KernelVariant> plain{KernelVariant::Tile, KernelVariant::OnePass, KernelVariant::TBlock};
  if (base.backend != BackendKind::Reference && device_type(base) == "cpu")
    plain.push_back(KernelVariant::Rows);
  out.key_no_upml = search("pec_cube", false, plain, out.best_no_upml);
  if (!out.key.empty() && out.best.gcells_per_s > 0) store_tuning(out.key, out.best);
  if (!out.key_no_upml.empty() && out.best_no_upml.gcells_per_s > 0)
    store_tuning(out.key_no_upml, out.best_no_upml);
  return out;
}

namespace {

// The kernel name of a kernel_variant() string: its first word ("wave-cross 8x32x1" -> wave-cross).
std::string kernel_of(const std::string& variant) { return variant.substr(0, variant.find(' ')); }

// One kernel to tune: how the bench case asks for it, and the shapes to try.
struct KernelToTune {
  KernelVariant variant = KernelVariant::Tile;
  std::optional<engine::WaveKernel> wave_kernel;
  std::vector<std::array<int, 3>> candidates;
};

}  // namespace

PlaneTuneOutcome tune_plane(const DeviceConfig& base, const std::string& problem, int n,
                            const std::vector<KernelVariant>& variants, int repeats,
                            double copy_gbs, const std::function<void(const BenchRow&)>& on_row) {
  if (base.backend == BackendKind::Reference) {
    throw ConfigError("", 0, "bench --tune",
                      "opencl or cuda for a 2D problem (the reference backend has no work-groups)");
  }
  const RunConfig cfg = plane_bench_problem(problem, std::min(n, 64), 1);  // which kernels run
  const SimulationModel small = SimulationModel::build(cfg);
  const std::string kind =
      small.equation == Equation::Wave ? "wave" : engine::plane_kind_name(small.mode);
  const std::string type = device_type(base);

  std::vector<KernelToTune> kernels;
  auto add = [&kernels](KernelToTune k) {
    for (const auto& have : kernels)
      if (have.variant == k.variant && have.wave_kernel == k.wave_kernel) return;
    kernels.push_back(std::move(k));
  };
  for (KernelVariant asked : variants) {
    DeviceConfig d = base;
    d.variant = asked;
    if (small.equation == Equation::Wave) {
      const engine::WaveKernel k = engine::choose_wave_kernel(small, asked, type);
      add({KernelVariant::Auto, k, engine::wave_tuning_candidates(k)});
    } else {
      const KernelVariant v = engine::resolve_plane_variant(d, type);
      add({v, std::nullopt, engine::plane_tuning_candidates(v)});
    }
  }
  if (small.equation == Equation::Wave) {
    for (engine::WaveKernel k : {engine::WaveKernel::PairSum, engine::WaveKernel::Cross})
      add({KernelVariant::Auto, k, engine::wave_tuning_candidates(k)});
  }

  PlaneTuneOutcome out;
  for (const KernelToTune& k : kernels) {
    std::set<std::string> seen;  // kernel_variant strings: clamping can map shapes onto each other
    TunedWorkgroup best;
    std::string key;
    for (const auto& wg : k.candidates) {
      BenchCase c;
      c.problem = problem;
      c.n = n;
      c.repeats = repeats;
      c.device = base;
      c.device.variant = k.variant;
      c.device.workgroup = wg;  // given, so the engine does not read the cache being written
      c.wave_kernel = k.wave_kernel;
      BenchRow row = run_bench_case(c, copy_gbs);
      if (!seen.insert(row.variant).second) continue;
      if (key.empty()) {
        best.kernel = kernel_of(row.variant);
        key = plane_tuning_key(row.backend, row.device, row.driver, kind, best.kernel);
      }
      if (on_row) on_row(row);
      if (row.gcells_per_s > best.gcells_per_s) {
        best.workgroup = wg;
        best.gcells_per_s = row.gcells_per_s;
        best.n = n;
        best.problem = problem;
      }
      out.rows.push_back(row);
    }
    if (!key.empty() && best.gcells_per_s > 0) {
      store_workgroup_tuning(key, best);
      out.best.push_back(best);
      out.keys.push_back(key);
    }
  }
  return out;
}

PlaneTuneOutcome tune_cyl(const DeviceConfig& base, const std::string& problem, int n,
                          const std::vector<KernelVariant>& variants, int repeats, double copy_gbs,
                          const std::function<void(const BenchRow&)>& on_row) {
  if (base.backend == BackendKind::Reference) {
    throw ConfigError("", 0, "bench --tune",
                      "opencl or cuda for a cylindrical problem (the reference backend has no "
                      "work-groups)");
  }
  const std::string type = device_type(base);
  struct Kernel {
    KernelVariant variant;
    bool local;
  };
  std::vector<Kernel> kernels;
  for (KernelVariant asked : variants) {
    DeviceConfig d = base;
    d.variant = asked;
    const KernelVariant v = engine::resolve_cyl_variant(d, type);
    for (bool local : v == KernelVariant::Rows ? std::vector<bool>{false} : std::vector<bool>{false, true}) {
      const bool have = std::any_of(kernels.begin(), kernels.end(),
                                    [&](const Kernel& k) { return k.variant == v && k.local == local; });
      if (!have) kernels.push_back({v, local});
    }
  }

  PlaneTuneOutcome out;
  for (const Kernel& k : kernels) {
    std::set<std::string> seen;  // kernel_variant strings: clamping can map shapes onto each other
    TunedWorkgroup best;
    std::string key;
    for (const auto& wg : engine::cyl_tuning_candidates(k.variant)) {
      BenchCase c;
      c.problem = problem;
      c.n = n;
      c.repeats = repeats;
      c.device = base;
      c.device.variant = k.variant;
      c.device.cyl_local_staging = k.local;
      c.device.workgroup = wg;  // given, so the engine does not read the cache being written
      BenchRow row = run_bench_case(c, copy_gbs);
      if (!seen.insert(row.variant).second) continue;
      if (key.empty()) {
        best.kernel = engine::cyl_kernel_name(k.variant, k.local);
        key = plane_tuning_key(row.backend, row.device, row.driver, "cyl", best.kernel);
      }
      if (on_row) on_row(row);
      if (row.gcells_per_s > best.gcells_per_s) {
        best.workgroup = wg;
        best.gcells_per_s = row.gcells_per_s;
        best.n = n;
        best.problem = problem;
      }
      out.rows.push_back(row);
    }
    if (!key.empty() && best.gcells_per_s > 0) {
      store_workgroup_tuning(key, best);
      out.best.push_back(best);
      out.keys.push_back(key);
    }
  }
  return out;
}

}  // namespace clfdtd
