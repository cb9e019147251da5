// Waveguide ports end to end (docs/PORTS.md "Waveguide ports"): an empty rectangular guide
// (nothing reflected, everything through with the grid's phase, nothing leaking behind the
// launching port) and a dielectric step (S11 against the transmission-line formula, power kept),
// on the reference engine and on OpenCL's variants.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_helpers.hpp"

using namespace clfdtd_test;

namespace {

constexpr double kC0 = 299792458.0;
constexpr double kMu0 = 1.25663706212e-6;
constexpr double kPi = 3.14159265358979323846;

struct PortColumns {
  std::vector<double> f, beta;
  std::vector<std::complex<double>> a, b, s;  // s: s11 or s21
};

PortColumns read_port(const std::string& path, const std::string& s_name) {
  std::string header;
  const auto rows = csv_rows(read_text(path), header);
  const std::string expected = "frequency_hz,beta_rad_per_m,a_re,a_im,b_re,b_im," + s_name + "_re," +
                               s_name + "_im," + s_name + "_db";
  REQUIRE_MESSAGE(header == expected, path);
  PortColumns p;
  for (const auto& r : rows) {
    REQUIRE(r.size() == 9);
    p.f.push_back(r[0]);
    p.beta.push_back(r[1]);
    p.a.emplace_back(r[2], r[3]);
    p.b.emplace_back(r[4], r[5]);
    p.s.emplace_back(r[6], r[7]);
  }
  return p;
}

// The largest |Ey| of a probes.csv column over steps [from, to).
double peak(const std::string& probes, int column, long from, long to) {
  std::string header;
  double m = 0;
  for (const auto& r : csv_rows(read_text(probes), header))
    if (r[0] >= from && r[0] < to) m = std::max(m, std::fabs(r[static_cast<std::size_t>(column)]));
  return m;
}

}  // namespace

