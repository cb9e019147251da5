// The S-matrix from port runs: see port_network.hpp.
#include "output/port_network.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "config/printable.hpp"
#include "errors.hpp"

namespace clfdtd {

namespace {

struct PortColumns {
  std::string name;
  double resistance_ohm = 0;  // a waveguide port's: 0 (its power waves take the mode's impedance)
  std::vector<double> frequencies_hz;
  bool driven = false;
  std::vector<std::complex<double>> s;  // S11 of a driven port, S21 of one that receives
};

// Equal to the digits run.json keeps: default bands come from each port's own source table.
bool same_frequencies(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (std::fabs(a[k] - b[k]) > 1e-12 * std::fabs(b[k])) return false;
  return true;
}

// What must agree between the runs of one S-matrix beside the ports: the grid, the time step, the
// series' length and the meshed structure (run.json's geometry_fingerprint). Sources' amplitudes
// may differ; nothing else may.
struct RunStructure {
  std::vector<long> cells;
  std::vector<double> cell_size_m;
  double dt_s = 0;
  long steps = 0;
  std::string fingerprint;
};

struct RunPorts {
  std::string dir;
  std::vector<PortColumns> ports;
  std::size_t driven = 0;  // index of its one driven port
  RunStructure structure;
};

ConfigError bad(const std::string& where, const std::string& what) {
  return ConfigError(printable(where), 0, "", what);
}

std::string read_whole(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw bad(path, "cannot read " + what);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(line);
  while (std::getline(in, part, sep)) parts.push_back(part);
  return parts;
}

// One port's file: S11 (a driven port) or S21 (a port that receives, with one driven port) by
// frequency; the frequencies must be those of run.json.
void read_port_csv(const std::string& path, PortColumns& port) {
  std::istringstream in(read_whole(path, "the port's spectrum"));
  std::string line;
  if (!std::getline(in, line)) throw bad(path, "empty");
  const std::vector<std::string> header = split(line, ',');
  auto column = [&](const std::string& name) -> long {
    for (std::size_t c = 0; c < header.size(); ++c)
      if (header[c] == name) return static_cast<long>(c);
    return -1;
  };
  port.driven = column("s11_re") >= 0;
  const long re = port.driven ? column("s11_re") : column("s21_re");
  const long im = port.driven ? column("s11_im") : column("s21_im");
  if (re < 0 || im < 0 || column("frequency_hz") != 0)
    throw bad(path, "no s11 or s21 columns: a port that receives has S21 only where the run "
                    "drives exactly one port");
  std::size_t row = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const std::vector<std::string> cells = split(line, ',');
    std::vector<double> v;
    for (const std::string& c : cells) {
      char* end = nullptr;
      v.push_back(std::strtod(c.c_str(), &end));
      if (end == c.c_str()) throw bad(path, "row " + std::to_string(row + 1) + " is not numbers");
    }
    if (v.size() != header.size())
      throw bad(path, "row " + std::to_string(row + 1) + " has " + std::to_string(v.size()) +
                          " values for " + std::to_string(header.size()) + " columns");
    if (row >= port.frequencies_hz.size() ||
        std::fabs(v[0] - port.frequencies_hz[row]) > 1e-8 * port.frequencies_hz[row])
      throw bad(path, "its frequencies are not run.json's");
    port.s.emplace_back(v[static_cast<std::size_t>(re)], v[static_cast<std::size_t>(im)]);
    ++row;
  }
  if (row != port.frequencies_hz.size())
    throw bad(path, std::to_string(row) + " rows for " +
                        std::to_string(port.frequencies_hz.size()) + " frequencies in run.json");
}

RunPorts read_run(const std::string& dir) {
  RunPorts run;
  run.dir = dir;
  const std::string json_path = (std::filesystem::path(dir) / "run.json").string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(json_path, ec))
    throw bad(dir, "not a clfdtd run folder (no run.json)");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_whole(json_path, "run.json"));
  } catch (const nlohmann::json::exception& e) {
    throw bad(json_path, std::string("not valid JSON: ") + e.what());
  }
  try {
    if (j.value("program", std::string()) != "clfdtd") throw bad(json_path, "not a clfdtd run");
    const std::string status = j.value("status", std::string());
    if (status != "completed")
      throw bad(json_path, "the run did not complete (status '" + status +
                               "'): its spectra come from the steps it did; run it to its end");
    // Written by every run with ports since sparams checks it (null without ports); a run.json
    // without it cannot say whether the runs are of one structure.
    if (j.contains("geometry_fingerprint") && j["geometry_fingerprint"].is_null())
      throw bad(json_path, "the run has no ports");
    if (!j.contains("geometry_fingerprint") || !j["geometry_fingerprint"].is_string())
      throw bad(json_path,
                "it has no geometry_fingerprint (a run of an earlier clfdtd version), so sparams "
                "cannot check that the runs are of one structure: re-run it with this version");
    run.structure.cells = j.at("cells").get<std::vector<long>>();
    run.structure.cell_size_m = j.at("cell_size_m").get<std::vector<double>>();
    run.structure.dt_s = j.at("dt_s").get<double>();
    run.structure.steps = j.at("steps_planned").get<long>();
    run.structure.fingerprint = j["geometry_fingerprint"].get<std::string>();
    for (const nlohmann::json& p : j.at("ports")) {
      PortColumns port;
      port.name = p.at("name").get<std::string>();
      port.resistance_ohm = p.at("resistance_ohm").get<double>();
      port.frequencies_hz = p.at("frequencies_hz").get<std::vector<double>>();
      read_port_csv((std::filesystem::path(dir) / p.at("file").get<std::string>()).string(), port);
      run.ports.push_back(std::move(port));
    }
    // Waveguide ports (docs/PORTS.md "Waveguide ports") after the lumped ones: their S columns
    // have the same names, in the same measure (power waves).
    if (j.contains("waveguide_ports")) {
      for (const nlohmann::json& p : j["waveguide_ports"]) {
        PortColumns port;
        port.name = p.at("name").get<std::string>();
        port.frequencies_hz = p.at("frequencies_hz").get<std::vector<double>>();
        read_port_csv((std::filesystem::path(dir) / p.at("file").get<std::string>()).string(), port);
        run.ports.push_back(std::move(port));
      }
    }
  } catch (const nlohmann::json::exception& e) {
    throw bad(json_path, std::string("not a clfdtd run.json: ") + e.what());
  }
  if (run.ports.empty())
    throw bad(dir, "the run has no ports ([source.<name>] type = port or waveguide)");
  std::size_t driven = 0;
  for (std::size_t k = 0; k < run.ports.size(); ++k)
    if (run.ports[k].driven) {
      ++driven;
      run.driven = k;
    }
  if (driven != 1)
    throw bad(dir, "the run drives " + std::to_string(driven) +
                       " ports: each run must drive one, with amplitude = 0 on the others");
  for (const PortColumns& p : run.ports)
    if (!same_frequencies(p.frequencies_hz, run.ports.front().frequencies_hz))
      throw bad(dir, "port '" + p.name + "' has other frequencies than port '" +
                         run.ports.front().name + "': give every port the same `frequencies`");
  return run;
}

