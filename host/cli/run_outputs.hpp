// Connects the time loop's read-backs to the files of a run: probes.csv, snapshots/fields_<n>.vti
// and fields.pvd (which lists the snapshots with their times so ParaView animates them) -- for a
// cylindrical model snapshots/fields_<n>_m<m>.vti and fields_m<m>.pvd per mode, and with
// snapshot.phi_samples > 0 snapshots/fields_<n>_3d.vts and fields_3d.pvd (output/cyl_snapshot.hpp) --, and
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
  // phi_samples: snapshot.phi_samples (cylindrical models; 0 = no 3D reconstruction).
  RunOutputs(const std::string& dir, const SimulationModel& model, int phi_samples = 0);
  void probe_rows(long first_step, int count, const std::vector<double>& values) override;
  void snapshot(long step, const std::array<std::vector<float>, 6>& fields) override;
  void mode_snapshot(
      long step, const std::vector<std::array<std::vector<std::complex<float>>, 6>>& modes) override;
  void energy_rows(const std::vector<EnergyRow>& rows) override;
  void mode_rows(int monitor, const std::vector<long>& steps,
                 const std::vector<double>& values) override;
  // Each port's E at steps 0 .. steps as recorded so far (model/ports.hpp; zero where not yet).
  const std::vector<std::vector<double>>& port_fields() const { return port_e_; }
  // Per probes.csv sample: its series from its probe's resonance_from to n2 as recorded so far
  // (zero where not yet); empty for a probe without a resonance band.
  const std::vector<std::vector<double>>& resonance_series() const { return resonance_series_; }

private:
  struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::string dir_;
  const SimulationModel& model_;
  std::unique_ptr<ProbeCsvWriter> csv_;  // only when there are probes
  int phi_samples_;
  std::unique_ptr<PvdWriter> pvd_;       // only when there are snapshots (3D, 2D)
  std::vector<std::unique_ptr<PvdWriter>> mode_pvds_;  // cylindrical: one per mode slot
  std::unique_ptr<PvdWriter> pvd_3d_;    // cylindrical with phi_samples > 0
  std::unique_ptr<std::FILE, FileCloser> energy_;  // energy.csv, only with output.energy
  std::vector<std::unique_ptr<std::FILE, FileCloser>> modes_;  // per monitor; null unless modes
  std::vector<std::vector<double>> port_e_;  // per port
  std::vector<std::vector<double>> resonance_series_;
};

}  // namespace clfdtd::cli
