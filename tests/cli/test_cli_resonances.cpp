// probe.<name>.resonances end to end: a PEC cavity's resonances against the Yee grid's exact
// ones, a lossy filling's decay against the update's exact damping, and the refusals and
// warnings around the analysis window.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_helpers.hpp"

using namespace clfdtd_test;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kC0 = 299792458.0;
constexpr double kEps0 = 8.8541878128e-12;
constexpr double kMu0 = 1.25663706212e-6;

struct Row {
  std::string probe, field, unit;
  double f = 0, decay = 0, q = 0, amplitude = 0, phase = 0, error = 0, t0 = 0;
};

std::vector<Row> resonance_rows(const std::string& path, std::string& header) {
  std::istringstream in(read_text(path));
  std::getline(in, header);
  std::vector<Row> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> c;
    std::istringstream cells(line);
    std::string cell;
    while (std::getline(cells, cell, ',')) c.push_back(cell);
    REQUIRE(c.size() == 10);
    Row r;
    r.probe = c[0];
    r.field = c[1];
    r.f = std::strtod(c[2].c_str(), nullptr);
    r.decay = std::strtod(c[3].c_str(), nullptr);
    r.q = std::strtod(c[4].c_str(), nullptr);
    r.amplitude = std::strtod(c[5].c_str(), nullptr);
    r.unit = c[6];
    r.phase = std::strtod(c[7].c_str(), nullptr);
    r.error = std::strtod(c[8].c_str(), nullptr);
    r.t0 = std::strtod(c[9].c_str(), nullptr);
    rows.push_back(r);
  }
  return rows;
}

// The one-step amplification of a cavity mode (m, n, p) of a box of cells n_cells x d on the Yee
// grid filled with eps_r and sigma (the averaged loss term of the E update): the pair of
// eigenvalues z of [H; E] per step has |z|^2 = ca and cos(arg z) = (1 + ca - g) / (2 sqrt(ca)),
// g = cb c1 K^2, K^2 = sum (2 sin(k_i d_i / 2) / d_i)^2.
struct YeeMode {
  double f = 0, decay = 0;
  int m = 0, n = 0, p = 0;
};

YeeMode yee_mode(int m, int n, int p, const std::array<int, 3>& cells, const std::array<double, 3>& d,
                 double dt, double eps_r, double sigma) {
  const int idx[3] = {m, n, p};
  double k2 = 0;
  for (int a = 0; a < 3; ++a) {
    const double k = idx[a] * kPi / (cells[a] * d[a]);
    const double s = 2 * std::sin(k * d[a] / 2) / d[a];
    k2 += s * s;
  }
  const double eps = kEps0 * eps_r, q = sigma * dt / (2 * eps);
  const double ca = (1 - q) / (1 + q), cb = dt / eps / (1 + q), c1 = dt / kMu0;
  const double g = cb * c1 * k2;
  YeeMode y;
  y.f = std::acos((1 + ca - g) / (2 * std::sqrt(ca))) / (2 * kPi * dt);
  y.decay = -std::log(ca) / (2 * dt);
  y.m = m;
  y.n = n;
  y.p = p;
  return y;
}

// The modes with Ez (m, n >= 1) of a z-directed current, in the band, distinct frequencies.
// max_p = 0: a 2D tm model (no variation along z).
std::vector<YeeMode> ez_modes(const std::array<int, 3>& cells, const std::array<double, 3>& d, double dt,
                              double eps_r, double sigma, double f1, double f2, int max_p = 7) {
  std::vector<YeeMode> out;
  for (int m = 1; m < 8; ++m)
    for (int n = 1; n < 8; ++n)
      for (int p = 0; p <= max_p; ++p) {
        const YeeMode y = yee_mode(m, n, p, cells, d, dt, eps_r, sigma);
        if (y.f < f1 || y.f > f2) continue;
        bool seen = false;
        for (const YeeMode& o : out) seen = seen || std::abs(o.f / y.f - 1) < 1e-9;
        if (!seen) out.push_back(y);
      }
  std::sort(out.begin(), out.end(), [](const YeeMode& a, const YeeMode& b) { return a.f < b.f; });
  return out;
}

nlohmann::json run_json(const std::string& dir) {
  return nlohmann::json::parse(read_text(dir + "/run.json"));
}

}  // namespace

