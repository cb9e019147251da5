#include "config/load_config.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cerrno>
#include <cstring>
#include <cctype>
#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <system_error>

#include "config/cyl_checks.hpp"
#include "config/options.hpp"
#include "config/plane_checks.hpp"
#include "config/printable.hpp"
#include "errors.hpp"
#include "geometry/mesh_file.hpp"
#include "geometry/triangle_solid.hpp"
#include "geometry/voxel_file.hpp"
#include "geometry/voxel_solid.hpp"

namespace po = boost::program_options;

namespace clfdtd {

namespace {

// One key's raw text and where it came from.
struct Entry {
  std::string value;
  int line = 0;
  bool cli = false;
};

// The model as raw text: file keys merged with command-line overrides, before any conversion.
struct Raw {
  std::string file;
  std::map<std::string, Entry> values;  // full key -> value
  std::map<std::string, int> sections;  // "grid", "material.glass" -> header line (0: command line)
  std::vector<std::string> order;       // sections in order of first appearance (object order!)
  bool quiet = false;
};

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::string kind_of(const std::string& key) { return key.substr(0, key.find('.')); }

// Throws unless `key` is in the option table. The key is the user's text: escaped in the message.
void check_key(const std::string& file, int line, const std::string& key) {
  std::string problem = key_problem(key);
  if (!problem.empty())
    throw ConfigError(file, line, printable(key), printable(problem, std::string::npos));
}

void add_section(Raw& raw, const std::string& section, int line) {
  if (raw.sections.emplace(section, line).second) raw.order.push_back(section);
}

// Boost does not report lines, so a plain scan finds them and checks the syntax first. It follows
// Boost's own rules ('#' to the end of the line is dropped; '[...]' is a header; else the first
// '=' splits key and value) so both see the same keys.
void scan_file(const std::string& text, Raw& raw) {
  std::istringstream in(text);
  std::string line, section;
  for (int n = 1; std::getline(in, line); ++n) {
    line = trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    if (line.front() == '[' && line.back() == ']') {
      section = line.substr(1, line.size() - 2);
      std::string problem = section_problem(section);
      if (!problem.empty())
        throw ConfigError(raw.file, n, printable(section), printable(problem, std::string::npos));
      auto seen = raw.sections.find(section);
      if (seen != raw.sections.end())
        throw ConfigError(raw.file, n, section,
                          "each section once (also at line " + std::to_string(seen->second) + ")");
      add_section(raw, section, n);
    } else if (auto eq = line.find('='); eq != std::string::npos) {
      std::string name = trim(line.substr(0, eq));
      if (section.empty())
        throw ConfigError(raw.file, n, printable(name), "a [section] header before the first key");
      std::string key = section + "." + name;
      check_key(raw.file, n, key);
      auto seen = raw.values.find(key);
      if (seen != raw.values.end())
        throw ConfigError(
            raw.file, n, key,
            "each key once (first given at line " + std::to_string(seen->second.line) + ")");
      raw.values[key] = Entry{"", n, false};
    } else {
      throw ConfigError(raw.file, n, "",
                        "a [section] header or a 'key = value' line, got '" + printable(line) + "'");
    }
  }
}

// A line whose first character past blanks is ';' is a comment, as in other INI files; Boost
// knows only '#', so such lines are blanked (their numbers kept) before either parser sees them.
// A ';' later in a line stays part of it.
std::string blank_semicolon_lines(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] != ';') out += line;
    out += '\n';
  }
  return out;
}

void read_file_values(const std::string& file_text, Raw& raw) {
  const std::string text = blank_semicolon_lines(file_text);
  scan_file(text, raw);
  // The section names are the user's, so nothing is registered: every key comes back unregistered.
  po::options_description none;
  std::istringstream in(text);
  try {
    for (const auto& opt : po::parse_config_file(in, none, true).options) {
      auto it = raw.values.find(opt.string_key);
      if (it == raw.values.end())  // cannot happen while scan_file mirrors Boost's rules
        throw ConfigError(raw.file, 0, opt.string_key, "a key found by the line scan");
      it->second.value = opt.value.empty() ? "" : opt.value.front();
    }
  } catch (const po::error& e) {
    throw ConfigError(raw.file, 0, "", "a valid model file: " + printable(e.what(), std::string::npos));
  }
}

// Command-line tokens after the model path, parsed by Boost with nothing registered (keys are as
// open-ended as in the file); values given as separate tokens are joined to their option here.
void apply_args(const std::vector<std::string>& args, Raw& raw) {
  std::vector<std::string> tokens;
  for (const auto& a : args) {
    if (a.size() > 3 && a.compare(0, 2, "--") == 0 && a.back() == '=') {
      tokens.push_back(a.substr(0, a.size() - 1));  // Boost rejects "--key=": pass "" separately
      tokens.push_back("");
    } else {
      tokens.push_back(a);
    }
  }
  namespace st = po::command_line_style;
  po::options_description none;
  po::parsed_options parsed(&none);
  try {
    // No short options, so a negative number is a value, not an option.
    parsed = po::command_line_parser(tokens)
                 .options(none)
                 .style(st::allow_long | st::long_allow_adjacent | st::long_allow_next)
                 .allow_unregistered()
                 .run();
  } catch (const po::error& e) {
    throw ConfigError("", 0, "", "valid options: " + printable(e.what(), std::string::npos));
  }
  struct Opt {
    std::string key, value;
    bool has_value = false, adjacent = false;
  };
  std::vector<Opt> opts;
  for (const auto& o : parsed.options) {
    std::string v = o.value.empty() ? "" : o.value.front();
    if (!o.string_key.empty()) {
      opts.push_back({o.string_key, v, !o.value.empty(), !o.value.empty()});
    } else if (!opts.empty() && opts.back().key == "quiet") {
      throw ConfigError("", 0, "quiet", "no value: --quiet is a flag, got '" + printable(v) + "'");
    } else if (opts.empty() || opts.back().adjacent) {
      throw ConfigError("", 0, "", "an option --section.key=value, got '" + printable(v) + "'");
    } else {
      opts.back().value += (opts.back().has_value ? " " : "") + v;
      opts.back().has_value = true;
    }
  }
  std::map<std::string, std::string> aliases;
  for (const auto& a : command_line_aliases())
    if (!a.key.empty()) aliases[a.option] = a.key;
  std::set<std::string> given;
  for (auto& o : opts) {
    if (o.key == "quiet") {
      if (o.has_value) throw ConfigError("", 0, "quiet", "no value: --quiet is a flag");
      raw.quiet = true;
      continue;
    }
    if (aliases.count(o.key)) o.key = aliases.at(o.key);
    if (o.key.find('.') == std::string::npos)
      throw ConfigError("", 0, printable(o.key),
                        "an option --section.key=value, --device, --backend, --workgroup, --variant or "
                        "--quiet");
    check_key("", 0, o.key);
    if (!o.has_value) throw ConfigError("", 0, o.key, "a value: --" + o.key + "=value");
    if (!given.insert(o.key).second)
      throw ConfigError("", 0, o.key, "each key once on the command line");
    add_section(raw, o.key.substr(0, o.key.rfind('.')), 0);
    // time.steps and time.duration exclude each other: the command line's choice replaces the
    // file's.
    for (const char* k : {"time.steps", "time.duration"})
      if (o.key != k && o.key.rfind("time.", 0) == 0 && raw.values.count(k) && !raw.values[k].cli)
        raw.values.erase(k);
    raw.values[o.key] = Entry{trim(o.value), 0, true};
  }
}

// Typed access to Raw with checks against the option table; every failure names file and line.
class Reader {
public:
  explicit Reader(const Raw& raw) : raw_(raw) {}
  bool has(const std::string& key) const { return raw_.values.count(key) > 0; }
  // The key's value came from the command line.
  bool from_command_line(const std::string& key) const {
    auto it = raw_.values.find(key);
    return it != raw_.values.end() && it->second.cli;
  }
  const std::string& value(const std::string& key) const { return raw_.values.at(key).value; }

  [[noreturn]] void fail(const std::string& key, const std::string& expected) const {
    auto it = raw_.values.find(key);
    if (it != raw_.values.end())
      throw ConfigError(it->second.cli ? "" : raw_.file, it->second.line, key, expected);
    // A missing key or a whole section (sec = "material.pec"): point at the section header.
    auto s = raw_.sections.find(key);
    if (s == raw_.sections.end()) s = raw_.sections.find(key.substr(0, key.rfind('.')));
    if (s == raw_.sections.end()) throw ConfigError(raw_.file, 0, key, expected);
    // A section that only the command line named is the command line's fault, and often a
    // misspelt name of one the file has.
    if (s->second > 0) throw ConfigError(raw_.file, s->second, key, expected);
    throw ConfigError("", 0, key, expected + new_section_hint(s->first));
  }
  // "; the command line names a new [source.fed] (did you mean [source.feed]?)" when the file
  // has a section of that kind within two edits of it.
  std::string new_section_hint(const std::string& section) const {
    const auto dot = section.find('.');
    if (dot == std::string::npos) return "";
    const std::string kind = section.substr(0, dot + 1);
    std::vector<std::string> names;
    for (const auto& [sec, line] : raw_.sections)
      if (line > 0 && sec.compare(0, kind.size(), kind) == 0) names.push_back(sec.substr(kind.size()));
    const std::string near = closest_name(section.substr(dot + 1), names);
    if (near.empty()) return "";
    return "; the command line names a new [" + section + "] (did you mean [" + kind + near + "]?)";
  }
  // Fails with `expected` and the value as given unless `ok`.
  void check(bool ok, const std::string& key, const std::string& expected) const {
    if (!ok) fail(key, expected + (has(key) ? ", got '" + printable(value(key)) + "'" : ""));
  }
  void require(const std::string& key, const std::string& why = "") const {
    if (!has(key))
      fail(key, "a value (" + describe_value(spec(key)) + unit(key) + "): required" + why);
  }

