// RunOutputs: see run_outputs.hpp.
#include "cli/run_outputs.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "errors.hpp"
#include "monitors/harmonic_inversion.hpp"
#include "output/cyl_snapshot.hpp"
#include "output/vti_writer.hpp"

namespace clfdtd::cli {

RunOutputs::RunOutputs(const std::string& dir, const SimulationModel& model, int phi_samples)
    : dir_(dir), model_(model), phi_samples_(phi_samples) {
  if (model.probes.csv_samples() > 0)
    csv_ = std::make_unique<ProbeCsvWriter>(dir + "/probes.csv", model.probes, model.grid.dt,
                                            model.cylindrical());
  if (!model.snapshot_steps.empty() && vtk_available()) {
    std::error_code ec;
    std::filesystem::create_directories(dir + "/snapshots", ec);
    if (ec) throw OutputError("create", dir + "/snapshots", ec.message());
    if (!model.cylindrical()) {
      pvd_ = std::make_unique<PvdWriter>(dir + "/fields.pvd");
    } else {
      for (int m : model.grid.modes)
        mode_pvds_.push_back(
            std::make_unique<PvdWriter>(dir + "/fields_m" + std::to_string(m) + ".pvd"));
      if (phi_samples_ > 0) pvd_3d_ = std::make_unique<PvdWriter>(dir + "/fields_3d.pvd");
    }
  }
  // The series of each field of a probe with a resonance band, from its resonance_from to n2.
  resonance_series_.resize(model.probes.csv_samples());
  for (std::size_t k = 0; k < resonance_series_.size(); ++k) {
    const ProbeModel& p = model.probes.probes.at(model.probes.samples[k].probe);
    if (p.resonances_hz && p.n2 >= p.resonance_from) {
      // At most what the analysis takes (its first samples).
      const std::size_t most = BandPlan::of(model.grid.dt, (*p.resonances_hz)[0], (*p.resonances_hz)[1]).max_length();
      resonance_series_[k].assign(std::min(static_cast<std::size_t>(p.n2 - p.resonance_from) + 1, most), 0.0);
    }
  }
  port_e_.assign(model.ports.size(),
                 std::vector<double>(static_cast<std::size_t>(std::max(0L, model.grid.steps)) + 1, 0.0));
  if (model.energy) {
    const std::string path = dir + "/energy.csv";
    energy_.reset(std::fopen(path.c_str(), "w"));
    // 2D: energies per metre of depth (the model is 1 m deep along z).
    const char* header = model.two_d()
                             ? "step,time_s,energy_J_per_m,electric_J_per_m,magnetic_J_per_m,naive_J_per_m\n"
                             : "step,time_s,energy_J,electric_J,magnetic_J,naive_J\n";
    if (!energy_ || std::fputs(header, energy_.get()) < 0)
      throw OutputError::from_errno("create", path, errno);
  }
  modes_.resize(model.monitors.size());
  for (std::size_t i = 0; i < model.monitors.size(); ++i) {
    const MonitorModel& mon = model.monitors[i];
    if (mon.kind != MonitorKind::Modes) continue;
    std::error_code ec;
    std::filesystem::create_directories(dir + "/monitors", ec);
    if (ec) throw OutputError("create", dir + "/monitors", ec.message());
    const std::string path = dir + "/monitors/" + mon.name + ".csv";
    modes_[i].reset(std::fopen(path.c_str(), "w"));
    std::string header = "step,time_s";
    for (int k = 0; k < mon.nmodes; ++k) header += ",mode_" + std::to_string(k);
    if (!modes_[i] || std::fputs((header + "\n").c_str(), modes_[i].get()) < 0)
      throw OutputError::from_errno("create", path, errno);
  }
}

// One row per projection: the step, E's time, sum over cells of E . mode_k dV (V m^2).
void RunOutputs::mode_rows(int monitor, const std::vector<long>& steps,
                           const std::vector<double>& values) {
  std::FILE* f = modes_.at(static_cast<std::size_t>(monitor)).get();
  if (!f) return;
  const int nmodes = model_.monitors[static_cast<std::size_t>(monitor)].nmodes;
  bool ok = true;
  for (std::size_t r = 0; r < steps.size(); ++r) {
    ok = ok && std::fprintf(f, "%ld,%.9g", steps[r], static_cast<double>(steps[r]) * model_.grid.dt) >= 0;
    for (int k = 0; k < nmodes; ++k)
      ok = ok && std::fprintf(f, ",%.9g", values[r * static_cast<std::size_t>(nmodes) + k]) >= 0;
    ok = ok && std::fputc('\n', f) != EOF;
  }
  if (!ok || std::fflush(f) != 0)
    throw OutputError::from_errno(
        "write", dir_ + "/monitors/" + model_.monitors[static_cast<std::size_t>(monitor)].name + ".csv",
        errno);
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
  const std::size_t stride = model_.probes.samples.size();
  for (std::size_t k = 0; k < resonance_series_.size(); ++k) {
    std::vector<double>& series = resonance_series_[k];
    if (series.empty()) continue;
    const long from = model_.probes.probes[model_.probes.samples[k].probe].resonance_from;
    for (int slot = 0; slot < count; ++slot) {
      const long at = first_step + slot - from;
      const std::size_t v = static_cast<std::size_t>(slot) * stride + k;
      if (at >= 0 && static_cast<std::size_t>(at) < series.size() && v < values.size())
        series[static_cast<std::size_t>(at)] = values[v];
    }
  }
  // A port's E: the mean over its samples (model/ports.hpp).
  for (std::size_t k = 0; k < model_.ports.size(); ++k) {
    const std::vector<std::size_t>& samples = model_.ports[k].probe_samples;
    for (int slot = 0; slot < count; ++slot) {
      const long step = first_step + slot;
      if (step < 0 || static_cast<std::size_t>(step) >= port_e_[k].size() || samples.empty())
        continue;
      double sum = 0;
      for (std::size_t sample : samples) {
        const std::size_t at = static_cast<std::size_t>(slot) * stride + sample;
        if (at < values.size()) sum += values[at];
      }
      port_e_[k][static_cast<std::size_t>(step)] = sum / static_cast<double>(samples.size());
    }
  }
}

void RunOutputs::snapshot(long step, const std::array<std::vector<float>, 6>& fields) {
  if (!pvd_) return;  // a build without VTK writes no snapshots (the run says so up front)
  const std::string name = "snapshots/fields_" + std::to_string(step) + ".vti";
  write_fields_vti(dir_ + "/" + name, model_, fields, step, model_.grid.dt);
  pvd_->add(static_cast<double>(step) * model_.grid.dt, name);
}

void RunOutputs::mode_snapshot(
    long step, const std::vector<std::array<std::vector<std::complex<float>>, 6>>& modes) {
  if (mode_pvds_.empty()) return;  // no VTK: no snapshots (the run says so up front)
  const double t = static_cast<double>(step) * model_.grid.dt;
  const std::string stem = "snapshots/fields_" + std::to_string(step);
  for (std::size_t q = 0; q < mode_pvds_.size(); ++q) {
    const std::string name = stem + "_m" + std::to_string(model_.grid.modes[q]) + ".vti";
    write_cyl_mode_vti(dir_ + "/" + name, model_, static_cast<int>(q), modes.at(q), step,
                       model_.grid.dt);
    mode_pvds_[q]->add(t, name);
  }
  if (pvd_3d_) {
    const std::string name = stem + "_3d.vts";
    write_cyl_3d_vts(dir_ + "/" + name, model_, modes, phi_samples_, step, model_.grid.dt);
    pvd_3d_->add(t, name);
  }
}

}  // namespace clfdtd::cli
