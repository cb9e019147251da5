// The S-matrix from one run per port (output/port_network.hpp), on run folders written here:
// each run's column lands where its driven port says, and every way the runs can disagree is
// refused with the folder named.
#include <doctest/doctest.h>
#include <unistd.h>

#include <complex>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "errors.hpp"
#include "output/port_network.hpp"

using namespace clfdtd;
namespace fs = std::filesystem;

namespace {

struct FakePort {
  std::string name;
  double resistance = 50;
  std::vector<double> frequencies = {1e9, 2e9};
};

void write(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

// What run.json says of the grid and the structure; "" fingerprint: none (an earlier version's).
struct FakeStructure {
  std::string cells = "[90, 60, 80]", cell_size = "[0.005, 0.005, 0.005]";
  std::string dt = "8.660254037844386e-12", steps = "1600";
  std::string fingerprint = "fnv1a64:0123456789abcdef";
};

// A run folder whose port `driven` is driven (-1: none, -2: all); S entries encode (run, port, f).
fs::path fake_run(const std::string& name, const std::vector<FakePort>& ports, int driven,
                  const std::string& status = "completed", const FakeStructure& st = {}) {
  const fs::path dir = fs::temp_directory_path() /
                       ("clfdtd_port_network_" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir / "ports");
  std::string json = "{\"program\": \"clfdtd\", \"status\": \"" + status + "\", \"cells\": " +
                     st.cells + ", \"cell_size_m\": " + st.cell_size + ", \"dt_s\": " + st.dt +
                     ", \"steps_planned\": " + st.steps + ", \"steps_done\": " + st.steps;
  if (!st.fingerprint.empty()) json += ", \"geometry_fingerprint\": \"" + st.fingerprint + "\"";
  json += ", \"ports\": [";
  for (std::size_t k = 0; k < ports.size(); ++k) {
    const FakePort& p = ports[k];
    json += std::string(k ? ", " : "") + "{\"name\": \"" + p.name + "\", \"resistance_ohm\": " +
            std::to_string(p.resistance) + ", \"file\": \"ports/" + p.name +
            ".csv\", \"frequencies_hz\": [";
    for (std::size_t f = 0; f < p.frequencies.size(); ++f)
      json += (f ? ", " : "") + std::to_string(p.frequencies[f]);
    json += "]}";
    const bool is_driven = driven == -2 || driven == static_cast<int>(k);
    std::string csv = is_driven ? "frequency_hz,z_re_ohm,z_im_ohm,s11_re,s11_im,s11_db,delivered_J_s\n"
                                : "frequency_hz,v_re_V_s,v_im_V_s,i_re_A_s,i_im_A_s,received_J_s,"
                                  "s21_re,s21_im,s21_db\n";
    for (std::size_t f = 0; f < p.frequencies.size(); ++f) {
      // Entry S_(k+1)(driven+1) at frequency f: real k + 1 + f / 100, imaginary driven + 1.
      const double re = static_cast<double>(k + 1) + static_cast<double>(f) / 100;
      const double im = driven + 1;
      csv += std::to_string(p.frequencies[f]) +
             (is_driven ? ",1,2," + std::to_string(re) + "," + std::to_string(im) + ",-3,4\n"
                        : ",1,2,3,4,5," + std::to_string(re) + "," + std::to_string(im) + ",-6\n");
    }
    write(dir / "ports" / (p.name + ".csv"), csv);
  }
  write(dir / "run.json", json + "]}");
  return dir;
}

std::string refusal(const std::vector<std::string>& dirs) {
  try {
    read_port_network(dirs);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(accepted)";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("port network: each run's column under its driven port") {
  const std::vector<FakePort> ports = {{"a", 50}, {"b", 100}, {"c", 50}};
  // Given out of order: the columns follow the ports, not the runs.
  const NetworkData d = read_port_network(
      {fake_run("c", ports, 2).string(), fake_run("a", ports, 0).string(), fake_run("b", ports, 1).string()});
  REQUIRE(d.port_names == std::vector<std::string>{"a", "b", "c"});
  CHECK(d.reference_ohm == std::vector<double>{50, 100, 50});
  CHECK(d.frequencies_hz == std::vector<double>{1e9, 2e9});
  REQUIRE(d.s.size() == 2);
  for (std::size_t f = 0; f < 2; ++f)
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j) {
        INFO("S" << i + 1 << j + 1 << " at f " << f);
        CHECK(d.s[f][i * 3 + j].real() == doctest::Approx(static_cast<double>(i + 1) + static_cast<double>(f) / 100));
        CHECK(d.s[f][i * 3 + j].imag() == doctest::Approx(static_cast<double>(j + 1)));
      }
  CHECK(has(d.comments.at(0), "port 1 = a (50 ohm), 2 = b (100 ohm), 3 = c (50 ohm)"));
  CHECK(has(d.comments.at(1), "column 1 from the run in "));
  CHECK(has(d.comments.at(1), "/a"));
}

TEST_CASE("port network: one port, one run") {
  const NetworkData d = read_port_network({fake_run("one", {{"feed", 75}}, 0).string()});
  REQUIRE(d.s.size() == 2);
  CHECK(d.s[0].size() == 1);
  CHECK(d.reference_ohm == std::vector<double>{75});
}

TEST_CASE("port network: refusals name the folder and the cause") {
  const std::vector<FakePort> two = {{"a"}, {"b"}};
  const std::string a = fake_run("a", two, 0).string(), b = fake_run("b", two, 1).string();
  CHECK(refusal({}) == "command line: no run folders given");
  CHECK(has(refusal({a}), "no run drives port 'b'"));
  CHECK(has(refusal({a, fake_run("a2", two, 0).string()}), "it drives port 'a', as "));
  CHECK(has(refusal({a, fake_run("none", two, -1).string()}), "the run drives 0 ports"));
  CHECK(has(refusal({a, fake_run("all", two, -2).string()}), "the run drives 2 ports"));
  CHECK(has(refusal({a, fake_run("stopped", two, 1, "interrupted").string()}),
            "the run did not complete (status 'interrupted')"));
  CHECK(has(refusal({a, fake_run("r", {{"a"}, {"b", 100}}, 1).string()}),
            "port 'b' has another resistance than in "));
  CHECK(has(refusal({a, fake_run("f", {{"a", 50, {1e9, 3e9}}, {"b", 50, {1e9, 3e9}}}, 1).string()}),
            "port 'a' has other frequencies than in "));
  CHECK(has(refusal({a, fake_run("names", {{"a"}, {"c"}}, 1).string()}),
            "its ports (a c) are not those of "));
  CHECK(has(refusal({fake_run("mixed", {{"a", 50, {1e9}}, {"b"}}, 0).string()}),
            "port 'b' has other frequencies than port 'a'"));
  CHECK(has(refusal({(fs::path(a) / "ports").string()}), "not a clfdtd run folder (no run.json)"));
  CHECK(has(refusal({fake_run("noports", {}, -1).string()}), "the run has no ports"));

  // Runs of another structure, grid, time step or length (a user review: a 400-step run and a
  // run with a dipole moved joined with exit 0). Each difference is named.
  auto structure = [&](const std::string& name, FakeStructure st) {
    return refusal({a, fake_run(name, two, 1, "completed", st).string()});
  };
  FakeStructure st;
  st.steps = "400";
  const std::string steps = structure("steps", st);
  CHECK(has(steps, "it is not a run of the structure of " + a + ": time.steps 400 here, 1600 there"));
  CHECK(has(steps, "/steps: "));  // the folder named
  st = {};
  st.fingerprint = "fnv1a64:0123456789abcdee";
  CHECK(has(structure("moved", st), "the meshed structure (objects, materials, boundary or ports: "
                                    "geometry_fingerprint fnv1a64:0123456789abcdee here, "
                                    "fnv1a64:0123456789abcdef there)"));
  st = {};
  st.cells = "[90, 60, 81]";
  CHECK(has(structure("cells", st), "cells 90 x 60 x 81 here, 90 x 60 x 80 there"));
  st = {};
  st.cell_size = "[0.005, 0.005, 0.004]";
  CHECK(has(structure("cell_size", st), "cell size 0.005 x 0.005 x 0.004 m here"));
  st = {};
  st.dt = "8e-12";
  CHECK(has(structure("dt", st), "time step 8e-12 s here, 8.66025404e-12 s there"));
  st = {};
  st.steps = "400";
  st.dt = "8e-12";
  const std::string both = structure("both", st);
  CHECK(has(both, "time step 8e-12 s here"));
  CHECK(has(both, "; time.steps 400 here"));
  st = {};
  st.fingerprint = "";
  CHECK(has(structure("old_version", st), "old_version/run.json: it has no geometry_fingerprint (a run "
                                          "of an earlier clfdtd version)"));
  CHECK(has(structure("old_version", st), "re-run it with this version"));

  // A run.json that is not one, and a spectrum whose rows do not match it.
  const std::string broken = fake_run("broken", two, 1).string();
  write(fs::path(broken) / "run.json", "{\"program\": ");
  CHECK(has(refusal({a, broken}), "not valid JSON"));
  const std::string rows = fake_run("rows", two, 1).string();
  write(fs::path(rows) / "ports/b.csv",
        "frequency_hz,z_re_ohm,z_im_ohm,s11_re,s11_im,s11_db,delivered_J_s\n1e9,1,2,3,4,5,6\n");
  CHECK(has(refusal({a, rows}), "1 rows for 2 frequencies in run.json"));
  write(fs::path(rows) / "ports/b.csv",
        "frequency_hz,z_re_ohm,z_im_ohm,s11_re,s11_im,s11_db,delivered_J_s\n1e9,1,2,3,4,5,6\n"
        "2.5e9,1,2,3,4,5,6\n");
  CHECK(has(refusal({a, rows}), "its frequencies are not run.json's"));
  write(fs::path(rows) / "ports/a.csv", "frequency_hz,v_re_V_s,v_im_V_s\n1e9,1,2\n2e9,1,2\n");
  CHECK(has(refusal({a, rows}), "no s11 or s21 columns"));
  fs::remove_all(fs::temp_directory_path() / ("clfdtd_port_network_" + std::to_string(::getpid())));
}