  // The numbers of a Number or Integer key, each checked against the table's range.
  std::vector<double> numbers(const std::string& key) const {
    std::vector<double> out;
    for (const auto& t : tokens(key)) {
      auto v = parse_number(t, spec(key).type == ValueType::Integer);
      check(v.has_value() && spec(key).range.contains(*v), key,
            describe_value_in_range(spec(key)));
      out.push_back(*v);
    }
    return out;
  }
  double number(const std::string& key, double fallback) const {
    return has(key) ? numbers(key).front() : fallback;
  }
  std::vector<long> integers(const std::string& key) const {
    std::vector<long> out;
    for (double v : numbers(key)) out.push_back(static_cast<long>(v));
    return out;
  }
  // Indices into the spec's words, each at most once.
  std::vector<int> words(const std::string& key) const {
    std::vector<int> out;
    for (const auto& t : tokens(key)) {
      int idx = word_index(spec(key), t);
      check(idx >= 0, key, describe_value(spec(key)));
      check(std::find(out.begin(), out.end(), idx) == out.end(), key, "each word once");
      out.push_back(idx);
    }
    return out;
  }
  int word(const std::string& key, int fallback) const {
    return has(key) ? words(key).front() : fallback;
  }
  // Free text (a name, a directory), trimmed; it is echoed in messages and used in paths, so
  // control characters are refused.
  std::string text(const std::string& key) const {
    check(all_printable(value(key)), key, "text without control characters");
    return trim(value(key));
  }

  // A list of names (a Text key with a count above 1), each checked as text().
  std::vector<std::string> names(const std::string& key) const {
    check(all_printable(value(key)), key, "text without control characters");
    return tokens(key);
  }

private:
  static const OptionSpec& spec(const std::string& key) { return *find_option(key); }
  static std::string unit(const std::string& key) {
    return spec(key).unit.empty() ? "" : ", " + spec(key).unit;
  }
  // The value split at spaces and commas, its count checked against the table.
  std::vector<std::string> tokens(const std::string& key) const {
    auto out = split_value(value(key));
    check(count_allowed(spec(key), out.size()), key, describe_value(spec(key)));
    return out;
  }
  const Raw& raw_;
};

Vec3 vec3(const std::vector<double>& v) { return Vec3{v[0], v[1], v[2]}; }

// A point or extent of a model with `dims` axes: 2D takes x y (z = 0), 3D x y z.
Vec3 model_vec(const Reader& r, const std::string& key, int dims) {
  const auto v = r.numbers(key);
  r.check(static_cast<int>(v.size()) == dims, key,
          dims == 2 ? "two numbers x y in a 2D model (grid.size has two)"
                    : "three numbers x y z in a 3D model (grid.size has three)");
  return dims == 2 ? Vec3{v[0], v[1], 0} : vec3(v);
}

// A plane wave's direction: one of +x .. -z, or a vector of `dims` numbers. A vector along an
// axis is that axis' word; any other is normalised into direction_vector.
// A waveguide port's mode: te<m><n> / tm<m><n> (two digits) or te<m>,<n>, any case.
// Or a number k >= 1: the k-th mode the mode solver finds (mode_solved).
void read_waveguide_mode(const Reader& r, const std::string& key, SourceConfig& s) {
  if (!r.has(key)) return;  // TE10
  std::string word = r.text(key);
  for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!word.empty() && std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    r.check(word.size() <= 3 && std::stoi(word) >= 1 && std::stoi(word) <= 100, key,
            "a solved mode's number 1..100 (1: the largest beta), got " + word);
    s.mode_solved = std::stoi(word);
    return;
  }
  const std::string expected = "te<m><n> or tm<m><n> (two digits, e.g. te10, tm11) or te<m>,<n> (e.g. te12,3), "
                               "or a solved mode's number 1..100";
  r.check(word.size() >= 4 && (word.rfind("te", 0) == 0 || word.rfind("tm", 0) == 0), key, expected);
  const std::string digits = word.substr(2);
  int m = -1, n = -1;
  const std::size_t comma = digits.find(',');
  auto number = [&](const std::string& t) {
    r.check(!t.empty() && t.size() <= 4 && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }),
            key, expected);
    return std::stoi(t);
  };
  if (comma == std::string::npos) {
    r.check(digits.size() == 2, key, expected);
    m = number(digits.substr(0, 1));
    n = number(digits.substr(1, 1));
  } else {
    m = number(digits.substr(0, comma));
    n = number(digits.substr(comma + 1));
  }
  s.mode_te = word[1] == 'e';
  s.mode_m = m;
  s.mode_n = n;
  r.check(s.mode_te ? m + n > 0 : m >= 1 && n >= 1, key,
          s.mode_te ? "a TE mode with m + n > 0 (TE00 carries no field)"
                    : "a TM mode with m >= 1 and n >= 1 (got TM" + std::to_string(m) + std::to_string(n) + ")");
}

void read_direction(const Reader& r, const std::string& key, int dims, SourceConfig& s) {
  static const char* words[] = {"+x", "-x", "+y", "-y", "+z", "-z"};
  const std::vector<std::string> tokens = split_value(r.text(key));
  const std::string expected =
      dims == 2 ? "+x, -x, +y, -y, or a vector x y in the plane"
                : "+x, -x, +y, -y, +z, -z, or a vector x y z";
  if (tokens.size() == 1) {
    std::string word = tokens[0];
    for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (int d = 0; d < 6; ++d)
      if (word == words[d]) {
        s.direction_axis = d / 2;
        s.direction_sign = d % 2 == 0 ? 1 : -1;
        return;
      }
    r.check(false, key, expected);
  }
  r.check(static_cast<int>(tokens.size()) == dims, key, expected);
  Vec3 k{0, 0, 0};
  double length = 0;
  for (int a = 0; a < dims; ++a) {
    const auto v = parse_number(tokens[static_cast<std::size_t>(a)], false);
    r.check(v.has_value() && std::fabs(*v) <= 1e9, key, expected + " (each at most 1e9 in size)");
    k[a] = *v;
    length = std::hypot(length, *v);
  }
  r.check(length > 0, key, expected + ", not of length 0");
  // A component below 1e-6 of the length is taken as 0: such a vector means the axis (which
  // cancels outside the box to rounding), not an oblique wave 2e-4 degrees off it.
  int along = -1, nonzero = 0;
  double kept = 0;
  for (int a = 0; a < 3; ++a) {
    if (std::fabs(k[a]) < 1e-6 * length) k[a] = 0;
    kept = std::hypot(kept, k[a]);
  }
  for (int a = 0; a < 3; ++a) {
    k[a] /= kept;
    if (k[a] != 0) {
      ++nonzero;
      along = a;
    }
  }
  if (nonzero == 1) {  // along an axis: the exact axis-aligned wave
    s.direction_axis = along;
    s.direction_sign = k[along] > 0 ? 1 : -1;
    return;
  }
  s.direction_vector = k;
}