TEST_CASE("a waveguide port in an empty guide: no reflection, the grid's phase to the next port, "
          "nothing behind it") {
  for (const std::string backend : {"reference", "opencl rows", "opencl tile", "opencl onepass"}) {
    CAPTURE(backend);
    const std::string variant = backend.substr(backend.find(' ') + 1);
    const std::string dir = scratch_dir("waveguide_empty_" + variant);
    const std::string args = backend == "reference" ? "--device.backend=reference"
                                                    : "--device.backend=opencl --device.variant=" + variant;
    const auto r = run_clfdtd("run tests/data/waveguide_empty.ini " + args + " --output.dir=" + dir);
    REQUIRE_MESSAGE(r.code == 0, r.out);
    CHECK(r.out.find("waveguide  a: TE10 driven, into the model along +z from z = 0.0225 m; guide x "
                     "0..0.024, y 0..0.012 m of 'vacuum'") != std::string::npos);
    CHECK(r.out.find("port       b (waveguide, TE10): " + dir + "/ports/b.csv") != std::string::npos);
    CHECK(r.out.find("plane wave") == std::string::npos);
    CHECK(r.out.find("warning") == std::string::npos);
    const PortColumns a = read_port(dir + "/ports/a.csv", "s11");
    const PortColumns b = read_port(dir + "/ports/b.csv", "s21");
    REQUIRE(a.f.size() == 201);
    // The band above cutoff (c / 2a = 6.25 GHz): the pulse's 1/e band 7.25 - 11.25 GHz.
    CHECK(a.f.front() == doctest::Approx(7.25e9).epsilon(0.01));
    CHECK(a.f.back() == doctest::Approx(11.25e9).epsilon(0.01));
    double s11 = 0, s21_mag = 0, s21_phase = 0;
    for (std::size_t k = 0; k < a.f.size(); ++k) {
      s11 = std::max(s11, std::abs(a.s[k]));
      s21_mag = std::max(s21_mag, std::fabs(std::abs(b.s[k]) - 1));
      // 60 mm from a to b at the grid's beta (the column), which the analytic one approaches.
      const std::complex<double> expected = std::polar(1.0, -a.beta[k] * 0.06);
      s21_phase = std::max(s21_phase, std::fabs(std::arg(b.s[k] / expected)));
      const double w = 2 * kPi * a.f[k], kc = kPi / 0.024;
      CHECK(a.beta[k] == doctest::Approx(std::sqrt(w * w / kC0 / kC0 - kc * kc)).epsilon(0.01));
      CHECK(a.beta[k] == b.beta[k]);
      CHECK(std::abs(b.a[k]) < 1e-3 * std::abs(a.a[k]));  // nothing comes into b from behind
    }
    MESSAGE(backend << ": |S11| <= " << s11 << ", ||S21| - 1| <= " << s21_mag << ", S21's phase within "
                    << s21_phase * 180 / kPi << " deg");
    CHECK(s11 < 2e-3);             // measured 6.1e-4
    CHECK(s21_mag < 4e-3);         // 1.5e-3 (the band's low end, near cutoff, rings longest)
    CHECK(s21_phase < 0.5 * kPi / 180);  // 0.075 deg
    // Behind a (its scattered field) nothing of the launched wave: until the far UPML's first
    // echo could come back (the pulse's front reaches a about step 100, the UPML and back takes
    // 173 steps at c) the probe holds rounding: measured 2e-12 of the launched peak (reference)
    // and 2e-7 (OpenCL, float).
    const double ahead = peak(dir + "/probes.csv", 3, 0, 700), behind = peak(dir + "/probes.csv", 2, 0, 220);
    MESSAGE(backend << ": behind the port " << behind << " V/m against " << ahead << " ahead");
    CHECK(ahead > 0.5);
    CHECK(behind < (backend == "reference" ? 1e-10 : 2e-6) * ahead);
    const nlohmann::json j = nlohmann::json::parse(read_text(dir + "/run.json"));
    REQUIRE(j["waveguide_ports"].size() == 2);
    const auto& pa = j["waveguide_ports"][0];
    CHECK(pa["name"] == "a");
    CHECK(pa["mode"] == "TE10");
    CHECK(pa["direction"] == "+z");
    CHECK(pa["sole_driven"] == true);
    CHECK(pa["file"] == "ports/a.csv");
    CHECK(pa["cutoff_analytic_hz"].get<double>() == doctest::Approx(kC0 / 0.048));
    CHECK(j["waveguide_ports"][1]["direction"] == "-z");
    CHECK(j["monitors"].empty());
    CHECK(j.find("plane_waves") == j.end());
  }
  // A receiving port with frequencies of its own gets no S21 (a's waves are at a's frequencies).
  const std::string dir = scratch_dir("waveguide_empty_own_frequencies");
  const auto r = run_clfdtd("run tests/data/waveguide_empty.ini --device.backend=reference \"--source.b.frequencies=8e9 "
                            "9e9 10e9\" --output.dir=" + dir + " --quiet");
  REQUIRE_MESSAGE(r.code == 0, r.out);
  std::string header;
  CHECK(csv_rows(read_text(dir + "/ports/b.csv"), header).size() == 3);
  CHECK(header == "frequency_hz,beta_rad_per_m,a_re,a_im,b_re,b_im");
}

TEST_CASE("waveguide ports across a dielectric step: S11 of the transmission line, power kept") {
  for (const std::string backend : {"reference", "opencl"}) {
    CAPTURE(backend);
    const std::string dir = scratch_dir("waveguide_step_" + backend);
    const auto r = run_clfdtd("run tests/data/waveguide_step.ini --device.backend=" + backend +
                              " --output.dir=" + dir);
    REQUIRE_MESSAGE(r.code == 0, r.out);
    CHECK(r.out.find("waveguide  b: TE10 receiving, into the model along -z from z = 0.0825 m; guide "
                     "x 0..0.024, y 0..0.012 m of 'fill'") != std::string::npos);
    const PortColumns a = read_port(dir + "/ports/a.csv", "s11");
    const PortColumns b = read_port(dir + "/ports/b.csv", "s21");
    double err = 0, power = 0;
    for (std::size_t k = 0; k < a.f.size(); ++k) {
      const double w = 2 * kPi * a.f[k], kc = kPi / 0.024;
      const double b1 = std::sqrt(w * w / kC0 / kC0 - kc * kc), b2 = std::sqrt(2.25 * w * w / kC0 / kC0 - kc * kc);
      const double z1 = w * kMu0 / b1, z2 = w * kMu0 / b2;  // TE wave impedances
      // The step 30 mm past port a's plane.
      const std::complex<double> s11 = (z2 - z1) / (z2 + z1) * std::polar(1.0, -2 * b1 * 0.03);
      err = std::max(err, std::abs(a.s[k] - s11));
      power = std::max(power, std::fabs(std::norm(a.s[k]) + std::norm(b.s[k]) - 1));
    }
    MESSAGE(backend << ": |S11 - formula| <= " << err << ", ||S11|^2 + |S21|^2 - 1| <= " << power);
    CHECK(err < 0.02);     // 0.0118 (1.5 mm cells; 0.004 with 1 mm)
    CHECK(power < 5e-3);   // 2.2e-3
  }
}

