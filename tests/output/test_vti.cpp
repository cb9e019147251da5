// model.vti and fields .vti: written from a small hand-made model, read back with VTK's own reader,
// and checked for geometry, array layout and values (including the Yee -> cell-centre averaging).
// The averaging itself is also checked without VTK, so a -DCLFDTD_VTK=OFF build still covers it.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "errors.hpp"
#include "file_size_limit.hpp"
#include "output/vti_writer.hpp"

#ifdef CLFDTD_HAVE_VTK
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkImageData.h>
#include <vtkSmartPointer.h>
#include <vtkStringArray.h>
#include <vtkXMLImageDataReader.h>
#endif

namespace fs = std::filesystem;
using namespace clfdtd;

namespace {

constexpr int NX = 3, NY = 2, NZ = 4;

std::size_t sim_index(int i, int j, int k) { return (static_cast<std::size_t>(i) * NY + j) * NZ + k; }

// A distinct, float-exact value per component and sample; 0 past the high end, like the PEC wall.
float val(int c, int i, int j, int k) {
  if (i >= NX || j >= NY || k >= NZ) return 0.0f;
  return static_cast<float>(100 * (c + 1) + sim_index(i, j, k));
}

std::array<std::vector<float>, 6> known_fields() {
  std::array<std::vector<float>, 6> f;
  for (int c = 0; c < 6; ++c) {
    f[c].resize(static_cast<std::size_t>(NX) * NY * NZ);
    for (int i = 0; i < NX; ++i)
      for (int j = 0; j < NY; ++j)
        for (int k = 0; k < NZ; ++k) f[c][sim_index(i, j, k)] = val(c, i, j, k);
  }
  return f;
}

// Expected cell-centre values, written out per component from the Yee positions.
double centre(int c, int i, int j, int k) {
  switch (c) {
    case 0: return (val(0, i, j, k) + val(0, i, j + 1, k) + val(0, i, j, k + 1) + val(0, i, j + 1, k + 1)) / 4.0;
    case 1: return (val(1, i, j, k) + val(1, i + 1, j, k) + val(1, i, j, k + 1) + val(1, i + 1, j, k + 1)) / 4.0;
    case 2: return (val(2, i, j, k) + val(2, i + 1, j, k) + val(2, i, j + 1, k) + val(2, i + 1, j + 1, k)) / 4.0;
    case 3: return (val(3, i, j, k) + val(3, i + 1, j, k)) / 2.0;
    case 4: return (val(4, i, j, k) + val(4, i, j + 1, k)) / 2.0;
    default: return (val(5, i, j, k) + val(5, i, j, k + 1)) / 2.0;
  }
}

SimulationModel small_model() {
  SimulationModel m;
  m.grid.n = {NX, NY, NZ};
  m.grid.d = {0.1, 0.2, 0.05};
  m.grid.dt = 1e-10;
  m.grid.steps = 10;
  m.layout = FieldLayout(NX, NY, NZ);
  MaterialConfig glass{"glass", 4.0, 1.0, 0.01, false};
  MaterialConfig ferrite{"ferrite", 1.0, 2.5, 0.0, false};
  m.materials = MaterialTable({glass, ferrite});  // ids: 0 pec, 1 vacuum, 2 glass, 3 ferrite
  m.cell_ids.resize(static_cast<std::size_t>(NX) * NY * NZ);
  for (int i = 0; i < NX; ++i)
    for (int j = 0; j < NY; ++j)
      for (int k = 0; k < NZ; ++k) m.cell_ids[sim_index(i, j, k)] = static_cast<std::uint8_t>((i + 2 * j + k) % 4);
  return m;
}

}  // namespace