std::string fmt(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

bool cylindrical(const GridConfig& g) { return g.coordinates == Coordinates::Cylindrical; }

// Cylindrical: an (r, z) pair (object centre and size) as {r, 0, z}.
Vec3 rz_vec(const Reader& r, const std::string& key) {
  const auto v = r.numbers(key);
  r.check(v.size() == 2, key, "two numbers r z in a cylindrical model");
  return Vec3{v[0], 0, v[1]};
}

// Cylindrical: a point r phi z (phi in degrees) as {r, phi, z}; check_cyl_config() checks that
// it lies in the domain and phi in [-360, 360].
Vec3 cyl_point(const Reader& r, const std::string& key) {
  r.require(key);
  const auto v = r.numbers(key);
  r.check(v.size() == 3, key, "three numbers r phi z in a cylindrical model (phi in degrees)");
  return vec3(v);
}

// A position (object centre, source, probe) must lie in the closed domain [0, size] (2D: the
// plane, z = 0).
Vec3 point_in_domain(const Reader& r, const std::string& key, const GridConfig& g) {
  r.require(key);
  if (cylindrical(g)) {
    const Vec3 p = rz_vec(r, key);
    r.check(p.x >= 0 && p.x <= g.size_m.x && p.z >= 0 && p.z <= g.size_m.z, key,
            "a point r z with 0 <= r <= " + fmt(g.size_m.x) + " m and 0 <= z <= " +
                fmt(g.size_m.z) + " m");
    return p;
  }
  const Vec3 p = model_vec(r, key, g.dims);
  const Vec3& size = g.size_m;
  bool inside = true;
  for (int a = 0; a < g.dims; ++a) inside = inside && p[a] >= 0 && p[a] <= size[a];
  r.check(inside, key,
          "a point inside the domain [0, " + fmt(size.x) + "] x [0, " + fmt(size.y) +
              (g.dims == 2 ? "" : "] x [0, " + fmt(size.z)) + "] m");
  return p;
}

std::vector<std::string> sections_of(const Raw& raw, const std::string& kind) {
  std::vector<std::string> out;
  for (const auto& s : raw.order)
    if (kind_of(s) == kind && s != kind) out.push_back(s);
  return out;
}

// Cylindrical grids: size R Z, cell size dr [dz], the angular orders (docs/CYLINDRICAL.md).
void read_cyl_grid(const Reader& r, GridConfig& g) {
  for (const char* key : {"grid.mode", "grid.equation"})
    if (r.has(key))
      r.fail(key, "no " + std::string(key) +
                      " in a cylindrical model (2D Cartesian only: each angular mode already "
                      "carries all six components)");
  const auto size = r.numbers("grid.size");
  r.check(size.size() == 2, "grid.size", "two numbers R Z in a cylindrical model");
  g.dims = 3;
  // phi is not a grid axis: one "cell" of 1 along it, so that n = {nr, 1, nz}.
  g.size_m = Vec3{size[0], 1.0, size[1]};
  if (r.has("grid.modes")) {
    std::vector<int> modes;
    for (long m : r.integers("grid.modes")) {
      r.check(std::find(modes.begin(), modes.end(), static_cast<int>(m)) == modes.end(),
              "grid.modes", "each angular order m once");
      modes.push_back(static_cast<int>(m));
    }
    r.check(!modes.empty(), "grid.modes", "at least one angular order m >= 0");
    std::sort(modes.begin(), modes.end());
    g.modes = modes;
  }
  if (r.has("grid.cell_size")) {
    const auto d = r.numbers("grid.cell_size");
    r.check(d.size() <= 2, "grid.cell_size", "1 or 2 numbers (dr dz) in a cylindrical model");
    g.cell_size_m = Vec3{d[0], 1.0, d.back()};
  }
}

void read_grid(const Reader& r, GridConfig& g) {
  r.require("grid.size");
  g.coordinates = r.word("grid.coordinates", 0) == 1 ? Coordinates::Cylindrical
                                                     : Coordinates::Cartesian;
  if (r.has("grid.modes") && !cylindrical(g))
    r.fail("grid.modes", "no grid.modes in a Cartesian model (grid.coordinates = cylindrical only)");
  auto size = r.numbers("grid.size");
  if (cylindrical(g)) {
    read_cyl_grid(r, g);
  } else {
    g.dims = static_cast<int>(size.size());
    // 2D: one cell of 1 m along z, so that energies and fluxes come out per metre of depth.
    g.size_m = g.dims == 2 ? Vec3{size[0], size[1], 1.0} : vec3(size);
  }
  for (const char* key : {"grid.mode", "grid.equation"})
    if (g.dims == 3 && r.has(key))
      r.fail(key, "no " + std::string(key) + " in a 3D model (2D only: grid.size with two numbers)");
  g.mode = r.word("grid.mode", 0) == 0 ? PlaneMode::Tm : PlaneMode::Te;
  g.equation = r.word("grid.equation", 0) == 0 ? Equation::Maxwell : Equation::Wave;
  if (r.has("grid.cell_size") && !cylindrical(g)) {
    auto d = r.numbers("grid.cell_size");
    if (g.dims == 2) {
      r.check(d.size() <= 2, "grid.cell_size", "1 or 2 numbers (dx dy) in a 2D model");
      g.cell_size_m = Vec3{d[0], d.back(), 1.0};
    } else {
      r.check(d.size() != 2, "grid.cell_size", "1 or 3 numbers in a 3D model");
      g.cell_size_m = d.size() == 1 ? Vec3{d[0], d[0], d[0]} : vec3(d);
    }
  }
  if (r.has("grid.max_frequency") || !g.cell_size_m) {
    r.require("grid.max_frequency", " unless grid.cell_size is given");
    g.max_frequency_hz = r.number("grid.max_frequency", 0);
  }
  g.cells_per_wavelength = r.number("grid.cells_per_wavelength", g.cells_per_wavelength);
  g.courant = r.number("grid.courant", g.courant);
}

void read_time(const Reader& r, const Raw& raw, TimeConfig& t) {
  bool steps = r.has("time.steps"), duration = r.has("time.duration");
  if (steps && duration) {
    // Blame the one given last (the command line counts as last).
    int ls = raw.values.at("time.steps").line, ld = raw.values.at("time.duration").line;
    bool blame_steps = ls == 0 || (ld != 0 && ls > ld);
    r.fail(blame_steps ? "time.steps" : "time.duration",
           "exactly one of time.steps and time.duration, not both");
  }
  if (!steps && !duration)
    r.fail("time.steps", "exactly one of time.steps and time.duration: neither is given");
  if (steps) {
    t.steps = r.integers("time.steps").front();
  } else {
    t.duration_s = r.number("time.duration", 0);
  }
  t.from_command_line = r.from_command_line(steps ? "time.steps" : "time.duration");
}

// Steps of `key` must lie within time.steps here unless the command line set the run's length
// and the file set `key`: SimulationModel::build() then drops or cuts them with a warning.
bool check_within_steps(const Reader& r, const RunConfig& cfg, const std::string& key) {
  return cfg.time.steps && (!cfg.time.from_command_line || r.from_command_line(key));
}

void read_boundary(const Reader& r, const GridConfig& g, BoundaryConfig& b) {
  const int dims = g.dims;
  b.type = r.word("boundary.type", 0) == 0 ? BoundaryType::Upml : BoundaryType::Pec;
  if (cylindrical(g)) {
    // r_hi z_lo z_hi: the axis (r = 0) has no layer, phi is periodic.
    std::array<int, 3> l{b.layers[1], b.layers[4], b.layers[5]};
    if (r.has("boundary.layers")) {
      auto v = r.integers("boundary.layers");
      r.check(v.size() == 1 || v.size() == 3, "boundary.layers",
              "1 or 3 integers (r_hi z_lo z_hi) in a cylindrical model (no layer at r = 0, the "
              "axis)");
      for (int f = 0; f < 3; ++f) l[f] = static_cast<int>(v.size() == 1 ? v[0] : v[f]);
    }
    b.layers = {0, l[0], 0, 0, l[1], l[2]};
  } else if (r.has("boundary.layers")) {
    auto l = r.integers("boundary.layers");
    r.check(l.size() == 1 || l.size() == 2u * static_cast<std::size_t>(dims), "boundary.layers",
            dims == 2 ? "1 or 4 integers (x_lo x_hi y_lo y_hi) in a 2D model"
                      : "1 or 6 integers (x_lo x_hi y_lo y_hi z_lo z_hi) in a 3D model");
    for (int f = 0; f < 2 * dims; ++f) b.layers[f] = static_cast<int>(l.size() == 1 ? l[0] : l[f]);
  }
  if (dims == 2) b.layers[4] = b.layers[5] = 0;  // the plane has no z faces
  if (r.has("boundary.periodic")) {
    r.check(dims == 3 && !cylindrical(g), "boundary.periodic",
            "no periodic axis in a 2D or cylindrical model (3D Cartesian models only)");
    const bool one_value = r.has("boundary.layers") && r.integers("boundary.layers").size() == 1;
    for (int w : r.words("boundary.periodic")) {
      b.periodic[static_cast<std::size_t>(w)] = true;
      const int lo = b.layers[2 * w], hi = b.layers[2 * w + 1];
      // Explicit per-face layers on a periodic axis contradict it; one value for all faces
      // means the faces that can hold layers.
      r.check((lo == 0 && hi == 0) || !r.has("boundary.layers") || one_value, "boundary.layers",
              std::string("0 on the faces of periodic axis ") + "xyz"[w] + " (boundary.periodic)");
      b.layers[2 * w] = b.layers[2 * w + 1] = 0;
    }
  }
  if (r.has("boundary.bloch_k")) {
    const auto k = r.numbers("boundary.bloch_k");
    for (int a = 0; a < 3; ++a) {
      r.check(k[static_cast<std::size_t>(a)] == 0 || b.periodic[static_cast<std::size_t>(a)], "boundary.bloch_k",
              std::string("0 along ") + "xyz"[a] + ", which is not periodic (boundary.periodic)");
      b.bloch_k[static_cast<std::size_t>(a)] = k[static_cast<std::size_t>(a)];
    }
  }
  if (r.has("boundary.pmc")) {
    r.check(dims == 3 && !cylindrical(g), "boundary.pmc",
            "no magnetic wall in a 2D or cylindrical model (3D Cartesian models only)");
    const bool one_value = r.has("boundary.layers") && r.integers("boundary.layers").size() == 1;
    for (int w : r.words("boundary.pmc")) {
      r.check(!b.periodic[static_cast<std::size_t>(w)], "boundary.pmc",
              std::string("an axis that is not periodic (boundary.periodic names ") + "xyz"[w] + ")");
      b.pmc[static_cast<std::size_t>(w)] = true;
      r.check(b.layers[2 * w] == 0 || !r.has("boundary.layers") || one_value, "boundary.layers",
              std::string("0 on the low face of axis ") + "xyz"[w] + " (a magnetic wall: boundary.pmc)");
      b.layers[2 * w] = 0;
    }
  }
  if (b.type == BoundaryType::Pec) {
    // A bare PEC wall has no layers; explicit non-zero layers contradict the type.
    r.check(std::all_of(b.layers.begin(), b.layers.end(), [](int v) { return v == 0; }) ||
                !r.has("boundary.layers"),
            "boundary.layers", "0 with boundary.type = pec");
    b.layers.fill(0);
  }
  b.grading = r.number("boundary.grading", b.grading);
  if (r.has("boundary.sigma_max")) b.sigma_max = r.number("boundary.sigma_max", 0);
  b.kappa_max = r.number("boundary.kappa_max", b.kappa_max);
}

// debye / drude / lorentz: groups of 2, 2, 3 numbers, each group one pole (run_config.hpp).
void read_poles(const Reader& r, const std::string& sec, MaterialConfig& m) {
  struct Kind { const char* key; PoleKind kind; std::size_t group; const char* names; };
  const Kind kinds[] = {{"debye", PoleKind::Debye, 2, "delta_eps tau"},
                        {"drude", PoleKind::Drude, 2, "f_p gamma"},
                        {"lorentz", PoleKind::Lorentz, 3, "delta_eps f0 gamma"}};
  for (const Kind& k : kinds) {
    const std::string key = sec + "." + k.key;
    if (!r.has(key)) continue;
    const std::vector<double> v = r.numbers(key);
    r.check(!v.empty() && v.size() % k.group == 0, key,
            "groups of " + std::to_string(k.group) + " numbers (" + k.names + ")");
    for (std::size_t i = 0; i < v.size(); i += k.group) {
      PoleConfig p;
      p.kind = k.kind;
      for (std::size_t j = 0; j < k.group; ++j) p.p[j] = v[i + j];
      // The first number of every kind and a Lorentz resonance must be positive; a collision
      // or damping frequency may be 0 (a lossless plasma or oscillator).
      r.check(p.p[0] > 0 && (k.kind != PoleKind::Lorentz || p.p[1] > 0) &&
                  (k.kind != PoleKind::Debye || p.p[1] > 0),
              key, std::string(k.names) + " with " +
                       (k.kind == PoleKind::Drude     ? "f_p > 0"
                        : k.kind == PoleKind::Debye   ? "delta_eps > 0 and tau > 0"
                                                      : "delta_eps > 0 and f0 > 0"));
      m.poles.push_back(p);
    }
    r.check(m.poles.size() <= kMaxPoles, key,
            "at most " + std::to_string(kMaxPoles) + " poles per material in all");
  }
}

// A material given by `axes`: each axis' eps_r, mu_r, sigma and poles from the named material
// (isotropic, not pec, defined anywhere in the file).
void resolve_axes(const Reader& r, const std::string& sec, MaterialConfig& m,
                  const std::vector<MaterialConfig>& all) {
  const std::string key = sec + ".axes";
  for (std::size_t a = 0; a < 3; ++a) {
    const std::string& name = m.axis_materials[a];
    const char axis = "xyz"[a];
    if (name == "vacuum") {
      m.eps_axes[a] = m.mu_axes[a] = 1;
      m.sigma_axes[a] = 0;
      continue;
    }
    const auto found = std::find_if(all.begin(), all.end(), [&](const MaterialConfig& o) { return o.name == name; });
    std::vector<std::string> names{"vacuum"};
    for (const MaterialConfig& o : all)
      if (o.name != m.name) names.push_back(o.name);
    const std::string near = closest_name(name, names);
    const std::string problem = name == m.name ? "is this material"
                                : name == "pec" ? "is pec"
                                                : "is not defined" + (near.empty() ? "" : "; did you mean '" + near + "'?");
    r.check(found != all.end() && name != m.name, key,
            std::string("three names x y z of other [material.<name>] sections or vacuum (") + axis + ": '" +
                name + "' " + problem + ")");
    r.check(!found->pec && found->axis_materials[0].empty() && !found->anisotropic(), key,
            std::string("three names of isotropic materials that are not pec (") + axis + ": '" + name + "' is " +
                (found->pec                          ? "pec"
                 : !found->axis_materials[0].empty() ? "given by axes itself"
                                                     : "anisotropic") + ")");
    m.eps_axes[a] = found->eps_r;
    m.mu_axes[a] = found->mu_r;
    m.sigma_axes[a] = found->sigma;
    m.pole_axes[a] = found->poles;
  }
  m.eps_r = *std::max_element(m.eps_axes.begin(), m.eps_axes.end());
  m.mu_r = *std::max_element(m.mu_axes.begin(), m.mu_axes.end());
  m.sigma = *std::max_element(m.sigma_axes.begin(), m.sigma_axes.end());
}

void read_materials(const Reader& r, const Raw& raw, const GridConfig& grid,
                    std::vector<MaterialConfig>& materials) {
  const double courant = grid.courant;
  std::vector<MaterialConfig> out;  // one per section, in the order of `sections`
  const std::vector<std::string> sections = sections_of(raw, "material");
  for (const auto& sec : sections) {
    MaterialConfig m;
    m.name = sec.substr(sec.find('.') + 1);
    if (m.name == "pec" || m.name == "vacuum")
      r.fail(sec, "a material name other than the built-in pec and vacuum");
    if (r.has(sec + ".axes")) {
      for (const char* key : {"eps_r", "mu_r", "sigma", "pec", "debye", "drude", "lorentz"})
        r.check(!r.has(sec + "." + key), sec + "." + key,
                std::string("no ") + key + " with axes (the three materials named there give each axis' values)");
      const std::vector<std::string> names = r.names(sec + ".axes");
      for (std::size_t a = 0; a < 3; ++a) m.axis_materials[a] = names[a];
      out.push_back(m);
      continue;
    }
    // One value, or three along x y z (a diagonal anisotropic material).
    auto axes = [&](const char* key, double fallback) {
      std::array<double, 3> v{fallback, fallback, fallback};
      if (r.has(sec + "." + key)) {
        const std::vector<double> given = r.numbers(sec + "." + key);
        for (std::size_t a = 0; a < 3; ++a) v[a] = given[given.size() == 3 ? a : 0];
      }
      return v;
    };
    m.eps_axes = axes("eps_r", 1);
    m.mu_axes = axes("mu_r", 1);
    m.sigma_axes = axes("sigma", 0);
    m.eps_r = *std::max_element(m.eps_axes.begin(), m.eps_axes.end());
    m.mu_r = *std::max_element(m.mu_axes.begin(), m.mu_axes.end());
    m.sigma = *std::max_element(m.sigma_axes.begin(), m.sigma_axes.end());
    m.pec = r.word(sec + ".pec", 1) == 0;
    read_poles(r, sec, m);
    out.push_back(m);
  }
  for (std::size_t i = 0; i < out.size(); ++i)
    if (!out[i].axis_materials[0].empty()) resolve_axes(r, sections[i], out[i], out);
  // The materials given by values first: a fault in one that an `axes` names is reported at its key.
  for (std::size_t k = 0; k < 2 * out.size(); ++k) {
    const std::size_t i = k % out.size();
    const std::string& sec = sections[i];
    const MaterialConfig& m = out[i];
    const bool by_axes = !m.axis_materials[0].empty();
    if (by_axes != (k >= out.size())) continue;
    if (m.anisotropic() && !m.pec) {
      // The key whose values differ (the first of them).
      auto differ = [](const std::array<double, 3>& v) { return v[0] != v[1] || v[0] != v[2]; };
      const char* key = by_axes ? ".axes" : differ(m.eps_axes) ? ".eps_r" : differ(m.mu_axes) ? ".mu_r" : ".sigma";
      if (grid.coordinates != Coordinates::Cartesian || (grid.dims == 2 && grid.equation == Equation::Wave))
        r.fail(sec + key, std::string(by_axes ? "no axes" : "one value") +
                              " in a cylindrical model or with grid.equation = wave (anisotropic "
                              "materials: 3D and 2D Maxwell models)");
    }
    if (m.dispersive() && (grid.coordinates != Coordinates::Cartesian ||
                           (grid.dims == 2 && grid.equation == Equation::Wave)))
      r.fail(sec + (by_axes                   ? ".axes"
                    : r.has(sec + ".debye")   ? ".debye"
                    : r.has(sec + ".drude")   ? ".drude"
                                              : ".lorentz"),
             kNoPolesHere);
    // The time step is a fraction `courant` of the vacuum limit; a wave in the material moves at
    // c / sqrt(eps_r mu_r), so below courant^2 it outruns the step and the update grows without
    // bound. (eps_r >= 1, so only mu_r < 1 can do it: the message points there.)
    // Anisotropic: no wave is faster than one in a medium of the smallest eps_r and the smallest
    // mu_r (a safe bound; pairs on one axis never couple, so a few stable ones are refused).
    const double slowest_product = *std::min_element(m.eps_axes.begin(), m.eps_axes.end()) *
                                   *std::min_element(m.mu_axes.begin(), m.mu_axes.end());
    if (!m.pec && slowest_product < courant * courant) {
      r.fail(sec + (by_axes ? ".axes" : ".mu_r"),
             "a material no faster than light on this time step: eps_r x mu_r >= grid.courant^2 = " +
                 fmt(courant * courant) + ", got eps_r x mu_r = " + fmt(slowest_product) +
                 "; lower grid.courant below sqrt(eps_r x mu_r) = " + fmt(std::sqrt(slowest_product)));
    }
  }
  materials.insert(materials.end(), out.begin(), out.end());
}

// The first two sides of a polygon that cross or touch other than at their shared corner (1-based
// side numbers, side k from corner k to k + 1), or {0, 0} where none do. O(corners^2).
std::array<std::size_t, 2> crossing_sides(const std::vector<std::array<double, 2>>& v) {
  double scale = 0;
  for (const auto& p : v) scale = std::max({scale, std::fabs(p[0]), std::fabs(p[1])});
  const double eps = 1e-12 * scale * scale;
  auto orient = [&](const std::array<double, 2>& a, const std::array<double, 2>& b,
                    const std::array<double, 2>& c) {
    const double x = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    return (x > eps) - (x < -eps);
  };
  auto within = [](const std::array<double, 2>& a, const std::array<double, 2>& b,
                   const std::array<double, 2>& c) {  // c, on the line a-b, between them
    return std::min(a[0], b[0]) <= c[0] && c[0] <= std::max(a[0], b[0]) &&
           std::min(a[1], b[1]) <= c[1] && c[1] <= std::max(a[1], b[1]);
  };
  const std::size_t n = v.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      if (j == i + 1 || (i == 0 && j == n - 1)) continue;  // neighbours share a corner
      const auto &a = v[i], &b = v[(i + 1) % n], &c = v[j], &d = v[(j + 1) % n];
      const int o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
      const bool cross = (o1 * o2 < 0 && o3 * o4 < 0) || (o1 == 0 && within(a, b, c)) ||
                         (o2 == 0 && within(a, b, d)) || (o3 == 0 && within(c, d, a)) ||
                         (o4 == 0 && within(c, d, b));
      if (cross) return {i + 1, j + 1};
    }
  return {0, 0};
}

