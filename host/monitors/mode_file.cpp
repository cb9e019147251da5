// Modes files: see mode_file.hpp. VTK's XML reader does the parsing; this file checks the
// contents against the model and moves VTK's cell order (x fastest) into the fields' padded
// layout (z fastest).
#include "monitors/mode_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "errors.hpp"
#include "model/number_text.hpp"

#ifdef CLFDTD_HAVE_VTK
#include <vtkDataArray.h>
#include <vtkDataArraySelection.h>
#include <vtkDataObject.h>
#include <vtkDoubleArray.h>
#include <vtkFloatArray.h>
#include <vtkCellData.h>
#include <vtkImageData.h>
#include <vtkInformation.h>
#include <vtkInformationVector.h>
#include <vtkSmartPointer.h>
#include <vtkStreamingDemandDrivenPipeline.h>
#include <vtkType.h>
#include <vtkXMLImageDataReader.h>

#include "vtk_reading.hpp"
#endif

namespace clfdtd {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& key, const std::string& what) {
  throw ConfigError(path, 0, key, what);
}

}  // namespace

#ifdef CLFDTD_HAVE_VTK

namespace {

std::string cells_text(const std::array<int, 3>& n) {
  return std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]);
}

std::string spacing_text(const std::array<double, 3>& d) {
  return number_text(d[0], 9) + " " + number_text(d[1], 9) + " " + number_text(d[2], 9);
}

ModeFileInfo open_mode_file(const std::string& path, const std::string& key,
                            const CapturedVtkMessages& vtk) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    // A relative path is taken from the folder clfdtd runs in, not the model file's.
    const std::filesystem::path p(path);
    const std::string where =
        p.is_absolute() ? "" : " (looked for " + std::filesystem::absolute(p, ec).string() +
                                   ": a relative path starts in the folder clfdtd runs in)";
    fail(path, key, "a modes file (.vti with cell arrays mode_0, mode_1, ...); no such file" + where);
  }
  if (!std::filesystem::is_regular_file(path, ec))
    fail(path, key, "a modes file (.vti with cell arrays mode_0, mode_1, ...); not a regular file");

  {
    std::ifstream probe(path, std::ios::binary);
    if (!probe)
      fail(path, key, std::string("a readable modes file; cannot open it: ") +
                          std::strerror(errno));
  }
  ModeFileInfo info;
  auto reader = vtkSmartPointer<vtkXMLImageDataReader>::New();
  if (!reader->CanReadFile(path.c_str()))
    fail(path, key, "a modes file: VTK XML image data (.vti, <VTKFile type=\"ImageData\">); "
                    "this file is not one");
  if (!vtk_xml_complete(path))
    fail(path, key, "a complete .vti modes file, ending in </VTKFile>; this one does not (cut "
                    "short, or not VTK XML)");
  reader->SetFileName(path.c_str());
  reader->UpdateInformation();
  if (!vtk.first_error().empty())
    fail(path, key, "a readable .vti modes file; VTK: " + vtk_reason(vtk.first_error()));

  vtkInformation* out = reader->GetOutputInformation(0);
  int extent[6] = {0, -1, 0, -1, 0, -1};
  out->Get(vtkStreamingDemandDrivenPipeline::WHOLE_EXTENT(), extent);
  double spacing[3] = {1, 1, 1};
  if (out->Has(vtkDataObject::SPACING())) out->Get(vtkDataObject::SPACING(), spacing);
  for (int a = 0; a < 3; ++a) {
    info.cells[a] = extent[2 * a + 1] - extent[2 * a];
    info.spacing_m[a] = spacing[a];
  }

  // Name -> (VTK type, components) of every cell array, from the header.
  std::map<std::string, std::pair<int, int>> arrays;
  if (vtkInformationVector* cell_arrays = out->Get(vtkDataObject::CELL_DATA_VECTOR())) {
    for (int i = 0; i < cell_arrays->GetNumberOfInformationObjects(); ++i) {
      vtkInformation* a = cell_arrays->GetInformationObject(i);
      if (!a->Has(vtkDataObject::FIELD_NAME())) continue;
      arrays[a->Get(vtkDataObject::FIELD_NAME())] = {
          a->Get(vtkDataObject::FIELD_ARRAY_TYPE()),
          a->Get(vtkDataObject::FIELD_NUMBER_OF_COMPONENTS())};
    }
  }
  int k = 0;
  for (;; ++k) {
    const auto it = arrays.find("mode_" + std::to_string(k));
    if (it == arrays.end()) break;
    const std::string name = it->first;
    const auto [type, comps] = it->second;
    if (comps != 3)
      fail(path, key, "cell array " + name + " with 3 components (Ex Ey Ez), found " +
                          std::to_string(comps));
    if (type != VTK_FLOAT && type != VTK_DOUBLE)
      fail(path, key, "cell array " + name + " of Float32 or Float64, found " +
                          vtkImageScalarTypeNameMacro(type));
    const std::size_t bytes = type == VTK_DOUBLE ? 8 : 4;
    if (k > 0 && bytes != info.value_bytes)
      fail(path, key, "every mode_<k> of one type, found mode_0 of Float" +
                          std::to_string(8 * info.value_bytes) + " and " + name + " of Float" +
                          std::to_string(8 * bytes));
    info.value_bytes = bytes;
  }
  if (k == 0) {
    std::string found;
    int listed = 0;
    for (const auto& a : arrays) {
      if (listed++ == 5) { found += ", ..."; break; }
      found += (found.empty() ? "" : ", ") + a.first;
    }
    fail(path, key, "cell arrays mode_0, mode_1, ... (3 components each); found " +
                        (found.empty() ? std::string("no cell arrays") : "only " + found));
  }
  for (const auto& a : arrays) {
    // A mode_<j> past the consecutive run: a gap in the numbering, never silently dropped.
    const std::string& name = a.first;
    if (name.rfind("mode_", 0) != 0 || name.size() == 5) continue;
    if (name.find_first_not_of("0123456789", 5) != std::string::npos) continue;
    if (name.size() < 15 && std::stol(name.substr(5)) < k) continue;
    fail(path, key, "consecutive cell arrays mode_0 .. mode_<K-1>; found " + name +
                        " but no mode_" + std::to_string(k));
  }
  info.nmodes = k;
  return info;
}

