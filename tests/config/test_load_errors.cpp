// Bad input: every class of mistake gives a ConfigError naming file, line, key and what was
// expected. Each file tests/data/bad_<what>.ini is a small valid model with one fault.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "config/load_config.hpp"
#include "errors.hpp"

using namespace clfdtd;

namespace {

struct Expect {
  const char* file;  // tests/data/<file>.ini
  int line;
  const char* key;
  const char* text;  // a part of the expected text
};

// Loads and returns the ConfigError; fails the test if none was thrown.
ConfigError error_of(const std::string& path, const std::vector<std::string>& args = {}) {
  try {
    load_config(path, args);
  } catch (const ConfigError& e) {
    return e;
  }
  FAIL("no ConfigError for " << path);
  return ConfigError("", 0, "", "");
}

void check_error(const ConfigError& e, const std::string& file, int line, const std::string& key,
                 const std::string& text) {
  INFO(std::string(e.what()));
  CHECK(e.file() == file);
  CHECK(e.line() == line);
  CHECK(e.key() == key);
  CHECK(e.expected().find(text) != std::string::npos);
  // The message itself carries all of it, as printed by main().
  std::string where = (file.empty() ? std::string("command line") : file) +
                      (line > 0 ? ":" + std::to_string(line) : std::string()) + ": ";
  CHECK(std::string(e.what()).rfind(where, 0) == 0);
  if (!key.empty()) CHECK(std::string(e.what()).find("'" + key + "'") != std::string::npos);
}

const std::string kGood = "tests/data/good_model.ini";

}  // namespace

TEST_CASE("each bad model file names file, line, key and what was expected") {
  const Expect cases[] = {
      {"bad_syntax", 5, "", "a [section] header or a 'key = value' line, got 'courant 0.5'"},
      {"bad_unknown_section", 9, "boundry", "did you mean [boundary]?"},
      {"bad_unknown_key", 5, "grid.courrant", "did you mean 'grid.courant'?"},
      {"bad_missing_required", 2, "grid.size", "a value (2 or 3 numbers, m): required"},
      {"bad_wrong_count", 3, "grid.size", "2 or 3 numbers, got '0.1 0.1 0.1 0.1'"},
      {"bad_wrong_type", 7, "time.steps", "an integer in [1, 2147483647], got '100.5'"},
      {"bad_courant", 5, "grid.courant", "a number in [0.01, 1], got '1.2'"},
      {"bad_nonpositive", 16, "object.ball.radius", "a number in (0, 1e9], got '0'"},
      {"bad_negative_layers", 10, "boundary.layers", "1, 3, 4 or 6 integers, each in [0, 1000], got '4 4 4 -1 4 4'"},
      {"bad_enum", 10, "boundary.type", "one of upml, pec, got 'mur'"},
      {"bad_material_name", 20, "object.ball.material", "[material.<name>] section, pec or vacuum"},
      {"bad_time_both", 8, "time.duration",
       "exactly one of time.steps and time.duration, not both"},
      {"bad_time_neither", 6, "time.steps", "neither is given"},
      {"bad_duplicate_key", 5, "grid.max_frequency", "each key once (first given at line 4)"},
      {"bad_object_outside", 15, "object.plate.center", "inside the domain [0, 0.1] x [0, 0.1]"},
      {"bad_source_outside", 10, "source.feed.position", "inside the domain"},
      {"bad_probe_outside", 14, "probe.far.position", "got '0.2 0.05 0.05'"},
      {"bad_probe_fields", 15, "probe.p.fields", "any of Ex, Ey, Ez, Hx, Hy, Hz, Er, Ephi, Hr, Hphi, got 'Ex Bz'"},
      {"bad_probe_steps", 15, "probe.p.steps", "0 <= n1 <= n2, got '50 10'"},
      {"bad_snapshot_steps", 14, "snapshot.steps", "within time.steps = 100, got '10 50 150'"},
  };
  for (const auto& c : cases) {
    SUBCASE(c.file) {
      std::string path = std::string("tests/data/") + c.file + ".ini";
      check_error(error_of(path), path, c.line, c.key, c.text);
    }
  }
}