// At most this many triangles in one mesh object. Host memory: ~100 B a triangle, and the index,
// which grows faster than the count for long thin triangles (a fanned cap of 500k: 0.4-0.75 GB).
constexpr std::size_t kMaxMeshTriangles = 10000000;

// A solid read from a file must reach into the domain: lo, hi are its placed bounds (m).
void check_reaches_domain(const Reader& r, const std::string& sec, const ObjectConfig& o,
                          const GridConfig& g, const Point3& lo, const Point3& hi,
                          const std::string& what) {
  bool reaches = true;
  std::string span;
  double ratio = 0;  // the largest extent over the domain's
  for (int a = 0; a < 3; ++a) {
    reaches = reaches && hi[a] >= 0 && lo[a] <= g.size_m[a];
    span += std::string(a ? ", " : "") + "xyz"[a] + " " + fmt(lo[a]) + " .. " + fmt(hi[a]);
    ratio = std::max(ratio, (hi[a] - lo[a]) / std::max({g.size_m.x, g.size_m.y, g.size_m.z}));
  }
  // Millimetres read as metres make a part a thousand times too large: it swallows the domain.
  r.check(ratio <= 100, sec + ".scale",
          what + " at most 100 times the domain's size; scaled and placed it spans " + span +
              " m, " + fmt(ratio) + " times the domain (object." + o.name + ".scale = " +
              fmt(o.scale) + " m per file unit; is the file in mm, scale = 1e-3?)");
  r.check(reaches, r.has(sec + ".center") ? sec + ".center" : sec + ".file",
          what + " that reaches into the domain (0 .. " + fmt(g.size_m.x) + ", 0 .. " +
              fmt(g.size_m.y) + ", 0 .. " + fmt(g.size_m.z) + " m); scaled and placed it spans " +
              span + " m (object." + o.name + ".scale = " + fmt(o.scale) +
              " m per file unit; is the file in mm, scale = 1e-3?)");
}

// At most this many voxels in one voxel file (4 bytes each on the host, and VTK's copy while it is
// read: 1 to 8 bytes by the file's type).
constexpr std::size_t kMaxVoxels = std::size_t(1) << 30;

