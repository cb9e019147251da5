// [monitor.<name>] keys: what the loader reads into MonitorConfig and what it refuses (each
// refusal a ConfigError naming file, line, key and what was expected).
#include <doctest/doctest.h>

#include <string>

#include "config/load_config.hpp"
#include "config/options.hpp"
#include "errors.hpp"

using namespace clfdtd;

namespace {

const std::string kModel = "tests/data/good_monitors.ini";
// Five lines before the monitor text: its section header is line 6.
const std::string kHead = "[grid]\nsize = 1 1 1\nmax_frequency = 1e9\n[time]\nsteps = 100\n";

ConfigError monitor_error(const std::string& body, const std::vector<std::string>& args = {}) {
  try {
    load_config_text(kHead + body, "m.ini", args);
  } catch (const ConfigError& e) {
    return e;
  }
  FAIL("no ConfigError for " << body);
  return ConfigError("", 0, "", "");
}

}  // namespace

TEST_CASE("monitor keys are in the option table, with ranges and help") {
  for (const char* key : {"monitor.*.type", "monitor.*.box", "monitor.*.frequencies",
                          "monitor.*.theta_step", "monitor.*.phi_step", "monitor.*.fields",
                          "monitor.*.modes_file", "monitor.*.every", "monitor.*.decimation"}) {
    INFO(key);
    const OptionSpec* spec = find_option(key);
    REQUIRE(spec != nullptr);
    CHECK(spec->key == key);
  }
  CHECK(find_option("monitor.power.box")->key == "monitor.*.box");
  CHECK(describe_value(*find_option("monitor.m.type")) == "one of flux, dft, farfield, modes, mode_expansion");
  CHECK(describe_value_in_range(*find_option("monitor.m.frequencies")) ==
        "a list of numbers, each in (0, 1e17]");
  CHECK(describe_value_in_range(*find_option("monitor.m.theta_step")) == "a number in (0, 90]");
  CHECK(describe_value_in_range(*find_option("monitor.m.decimation")) ==
        "an integer in [1, 1e6]");
  CHECK(help_text().find("\n[monitor.<name>]\n") != std::string::npos);
  CHECK(keys_markdown().find("## `[monitor.<name>]`") != std::string::npos);
  CHECK(section_problem("monitor").find("[monitor.<name>]") != std::string::npos);
}

TEST_CASE("a model with one monitor of each type is read completely") {
  const RunConfig c = load_config(kModel, {});
  REQUIRE(c.monitors.size() == 5);  // file order
  const MonitorConfig& power = c.monitors[0];
  CHECK(power.name == "power");
  CHECK(power.kind == MonitorKind::Flux);
  CHECK(power.box_lo.x == doctest::Approx(0.07));
  CHECK(power.box_hi.z == doctest::Approx(0.13));
  CHECK(power.frequencies_hz == std::vector<double>{1e9, 2e9, 3e9});
  CHECK(power.fields.empty());
  CHECK(c.monitors[1].box_lo.z == c.monitors[1].box_hi.z);  // a plane
  const MonitorConfig& volume = c.monitors[2];
  CHECK(volume.kind == MonitorKind::Dft);
  CHECK(volume.fields == std::vector<Component>{Component::Ez, Component::Hx});
  const MonitorConfig& pattern = c.monitors[3];
  CHECK(pattern.kind == MonitorKind::FarField);
  CHECK(pattern.theta_step_deg == 10);
  CHECK(pattern.phi_step_deg == 15);
  const MonitorConfig& cavity = c.monitors[4];
  CHECK(cavity.kind == MonitorKind::Modes);
  CHECK(cavity.modes_file == "tests/data/cavity_modes.vti");  // as given: relative to the cwd
  CHECK(cavity.every == 4);
  CHECK(cavity.frequencies_hz.empty());
  CHECK(c.line_of("monitor.cavity.every") == 43);
  CHECK(c.line_of("monitor.pattern") == 33);
}

TEST_CASE("monitor defaults: dft all six components, farfield 5-degree steps, modes every step") {
  const RunConfig c = load_config_text(
      kHead +
          "[monitor.d]\ntype = dft\nbox = 0 0 0 1 1 1\nfrequencies = 1e9\n"
          "[monitor.f]\ntype = farfield\nbox = 0.1 0.1 0.1 0.9 0.9 0.9\nfrequencies = 1e9\n"
          "[monitor.m]\ntype = MODES\nmodes_file = m.vti\n",
      "m.ini", {});
  REQUIRE(c.monitors.size() == 3);
  CHECK(c.monitors[0].fields.size() == 6);
  CHECK(c.monitors[0].fields[5] == Component::Hz);
  CHECK(c.monitors[1].theta_step_deg == 5);
  CHECK(c.monitors[1].phi_step_deg == 5);
  CHECK(c.monitors[2].every == 1);
  CHECK(c.monitors[0].decimation == 0);  // auto: chosen with the sources (model/dft_decimation)
  CHECK(c.monitors[1].decimation == 0);
}

