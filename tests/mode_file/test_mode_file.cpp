// The modes-file reader (host/monitors/mode_file.hpp): files written here with VTK's own writer
// land in MonitorModel's padded layout value for value, in float32 and float64; every way a file
// can disagree with the model or the format is a one-line ConfigError naming the key and path.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "errors.hpp"
#include "monitors/mode_file.hpp"

#ifdef CLFDTD_HAVE_VTK
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkIntArray.h>
#include <vtkSmartPointer.h>
#include <vtkXMLImageDataWriter.h>
#endif

namespace fs = std::filesystem;
using namespace clfdtd;

namespace {

const std::string kKey = "monitor.m.modes_file";

// The ConfigError's message, or "" when f does not throw one.
template <class F>
std::string config_error(F f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

#ifdef CLFDTD_HAVE_VTK

namespace {

fs::path scratch() {
  static const fs::path p = [] {
    const fs::path d = fs::temp_directory_path() /
                       ("clfdtd_test_mode_file_" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
  }();
  return p;
}

// nz = 5: the layout pads z to 8, so padding cells exist.
constexpr int NX = 3, NY = 2, NZ = 5;
const std::array<double, 3> kCell{0.01, 0.02, 0.005};

// A distinct value per mode, component and cell, exact in float.
double val(int k, int c, int i, int j, int l) {
  return 1000 * k + 100 * c + 25 * i + 5 * j + l + 0.5;
}

struct Spec {
  std::array<int, 3> cells{NX, NY, NZ};
  std::array<double, 3> spacing = kCell;
  std::vector<std::string> names{"mode_0", "mode_1"};
  int comps = 3;
  int type = VTK_FLOAT;  // VTK_FLOAT, VTK_DOUBLE or VTK_INT
  double poison = 0;     // when non-zero: the value of mode_1, x component, cell (1, 1, 2)
  bool inline_base64 = false;  // else appended raw, like tools/cavity_modes
  bool zlib = false;
};

// Writes a .vti like tools/cavity_modes does (appended raw binary), through VTK's writer, with an
// extra array "E" that the reader must ignore.
fs::path write_modes(const std::string& file, const Spec& s) {
  auto img = vtkSmartPointer<vtkImageData>::New();
  img->SetDimensions(s.cells[0] + 1, s.cells[1] + 1, s.cells[2] + 1);
  img->SetSpacing(s.spacing[0], s.spacing[1], s.spacing[2]);
  const vtkIdType cells = static_cast<vtkIdType>(s.cells[0]) * s.cells[1] * s.cells[2];
  int k = 0;
  for (const std::string& name : s.names) {
    vtkSmartPointer<vtkDataArray> a;
    if (s.type == VTK_DOUBLE) a = vtkSmartPointer<vtkDoubleArray>::New();
    else if (s.type == VTK_INT) a = vtkSmartPointer<vtkIntArray>::New();
    else a = vtkSmartPointer<vtkFloatArray>::New();
    a->SetName(name.c_str());
    a->SetNumberOfComponents(s.comps);
    a->SetNumberOfTuples(cells);
    vtkIdType o = 0;
    for (int l = 0; l < s.cells[2]; ++l)
      for (int j = 0; j < s.cells[1]; ++j)
        for (int i = 0; i < s.cells[0]; ++i, ++o)  // VTK's order: x fastest
          for (int c = 0; c < s.comps; ++c) {
            double v = val(k, c, i, j, l);
            if (s.poison != 0 && k == 1 && c == 0 && i == 1 && j == 1 && l == 2) v = s.poison;
            a->SetComponent(o, c, v);
          }
    img->GetCellData()->AddArray(a);
    ++k;
  }
  auto e = vtkSmartPointer<vtkFloatArray>::New();
  e->SetName("E");
  e->SetNumberOfComponents(1);
  e->SetNumberOfTuples(cells);
  e->Fill(7);
  img->GetCellData()->AddArray(e);
  const fs::path path = scratch() / file;
  auto w = vtkSmartPointer<vtkXMLImageDataWriter>::New();
  w->SetFileName(path.string().c_str());
  w->SetInputData(img);
  if (s.inline_base64) {
    w->SetDataModeToBinary();
  } else {
    w->SetDataModeToAppended();
    w->EncodeAppendedDataOff();
  }
  if (s.zlib) w->SetCompressorTypeToZLib();
  else w->SetCompressorTypeToNone();
  w->SetHeaderTypeToUInt64();
  REQUIRE(w->Write() == 1);
  return path;
}

void check_layout(const std::vector<float>& modes, int nmodes) {
  const FieldLayout layout(NX, NY, NZ);
  REQUIRE(modes.size() == static_cast<std::size_t>(nmodes) * 3 * layout.cells());
  int wrong = 0, padding_nonzero = 0;
  for (int k = 0; k < nmodes; ++k)
    for (int c = 0; c < 3; ++c)
      for (int i = 0; i < NX; ++i)
        for (int j = 0; j < NY; ++j)
          for (int l = 0; l < static_cast<int>(layout.nzp()); ++l) {
            const float v = modes[(static_cast<std::size_t>(k) * 3 + c) * layout.cells() +
                                  layout.index(i, j, l)];
            if (l >= NZ) padding_nonzero += v != 0.0f;
            else wrong += v != static_cast<float>(val(k, c, i, j, l));
          }
  CHECK(wrong == 0);
  CHECK(padding_nonzero == 0);
}

}  // namespace

TEST_CASE("mode file: float32 modes land in the padded layout, other arrays ignored") {
  const fs::path p = write_modes("f32.vti", Spec{});
  const ModeFileInfo info = read_mode_file_info(p.string(), kKey);
  CHECK(info.cells == std::array<int, 3>{NX, NY, NZ});
  for (int a = 0; a < 3; ++a) CHECK(info.spacing_m[a] == doctest::Approx(kCell[a]).epsilon(1e-12));
  CHECK(info.nmodes == 2);
  CHECK(info.value_bytes == 4);
  std::vector<float> modes{1, 2, 3};  // replaced, not appended to
  CHECK(read_mode_file(p.string(), kKey, FieldLayout(NX, NY, NZ), kCell, modes) == 2);
  check_layout(modes, 2);
}

TEST_CASE("mode file: float64 modes are read too, and a spacing within 1e-6 relative matches") {
  Spec s;
  s.type = VTK_DOUBLE;
  s.names = {"mode_0", "mode_1", "mode_2"};
  s.spacing = {kCell[0] * (1 + 5e-7), kCell[1], kCell[2] * (1 - 5e-7)};
  const fs::path p = write_modes("f64.vti", s);
  CHECK(read_mode_file_info(p.string(), kKey).value_bytes == 8);
  std::vector<float> modes;
  CHECK(read_mode_file(p.string(), kKey, FieldLayout(NX, NY, NZ), kCell, modes) == 3);
  check_layout(modes, 3);
}

TEST_CASE("mode file: VTK's other encodings (inline base64, zlib-compressed) read the same") {
  for (const bool b64 : {false, true}) {
    Spec s;
    s.inline_base64 = b64;
    s.zlib = true;
    CAPTURE(b64);
    const fs::path p = write_modes(b64 ? "b64.vti" : "zlib.vti", s);
    std::vector<float> modes;
    CHECK(read_mode_file(p.string(), kKey, FieldLayout(NX, NY, NZ), kCell, modes) == 2);
    check_layout(modes, 2);
  }
}

TEST_CASE("mode file: a file that disagrees with the model names key, path, expected and found") {
  std::vector<float> modes;
  const FieldLayout layout(NX, NY, NZ);
  const auto read = [&](const fs::path& p) {
    return config_error([&] { read_mode_file(p.string(), kKey, layout, kCell, modes); });
  };
  const auto has = [](const std::string& msg, const std::vector<std::string>& parts) {
    for (const std::string& part : parts)
      if (msg.find(part) == std::string::npos) return false;
    return msg.find('\n') == std::string::npos;
  };

  Spec grid;
  grid.cells = {4, NY, NZ};
  const fs::path g = write_modes("grid.vti", grid);
  const std::string mg = read(g);
  CHECK_MESSAGE(has(mg, {g.string(), kKey, "3x2x5", "found 4x2x5"}), mg);

  Spec spacing;
  spacing.spacing = {kCell[0] * (1 + 3e-6), kCell[1], kCell[2]};
  const std::string ms = read(write_modes("spacing.vti", spacing));
  CHECK_MESSAGE(has(ms, {kKey, "spacing", "0.01 0.02 0.005", "found 0.01000003"}), ms);

  Spec two;
  two.comps = 2;
  const std::string mc = read(write_modes("comps.vti", two));
  CHECK_MESSAGE(has(mc, {kKey, "mode_0 with 3 components", "found 2"}), mc);

  Spec ints;
  ints.type = VTK_INT;
  const std::string mi = read(write_modes("int.vti", ints));
  CHECK_MESSAGE(has(mi, {kKey, "mode_0 of Float32 or Float64", "found int"}), mi);

  Spec none;
  none.names = {"E_mode", "H"};
  const std::string mn = read(write_modes("none.vti", none));
  CHECK_MESSAGE(has(mn, {kKey, "mode_0, mode_1", "found only E, E_mode, H"}), mn);

  Spec gap;
  gap.names = {"mode_0", "mode_2"};
  const fs::path gp = write_modes("gap.vti", gap);
  const std::string mgap = read(gp);
  CHECK_MESSAGE(has(mgap, {kKey, "consecutive", "found mode_2 but no mode_1"}), mgap);
  CHECK(config_error([&] { read_mode_file_info(gp.string(), kKey); }) == mgap);

  Spec nan;
  nan.poison = std::numeric_limits<double>::quiet_NaN();
  const std::string mnan = read(write_modes("nan.vti", nan));
  CHECK_MESSAGE(
      has(mnan, {kKey, "finite float values in mode_1, found nan (component x) in cell 1 1 2"}),
      mnan);

  Spec huge;
  huge.type = VTK_DOUBLE;
  huge.poison = 1e40;  // finite in float64, inf as float
  const std::string mh = read(write_modes("huge.vti", huge));
  CHECK_MESSAGE(has(mh, {kKey, "finite float values in mode_1, found 1e+40"}), mh);

  const fs::path missing = scratch() / "missing.vti";
  const std::string mm = config_error([&] { read_mode_file_info(missing.string(), kKey); });
  CHECK_MESSAGE(has(mm, {missing.string(), kKey, "no such file"}), mm);
  // A relative path: the message names the absolute path looked for.
  const std::string mr = config_error([&] { read_mode_file_info("no_such_modes.vti", kKey); });
  CHECK_MESSAGE(has(mr, {"looked for " + (fs::current_path() / "no_such_modes.vti").string(),
                         "a relative path starts in the folder clfdtd runs in"}),
                mr);

  const fs::path text = scratch() / "text.vti";
  std::ofstream(text) << "not a VTK file\n";
  const std::string mt = read(text);
  CHECK_MESSAGE(has(mt, {text.string(), kKey, "VTK XML image data"}), mt);

  CHECK(has(config_error([&] { read_mode_file_info(scratch().string(), kKey); }),
            {kKey, "not a regular file"}));
}

TEST_CASE("mode file: a file cut short is an error, not whatever memory held") {
  const fs::path whole = write_modes("whole.vti", Spec{});
  const fs::path cut = scratch() / "cut.vti";
  fs::copy_file(whole, cut, fs::copy_options::overwrite_existing);
  fs::resize_file(cut, fs::file_size(whole) - 200);  // into mode_1's values
  std::vector<float> modes;
  const std::string m = config_error(
      [&] { read_mode_file(cut.string(), kKey, FieldLayout(NX, NY, NZ), kCell, modes); });
  CHECK_MESSAGE(m.find(kKey) != std::string::npos, m);
  CHECK_MESSAGE(m.find("cut short") != std::string::npos, m);
  CHECK_MESSAGE(m.find('\n') == std::string::npos, m);
}

TEST_CASE("mode file: the shipped models/cavity_modes.vti (tools/cavity_modes) loads orthonormal") {
  // models/cavity_modes.ini's grid: 0.24 x 0.20 x 0.16 m in 2 cm cells (tests/tools/cavity_modes.py
  // checks that the file is what the tool writes for that model).
  const std::string path = std::string(CLFDTD_SOURCE_DIR) + "/models/cavity_modes.vti";
  const ModeFileInfo info = read_mode_file_info(path, kKey);
  CHECK(info.cells == std::array<int, 3>{12, 10, 8});
  CHECK(info.nmodes == 10);
  CHECK(info.value_bytes == 4);
  const FieldLayout layout(12, 10, 8);
  const std::array<double, 3> d{0.02, 0.02, 0.02};
  std::vector<float> modes;
  REQUIRE(read_mode_file(path, kKey, layout, d, modes) == 10);
  // sum over cells of mode_a . mode_b dV = delta_ab, through the padded layout.
  const double dv = d[0] * d[1] * d[2];
  double worst = 0;
  for (int a = 0; a < 10; ++a)
    for (int b = 0; b < 10; ++b) {
      double s = 0;
      for (int c = 0; c < 3; ++c)
        for (std::size_t i = 0; i < layout.cells(); ++i)
          s += static_cast<double>(modes[(a * 3 + c) * layout.cells() + i]) *
               modes[(b * 3 + c) * layout.cells() + i];
      worst = std::max(worst, std::abs(s * dv - (a == b ? 1.0 : 0.0)));
    }
  CHECK(worst < 1e-6);
  // Mode 0 is TM110 (the CSV beside it): E along z only, Ez = A sin(pi x/a) sin(pi y/b) at
  // (i, j, k+1/2), largest in the middle cells.
  const auto at = [&](int c, int i, int j, int k) {
    return modes[static_cast<std::size_t>(c) * layout.cells() + layout.index(i, j, k)];
  };
  CHECK(at(0, 6, 5, 4) == 0.0f);
  CHECK(at(1, 6, 5, 4) == 0.0f);
  const double amp = 1 / std::sqrt(0.24 * 0.20 * 0.16 / 4);  // unit norm of sin sin over a b c
  CHECK(at(2, 6, 5, 4) == doctest::Approx(std::abs(amp)).epsilon(1e-5));
  CHECK(at(2, 3, 5, 0) == doctest::Approx(amp * std::sin(std::acos(-1.0) * 3 / 12)).epsilon(1e-5));
}

#else  // a build without VTK

TEST_CASE("mode file: a build without VTK refuses modes files with a reason") {
  std::vector<float> modes;
  const std::string m = config_error(
      [&] { read_mode_file("m.vti", kKey, FieldLayout(2, 2, 2), {1, 1, 1}, modes); });
  CHECK(m.find("m.vti") != std::string::npos);
  CHECK(m.find(kKey) != std::string::npos);
  CHECK(m.find("need VTK") != std::string::npos);
  CHECK(config_error([&] { read_mode_file_info("m.vti", kKey); }) == m);
}

#endif