// A mesh object's file read, checked (closed, within the limit, reaching into the domain),
// scaled to metres and placed: its centre at `center` where the model gives one.
std::shared_ptr<const TriangleSolid> read_mesh_object(const Reader& r, const std::string& sec,
                                                      const ObjectConfig& o, const GridConfig& g) {
  const std::string key = sec + ".file";
  TriangleMesh m;
  try {
    m = read_mesh_file(o.file);
  } catch (const MeshFileError& e) {
    r.fail(key, "a closed triangle surface (.stl or .obj) at '" + printable(o.file) + "': " + printable(e.what(), 2000));
  }
  r.check(m.triangles.size() <= kMaxMeshTriangles, key,
          "a surface of at most " + std::to_string(kMaxMeshTriangles) + " triangles; '" +
              printable(o.file) + "' has " + std::to_string(m.triangles.size()));
  const OpenEdges open = open_edges(m);
  if (open.count > 0) {
    auto point = [](const Point3& p) {
      return "(" + fmt(p[0]) + ", " + fmt(p[1]) + ", " + fmt(p[2]) + ")";
    };
    r.fail(key, "a closed surface, every edge shared by two triangles (or an even number); '" +
                    printable(o.file) + "' has " + std::to_string(open.count) + " open edge" +
                    (open.count == 1 ? "" : "s") + ", the first from " + point(open.a) + " to " +
                    point(open.b) + " in the file's units (a hole, or a face left loose: close it in "
                    "the CAD program, or export the body as a solid)");
  }
  // The corners were rounded to float32 where the file put them: far from the file's origin
  // that is more than 1e-7 of where they land.
  double file_scale = 0;
  for (const Point3& p : m.points)
    for (int a = 0; a < 3; ++a) file_scale = std::max(file_scale, std::fabs(p[a]) * o.scale);
  // Scaled, then turned about the file's origin: about x, then y, then z (right-hand rule).
  // Quarter turns are exact, so a part turned from y-up to z-up keeps its faces on grid planes.
  auto cos_sin = [](double deg) -> std::array<double, 2> {
    const double q = deg / 90;
    if (q == std::round(q)) {
      static const std::array<double, 2> quarter[4] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
      return quarter[((static_cast<long>(q) % 4) + 4) % 4];
    }
    const double rad = deg * 3.14159265358979323846 / 180;
    return {std::cos(rad), std::sin(rad)};
  };
  for (Point3& p : m.points) {
    for (int a = 0; a < 3; ++a) p[a] *= o.scale;
    for (int a = 0; a < 3; ++a) {
      if (o.rotate_deg[a] == 0) continue;
      const auto [c, sn] = cos_sin(o.rotate_deg[a]);
      const int u = (a + 1) % 3, v = (a + 2) % 3;
      const double pu = p[u], pv = p[v];
      p[u] = c * pu - sn * pv;
      p[v] = sn * pu + c * pv;
    }
  }
  Point3 lo = m.points[static_cast<std::size_t>(m.triangles[0][0])], hi = lo;
  for (const auto& t : m.triangles)
    for (int c : t)
      for (int a = 0; a < 3; ++a) {
        lo[a] = std::min(lo[a], m.points[static_cast<std::size_t>(c)][a]);
        hi[a] = std::max(hi[a], m.points[static_cast<std::size_t>(c)][a]);
      }
  if (r.has(sec + ".center")) {
    Point3 shift{};
    for (int a = 0; a < 3; ++a) shift[a] = o.center[a] - 0.5 * (lo[a] + hi[a]);
    for (Point3& p : m.points)
      for (int a = 0; a < 3; ++a) p[a] += shift[a];
    for (int a = 0; a < 3; ++a) {
      lo[a] += shift[a];
      hi[a] += shift[a];
    }
  }
  check_reaches_domain(r, sec, o, g, lo, hi, "a mesh");
  return std::make_shared<const TriangleSolid>(std::move(m), 1e-7 * file_scale);
}

// A voxels object: its file read (once per path: `files`), the label checked present, the block
// scaled and placed by its whole bounds.
std::shared_ptr<const Solid> read_voxel_object(
    const Reader& r, const std::string& sec, const ObjectConfig& o, const GridConfig& g,
    std::map<std::string, std::shared_ptr<const VoxelGrid>>& files) {
  const std::string key = sec + ".file";
  std::shared_ptr<const VoxelGrid>& grid = files[o.file];
  if (!grid) {
    try {
      grid = std::make_shared<const VoxelGrid>(read_voxel_file(o.file, kMaxVoxels));
    } catch (const VoxelFileError& e) {
      files.erase(o.file);
      r.fail(key, "a voxel file (.vti with a cell array of labels) at '" + printable(o.file) + "': " + printable(e.what(), 2000));
    }
  }
  Point3 origin{}, spacing{}, lo{}, hi{};
  for (int a = 0; a < 3; ++a) {
    spacing[a] = grid->spacing[a] * o.scale;
    origin[a] = grid->origin[a] * o.scale;
    if (r.has(sec + ".center")) origin[a] = o.center[a] - 0.5 * grid->cells[a] * spacing[a];
    lo[a] = origin[a];
    hi[a] = origin[a] + grid->cells[a] * spacing[a];
  }
  auto solid = std::make_shared<const VoxelSolid>(grid, static_cast<std::int32_t>(o.label), origin, spacing);
  if (solid->voxel_count() == 0) {
    std::set<std::int32_t> found;
    for (std::int32_t v : grid->labels) {
      found.insert(v);
      if (found.size() > 12) break;
    }
    std::string list;
    for (std::int32_t v : found) list += (list.empty() ? "" : " ") + std::to_string(v);
    r.fail(sec + ".label", "a label that some voxel of '" + printable(o.file) + "' holds; " +
                               std::to_string(o.label) + " is none's (labels found: " + list +
                               (found.size() > 12 ? " ..." : "") + ")");
  }
  check_reaches_domain(r, sec, o, g, lo, hi, "a voxel block");
  return solid;
}

void read_objects(const Reader& r, const Raw& raw, RunConfig& cfg) {
  static const char* shape_names[] = {"box", "sphere", "cylinder", "prism", "mesh", "voxels"};
  std::map<std::string, std::shared_ptr<const VoxelGrid>> voxel_files;  // by path: read once
  for (const auto& sec : sections_of(raw, "object")) {
    ObjectConfig o;
    o.name = sec.substr(sec.find('.') + 1);
    r.require(sec + ".shape");
    o.shape = static_cast<ShapeKind>(r.word(sec + ".shape", 0));
    std::string shape = shape_names[static_cast<int>(o.shape)];
    const bool mesh = o.shape == ShapeKind::Mesh, voxels = o.shape == ShapeKind::Voxels;
    r.check(cfg.grid.dims == 3 || (o.shape != ShapeKind::Cylinder && !mesh && !voxels), sec + ".shape",
            "box, sphere or prism in a 2D model (cylinder, mesh and voxels are not meaningful in 2D)");
    r.check(!cylindrical(cfg.grid) || (o.shape != ShapeKind::Prism && !mesh && !voxels),
            sec + ".shape",
            "box, sphere or cylinder in a cylindrical model (a prism, a mesh or voxels are not a "
            "body of revolution)");
    if (!(mesh || voxels) || r.has(sec + ".center"))
      o.center = point_in_domain(r, sec + ".center", cfg.grid);
    // Each dimension key belongs to some shapes only; a stray one is most likely a mistake.
    auto only = [&](const std::string& field, bool used, const std::string& users) {
      std::string key = sec + "." + field;
      if (!used && r.has(key))
        r.fail(key, "no " + field + " for a " + shape + " (" + users + " only)");
      if (used && field != "axis" && field != "scale" && field != "rotate")
        r.require(key, " for a " + shape);
      return used && r.has(key);
    };
    if (only("size", o.shape == ShapeKind::Box, "box")) {
      o.size = cylindrical(cfg.grid) ? rz_vec(r, sec + ".size")
                                     : model_vec(r, sec + ".size", cfg.grid.dims);
    }
    const bool round = o.shape == ShapeKind::Sphere || o.shape == ShapeKind::Cylinder;
    if (only("radius", round, "sphere and cylinder")) {
      o.radius = r.number(sec + ".radius", 0);
    }
    // A 2D model's prism is its polygon in the x-y plane: no length, no axis.
    const bool along = o.shape == ShapeKind::Cylinder ||
                       (o.shape == ShapeKind::Prism && cfg.grid.dims == 3);
    if (only("length", along, "cylinder, and prism in a 3D model")) {
      o.length = r.number(sec + ".length", 0);
    }
    if (only("axis", along, "cylinder, and prism in a 3D model"))
      o.axis = static_cast<Axis>(r.word(sec + ".axis", 2));
    if (only("vertices", o.shape == ShapeKind::Prism, "prism")) {
      const std::vector<double> v = r.numbers(sec + ".vertices");
      r.check(v.size() >= 6 && v.size() % 2 == 0 && v.size() <= 2 * kMaxPrismVertices,
              sec + ".vertices",
              "pairs u v of at least 3 and at most " + std::to_string(kMaxPrismVertices) +
                  " corners (u, v: the two axes other than `axis`, in x y z order; 2D: x y)");
      for (std::size_t i = 0; i < v.size(); i += 2) o.vertices.push_back({v[i], v[i + 1]});
      // CAD exports close a polygon by repeating its first corner: one polygon all the same.
      if (o.vertices.size() > 3 && o.vertices.back() == o.vertices.front()) o.vertices.pop_back();
      const auto sides = crossing_sides(o.vertices);
      r.check(sides[0] == 0, sec + ".vertices",
              "a polygon whose sides do not cross or touch (sides " + std::to_string(sides[0]) +
                  " and " + std::to_string(sides[1]) +
                  " do; side k joins corners k and k + 1; a corner given twice touches too)");
      double lo0 = v[0], hi0 = v[0], lo1 = v[1], hi1 = v[1];
      for (const auto& c : o.vertices) {
        lo0 = std::min(lo0, c[0]), hi0 = std::max(hi0, c[0]);
        lo1 = std::min(lo1, c[1]), hi1 = std::max(hi1, c[1]);
      }
      const double extent = std::max(hi0 - lo0, hi1 - lo1);
      r.check(polygon_area(o.vertices) > 1e-9 * extent * extent, sec + ".vertices",
              "corners that enclose an area (these lie on one line, or nearly)");
      // Corners far past the domain make the same mesh and cost the inside test its precision
      // (its tolerance scales with the polygon); a prism wholly outside is a mistake.
      const int ax = cfg.grid.dims == 3 ? static_cast<int>(o.axis) : 2;
      const auto [ua, va] = cross_axes(ax);
      const double su = cfg.grid.size_m[ua], sv = cfg.grid.size_m[va];
      const double u0 = o.center[ua] + lo0, u1 = o.center[ua] + hi0;
      const double v0 = o.center[va] + lo1, v1 = o.center[va] + hi1;
      const std::string names = std::string(1, "xyz"[ua]) + " and " + "xyz"[va];
      r.check(u0 >= -su && u1 <= 2 * su && v0 >= -sv && v1 <= 2 * sv, sec + ".vertices",
              "corners (centre + vertex) within one domain size of the domain along " + names +
                  " (" + fmt(-su) + " .. " + fmt(2 * su) + " and " + fmt(-sv) + " .. " +
                  fmt(2 * sv) + " m): a farther corner meshes the same");
      r.check(u1 >= 0 && u0 <= su && v1 >= 0 && v0 <= sv, sec + ".vertices",
              "a polygon that reaches into the domain (centre + vertices span " + names + " " +
                  fmt(u0) + " .. " + fmt(u1) + " and " + fmt(v0) + " .. " + fmt(v1) +
                  " m; the domain is 0 .. " + fmt(su) + " and 0 .. " + fmt(sv) + " m)");
    }
    if (only("file", mesh || voxels, "mesh and voxels")) {
      o.file = r.text(sec + ".file");
      r.check(!o.file.empty(), sec + ".file",
              mesh ? "the path of an .stl or .obj file" : "the path of a .vti file");
    }
    if (only("scale", mesh || voxels, "mesh and voxels")) o.scale = r.number(sec + ".scale", 1);
    if (only("label", voxels, "voxels")) o.label = static_cast<long>(r.number(sec + ".label", 0));
    if (only("rotate", mesh, "mesh")) {
      const std::vector<double> deg = r.numbers(sec + ".rotate");
      for (int a = 0; a < 3; ++a) o.rotate_deg[a] = deg[static_cast<std::size_t>(a)];
    }
    if (mesh) o.solid = read_mesh_object(r, sec, o, cfg.grid);
    if (voxels) o.solid = read_voxel_object(r, sec, o, cfg.grid, voxel_files);
    r.require(sec + ".material");
    o.material = r.text(sec + ".material");
    bool known = o.material == "pec" || o.material == "vacuum" ||
                 std::any_of(cfg.materials.begin(), cfg.materials.end(),
                             [&](const MaterialConfig& m) { return m.name == o.material; });
    // Names are case-sensitive; one that differs from a known name only in case is pointed at.
    std::string hint;
    if (!known) {
      auto lower = [](std::string t) {
        for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return t;
      };
      std::vector<std::string> names{"pec", "vacuum"};
      for (const MaterialConfig& m : cfg.materials) names.push_back(m.name);
      for (const std::string& n : names)
        if (hint.empty() && lower(n) == lower(o.material))
          hint = " (did you mean '" + n + "'? names are case-sensitive)";
    }
    r.check(known, sec + ".material", "the name of a [material.<name>] section, pec or vacuum" + hint);
    cfg.objects.push_back(o);
  }
}