TEST_CASE("clfdtd sparams joins waveguide ports: the step's two-port is reciprocal and lossless") {
  const std::string a = scratch_dir("waveguide_sp_a"), b = scratch_dir("waveguide_sp_b");
  auto r = run_clfdtd("run tests/data/waveguide_step.ini --output.dir=" + a + " --quiet");
  REQUIRE_MESSAGE(r.code == 0, r.out);
  r = run_clfdtd("run tests/data/waveguide_step.ini --source.a.amplitude=0 --source.b.amplitude=1 "
                 "--output.dir=" + b + " --quiet");
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const nlohmann::json ja = nlohmann::json::parse(read_text(a + "/run.json"));
  const nlohmann::json jb = nlohmann::json::parse(read_text(b + "/run.json"));
  CHECK(ja["geometry_fingerprint"].is_string());
  CHECK(ja["geometry_fingerprint"] == jb["geometry_fingerprint"]);
  const std::string s2p = scratch_dir("waveguide_sp") + ".s2p";
  r = run_clfdtd("sparams " + b + " " + a + " --output=" + s2p);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const std::string text = read_text(s2p);
  CHECK(text.find("S-parameters of waveguide ports; port 1 = a (waveguide), 2 = b (waveguide)") != std::string::npos);
  CHECK(text.find("# HZ S RI R 50") != std::string::npos);
  // Rows: f, S11, S21, S12, S22 (re, im each).
  std::size_t rows = 0;
  double reciprocity = 0, power1 = 0, power2 = 0;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '!' || line[0] == '#') continue;
    std::istringstream cells(line);
    std::vector<double> v;
    double x;
    while (cells >> x) v.push_back(x);
    REQUIRE(v.size() == 9);
    const std::complex<double> s11(v[1], v[2]), s21(v[3], v[4]), s12(v[5], v[6]), s22(v[7], v[8]);
    reciprocity = std::max(reciprocity, std::abs(s21 - s12));
    power1 = std::max(power1, std::fabs(std::norm(s11) + std::norm(s21) - 1));
    power2 = std::max(power2, std::fabs(std::norm(s22) + std::norm(s12) - 1));
    // A lossless step: |S22| = |S11| (the same discontinuity seen from the other side).
    CHECK(std::abs(s22) == doctest::Approx(std::abs(s11)).epsilon(0.02));
    ++rows;
  }
  MESSAGE("|S21 - S12| <= " << reciprocity << ", power from a " << power1 << ", from b " << power2);
  CHECK(rows == 201);
  CHECK(reciprocity < 3e-3);
  CHECK(power2 < 5e-3);
  // Another structure (the step moved a cell) is refused.
  const std::string c = scratch_dir("waveguide_sp_c");
  r = run_clfdtd("run tests/data/waveguide_step.ini \"--object.fill.center=0.012 0.006 0.0915\" --source.a.amplitude=0 "
                 "--source.b.amplitude=1 --output.dir=" + c + " --quiet");
  REQUIRE_MESSAGE(r.code == 0, r.out);
  r = run_clfdtd("sparams " + a + " " + c + " --output=" + s2p + " --overwrite");
  CHECK(r.code == 2);
  CHECK(r.out.find("geometry_fingerprint") != std::string::npos);
}

TEST_CASE("a guide along x, and one along y driven towards -y with its longer side across the "
          "second transverse axis: the z guide's ports") {
  const std::string z = scratch_dir("waveguide_axis_z");
  auto r = run_clfdtd("run tests/data/waveguide_empty.ini --device.backend=reference --output.dir=" + z + " --quiet");
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const PortColumns za = read_port(z + "/ports/a.csv", "s11"), zb = read_port(z + "/ports/b.csv", "s21");
  for (const char* axis : {"x", "y"}) {
    CAPTURE(axis);
    const std::string dir = scratch_dir(std::string("waveguide_axis_") + axis);
    r = run_clfdtd(std::string("run tests/data/waveguide_empty_") + axis + ".ini --device.backend=reference --output.dir=" +
                   dir);
    REQUIRE_MESSAGE(r.code == 0, r.out);
    CHECK(r.out.find(std::string(axis) == "x" ? "guide y 0..0.024, z 0..0.012 m" : "guide z 0..0.012, x 0..0.024 m") !=
          std::string::npos);
    const PortColumns a = read_port(dir + "/ports/a.csv", "s11"), b = read_port(dir + "/ports/b.csv", "s21");
    REQUIRE(a.f.size() == za.f.size());
    double worst = 0;
    for (std::size_t k = 0; k < a.f.size(); ++k)
      worst = std::max({worst, std::abs(a.s[k] - za.s[k]), std::abs(b.s[k] - zb.s[k])});
    CHECK(worst < 1e-9);  // the same arithmetic along another axis: 0 to rounding
    // Nothing behind the launching port (probe `behind`, column 2).
    CHECK(peak(dir + "/probes.csv", 2, 0, 220) < 1e-10);
  }
}