TEST_CASE("cell_centre_average follows the Yee positions; past the high end reads 0") {
  const auto f = known_fields();
  for (int c = 0; c < 6; ++c) {
    const auto out = cell_centre_average(Component(c), {NX, NY, NZ}, f[c]);
    REQUIRE(out.size() == f[c].size());
    for (int i = 0; i < NX; ++i)
      for (int j = 0; j < NY; ++j)
        for (int k = 0; k < NZ; ++k) CHECK(out[sim_index(i, j, k)] == doctest::Approx(centre(c, i, j, k)));
  }
  // Spot checks written by hand: Ex at the far corner keeps one of four samples; Hx two of two.
  const auto ex = cell_centre_average(Component::Ex, {NX, NY, NZ}, f[0]);
  CHECK(ex[sim_index(2, 1, 3)] == doctest::Approx(val(0, 2, 1, 3) / 4.0));
  const auto hx = cell_centre_average(Component::Hx, {NX, NY, NZ}, f[3]);
  CHECK(hx[sim_index(0, 1, 2)] == doctest::Approx((val(3, 0, 1, 2) + val(3, 1, 1, 2)) / 2.0));
  CHECK_THROWS_AS(cell_centre_average(Component::Ez, {NX, NY, NZ}, std::vector<float>(5)),
                  std::invalid_argument);
}

#ifndef CLFDTD_HAVE_VTK

TEST_CASE("without VTK the .vti writers report it") {
  CHECK_FALSE(vtk_available());
  const SimulationModel m = small_model();
  try {
    write_model_vti("/tmp/never.vti", m);
    FAIL("expected an exception");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("this build has no VTK") == 0);
  }
  CHECK_THROWS_AS(write_fields_vti("/tmp/never.vti", m, known_fields(), 0, 1e-12), std::runtime_error);
}

#else