TEST_CASE("resonances of models/pec_cavity.ini are the Yee cavity's") {
  const std::string dir = scratch_dir("resonances_pec");
  const Ran r = run_clfdtd("run models/pec_cavity.ini --quiet --output.dir=" + dir);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK_MESSAGE(r.out.find("resonance  p.Ez: 7 in 1e+09 .. 2.6e+09 Hz: 1.24976") != std::string::npos, r.out);
  const nlohmann::json j = run_json(dir);
  const double dt = j["dt_s"];
  const std::array<int, 3> cells = {j["cells"][0], j["cells"][1], j["cells"][2]};
  const std::array<double, 3> d = {j["cell_size_m"][0], j["cell_size_m"][1], j["cell_size_m"][2]};
  REQUIRE(j["resonances"].size() == 3);
  const nlohmann::json& ez = j["resonances"][0];
  CHECK(ez["probe"] == "p");
  CHECK(ez["field"] == "Ez");
  CHECK(ez["file"] == "resonances.csv");
  CHECK(ez["found"] == 7);
  CHECK(ez["to_step"] == 4000);
  // The gaussian current (3 GHz, tau = 1 / (pi f), delay 4 tau) falls below 1e-6 of its peak
  // at 4 + sqrt(ln 1e6) = 7.72 tau; the series starts two steps after the last step above it.
  const long from = ez["from_step"];
  const double quiet = (4 + std::sqrt(std::log(1e6))) / (kPi * 3e9) / dt;
  CHECK(from >= quiet + 1);
  CHECK(from <= quiet + 3);
  CHECK(std::abs(static_cast<double>(ez["t0_s"]) - from * dt) < 1e-20);

  std::string header;
  const std::vector<Row> rows = resonance_rows(dir + "/resonances.csv", header);
  CHECK(header == "probe,field,frequency_hz,decay_per_s,q,amplitude,unit,phase_rad,error,t0_s");
  const std::vector<YeeMode> expected = ez_modes(cells, d, dt, 1, 0, 1e9, 2.6e9);
  REQUIRE(expected.size() == 7);
  std::vector<Row> found;
  for (const Row& row : rows)
    if (row.field == "Ez") found.push_back(row);
  REQUIRE(found.size() == expected.size());
  for (std::size_t k = 0; k < found.size(); ++k) {
    CAPTURE(k);
    CAPTURE(found[k].f);
    CAPTURE(expected[k].f);
    CHECK(std::abs(found[k].f / expected[k].f - 1) < 1e-6);
    CHECK(std::abs(1 / found[k].q) < 1e-5);  // lossless: no decay beyond float rounding's
    CHECK(found[k].unit == "V/m");
    CHECK(found[k].error < 1e-5);
    CHECK(found[k].amplitude > 0);
  }
  // H sees the same modes (its samples sit half a step earlier).
  for (const Row& row : rows)
    if (row.field != "Ez") {
      CHECK(row.unit == "A/m");
      CHECK(std::abs(row.t0 - (from - 0.5) * dt) < 1e-20);
    }
}

TEST_CASE("resonances of a lossy filling decay as the E update damps") {
  const std::string dir = scratch_dir("resonances_lossy");
  const std::string model = dir + ".ini";
  const double eps_r = 2, sigma = 1e-3;
  std::ofstream(model) << "[grid]\nsize = 0.1 0.08 0.06\ncell_size = 0.005\n"
                          "[time]\nsteps = 3000\n[boundary]\ntype = pec\n"
                          "[material.lossy]\neps_r = 2\nsigma = 0.001\n"
                          "[object.fill]\nshape = box\ncenter = 0.05 0.04 0.03\nsize = 0.1 0.08 0.06\n"
                          "material = lossy\n"
                          "[source.kick]\ntype = current\naxis = z\nposition = 0.021 0.017 0.026\n"
                          "waveform = gaussian_pulse\nfrequency = 2.5e9\nbandwidth = 2e9\n"
                          "[probe.p]\nposition = 0.067 0.052 0.027\nfields = Ez\nresonances = 1.5e9 3.2e9\n"
                          "[output]\ndir = " + dir + "\n";
  const Ran r = run_clfdtd("run " + model + " --quiet");
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const nlohmann::json j = run_json(dir);
  const double dt = j["dt_s"];
  const std::array<int, 3> cells = {j["cells"][0], j["cells"][1], j["cells"][2]};
  const std::array<double, 3> d = {j["cell_size_m"][0], j["cell_size_m"][1], j["cell_size_m"][2]};
  std::string header;
  const std::vector<Row> rows = resonance_rows(dir + "/resonances.csv", header);
  const std::vector<YeeMode> expected = ez_modes(cells, d, dt, eps_r, sigma, 1.5e9, 3.2e9);
  REQUIRE(expected.size() >= 3);
  REQUIRE(rows.size() == expected.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    CAPTURE(k);
    CAPTURE(rows[k].f);
    CAPTURE(expected[k].f);
    CAPTURE(rows[k].decay);
    CAPTURE(expected[k].decay);
    CHECK(std::abs(rows[k].f / expected[k].f - 1) < 1e-6);
    CHECK(std::abs(rows[k].decay / expected[k].decay - 1) < 1e-4);
    CHECK(std::abs(rows[k].q / (kPi * expected[k].f / expected[k].decay) - 1) < 1e-4);
  }
}

