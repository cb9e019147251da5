// A cylindrical run's files from the time loop through RunOutputs: per snapshot step one
// fields_<n>_m<m>.vti per mode read with Backend::read_mode_field after that step,
// fields_m<m>.pvd per mode, the 3D reconstruction fields_<n>_3d.vts and fields_3d.pvd with
// snapshot.phi_samples, no fields.pvd, and probes.csv columns Er .. Hz. A stand-in backend
// returns known mode fields, so the files are checked against them.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <complex>
#include <filesystem>
#include <set>

#include "backends/backend.hpp"
#include "cli/cli_helpers.hpp"
#include "cli/run_outputs.hpp"
#include "solver/time_loop.hpp"

#ifdef CLFDTD_HAVE_VTK
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkImageData.h>
#include <vtkPointData.h>
#include <vtkSmartPointer.h>
#include <vtkStructuredGrid.h>
#include <vtkXMLImageDataReader.h>
#include <vtkXMLStructuredGridReader.h>
#endif

using namespace clfdtd;
namespace fs = std::filesystem;

namespace {

constexpr int NR = 4, NZ = 3;

// Mode slot q's component c at sample (i, k) after step n: known, distinct, float-exact.
std::complex<float> known(int q, int c, int i, int k, long n) {
  return {static_cast<float>(1000 * n + 100 * q + 10 * c + i * NZ + k),
          static_cast<float>(i - 2 * k + q - c)};
}

class KnownModesBackend final : public Backend {
public:
  explicit KnownModesBackend(const SimulationModel& m) : m_(m) {}
  std::string name() const override { return "known-modes"; }
  std::string device_description() const override { return "none"; }
  std::string kernel_variant() const override { return "none"; }
  void step(long s) override { done_ = s + 1; }
  void sample_probes(int slot) override { slots_.insert(slot); }
  void read_probe_batch(int slots, std::vector<double>& out) override {
    out.assign(static_cast<std::size_t>(slots) * m_.probes.samples.size(), 0.5);
    if (nan_sample >= 0 && !out.empty()) out[static_cast<std::size_t>(nan_sample)] = std::nan("");
  }
  int probe_batch_steps() const override { return 4; }
  void read_field(Component, std::vector<float>&) override {
    FAIL("a cylindrical snapshot reads mode fields, not read_field");
  }
  void read_mode_field(int slot, Component c, std::vector<std::complex<float>>& out) override {
    reads.insert({done_, slot, static_cast<int>(c)});
    out.resize(static_cast<std::size_t>(NR) * NZ);
    for (int i = 0; i < NR; ++i)
      for (int k = 0; k < NZ; ++k)
        out[static_cast<std::size_t>(i) * NZ + k] = known(slot, static_cast<int>(c), i, k, done_);
  }
  bool fields_finite() override { return true; }
  void finish() override {}

  std::set<std::array<long, 3>> reads;  // (step, slot, component)
  int nan_sample = -1;                  // >= 0: that probe sample reads NaN in the first slot

private:
  const SimulationModel& m_;
  long done_ = 0;
  std::set<int> slots_;
};

SimulationModel cyl_model() {
  SimulationModel m;
  m.grid.dims = 3;
  m.grid.n = {NR, 1, NZ};
  m.grid.d = {0.01, 1.0, 0.01};
  m.grid.dt = 1e-12;
  m.grid.steps = 5;
  m.grid.cylindrical = true;
  m.grid.modes = {0, 2};
  m.layout = FieldLayout(NR, 1, NZ);
  m.cell_ids.assign(NR * NZ, MaterialTable::kVacuum);
  m.snapshot_steps = {0, 4};
  m.probes.probes.push_back(ProbeModel{"p", 0, 5, {}, 0});
  for (Component c : {Component::Ex, Component::Ey, Component::Hy}) {
    ProbeSample s;
    s.component = c;
    s.phi_rad = 0.3;
    m.probes.samples.push_back(s);
  }
  m.probes.first_step = 0;
  m.probes.last_step = 5;
  return m;
}

LoopOptions quiet() {
  LoopOptions o;
  o.progress_interval_s = 1e9;
  return o;
}

}  // namespace

