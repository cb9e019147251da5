// `clfdtd run`: the patent's six steps for one model file. Order matters for the promises the
// README makes: everything that can reject the input (load, output path, mesh, device choice,
// memory check) happens before the output directory exists, so bad input writes nothing; outputs
// go to a temporary sibling that replaces the old directory only when the run completes. A run
// that does not complete (non-finite fields, a stop signal, an error) leaves the old directory
// as it was and its own outputs in "<dir>.partial".
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>

#include "backends/backend.hpp"
#include "cli/commands.hpp"
#include "cli/error_exit.hpp"
#include "cli/progress.hpp"
#include "model/parallel_tasks.hpp"
#include "cli/run_outputs.hpp"
#include "cli/run_ranks.hpp"
#include "cli/signals.hpp"
#include "config/load_config.hpp"
#include "errors.hpp"
#include "model/simulation_model.hpp"
#include "output/dft_convergence.hpp"
#include "output/monitor_files.hpp"
#include "output/port_files.hpp"
#include "output/resonance_file.hpp"
#include "output/output_dir.hpp"
#include "output/output_marker.hpp"
#include "output/run_report.hpp"
#include "output/vti_writer.hpp"
#include "parallel/communicator.hpp"
#include "parallel/distributed_backend.hpp"
#include "solver/time_loop.hpp"

