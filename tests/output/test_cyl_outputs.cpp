// Cylindrical outputs: mode fields moved to the cell centres, the 3D reconstruction
// sum_q Re(F_q e^{i m_q phi}) at known angles against the formula, the per-mode (r, z) .vti and
// the .vts read back with VTK, model.vti as the (r, z) image of the cell ids, and the probe
// columns named Er .. Hz.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <complex>
#include <filesystem>
#include <fstream>
#include <string>

#include "errors.hpp"
#include "file_size_limit.hpp"
#include "model/simulation_model.hpp"
#include "output/cyl_snapshot.hpp"
#include "output/probe_csv.hpp"
#include "output/vti_writer.hpp"

#ifdef CLFDTD_HAVE_VTK
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkImageData.h>
#include <vtkPointData.h>
#include <vtkSmartPointer.h>
#include <vtkStructuredGrid.h>
#include <vtkXMLImageDataReader.h>
#include <vtkXMLStructuredGridReader.h>
#endif

namespace fs = std::filesystem;
using namespace clfdtd;
using cf = std::complex<float>;

namespace {

constexpr int NR = 5, NZ = 4;
constexpr double DR = 0.01, DZ = 0.02;
const double kPi = std::acos(-1.0);

fs::path scratch(const std::string& tag) {
  const fs::path p = fs::temp_directory_path() /
                     ("clfdtd_test_cyl_output_" + std::to_string(::getpid()) + "_" + tag);
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

// A cylindrical model as the contract shapes it (docs/CYLINDRICAL.md): nr x 1 x nz, a dielectric
// ring in cells i = 2..3, k = 1..2.
SimulationModel cyl_model(std::vector<int> modes) {
  SimulationModel m;
  m.grid.dims = 3;
  m.grid.n = {NR, 1, NZ};
  m.grid.d = {DR, 1.0, DZ};
  m.grid.dt = 1e-12;
  m.grid.steps = 10;
  m.grid.cylindrical = true;
  m.grid.modes = std::move(modes);
  m.layout = FieldLayout(NR, 1, NZ);
  m.materials = MaterialTable({MaterialConfig{"ring", 4.0}});
  m.cell_ids.assign(NR * NZ, MaterialTable::kVacuum);
  for (int i = 2; i <= 3; ++i)
    for (int k = 1; k <= 2; ++k) m.cell_ids[static_cast<std::size_t>(i) * NZ + k] = 2;
  return m;
}

// A distinct float-exact complex value per slot, component and sample; 0 past the high end.
cf val(int q, int c, int i, int k) {
  if (i >= NR || k >= NZ) return 0.0f;
  return cf(static_cast<float>(100 * (q + 1) + 10 * c + i * NZ + k),
            static_cast<float>(-(c + 1) * (i + 1) + 3 * k - q));
}

std::vector<cf> values(int q, int c) {
  std::vector<cf> v(static_cast<std::size_t>(NR) * NZ);
  for (int i = 0; i < NR; ++i)
    for (int k = 0; k < NZ; ++k) v[static_cast<std::size_t>(i) * NZ + k] = val(q, c, i, k);
  return v;
}

CylModeFields slot_fields(int q, bool with_h = true) {
  CylModeFields f;
  for (int c = 0; c < (with_h ? 6 : 3); ++c) f[c] = values(q, c);
  return f;
}

// The value at the centre of cell (i, k), from the Yee positions of docs/CYLINDRICAL.md, written
// out per component: Er (i+1/2, k), Ephi (i, k), Ez (i, k+1/2), Hr (i, k+1/2), Hphi (i+1/2, k+1/2),
// Hz (i+1/2, k).
std::complex<double> centred(int q, int c, int i, int k) {
  const auto v = [&](int a, int b) { return std::complex<double>(val(q, c, a, b)); };
  switch (c) {
    case 0: return (v(i, k) + v(i, k + 1)) / 2.0;                                // Er
    case 1: return (v(i, k) + v(i + 1, k) + v(i, k + 1) + v(i + 1, k + 1)) / 4.0;  // Ephi
    case 2: return (v(i, k) + v(i + 1, k)) / 2.0;                                // Ez
    case 3: return (v(i, k) + v(i + 1, k)) / 2.0;                                // Hr
    case 4: return v(i, k);                                                      // Hphi
    default: return (v(i, k) + v(i, k + 1)) / 2.0;                               // Hz
  }
}

// The physical field's (r, phi, z) components of E (c0 = 0) or H (c0 = 3) at cell (i, k), angle phi.
std::array<double, 3> physical(const std::vector<int>& modes, int c0, int i, int k, double phi) {
  std::array<double, 3> f{0, 0, 0};
  for (std::size_t q = 0; q < modes.size(); ++q)
    for (int a = 0; a < 3; ++a)
      f[a] += std::real(centred(static_cast<int>(q), c0 + a, i, k) *
                        std::exp(std::complex<double>(0, modes[q] * phi)));
  return f;
}

}  // namespace

TEST_CASE("cyl_centre_average: each component from its Yee position to the cell centre") {
  for (int c = 0; c < 6; ++c) {
    const auto out = cyl_centre_average(Component(c), NR, NZ, values(0, c));
    for (int i = 0; i < NR; ++i)
      for (int k = 0; k < NZ; ++k) {
        const std::complex<double> got(out[static_cast<std::size_t>(i) * NZ + k]);
        CHECK(std::abs(got - centred(0, c, i, k)) < 1e-4);
      }
  }
  // The high walls read 0: Ephi in the last cell keeps one of its four samples.
  const auto ephi = cyl_centre_average(Component::Ey, NR, NZ, values(0, 1));
  CHECK(std::abs(std::complex<double>(ephi.back()) - std::complex<double>(val(0, 1, NR - 1, NZ - 1)) / 4.0) < 1e-5);
  CHECK_THROWS_AS(cyl_centre_average(Component::Ez, NR, NZ, std::vector<cf>(3)), std::invalid_argument);
}

TEST_CASE("3D reconstruction: sum_q Re(F_q e^{i m phi}) at phi = 2 pi j / N, Cartesian vectors") {
  const std::vector<int> orders{0, 1, 3};
  const SimulationModel m = cyl_model(orders);
  const std::vector<CylModeFields> modes{slot_fields(0), slot_fields(1), slot_fields(2)};
  const int N = 8;
  const CylReconstruction rec = reconstruct_cyl(m, modes, N);
  REQUIRE(rec.nr == NR);
  REQUIRE(rec.nphi == N + 1);
  REQUIRE(rec.nz == NZ);
  const std::size_t points = static_cast<std::size_t>(NR) * (N + 1) * NZ;
  REQUIRE(rec.points.size() == 3 * points);
  REQUIRE(rec.e.size() == 3 * points);
  REQUIRE(rec.h.size() == 3 * points);
  for (int k = 0; k < NZ; ++k)
    for (int j = 0; j <= N; ++j)
      for (int i = 0; i < NR; ++i) {
        const std::size_t p = i + static_cast<std::size_t>(NR) * (j + static_cast<std::size_t>(N + 1) * k);
        const double phi = 2 * kPi * j / N, r = (i + 0.5) * DR;
        CHECK(rec.points[3 * p] == doctest::Approx(r * std::cos(phi)).epsilon(1e-6));
        CHECK(rec.points[3 * p + 1] == doctest::Approx(r * std::sin(phi)).epsilon(1e-6));
        CHECK(rec.points[3 * p + 2] == doctest::Approx((k + 0.5) * DZ));
        for (int c0 : {0, 3}) {
          const auto f = physical(orders, c0, i, k, phi);
          const std::vector<float>& cart = c0 == 0 ? rec.e : rec.h;
          const std::vector<float>& cyl = c0 == 0 ? rec.e_cyl : rec.h_cyl;
          const double tol = 1e-3;  // float output of sums of a few hundred
          CHECK(cart[3 * p] == doctest::Approx(f[0] * std::cos(phi) - f[1] * std::sin(phi)).epsilon(tol).scale(1));
          CHECK(cart[3 * p + 1] == doctest::Approx(f[0] * std::sin(phi) + f[1] * std::cos(phi)).epsilon(tol).scale(1));
          CHECK(cart[3 * p + 2] == doctest::Approx(f[2]).epsilon(tol));
          for (int a = 0; a < 3; ++a) CHECK(cyl[3 * p + a] == doctest::Approx(f[a]).epsilon(tol));
        }
      }
  // The last angle layer repeats phi = 0 exactly (the surface closes).
  for (int k = 0; k < NZ; ++k)
    for (int i = 0; i < NR; ++i) {
      const std::size_t p0 = i + static_cast<std::size_t>(NR) * ((N + 1) * k);
      const std::size_t pn = p0 + static_cast<std::size_t>(NR) * N;
      for (int a = 0; a < 3; ++a) {
        CHECK(rec.points[3 * pn + a] == rec.points[3 * p0 + a]);
        CHECK(rec.e[3 * pn + a] == rec.e[3 * p0 + a]);
      }
    }
  // At phi = 0 the Cartesian vector is (Fr, Fphi, Fz) = sum_q Re F_q; at phi = 90 deg x = -Fphi.
  const std::size_t p90 = 1 + static_cast<std::size_t>(NR) * (2 + (N + 1) * 2);  // i 1, j 2, k 2
  const auto f90 = physical(orders, 0, 1, 2, kPi / 2);
  CHECK(rec.e[3 * p90] == doctest::Approx(-f90[1]).epsilon(1e-4));
  CHECK(rec.e[3 * p90 + 1] == doctest::Approx(f90[0]).epsilon(1e-4));
}

TEST_CASE("3D reconstruction: E only without H, and bad calls refused") {
  const SimulationModel m = cyl_model({0, 2});
  const CylReconstruction rec = reconstruct_cyl(m, {slot_fields(0, false), slot_fields(1, false)}, 4);
  CHECK(rec.e.size() == 3u * NR * 5 * NZ);
  CHECK(rec.h.empty());
  CHECK(rec.h_cyl.empty());
  // The m = 2 term alone at phi = 45 deg: Re(F e^{i pi/2}) = -Im F.
  const SimulationModel m2 = cyl_model({2});
  const CylReconstruction r2 = reconstruct_cyl(m2, {slot_fields(0)}, 8);
  const std::size_t p = 3 + static_cast<std::size_t>(NR) * (1 + 9 * 1);  // i 3, j 1 (45 deg), k 1
  CHECK(r2.e_cyl[3 * p + 2] == doctest::Approx(-centred(0, 2, 3, 1).imag()));

  CHECK_THROWS_AS(reconstruct_cyl(m, {slot_fields(0)}, 4), std::invalid_argument);  // 1 of 2 slots
  CHECK_THROWS_AS(reconstruct_cyl(m, {slot_fields(0), slot_fields(1)}, 0), std::invalid_argument);
  CylModeFields partial = slot_fields(1);
  partial[4].clear();  // Hphi missing
  CHECK_THROWS_AS(reconstruct_cyl(m, {slot_fields(0), partial}, 4), std::invalid_argument);
  SimulationModel cartesian = cyl_model({0});
  cartesian.grid.cylindrical = false;
  CHECK_THROWS_AS(reconstruct_cyl(cartesian, {slot_fields(0)}, 4), std::invalid_argument);
}

TEST_CASE("probes.csv of a cylindrical model: columns <probe>.Er .. <probe>.Hz") {
  ProbeSet probes;
  probes.probes.push_back(ProbeModel{"p", 0, 5, {}, 0});
  for (int c = 0; c < 6; ++c) {
    ProbeSample s;
    s.probe = 0;
    s.component = Component(c);
    probes.samples.push_back(s);
  }
  probes.first_step = 0;
  probes.last_step = 5;
  CHECK(probe_column_name(probes, 1, true) == "p.Ephi_V_per_m");
  CHECK(probe_column_name(probes, 4, true) == "p.Hphi_A_per_m");
  CHECK(probe_column_name(probes, 1) == "p.Ey_V_per_m");  // Cartesian models keep x, y, z
  const fs::path dir = scratch("csv");
  {
    ProbeCsvWriter w((dir / "probes.csv").string(), probes, 1e-12, true);
  }
  std::ifstream in(dir / "probes.csv");
  std::string header;
  std::getline(in, header);
  CHECK(header == "step,time_s,p.Er_V_per_m,p.Ephi_V_per_m,p.Ez_V_per_m,p.Hr_A_per_m,p.Hphi_A_per_m,p.Hz_A_per_m");
  fs::remove_all(dir);
}

#ifdef CLFDTD_HAVE_VTK

namespace {

vtkSmartPointer<vtkImageData> read_vti(const std::string& path) {
  auto r = vtkSmartPointer<vtkXMLImageDataReader>::New();
  r->SetFileName(path.c_str());
  r->Update();
  vtkSmartPointer<vtkImageData> img = r->GetOutput();
  REQUIRE(img != nullptr);
  return img;
}

void check_rz_image(vtkImageData* img) {
  int dims[3];
  img->GetDimensions(dims);
  CHECK(dims[0] == NR + 1);
  CHECK(dims[1] == 1);  // the x-z plane: x = r, z = z
  CHECK(dims[2] == NZ + 1);
  CHECK(img->GetNumberOfCells() == NR * NZ);
  double sp[3];
  img->GetSpacing(sp);
  CHECK(sp[0] == doctest::Approx(DR));
  CHECK(sp[2] == doctest::Approx(DZ));
}

}  // namespace

TEST_CASE("cylindrical model.vti: the (r, z) image of the cell ids") {
  const fs::path dir = scratch("model");
  const SimulationModel m = cyl_model({0});
  const std::string path = (dir / "model.vti").string();
  write_model_vti(path, m);
  auto img = read_vti(path);
  check_rz_image(img);
  vtkDataArray* ids = img->GetCellData()->GetArray("material");
  vtkDataArray* eps = img->GetCellData()->GetArray("eps_r");
  REQUIRE(ids != nullptr);
  REQUIRE(eps != nullptr);
  for (int i = 0; i < NR; ++i)
    for (int k = 0; k < NZ; ++k)
      CHECK(ids->GetTuple1(i + NR * k) == m.cell_ids[static_cast<std::size_t>(i) * NZ + k]);
  CHECK(eps->GetTuple1(3 + NR * 2) == doctest::Approx(4.0));  // in the ring
  CHECK(eps->GetTuple1(0 + NR * 2) == doctest::Approx(1.0));  // on the axis, vacuum
  fs::remove_all(dir);
}

TEST_CASE("per-mode snapshot .vti: <C>_re and <C>_im of the six components at cell centres") {
  const fs::path dir = scratch("mode");
  const std::vector<int> orders{0, 2};
  const SimulationModel m = cyl_model(orders);
  const std::string path = (dir / "fields_7_m2.vti").string();
  write_cyl_mode_vti(path, m, 1, slot_fields(1), 7, 2e-12);
  auto img = read_vti(path);
  check_rz_image(img);
  vtkCellData* cd = img->GetCellData();
  const char* names[] = {"Er", "Ephi", "Ez", "Hr", "Hphi", "Hz"};
  for (int c = 0; c < 6; ++c) {
    vtkDataArray* re = cd->GetArray((std::string(names[c]) + "_re").c_str());
    vtkDataArray* im = cd->GetArray((std::string(names[c]) + "_im").c_str());
    REQUIRE(re != nullptr);
    REQUIRE(im != nullptr);
    for (int i = 0; i < NR; ++i)
      for (int k = 0; k < NZ; ++k) {
        CHECK(re->GetTuple1(i + NR * k) == doctest::Approx(centred(1, c, i, k).real()));
        CHECK(im->GetTuple1(i + NR * k) == doctest::Approx(centred(1, c, i, k).imag()));
      }
  }
  vtkFieldData* fd = img->GetFieldData();
  REQUIRE(fd->GetArray("mode_m") != nullptr);
  CHECK(fd->GetArray("mode_m")->GetTuple1(0) == 2);
  CHECK(fd->GetArray("TimeValue")->GetTuple1(0) == doctest::Approx(14e-12));
  CHECK(fd->GetArray("H_time_s")->GetTuple1(0) == doctest::Approx(13e-12));

  // snapshot.h = false: no H arrays.
  write_cyl_mode_vti(path, m, 0, slot_fields(0, false), 7, 2e-12);
  auto e_only = read_vti(path);
  CHECK(e_only->GetCellData()->GetArray("Ez_re") != nullptr);
  CHECK(e_only->GetCellData()->GetArray("Hz_re") == nullptr);
  CHECK_THROWS_AS(write_cyl_mode_vti(path, m, 2, slot_fields(0), 7, 2e-12), std::invalid_argument);
  // The Cartesian writer refuses a cylindrical model instead of writing a wrong picture.
  CHECK_THROWS_AS(write_fields_vti(path, m, {}, 7, 2e-12), std::invalid_argument);
  fs::remove_all(dir);
}

TEST_CASE("3D reconstruction .vts: a structured grid ParaView opens, values at known angles") {
  const fs::path dir = scratch("vts");
  const std::vector<int> orders{0, 1};
  const SimulationModel m = cyl_model(orders);
  const std::string path = (dir / "fields_7_3d.vts").string();
  const int N = 12;
  write_cyl_3d_vts(path, m, {slot_fields(0), slot_fields(1)}, N, 7, 2e-12);
  auto r = vtkSmartPointer<vtkXMLStructuredGridReader>::New();
  r->SetFileName(path.c_str());
  r->Update();
  vtkStructuredGrid* g = r->GetOutput();
  REQUIRE(g != nullptr);
  int dims[3];
  g->GetDimensions(dims);
  CHECK(dims[0] == NR);
  CHECK(dims[1] == N + 1);
  CHECK(dims[2] == NZ);
  vtkPointData* pd = g->GetPointData();
  for (const char* name : {"E", "H", "E_magnitude", "H_magnitude", "E_cyl", "H_cyl"})
    CHECK(pd->GetArray(name) != nullptr);
  vtkDataArray* e = pd->GetArray("E");
  REQUIRE(e != nullptr);
  // phi = 120 deg (j = 4), cell (2, 3).
  const int i = 2, j = 4, k = 3;
  const vtkIdType p = i + NR * (j + (N + 1) * k);
  const double phi = 2 * kPi * j / N;
  double x[3];
  g->GetPoint(p, x);
  CHECK(x[0] == doctest::Approx((i + 0.5) * DR * std::cos(phi)));
  CHECK(x[1] == doctest::Approx((i + 0.5) * DR * std::sin(phi)));
  CHECK(x[2] == doctest::Approx((k + 0.5) * DZ));
  const auto f = physical(orders, 0, i, k, phi);
  CHECK(e->GetComponent(p, 0) == doctest::Approx(f[0] * std::cos(phi) - f[1] * std::sin(phi)).epsilon(1e-4));
  CHECK(e->GetComponent(p, 1) == doctest::Approx(f[0] * std::sin(phi) + f[1] * std::cos(phi)).epsilon(1e-4));
  CHECK(e->GetComponent(p, 2) == doctest::Approx(f[2]).epsilon(1e-4));
  CHECK(g->GetFieldData()->GetArray("phi_samples")->GetTuple1(0) == N);
  fs::remove_all(dir);
}

TEST_CASE("cylindrical writers: a refused write is one OutputError line with the path and reason") {
  const fs::path dir = scratch("errors");
  const SimulationModel m = cyl_model({0, 1});
  const std::vector<CylModeFields> modes{slot_fields(0), slot_fields(1)};
  const std::string vti = (dir / "fields_1_m1.vti").string(), vts = (dir / "fields_1_3d.vts").string();
  auto r = clfdtd_test::write_with_file_size_limit(300, [&] { write_cyl_mode_vti(vti, m, 1, modes[1], 1, 1e-12); });
  CHECK(r.code == 5);
  CHECK(r.message == "cannot write '" + vti + "': File too large");
  CHECK(r.stderr_text.empty());
  r = clfdtd_test::write_with_file_size_limit(300, [&] { write_cyl_3d_vts(vts, m, modes, 8, 1, 1e-12); });
  CHECK(r.code == 5);
  CHECK(r.message == "cannot write '" + vts + "': File too large");
  CHECK(r.stderr_text.empty());
  const std::string missing = (dir / "missing" / "x.vts").string();
  CHECK_THROWS_AS(write_cyl_3d_vts(missing, m, modes, 8, 1, 1e-12), OutputError);
  fs::remove_all(dir);
}

#endif
