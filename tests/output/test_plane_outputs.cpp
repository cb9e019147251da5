// 2D outputs: cell-centre averages in the plane, model.vti and snapshots as nx x ny images one
// point thick with only the model's components, and run.json's dims, mode and equation.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "model/simulation_model.hpp"
#include "output/run_report.hpp"
#include "output/vti_writer.hpp"

#ifdef CLFDTD_HAVE_VTK
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkImageData.h>
#include <vtkSmartPointer.h>
#include <vtkXMLImageDataReader.h>
#endif

namespace fs = std::filesystem;
using namespace clfdtd;

namespace {

constexpr int NX = 6, NY = 5;  // rows padded to 8 in the device layout; unpadded here

fs::path scratch(const std::string& tag) {
  const fs::path p = fs::temp_directory_path() /
                     ("clfdtd_test_plane_output_" + std::to_string(::getpid()) + "_" + tag);
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

// A tm (or wave) plane of NX x NY cells of 1 cm x 2 cm, PEC walls, a dielectric rectangle.
SimulationModel plane_model(Equation equation = Equation::Maxwell) {
  RunConfig cfg;
  cfg.grid.dims = 2;
  cfg.grid.equation = equation;
  cfg.grid.size_m = Vec3{0.06, 0.10, 1.0};
  cfg.grid.cell_size_m = Vec3{0.01, 0.02, 1.0};
  cfg.time.steps = 10;
  cfg.boundary.type = BoundaryType::Pec;
  cfg.boundary.layers.fill(0);
  cfg.materials.push_back(MaterialConfig{"diel", 3.0});
  ObjectConfig o;
  o.name = "r";
  o.center = Vec3{0.045, 0.07, 0};
  o.size = Vec3{0.03, 0.04, 0};
  o.material = "diel";
  cfg.objects.push_back(o);
  return SimulationModel::build(cfg);
}

// A distinct float-exact value per component and in-plane sample, index i*NY + j.
float val(int c, int i, int j) {
  if (i >= NX || j >= NY) return 0.0f;
  return static_cast<float>(100 * (c + 1) + i * NY + j);
}

std::vector<float> plane_values(int c) {
  std::vector<float> v(static_cast<std::size_t>(NX) * NY);
  for (int i = 0; i < NX; ++i)
    for (int j = 0; j < NY; ++j) v[static_cast<std::size_t>(i) * NY + j] = val(c, i, j);
  return v;
}

}  // namespace

TEST_CASE("cell_centre_average in the plane: only in-plane neighbours") {
  const std::array<int, 3> n{NX, NY, 1};
  auto avg = [&](Component c) { return cell_centre_average(c, n, plane_values(static_cast<int>(c)), true); };
  const auto ez = avg(Component::Ez), hz = avg(Component::Hz), ex = avg(Component::Ex);
  const auto ey = avg(Component::Ey), hx = avg(Component::Hx), hy = avg(Component::Hy);
  const int i = 2, j = 3;
  const std::size_t s = static_cast<std::size_t>(i) * NY + j;
  CHECK(ez[s] == doctest::Approx((val(2, i, j) + val(2, i + 1, j) + val(2, i, j + 1) + val(2, i + 1, j + 1)) / 4.0));
  CHECK(hz[s] == val(5, i, j));  // already at the centre (i + 1/2, j + 1/2)
  CHECK(ex[s] == doctest::Approx((val(0, i, j) + val(0, i, j + 1)) / 2.0));
  CHECK(ey[s] == doctest::Approx((val(1, i, j) + val(1, i + 1, j)) / 2.0));
  CHECK(hx[s] == doctest::Approx((val(3, i, j) + val(3, i + 1, j)) / 2.0));
  CHECK(hy[s] == doctest::Approx((val(4, i, j) + val(4, i, j + 1)) / 2.0));
  // The high end reads 0: Ez at the far corner keeps one of four samples.
  CHECK(ez[static_cast<std::size_t>(NX - 1) * NY + NY - 1] == doctest::Approx(val(2, NX - 1, NY - 1) / 4.0));
}

TEST_CASE("run.json: dims always, mode and equation for a 2D model") {
  const fs::path dir = scratch("json");
  write_run_json((dir / "plane.json").string(), report_from_model(plane_model(Equation::Wave)));
  write_run_json((dir / "cube.json").string(), RunReport{});
  std::ifstream a(dir / "plane.json"), b(dir / "cube.json");
  const auto plane = nlohmann::json::parse(a), cube = nlohmann::json::parse(b);
  CHECK(plane["dims"] == 2);
  CHECK(plane["mode"] == "tm");
  CHECK(plane["equation"] == "wave");
  CHECK(plane["cells"] == nlohmann::json::array({NX, NY, 1}));
  CHECK(plane["cell_size_m"][2] == 1.0);
  CHECK(cube["dims"] == 3);
  CHECK_FALSE(cube.contains("mode"));
  CHECK_FALSE(cube.contains("equation"));
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

void check_plane_geometry(vtkImageData* img) {
  int dims[3];
  img->GetDimensions(dims);
  CHECK(dims[0] == NX + 1);
  CHECK(dims[1] == NY + 1);
  CHECK(dims[2] == 1);  // one layer of points: the cells are pixels
  CHECK(img->GetNumberOfCells() == NX * NY);
  double sp[3];
  img->GetSpacing(sp);
  CHECK(sp[0] == doctest::Approx(0.01));
  CHECK(sp[1] == doctest::Approx(0.02));
}

}  // namespace

TEST_CASE("2D model.vti: nx x ny pixels with the materials of the cell centres") {
  const fs::path dir = scratch("model");
  const SimulationModel m = plane_model();
  const std::string path = (dir / "model.vti").string();
  write_model_vti(path, m);
  auto img = read_vti(path);
  check_plane_geometry(img);
  vtkDataArray* ids = img->GetCellData()->GetArray("material");
  vtkDataArray* eps = img->GetCellData()->GetArray("eps_r");
  REQUIRE(ids != nullptr);
  REQUIRE(eps != nullptr);
  // The rectangle covers x 3..6 cm, y 5..9 cm: cell (4, 3) has its centre at 4.5, 7 cm.
  CHECK(ids->GetTuple1(4 + NX * 3) == 2);
  CHECK(eps->GetTuple1(4 + NX * 3) == doctest::Approx(3.0));
  CHECK(ids->GetTuple1(1 + NX * 1) == MaterialTable::kVacuum);
  for (int i = 0; i < NX; ++i)
    for (int j = 0; j < NY; ++j)
      CHECK(ids->GetTuple1(i + NX * j) == m.cell_ids[static_cast<std::size_t>(i) * NY + j]);
  fs::remove_all(dir);
}

TEST_CASE("2D snapshot .vti: one array per carried component, centred in the plane") {
  const fs::path dir = scratch("fields");
  const SimulationModel m = plane_model();
  std::array<std::vector<float>, 6> f;
  for (int c = 0; c < 6; ++c) f[c] = plane_values(c);  // Ex, Ey, Hz are not tm's: ignored
  const std::string path = (dir / "fields_4.vti").string();
  write_fields_vti(path, m, f, 4, 1e-12);
  auto img = read_vti(path);
  check_plane_geometry(img);
  vtkCellData* cd = img->GetCellData();
  for (const char* name : {"Ez", "Hx", "Hy"}) CHECK(cd->GetArray(name) != nullptr);
  for (const char* name : {"Ex", "Ey", "Hz", "E", "H", "E_magnitude"}) CHECK(cd->GetArray(name) == nullptr);
  const int i = 1, j = 2;
  CHECK(cd->GetArray("Ez")->GetTuple1(i + NX * j) ==
        doctest::Approx((val(2, i, j) + val(2, i + 1, j) + val(2, i, j + 1) + val(2, i + 1, j + 1)) / 4.0));
  CHECK(cd->GetArray("Hy")->GetTuple1(i + NX * j) ==
        doctest::Approx((val(4, i, j) + val(4, i, j + 1)) / 2.0));

  // H not saved (snapshot.fields = E): the caller gives empty H vectors.
  f[3].clear();
  f[4].clear();
  write_fields_vti(path, m, f, 4, 1e-12);
  auto e_only = read_vti(path);
  CHECK(e_only->GetCellData()->GetArray("Ez") != nullptr);
  CHECK(e_only->GetCellData()->GetArray("Hx") == nullptr);
  // A wrong-sized carried component is a caller bug.
  f[2].resize(7);
  CHECK_THROWS_AS(write_fields_vti(path, m, f, 4, 1e-12), std::invalid_argument);
  fs::remove_all(dir);
}

#endif