TEST_CASE("resonances in 2D (tm) and cylindrical models") {
  // The 2D tm cavity of the validation cases: Ez's five lowest resonances, the Yee grid's own.
  const std::string plane = scratch_dir("resonances_2d");
  Ran r = run_clfdtd("run models/validation/plane_cavity_tm.ini --quiet --time.steps=4000 "
                     "--probe.p.resonances=\"0.9e9 2.3e9\" --output.dir=" + plane);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  nlohmann::json j = run_json(plane);
  const double dt = j["dt_s"];
  const std::array<int, 3> cells = {j["cells"][0], j["cells"][1], 1};
  const std::array<double, 3> d = {j["cell_size_m"][0], j["cell_size_m"][1], 1.0};
  const std::vector<YeeMode> expected = ez_modes(cells, d, dt, 1, 0, 0.9e9, 2.3e9, 0);
  REQUIRE(expected.size() == 5);
  std::string header;
  std::vector<Row> ez;
  for (const Row& row : resonance_rows(plane + "/resonances.csv", header))
    if (row.field == "Ez") ez.push_back(row);
  REQUIRE(ez.size() == expected.size());
  for (std::size_t k = 0; k < ez.size(); ++k) {
    CAPTURE(k);
    CHECK(std::abs(ez[k].f / expected[k].f - 1) < 1e-6);
    CHECK(std::abs(1 / ez[k].q) < 1e-5);
  }

  // models/cyl_cavity.ini (R = 0.1 m, L = 0.15 m): Ez sees TM010, TM011 and TM110 at
  // c / (2 pi) sqrt((x / R)^2 + (p pi / L)^2), x = 2.40483 and 3.83171 (zeros of J0, J1); the grid's
  // dispersion (40 cells across R) keeps them within 5e-4 of the formula.
  const std::string cyl = scratch_dir("resonances_cyl");
  r = run_clfdtd("run models/cyl_cavity.ini --quiet --probe.p.resonances=\"1e9 2e9\" --snapshot.steps=\"\" "
                 "--output.dir=" + cyl);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const auto tm = [](double x, int p) {
    return kC0 / (2 * kPi) * std::sqrt(std::pow(x / 0.1, 2) + std::pow(p * kPi / 0.15, 2));
  };
  const std::vector<double> tm_modes = {tm(2.40483, 0), tm(2.40483, 1), tm(3.83171, 0)};
  ez.clear();
  for (const Row& row : resonance_rows(cyl + "/resonances.csv", header))
    if (row.field == "Ez") ez.push_back(row);
  REQUIRE(ez.size() == tm_modes.size());
  for (std::size_t k = 0; k < ez.size(); ++k) {
    CAPTURE(k);
    CAPTURE(ez[k].f);
    CHECK(std::abs(ez[k].f / tm_modes[k] - 1) < 5e-4);
    CHECK(std::abs(1 / ez[k].q) < 1e-5);
  }
}