TEST_CASE("a lumped port and a waveguide port in one model: S21 both ways agree (reciprocity), "
          "each column keeps the power, and sparams joins them") {
  const std::string a = scratch_dir("waveguide_probe_a"), b = scratch_dir("waveguide_probe_b");
  auto r = run_clfdtd("run tests/data/waveguide_probe.ini --output.dir=" + a);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  r = run_clfdtd("run tests/data/waveguide_probe.ini --source.p.amplitude=0 --source.w.amplitude=1 --output.dir=" + b);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  // Run a drives the probe: p's S11, w's S21 (from p); run b drives the guide: w's S11, p's S21.
  std::string header;
  const auto pa = csv_rows(read_text(a + "/ports/p.csv"), header);
  REQUIRE(header == "frequency_hz,z_re_ohm,z_im_ohm,s11_re,s11_im,s11_db,delivered_J_s");
  const PortColumns wa = read_port(a + "/ports/w.csv", "s21");
  const PortColumns wb = read_port(b + "/ports/w.csv", "s11");
  const auto pb = csv_rows(read_text(b + "/ports/p.csv"), header);
  REQUIRE(header == "frequency_hz,v_re_V_s,v_im_V_s,i_re_A_s,i_im_A_s,received_J_s,s21_re,s21_im,s21_db");
  REQUIRE(pa.size() == wa.f.size());
  REQUIRE(pb.size() == wb.f.size());
  double reciprocity = 0, power_a = 0, power_b = 0, mirror = 0;
  for (std::size_t k = 0; k < pa.size(); ++k) {
    CHECK(pa[k][0] == wa.f[k]);  // the receiving port takes the driven one's band
    CHECK(pb[k][0] == wb.f[k]);
    const std::complex<double> s11(pa[k][3], pa[k][4]), s21 = wa.s[k];
    const std::complex<double> s22 = wb.s[k], s12(pb[k][6], pb[k][7]);
    reciprocity = std::max(reciprocity, std::abs(s21 - s12));
    power_a = std::max(power_a, std::fabs(std::norm(s11) + std::norm(s21) - 1));
    power_b = std::max(power_b, std::fabs(std::norm(s22) + std::norm(s12) - 1));
    mirror = std::max(mirror, std::fabs(std::abs(s11) - std::abs(s22)));  // lossless two-port
  }
  MESSAGE("|S21 - S12| <= " << reciprocity << ", power driving p " << power_a << ", driving w " << power_b
                            << ", ||S11| - |S22|| <= " << mirror);
  CHECK(reciprocity < 4e-3);  // measured 2.0e-3 (at the band's low end, near cutoff)
  CHECK(power_a < 5e-3);
  CHECK(power_b < 5e-3);
  CHECK(mirror < 5e-3);
  const std::string s2p = scratch_dir("waveguide_probe") + ".s2p";
  r = run_clfdtd("sparams " + a + " " + b + " --output=" + s2p);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const std::string text = read_text(s2p);
  CHECK(text.find("S-parameters of lumped and waveguide ports; port 1 = p (50 ohm), 2 = w (waveguide)") !=
        std::string::npos);
  CHECK(text.find("their 50 ohm reference below is nominal") != std::string::npos);
}