TEST_CASE("a missing model file cannot be opened") {
  check_error(error_of("tests/data/no_such_model.ini"), "tests/data/no_such_model.ini", 0, "",
              "cannot open");
  check_error(error_of("tests/data"), "tests/data", 0, "", "cannot open");
}

TEST_CASE("command-line mistakes say 'command line' and line 0") {
  check_error(error_of(kGood, {"--grid.courrant=0.5"}), "", 0, "grid.courrant",
              "did you mean 'grid.courant'?");
  check_error(error_of(kGood, {"--grid.courant=0"}), "", 0, "grid.courant", "a number in [0.01, 1], got '0'");
  check_error(error_of(kGood, {"--grid.size=1,2,3,4"}), "", 0, "grid.size", "2 or 3 numbers");
  check_error(error_of(kGood, {"--bogus"}), "", 0, "bogus", "--section.key=value");
  check_error(error_of(kGood, {"stray"}), "", 0, "", "got 'stray'");
  check_error(error_of(kGood, {"--quiet", "yes"}), "", 0, "quiet", "--quiet is a flag");
  check_error(error_of(kGood, {"--grid.courant"}), "", 0, "grid.courant", "a value");
  // A material named in another case: pointed at, since names are case-sensitive.
  check_error(error_of(kGood, {"--object.plate.material=PEC"}), "", 0, "object.plate.material",
              "(did you mean 'pec'? names are case-sensitive), got 'PEC'");
  check_error(error_of(kGood, {"--object.ball.material=Glass"}), "", 0, "object.ball.material",
              "(did you mean 'glass'? names are case-sensitive)");
  check_error(error_of(kGood, {"--grid.courant=0.5", "--grid.courant=0.6"}), "", 0, "grid.courant",
              "each key once");
  check_error(error_of(kGood, {"--time.steps=10", "--time.duration=1e-9"}), "", 0, "time.steps",
              "not both");
  check_error(error_of(kGood, {"--backend=vulkan"}), "", 0, "device.backend",
              "one of opencl, reference, cuda");
  check_error(error_of(kGood, {"--workgroup=2,2"}), "", 0, "device.workgroup", "3 integers");
  check_error(error_of(kGood, {"--material.pec.eps_r=2"}), "", 0, "material.pec",
              "other than the built-in pec and vacuum");
  check_error(error_of(kGood, {"--probe.new.fields=Ex"}), "", 0, "probe.new.position", "required");
  // A new section whose name is a near miss of the file's is most likely a misspelt override.
  check_error(error_of(kGood, {"--source.fed.amplitude=2"}), "", 0, "source.fed.position",
              "required; the command line names a new [source.fed] (did you mean [source.feed]?)");
  check_error(error_of(kGood, {"--probe.nearr.fields=Ex"}), "", 0, "probe.nearr.position",
              "(did you mean [probe.near]?)");
  CHECK(error_of(kGood, {"--probe.new.fields=Ex"}).expected().find("did you mean") == std::string::npos);
}

TEST_CASE("without a file every required key must come from the command line") {
  check_error(error_of(""), "", 0, "grid.size", "required");
  check_error(error_of("", {"--grid.size=1,1,1"}), "", 0, "grid.max_frequency",
              "required unless grid.cell_size is given");
  check_error(error_of("", {"--grid.size=1,1,1", "--grid.max_frequency=1e9"}), "", 0, "time.steps",
              "exactly one");
}

// More checks of the same classes, on inline models: line numbers come from the text.
namespace {
ConfigError text_error(const std::string& body) {
  const std::string head = "[grid]\nsize = 1 1 1\nmax_frequency = 1e9\n[time]\nsteps = 100\n";
  try {
    load_config_text(head + body, "m.ini", {});
  } catch (const ConfigError& e) {
    return e;
  }
  FAIL("no ConfigError for " << body);
  return ConfigError("", 0, "", "");
}
}  // namespace

