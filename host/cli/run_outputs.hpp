// Connects the time loop's read-backs to the files of a run: probes.csv, snapshots/fields_<n>.vti
// and fields.pvd (which lists the snapshots with their times so ParaView animates them), and
// energy.csv when output.energy is on (2D: columns *_J_per_m, per metre of depth), and monitors/<name>.csv of each modes monitor (rows as the
// run goes; the other monitors' files are written at its end, output/monitor_files.hpp).
#pragma once
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "model/simulation_model.hpp"
#include "output/probe_csv.hpp"
#include "output/pvd_writer.hpp"
#include "solver/time_loop.hpp"

namespace clfdtd::cli {

class RunOutputs final : public LoopSink {
public:
  RunOutputs(const std::string& dir, const SimulationModel& model);
  void probe_rows(long first_step, int count, const std::vector<double>& values) override;
  void snapshot(long step, const std::array<std::vector<float>, 6>& fields) override;
  void energy_rows(const std::vector<EnergyRow>& rows) override;
  void mode_rows(int monitor, const std::vector<long>& steps,
                 const std::vector<double>& values) override;

private:
  struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::string dir_;
  const SimulationModel& model_;
  std::unique_ptr<ProbeCsvWriter> csv_;  // only when there are probes
  std::unique_ptr<PvdWriter> pvd_;       // only when there are snapshots
  std::unique_ptr<std::FILE, FileCloser> energy_;  // energy.csv, only with output.energy
  std::vector<std::unique_ptr<std::FILE, FileCloser>> modes_;  // per monitor; null unless modes
};

}  // namespace clfdtd::cli