namespace {

fs::path scratch(const std::string& tag) {
  const fs::path p = fs::temp_directory_path() /
                     ("clfdtd_test_output_" + std::to_string(::getpid()) + "_" + tag);
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

vtkSmartPointer<vtkImageData> read_vti(const std::string& path) {
  auto r = vtkSmartPointer<vtkXMLImageDataReader>::New();
  r->SetFileName(path.c_str());
  r->Update();
  vtkSmartPointer<vtkImageData> img = r->GetOutput();
  REQUIRE(img != nullptr);
  return img;
}

void check_geometry(vtkImageData* img) {
  int dims[3];
  img->GetDimensions(dims);
  CHECK(dims[0] == NX + 1);
  CHECK(dims[1] == NY + 1);
  CHECK(dims[2] == NZ + 1);
  double sp[3], org[3];
  img->GetSpacing(sp);
  img->GetOrigin(org);
  CHECK(sp[0] == doctest::Approx(0.1));
  CHECK(sp[1] == doctest::Approx(0.2));
  CHECK(sp[2] == doctest::Approx(0.05));
  CHECK(org[0] == 0.0);
  CHECK(org[1] == 0.0);
  CHECK(org[2] == 0.0);
  CHECK(img->GetNumberOfCells() == NX * NY * NZ);
}

// VTK numbers cells x fastest.
vtkIdType vtk_cell(int i, int j, int k) { return i + NX * (j + NY * k); }

}  // namespace

TEST_CASE("model.vti reads back with geometry, materials and the id -> name table") {
  CHECK(vtk_available());
  const fs::path root = scratch("model_vti");
  const SimulationModel m = small_model();
  const std::string path = (root / "model.vti").string();
  write_model_vti(path, m);
  auto img = read_vti(path);
  check_geometry(img);

  vtkCellData* cd = img->GetCellData();
  for (const char* name : {"eps_r", "mu_r", "sigma", "material"}) {
    INFO(name);
    REQUIRE(cd->GetArray(name) != nullptr);
    CHECK(cd->GetArray(name)->GetNumberOfComponents() == 1);
    CHECK(cd->GetArray(name)->GetNumberOfTuples() == NX * NY * NZ);
  }
  CHECK(cd->GetArray("material")->GetDataType() == VTK_UNSIGNED_CHAR);
  CHECK(cd->GetArray("eps_r")->GetDataType() == VTK_FLOAT);
  for (int i = 0; i < NX; ++i)
    for (int j = 0; j < NY; ++j)
      for (int k = 0; k < NZ; ++k) {
        const int id = (i + 2 * j + k) % 4;
        const vtkIdType c = vtk_cell(i, j, k);
        CHECK(cd->GetArray("material")->GetTuple1(c) == id);
        CHECK(cd->GetArray("eps_r")->GetTuple1(c) == doctest::Approx(id == 2 ? 4.0 : 1.0));
        CHECK(cd->GetArray("mu_r")->GetTuple1(c) == doctest::Approx(id == 3 ? 2.5 : 1.0));
        CHECK(cd->GetArray("sigma")->GetTuple1(c) == doctest::Approx(id == 2 ? 0.01 : 0.0));
      }

  auto* names = vtkStringArray::SafeDownCast(img->GetFieldData()->GetAbstractArray("material_names"));
  REQUIRE(names != nullptr);
  REQUIRE(names->GetNumberOfValues() == 4);
  CHECK(names->GetValue(0) == "pec");
  CHECK(names->GetValue(1) == "vacuum");
  CHECK(names->GetValue(2) == "glass");
  CHECK(names->GetValue(3) == "ferrite");
  auto* pec = img->GetFieldData()->GetArray("material_pec");
  REQUIRE(pec != nullptr);
  CHECK(pec->GetTuple1(0) == 1);
  CHECK(pec->GetTuple1(2) == 0);

  CHECK(cd->GetArray("poles") == nullptr);  // no dispersive material

  // With poles on the glass: a `poles` array, 2 where the glass is.
  SimulationModel disp = small_model();
  MaterialConfig glass{"glass", 4.0, 1.0, 0.01, false};
  PoleConfig debye;
  debye.p = {3, 1e-10, 0};
  glass.poles = {debye, debye};
  disp.materials = MaterialTable({glass, MaterialConfig{"ferrite", 1.0, 2.5, 0.0, false}});
  write_model_vti((root / "poles.vti").string(), disp);
  auto with = read_vti((root / "poles.vti").string());
  vtkDataArray* poles = with->GetCellData()->GetArray("poles");
  REQUIRE(poles != nullptr);
  CHECK(poles->GetTuple1(vtk_cell(2, 0, 0)) == 2);  // (2 + 0 + 0) % 4 = 2: glass
  CHECK(poles->GetTuple1(vtk_cell(1, 0, 0)) == 0);

  // Poles along z only (material axes): the cell shows the most of its three axes' counts.
  SimulationModel along_z = small_model();
  MaterialConfig wires{"wires", 1.0, 1.0, 0.0, false};
  wires.pole_axes[2] = {debye};
  along_z.materials = MaterialTable({wires});
  REQUIRE(along_z.materials.entry(2).poles.empty());  // the x entry the cell ids hold
  write_model_vti((root / "poles_z.vti").string(), along_z);
  auto with_z = read_vti((root / "poles_z.vti").string());
  vtkDataArray* z_poles = with_z->GetCellData()->GetArray("poles");
  REQUIRE(z_poles != nullptr);
  CHECK(z_poles->GetTuple1(vtk_cell(2, 0, 0)) == 1);
  CHECK(z_poles->GetTuple1(vtk_cell(1, 0, 0)) == 0);

  SimulationModel bad = small_model();
  bad.cell_ids.pop_back();
  CHECK_THROWS_AS(write_model_vti((root / "bad.vti").string(), bad), std::invalid_argument);
  CHECK_THROWS_AS(write_model_vti((root / "no" / "such" / "dir.vti").string(), m), std::runtime_error);
  fs::remove_all(root);
}

TEST_CASE("fields .vti reads back E and H averaged to cell centres, with time") {
  const fs::path root = scratch("fields_vti");
  const SimulationModel m = small_model();
  const auto f = known_fields();
  const std::string path = (root / "fields_000007.vti").string();
  write_fields_vti(path, m, f, 7, 2e-12);
  auto img = read_vti(path);
  check_geometry(img);

  vtkCellData* cd = img->GetCellData();
  REQUIRE(cd->GetArray("E") != nullptr);
  REQUIRE(cd->GetArray("H") != nullptr);
  REQUIRE(cd->GetArray("E_magnitude") != nullptr);
  REQUIRE(cd->GetArray("H_magnitude") != nullptr);
  CHECK(cd->GetArray("E")->GetNumberOfComponents() == 3);
  CHECK(cd->GetArray("H")->GetNumberOfComponents() == 3);
  CHECK(cd->GetArray("E_magnitude")->GetNumberOfComponents() == 1);
  CHECK(cd->GetArray("E")->GetNumberOfTuples() == NX * NY * NZ);

  for (int i = 0; i < NX; ++i)
    for (int j = 0; j < NY; ++j)
      for (int k = 0; k < NZ; ++k) {
        const vtkIdType c = vtk_cell(i, j, k);
        double e[3], h[3];
        cd->GetArray("E")->GetTuple(c, e);
        cd->GetArray("H")->GetTuple(c, h);
        for (int a = 0; a < 3; ++a) {
          CHECK(e[a] == doctest::Approx(centre(a, i, j, k)));
          CHECK(h[a] == doctest::Approx(centre(3 + a, i, j, k)));
        }
        CHECK(cd->GetArray("E_magnitude")->GetTuple1(c) ==
              doctest::Approx(std::sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2])));
        CHECK(cd->GetArray("H_magnitude")->GetTuple1(c) ==
              doctest::Approx(std::sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2])));
      }
  // Hand-worked cells: (1,0,2) interior, (2,1,3) the far corner where the PEC wall contributes 0.
  double e[3], h[3];
  cd->GetArray("E")->GetTuple(vtk_cell(1, 0, 2), e);
  // Ex at (1,0,2),(1,1,2),(1,0,3),(1,1,3) = 100 + {10,14,11,15}
  CHECK(e[0] == doctest::Approx((110 + 114 + 111 + 115) / 4.0));
  cd->GetArray("H")->GetTuple(vtk_cell(2, 1, 3), h);
  CHECK(h[0] == doctest::Approx(val(3, 2, 1, 3) / 2.0));  // Hx at i = 3 is on the wall
  CHECK(h[2] == doctest::Approx(val(5, 2, 1, 3) / 2.0));  // Hz at k = 4 likewise

  vtkFieldData* fd = img->GetFieldData();
  REQUIRE(fd->GetArray("TimeValue") != nullptr);
  CHECK(fd->GetArray("TimeValue")->GetTuple1(0) == doctest::Approx(14e-12));
  CHECK(fd->GetArray("H_time_s")->GetTuple1(0) == doctest::Approx(13e-12));
  CHECK(fd->GetArray("step")->GetTuple1(0) == 7);
  REQUIRE(fd->GetAbstractArray("note") != nullptr);
  fs::remove_all(root);
}

