// RunOutputs: see run_outputs.hpp.
#include "cli/run_outputs.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "errors.hpp"
#include "output/vti_writer.hpp"

namespace clfdtd::cli {

RunOutputs::RunOutputs(const std::string& dir, const SimulationModel& model)
    : dir_(dir), model_(model) {
  if (!model.probes.empty())
    csv_ = std::make_unique<ProbeCsvWriter>(dir + "/probes.csv", model.probes, model.grid.dt);
  if (!model.snapshot_steps.empty() && vtk_available()) {
    std::error_code ec;
    std::filesystem::create_directories(dir + "/snapshots", ec);
    if (ec) throw OutputError("create", dir + "/snapshots", ec.message());
    pvd_ = std::make_unique<PvdWriter>(dir + "/fields.pvd");
  }
  if (model.energy) {
    const std::string path = dir + "/energy.csv";
    energy_.reset(std::fopen(path.c_str(), "w"));
    if (!energy_ ||
        std::fputs("step,time_s,energy_J,electric_J,magnetic_J,naive_J\n", energy_.get()) < 0)
      throw OutputError::from_errno("create", path, errno);
  }
}

// %.12g: the sums are doubles (of float fields); conservation is read in the 7th digit and beyond.
void RunOutputs::energy_rows(const std::vector<EnergyRow>& rows) {
  if (!energy_) return;
  bool ok = true;
  for (const EnergyRow& r : rows) {
    ok = ok && std::fprintf(energy_.get(), "%ld,%.9g,%.12g,%.12g,%.12g,%.12g\n", r.step,
                            static_cast<double>(r.step) * model_.grid.dt, r.total, r.electric,
                            r.magnetic, r.naive) >= 0;
  }
  if (!ok || std::fflush(energy_.get()) != 0)
    throw OutputError::from_errno("write", dir_ + "/energy.csv", errno);
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
