// `clfdtd modes`: the guided modes of a cross-section of a model's mesh (model/mode_solver.hpp,
// model/cross_section.hpp, docs/MODES.md): n_eff and beta printed, and on request a table and the
// fields for ParaView (output/mode_files.hpp).
#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "config/load_config.hpp"
#include "config/printable.hpp"
#include "errors.hpp"
#include "model/cross_section.hpp"
#include "model/mode_combination.hpp"
#include "model/field_layout.hpp"
#include "model/grid_geometry.hpp"
#include "model/host_memory.hpp"
#include "model/input_limits.hpp"
#include "model/mode_solver.hpp"
#include "model/number_text.hpp"
#include "model/simulation_model.hpp"
#include "output/mode_files.hpp"
#include "output/text_file.hpp"
#include "output/vti_writer.hpp"

namespace po = boost::program_options;

namespace clfdtd::cli {

namespace {

const char* kModesUsage =
    "usage: clfdtd modes <model.ini> --axis=x|y|z --position=\"X Y Z\" [--size=\"SU SV\"]\n"
    "                    [--frequency=F] [--count=N] [--output=<file.csv> [--overwrite]]\n"
    "                    [--section.key=value ...]\n"
    "Solves the modes that travel along --axis through the model's mesh on the node plane\n"
    "nearest --position, in a window of --size (m, along the two other axes in the order\n"
    "y z, z x or x y) centred on --position, whose edges are conductors (default: the whole\n"
    "plane inside the UPML layers). Prints each mode's n_eff and beta (the grid's own: the\n"
    "run propagates exactly these); --output writes the table and, beside it as <file>.vti,\n"
    "the fields for ParaView. docs/MODES.md\n\noptions";

// Numbers separated by spaces or commas.
std::vector<double> parse_numbers(const std::string& key, const std::string& text, std::size_t want) {
  std::string t = text;
  std::replace(t.begin(), t.end(), ',', ' ');
  std::istringstream in(t);
  std::vector<double> out;
  std::string word;
  while (in >> word) {
    try {
      std::size_t used = 0;
      const double v = std::stod(word, &used);
      if (used != word.size() || !std::isfinite(v)) throw std::invalid_argument(word);
      out.push_back(v);
    } catch (const std::exception&) {
      throw ConfigError("", 0, key, std::to_string(want) + " numbers, got '" + printable(text) + "'");
    }
  }
  if (out.size() != want)
    throw ConfigError("", 0, key, std::to_string(want) + " numbers, got '" + printable(text) + "'");
  return out;
}

// The share of a mode's |E|^2 on samples within `ring` cells of the window's edge.
double edge_share(const CrossSection& cs, const GuidedMode& m, int ring) {
  double all = 0, edge = 0;
  auto add = [&](double value, double i, double j) {
    const double e = value * value;
    all += e;
    if (i < ring || j < ring || i > cs.nu - ring || j > cs.nv - ring) edge += e;
  };
  for (int j = 0; j <= cs.nv; ++j)
    for (int i = 0; i <= cs.nu; ++i) {
      if (i < cs.nu) add(m.eu[i + static_cast<std::size_t>(cs.nu) * j], i + 0.5, j);
      if (j < cs.nv) add(m.ev[i + static_cast<std::size_t>(cs.nu + 1) * j], i, j + 0.5);
      add(m.ew[i + static_cast<std::size_t>(cs.nu + 1) * j], i, j);
    }
  return all > 0 ? edge / all : 0;
}

}  // namespace

int modes_command(const std::vector<std::string>& args) {
  po::options_description desc(kModesUsage);
  desc.add_options()
      ("help,h", "this text")
      ("axis", po::value<std::string>(), "the axis the modes travel along: x, y or z")
      ("position", po::value<std::string>(), "a point of the plane, the window's centre (m): X Y Z")
      ("size", po::value<std::string>(), "the window's extent along the two other axes (m): SU SV")
      ("frequency", po::value<double>(), "Hz (default: the model's first source's frequency)")
      ("count", po::value<int>()->default_value(4), "how many modes, 1..100 (largest beta first)")
      ("output", po::value<std::string>(), "write the table to this .csv file and the fields beside it (.vti)")
      ("overwrite", "replace those files if they exist");
  po::variables_map vm;
  std::vector<std::string> rest;
  try {
    const po::parsed_options parsed =
        po::command_line_parser(args).options(desc).allow_unregistered().run();
    po::store(parsed, vm);
    po::notify(vm);
    rest = po::collect_unrecognized(parsed.options, po::include_positional);
  } catch (const po::error& e) {
    throw ConfigError("", 0, "modes", std::string(e.what()) + " (see clfdtd modes --help)");
  }
  if (vm.count("help")) {
    std::ostringstream os;
    os << desc;
    std::fputs(os.str().c_str(), stdout);
    return 0;
  }
  std::string model_path;
  std::vector<std::string> overrides;
  for (const std::string& a : rest) {
    const bool option = a.rfind("--", 0) == 0;
    if (option && a.substr(0, a.find('=')).find('.') == std::string::npos)
      throw ConfigError("", 0, "modes", "unknown option '" + printable(a) +
                                            "' (clfdtd modes --help lists them; model keys go as --section.key=value)");
    if (model_path.empty() && !option) model_path = a;
    else overrides.push_back(a);
  }
  if (model_path.empty()) throw ConfigError("", 0, "modes", "the model file is missing (see clfdtd modes --help)");
  if (!vm.count("axis")) throw ConfigError("", 0, "--axis", "x, y or z (the axis the modes travel along)");
  const std::string axis_text = vm["axis"].as<std::string>();
  if (axis_text != "x" && axis_text != "y" && axis_text != "z")
    throw ConfigError("", 0, "--axis", "x, y or z, got '" + printable(axis_text) + "'");
  if (!vm.count("position")) throw ConfigError("", 0, "--position", "a point of the plane (m): X Y Z");
  const std::vector<double> position = parse_numbers("--position", vm["position"].as<std::string>(), 3);
  const int count = vm["count"].as<int>();
  if (count < 1 || count > 100) throw ConfigError("", 0, "--count", "1..100, got " + std::to_string(count));
  const bool overwrite = vm.count("overwrite") > 0;
  std::string csv_path, vti_path;
  if (vm.count("output")) {
    csv_path = vm["output"].as<std::string>();
    if (csv_path.size() < 5 || csv_path.compare(csv_path.size() - 4, 4, ".csv") != 0)
      throw ConfigError("", 0, "--output", "a file name ending in .csv, got '" + printable(csv_path) + "'");
    vti_path = csv_path.substr(0, csv_path.size() - 4) + ".vti";
    check_replaceable_file(csv_path, overwrite);
    if (vtk_available()) check_replaceable_file(vti_path, overwrite);
  } else if (overwrite) {
    throw ConfigError("", 0, "--overwrite", "only with --output");
  }

  const RunConfig cfg = load_config(model_path, overrides);
  if (cfg.grid.dims == 2 || cfg.grid.coordinates == Coordinates::Cylindrical)
    throw ConfigError(cfg.source_file, 0, "grid", "a 3D Cartesian model (clfdtd modes solves a 3D model's cross-section)");
  double f_hz = 0;
  if (vm.count("frequency")) {
    f_hz = vm["frequency"].as<double>();
    if (!(f_hz > 0) || !std::isfinite(f_hz)) throw ConfigError("", 0, "--frequency", "a frequency > 0 Hz");
  } else {
    if (cfg.sources.empty() && cfg.waveguide_ports.empty() && cfg.plane_waves.empty())
      throw ConfigError("", 0, "--frequency", "a frequency (Hz): the model has no source to take it from");
    f_hz = !cfg.waveguide_ports.empty() ? cfg.waveguide_ports.front().frequency_hz
           : !cfg.sources.empty()       ? cfg.sources.front().frequency_hz
                                        : cfg.plane_waves.front().frequency_hz;
  }
  // The mesh is all the solver needs: the model's sources, ports, probes and monitors are left out
  // (a port of a solved mode would run solves of its own).
  RunConfig mesh_only = cfg;
  mesh_only.sources.clear();
  mesh_only.plane_waves.clear();
  mesh_only.waveguide_ports.clear();
  mesh_only.probes.clear();
  mesh_only.monitors.clear();
  const SimulationModel model = SimulationModel::build(mesh_only);
  const GridGeometry& g = model.grid;

  ModeWindow w;
  w.axis = axis_text[0] - 'x';
  const int u = w.u(), v = w.v();
  const double p[3] = {position[0], position[1], position[2]};
  for (int a = 0; a < 3; ++a)
    if (p[a] < 0 || p[a] > g.n[a] * g.d[a])
      throw ConfigError("", 0, "--position", "a point inside the domain (0.." + number_text(g.n[a] * g.d[a]) +
                                                 " m along " + std::string(1, static_cast<char>('x' + a)) + ")");
  w.plane = static_cast<int>(std::lround(cells_of(p[w.axis], g.d[w.axis])));
  w.plane = std::min(w.plane, g.n[w.axis] - 1);
  const std::array<int, 6>& layers = model.upml.layers;
  if (vm.count("size")) {
    const std::vector<double> size = parse_numbers("--size", vm["size"].as<std::string>(), 2);
    const int axes[2] = {u, v};
    for (int t = 0; t < 2; ++t) {
      const int a = axes[t];
      if (!(size[t] > 0)) throw ConfigError("", 0, "--size", "two extents > 0 (m)");
      if (p[a] - size[t] / 2 < -1e-9 * g.d[a] || p[a] + size[t] / 2 > (g.n[a] + 1e-9) * g.d[a])
        throw ConfigError("", 0, "--size", "a window inside the domain: along " + std::string(1, static_cast<char>('x' + a)) +
                                               " it spans " + number_text((p[a] - size[t] / 2)) + ".." +
                                               number_text(p[a] + size[t] / 2) + " m of 0.." +
                                               number_text(g.n[a] * g.d[a]) + " m");
      w.lo[t] = static_cast<int>(std::lround(cells_of(p[a] - size[t] / 2, g.d[a])));
      w.hi[t] = static_cast<int>(std::lround(cells_of(p[a] + size[t] / 2, g.d[a])));
      if (w.lo[t] < 0 || w.hi[t] > g.n[a])
        throw ConfigError("", 0, "--size", "a window inside the domain: along " + std::string(1, static_cast<char>('x' + a)) +
                                               " it spans " + number_text((p[a] - size[t] / 2)) + ".." +
                                               number_text(p[a] + size[t] / 2) + " m of 0.." +
                                               number_text(g.n[a] * g.d[a]) + " m");
    }
  } else {
    w.lo = {layers[2 * u], layers[2 * v]};
    w.hi = {g.n[u] - layers[2 * u + 1], g.n[v] - layers[2 * v + 1]};
  }
  if (const std::string problem = window_size_problem(g, w); !problem.empty())
    throw ConfigError("", 0, "--size", problem);

  CrossSection cs;
  try {
    cs = model_cross_section(model, w);
  } catch (const std::invalid_argument& e) {
    throw ConfigError("", 0, "--position", e.what());
  }
  const double f_grid = grid_cutoff_frequency_hz(cfg, g);
  if (f_hz > f_grid)
    throw ConfigError("", 0, "--frequency", "at most the highest frequency the grid carries, " + number_text(f_grid) +
                                                " Hz, got " + number_text(f_hz));
  check_host_memory(static_cast<std::size_t>(mode_solver_bytes(cs, count)), "the mode solver");
  std::vector<GuidedMode> modes;
  try {
    modes = solve_modes_turned(cs, f_hz, count);  // modes of one beta in a fixed combination
  } catch (const std::runtime_error& e) {
    throw ConfigError("", 0, "--size", std::string("a window and frequency the mode solver can take (") + e.what() + ")");
  }

  const char axis_name = static_cast<char>('x' + w.axis);
  std::printf("modes      along %c, node plane %d (%c = %s m), window %d x %d cells (%c %s..%s m, %c %s..%s m), %s Hz\n",
              axis_name, w.plane, axis_name, number_text(w.plane * g.d[w.axis]).c_str(),
              cs.nu, cs.nv, static_cast<char>('x' + u), number_text(w.lo[0] * g.d[u]).c_str(),
              number_text(w.hi[0] * g.d[u]).c_str(), static_cast<char>('x' + v),
              number_text(w.lo[1] * g.d[v]).c_str(), number_text(w.hi[1] * g.d[v]).c_str(),
              number_text(f_hz).c_str());
  if (modes.empty()) {
    std::printf("modes      none travels at this frequency in this window\n");
  } else {
    std::printf("%-6s %-12s %-16s %-11s %s\n", "mode", "n_eff", "beta (rad/m)",
                (std::string("E along ") + static_cast<char>('x' + u)).c_str(), "same beta");
    for (std::size_t k = 0; k < modes.size(); ++k)
      std::printf("%-6zu %-12.8f %-16.10g %-11.4f %d\n", k + 1, modes[k].n_eff, modes[k].beta,
                  modes[k].u_fraction, modes[k].degenerate);
  }
  if (static_cast<int>(modes.size()) < count && !modes.empty())
    std::printf("modes      %zu of the %d asked for were found travelling here\n", modes.size(), count);
  std::fflush(stdout);  // the table before any warning about it
  if (const std::string where = window_in_upml(g, w, layers); !where.empty())
    std::fprintf(stderr, "warning: the window reaches into the UPML layers (%s), whose cells the solver takes as "
                         "their material without the absorber (a run's port refuses such a window)\n",
                 where.c_str());
  if (const std::string change = guide_change(g, model.layout, model.ids, w); !change.empty())
    std::fprintf(stderr, "warning: the guide is not the same a cell before and after the plane (%s): the modes "
                         "are those of a guide uniform along %c with this plane's cross-section (a port refuses "
                         "such a plane)\n",
                 change.c_str(), axis_name);
  // The window's edge is a conductor to the solver; where the mesh has none there, a mode with
  // much of its field near the edge is the open guide's mode squeezed into a box.
  std::size_t edge_samples = 0, edge_conductors = 0;
  for (int i = 0; i < cs.nu; ++i)
    for (const int j : {0, cs.nv}) {
      ++edge_samples;
      edge_conductors += cs.eps_u[i + static_cast<std::size_t>(cs.nu) * j] == 0;
    }
  for (int j = 0; j < cs.nv; ++j)
    for (const int i : {0, cs.nu}) {
      ++edge_samples;
      edge_conductors += cs.eps_v[i + static_cast<std::size_t>(cs.nu + 1) * j] == 0;
    }
  const bool open_edge = 2 * edge_conductors < edge_samples;
  for (std::size_t k = 0; k < modes.size() && open_edge; ++k) {
    const double share = edge_share(cs, modes[k], 3);
    if (share > 1e-2)
      std::fprintf(stderr, "warning: mode %zu has %s%% of its |E|^2 within 3 cells of the window's edge, "
                           "which is a conductor to the solver but not in the model: a larger --size gives the mode of the open guide\n",
                   k + 1, number_text(100 * share, 3).c_str());
  }
  if (!csv_path.empty()) {
    const std::filesystem::path parent = std::filesystem::path(csv_path).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);  // only missing ones
    if (ec) throw OutputError("create the folder", printable(parent.string()), ec.message());
    replace_text_file(csv_path, modes_csv_text(modes, f_hz));
    std::printf("modes      table: %s\n", csv_path.c_str());
    if (vtk_available()) {
      write_modes_vti(vti_path, g, w, cs, modes, f_hz);
      std::printf("modes      fields: %s\n", vti_path.c_str());
    } else {
      std::printf("modes      fields: not written (this build has no VTK)\n");
    }
  }
  return 0;
}

}  // namespace clfdtd::cli