// The most frequencies one monitor (or port) transforms: each is a device accumulator per sample, and a
// spectrum finer than this is a post-processing job, not an on-device one.
constexpr std::size_t kMaxMonitorFrequencies = 1000;

// Names become file names (monitors/<name>.csv, .vti, ports/<name>.csv; section names are letters, digits, '_' and
// '-' only): a file name must stay under the usual 255-byte limit.
constexpr std::size_t kMaxMonitorName = 200;

// A name that names <folder>/<name>.csv: short enough for a file name, and not one that differs
// from an earlier one (`seen`: lower case -> as written) by case only, as those are one file on a
// case-insensitive file system.
void check_file_name(const Reader& r, const std::string& sec, const std::string& name,
                     const std::string& what, const std::string& folder,
                     std::map<std::string, std::string>& seen) {
  r.check(name.size() <= kMaxMonitorName, sec,
          "a " + what + " name of at most " + std::to_string(kMaxMonitorName) +
              " characters (it names the output file)");
  std::string lower = name;
  for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  auto [other, fresh] = seen.emplace(lower, name);
  if (!fresh)
    r.fail(sec, "a " + what + " name that differs from '" + other->second +
                    "' by more than case (both name the file " + folder + "/" + name + ".csv)");
}

// A box `key` (extents x y z, 2D: x y) about `position`, inside the domain.
Vec3 box_about(const Reader& r, const std::string& key, const Vec3& position, const GridConfig& g) {
  const int dims = g.dims;
  const Vec3 size = model_vec(r, key, dims);
  const Vec3& domain = g.size_m;
  bool inside = true;
  for (int a = 0; a < dims; ++a) {
    r.check(size[a] >= 0, key, "extents >= 0 m, got " + fmt(size[a]));
    inside = inside && position[a] - 0.5 * size[a] >= -1e-12 * domain[a] &&
             position[a] + 0.5 * size[a] <= domain[a] * (1 + 1e-12);
  }
  r.check(inside, key,
          "a box about the position inside the domain [0, " + fmt(domain.x) + "] x [0, " +
              fmt(domain.y) + (dims == 3 ? "] x [0, " + fmt(domain.z) : std::string()) + "] m");
  return size;
}

void read_sources(const Reader& r, const Raw& raw, RunConfig& cfg) {
  std::map<std::string, std::string> port_names;  // lower case -> as written
  for (const auto& sec : sections_of(raw, "source")) {
    SourceConfig s;
    s.name = sec.substr(sec.find('.') + 1);
    s.kind = static_cast<SourceKind>(r.word(sec + ".type", 0));
    const int axis = r.word(sec + ".axis", 2);  // words x y z r phi
    if (cylindrical(cfg.grid)) {
      r.check(axis >= 2, sec + ".axis", "r, phi or z in a cylindrical model");
      s.axis = axis == 2 ? Axis::Z : static_cast<Axis>(axis - 3);  // r, phi stand for x, y
      s.position = cyl_point(r, sec + ".position");
    } else {
      r.check(axis <= 2, sec + ".axis", "x, y or z in a Cartesian model (r and phi are cylindrical)");
      s.axis = static_cast<Axis>(axis);
      s.position = point_in_domain(r, sec + ".position", cfg.grid);
    }
    s.waveform = static_cast<WaveformKind>(r.word(sec + ".waveform", 1));
    r.require(sec + ".frequency");
    s.frequency_hz = r.number(sec + ".frequency", 0);
    s.amplitude = r.number(sec + ".amplitude", 1);
    if (r.has(sec + ".delay")) s.delay_s = r.number(sec + ".delay", 0);
    if (r.has(sec + ".bandwidth")) {
      r.check(s.waveform == WaveformKind::GaussianPulse, sec + ".bandwidth",
              "no bandwidth unless waveform = gaussian_pulse");
      s.bandwidth_hz = r.number(sec + ".bandwidth", 0);
    }
    const bool port = s.kind == SourceKind::Port;
    const bool plane_wave = s.kind == SourceKind::PlaneWave;
    const bool waveguide = s.kind == SourceKind::Waveguide;
    if (port || waveguide) check_file_name(r, sec, s.name, "port", "ports", port_names);
    if (waveguide) {
      r.check(!cylindrical(cfg.grid) && cfg.grid.dims == 3, sec + ".type",
              "waveguide in a 3D Cartesian model (not 2D, not cylindrical)");
      r.require(sec + ".direction");
      read_waveguide_mode(r, sec + ".mode", s);
      r.check(!r.has(sec + ".axis") || s.mode_solved > 0, sec + ".axis",
              "no axis for a waveguide port of a te/tm mode (its mode sets its fields; a solved mode, "
              "mode = <number>, takes one to choose among modes of one beta)");
      s.mode_e_axis = r.has(sec + ".axis") ? std::optional<int>(static_cast<int>(s.axis)) : std::nullopt;
    } else {
      r.check(!r.has(sec + ".mode"), sec + ".mode", "no mode unless type = waveguide");
    }
    if (plane_wave) {
      r.check(!cylindrical(cfg.grid) &&
                  (cfg.grid.dims == 3 || cfg.grid.equation == Equation::Maxwell),
              sec + ".type",
              "plane_wave in a 3D or a 2D Yee model (not cylindrical, not grid.equation = wave)");
      r.require(sec + ".direction");
      r.require(sec + ".size");
    }
    if (r.has(sec + ".direction")) {
      const std::string key = sec + ".direction";
      r.check(plane_wave || waveguide, key, "no direction unless type = plane_wave or waveguide");
      read_direction(r, key, cfg.grid.dims, s);
      if (waveguide) {
        r.check(!s.direction_vector, key, "+x, -x, +y, -y, +z or -z for a waveguide port (along the guide)");
        r.check(!s.mode_e_axis || *s.mode_e_axis != s.direction_axis, sec + ".axis",
                "an axis across the guide (the E of the mode, not its direction " + std::string(1, "xyz"[s.direction_axis]) +
                    ")");
      } else if (!s.direction_vector) {
        r.check(cfg.grid.dims == 3 || s.direction_axis != 2, key,
                "+x, -x, +y or -y in a 2D model (the wave travels in the plane)");
        r.check(s.direction_axis != static_cast<int>(s.axis), key,
                "a direction across the wave's E (axis), got E along " +
                    std::string(1, "xyz"[static_cast<int>(s.axis)]) + " travelling along it");
      } else {
        const Vec3& k = *s.direction_vector;
        r.check(std::fabs(k[static_cast<int>(s.axis)]) < 1 - 1e-9, key,
                "a direction not along the wave's E (axis " +
                    std::string(1, "xyz"[static_cast<int>(s.axis)]) + ")");
      }
    }
    if (r.has(sec + ".resistance")) {
      r.check(port, sec + ".resistance", "no resistance unless type = port");
      s.resistance_ohm = r.number(sec + ".resistance", 0);
    }
    if (r.has(sec + ".size")) {
      r.check(port || plane_wave || (waveguide && s.mode_solved > 0), sec + ".size",
              waveguide ? "no size for a waveguide port of a te/tm mode (the guide's walls bound it; a "
                          "solved mode, mode = <number>, takes a window)"
                        : "no size unless type = port, plane_wave or waveguide (a solved mode)");
      // 2D and cylindrical models refuse ports (plane_checks, cyl_checks); 2D plane waves read
      // two extents (x y).
      if (!cylindrical(cfg.grid) && (cfg.grid.dims == 3 || plane_wave))
        s.size_m = box_about(r, sec + ".size", s.position, cfg.grid);
    }
    if (r.has(sec + ".frequencies")) {
      r.check(port || waveguide, sec + ".frequencies", "no frequencies unless type = port or waveguide");
      s.frequencies_hz = r.numbers(sec + ".frequencies");
      r.check(s.frequencies_hz.size() <= kMaxMonitorFrequencies, sec + ".frequencies",
              "at most " + std::to_string(kMaxMonitorFrequencies) + " frequencies (" +
                  std::to_string(s.frequencies_hz.size()) + " given)");
      // Touchstone files list frequencies in increasing order, each once.
      for (std::size_t k = 1; k < s.frequencies_hz.size(); ++k)
        r.check(s.frequencies_hz[k] > s.frequencies_hz[k - 1], sec + ".frequencies",
                "frequencies in increasing order, each once (" + fmt(s.frequencies_hz[k]) +
                    " follows " + fmt(s.frequencies_hz[k - 1]) + ")");
    }
    (plane_wave ? cfg.plane_waves : waveguide ? cfg.waveguide_ports : cfg.sources).push_back(s);
  }
}