std::string joined(const std::vector<long>& v, const char* sep) {
  std::string s;
  for (long x : v) s += (s.empty() ? "" : sep) + std::to_string(x);
  return s;
}

std::string joined(const std::vector<double>& v, const char* sep) {
  std::string s;
  for (double x : v) s += (s.empty() ? "" : sep) + touchstone_number(x);
  return s;
}

bool same_values(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (std::fabs(a[k] - b[k]) > 1e-12 * std::fabs(b[k])) return false;
  return true;
}

// The runs must be of one structure, grid, time step and length: their S-parameters are columns
// of one matrix only then. Names every difference.
void check_same_structure(const RunPorts& first, const RunPorts& run) {
  const RunStructure &a = run.structure, &b = first.structure;
  std::vector<std::string> differ;
  if (a.cells != b.cells)
    differ.push_back("cells " + joined(a.cells, " x ") + " here, " + joined(b.cells, " x ") + " there");
  if (!same_values(a.cell_size_m, b.cell_size_m))
    differ.push_back("cell size " + joined(a.cell_size_m, " x ") + " m here, " +
                     joined(b.cell_size_m, " x ") + " m there");
  if (!same_values({a.dt_s}, {b.dt_s}))
    differ.push_back("time step " + touchstone_number(a.dt_s) + " s here, " +
                     touchstone_number(b.dt_s) + " s there");
  if (a.steps != b.steps)
    differ.push_back("time.steps " + std::to_string(a.steps) + " here, " + std::to_string(b.steps) +
                     " there (spectra of series of other lengths)");
  if (a.fingerprint != b.fingerprint)
    differ.push_back("the meshed structure (objects, materials, boundary or ports: "
                     "geometry_fingerprint " + a.fingerprint + " here, " + b.fingerprint + " there)");
  if (differ.empty()) return;
  std::string list;
  for (const std::string& d : differ) list += (list.empty() ? "" : "; ") + d;
  throw bad(run.dir, "it is not a run of the structure of " + first.dir + ": " + list +
                         ". The runs of one S-matrix differ only in which port is driven "
                         "(the sources' amplitudes)");
}