TEST_CASE("cylindrical run outputs: probes.csv names Er .. Hz, the loop reads every mode slot") {
  const std::string dir = clfdtd_test::scratch_dir("cyl_outputs_csv");
  fs::create_directories(dir);
  SimulationModel m = cyl_model();
  m.snapshot_h = false;
  KnownModesBackend backend(m);
  {
    cli::RunOutputs sink(dir, m);
    run_time_loop(m, backend, sink, nullptr, quiet());
  }
  const std::string csv = clfdtd_test::read_text(dir + "/probes.csv");
  CHECK(csv.rfind("step,time_s,p.Er_V_per_m,p.Ephi_V_per_m,p.Hphi_A_per_m\n", 0) == 0);
  // E of both slots at steps 0 and 4, no H (snapshot.h = false).
  std::set<std::array<long, 3>> expected;
  for (long n : {0L, 4L})
    for (long q : {0L, 1L})
      for (long c = 0; c < 3; ++c) expected.insert({n, q, c});
  CHECK(backend.reads == expected);
  fs::remove_all(dir);
}

TEST_CASE("a non-finite cylindrical probe sample is named by its cylindrical component") {
  const std::string dir = clfdtd_test::scratch_dir("cyl_outputs_nan");
  fs::create_directories(dir);
  SimulationModel m = cyl_model();
  m.snapshot_steps.clear();
  KnownModesBackend backend(m);
  backend.nan_sample = 1;  // the second column: p.Ephi
  LoopResult result;
  {
    cli::RunOutputs sink(dir, m);
    result = run_time_loop(m, backend, sink, nullptr, quiet());
  }
  CHECK_FALSE(result.finite);
  CHECK(result.nonfinite_probe == "p.Ephi");
  fs::remove_all(dir);
}

#ifdef CLFDTD_HAVE_VTK

TEST_CASE("cylindrical run outputs: per-mode .vti and .pvd, the 3D .vts with phi_samples") {
  const std::string dir = clfdtd_test::scratch_dir("cyl_outputs_vti");
  fs::create_directories(dir);
  const SimulationModel m = cyl_model();
  KnownModesBackend backend(m);
  {
    cli::RunOutputs sink(dir, m, 6);
    run_time_loop(m, backend, sink, nullptr, quiet());
  }
  for (const char* f : {"fields_0_m0.vti", "fields_0_m2.vti", "fields_4_m0.vti", "fields_4_m2.vti",
                        "fields_0_3d.vts", "fields_4_3d.vts"})
    CHECK_MESSAGE(fs::exists(dir + "/snapshots/" + f), f);
  CHECK_FALSE(fs::exists(dir + "/fields.pvd"));
  const std::string pvd2 = clfdtd_test::read_text(dir + "/fields_m2.pvd");
  CHECK(pvd2.find("file=\"snapshots/fields_0_m2.vti\"") != std::string::npos);
  CHECK(pvd2.find("file=\"snapshots/fields_4_m2.vti\"") != std::string::npos);
  CHECK(pvd2.find("_m0.vti") == std::string::npos);
  CHECK(clfdtd_test::read_text(dir + "/fields_3d.pvd").find("snapshots/fields_4_3d.vts") !=
        std::string::npos);

  // Mode m = 2 (slot 1) at step 4: Hphi sits at the cell centre, so the file holds it as read.
  auto r = vtkSmartPointer<vtkXMLImageDataReader>::New();
  r->SetFileName((dir + "/snapshots/fields_4_m2.vti").c_str());
  r->Update();
  vtkDataArray* re = r->GetOutput()->GetCellData()->GetArray("Hphi_re");
  vtkDataArray* im = r->GetOutput()->GetCellData()->GetArray("Hphi_im");
  REQUIRE(re != nullptr);
  REQUIRE(im != nullptr);
  CHECK(re->GetTuple1(2 + NR * 1) == known(1, 4, 2, 1, 4).real());
  CHECK(im->GetTuple1(2 + NR * 1) == known(1, 4, 2, 1, 4).imag());

  // The 3D file at phi = 60 deg (j = 1 of 6), cell (2, 1): Hz = sum_q Re(F_q e^{i m_q phi}), with
  // Hz centred from (i+1/2, k) and (i+1/2, k+1).
  auto g = vtkSmartPointer<vtkXMLStructuredGridReader>::New();
  g->SetFileName((dir + "/snapshots/fields_4_3d.vts").c_str());
  g->Update();
  vtkDataArray* h = g->GetOutput()->GetPointData()->GetArray("H");
  REQUIRE(h != nullptr);
  const double phi = std::acos(-1.0) / 3;
  double hz = 0;
  const int orders[] = {0, 2};
  for (int q = 0; q < 2; ++q) {
    const std::complex<double> c =
        (std::complex<double>(known(q, 5, 2, 1, 4)) + std::complex<double>(known(q, 5, 2, 2, 4))) / 2.0;
    hz += std::real(c * std::exp(std::complex<double>(0, orders[q] * phi)));
  }
  CHECK(h->GetComponent(2 + NR * (1 + 7 * 1), 2) == doctest::Approx(hz).epsilon(1e-5));
  fs::remove_all(dir);
}

#endif
