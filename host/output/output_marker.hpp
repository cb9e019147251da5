// How clfdtd recognises a folder it wrote itself, so that it replaces (or, for stale temporaries,
// removes) only its own outputs. The marker is run.json with "program": "clfdtd", written when a
// run's folder is created and rewritten when the run ends.
#pragma once
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace clfdtd {

inline constexpr const char* kProgramName = "clfdtd";  // run.json's "program"
// Space a running run holds for its last run.json (OutputDir::reserve_space); never in "files".
inline constexpr const char* kReserveFile = "run.json.reserve";
// In each folder a run renames to "<dir>.tmp-<pid>", "<dir>.old-<pid>" or "<dir>.discard-<pid>":
// "clfdtd <pid>\n", that run's pid. A later run takes such a folder for a leftover of a run that
// ended only where the mark names the pid in the folder's name: a user's copy named like one
// ("out.old-12" from `cp -r out out.old-12`) has none, or another pid.
inline constexpr const char* kStagingMark = ".clfdtd-staging";

// Writes the mark of process `pid` into `dir` ("clfdtd <pid> discard\n" for a folder that is to
// be removed, not kept), never through a link, synced; false where it could not.
bool write_staging_mark(const std::filesystem::path& dir, long pid, bool discard = false);
// `dir` holds a mark of process `pid`.
bool staged_by(const std::filesystem::path& dir, long pid);
// `dir` holds process `pid`'s mark of a folder to be removed.
bool marked_for_removal(const std::filesystem::path& dir, long pid);

// A folder (not a link to one) holding a clfdtd run.json: one with "program": "clfdtd", or, from
// versions before that key, one with clfdtd's "cells" and "steps_planned" keys beside a model.vti.
bool is_clfdtd_output(const std::filesystem::path& dir);

// A clfdtd output whose run.json says the run completed.
bool completed_output(const std::filesystem::path& dir);

// What in `dir` (a folder, not a link) clfdtd did not write there: up to `limit` paths relative to
// it, "" for a folder that cannot be read, or the folder itself when it is not a real folder. A run
// lists what it wrote in its run.json ("files", every file but run.json itself); a folder whose
// run.json has no such list (a run killed before it ended, or a version before the list) may hold
// only names a run writes: model.vti, run.json, run.json.reserve, probes.csv, energy.csv, fields.pvd, fields_m<m>.pvd,
// fields_3d.pvd (and their .part), snapshots/ with fields_<step>.vti, fields_<step>_m<m>.vti and
// fields_<step>_3d.vts, and monitors/ and ports/ with the files its run.json's "monitors" and
// "ports" name. Empty:
// nothing there is foreign (an empty folder counts).
std::vector<std::string> foreign_entries(const std::filesystem::path& dir, std::size_t limit = 3);

// foreign_entries(dir) is empty.
bool holds_only_clfdtd_files(const std::filesystem::path& dir);

// A killed run's folder, found by a later run: its run.json, still "status": "running", becomes
// "failed" with `reason`, and steps_done the last step of its probes.csv where it has whole rows,
// else null: not known (replaced whole), after removing the run's run.json.reserve. Nothing else is touched; false
// when there was no such report or it could not be rewritten.
bool mark_abandoned_report(const std::filesystem::path& dir, const std::string& reason);

}  // namespace clfdtd
