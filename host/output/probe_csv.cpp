// ProbeCsvWriter: see probe_csv.hpp. stdio with "%.9g" keeps float32 device values exact
// (9 significant digits round-trip a float) and is much faster than iostreams for long runs.
#include "output/probe_csv.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "errors.hpp"
#include "output/text_file.hpp"

namespace clfdtd {

std::string probe_column_name(const ProbeSet& probes, std::size_t sample, bool cylindrical) {
  const ProbeSample& s = probes.samples.at(sample);
  const std::string raw = probes.probes.at(s.probe).name + "." +
                          (cylindrical ? cyl_component_name(s.component) : component_name(s.component)) +
                          (is_electric(s.component) ? "_V_per_m" : "_A_per_m");
  return csv_field(raw);
}

ProbeCsvWriter::ProbeCsvWriter(const std::string& path, const ProbeSet& probes, double dt,
                               bool cylindrical)
    : path_(path),
      samples_(probes.samples.begin(),
               probes.samples.begin() + static_cast<long>(probes.csv_samples())),
      probes_(probes.probes), stride_(probes.samples.size()),
      only_window_(probes.port_samples > 0), first_step_(probes.csv_first_step),
      last_step_(probes.csv_last_step), dt_(dt) {
  for (const ProbeSample& s : samples_)
    if (s.probe < 0 || static_cast<std::size_t>(s.probe) >= probes_.size())
      throw std::invalid_argument("probe CSV: sample refers to probe " + std::to_string(s.probe) +
                                  " of " + std::to_string(probes_.size()));
  file_ = std::fopen(path.c_str(), "w");
  if (!file_)
    throw OutputError::from_errno("create", path, errno);
  std::string header = "step,time_s";
  for (std::size_t i = 0; i < samples_.size(); ++i) header += "," + probe_column_name(probes, i, cylindrical);
  header += "\n";
  if (std::fputs(header.c_str(), file_) < 0 || std::fflush(file_) != 0)
    throw OutputError::from_errno("write", path, errno);
}

ProbeCsvWriter::~ProbeCsvWriter() {
  if (file_) std::fclose(file_);
}

void ProbeCsvWriter::write_rows(long first_step, int count, const std::vector<double>& values) {
  const std::size_t n = samples_.size();
  if (count < 0 || values.size() < static_cast<std::size_t>(count) * stride_)
    throw std::invalid_argument("probe CSV: " + std::to_string(values.size()) + " values for " +
                                std::to_string(count) + " rows of " + std::to_string(stride_) + " samples");
  bool ok = true;
  for (int slot = 0; slot < count && ok; ++slot) {
    const long step = first_step + slot;
    if (only_window_ && (step < first_step_ || step > last_step_)) continue;  // for a port only
    ok = std::fprintf(file_, "%ld,%.9g", step, static_cast<double>(step) * dt_) >= 0;
    for (std::size_t s = 0; s < n && ok; ++s) {
      const ProbeModel& p = probes_[samples_[s].probe];
      if (step < p.n1 || step > p.n2)
        ok = std::fputc(',', file_) != EOF;
      else
        ok = std::fprintf(file_, ",%.9g", values[static_cast<std::size_t>(slot) * stride_ + s]) >= 0;
    }
    ok = ok && std::fputc('\n', file_) != EOF;
  }
  if (!ok || std::fflush(file_) != 0)
    throw OutputError::from_errno("write", path_, errno);
}

}  // namespace clfdtd
