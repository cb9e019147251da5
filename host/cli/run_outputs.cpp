// RunOutputs: see run_outputs.hpp.
#include "cli/run_outputs.hpp"

#include <filesystem>

#include "output/vti_writer.hpp"

namespace clfdtd::cli {

RunOutputs::RunOutputs(const std::string& dir, const SimulationModel& model)
    : dir_(dir), model_(model) {
  if (!model.probes.empty())
    csv_ = std::make_unique<ProbeCsvWriter>(dir + "/probes.csv", model.probes, model.grid.dt);
  if (!model.snapshot_steps.empty() && vtk_available()) {
    std::filesystem::create_directories(dir + "/snapshots");
    pvd_ = std::make_unique<PvdWriter>(dir + "/fields.pvd");
  }
}

void RunOutputs::probe_rows(long first_step, int count, const std::vector<double>& values) {
  if (csv_) csv_->write_rows(first_step, count, values);
}

void RunOutputs::snapshot(long step, const std::array<std::vector<float>, 6>& fields) {
  if (!pvd_) return;  // a build without VTK writes no snapshots (the run says so up front)
  const std::string name = "snapshots/fields_" + std::to_string(step) + ".vti";
  write_fields_vti(dir_ + "/" + name, model_, fields, step, model_.grid.dt);
  pvd_->add(static_cast<double>(step) * model_.grid.dt, name);
}

}  // namespace clfdtd::cli