namespace clfdtd::cli {
namespace {

std::string mib(std::size_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%zu bytes (%.1f MiB)", bytes, bytes / 1048576.0);
  return buf;
}

// Patent steps 1-1-1..1-1-3 as derived: what the user should check before a long run (the device
// memory follows once the backend has chosen its kernel variant).
// A cylindrical grid reads "nr (r) x nz (z) cells, modes 0 1 2": its n[1] = 1 and d[1] = 1 are
// placeholders, and each mode is a field set of its own.
void print_summary(const SimulationModel& m, const RunConfig& cfg) {
  const auto& g = m.grid;
  std::printf("model      %s\n", cfg.source_file.empty() ? "(command line)" : cfg.source_file.c_str());
  if (m.cylindrical()) {
    std::string orders;
    for (int order : g.modes) orders += " " + std::to_string(order);
    std::printf("cell size  %.6g (r) x %.6g (z) m\n", g.d[0], g.d[2]);
    std::printf("grid       %d (r) x %d (z) cells, modes%s (%ld cells x %zu modes): %.6g (r) x %.6g (z) m\n",
                g.n[0], g.n[2], orders.c_str(), g.cells(), g.modes.size(), g.n[0] * g.d[0],
                g.n[2] * g.d[2]);
  } else {
    std::printf("cell size  %.6g x %.6g x %.6g m\n", g.d[0], g.d[1], g.d[2]);
    std::printf("grid       %d x %d x %d cells (%ld cells): %.6g x %.6g", g.n[0], g.n[1], g.n[2],
                g.cells(), g.n[0] * g.d[0], g.n[1] * g.d[1]);
    if (g.dims == 3) std::printf(" x %.6g", g.n[2] * g.d[2]);
    std::printf(" m\n");
  }
  std::printf("time step  %.6g s (%.3g of the Courant limit), %ld steps, %.6g s simulated\n", g.dt,
              g.dt / g.courant_limit_dt(), g.steps, g.dt * static_cast<double>(g.steps));
  if (m.upml.enabled())
    std::printf("upml       %zu PML cells with auxiliary fields\n", m.upml.cells);
  if (g.any_periodic()) {
    std::string axes, periods;
    for (int a = 0; a < 3; ++a) {
      if (!g.periodic[static_cast<std::size_t>(a)]) continue;
      char text[64];
      std::snprintf(text, sizeof text, "%s%.6g m", periods.empty() ? "" : ", ", g.n[a] * g.d[a]);
      axes += std::string(axes.empty() ? "" : " ") + "xyz"[a];
      periods += text;
    }
    std::printf("periodic   along %s: period %s\n", axes.c_str(), periods.c_str());
    if (g.bloch()) {
      std::printf("bloch      k =");
      for (double k : g.bloch_k) std::printf(" %.6g", k);
      std::printf(" rad/m, phase per period");
      for (int a = 0; a < 3; ++a) std::printf(" %.6g", g.bloch_phase[static_cast<std::size_t>(a)]);
      std::printf(" rad; complex fields (real and imaginary parts), outputs the real part\n");
    }
  }
  if (g.any_pmc()) {
    std::string planes;
    for (int a = 0; a < 3; ++a)
      if (g.pmc[static_cast<std::size_t>(a)])
        planes += std::string(planes.empty() ? "" : ", ") + "xyz"[a] + " = 0";
    std::printf("pmc        magnetic walls (symmetry planes) at %s\n", planes.c_str());
  }
  // Where each plane wave's box landed (its faces snap to node planes), so it can be checked.
  for (const PlaneWaveModel& w : m.plane_waves) {
    if (w.guided_port) continue;
    std::printf("plane wave %s: %s travelling %s in '%s', total field in", w.name.c_str(),
                e_field_text(w).c_str(), direction_text(w).c_str(), w.background.c_str());
    for (int a = 0; a < g.dims; ++a) {
      if (g.periodic[static_cast<std::size_t>(a)])
        std::printf("%s %c: the whole period", a ? "," : "", "xyz"[a]);
      else
        std::printf("%s %c %.6g..%.6g", a ? "," : "", "xyz"[a], w.lo[a] * g.d[a], w.hi[a] * g.d[a]);
    }
    std::printf(" m\n");
  }
  // Where each waveguide port found its guide, and the mode's cutoff there.
  for (const WaveguidePortModel& p : m.waveguide_ports) {
    if (p.solved > 0) {
      std::printf("waveguide  %s: %s %s, into the model along %c%c from %c = %.6g m; window %c %.6g..%.6g, "
                  "%c %.6g..%.6g m, B/K0 %.8g at %.6g Hz\n",
                  p.name.c_str(), p.mode_text().c_str(), p.driven ? "driven" : "receiving",
                  p.sign > 0 ? '+' : '-', "xyz"[p.axis], "xyz"[p.axis], p.plane * g.d[p.axis],
                  "xyz"[p.u], p.lo[0] * g.d[p.u], p.hi[0] * g.d[p.u], "xyz"[p.v],
                  p.lo[1] * g.d[p.v], p.hi[1] * g.d[p.v], p.n_line, p.source.frequency_hz);
      continue;
    }
    std::printf("waveguide  %s: %s %s, into the model along %c%c from %c = %.6g m; guide %c %.6g..%.6g, "
                "%c %.6g..%.6g m of '%s', cutoff %.6g Hz (the grid's; %.6g analytic)\n",
                p.name.c_str(), p.mode_text().c_str(), p.driven ? "driven" : "receiving",
                p.sign > 0 ? '+' : '-', "xyz"[p.axis], "xyz"[p.axis], p.plane * g.d[p.axis],
                "xyz"[p.u], p.lo[0] * g.d[p.u], p.hi[0] * g.d[p.u], "xyz"[p.v],
                p.lo[1] * g.d[p.v], p.hi[1] * g.d[p.v], p.fill.c_str(), p.cutoff_hz, p.cutoff_analytic_hz);
  }
  // Each lumped element as the grid holds it: its values and its samples.
  for (const LumpedModel& e : m.lumped) {
    std::string values;
    auto add = [&](const std::optional<double>& v, const char* unit) {
      if (!v) return;
      char text[64];
      std::snprintf(text, sizeof text, "%s%.6g %s", values.empty() ? "" : ", ", *v, unit);
      values += text;
    };
    add(e.resistance_ohm, "ohm");
    add(e.inductance_h, "H");
    add(e.capacitance_f, "F");
    const int values_given = (e.resistance_ohm ? 1 : 0) + (e.inductance_h ? 1 : 0) + (e.capacitance_f ? 1 : 0);
    std::printf("lumped     %s: %s%s across %ld x %ld %s samples (%ld in series, %ld side by side)\n",
                e.name.c_str(), values.c_str(),
                values_given < 2 ? "" : e.circuit == LumpedCircuit::Series ? " in series" : " in parallel",
                e.along, e.across, component_name(e.component), e.along, e.across);
  }
  // What the dispersive materials hold (their samples, with the surface mixtures apart).
  for (const DispersiveCount& c : dispersive_counts(m.materials, m.dispersion)) {
    if (c.mixture) {
      std::printf("dispersive surface mixtures: %zu E samples (on the faces of dispersive objects: "
                  "shares of their poles, or across a face the mean of both sides as a pole)\n",
                  c.samples);
      continue;
    }
    std::string poles;
    for (const PoleConfig& p : c.entry->pole_keys) {
      char text[160];
      if (p.kind == PoleKind::Debye)
        std::snprintf(text, sizeof text, "; debye delta_eps %.6g tau %.6g s", p.p[0], p.p[1]);
      else if (p.kind == PoleKind::Drude)
        std::snprintf(text, sizeof text, "; drude f_p %.6g Hz gamma %.6g Hz", p.p[0], p.p[1]);
      else
        std::snprintf(text, sizeof text, "; lorentz delta_eps %.6g f0 %.6g Hz gamma %.6g Hz", p.p[0], p.p[1], p.p[2]);
      poles += text;
    }
    char sigma[64] = "";
    if (c.entry->sigma != 0) std::snprintf(sigma, sizeof sigma, "; sigma %.6g S/m", c.entry->sigma);
    std::printf("dispersive '%s': eps_inf %.6g%s%s; %zu E samples\n", c.name.c_str(),
                c.entry->eps_r, sigma, poles.c_str(), c.samples);
  }
  std::fflush(stdout);
}

// Test hook, read here only: CLFDTD_TEST_NAN_AT_STEP=n makes the first source's J at step n NaN,
// so the tests get a real non-finite run at a known step (every input that can only give NaN is
// refused as bad input). Every backend uploads this host table, so it reaches all of them.
void apply_test_nan_hook(SimulationModel& m) {
  const char* value = std::getenv("CLFDTD_TEST_NAN_AT_STEP");
  if (!value) return;
  char* end = nullptr;
  const long step = std::strtol(value, &end, 10);
  if (*value == '\0' || *end != '\0' || m.sources.empty() || step < 0 ||
      step >= static_cast<long>(m.sources.front().j.size()))
    throw ConfigError("environment", 0, "CLFDTD_TEST_NAN_AT_STEP",
                      "a step of the source table of a model with a source, got '" +
                          std::string(value) + "'");
  m.sources.front().j[static_cast<std::size_t>(step)] = std::numeric_limits<double>::quiet_NaN();
}

// The second Ctrl-C's line follows the output as OutputDir moves it, each move under a hold, so
// the line never names a folder as it was a moment before (signals.hpp).
class SecondSignalLine final : public OutputDir::MoveObserver {
public:
  void begin_move() override { hold_.emplace(); }
  void end_move(const char* stage, const std::string& where) override {
    set_second_signal_line(where);
    hold_.reset();  // a second signal that came meanwhile ends the process here, with that line
    if (stage) signal_stage(stage);
  }

private:
  std::optional<SecondSignalHold> hold_;
};

void print_notes(OutputDir& out) {
  for (const std::string& note : out.take_notes()) std::fprintf(stderr, "clfdtd: %s\n", note.c_str());
}

// What happened to the previous output, for the messages of runs that did not complete.
std::string previous_output_text(const OutputDir& out) {
  std::error_code ec;
  if (!std::filesystem::exists(out.final_path(), ec))
    return "'" + out.final_path() + "' was not created";
  if (is_clfdtd_output(out.final_path()))
    return "the previous output in '" + out.final_path() + "' was kept";
  return "'" + out.final_path() + "' (not a clfdtd output) was left as it was";
}

// Where and when the fields went NaN or infinite, as exactly as the checks allow: a probe is read
// back for every step; the fields are checked at intervals (LoopOptions).
std::string nonfinite_text(const LoopResult& r) {
  std::string text;
  if (r.first_nonfinite_probe_step >= 0)
    text = "probe " + r.nonfinite_probe + " first non-finite at step " +
           std::to_string(r.first_nonfinite_probe_step) + "; ";
  if (r.steps_done == r.last_finite_step + 1)
    text += "fields non-finite at step " + std::to_string(r.steps_done);
  else
    text += "the fields, checked at intervals, were finite at step " +
            std::to_string(r.last_finite_step) + " and non-finite at step " +
            std::to_string(r.steps_done);
  return text;
}

// Holds space for the last run.json, so that a run whose disk fills up still says so in its
// report: twice the first run.json (the last adds flux values and the like), 64 B per planned
// snapshot file in "files" (a cylindrical model's: one per mode and the 3D one), and 64 KiB.
void reserve_final_report(OutputDir& out, const RunConfig& cfg, const SimulationModel& model) {
  std::error_code ec;
  const auto first = std::filesystem::file_size(out.file("run.json"), ec);
  const std::size_t per_step = 64 * (model.grid.modes.size() + 2);
  out.reserve_space((ec ? 0 : 2 * static_cast<std::size_t>(first)) + (64u << 10) +
                    per_step * cfg.snapshot.steps.size());
}

// A run that did not complete: its report says why, its folder becomes "<dir>.partial". Returns
// where the outputs are; never throws (the caller is already reporting a failure).
std::string keep_partial(OutputDir& out, RunReport& report, const std::string& status,
                         const std::string& reason) {
  report.status = status;
  report.reason = reason;
  report.files = out.written_files();
  out.release_reserve();  // where the disk filled up, the space for this run.json
  try {
    write_run_json(out.file("run.json"), report);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clfdtd: %s\n", e.what());
  }
  signal_stage("report-written");
  try {
    out.keep_partial();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clfdtd: %s\n", e.what());
  }
  print_notes(out);
  return out.path();
}

// A run that failed with an exception: its report and folder as keep_partial, and the message
// saying where its outputs are. Never throws (the caller is already reporting a failure).
void report_incomplete(OutputDir& out, RunReport& report, const std::string& what) {
  const std::string where = keep_partial(out, report, "failed", what);
  std::fprintf(stderr, "clfdtd: the run did not complete; its output so far is in '%s'; %s\n",
               where.c_str(), previous_output_text(out).c_str());
}

}  // namespace

int run_command(const std::string& model_path, const std::vector<std::string>& overrides) {
  // Under mpirun with several ranks (docs/MPI.md) every rank runs this same path on the global
  // model; rank 0 ("lead") alone prints and writes, and the ranks agree on every failure before
  // any of them goes on (agree_on_failure), so none waits for another that has given up.
  parallel::Communicator& comm = parallel::Communicator::world();
  const bool lead = comm.rank() == 0;
  refuse_mpirun_without_mpi();

  // Patent steps 1 and 2: parameters, model, mesh. ConfigError propagates (exit 2, nothing written).
  RunConfig cfg;
  OutputPolicy policy;
  SimulationModel model;
  parallel::Decomposition decomposition;
  std::optional<StopSignals> stop_signals;
  if (const int code = agree_on_failure(comm, [&] {
        // From here SIGINT, SIGTERM and SIGHUP end the setup at once (exit 6): first of all, so
        // that only the process's own start (before main) is left to the default action.
        stop_signals.emplace();
        cfg = load_config(model_path, overrides);
        policy = OutputPolicy{cfg.output.overwrite, cfg.source_file};
        if (lead) check_output_path(cfg.output.dir, policy);  // a path that may not be replaced is bad input
        // One device: a grid whose fields alone exceed its memory is refused before the mesh
        // (with ranks each holds a part; make_distributed_backend counts the parts).
        model = SimulationModel::build(cfg, [&](const GridGeometry& g, const FieldLayout& layout) {
          if (!comm.distributed()) check_device_can_hold(g, layout, cfg.grid.equation, cfg.device);
        });
        apply_test_nan_hook(model);
        for (std::string& w : resonance_plan_warnings(model)) model.warnings.push_back(std::move(w));
        if (comm.distributed()) {
          check_distributable(cfg, model, comm.size());
          decomposition = decompose_model(cfg, model, comm.size());
          cfg.device.select = rank_device(cfg, comm.rank(), parallel::node_local_rank());
        } else if (runs_in_parts(cfg, model)) {
          // A periodic model on a device runs as one part whose ghost planes carry the wrap.
          check_periodic_variant(cfg);
          decomposition = decompose_model(cfg, model, 1);
        }
      }))
    return code;
  if (lead) {
    for (const auto& w : model.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
    print_summary(model, cfg);
  }

  // Patent step 3: the device, its program and buffers (refuses a model that does not fit).
  std::unique_ptr<Backend> backend;
  std::size_t device_bytes = 0;
  if (const int code = agree_on_failure(comm, [&] {
        backend = comm.distributed() || runs_in_parts(cfg, model)
                      ? parallel::make_distributed_backend(model, cfg.device, decomposition, comm)
                      : make_backend(model, cfg.device);
        // Counted once the backend exists: only it knows the variant (device.variant = auto may
        // take a tuned onepass from the tuning cache), and onepass doubles the field memory. A
        // model too large for the device never gets here; the backend's refusal names the bytes
        // needed (with ranks: this rank's part).
        device_bytes = backend->device_bytes(model);
      }))
    return code;
  if (lead) {
    std::printf("device     %s [%s, %s]\n", backend->device_description().c_str(),
                backend->name().c_str(), backend->kernel_variant().c_str());
    const auto wg = backend->workgroup_used();
    if (cfg.device.workgroup && wg && *wg != *cfg.device.workgroup) {
      const auto& asked = *cfg.device.workgroup;
      const std::string kernel = backend->kernel_variant();
      std::fflush(stdout);
      std::fprintf(stderr,
                   "warning: device.workgroup %d %d %d runs as %d x %d x %d: what the %s variant "
                   "and the device allow\n",
                   asked[0], asked[1], asked[2], (*wg)[0], (*wg)[1], (*wg)[2],
                   kernel.substr(0, kernel.find(' ')).c_str());
    }
    std::printf("memory     %s %s%s\n", mib(device_bytes).c_str(),
                backend->in_host_memory() ? "in host memory (double precision)" : "on the device",
                comm.distributed() ? " of rank 0" : "");
    if (!model.snapshot_steps.empty() && !vtk_available())
      std::printf("note       this build has no VTK (-DCLFDTD_VTK=OFF): snapshots are not written\n");
    for (const MonitorModel& mon : model.monitors)
      if (mon.kind == MonitorKind::Dft && !vtk_available())
        std::printf("note       this build has no VTK (-DCLFDTD_VTK=OFF): dft monitor %s is not written\n",
                    mon.name.c_str());
    std::fflush(stdout);
  }

  // Before the first write: from here a signal stops the run at the next step, keeping its output;
  // after the loop it skips the analyses not yet started (mode solves, harmonic inversions).
  stop_signals->defer();
  set_task_stop([] { return stop_signal() != 0; });
  if (!comm.all(stop_signal() == 0)) {
    if (lead)
      std::fprintf(stderr, "clfdtd: interrupted by %s before the time loop; nothing was written\n",
                   stop_signal() ? signal_name(stop_signal()) : "a stop signal on another rank");
    return 6;
  }

  // Rank 0's output folder, its run.json and model.vti: a failure there ends every rank.
  std::unique_ptr<OutputDir> out;
  SecondSignalLine second_signal_line;
  RunReport report;
  std::unique_ptr<LoopSink> sink;
  if (const int code = agree_on_failure(comm, [&] {
        if (!lead) {
          sink = std::make_unique<NullSink>();
          return;
        }
        out = std::make_unique<OutputDir>(cfg.output.dir, policy);
        out->set_observer(&second_signal_line);
        set_second_signal_line(out->where());
        print_notes(*out);
        report = report_from_model(model);
        report.warnings = model.warnings;
        report.backend = backend->name();
        report.device = backend->device_description();
        for (const Backend::DevicePart& part : backend->device_parts())
          report.devices.push_back(
              {part.description, part.modes.empty() ? report.modes : part.modes});
        report.kernel_variant = backend->kernel_variant();
        report.model_file = cfg.source_file;
        report.device_bytes = device_bytes;
        report.ranks = comm.size();
        if (comm.distributed()) {
          report.parts = decomposition.parts;
          report.boxes.clear();
          for (const parallel::Box& b : decomposition.boxes)
            report.boxes.push_back({b.lo[0], b.lo[1], b.lo[2], b.hi[0], b.hi[1], b.hi[2]});
        }
        report.status = "running";
        try {
          write_run_json(out->file("run.json"), report);  // first: it marks the folder as clfdtd's
          reserve_final_report(*out, cfg, model);
          if (vtk_available()) write_model_vti(out->file("model.vti"), model);
          sink = std::make_unique<RunOutputs>(out->path(), model, cfg.snapshot.phi_samples);
        } catch (const std::exception& e) {
          report_incomplete(*out, report, e.what());
          throw;
        }
      }))
    return code;

  LoopResult result;
  long steps_reached = 0;  // for the partial run.json of a loop that ends in an exception
  // From the loop's return until run.json says how far it got: a second signal meanwhile waits
  // for that report (one file's write), so a run stopped twice still reports its steps_done. The
  // loop's own flush and its wait for the device are not held: a second signal there ends the
  // run at once, and the next run marks its report (mark_abandoned_report).
  std::optional<SecondSignalHold> stopping;
  try {
    // Patent step 4: the time loop.
    ProgressLine progress(cfg.quiet || !lead);
    LoopOptions options;
    // With ranks, the stop signal is agreed at the loop's sync interval: an allreduce per step
    // would cost more than the signal is worth.
    options.stop_requested = agreed_stop(comm, options.sync_interval_steps);
    options.steps_reached = &steps_reached;
    DftConvergence settled(model);
    options.checkpoint_step = settled.checkpoint_step();
    options.at_checkpoint = [&] { settled.take(*backend); };
    result = run_time_loop(model, *backend, *sink,
                           [&](const LoopProgress& p) { progress.update(p); }, options);
    progress.done();
    if (lead && result.stopped) {
      stopping.emplace();
      report.status = "interrupted";
      report.reason = std::string("interrupted by ") +
                      (stop_signal() ? signal_name(stop_signal()) : "a stop signal on another rank") +
                      " at step " + std::to_string(result.steps_done) + " of " +
                      std::to_string(model.grid.steps);
      report.steps_done = result.steps_done;
      report.loop_seconds = result.loop_seconds;
      write_run_json(out->file("run.json"), report);
      stopping.reset();
      signal_stage("stopped");
    }
    if (lead) signal_stage("loop-end");
    // What the outputs say of the run: printed now, and kept in run.json.
    auto warn_after_loop = [&](const std::string& w) {
      std::fprintf(stderr, "warning: %s\n", w.c_str());
      report.warnings.push_back(w);
    };
    // The transforms so far are worth keeping also when the run was stopped; non-finite fields
    // would only give non-finite transforms.
    if (result.finite) {
      std::vector<PortWaves> guided;
      if (lead)
        guided = write_dft_monitor_files(
            out->path(), model,
            [&](int i, std::vector<std::complex<double>>& v) {
              backend->read_dft(i, v);
              if (const auto w = settled.compare(i, v)) warn_after_loop(*w);
            },
            report.monitors,
            [&](const std::string& monitor, const std::vector<double>& freqs) -> std::optional<DrivingPortPower> {
              const auto* outputs = dynamic_cast<const RunOutputs*>(sink.get());
              if (!outputs) return std::nullopt;
              auto p = driving_port_power(model, outputs->port_fields(), result.steps_done, freqs);
              if (p && result.steps_done == model.grid.steps)
                if (const auto w = gain_moved_warning(monitor, *p, freqs, model.grid)) warn_after_loop(*w);
              return p;
            });
      else
        read_dft_monitors(model, *backend);
      for (const MonitorReport& r : report.monitors)
        for (const std::string& w : r.warnings) warn_after_loop(w);
      if (lead && !model.ports.empty()) {
        const auto* outputs = dynamic_cast<const RunOutputs*>(sink.get());
        if (outputs)
          for (const std::string& w : write_port_files(out->path(), model, outputs->port_fields(),
                                                       result.steps_done, guided))
            warn_after_loop(w);
      }
      if (lead && !report.resonances.empty())
        if (const auto* outputs = dynamic_cast<const RunOutputs*>(sink.get())) {
          // Seconds per series at the analysis' largest size: say what the wait is for.
          if (!cfg.quiet)
            std::fprintf(stderr, "analysing  the resonances of %zu probe series (harmonic inversion)\n",
                         report.resonances.size());
          for (const std::string& w : write_resonance_file(out->path(), model, outputs->resonance_series(),
                                                           result.steps_done, report.resonances))
            warn_after_loop(w);
        }
    }
    // Collective: every rank's backend is a DistributedBackend in a run over ranks.
    if (auto* ranks = dynamic_cast<parallel::DistributedBackend*>(backend.get())) {
      const parallel::DistributedBackend::HaloTiming h = ranks->halo_timing();
      if (lead)
        report.halo = RunReport::Halo{h.overlap, h.path, h.exchange_s, h.exposed_s,
                                      h.exchange_s_max, h.exposed_s_max};
    }
    // A signal after the loop that cut analyses short: they are missing, so the run is
    // interrupted (one that came when nothing was left to skip lets the run complete).
    if (lead && result.finite && !result.stopped && tasks_skipped()) {
      result.stopped = true;
      report.status = "interrupted";
      report.reason = std::string("interrupted by ") + signal_name(stop_signal()) +
                      " after the time loop, during its analyses (those not finished are missing)";
    }
    if (lead) {
      report.steps_done = result.steps_done;
      report.loop_seconds = result.loop_seconds;
      report.mcells_per_s =
          mcells_per_second(static_cast<double>(report.cell_updates_per_step), result.steps_done,
                            result.loop_seconds);
      if (result.finite && !result.stopped) {
        report.status = "completed";
        report.files = out->written_files();
        out->release_reserve();
        write_run_json(out->file("run.json"), report);
        out->commit();
      }
    }
  } catch (const std::exception& e) {
    stopping.reset();  // a second signal that came meanwhile ends the process here
    if (lead) {
      if (report.status == "running") report.steps_done = steps_reached;
      report_incomplete(*out, report, e.what());
    }
    if (!comm.distributed()) throw;  // the caller's one catch block turns it into the exit code
    // The other ranks cannot learn of it collectively (they may wait in a transfer): end them
    // all, rank 0's outputs as far as they got (docs/MPI.md, "Failures").
    const ErrorExit failure = describe_error(std::current_exception());
    comm.abort(failure.code, failure.line);
  }

  // Patent steps 5 and 6: the backend (device memory) goes first, then the model (host memory).
  backend.reset();
  if (!result.finite) {
    if (!lead) return 3;
    const std::string what = nonfinite_text(result);
    const std::string where = keep_partial(*out, report, "non-finite", what);
    std::fprintf(stderr,
                 "clfdtd: fields became non-finite (NaN or infinite): %s; the partial output is in "
                 "'%s'; %s\n",
                 what.c_str(), where.c_str(), previous_output_text(*out).c_str());
    return 3;
  }
  if (result.stopped) {
    if (!lead) return 6;
    const std::string what = report.reason;  // set when the loop stopped
    const std::string where = keep_partial(*out, report, "interrupted", what);
    std::fprintf(stderr, "clfdtd: %s; the partial output is in '%s'; %s\n", what.c_str(),
                 where.c_str(), previous_output_text(*out).c_str());
    return 6;
  }
  if (!lead) return 0;
  print_notes(*out);
  for (const MonitorReport& m : report.monitors)
    if (m.type != "waveguide_port")
      std::printf("monitor    %s (%s): %s/%s\n", m.name.c_str(), m.type.c_str(),
                  out->final_path().c_str(), m.file.c_str());
  for (const WaveguidePortModel& p : model.waveguide_ports)
    std::printf("port       %s (waveguide, %s): %s/ports/%s.csv\n", p.name.c_str(), p.mode_text().c_str(),
                out->final_path().c_str(), p.name.c_str());
  for (const PortModel& p : model.ports)
    std::printf("port       %s (%g ohm): %s/ports/%s.csv\n", p.name.c_str(), p.resistance_ohm,
                out->final_path().c_str(), p.name.c_str());
  for (const std::string& line : resonance_summary(report.resonances))
    std::printf("resonance  %s\n", line.c_str());
  if (!report.resonances.empty())
    std::printf("resonances %s/%s\n", out->final_path().c_str(), kResonanceFile);
  // Cylindrical: every mode's (r, z) cells count, as in run.json's mcells_per_s.
  std::printf("done       %ld steps in %.3f s of time loop, %.1f %s; outputs in %s\n",
              result.steps_done, result.loop_seconds, report.mcells_per_s,
              model.cylindrical() ? "M cell-mode updates/s" : "Mcells/s",
              out->final_path().c_str());
  return 0;
}

}  // namespace clfdtd::cli
