// run.json: what ran, where, how far and how fast. All values SI; the unit is part of each key
// name (cell_size_m, dt_s, loop_time_s, position_m, device_bytes). Written when the run's folder
// is created (status "running": the file is also the marker by which clfdtd recognises its own
// outputs, see output_marker.hpp) and again when the run ends, also when it stopped early.
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "model/simulation_model.hpp"
#include "output/monitor_files.hpp"
#include "output/resonance_file.hpp"
#include "output/waveguide_port_files.hpp"

namespace clfdtd {

struct ProbeReport {
  std::string name;   // the probe's name
  std::string field;  // "Ex" .. "Hz"; cylindrical: "Er", "Ephi", "Ez", "Hr", "Hphi", "Hz"
  Vec3 position_m;    // where the Yee sample actually sits (may differ from the requested point);
                      // cylindrical: (r, 0, z) of the sample
  double phi_deg = 0; // cylindrical: the probe's angle, degrees
};

// One lumped port (model/ports.hpp): its files, relative to the output folder, and where it sits.
struct PortReport {
  std::string name, field;     // field: "Ex", "Ey" or "Ez", the sample the port drives
  Vec3 position_m;             // where that sample sits (a box of samples: their centre)
  double resistance_ohm = 50;
  std::vector<double> frequencies_hz;
  bool driven = true;          // false: amplitude 0, a load that receives
  bool sole_driven = false;    // the run's one driven port: it also gets touchstone_file()
  long samples_along = 1, samples_across = 1;  // the box of samples (source.<name>.size)
  std::string file() const { return "ports/" + name + ".csv"; }
  std::string time_file() const { return "ports/" + name + ".time.csv"; }
  std::string touchstone_file() const { return "ports/" + name + ".s1p"; }
};

// One lumped element (model/lumped.hpp): its values as configured (absent: not part of it).
struct LumpedReport {
  std::string name, field, circuit;  // field: "Ex", "Ey" or "Ez"; circuit: series or parallel
  Vec3 position_m;                   // the centre of its samples
  std::optional<double> resistance_ohm, inductance_h, capacitance_f;
  long samples_along = 1, samples_across = 1;
};

// One plane wave (model/plane_wave.hpp): as configured, and where its total-field box landed.
struct PlaneWaveReport {
  // field: "Ex" .. "Ez" (E's direction); direction: "+x" .. "-z"; an oblique wave's both as
  // vectors, "E along (0, 0, 1)" and "(0.7071, 0.7071, 0)" (plane_wave.hpp direction_text)
  std::string name, field, direction;
  std::string background;              // the material the wave travels in
  std::string waveform;                // the waveform's word
  double amplitude_v_per_m = 0, frequency_hz = 0;
  std::vector<double> box_m;           // lo x y z, hi x y z of the total-field box (2D: x y, x y)
  std::array<double, 3> k_hat{}, e_hat{};  // unit vectors of the travel and of E, x y z (scripts)
};

// One material with poles, or the surface mixtures' samples (model/dispersion.hpp).
struct DispersiveReport {
  std::string name;                // the material, or "surface mixtures"
  double eps_inf = 1, sigma = 0;   // sigma in S/m
  std::vector<PoleConfig> poles;   // as the keys give them (empty for the mixtures)
  std::size_t samples = 0;         // its E samples
};

// One device of the run (Backend::device_parts).
struct DeviceReport {
  std::string description;  // Backend::device_description() of that device
  std::vector<int> modes;   // cylindrical: the angular orders m it ran
};

struct RunReport {
  std::string status = "completed";  // "running" | "completed" | "non-finite" | "interrupted" | "failed"
  std::string reason;                // why it stopped early, one line ("" when completed)
  // What the run warned of on stderr ("warning: ..."), one line each: the model's (a shortened
  // run's dropped snapshots, a port box that floats, ...) and the end's (a port whose series has
  // not died down: port_files.hpp).
  std::vector<std::string> warnings;
  // Every file the run wrote into its folder but run.json (OutputDir::written_files, sorted), set when it
  // ends; unset while it runs. clfdtd replaces a folder only when it holds nothing else.
  std::optional<std::vector<std::string>> files;
  std::string backend;               // "opencl", "reference", "cuda"
  std::string device;                // Backend::device_description()
  std::vector<DeviceReport> devices; // one per device (several: a cylindrical model's modes
                                     // spread over the devices of device.select)
  std::string kernel_variant;        // Backend::kernel_variant()
  std::string model_file;            // "" when the model came from the command line only
  int dims = 3;                      // 2: a 2D model in the x-y plane (n z = 1, cell z = 1 m)
  std::string mode;                  // 2D: "tm" | "te" ("" in 3D)
  std::string equation;              // 2D: "maxwell" | "wave" ("" in 3D)
  bool cylindrical = false;          // a body of revolution: n = {nr, 1, nz}, d = {dr, 1, dz}
  std::vector<std::string> periodic;  // boundary.periodic: the axes ("x", "y", "z")
  std::vector<std::string> pmc;       // boundary.pmc: the axes whose low face is a magnetic wall
  std::array<double, 3> bloch_k{};    // boundary.bloch_k (rad/m; 0 0 0: none)
  std::vector<int> modes;            // cylindrical: the angular orders m simulated
  std::array<int, 3> n{};            // cells along x, y, z
  std::array<double, 3> cell_size_m{};
  double dt_s = 0;
  // geometry_fingerprint(): the meshed structure, which `clfdtd sparams` requires equal in the
  // runs it joins; empty (null in run.json) for a model without ports.
  std::string geometry_fingerprint;
  long steps = 0;                    // planned time steps
  long steps_done = 0;
  double loop_seconds = 0;           // wall time of the time loop
  // Cell updates per step: the cells; cylindrical: (r, z) cells times modes, each mode being
  // its own complex field set (a "cell-mode update").
  long long cell_updates_per_step = 0;
  double mcells_per_s = 0;           // cell_updates_per_step * steps_done / loop_seconds / 1e6
  std::size_t device_bytes = 0;
  std::vector<ProbeReport> probes;   // one per probe sample, CSV column order
  // one per [monitor.<name>], file order, then one per waveguide port (type "waveguide_port",
  // not listed under "monitors" in run.json)
  std::vector<MonitorReport> monitors;
  std::vector<PortReport> ports;     // one per source of type port, file order
  std::vector<LumpedReport> lumped;  // one per [lumped.*], file order
  std::vector<PlaneWaveReport> plane_waves;  // one per source of type plane_wave, file order
  std::vector<WaveguidePortReport> waveguide_ports;  // one per source of type waveguide
  std::vector<DispersiveReport> dispersive;   // materials with poles, then the mixtures
  std::vector<ResonanceReport> resonances;    // probe fields with a resonance band, column order
  int ranks = 1;                     // MPI processes of the run (docs/MPI.md)
  std::array<int, 3> parts{1, 1, 1}; // boxes along x, y, z
  std::vector<std::array<int, 6>> boxes;  // per rank: lo x y z, hi x y z (cells [lo, hi))
  // A run over ranks: the halo exchange's time (docs/MPI.md, "Overlap"); rank 0's and the
  // largest over the ranks.
  struct Halo {
    bool overlap = true;
    std::string path;
    double exchange_s = 0, exposed_s = 0, exchange_s_max = 0, exposed_s_max = 0;
  };
  std::optional<Halo> halo;
};

// Throughput in millions of cell updates per second; 0 when no time was measured.
double mcells_per_second(const std::array<int, 3>& n, long steps_done, double loop_seconds);
double mcells_per_second(double cell_updates_per_step, long steps_done, double loop_seconds);
// The cells a step updates: nx ny nz; cylindrical nr nz times the number of modes.
long long cell_updates_per_step(const SimulationModel& m);

// "fnv1a64:<16 hex digits>": the 64-bit FNV-1a hash of what defines the structure a run meshed,
// so that runs of one structure can be told from runs of another (`clfdtd sparams`): the kind of
// grid (dims, 2D field family and equation, cylindrical modes), cells and cell sizes, the material
// id of every meshed sample and of every cell centre, each material's eps_r, mu_r, sigma and PEC
// flag, the UPML's layers and profiles, and each port's samples, length, face and resistance.
// Not the time step or the steps (run.json has them, and sparams names which differs), nor the
// sources' waveforms and amplitudes, which differ between the runs of one S-matrix. A float is
// hashed by its bytes: equal models give equal fingerprints on every machine of one byte order.
std::string geometry_fingerprint(const SimulationModel& m);

// A report with the model's geometry, time step, planned steps, probe sample positions and
// monitors filled;
// the caller adds backend, device, timing and status.
RunReport report_from_model(const SimulationModel& m);

// Writes the report as pretty-printed JSON, with "program": "clfdtd" and the version; "dims",
// "coordinates" ("cartesian" | "cylindrical"), "periodic" and "pmc" (the axes, [] without) and
// "bloch_k_rad_per_m" (three numbers) always, "ports" (name, field, position_m,
// resistance_ohm, frequencies_hz, driven, samples_along, samples_across, file, time_file, and
// touchstone_file for the one driven port; empty without ports) always, "lumped" (name, field,
// position_m, circuit, resistance_ohm, inductance_h, capacitance_f (null where absent),
// samples_along, samples_across; empty without) always, "plane_waves" (name,
// field, direction, background, waveform, amplitude_V_per_m, frequency_hz, box_m) where there
// are any, "warnings" (a list, empty
// without) always, "geometry_fingerprint", "ranks" and "decomposition" ({"parts": [PX,
// PY, PZ], "boxes": [[lo x, y, z, hi x, y, z] per rank]}) always, "mode" and "equation" for a 2D
// model only, "modes" and each probe's "phi_deg" for a cylindrical model only; "devices" lists
// each device as {"device": description} with, for a cylindrical model, its "modes"; "halo" for a
// run over ranks ({"overlap", "path", "exchange_s", "exposed_s", "hidden_fraction" (1 -
// exposed/exchange; null without exchange time), and "max_over_ranks": {"exchange_s",
// "exposed_s"}}). Throws OutputError on a write error.
void write_run_json(const std::string& path, const RunReport& r);

}  // namespace clfdtd