TEST_CASE("range, shape and cross-key checks") {
  struct Case {
    const char* body;
    int line;
    const char* key;
    const char* text;
  };
  const Case cases[] = {
      {"[material.m]\neps_r = 0.5\n", 7, "material.m.eps_r", "1 or 3 numbers, each in [1, 1e6], got '0.5'"},
      {"[material.m]\nmu_r = 0\n", 7, "material.m.mu_r", "1 or 3 numbers, each in [0.001, 1e6], got '0'"},
      {"[material.m]\nsigma = -1\n", 7, "material.m.sigma", "1 or 3 numbers, each in [0, 1e9], got '-1'"},
      {"[material.m]\npec = yes\n", 7, "material.m.pec", "one of true, false"},
      {"[material.vacuum]\n", 6, "material.vacuum", "built-in"},
      {"[object.o]\ncenter = 0 0 0\nmaterial = pec\n", 6, "object.o.shape", "required"},
      {"[object.o]\nshape = box\ncenter = 0 0 0\nmaterial = pec\n", 6, "object.o.size",
       "required for a box"},
      {"[object.o]\nshape = box\ncenter = 0 0 0\nsize = 1 1 1\nradius = 1\nmaterial = pec\n", 10,
       "object.o.radius", "no radius for a box"},
      {"[object.o]\nshape = cylinder\ncenter = 0 0 0\nradius = 1\nmaterial = pec\n", 6,
       "object.o.length", "required for a cylinder"},
      {"[object.o]\nshape = box\ncenter = 0 0 0\nsize = 1 0 1\nmaterial = pec\n", 9,
       "object.o.size", "2 or 3 numbers, each in (0, 1e9], got '1 0 1'"},
      {"[object.o]\nshape = cone\n", 7, "object.o.shape", "one of box, sphere, cylinder, prism"},
      {"[object.o]\nshape = prism\ncenter = 0 0 0\nlength = 1\nmaterial = pec\n", 6,
       "object.o.vertices", "required for a prism"},
      {"[object.o]\nshape = prism\ncenter = 0 0 0\nvertices = 0 0 1 0 0 1\nmaterial = pec\n", 6,
       "object.o.length", "required for a prism"},
      {"[object.o]\nshape = prism\ncenter = 0 0 0\nlength = 1\nvertices = 0 0 1 0\nmaterial = pec\n", 10,
       "object.o.vertices", "pairs u v of at least 3"},
      {"[object.o]\nshape = prism\ncenter = 0 0 0\nlength = 1\nvertices = 0 0 1 1 2 2\nmaterial = pec\n", 10,
       "object.o.vertices", "corners that enclose an area"},
      {"[object.o]\nshape = prism\ncenter = 0 0 0\nlength = 1\nvertices = 0 0 0.06 0.04 0.06 0 0 0.02\nmaterial = pec\n", 10,
       "object.o.vertices", "sides do not cross or touch (sides 1 and 3 do"},
      {"[object.o]\nshape = prism\ncenter = 0 0 0\nlength = 1\nvertices = 0 0 0.05 0 0.1 1e-20\nmaterial = pec\n", 10,
       "object.o.vertices", "corners that enclose an area"},
      {"[object.o]\nshape = prism\ncenter = 0.5 0.5 0.5\nlength = 1\nvertices = 0 0 5 0 0 0.1\nmaterial = pec\n", 10,
       "object.o.vertices", "within one domain size of the domain along x and y (-1 .. 2 and -1 .. 2 m)"},
      {"[object.o]\nshape = prism\ncenter = 0 0 0.5\nlength = 1\nvertices = -0.9 -0.9 -0.5 -0.9 -0.9 -0.5\nmaterial = pec\n", 10,
       "object.o.vertices", "a polygon that reaches into the domain"},
      {"[object.o]\nshape = prism\ncenter = 0.5 0.5 0.5\nlength = 1\nvertices = -0.1 -0.1 0.1 0.1 0.1 -0.1 -0.1 0.1\nmaterial = pec\n", 10,
       "object.o.vertices", "sides do not cross or touch (sides 1 and 3 do"},
      {"[object.o]\nshape = box\ncenter = 0 0 0\nsize = 1 1 1\nvertices = 0 0 1 0 0 1\nmaterial = pec\n", 10,
       "object.o.vertices", "no vertices for a box (prism only)"},
      {"[source.s]\nposition = 0 0 0\n", 6, "source.s.frequency", "required"},
      {"[source.s]\nposition = 0 0 0\nfrequency = -1\n", 8, "source.s.frequency", "a number in (0, 1e17], got '-1'"},
      {"[source.s]\nposition = 0 0 0\nfrequency = 1e9\ndelay = -1e-9\n", 9, "source.s.delay",
       ">= 0"},
      {"[source.s]\nposition = 0 0 0\nfrequency = 1e9\nwaveform = sine\nbandwidth = 1e9\n", 10,
       "source.s.bandwidth", "unless waveform = gaussian_pulse"},
      {"[source.s]\nposition = 0 0 0\nfrequency = 1e9\naxis = w\n", 9, "source.s.axis",
       "one of x, y, z"},
      {"[probe.p]\n", 6, "probe.p.position", "required"},
      {"[probe.p]\nposition = 0 0 0\nfields = Ex Ex\n", 8, "probe.p.fields", "each word once"},
      {"[probe.p]\nposition = 0 0 0\nfields =\n", 8, "probe.p.fields", "at least one"},
      {"[probe.p]\nposition = 0 0 0\nsteps = 0 101\n", 8, "probe.p.steps", "time.steps = 100"},
      {"[probe.p]\nposition = 0 0 0\nsteps = -1 5\n", 8, "probe.p.steps", "2 integers, each in [0, 2147483647], got '-1 5'"},
      {"[snapshot]\nsteps = -1\n", 7, "snapshot.steps", "a list of integers, each in [0, 2147483647], got '-1'"},
      {"[snapshot]\nfields = E B\n", 7, "snapshot.fields", "any of E, H"},
      {"[boundary]\ntype = pec\nlayers = 4\n", 8, "boundary.layers", "0 with boundary.type = pec"},
      // The values of issue 16 that could only give NaN, each refused with its range.
      {"[boundary]\nkappa_max = 1e308\n", 7, "boundary.kappa_max", "a number in [1, 1000]"},
      {"[material.m]\nmu_r = 1e-308\n", 7, "material.m.mu_r", "each in [0.001, 1e6]"},
      {"[source.s]\nposition = 0 0 0\nfrequency = 1e308\n", 8, "source.s.frequency",
       "a number in (0, 1e17], got '1e308'"},
      // Faster than light on the time step (courant 0.9): the message says how to fix it.
      {"[material.m]\nmu_r = 0.5\n", 7, "material.m.mu_r",
       "eps_r x mu_r >= grid.courant^2 = 0.81, got eps_r x mu_r = 0.5; lower grid.courant below "
       "sqrt(eps_r x mu_r) = 0.707107"},
      // Anisotropic materials: one value or three; the fastest axes' product for the step.
      {"[material.m]\neps_r = 2 3\n", 7, "material.m.eps_r", "1 or 3 numbers"},
      {"[material.m]\neps_r = 2 3 0.5\n", 7, "material.m.eps_r", "each in [1, 1e6], got '2 3 0.5'"},
      {"[material.m]\neps_r = 2 1 3\nmu_r = 0.7 2 2\n", 8, "material.m.mu_r",
       "eps_r x mu_r >= grid.courant^2 = 0.81, got eps_r x mu_r = 0.7"},
      // axes: three names of other isotropic, non-PEC materials, and no values of its own.
      {"[material.m]\naxes = a b\n", 7, "material.m.axes", "3 names, got 'a b'"},
      {"[material.m]\naxes = vacuum vacuum wire\n[material.wires]\ndrude = 1e9 0\n", 7, "material.m.axes",
       "(z: 'wire' is not defined; did you mean 'wires'?)"},
      {"[material.m]\naxes = m vacuum vacuum\n", 7, "material.m.axes", "(x: 'm' is this material)"},
      {"[material.m]\naxes = vacuum metal vacuum\n[material.metal]\npec = true\n", 7, "material.m.axes",
       "three names of isotropic materials that are not pec (y: 'metal' is pec)"},
      {"[material.m]\naxes = c c c\n[material.c]\neps_r = 1 2 3\n", 7, "material.m.axes",
       "(x: 'c' is anisotropic)"},
      {"[material.m]\naxes = a a b\n[material.a]\n[material.b]\naxes = a a a\n", 7, "material.m.axes",
       "(z: 'b' is given by axes itself)"},
      {"[material.m]\naxes = vacum vacuum vacuum\n", 7, "material.m.axes", "(x: 'vacum' is not defined; did you mean 'vacuum'?)"},
      {"[material.m]\naxes = vacuum pec vacuum\n", 7, "material.m.axes", "(y: 'pec' is pec)"},
      {"[material.m]\naxes = a a a\neps_r = 2\n[material.a]\n", 8, "material.m.eps_r",
       "no eps_r with axes (the three materials named there give each axis' values)"},
      {"[material.m]\ndrude = 1e9 0\naxes = a a a\n[material.a]\n", 7, "material.m.drude", "no drude with axes"},
      {"[material.m]\naxes = a vacuum vacuum\n[material.a]\nmu_r = 0.7\n", 9, "material.a.mu_r",
       "eps_r x mu_r >= grid.courant^2"},
      {"[boundary]\nlayers = 1 2 3\n", 7, "boundary.layers", "1 or 6 integers (x_lo x_hi y_lo y_hi z_lo z_hi) in a 3D model, got '1 2 3'"},
      {"[boundary]\nlayers = 1 2 3 4\n", 7, "boundary.layers", "1 or 6 integers (x_lo x_hi y_lo y_hi z_lo z_hi) in a 3D model, got '1 2 3 4'"},
      {"[boundary]\ngrading = 0\n", 7, "boundary.grading", "a number in (0, 20], got '0'"},
      {"[boundary]\nkappa_max = 0.5\n", 7, "boundary.kappa_max", "a number in [1, 1000], got '0.5'"},
      {"[boundary]\nsigma_max = -1\n", 7, "boundary.sigma_max", "a number >= 0, got '-1'"},
      {"[output]\ndir =\n", 7, "output.dir", "a directory name"},
      {"[device]\nworkgroup = 0 2 2\n", 7, "device.workgroup", "3 integers, each in [1, 1024], got '0 2 2'"},
      {"[device]\ndecomposition = 2 0 1\n", 7, "device.decomposition",
       "three box counts >= 1, or 0 0 0 for the automatic split, got '2 0 1'"},
      {"[device]\ndecomposition = 2 2\n", 7, "device.decomposition", "3 integers"},
      {"[device]\ndecomposition = -1 1 1\n", 7, "device.decomposition", "3 integers, each in [0, 65536]"},
      {"[grid]\n", 6, "grid", "each section once (also at line 1)"},
      {"[material]\n", 6, "material", "[material.<name>]"},
      {"[grid.fine]\n", 6, "grid.fine", "without a name"},
      {"[material.a b]\n", 6, "material.a b", "letters, digits"},
      {"[device]\nselect = 1\n[probe.p]\nposition = 0 0 0\nselect = 2\n", 10, "probe.p.select",
       "a key of [probe]: position, fields, steps"},
  };
  for (const auto& c : cases) {
    SUBCASE(c.body) { check_error(text_error(c.body), "m.ini", c.line, c.key, c.text); }
  }
}