TEST_CASE("fields .vti with E only, and rejected partial or wrong-sized input") {
  const fs::path root = scratch("fields_e_only");
  const SimulationModel m = small_model();
  auto f = known_fields();
  for (int c = 3; c < 6; ++c) f[c].clear();
  const std::string path = (root / "e.vti").string();
  write_fields_vti(path, m, f, 0, 1e-12);
  auto img = read_vti(path);
  CHECK(img->GetCellData()->GetArray("E") != nullptr);
  CHECK(img->GetCellData()->GetArray("H") == nullptr);
  CHECK(img->GetCellData()->GetArray("H_magnitude") == nullptr);

  auto partial = known_fields();
  partial[1].clear();
  CHECK_THROWS_AS(write_fields_vti(path, m, partial, 0, 1e-12), std::invalid_argument);
  auto short_h = known_fields();
  short_h[4].pop_back();
  CHECK_THROWS_AS(write_fields_vti(path, m, short_h, 0, 1e-12), std::invalid_argument);
  fs::remove_all(root);
}

// A full disk used to come out as "VTK error code 28" after a multi-line pipeline dump on stderr.
TEST_CASE("a .vti that cannot be written is one line with the path and the system's reason") {
  const fs::path root = scratch("vti_limit");
  const SimulationModel m = small_model();
  const std::string path = (root / "model.vti").string();
  const auto r = clfdtd_test::write_with_file_size_limit(300, [&] { write_model_vti(path, m); });
  CHECK(r.code == 5);
  CHECK(r.message == "cannot write '" + path + "': File too large");
  CHECK_MESSAGE(r.stderr_text.empty(), r.stderr_text);  // VTK's own report stays silent
  const std::string nowhere = (root / "missing" / "model.vti").string();
  try {
    write_model_vti(nowhere, m);
    FAIL("expected an OutputError");
  } catch (const OutputError& e) {
    CHECK(std::string(e.what()).find("cannot write '" + nowhere + "'") == 0);
  }
  fs::remove_all(root);
}

#endif
