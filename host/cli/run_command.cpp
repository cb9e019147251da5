// `clfdtd run`: the patent's six steps for one model file. Order matters for the promises the
// README makes: everything that can reject the input (load, mesh, device choice, memory check)
// happens before the output directory exists, so bad input writes nothing; outputs go to a
// temporary sibling that replaces the old directory only when the run ends.
#include <cstdio>
#include <iostream>
#include <memory>

#include "backends/backend.hpp"
#include "cli/commands.hpp"
#include "cli/progress.hpp"
#include "cli/run_outputs.hpp"
#include "config/load_config.hpp"
#include "errors.hpp"
#include "model/simulation_model.hpp"
#include "output/output_dir.hpp"
#include "output/run_report.hpp"
#include "output/vti_writer.hpp"
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
void print_summary(const SimulationModel& m, const RunConfig& cfg) {
  const auto& g = m.grid;
  std::printf("model      %s\n", cfg.source_file.empty() ? "(command line)" : cfg.source_file.c_str());
  std::printf("cell size  %.6g x %.6g x %.6g m\n", g.d[0], g.d[1], g.d[2]);
  std::printf("grid       %d x %d x %d cells (%ld cells)\n", g.n[0], g.n[1], g.n[2], g.cells());
  std::printf("time step  %.6g s (%.3g of the Courant limit), %ld steps, %.6g s simulated\n", g.dt,
              g.dt / g.courant_limit_dt(), g.steps, g.dt * static_cast<double>(g.steps));
  if (m.upml.enabled())
    std::printf("upml       %zu PML cells with auxiliary fields\n", m.upml.cells);
  std::fflush(stdout);
}

}  // namespace

int run_command(const std::string& model_path, const std::vector<std::string>& overrides) {
  // Patent steps 1 and 2: parameters, model, mesh. ConfigError propagates (exit 2, nothing written).
  const RunConfig cfg = load_config(model_path, overrides);
  const SimulationModel model = SimulationModel::build(cfg);
  for (const auto& w : model.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  print_summary(model, cfg);

  // Patent step 3: the device, its program and buffers (refuses a model that does not fit).
  std::unique_ptr<Backend> backend = make_backend(model, cfg.device);
  std::printf("device     %s [%s, %s]\n", backend->device_description().c_str(),
              backend->name().c_str(), backend->kernel_variant().c_str());
  // Counted once the backend exists: only it knows the variant (device.variant = auto may take
  // a tuned onepass from the tuning cache), and onepass doubles the field memory. A model too
  // large for the device never gets here; the backend's refusal names the bytes needed.
  const std::size_t device_bytes = backend->device_bytes(model);
  std::printf("memory     %s on the device\n", mib(device_bytes).c_str());
  if (!model.snapshot_steps.empty() && !vtk_available())
    std::printf("note       this build has no VTK (-DCLFDTD_VTK=OFF): snapshots are not written\n");
  std::fflush(stdout);

  OutputDir out(cfg.output.dir);
  if (vtk_available()) write_model_vti(out.file("model.vti"), model);

  RunReport report = report_from_model(model);
  report.backend = backend->name();
  report.device = backend->device_description();
  report.kernel_variant = backend->kernel_variant();
  report.model_file = cfg.source_file;
  report.device_bytes = device_bytes;

  // Patent step 4: the time loop.
  LoopResult result;
  try {
    RunOutputs sink(out.path(), model);
    ProgressLine progress(cfg.quiet);
    result = run_time_loop(model, *backend, sink,
                           [&](const LoopProgress& p) { progress.update(p); });
    progress.done();
  } catch (const std::exception& e) {
    // Keep what was written: the temporary folder stays, with a report saying why it stopped.
    report.status = std::string("failed: ") + e.what();
    try {
      write_run_json(out.file("run.json"), report);
    } catch (const std::exception&) {
    }
    std::fprintf(stderr, "clfdtd: the run failed; outputs written so far are in %s\n",
                 out.path().c_str());
    throw;
  }
  report.steps_done = result.steps_done;
  report.loop_seconds = result.loop_seconds;
  report.mcells_per_s = mcells_per_second(model.grid.n, result.steps_done, result.loop_seconds);
  if (!result.finite)
    report.status = "non-finite at step " + std::to_string(result.steps_done);
  write_run_json(out.file("run.json"), report);
  out.commit();

  // Patent steps 5 and 6: the backend (device memory) goes first, then the model (host memory).
  backend.reset();
  if (!result.finite) {
    std::fprintf(stderr,
                 "clfdtd: fields became non-finite (NaN or infinite) by step %ld (last finite "
                 "check at step %ld); outputs up to there are in %s\n",
                 result.steps_done, result.last_finite_step, out.final_path().c_str());
    return 3;
  }
  std::printf("done       %ld steps in %.3f s of time loop, %.1f Mcells/s; outputs in %s\n",
              result.steps_done, result.loop_seconds, report.mcells_per_s,
              out.final_path().c_str());
  return 0;
}

}  // namespace clfdtd::cli
