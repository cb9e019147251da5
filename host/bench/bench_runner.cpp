// run_bench_case: see bench_runner.hpp.
#include "bench/bench_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "backends/backend.hpp"
#include "bench/bench_problems.hpp"
#include "bench/roofline.hpp"
#include "errors.hpp"
#include "engine/wave/wave_engine.hpp"
#include "model/simulation_model.hpp"
#include "output/vti_writer.hpp"
#include "solver/time_loop.hpp"

#ifndef CLFDTD_COMMIT
#define CLFDTD_COMMIT "unknown"
#endif

namespace clfdtd {
namespace {

constexpr long kWarmupSteps = 3;
constexpr long kMaxSteps = 2000;
constexpr double kTargetSeconds = 0.25;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

// The first line of `s` without surrounding blanks: a revision named through the environment
// (e.g. `git describe` output pasted with its trailing newline, or a multi-line message) must
// stay one CSV field on one line.
std::string first_line(const std::string& s) {
  const std::string line = s.substr(0, s.find_first_of("\r\n"));
  const auto b = line.find_first_not_of(" \t");
  return b == std::string::npos ? "" : line.substr(b, line.find_last_not_of(" \t") - b + 1);
}

// The output-cost problems time what a user's run pays: the time loop with its read-backs, the
// probe batches and the snapshot written as a .vti file (into a scratch folder removed after).
class ScratchSink final : public LoopSink {
public:
  explicit ScratchSink(const SimulationModel& m) : m_(m) {
    dir_ = (std::filesystem::temp_directory_path() /
            ("clfdtd_bench_" + std::to_string(reinterpret_cast<std::uintptr_t>(this))))
               .string();
    std::filesystem::create_directories(dir_);
  }
  ~ScratchSink() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  void probe_rows(long, int, const std::vector<double>&) override {}  // read back, then dropped
  void snapshot(long step, const std::array<std::vector<float>, 6>& fields) override {
    if (vtk_available())
      write_fields_vti(dir_ + "/fields_" + std::to_string(step) + ".vti", m_, fields, step, m_.grid.dt);
  }

private:
  const SimulationModel& m_;
  std::string dir_;
};

// The device API of a GPU backend (the reference backend has no wave kernels to choose).
device::Api device_api_of(BackendKind kind) {
  if (kind == BackendKind::OpenCl) return device::Api::OpenCL;
  if (kind == BackendKind::Cuda) return device::Api::Cuda;
  throw ConfigError("", 0, "device.backend", "opencl or cuda to time one wave kernel, got reference");
}

// Seconds per step, from the second of two warm-up runs: a driver may compile a kernel, or map
// its buffers, at the first launch (PoCL does), and a step count chosen from that time was a
// few milliseconds' worth.
double per_step_after_first_launches(Backend& b) {
  b.timed_steps(0, kWarmupSteps);
  return b.timed_steps(kWarmupSteps, kWarmupSteps) / kWarmupSteps;
}

}  // namespace

BenchRow run_bench_case(const BenchCase& c, double copy_gbs) {
  const bool with_outputs = c.problem.find('+') != std::string::npos;
  // The model's step count only sizes the source table; the repeats run past it harmlessly.
  const long model_steps = c.steps > 0 ? c.steps : kMaxSteps;
  RunConfig cfg = bench_problem(c.problem, c.n, model_steps);
  cfg.device = c.device;
  const SimulationModel model = SimulationModel::build(cfg);
  std::unique_ptr<Backend> backend =
      c.wave_kernel && model.equation == Equation::Wave
          ? engine::make_wave_engine(device_api_of(cfg.device.backend), model, cfg.device,
                                     *c.wave_kernel)
          : make_backend(model, cfg.device);

  BenchRow r;
  r.device = backend->device_description();
  r.driver = backend->driver_version();
  r.backend = backend->name();
  r.variant = backend->kernel_variant();
  r.problem = c.problem;
  r.n = c.n;
  r.cells = model.grid.cells();
  r.pml_cells = static_cast<long>(model.upml.cells);
  if (model.cylindrical()) {
    // Cell-mode updates: every mode slot is a complex (r, z) problem of its own, so Gcells/s
    // counts cells (r, z) x modes per second ("per mode" throughput; docs/BENCHMARKS.md).
    const long modes = static_cast<long>(model.grid.modes.size());
    r.cells = static_cast<long>(model.grid.cells()) * modes;
    r.pml_cells = static_cast<long>(cyl_pml_cells_of(model)) * modes;
  }
  r.repeats = std::max(1, c.repeats);
  // A build outside a git checkout (a copy on a lent machine) names its revision through the
  // environment; otherwise the configure-time revision.
  const char* env_commit = std::getenv("CLFDTD_COMMIT");
  r.commit = first_line(env_commit ? env_commit : "");
  if (r.commit.empty()) r.commit = CLFDTD_COMMIT;
  // device.upml_form = bfloat16 (named in the variant text): 2 B per auxiliary.
  const double aux_bytes = r.variant.find(" aux=") != std::string::npos ? 2 : 4;
  const bool one_pass = backend->one_pass();
  r.bytes_per_cell = bytes_per_cell_update(model, one_pass, aux_bytes, backend->steps_per_pass(),
                                           backend->upml_face_one_aux(),
                                           one_pass ? mixed_e_id_share(model) : 1,
                                           one_pass ? mixed_h_id_share(model) : 1).mean;
  r.copy_gbs = copy_gbs >= 0 ? copy_gbs : backend->copy_bandwidth() / 1e9;
  r.device_bytes = static_cast<double>(backend->device_bytes(model));
  r.storage_bytes_per_cell = storage_bytes_per_cell(model);

  std::vector<double> times;
  if (with_outputs) {
    // A whole time loop per repeat, probes every step or one snapshot, wall clock.
    long steps = c.steps;
    if (steps <= 0) {
      const double t = per_step_after_first_launches(*backend);
      steps = std::clamp<long>(static_cast<long>(std::ceil(kTargetSeconds / std::max(t, 1e-9))), 10,
                               kMaxSteps);
    }
    RunConfig run_cfg = bench_problem(c.problem, c.n, steps);
    run_cfg.device = c.device;
    const SimulationModel run_model = SimulationModel::build(run_cfg);
    std::unique_ptr<Backend> b = make_backend(run_model, run_cfg.device);
    ScratchSink sink(run_model);
    LoopOptions opt;
    opt.progress_interval_s = 1e9;  // no finite checks beyond the last step
    opt.sync_interval_steps = steps;
    for (int rep = 0; rep < r.repeats; ++rep) {
      const LoopResult lr = run_time_loop(run_model, *b, sink, nullptr, opt);
      times.push_back(lr.loop_seconds + lr.output_seconds);
    }
    r.steps = steps;
    r.timer = "wall";
  } else {
    const double warm = per_step_after_first_launches(*backend);
    long steps = c.steps;
    if (steps <= 0)
      steps = std::clamp<long>(static_cast<long>(std::ceil(kTargetSeconds / std::max(warm, 1e-9))), 5,
                               kMaxSteps);
    long s = 2 * kWarmupSteps;
    for (int rep = 0; rep < r.repeats; ++rep) {
      times.push_back(backend->timed_steps(s, steps));
      s += steps;
    }
    r.steps = steps;
    r.timer = backend->has_device_timers() ? "device" : "wall";
  }
  r.seconds = median(times);
  const double updates = static_cast<double>(r.cells) * static_cast<double>(r.steps);
  r.gcells_per_s = r.seconds > 0 ? updates / r.seconds / 1e9 : 0;
  r.achieved_gbs = r.gcells_per_s * r.bytes_per_cell;
  r.roofline_ratio = r.copy_gbs > 0 ? r.achieved_gbs / r.copy_gbs : 0;
  return r;
}

std::string bench_csv_header() {
  return "device,driver,backend,variant,problem,n,cells,pml_cells,steps,repeats,seconds,"
         "gcells_per_s,bytes_per_cell,achieved_gbs,copy_gbs,roofline_ratio,timer,commit";
}

namespace {
// RFC 4180: a field with a comma, double quote or line break is quoted, its quotes doubled. Every
// text column goes through it (device descriptions hold commas; the commit comes from the
// environment), so a row always has the header's column count; the numbers never need it.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}
}  // namespace

std::string bench_csv_row(const BenchRow& r) {
  std::ostringstream os;
  os.precision(6);
  os << csv_field(r.device) << ',' << csv_field(r.driver) << ',' << csv_field(r.backend) << ','
     << csv_field(r.variant) << ',' << csv_field(r.problem) << ',' << r.n << ',' << r.cells << ','
     << r.pml_cells << ',' << r.steps << ',' << r.repeats << ',' << r.seconds << ','
     << r.gcells_per_s << ',' << r.bytes_per_cell << ',' << r.achieved_gbs << ',' << r.copy_gbs
     << ',' << r.roofline_ratio << ',' << csv_field(r.timer) << ',' << csv_field(r.commit);
  return os.str();
}

}  // namespace clfdtd
