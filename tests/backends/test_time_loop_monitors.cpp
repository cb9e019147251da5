// The time loop's monitor calls: accumulate_dft after every step n = 0 .. steps when the model has
// a DFT monitor (and never without one), mode samples every `every` steps in batches of the
// backend's batch size handed to LoopSink::mode_rows, flushed at the end and on an early stop.
// A recording backend stands in for the engines, so the calls themselves are checked.
#include <doctest/doctest.h>

#include "backends/monitor_helpers.hpp"
#include "backends/physics_helpers.hpp"
#include "backends/reference/reference_backend.hpp"
#include "errors.hpp"
#include "solver/time_loop.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

// Records the monitor calls; a mode value encodes (monitor, step taken, mode).
class RecordingBackend final : public Backend {
public:
  explicit RecordingBackend(int batch) : batch_(batch) {}
  std::string name() const override { return "recording"; }
  std::string device_description() const override { return "none"; }
  std::string kernel_variant() const override { return "none"; }
  void step(long s) override {
    if (s == fail_at_step) throw DeviceError("test: step " + std::to_string(s) + " failed");
    steps_taken = s + 1;
  }
  void sample_probes(int) override {}
  void read_probe_batch(int, std::vector<double>& out) override { out.clear(); }
  int probe_batch_steps() const override { return batch_; }
  void read_field(Component, std::vector<float>& out) override { out.clear(); }
  bool fields_finite() override { return true; }
  void finish() override {}

  void accumulate_dft(long step) override {
    CHECK(step == steps_taken);  // after step n, the fields at n
    dft_steps.push_back(step);
  }
  void sample_modes(int monitor, int slot) override {
    REQUIRE(slot >= 0);
    REQUIRE(slot < batch_);
    auto& b = slots_[monitor];
    if (b.size() <= static_cast<std::size_t>(slot)) b.resize(static_cast<std::size_t>(slot) + 1);
    b[static_cast<std::size_t>(slot)] = steps_taken;
  }
  void read_mode_batch(int monitor, int slots, std::vector<double>& out) override {
    out.clear();
    for (int s = 0; s < slots; ++s) {
      for (int k = 0; k < nmodes; ++k) {
        out.push_back(1000.0 * monitor + 10.0 * static_cast<double>(slots_[monitor][s]) + k);
      }
    }
  }

  int nmodes = 2;
  long steps_taken = 0;
  long fail_at_step = -1;  // step() throws there
  std::vector<long> dft_steps;

private:
  int batch_;
  std::map<int, std::vector<long>> slots_;
};

SimulationModel loop_model(long steps) {
  return SimulationModel::build(box_config({6, 5, 7}, 1e-3, steps, BoundaryType::Pec));
}

MonitorModel modes_monitor(const std::string& name, long every) {
  MonitorModel mon;
  mon.name = name;
  mon.kind = MonitorKind::Modes;
  mon.nmodes = 2;
  mon.every = every;
  return mon;
}

LoopOptions quiet_options() {
  LoopOptions opt;
  opt.progress_interval_s = 1e9;
  return opt;
}

}  // namespace

TEST_CASE("time loop: accumulate_dft after every step, n = 0 included, only with a DFT monitor") {
  SimulationModel m = loop_model(40);
  RecordingBackend none(8);
  ModeSink sink;
  run_time_loop(m, none, sink, nullptr, quiet_options());
  CHECK(none.dft_steps.empty());

  m.monitors.push_back(dft_monitor("d", {region(Component::Ex, {1, 1, 1}, {2, 2, 2})}, {1e9}));
  RecordingBackend b(8);
  run_time_loop(m, b, sink, nullptr, quiet_options());
  REQUIRE(b.dft_steps.size() == 41);
  for (long n = 0; n <= 40; ++n) CHECK(b.dft_steps[static_cast<std::size_t>(n)] == n);
  CHECK(sink.steps_.empty());  // no modes monitor, no mode rows
}

TEST_CASE("time loop: steps_reached counts the steps done before a step throws") {
  SimulationModel m = loop_model(40);
  RecordingBackend b(8);
  b.fail_at_step = 7;
  ModeSink sink;
  LoopOptions opt = quiet_options();
  long reached = -1;
  opt.steps_reached = &reached;
  CHECK_THROWS_AS(run_time_loop(m, b, sink, nullptr, opt), DeviceError);
  CHECK(reached == 7);  // steps 0 .. 6 done
  RecordingBackend whole(8);
  run_time_loop(m, whole, sink, nullptr, opt);
  CHECK(reached == 40);
}

