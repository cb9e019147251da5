// The modal projection alone, device against host (seed 004's measurement: a field of about
// 2 million cells projected on 100 modes). A pec_cube of n^3 cells carries one modes monitor with
// `modes` pseudo-random mode shapes; each side projects the same field `repeats` times, timed by
// the wall clock around finished work: the device's engine (tree reduction, monitor_stages) and
// the reference engine's plain double loop on one host core.
#pragma once
#include <string>

#include "config/run_config.hpp"

namespace clfdtd {

struct ProjectionTiming {
  std::string device;         // the device backend's description
  long cells = 0;
  int modes = 0;
  double device_s = 0;        // seconds per projection on the device
  double host_s = 0;          // seconds per projection in the reference engine
  double max_rel_diff = 0;    // largest |device - host| over the largest |host| of the projections
};

ProjectionTiming time_projection(const DeviceConfig& device, int n, int modes, int repeats);

}  // namespace clfdtd
