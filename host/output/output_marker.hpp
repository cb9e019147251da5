// How clfdtd recognises a folder it wrote itself, so that it replaces (or, for stale temporaries,
// removes) only its own outputs. The marker is run.json with "program": "clfdtd", written when a
// run's folder is created and rewritten when the run ends.
#pragma once
#include <filesystem>

namespace clfdtd {

inline constexpr const char* kProgramName = "clfdtd";  // run.json's "program"

// A folder (not a link to one) holding a clfdtd run.json: one with "program": "clfdtd", or, from
// versions before that key, one with clfdtd's "cells" and "steps_planned" keys beside a model.vti.
bool is_clfdtd_output(const std::filesystem::path& dir);

// A folder (not a link) holding nothing but names a run writes (model.vti, run.json, probes.csv,
// energy.csv, fields.pvd and its .part, snapshots/ with fields_<step>.vti): what an interrupted
// run of any version leaves in its temporary folder. An empty folder counts.
bool holds_only_clfdtd_files(const std::filesystem::path& dir);

}  // namespace clfdtd