TEST_CASE("time loop: mode rows every `every` steps in batches, the last one partial") {
  SimulationModel m = loop_model(40);
  m.monitors.push_back(modes_monitor("a", 3));
  m.monitors.push_back(dft_monitor("d", {region(Component::Ex, {1, 1, 1}, {2, 2, 2})}, {1e9}));
  m.monitors.push_back(modes_monitor("b", 1));
  RecordingBackend b(8);
  ModeSink sink;
  run_time_loop(m, b, sink, nullptr, quiet_options());
  // Monitor 0: steps 0, 3, ..., 39 (14 rows: batches of 8 and 6); monitor 2: 0..40 (41: 5 + 1).
  for (auto [monitor, every, rows, batches] :
       {std::array<long, 4>{0, 3, 14, 2}, std::array<long, 4>{2, 1, 41, 6}}) {
    INFO("monitor " << monitor);
    const int k = static_cast<int>(monitor);
    REQUIRE(sink.steps_.count(k) == 1);
    const auto& steps = sink.steps_.at(k);
    const auto& values = sink.values_.at(k);
    REQUIRE(steps.size() == static_cast<std::size_t>(rows));
    CHECK(sink.batches_.at(k) == batches);
    REQUIRE(values.size() == 2 * steps.size());
    for (std::size_t r = 0; r < steps.size(); ++r) {
      CHECK(steps[r] == static_cast<long>(r) * every);
      // values[row * nmodes + mode]: the sample taken at that row's step.
      CHECK(values[2 * r] == doctest::Approx(1000.0 * k + 10.0 * steps[r]));
      CHECK(values[2 * r + 1] == doctest::Approx(1000.0 * k + 10.0 * steps[r] + 1));
    }
  }
  CHECK(sink.steps_.count(1) == 0);
}

TEST_CASE("time loop: an early stop flushes the mode rows sampled so far") {
  SimulationModel m = loop_model(100);
  m.monitors.push_back(modes_monitor("a", 2));
  RecordingBackend b(8);
  ModeSink sink;
  LoopOptions opt = quiet_options();
  opt.stop_requested = [&b] { return b.steps_taken == 13; };
  const LoopResult r = run_time_loop(m, b, sink, nullptr, opt);
  CHECK(r.stopped);
  CHECK(r.steps_done == 13);
  REQUIRE(sink.steps_.count(0) == 1);
  CHECK(sink.steps_.at(0) == std::vector<long>{0, 2, 4, 6, 8, 10, 12});
}

TEST_CASE("time loop with the reference engine: mode rows are its projections") {
  // A PEC cavity rung by a dipole; one mode shape equal to 1 on Ez at one cell: the row is that
  // cell's Ez times dV, as the reference's field says after the run.
  RunConfig cfg = box_config({6, 5, 7}, 1e-3, 30, BoundaryType::Pec);
  cfg.sources = {point_source("s", SourceKind::Dipole, Axis::Z, {3.2e-3, 2.6e-3, 3.4e-3},
                              WaveformKind::Gaussian, 30e9, 1e-15)};
  SimulationModel m = SimulationModel::build(cfg);
  MonitorModel mon = modes_monitor("ez", 5);
  mon.nmodes = 1;
  mon.modes.assign(3 * m.layout.cells(), 0.0f);
  const std::size_t cell = m.layout.index(3, 2, 3);
  mon.modes[2 * m.layout.cells() + cell] = 1.0f;
  m.monitors.push_back(mon);
  ReferenceBackend ref(m);
  ModeSink sink;
  run_time_loop(m, ref, sink, nullptr, quiet_options());
  REQUIRE(sink.steps_.at(0).size() == 7);  // 0, 5, ..., 30
  CHECK(sink.steps_.at(0).back() == 30);
  const double ez = ref.field(Component::Ez)[cell];
  CHECK(ez != 0);
  CHECK(sink.values_.at(0).back() == doctest::Approx(ez * 1e-9).epsilon(1e-12));
  CHECK(sink.values_.at(0).front() == 0);
}