// The runs must describe the same ports: names in the same order, resistances and frequencies.
void check_same_ports(const RunPorts& first, const RunPorts& run) {
  auto names = [](const RunPorts& r) {
    std::string s;
    for (const PortColumns& p : r.ports) s += (s.empty() ? "" : " ") + p.name;
    return s;
  };
  if (names(first) != names(run))
    throw bad(run.dir, "its ports (" + names(run) + ") are not those of " + first.dir + " (" +
                           names(first) + ")");
  for (std::size_t k = 0; k < run.ports.size(); ++k) {
    if (run.ports[k].resistance_ohm != first.ports[k].resistance_ohm)
      throw bad(run.dir, "port '" + run.ports[k].name + "' has another resistance than in " +
                             first.dir);
    if (!same_frequencies(run.ports[k].frequencies_hz, first.ports[k].frequencies_hz))
      throw bad(run.dir, "port '" + run.ports[k].name + "' has other frequencies than in " +
                             first.dir);
  }
}

}  // namespace

NetworkData read_port_network(const std::vector<std::string>& run_dirs) {
  if (run_dirs.empty()) throw ConfigError("", 0, "", "no run folders given");
  std::vector<RunPorts> runs;
  for (const std::string& dir : run_dirs) runs.push_back(read_run(dir));
  const RunPorts& first = runs.front();
  const std::size_t n = first.ports.size();
  std::map<std::size_t, std::size_t> run_of_port;  // driven port -> run
  for (std::size_t r = 0; r < runs.size(); ++r) {
    check_same_ports(first, runs[r]);
    check_same_structure(first, runs[r]);
    const auto [at, added] = run_of_port.emplace(runs[r].driven, r);
    if (!added)
      throw bad(runs[r].dir, "it drives port '" + first.ports[runs[r].driven].name + "', as " +
                                 runs[at->second].dir + " does: give each port one run");
  }
  std::string missing;
  for (std::size_t k = 0; k < n; ++k)
    if (!run_of_port.count(k)) missing += (missing.empty() ? "'" : ", '") + first.ports[k].name + "'";
  if (!missing.empty())
    throw ConfigError("", 0, "",
                      "no run drives port " + missing +
                          ": the S-matrix needs one run per port, driving that port alone "
                          "(amplitude = 0 on the others)");

  // Waveguide ports' power waves are referred to each mode's wave impedance, which depends on
  // frequency: the Touchstone file's reference for them (50 ohm) is nominal, as its comment says.
  auto guided = [](const PortColumns& p) { return p.resistance_ohm == 0; };
  NetworkData d;
  for (const PortColumns& p : first.ports) {
    d.port_names.push_back(p.name);
    d.reference_ohm.push_back(guided(p) ? 50.0 : p.resistance_ohm);
  }
  d.frequencies_hz = first.ports.front().frequencies_hz;
  d.s.assign(d.frequencies_hz.size(), std::vector<std::complex<double>>(n * n));
  for (std::size_t j = 0; j < n; ++j) {
    const RunPorts& run = runs[run_of_port.at(j)];
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t f = 0; f < d.frequencies_hz.size(); ++f)
        d.s[f][i * n + j] = run.ports[i].s[f];
  }
  std::string ports;
  bool any_guided = false, any_lumped = false;
  for (std::size_t k = 0; k < n; ++k) {
    const PortColumns& p = first.ports[k];
    any_guided = any_guided || guided(p);
    any_lumped = any_lumped || !guided(p);
    ports += (k ? ", " : "") + std::to_string(k + 1) + " = " + p.name +
             (guided(p) ? std::string(" (waveguide)") : " (" + touchstone_number(p.resistance_ohm) + " ohm)");
  }
  d.comments.push_back("clfdtd " CLFDTD_VERSION " S-parameters of " +
                       std::string(any_guided && any_lumped ? "lumped and waveguide" : any_guided ? "waveguide" : "lumped") +
                       " ports; port " + ports);
  if (any_guided)
    d.comments.push_back("waveguide ports: power waves referred to each port's mode wave impedance; "
                         "their 50 ohm reference below is nominal");
  for (std::size_t j = 0; j < n; ++j)
    d.comments.push_back("column " + std::to_string(j + 1) + " from the run in " +
                         printable(runs[run_of_port.at(j)].dir));
  return d;
}

}  // namespace clfdtd