TEST_CASE("grid checks") {
  auto err = [](const std::string& text) {
    try {
      load_config_text(text + "[time]\nsteps = 1\n", "g.ini", {});
    } catch (const ConfigError& e) {
      return e;
    }
    FAIL("no error");
    return ConfigError("", 0, "", "");
  };
  check_error(err("[grid]\nsize = 1 0 1\nmax_frequency = 1e9\n"), "g.ini", 2, "grid.size", "2 or 3 numbers, each in (0, 1e9], got '1 0 1'");
  check_error(err("[grid]\nsize = 1 1 1\n"), "g.ini", 1, "grid.max_frequency",
              "required unless grid.cell_size");
  check_error(err("[grid]\nsize = 1 1 1\nmax_frequency = 0\n"), "g.ini", 3, "grid.max_frequency",
              "a number in [1, 1e17], got '0'");
  check_error(err("[grid]\nsize = 1 1 1\ncell_size = 0.1 0.1\n"), "g.ini", 3, "grid.cell_size",
              "1 or 3 numbers");
  check_error(err("[grid]\nsize = 1 1 1\ncell_size = 0.1 # c\ncells_per_wavelength = 0\n"), "g.ini",
              4, "grid.cells_per_wavelength", "a number in [2, 1000], got '0'");
  check_error(err("[grid]\nsize = 1 1 1\ncell_size = 0.1\ncourant = 1e-308\n"), "g.ini", 4,
              "grid.courant", "a number in [0.01, 1], got '1e-308'");
  check_error(err("[grid]\nsize = 1 1 1\ncell_size = 0.1\ncourant = 3GHz\n"), "g.ini", 4,
              "grid.courant", "a number in [0.01, 1], got '3GHz'");
  check_error(err("size = 1 1 1\n"), "g.ini", 1, "size", "a [section] header before the first key");
}

