// Which probe samples the tblock variant can record at the step inside a pair of steps
// (cl_kernels/probe_predict.cl computes them from the fields of the step before with the plain
// Yee updates), and which merged source drives each.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/simulation_model.hpp"

namespace clfdtd::engine {

// Per probe sample (ProbeSet::samples order, the batch's): the row of merge_sources' table of
// the source that drives that E sample, or -1. Unset, with `why`, where a sample's cell or one
// of its six neighbours is a PML cell (whose update carries auxiliaries the prediction lacks).
std::optional<std::vector<std::int32_t>> predictable_sample_sources(const SimulationModel& m,
                                                                    std::string* why = nullptr);

}  // namespace clfdtd::engine