TEST_CASE("monitor.<name>.decimation forces a flux, dft or farfield monitor's D") {
  const RunConfig c = load_config_text(
      kHead + "[monitor.f]\ntype = flux\nbox = 0 0 0 1 1 1\nfrequencies = 1e9\ndecimation = 3\n",
      "m.ini", {"--monitor.g.type=dft", "--monitor.g.box=0 0 0 1 1 1",
                "--monitor.g.frequencies=1e9", "--monitor.g.decimation=1"});
  REQUIRE(c.monitors.size() == 2);
  CHECK(c.monitors[0].decimation == 3);
  CHECK(c.monitors[1].decimation == 1);
}

TEST_CASE("the command line adds or overrides monitor keys") {
  const RunConfig c = load_config(
      kModel, {"--monitor.power.frequencies", "4e9", "5e9", "--monitor.extra.type=flux",
               "--monitor.extra.box=0 0 0.1 0.2 0.2 0.1", "--monitor.extra.frequencies=1e9"});
  REQUIRE(c.monitors.size() == 6);
  CHECK(c.monitors[0].frequencies_hz == std::vector<double>{4e9, 5e9});
  CHECK(c.monitors[5].name == "extra");
  const ConfigError e = monitor_error("", {"--monitor.x.type=flux"});
  CHECK(e.file() == "");
  CHECK(e.key() == "monitor.x.box");
  CHECK(e.expected().find("required for a flux monitor") != std::string::npos);
}

