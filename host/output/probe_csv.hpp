// probes.csv: one row per step of the [probe.*] sections' windows, one column per sample of theirs
// (ProbeSet::samples order; the ports' samples after them are not written here).
//   step,time_s,<probe>.<field>_<unit>,...   e.g. a.Ez_V_per_m, a.Hx_A_per_m
// time_s = step * dt in seconds. E columns are in V/m at that time; H columns are in A/m at
// time_s - dt/2 (leapfrog: step s holds H at (s - 1/2) dt). A cell is empty where the step lies
// outside that probe's n1..n2 window. The header line is the only non-data line, so the file loads
// directly into spreadsheets, pandas or ParaView's CSV reader; each column's name ends in its unit.
// Cylindrical models name the cylindrical components (<probe>.Er_V_per_m, .Ephi, .Ez, .Hr, .Hphi, .Hz):
// the physical field at the probe's (r, phi, z), sum over modes of Re(F_m e^{i m phi}).
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "model/probes.hpp"

namespace clfdtd {

class ProbeCsvWriter {
public:
  // Creates (truncates) the file and writes the header. Throws std::runtime_error on failure.
  // cylindrical: the columns name Er .. Hz (SimulationModel::cylindrical()).
  ProbeCsvWriter(const std::string& path, const ProbeSet& probes, double dt,
                 bool cylindrical = false);
  ~ProbeCsvWriter();
  ProbeCsvWriter(const ProbeCsvWriter&) = delete;
  ProbeCsvWriter& operator=(const ProbeCsvWriter&) = delete;

  // values[slot * samples + sample] holds step first_step + slot, for slot = 0 .. count-1
  // (the layout of Backend::read_probe_batch). Rows are flushed before returning, so rows written
  // before a crash survive. Throws std::invalid_argument if values is too short, and
  // std::runtime_error on a write error.
  void write_rows(long first_step, int count, const std::vector<double>& values);

  const std::string& path() const { return path_; }

private:
  std::string path_;
  std::vector<ProbeSample> samples_;
  std::vector<ProbeModel> probes_;
  std::size_t stride_;               // samples per step in the values (the ports' after these)
  bool only_window_;                 // with ports: only the rows of first_step_ .. last_step_
  long first_step_, last_step_;
  double dt_;
  std::FILE* file_ = nullptr;
};

// "<probe>.<field>_<unit>", quoted as CSV requires when the probe name holds a comma, quote or
// newline; <field> is Ex .. Hz, or Er .. Hz for a cylindrical model; <unit> V_per_m (E) or
// A_per_m (H).
std::string probe_column_name(const ProbeSet& probes, std::size_t sample, bool cylindrical = false);

}  // namespace clfdtd