TEST_CASE("time.steps and time.duration both in the file stay an error under a command-line override") {
  const std::string path = "tests/data/bad_time_both.ini";
  check_error(error_of(path, {"--time.duration=1e-9"}), path, 8, "time.duration", "not both");
  check_error(error_of(path, {"--time.steps=10"}), path, 8, "time.duration", "not both");
}

TEST_CASE("steps within time.steps: the file's are left to the model when the command line sets the length") {
  // good_model.ini has snapshots at 100 200 300 and a probe window 10..300.
  const RunConfig cfg = load_config(kGood, {"--time.steps=50"});
  CHECK(cfg.time.from_command_line);
  CHECK(cfg.snapshot.steps == std::vector<long>{100, 200, 300});
  // Steps the command line itself gives past its own length are still refused.
  check_error(error_of(kGood, {"--time.steps=50", "--snapshot.steps=60"}), "", 0, "snapshot.steps",
              "within time.steps = 50");
  check_error(error_of(kGood, {"--time.steps=50", "--probe.near.steps=0 60"}), "", 0,
              "probe.near.steps", "within time.steps = 50");
  CHECK_FALSE(load_config(kGood, {}).time.from_command_line);
}

// An audit found "steps = 20<NUL>junk" read as 20, and the documented default of decimation,
// "auto", refused when written.
TEST_CASE("a NUL byte inside a number is an error; decimation = auto is the default written out") {
  check_error(error_of(kGood, {"--time.steps=20" + std::string(1, '\0') + "junk"}), "", 0,
              "time.steps", "got");
  const RunConfig written = load_config(kGood, {"--monitor.f.type=flux", "--monitor.f.box=0 0 0 0.01 0.01 0.01",
                                                "--monitor.f.frequencies=1e9",
                                                "--monitor.f.decimation=auto"});
  REQUIRE(written.monitors.size() == 1);
  CHECK(written.monitors[0].decimation == 0);  // 0: auto
  const RunConfig three = load_config(kGood, {"--monitor.f.type=flux", "--monitor.f.box=0 0 0 0.01 0.01 0.01",
                                              "--monitor.f.frequencies=1e9",
                                              "--monitor.f.decimation=3"});
  CHECK(three.monitors[0].decimation == 3);
  check_error(error_of(kGood, {"--monitor.f.type=flux", "--monitor.f.box=0 0 0 0.01 0.01 0.01",
                               "--monitor.f.frequencies=1e9", "--monitor.f.decimation=automatic"}),
              "", 0, "monitor.f.decimation", "an integer in [1, 1e6]");
}

// An audit found an unreadable model file reported without the system's reason.
TEST_CASE("a model file the user may not read: the message says why") {
  if (::geteuid() == 0) {
    MESSAGE("skipped: root reads any file");
    return;
  }
  const std::string path = "/tmp/clfdtd_unreadable_" + std::to_string(::getpid()) + ".ini";
  { std::ofstream(path) << "[grid]\n"; }
  ::chmod(path.c_str(), 0);
  const ConfigError e = error_of(path);
  ::unlink(path.c_str());
  CHECK(std::string(e.what()).find("Permission denied") != std::string::npos);
}

TEST_CASE("a prism's polygon closed by repeating its first corner (as CAD exports it) is one polygon") {
  const std::string text =
      "[grid]\nsize = 1 1 1\nmax_frequency = 1e9\n[time]\nsteps = 100\n[object.o]\nshape = prism\n"
      "center = 0.5 0.5 0.5\nlength = 0.2\nvertices = 0 0 0.1 0 0 0.1 0 0\nmaterial = pec\n";
  const RunConfig cfg = load_config_text(text, "m.ini", {});
  REQUIRE(cfg.objects.size() == 1);
  CHECK(cfg.objects[0].vertices.size() == 3);
}
