// The progress line on stderr: step, %, elapsed, ETA, Mcells/s. On a terminal it rewrites one
// line; otherwise (logs, CI) it prints a new line at most every 10 seconds.
#pragma once
#include <cstdio>

#include "solver/time_loop.hpp"

namespace clfdtd::cli {

class ProgressLine {
public:
  explicit ProgressLine(bool quiet, std::FILE* out = stderr);
  void update(const LoopProgress& p);
  void done();  // ends a rewritten line with a newline

private:
  bool quiet_;
  std::FILE* out_;
  bool tty_;
  bool pending_newline_ = false;
  double last_logged_s_ = -1e9;
};

}  // namespace clfdtd::cli