TEST_CASE("waveguide ports of a solved mode: a loaded guide's hybrid mode launched and measured "
          "exactly, S21 on the solver's beta") {
  const std::string dir = scratch_dir("mode_port_guide");
  const auto r = run_clfdtd("run tests/data/mode_port_guide.ini --output.dir=" + dir);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK(r.out.find("waveguide  a: mode 1 (solved) driven, into the model along +z from z = 0.0225 m; "
                   "window x 0..0.024, y 0..0.012 m, B/K0 0.871") != std::string::npos);
  CHECK(r.out.find("warning") == std::string::npos);
  const PortColumns a = read_port(dir + "/ports/a.csv", "s11");
  const PortColumns b = read_port(dir + "/ports/b.csv", "s21");
  REQUIRE(a.f.size() == 21);  // a solve each: 21 by default
  double s11 = 0, s21_mag = 0, s21_phase = 0;
  for (std::size_t k = 0; k < a.f.size(); ++k) {
    s11 = std::max(s11, std::abs(a.s[k]));
    s21_mag = std::max(s21_mag, std::fabs(std::abs(b.s[k]) - 1));
    s21_phase = std::max(s21_phase, std::fabs(std::arg(b.s[k] / std::polar(1.0, -a.beta[k] * 0.06))));
    CHECK(a.beta[k] == b.beta[k]);
  }
  MESSAGE("solved mode: |S11| <= " << s11 << ", ||S21| - 1| <= " << s21_mag << ", S21's phase within "
                                   << s21_phase << " rad of exp(-j beta L)");
  CHECK(s11 < 1e-4);       // measured 2.5e-5 (-92 dB)
  CHECK(s21_mag < 2e-6);   // 1.9e-7
  CHECK(s21_phase < 5e-6); // 5e-7
  const nlohmann::json j = nlohmann::json::parse(read_text(dir + "/run.json"));
  const auto& pa = j["waveguide_ports"][0];
  CHECK(pa["mode"] == "mode 1 (solved)");
  CHECK(pa["n_line"].get<double>() == doctest::Approx(0.871).epsilon(1e-3));
  CHECK(pa.find("cutoff_hz") == pa.end());
}

TEST_CASE("waveguide ports of a solved mode: in an empty guide TE10's beta and TE10's S21 (the "
          "solved launch line is TE10's)") {
  std::vector<PortColumns> s21;
  for (const std::string mode : {"te10", "1"}) {
    const std::string dir = scratch_dir("waveguide_empty_mode_" + mode);
    const auto r = run_clfdtd("run tests/data/waveguide_empty.ini --source.a.mode=" + mode + " --source.b.mode=" + mode +
                              " \"--source.a.frequencies=8e9 9e9 10e9 11e9\" --quiet --output.dir=" + dir);
    REQUIRE_MESSAGE(r.code == 0, r.out);
    s21.push_back(read_port(dir + "/ports/b.csv", "s21"));
  }
  REQUIRE(s21[0].f.size() == 4);
  REQUIRE(s21[1].f.size() == 4);
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(s21[1].beta[k] == doctest::Approx(s21[0].beta[k]).epsilon(1e-8));
    CHECK(std::abs(s21[1].s[k] - s21[0].s[k]) < 1e-6);  // the same line and profile: rounding apart
  }
}

TEST_CASE("waveguide ports of a solved mode: a frequency below the mode's cutoff is a nan row, warned of") {
  const std::string dir = scratch_dir("waveguide_solved_cutoff");
  const auto r = run_clfdtd("run tests/data/mode_port_guide.ini --time.steps=200 --quiet "
                            "\"--source.a.frequencies=2e9 7.5e9\" --output.dir=" + dir);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK(r.out.find("waveguide port 'b': at 1 of its 2 frequencies (2e+09 Hz) no mode like the launched one") !=
        std::string::npos);
  const PortColumns b = read_port(dir + "/ports/b.csv", "s21");
  REQUIRE(b.f.size() == 2);
  CHECK(std::isnan(b.beta[0]));
  CHECK(std::isnan(b.b[0].real()));
  CHECK(std::isfinite(b.b[1].real()));
  CHECK(r.out.find("at 1 of its 2 frequencies (7.5e+09 Hz)") == std::string::npos);
}

