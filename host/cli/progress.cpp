#include "cli/progress.hpp"

#include <unistd.h>

#include <string>

namespace clfdtd::cli {
namespace {

std::string format_duration(double s) {
  char buf[32];
  if (s < 60) {
    std::snprintf(buf, sizeof buf, "%.1f s", s);
  } else if (s < 3600) {
    std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(s) / 3600,
                  (static_cast<int>(s) / 60) % 60);
  }
  return buf;
}

}  // namespace

ProgressLine::ProgressLine(bool quiet, std::FILE* out)
    : quiet_(quiet), out_(out), tty_(isatty(fileno(out)) != 0) {}

void ProgressLine::update(const LoopProgress& p) {
  if (quiet_) return;
  const bool last = p.step >= p.total;
  if (!tty_ && !last && p.elapsed_s - last_logged_s_ < 10.0) return;
  last_logged_s_ = p.elapsed_s;
  const double frac = p.total > 0 ? static_cast<double>(p.step) / p.total : 1.0;
  const double eta = p.step > 0 ? p.elapsed_s * (p.total - p.step) / p.step : 0.0;
  std::fprintf(out_, "%sstep %ld/%ld (%5.1f%%)  elapsed %s  ETA %s  %.1f Mcells/s%s",
               tty_ ? "\r" : "", p.step, p.total, 100.0 * frac, format_duration(p.elapsed_s).c_str(),
               format_duration(eta).c_str(), p.mcells_per_s, tty_ ? "   " : "\n");
  std::fflush(out_);
  pending_newline_ = tty_;
}

void ProgressLine::done() {
  if (pending_newline_) std::fputc('\n', out_);
  pending_newline_ = false;
}

}  // namespace clfdtd::cli
