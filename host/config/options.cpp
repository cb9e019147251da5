#include "config/options.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace clfdtd {

namespace {

using V = ValueType;
const std::vector<std::string> kAxes{"x", "y", "z"};
const std::vector<std::string> kComponents{"Ex", "Ey", "Ez", "Hx", "Hy", "Hz"};

// One entry per key reads best as a table, so clang-format leaves it alone.
// clang-format off
std::vector<OptionSpec> make_table() {
  return {
      // [grid]: patent steps 1-1-1 (cell size) and 1-1-2 (time step).
      {"grid.size", V::Number, {3}, {}, "m", "required",
       "Domain extent x y z, outer PEC wall to outer PEC wall (UPML layers included)."},
      {"grid.max_frequency", V::Number, {1}, {}, "Hz", "required unless grid.cell_size",
       "Highest frequency to resolve; cell size = c / max_frequency / cells_per_wavelength."},
      {"grid.cell_size", V::Number, {1, 3}, {}, "m", "derived from max_frequency",
       "Explicit cell size: one value for cubic cells, or dx dy dz."},
      {"grid.cells_per_wavelength", V::Number, {1}, {}, "", "10",
       "Cells per shortest wavelength when the cell size is derived (> 0)."},
      {"grid.courant", V::Number, {1}, {}, "", "0.9",
       "Time step as a fraction of the 3D Courant limit, in (0, 1]."},
      // [time]
      {"time.steps", V::Integer, {1}, {}, "", "required (or time.duration)",
       "Number of time steps (> 0). Give exactly one of time.steps and time.duration."},
      {"time.duration", V::Number, {1}, {}, "s", "required (or time.steps)",
       "Simulated time (> 0); steps = ceil(duration / dt)."},
      // [boundary]
      {"boundary.type", V::Word, {1}, {"upml", "pec"}, "", "upml",
       "Outer boundary: uniaxial PML layers in front of the PEC wall, or a bare PEC wall."},
      {"boundary.layers", V::Integer, {1, 6}, {}, "cells", "10 (0 with type = pec)",
       "UPML thickness: one value for all faces, or x_lo x_hi y_lo y_hi z_lo z_hi (>= 0)."},
      {"boundary.grading", V::Number, {1}, {}, "", "3",
       "Polynomial order m of the UPML profile sigma(rho) = sigma_max rho^m (> 0)."},
      {"boundary.sigma_max", V::Number, {1}, {}, "S/m", "0.8 (m+1) / (eta0 d)",
       "Conductivity at the outer edge of the UPML (>= 0)."},
      {"boundary.kappa_max", V::Number, {1}, {}, "", "1",
       "Stretching at the outer edge of the UPML (>= 1)."},
      // [material.<name>]
      {"material.*.eps_r", V::Number, {1}, {}, "", "1", "Relative permittivity (>= 1)."},
      {"material.*.mu_r", V::Number, {1}, {}, "", "1", "Relative permeability (> 0)."},
      {"material.*.sigma", V::Number, {1}, {}, "S/m", "0", "Electric conductivity (>= 0)."},
      {"material.*.pec", V::Word, {1}, {"true", "false"}, "", "false",
       "Perfect electric conductor (the other keys are then ignored)."},
      // [object.<name>]: later objects overwrite earlier ones where they overlap.
      {"object.*.shape", V::Word, {1}, {"box", "sphere", "cylinder"}, "", "required",
       "Shape of the object."},
      {"object.*.center", V::Number, {3}, {}, "m", "required",
       "Centre x y z; must lie inside the domain [0, grid.size]."},
      {"object.*.size", V::Number, {3}, {}, "m", "required for a box",
       "Box edge lengths x y z (> 0)."},
      {"object.*.radius", V::Number, {1}, {}, "m", "required for sphere, cylinder",
       "Radius (> 0)."},
      {"object.*.length", V::Number, {1}, {}, "m", "required for a cylinder",
       "Cylinder extent along its axis (> 0)."},
      {"object.*.axis", V::Word, {1}, kAxes, "", "z", "Cylinder axis."},
      {"object.*.material", V::Text, {1}, {}, "", "required",
       "Name of a [material.<name>] section, or pec, or vacuum."},
      // [source.<name>]: patent step 1-1-4.
      {"source.*.type", V::Word, {1}, {"dipole", "current"}, "", "dipole",
       "Point dipole (moment p(t), C*m) or current density J(t) (A/m^2) in one cell."},
      {"source.*.axis", V::Word, {1}, kAxes, "", "z", "Direction of the dipole or current."},
      {"source.*.position", V::Number, {3}, {}, "m", "required",
       "Position x y z inside the domain [0, grid.size] (not in the UPML)."},
      {"source.*.waveform", V::Word, {1}, {"gaussian", "gaussian_pulse", "ricker", "sine"}, "",
       "gaussian_pulse", "Time function w(t), peak about 1 (see host/model/waveforms.hpp)."},
      {"source.*.frequency", V::Number, {1}, {}, "Hz", "required",
       "Centre (gaussian_pulse, sine), peak (ricker) or e^-1 (gaussian) frequency (> 0)."},
      {"source.*.amplitude", V::Number, {1}, {}, "C*m or A/m^2", "1",
       "Peak value: dipole moment in C*m, current density in A/m^2."},
      {"source.*.delay", V::Number, {1}, {}, "s", "per waveform (4 tau; ricker 1.5/f)",
       "Time of the pulse peak (>= 0)."},
      {"source.*.bandwidth", V::Number, {1}, {}, "Hz", "= frequency",
       "gaussian_pulse only: width of the spectrum, tau = 2 / (pi bandwidth) (> 0)."},
      // [probe.<name>]: patent step 5 outputs.
      {"probe.*.position", V::Number, {3}, {}, "m", "required",
       "Position x y z inside the domain [0, grid.size]."},
      {"probe.*.fields", V::Word, {}, kComponents, "", "Ex Ey Ez Hx Hy Hz",
       "Field components recorded, each at most once."},
      {"probe.*.steps", V::Integer, {2}, {}, "", "0 to the last step",
       "First and last recorded step n1 n2, 0 <= n1 <= n2 <= time.steps."},
      // [snapshot]
      {"snapshot.steps", V::Integer, {}, {}, "", "none",
       "Steps at which the whole 3D field is saved (each >= 0 and <= time.steps)."},
      {"snapshot.fields", V::Word, {}, {"E", "H"}, "", "E H", "Fields saved in each snapshot."},
      // [output]
      {"output.dir", V::Text, {1}, {}, "", "out", "Directory for every output file."},
      {"output.energy", V::Word, {1}, {"true", "false"}, "", "false",
       "Write energy.csv: the electromagnetic energy the Yee scheme conserves, one row per step "
       "(computed on the device; see docs/EQUATIONS.md)."},
      // [device]
      {"device.backend", V::Word, {1}, {"opencl", "reference", "cuda"}, "", "opencl",
       "Compute engine; reference is the plain C++ engine. Alias: --backend=X."},
      {"device.select", V::Text, {1}, {}, "", "(best device)",
       "Device: empty for the best, an index, gpu, cpu, or part of a device name. "
       "Alias: --device=X."},
      {"device.workgroup", V::Integer, {3}, {}, "", "per variant: tile 2 2 30, onepass 8 2 32, rows 1 8 1",
       "Work-group size x y z (> 0); z counts float4s for the tile and onepass variants, 1 for rows; "
       "for onepass x is the planes one group marches through and y, z >= 2. "
       "Alias: --workgroup=X."},
      {"device.variant", V::Word, {1}, {"auto", "tile", "onepass", "rows"}, "", "auto",
       "GPU kernel form (OpenCL and CUDA): tile = the patent's float4 z lanes with local-memory "
       "tiles, onepass = H and E in one pass over double-buffered fields (fewer bytes per step, "
       "twice the field memory), rows = one work-item per z row (for CPUs); auto = the winner stored by `clfdtd bench --tune` for this device and "
       "driver, else rows on CPU devices and, on GPUs, onepass 8 2 32 when the model fits with its second "
       "set of fields, tile 2 4 16 when not. Alias: --variant=X."},
  };
}
// clang-format on

std::string section_of(const std::string& pattern) { return pattern.substr(0, pattern.find('.')); }

// Splits "material.glass.eps_r" into its dot-separated parts.
std::vector<std::string> split_key(const std::string& key) {
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  while (true) {
    auto dot = key.find('.', start);
    parts.push_back(key.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string join(const std::vector<std::string>& words, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) out += (i ? sep : "") + words[i];
  return out;
}

// The section header as a user writes it: [grid] or [material.<name>].
std::string header_of(const std::string& section) {
  const auto& named = named_sections();
  bool is_named = std::find(named.begin(), named.end(), section) != named.end();
  return "[" + section + (is_named ? ".<name>]" : "]");
}

// Plain table text for Markdown: '*' would start emphasis, '<name>' an HTML tag, '|' a column.
std::string md_escape(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (ch == '*' || ch == '|') out += '\\';
    bool tag =
        ch == '<' && i + 1 < text.size() && std::isalpha(static_cast<unsigned char>(text[i + 1]));
    out += tag ? std::string("&lt;") : std::string(1, ch);  // "<=" stays as it is
  }
  return out;
}

// Greedy word wrap of `text` to `width` columns, each line prefixed by `indent`.
std::string wrap(const std::string& text, std::size_t width, const std::string& indent) {
  std::istringstream words(text);
  std::string word, line, out;
  while (words >> word) {
    if (!line.empty() && indent.size() + line.size() + 1 + word.size() > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

}  // namespace

const std::vector<std::string>& named_sections() {
  static const std::vector<std::string> s{"material", "object", "source", "probe"};
  return s;
}

const std::vector<std::string>& singleton_sections() {
  static const std::vector<std::string> s{"grid",     "time",   "boundary",
                                          "snapshot", "output", "device"};
  return s;
}

const std::vector<OptionSpec>& option_table() {
  static const std::vector<OptionSpec> table = make_table();
  return table;
}

const OptionSpec* find_option(const std::string& key) {
  auto parts = split_key(key);
  for (const auto& spec : option_table()) {
    auto pat = split_key(spec.key);
    if (pat.size() != parts.size()) continue;
    bool match = true;
    for (std::size_t i = 0; i < pat.size() && match; ++i)
      match = pat[i] == "*" ? !parts[i].empty() : pat[i] == parts[i];
    if (match) return &spec;
  }
  return nullptr;
}

std::string closest_key(const std::string& key) {
  auto parts = split_key(key);
  // A three-part key keeps its user name; otherwise suggest the pattern with <name>.
  std::string name = parts.size() == 3 ? parts[1] : "<name>";
  std::string best;
  std::size_t best_d = std::string::npos;
  for (const auto& spec : option_table()) {
    std::string cand = spec.key;
    auto star = cand.find('*');
    if (star != std::string::npos) cand.replace(star, 1, name);
    std::size_t d = edit_distance(key, cand);
    if (d < best_d) best_d = d, best = cand;
  }
  // Only a near miss is worth suggesting: a typo, not a different key.
  return best_d <= std::max<std::size_t>(2, key.size() / 4) ? best : "";
}

std::string section_problem(const std::string& section) {
  auto dot = section.find('.');
  std::string kind = section.substr(0, dot);
  auto has = [](const std::vector<std::string>& v, const std::string& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  if (has(singleton_sections(), kind))
    return dot == std::string::npos ? "" : "[" + kind + "] without a name";
  if (!has(named_sections(), kind)) {
    std::string known;
    for (const auto& n : singleton_sections()) known += "[" + n + "], ";
    for (const auto& n : named_sections()) known += "[" + n + ".<name>], ";
    std::string hint;  // a near miss of a section kind: [boundry] -> [boundary]
    for (const auto* list : {&singleton_sections(), &named_sections()})
      for (const auto& n : *list)
        if (hint.empty() && edit_distance(kind, n) <= 2)
          hint = "; did you mean [" + n + (list == &named_sections() ? ".<name>" : "") + "]?";
    return "a known section: " + known.substr(0, known.size() - 2) + hint;
  }
  if (dot == std::string::npos) return "a name: [" + kind + ".<name>]";
  std::string name = section.substr(dot + 1);
  bool ok = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  return ok ? "" : "a name of letters, digits, '_' or '-' after '" + kind + ".'";
}

std::string key_problem(const std::string& key) {
  if (find_option(key)) return "";
  std::string suggestion = closest_key(key);
  std::string hint = suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?";
  auto dot = key.rfind('.');
  std::string problem = section_problem(dot == std::string::npos ? key : key.substr(0, dot));
  // The whole-key suggestion is the more precise one: it replaces the section's.
  if (!problem.empty())
    return hint.empty() ? problem : problem.substr(0, problem.find("; did")) + hint;
  // A known section, an unknown key in it: list the section's keys.
  std::string kind = section_of(key), keys;
  for (const auto& spec : option_table())
    if (section_of(spec.key) == kind)
      keys += (keys.empty() ? "" : ", ") + spec.key.substr(spec.key.rfind('.') + 1);
  return "a key of [" + kind + "]: " + keys + hint;
}

std::vector<std::string> split_value(const std::string& text) {
  std::string t = text;
  std::replace(t.begin(), t.end(), ',', ' ');
  std::istringstream in(t);
  std::vector<std::string> out;
  for (std::string token; in >> token;) out.push_back(token);
  return out;
}

bool count_allowed(const OptionSpec& spec, std::size_t n) {
  const auto& c = spec.counts;
  return c.empty() || std::find(c.begin(), c.end(), static_cast<int>(n)) != c.end();
}

std::optional<double> parse_number(const std::string& token, bool integer) {
  char* end = nullptr;
  double v = std::strtod(token.c_str(), &end);
  if (end == token.c_str() || *end != '\0' || !std::isfinite(v)) return std::nullopt;
  // Whole and small enough that a long holds it exactly.
  if (integer && (v != std::floor(v) || std::abs(v) > 9e15)) return std::nullopt;
  return v;
}

int word_index(const OptionSpec& spec, const std::string& token) {
  auto lower = [](std::string s) {
    for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
  };
  for (std::size_t i = 0; i < spec.words.size(); ++i)
    if (lower(spec.words[i]) == lower(token)) return static_cast<int>(i);
  return -1;
}

std::string display_key(const OptionSpec& spec) {
  std::string key = spec.key;
  auto star = key.find('*');
  return star == std::string::npos ? key : key.replace(star, 1, "<name>");
}

std::string describe_value(const OptionSpec& spec) {
  const auto& c = spec.counts;
  if (spec.type == ValueType::Word) {
    std::string set = join(spec.words, ", ");
    return c.empty() ? "any of " + set : "one of " + set;
  }
  if (spec.type == ValueType::Text) return "text";
  std::string noun = spec.type == ValueType::Number ? "number" : "integer";
  if (c.empty()) return "a list of " + noun + "s";
  if (c.size() == 1 && c[0] == 1) return spec.type == ValueType::Number ? "a number" : "an integer";
  std::string n;
  for (std::size_t i = 0; i < c.size(); ++i)
    n += (i == 0 ? "" : (i + 1 == c.size() ? " or " : ", ")) + std::to_string(c[i]);
  return n + " " + noun + "s";
}

std::string help_text() {
  std::string out =
      "Model keys. A model file holds [section] headers and 'key = value' lines ('#' starts a\n"
      "comment); every value is SI (m, s, Hz, S/m) and numbers may be written like 3e9. Any key\n"
      "can be set or overridden on the command line as --section.key=value, for example\n"
      "--grid.courant=0.5 or --material.glass.eps_r=3. Short forms: --device=X, --backend=X,\n"
      "--workgroup=X (device.select, .backend, .workgroup); --quiet hides the progress line.\n";
  std::string section;
  for (const auto& spec : option_table()) {
    std::string s = section_of(spec.key);
    if (s != section) {
      section = s;
      out += "\n" + header_of(s) + "\n";
    }
    std::string value = describe_value(spec);
    if (!spec.unit.empty()) value += ", " + spec.unit;
    bool required = spec.default_text.rfind("required", 0) == 0;
    value += "; " + (required ? spec.default_text : "default: " + spec.default_text);
    out += "  " + display_key(spec) + "  (" + value + ")\n";
    out += wrap(spec.help, 96, "      ");
  }
  return out;
}

std::string keys_markdown() {
  std::string out =
      "# Model file keys\n\n"
      "<!-- Generated from host/config/options.cpp by keys_markdown(); test_config checks that\n"
      "     this file matches. Regenerate: CLFDTD_WRITE_DOCS=1 ./build/tests/test_config -->\n\n"
      "A model file holds `[section]` headers and `key = value` lines; `#` starts a comment, also\n"
      "after a value. Every value is SI (metres, seconds, hertz, S/m) and numbers may be written\n"
      "like `3e9`; lists are separated by spaces or commas. Sections `[grid]`, `[time]`,\n"
      "`[boundary]`, `[snapshot]`, `[output]` and `[device]` appear at most once; "
      "`[material.<name>]`,\n"
      "`[object.<name>]`, `[source.<name>]` and `[probe.<name>]` repeat with a name of your "
      "choice.\n"
      "Any key can be set or overridden after the model path on the command line as\n"
      "`--section.key=value` (or `--section.key value`), e.g. `--material.glass.eps_r=3`;\n"
      "`--device=X`, `--backend=X` and `--workgroup=X` are short for the `device.*` keys and\n"
      "`--quiet` silences progress output.\n";
  std::string section;
  for (const auto& spec : option_table()) {
    std::string s = section_of(spec.key);
    if (s != section) {
      section = s;
      out += "\n## `" + header_of(s) + "`\n\n";
      out += "| Key | Value | Unit | Default | Meaning |\n";
      out += "|---|---|---|---|---|\n";
    }
    std::string name = spec.key.substr(spec.key.rfind('.') + 1);
    out += "| `" + name + "` | " + md_escape(describe_value(spec)) + " | " + md_escape(spec.unit) +
           " | " + md_escape(spec.default_text) + " | " + md_escape(spec.help) + " |\n";
  }
  return out;
}

}  // namespace clfdtd