// [lumped.<name>]: docs/PORTS.md "Lumped elements". The samples and their checks against the
// grid (UPML, PEC, sources) are model/lumped.cpp's.
void read_lumped(const Reader& r, const Raw& raw, RunConfig& cfg) {
  for (const auto& sec : sections_of(raw, "lumped")) {
    LumpedConfig l;
    l.name = sec.substr(sec.find('.') + 1);
    r.check(!cylindrical(cfg.grid) && cfg.grid.dims == 3, sec + ".position",
            "a lumped element in a 3D Cartesian model (not 2D, not cylindrical)");
    l.axis = static_cast<Axis>(r.word(sec + ".axis", 2));
    l.position = point_in_domain(r, sec + ".position", cfg.grid);
    if (r.has(sec + ".size")) l.size_m = box_about(r, sec + ".size", l.position, cfg.grid);
    if (r.has(sec + ".resistance")) l.resistance_ohm = r.number(sec + ".resistance", 0);
    if (r.has(sec + ".inductance")) l.inductance_h = r.number(sec + ".inductance", 0);
    if (r.has(sec + ".capacitance")) l.capacitance_f = r.number(sec + ".capacitance", 0);
    const int values = (l.resistance_ohm ? 1 : 0) + (l.inductance_h ? 1 : 0) + (l.capacitance_f ? 1 : 0);
    r.check(values > 0, sec + ".resistance",
            "at least one of resistance, inductance and capacitance for the element");
    if (r.has(sec + ".circuit"))
      l.circuit = static_cast<LumpedCircuit>(r.word(sec + ".circuit", 0));
    else
      r.check(values == 1, sec + ".circuit",
              "series or parallel: how the element's " + std::to_string(values) +
                  " values connect (no default: the two give different circuits)");
    cfg.lumped.push_back(l);
  }
}

void read_probes(const Reader& r, const Raw& raw, RunConfig& cfg) {
  for (const auto& sec : sections_of(raw, "probe")) {
    ProbeConfig p;
    p.name = sec.substr(sec.find('.') + 1);
    const bool cyl = cylindrical(cfg.grid);
    p.position = cyl ? cyl_point(r, sec + ".position")
                     : point_in_domain(r, sec + ".position", cfg.grid);
    if (r.has(sec + ".fields")) {
      // Words Ex Ey Ez Hx Hy Hz Er Ephi Hr Hphi: the last four stand for Ex Ey Hx Hy.
      static const Component cyl_names[] = {Component::Ex, Component::Ey, Component::Hx,
                                            Component::Hy};
      for (int w : r.words(sec + ".fields")) {
        const bool cyl_word = w >= 6, shared = w == 2 || w == 5;  // Ez, Hz name both
        if (cyl)
          r.check(cyl_word || shared, sec + ".fields",
                  "fields among Er Ephi Ez Hr Hphi Hz in a cylindrical model");
        else
          r.check(!cyl_word, sec + ".fields",
                  "fields among Ex Ey Ez Hx Hy Hz in a Cartesian model (Er Ephi Hr Hphi are "
                  "cylindrical)");
        p.fields.push_back(cyl_word ? cyl_names[w - 6] : static_cast<Component>(w));
      }
      r.check(!p.fields.empty(), sec + ".fields",
              cyl ? "at least one of Er Ephi Ez Hr Hphi Hz" : "at least one of Ex Ey Ez Hx Hy Hz");
    } else if (cfg.grid.dims == 2) {
      p.fields = plane_components(cfg.grid.mode, cfg.grid.equation);
    } else {
      for (int c = 0; c < 6; ++c) p.fields.push_back(static_cast<Component>(c));
    }
    if (r.has(sec + ".steps")) {
      auto n = r.integers(sec + ".steps");
      r.check(n[0] <= n[1], sec + ".steps", "2 integers n1 n2 with 0 <= n1 <= n2");
      if (check_within_steps(r, cfg, sec + ".steps"))
        r.check(n[1] <= *cfg.time.steps, sec + ".steps",
                "steps within time.steps = " + std::to_string(*cfg.time.steps));
      p.steps = std::array<long, 2>{n[0], n[1]};
    }
    if (r.has(sec + ".resonances")) {
      const std::vector<double> band = r.numbers(sec + ".resonances");
      r.check(band[0] < band[1], sec + ".resonances", "a band f1 f2 with 0 < f1 < f2 (Hz)");
      p.resonances_hz = std::array<double, 2>{band[0], band[1]};
    }
    cfg.probes.push_back(p);
  }
}


// The corners of monitor.<name>.box: inside the domain, low before high, and the shape its type
// needs (flux, dft: a plane with one zero extent or a closed box; farfield: a closed box).
void read_monitor_box(const Reader& r, const std::string& key, const std::string& type,
                      const GridConfig& grid, MonitorConfig& m) {
  const auto v = r.numbers(key);
  const int dims = grid.dims;
  const Vec3& size = grid.size_m;
  if (cylindrical(grid)) {  // r0 z0 r1 z1: a ring section (phi stays 0 .. 0: all of it)
    r.check(v.size() == 4, key, "four numbers r0 z0 r1 z1 in a cylindrical model");
    m.box_lo = Vec3{v[0], 0, v[1]};
    m.box_hi = Vec3{v[2], 0, v[3]};
    r.check(v[0] >= 0 && v[2] <= size.x && v[1] >= 0 && v[3] <= size.z, key,
            "corners inside 0 <= r <= " + fmt(size.x) + " m, 0 <= z <= " + fmt(size.z) + " m");
    r.check(v[0] <= v[2] && v[1] <= v[3], key, "corners r0 z0 r1 z1 with r0 <= r1, z0 <= z1");
    r.check(v[0] < v[2] || v[1] < v[3], key,
            "a ring section (r0 < r1, z0 < z1), a disc (z0 = z1) or a tube (r0 = r1 > 0): a "
            "circle has no area");
    r.check(v[0] < v[2] || v[0] > 0, key, "a tube of radius r0 = r1 > 0: the axis has no area");
    return;
  }
  // 2D: x0 y0 x1 y1, the rectangle over the plane's whole depth (z stays 0 .. 0).
  r.check(static_cast<int>(v.size()) == 2 * dims, key,
          dims == 2 ? "four numbers x0 y0 x1 y1 in a 2D model (grid.size has two)"
                    : "six numbers x0 y0 z0 x1 y1 z1 in a 3D model");
  m.box_lo = dims == 2 ? Vec3{v[0], v[1], 0} : Vec3{v[0], v[1], v[2]};
  m.box_hi = dims == 2 ? Vec3{v[2], v[3], 0} : Vec3{v[3], v[4], v[5]};
  bool inside = true, ordered = true;
  int zero = 0;
  for (int a = 0; a < dims; ++a) {
    for (double c : {m.box_lo[a], m.box_hi[a]}) inside = inside && c >= 0 && c <= size[a];
    ordered = ordered && m.box_lo[a] <= m.box_hi[a];
    zero += m.box_lo[a] == m.box_hi[a] ? 1 : 0;
  }
  if (dims == 2) {
    r.check(inside, key, "corners inside the domain [0, " + fmt(size.x) + "] x [0, " + fmt(size.y) + "] m");
    r.check(ordered, key, "corners x0 y0 x1 y1 with x0 <= x1, y0 <= y1");
    if (type == "farfield")
      r.check(zero == 0, key,
              "a rectangle for a farfield monitor, no zero extent (the transform needs a contour "
              "around the sources)");
    r.check(zero <= 1, key, "a line (exactly one zero extent) or a rectangle (none): a point has no length");
    return;
  }
  r.check(inside, key,
          "corners inside the domain [0, " + fmt(size.x) + "] x [0, " + fmt(size.y) + "] x [0, " +
              fmt(size.z) + "] m");
  r.check(ordered, key, "corners x0 y0 z0 x1 y1 z1 with x0 <= x1, y0 <= y1, z0 <= z1");
  if (type == "farfield")
    r.check(zero == 0, key,
            "a closed box for a farfield monitor, no zero extent (the transform needs a surface "
            "around the sources)");
  if (type == "mode_expansion")
    r.check(zero == 1, key,
            "a plane for a mode_expansion monitor (exactly one zero extent: the axis the modes "
            "travel along), got " + std::to_string(zero) + " zero extents");
  r.check(zero <= 1, key,
          "a plane (exactly one zero extent) or a closed box (none): " + std::to_string(zero) +
              " zero extents leave no area");
}