TEST_CASE("resonances behind a waveguide port: the iris filter's loaded Q from its ringing") {
  // models/waveguide_iris.ini's two irises make a resonator: from the field between them after
  // the port's pulse, one resonance, whose frequency and Q agree with |S21|^2's peak and
  // half-power width. The port's mode line rings on at the guide's cutoff (6.56 GHz) for the whole
  // run; the window still opens once the pulse has passed.
  const std::string dir = scratch_dir("resonances_iris");
  const Ran r = run_clfdtd("run models/waveguide_iris.ini --quiet --time.steps=6000 "
                           "--probe.mid.position=\"0.0114 0.0051 0.061\" --probe.mid.fields=Ey "
                           "--probe.mid.resonances=\"9e9 12e9\" --output.dir=" + dir);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const nlohmann::json j = run_json(dir);
  const double dt = j["dt_s"];
  const long from = j["resonances"][0]["from_step"];
  // gaussian_pulse at 10.3 GHz, 4.2 GHz wide: tau = 2 / (pi 4.2e9), over after ~ (4 + 3.7) tau,
  // and the injection's delay behind its waveform (a few cells).
  CHECK(from * dt < 1.3e-9);
  std::string header;
  const std::vector<Row> rows = resonance_rows(dir + "/resonances.csv", header);
  REQUIRE(rows.size() == 1);
  const std::vector<std::vector<double>> s21 = csv_rows(read_text(dir + "/ports/out.csv"), header);
  REQUIRE(header.find("s21_db") != std::string::npos);
  double peak = 0, f_peak = 0, lo = 0, hi = 0;
  for (const auto& row : s21) {
    const double p = std::pow(10, row[8] / 10);  // s21_db: |S21|^2
    if (p > peak) {
      peak = p;
      f_peak = row[0];
    }
  }
  for (const auto& row : s21)
    if (std::pow(10, row[8] / 10) >= peak / 2) {
      lo = lo == 0 ? row[0] : std::min(lo, row[0]);
      hi = std::max(hi, row[0]);
    }
  CAPTURE(rows[0].f);
  CAPTURE(rows[0].q);
  CAPTURE(f_peak);
  CAPTURE(f_peak / (hi - lo));
  CHECK(std::abs(rows[0].f / f_peak - 1) < 0.01);
  CHECK(std::abs(rows[0].q / (f_peak / (hi - lo)) - 1) < 0.1);
}

TEST_CASE("resonances: refusals and warnings") {
  const std::string dir = scratch_dir("resonances_refused");
  // Past what the grid carries (pec_cavity: asin(0.9) / (pi dt) = 41 GHz).
  Ran r = run_clfdtd("run models/pec_cavity.ini --quiet --probe.p.resonances=\"1e9 5e10\" --output.dir=" + dir);
  CHECK(r.code == 2);
  CHECK_MESSAGE(r.out.find("probe.p.resonances") != std::string::npos, r.out);
  CHECK_MESSAGE(r.out.find("the highest frequency a wave on this grid can have") != std::string::npos, r.out);
  CHECK_FALSE(std::filesystem::exists(dir));
  r = run_clfdtd("run models/pec_cavity.ini --quiet --probe.p.resonances=\"2e9 1e9\" --output.dir=" + dir);
  CHECK(r.code == 2);
  CHECK_MESSAGE(r.out.find("0 < f1 < f2") != std::string::npos, r.out);

  // Too short a run: a warning up front, an empty table and found = 0.
  r = run_clfdtd("run models/pec_cavity.ini --quiet --time.steps=300 --output.dir=" + dir);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK_MESSAGE(r.out.find("warning: probe 'p': resonances in 1e+09 .. 2.6e+09 Hz: none will be found, the band needs") !=
                    std::string::npos,
                r.out);
  std::string header;
  CHECK(resonance_rows(dir + "/resonances.csv", header).empty());
  CHECK(run_json(dir)["resonances"][0]["found"] == 0);

  // A sine never ends: nothing to analyse.
  const std::string sine = dir + "_sine";
  r = run_clfdtd("run models/pec_cavity.ini --quiet --time.steps=600 --source.kick.waveform=sine "
                 "--source.kick.frequency=2e9 --output.dir=" + sine);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK_MESSAGE(r.out.find("none will be found, the sources still drive at step 600, where the probe's window ends") != std::string::npos, r.out);
  CHECK(run_json(sine)["resonances"][0]["found"] == 0);

  // A band below the cavity's lowest mode (1.25 GHz): nothing found, no warning about it.
  const std::string empty = dir + "_empty";
  r = run_clfdtd("run models/pec_cavity.ini --quiet --probe.p.resonances=\"3e8 9e8\" --output.dir=" + empty);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK_MESSAGE(r.out.find("warning") == std::string::npos, r.out);
  for (int f = 0; f < 3; ++f) CHECK(run_json(empty)["resonances"][f]["found"] == 0);

  // A band over hundreds of the cavity's modes, in a short record: the run says that terms went
  // unresolved.
  const std::string wide = dir + "_wide";
  r = run_clfdtd("run models/pec_cavity.ini --quiet --time.steps=1200 --probe.p.fields=Ez "
                 "--probe.p.resonances=\"1e8 2e10\" --output.dir=" + wide);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK_MESSAGE(r.out.find("warning: probe 'p' Ez: the band 1e+08 .. 2e+10 Hz holds terms the analysis could not pin down") !=
                    std::string::npos,
                r.out);
}