TEST_CASE("waveguide ports of a solved mode: a square guide's degenerate pair chosen by `axis`") {
  // TE10 and TE01 of a square guide share their beta; axis = y takes the combination with E along
  // y, which is TE10 (m = 1 along x), so S21 must be the analytic te10 port's; a receiving port
  // with axis = x takes TE01 and gets nothing of it.
  const std::string guide =
      "run tests/data/waveguide_empty.ini --quiet --grid.size=\"0.024 0.024 0.105\" "
      "--source.a.position=\"0.012 0.012 0.0225\" --source.b.position=\"0.012 0.012 0.0825\" "
      "--source.a.bandwidth=1e9 --source.b.bandwidth=1e9 --probe.behind.position=\"0.0075 0.012 0.018\" "
      "--probe.ahead.position=\"0.0075 0.012 0.045\"";
  const std::string square =
      guide + " --source.a.frequency=7.5e9 --source.b.frequency=7.5e9 \"--source.a.frequencies=7e9 7.5e9 8e9\"";
  auto s21_of = [&](const std::string& name, const std::string& ports) {
    const std::string dir = scratch_dir(name);
    const auto r = run_clfdtd(square + ports + " --output.dir=" + dir);
    REQUIRE_MESSAGE(r.code == 0, r.out);
    return read_port(dir + "/ports/b.csv", "s21");
  };
  const PortColumns te10 = s21_of("square_te10", " --source.a.mode=te10 --source.b.mode=te10");
  // Either number of the pair gives the same port.
  const PortColumns along_y =
      s21_of("square_axis_y", " --source.a.mode=1 --source.b.mode=2 --source.a.axis=y --source.b.axis=y");
  const PortColumns crossed =
      s21_of("square_axis_x", " --source.a.mode=2 --source.b.mode=1 --source.a.axis=y --source.b.axis=x");
  REQUIRE(te10.f.size() == 3);
  REQUIRE(along_y.f.size() == 3);
  REQUIRE(crossed.f.size() == 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CAPTURE(te10.f[k]);
    CHECK(std::abs(std::abs(te10.s[k]) - 1) < 1e-3);
    CHECK(along_y.beta[k] == doctest::Approx(te10.beta[k]).epsilon(1e-8));
    CHECK(std::abs(along_y.s[k] - te10.s[k]) < 1e-6);
    CHECK(std::abs(crossed.s[k]) < 1e-6);
  }
  // TE11 and TM11 share their beta too; along y they carry the wave whole, but their combinations
  // along x and along y overlap in power: warned of.
  const std::string dir = scratch_dir("square_te11_tm11");
  const auto r = run_clfdtd(guide + " --source.a.mode=3 --source.b.mode=3 --source.a.axis=y --source.b.axis=y "
                                     "--source.a.frequency=10.5e9 --source.b.frequency=10.5e9 "
                                     "\"--source.a.frequencies=10e9 10.5e9 11e9\" --time.steps=8000 --output.dir=" + dir);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK(r.out.find("waveguide port 'a': mode 3 shares its beta with 1 other, and no two of their combinations") !=
        std::string::npos);
  const PortColumns te11 = read_port(dir + "/ports/b.csv", "s21");
  REQUIRE(te11.f.size() == 3);
  for (std::size_t k = 0; k < 3; ++k) CHECK(std::abs(std::abs(te11.s[k]) - 1) < 1e-4);
}

TEST_CASE("waveguide ports of a solved mode: what they refuse") {
  const std::string guide = "run tests/data/mode_port_guide.ini --quiet --output.dir=" + scratch_dir("mode_refused") + " ";
  struct Case {
    std::string args, says;
  };
  for (const Case& c : std::vector<Case>{
           {"--source.a.mode=0", "1..100"},
           {"--source.a.mode=101", "1..100"},
           {"--source.a.mode=5", "1 mode was found there, mode 5 was asked for"},
           {"\"--source.a.size=0.02 0.01 0\" --source.a.mode=te10", "no size for a waveguide port of a te/tm mode"},
           {"\"--source.a.size=0.02 0.03 0\"", "inside the domain"},
           {"--material.loading.sigma=1", "lossy"},
           {"--source.a.position=\"0.012 0.006 0.012\"", "outside the UPML layers along z"},
           {"--grid.size=\"0.024 0.024 0.12\" --object.block.material=vacuum", "shares its beta with 1 other"},
           {"--grid.size=\"0.024 0.024 0.12\" --object.block.material=vacuum", "give `axis`"},
           {"--source.a.mode=te10 --source.a.axis=y", "no axis for a waveguide port of a te/tm mode"},
           {"--source.a.axis=z", "an axis across the guide"},
           {"--source.a.axis=y", "no axis for a mode alone at its beta"},
       }) {
    CAPTURE(c.args);
    const auto r = run_clfdtd(guide + c.args);
    CHECK(r.code == 2);
    CHECK_MESSAGE(r.out.find(c.says) != std::string::npos, r.out);
  }
}