// One mode from VTK's order (tuple i + nx (j + ny l), 3 components each) into the padded
// layout, component c at out[c * layout.cells() + layout.index(i, j, l)].
template <class T>
void copy_mode(const T* in, const std::array<int, 3>& n, const FieldLayout& layout, float* out,
               const std::string& path, const std::string& key, const std::string& name) {
  const std::size_t padded = layout.cells();
  const double limit = std::numeric_limits<float>::max();  // a float64 past it becomes inf
  for (int l = 0; l < n[2]; ++l)
    for (int j = 0; j < n[1]; ++j)
      for (int i = 0; i < n[0]; ++i, in += 3)
        for (int c = 0; c < 3; ++c) {
          const double v = in[c];
          if (!(std::abs(v) <= limit))
            fail(path, key, "finite float values in " + name + ", found " + number_text(v, 9) +
                                " (component " + "xyz"[c] + ") in cell " + std::to_string(i) +
                                " " + std::to_string(j) + " " + std::to_string(l));
          out[c * padded + layout.index(i, j, l)] = static_cast<float>(v);
        }
}

}  // namespace

bool mode_files_readable() { return true; }

ModeFileInfo read_mode_file_info(const std::string& path, const std::string& key) {
  CapturedVtkMessages vtk;
  return open_mode_file(path, key, vtk);
}

int read_mode_file(const std::string& path, const std::string& key, const FieldLayout& layout,
                   const std::array<double, 3>& cell_m, std::vector<float>& modes) {
  CapturedVtkMessages vtk;
  const ModeFileInfo info = open_mode_file(path, key, vtk);
  const std::array<int, 3> n{layout.nx, layout.ny, layout.nz};
  if (info.cells != n)
    fail(path, key, "modes on the model's grid of " + cells_text(n) + " cells, found " +
                        cells_text(info.cells) + " cells");
  for (int a = 0; a < 3; ++a)
    if (!(std::abs(info.spacing_m[a] - cell_m[a]) <= 1e-6 * std::abs(cell_m[a])))
      fail(path, key, "spacing equal to the model's cell size " + spacing_text(cell_m) +
                          " m (within 1e-6 relative), found " + spacing_text(info.spacing_m) +
                          " m");

  const std::size_t padded = layout.cells();
  modes.assign(static_cast<std::size_t>(info.nmodes) * 3 * padded, 0.0f);
  const vtkIdType cells = static_cast<vtkIdType>(n[0]) * n[1] * n[2];
  for (int k = 0; k < info.nmodes; ++k) {
    // A fresh reader per array: one reused with a new selection fills a short read with the
    // previous array's values, without an error.
    const std::string name = "mode_" + std::to_string(k);
    auto reader = vtkSmartPointer<vtkXMLImageDataReader>::New();
    reader->SetFileName(path.c_str());
    reader->UpdateInformation();
    reader->GetPointDataArraySelection()->DisableAllArrays();
    reader->GetCellDataArraySelection()->DisableAllArrays();
    reader->GetCellDataArraySelection()->EnableArray(name.c_str());
    reader->Update();
    vtkImageData* img = reader->GetOutput();
    vtkDataArray* data = img ? img->GetCellData()->GetArray(name.c_str()) : nullptr;
    if (!vtk.first_error().empty() || !data)
      fail(path, key, "a readable cell array " + name + "; VTK: " +
                          (vtk.first_error().empty() ? std::string("the array did not load")
                                                     : vtk_reason(vtk.first_error())));
    if (data->GetNumberOfTuples() != cells || data->GetNumberOfComponents() != 3)
      fail(path, key, "cell array " + name + " of " + std::to_string(cells) +
                          " tuples of 3 components, found " +
                          std::to_string(data->GetNumberOfTuples()) + " of " +
                          std::to_string(data->GetNumberOfComponents()));
    float* out = modes.data() + static_cast<std::size_t>(k) * 3 * padded;
    if (auto* f32 = vtkFloatArray::SafeDownCast(data))
      copy_mode(f32->GetPointer(0), n, layout, out, path, key, name);
    else if (auto* f64 = vtkDoubleArray::SafeDownCast(data))
      copy_mode(f64->GetPointer(0), n, layout, out, path, key, name);
    else
      fail(path, key, "cell array " + name + " of Float32 or Float64, found " +
                          data->GetDataTypeAsString());
  }
  return info.nmodes;
}

#else  // no VTK in this build

namespace {
const char* kNoVtk =
    "modes files need VTK to be read; this build has none (configured with -DCLFDTD_VTK=OFF)";
}

bool mode_files_readable() { return false; }

ModeFileInfo read_mode_file_info(const std::string& path, const std::string& key) {
  fail(path, key, kNoVtk);
}

int read_mode_file(const std::string& path, const std::string& key, const FieldLayout&,
                   const std::array<double, 3>&, std::vector<float>&) {
  fail(path, key, kNoVtk);
}

#endif

}  // namespace clfdtd