void read_monitors(const Reader& r, const Raw& raw, RunConfig& cfg) {
  static const char* type_names[] = {"flux", "dft", "farfield", "modes", "mode_expansion"};
  std::map<std::string, std::string> lower_names;  // lower-case name -> the name as given
  for (const auto& sec : sections_of(raw, "monitor")) {
    MonitorConfig m;
    m.name = sec.substr(sec.find('.') + 1);
    check_file_name(r, sec, m.name, "monitor", "monitors", lower_names);
    r.require(sec + ".type");
    m.kind = static_cast<MonitorKind>(r.word(sec + ".type", 0));
    const std::string type = type_names[static_cast<int>(m.kind)];
    const bool modes = m.kind == MonitorKind::Modes;
    const bool expansion = m.kind == MonitorKind::ModeExpansion;
    if (cylindrical(cfg.grid) && m.kind != MonitorKind::Flux)
      r.fail(sec + ".type",
             "flux in a cylindrical model (dft, farfield, modes and mode_expansion monitors are "
             "Cartesian only), got " + type);
    if (expansion && cfg.grid.dims == 2)
      r.fail(sec + ".type", "flux, dft, farfield or modes in a 2D model (mode_expansion solves a 3D guide's "
                            "cross-section), got " + type);
    // Each key belongs to some types only; a stray one is most likely a mistake.
    auto only = [&](const std::string& field, bool used, const std::string& users) {
      const std::string key = sec + "." + field;
      if (!used && r.has(key))
        r.fail(key, "no " + field + " for a " + type + " monitor (" + users + " only)");
      return used && r.has(key);
    };
    if (!modes) r.require(sec + ".box", " for a " + type + " monitor");
    if (only("box", !modes, "flux, dft, farfield, mode_expansion"))
      read_monitor_box(r, sec + ".box", type, cfg.grid, m);
    if (!modes) r.require(sec + ".frequencies", " for a " + type + " monitor");
    if (only("frequencies", !modes, "flux, dft, farfield, mode_expansion")) {
      m.frequencies_hz = r.numbers(sec + ".frequencies");
      r.check(!m.frequencies_hz.empty() && m.frequencies_hz.size() <= kMaxMonitorFrequencies,
              sec + ".frequencies",
              "1 to " + std::to_string(kMaxMonitorFrequencies) + " frequencies (" +
                  std::to_string(m.frequencies_hz.size()) + " given)");
    }
    const bool farfield = m.kind == MonitorKind::FarField;
    if (only("theta_step", farfield, "farfield"))
      m.theta_step_deg = r.number(sec + ".theta_step", m.theta_step_deg);
    if (only("phi_step", farfield, "farfield"))
      m.phi_step_deg = r.number(sec + ".phi_step", m.phi_step_deg);
    if (only("fields", m.kind == MonitorKind::Dft, "dft")) {
      for (int w : r.words(sec + ".fields")) m.fields.push_back(static_cast<Component>(w));
      r.check(!m.fields.empty(), sec + ".fields", "at least one of Ex Ey Ez Hx Hy Hz");
    } else if (m.kind == MonitorKind::Dft) {
      for (int c = 0; c < 6; ++c) m.fields.push_back(static_cast<Component>(c));
    }
    if (modes) r.require(sec + ".modes_file", " for a modes monitor");
    if (only("modes_file", modes, "modes")) {
      m.modes_file = r.text(sec + ".modes_file");
      r.check(!m.modes_file.empty(), sec + ".modes_file", "the path of a .vti modes file");
    }
    if (only("every", modes, "modes")) m.every = r.integers(sec + ".every").front();
    if (only("count", expansion, "mode_expansion")) m.mode_count = static_cast<int>(r.integers(sec + ".count").front());
    // "auto", the documented default, may be written too.
    if (only("decimation", !modes, "flux, dft, farfield, mode_expansion") && r.value(sec + ".decimation") != "auto")
      m.decimation = static_cast<int>(r.integers(sec + ".decimation").front());
    cfg.monitors.push_back(m);
  }
}

void read_snapshot(const Reader& r, RunConfig& cfg) {
  auto& s = cfg.snapshot;
  if (r.has("snapshot.steps")) {
    s.steps = r.integers("snapshot.steps");
    for (long n : s.steps) {
      if (check_within_steps(r, cfg, "snapshot.steps"))
        r.check(n <= *cfg.time.steps, "snapshot.steps",
                "steps within time.steps = " + std::to_string(*cfg.time.steps));
    }
    // The writer walks them in order; a repeated step would only write the same file twice.
    std::sort(s.steps.begin(), s.steps.end());
    s.steps.erase(std::unique(s.steps.begin(), s.steps.end()), s.steps.end());
  }
  if (r.has("snapshot.phi_samples")) {
    if (!cylindrical(cfg.grid))
      r.fail("snapshot.phi_samples",
             "no snapshot.phi_samples in a Cartesian model (grid.coordinates = cylindrical only)");
    s.phi_samples = static_cast<int>(r.integers("snapshot.phi_samples").front());
  }
  if (r.has("snapshot.fields")) {
    auto w = r.words("snapshot.fields");
    r.check(!w.empty(), "snapshot.fields", "E, H or both");
    s.e = std::find(w.begin(), w.end(), 0) != w.end();
    s.h = std::find(w.begin(), w.end(), 1) != w.end();
  }
}

void read_output_device(const Reader& r, RunConfig& cfg) {
  if (r.has("output.dir")) {
    cfg.output.dir = r.text("output.dir");
    r.check(!cfg.output.dir.empty(), "output.dir", "a directory name");
  }
  cfg.output.energy = r.word("output.energy", 1) == 0;  // words: true, false
  cfg.output.overwrite = r.word("output.overwrite", 1) == 0;
  cfg.device.backend = static_cast<BackendKind>(r.word("device.backend", 0));
  if (r.has("device.select")) cfg.device.select = r.text("device.select");
  cfg.device.variant = static_cast<KernelVariant>(r.word("device.variant", 0));
  cfg.device.halo_path = static_cast<HaloPath>(r.word("device.halo_path", 0));
  cfg.device.cyl_local_staging = r.word("device.cyl_staging", 0) == 1;  // words: global, local
  cfg.device.cyl_align = r.word("device.cyl_align", 0) == 0;           // words: true, false
  cfg.device.upml_form = static_cast<UpmlForm>(r.word("device.upml_form", 0));
  cfg.device.tblock_staging = static_cast<TBlockStaging>(r.word("device.tblock_staging", 0));
  cfg.device.halo_overlap = r.word("device.halo_overlap", 0) == 0;     // words: true, false
  if (r.has("device.decomposition")) {
    auto p = r.integers("device.decomposition");
    const bool automatic = p[0] == 0 && p[1] == 0 && p[2] == 0;
    r.check(automatic || (p[0] >= 1 && p[1] >= 1 && p[2] >= 1), "device.decomposition",
            "three box counts >= 1, or 0 0 0 for the automatic split");
    cfg.device.decomposition = {int(p[0]), int(p[1]), int(p[2])};
  }
  if (r.has("device.workgroup")) {
    auto w = r.integers("device.workgroup");
    cfg.device.workgroup = std::array<int, 3>{int(w[0]), int(w[1]), int(w[2])};
  }
}

RunConfig build_config(const Raw& raw) {
  Reader r(raw);
  RunConfig cfg;
  cfg.source_file = raw.file;
  cfg.quiet = raw.quiet;
  // Lines of file keys (overridden ones are gone) and of section headers, for later errors.
  for (const auto& [key, e] : raw.values) {
    if (e.cli)
      cfg.cli_keys.insert(key);
    else
      cfg.lines[key] = e.line;
  }
  for (const auto& [sec, line] : raw.sections)
    if (line > 0) cfg.lines[sec] = line;
  read_grid(r, cfg.grid);
  read_time(r, raw, cfg.time);
  read_boundary(r, cfg.grid, cfg.boundary);
  read_materials(r, raw, cfg.grid, cfg.materials);
  read_objects(r, raw, cfg);
  read_sources(r, raw, cfg);
  read_lumped(r, raw, cfg);
  read_probes(r, raw, cfg);
  read_monitors(r, raw, cfg);
  read_snapshot(r, cfg);
  read_output_device(r, cfg);
  check_plane_config(cfg);
  check_cyl_config(cfg);
  return cfg;
}

}  // namespace

RunConfig load_config_text(const std::string& text, const std::string& file_name,
                           const std::vector<std::string>& args) {
  Raw raw;
  raw.file = file_name;
  // Editors on Windows start UTF-8 files with a byte order mark; it is no part of the first line.
  const std::string bom = "\xEF\xBB\xBF";
  read_file_values(text.compare(0, bom.size(), bom) == 0 ? text.substr(bom.size()) : text, raw);
  // One rule for both places: time.steps and time.duration together in the file are an error
  // even when the command line then replaces one of them (as both on the command line are).
  if (raw.values.count("time.steps") && raw.values.count("time.duration")) {
    const int ls = raw.values.at("time.steps").line, ld = raw.values.at("time.duration").line;
    throw ConfigError(raw.file, std::max(ls, ld), ls > ld ? "time.steps" : "time.duration",
                      "exactly one of time.steps and time.duration, not both");
  }
  apply_args(args, raw);
  return build_config(raw);
}

namespace {

std::string read_model_file(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) {
    const bool missing = !ec || ec == std::errc::no_such_file_or_directory;
    throw ConfigError(path, 0, "",
                      "cannot open the model file: " + (missing ? "no such file" : ec.message()));
  }
  if (fs::is_directory(st))
    throw ConfigError(path, 0, "", "cannot open the model file: it is a directory, not a model file");
  // A device (/dev/zero) or a FIFO could be endless or block: only a plain file is read.
  if (!fs::is_regular_file(st))
    throw ConfigError(path, 0, "", "cannot open the model file: not a regular file (a device, FIFO or socket)");
  const std::string too_large = "a model file of at most " + std::to_string(kMaxModelFileBytes) +
                                " bytes (16 MiB), this one has ";
  const std::uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > kMaxModelFileBytes)
    throw ConfigError(path, 0, "", too_large + std::to_string(size) + " bytes");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)  // std::ifstream keeps open(2)'s errno (Permission denied, ...), where there was one
    throw ConfigError(path, 0, "", std::string("cannot open the model file") +
                                       (errno != 0 ? std::string(": ") + std::strerror(errno) : ""));
  // Still bounded while reading: the file may have grown since it was measured.
  std::string text;
  char chunk[65536];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxModelFileBytes) throw ConfigError(path, 0, "", too_large + "more");
  }
  return text;
}

}  // namespace

RunConfig load_config(const std::string& path, const std::vector<std::string>& args) {
  if (path.empty()) return load_config_text("", "", args);
  return load_config_text(read_model_file(path), path, args);
}

}  // namespace clfdtd