TEST_CASE("monitor refusals name the key, its line and what was expected") {
  struct Case {
    std::string body;
    int line;
    const char* key;
    const char* text;
  };
  const std::string flux = "[monitor.m]\ntype = flux\nfrequencies = 1e9\n";  // box at line 9
  const std::string far = "[monitor.m]\ntype = farfield\nfrequencies = 1e9\n";
  const std::string box = "box = 0.2 0.2 0.2 0.8 0.8 0.8\n";
  const std::string modes = "[monitor.m]\ntype = modes\nmodes_file = m.vti\n";
  const Case cases[] = {
      // Required keys: a missing one points at the section header.
      {"[monitor.m]\nbox = 0 0 0 1 1 1\n", 6, "monitor.m.type", "a value (one of flux, dft, farfield, modes, mode_expansion): required"},
      {"[monitor.m]\ntype = power\n", 7, "monitor.m.type", "one of flux, dft, farfield, modes, mode_expansion, got 'power'"},
      {"[monitor.m]\ntype = flux\nfrequencies = 1e9\n", 6, "monitor.m.box", "required for a flux monitor"},
      {"[monitor.m]\ntype = dft\nbox = 0 0 0 1 1 1\n", 6, "monitor.m.frequencies", "required for a dft monitor"},
      {"[monitor.m]\ntype = farfield\nbox = 0 0 0 1 1 1\n", 6, "monitor.m.frequencies", "required for a farfield monitor"},
      {"[monitor.m]\ntype = modes\n", 6, "monitor.m.modes_file", "required for a modes monitor"},
      // Keys of another type.
      {(modes + box), 9, "monitor.m.box", "no box for a modes monitor (flux, dft, farfield, mode_expansion only)"},
      {(modes + "frequencies = 1e9\n"), 9, "monitor.m.frequencies", "no frequencies for a modes monitor"},
      {(flux + box + "theta_step = 10\n"), 10, "monitor.m.theta_step", "no theta_step for a flux monitor (farfield only)"},
      {(flux + box + "phi_step = 10\n"), 10, "monitor.m.phi_step", "(farfield only)"},
      {(far + box + "fields = Ex\n"), 10, "monitor.m.fields", "no fields for a farfield monitor (dft only)"},
      {(flux + box + "every = 2\n"), 10, "monitor.m.every", "no every for a flux monitor (modes only)"},
      {(modes + "decimation = 2\n"), 9, "monitor.m.decimation", "no decimation for a modes monitor (flux, dft, farfield, mode_expansion only)"},
      {(flux + box + "decimation = 0\n"), 10, "monitor.m.decimation", "an integer in [1, 1e6], got '0'"},
      {(flux + box + "decimation = 2.5\n"), 10, "monitor.m.decimation", "an integer"},
      {(flux + box + "modes_file = m.vti\n"), 10, "monitor.m.modes_file", "(modes only)"},
      // The box.
      {(flux + "box = 0 0 0 1 1 1.5\n"), 9, "monitor.m.box", "corners inside the domain [0, 1] x [0, 1] x [0, 1] m, got '0 0 0 1 1 1.5'"},
      {(flux + "box = -0.1 0 0 1 1 1\n"), 9, "monitor.m.box", "corners inside the domain"},
      {(flux + "box = 0 0 0 1 1\n"), 9, "monitor.m.box", "6 numbers"},
      {(flux + "box = 0.6 0 0 0.5 1 1\n"), 9, "monitor.m.box", "x0 <= x1, y0 <= y1, z0 <= z1, got '0.6 0 0 0.5 1 1'"},
      {(flux + "box = 0 0.5 0.5 1 0.5 0.5\n"), 9, "monitor.m.box", "2 zero extents leave no area"},
      {"[monitor.m]\ntype = dft\nfrequencies = 1e9\nbox = 0.5 0.5 0.5 0.5 0.5 0.5\n", 9, "monitor.m.box", "3 zero extents leave no area"},
      {(far + "box = 0 0 0.5 1 1 0.5\n"), 9, "monitor.m.box", "a closed box for a farfield monitor"},
      // Frequencies, angles, fields, every, modes_file.
      {"[monitor.m]\ntype = flux\nfrequencies = 1e9 0\nbox = 0 0 0 1 1 1\n", 8, "monitor.m.frequencies", "a list of numbers, each in (0, 1e17], got '1e9 0'"},
      {"[monitor.m]\ntype = flux\nfrequencies =\nbox = 0 0 0 1 1 1\n", 8, "monitor.m.frequencies", "1 to 1000 frequencies (0 given)"},
      {(far + box + "theta_step = 0\n"), 10, "monitor.m.theta_step", "a number in (0, 90], got '0'"},
      {(far + box + "phi_step = 91\n"), 10, "monitor.m.phi_step", "a number in (0, 90], got '91'"},
      {"[monitor.m]\ntype = dft\nfrequencies = 1e9\nbox = 0 0 0 1 1 1\nfields = Ex Ex\n", 10, "monitor.m.fields", "each word once"},
      {"[monitor.m]\ntype = dft\nfrequencies = 1e9\nbox = 0 0 0 1 1 1\nfields = Ex Bx\n", 10, "monitor.m.fields", "any of Ex, Ey, Ez, Hx, Hy, Hz, got 'Ex Bx'"},
      {"[monitor.m]\ntype = dft\nfrequencies = 1e9\nbox = 0 0 0 1 1 1\nfields =\n", 10, "monitor.m.fields", "at least one"},
      {(modes + "every = 0\n"), 9, "monitor.m.every", "an integer in [1, 2147483647], got '0'"},
      {"[monitor.m]\ntype = modes\nmodes_file =\n", 8, "monitor.m.modes_file", "the path of a .vti modes file"},
      // Names: they become file names.
      {"[monitor.a/b]\n", 6, "monitor.a/b", "a name of letters, digits, '_' or '-'"},
      {"[monitor...]\n", 6, "monitor...", "a name of letters, digits, '_' or '-'"},
      {(modes + "[monitor.M]\ntype = modes\nmodes_file = m.vti\n"), 9, "monitor.M",
       "differs from 'm' by more than case (both name the file monitors/M.csv)"},
      {(modes + modes), 9, "monitor.m", "each section once (also at line 6)"},
  };
  for (const Case& c : cases) {
    INFO(c.body);
    const ConfigError e = monitor_error(c.body);
    INFO(e.what());
    CHECK(e.file() == "m.ini");
    CHECK(e.line() == c.line);
    CHECK(e.key() == c.key);
    CHECK(e.expected().find(c.text) != std::string::npos);
  }
}

TEST_CASE("at most 1000 frequencies and names of at most 200 characters") {
  std::string many = "[monitor.m]\ntype = flux\nbox = 0 0 0 1 1 1\nfrequencies =";
  for (int i = 1; i <= 1001; ++i) many += " " + std::to_string(i) + "e6";
  ConfigError e = monitor_error(many + "\n");
  CHECK(e.key() == "monitor.m.frequencies");
  CHECK(e.line() == 9);
  CHECK(e.expected().find("1 to 1000 frequencies (1001 given)") != std::string::npos);
  const std::string name(201, 'n');
  e = monitor_error("[monitor." + name + "]\ntype = modes\nmodes_file = m.vti\n");
  CHECK(e.line() == 6);
  CHECK(e.expected().find("a monitor name of at most 200 characters") != std::string::npos);
  CHECK_NOTHROW(load_config_text(
      kHead + "[monitor." + name.substr(1) + "]\ntype = modes\nmodes_file = m.vti\n", "m.ini", {}));
}
