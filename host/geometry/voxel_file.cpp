// Voxel files (voxel_file.hpp): VTK's XML image reader parses them; this file checks the header
// and the labels and copies them out.
#include "geometry/voxel_file.hpp"

#include <cerrno>
#include <cmath>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

#include "geometry/input_file.hpp"

#ifdef CLFDTD_HAVE_VTK
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkDataArraySelection.h>
#include <vtkDataObject.h>
#include <vtkDataSetAttributes.h>
#include <vtkImageData.h>
#include <vtkInformation.h>
#include <vtkInformationVector.h>
#include <vtkSmartPointer.h>
#include <vtkStreamingDemandDrivenPipeline.h>
#include <vtkXMLImageDataReader.h>

#include "vtk_reading.hpp"
#endif

namespace clfdtd {

namespace {

void check_readable(const std::string& path) {
  const std::string why = unreadable_reason(path);
  if (!why.empty()) throw VoxelFileError(why);
}

}  // namespace

#ifdef CLFDTD_HAVE_VTK

// An inline array (ascii or base64, uncompressed) with fewer values than the voxels crashes VTK
// 9.1's reader: the one to be read is counted first.
void check_inline_size(const std::string& text, const std::string& name, std::size_t voxels) {
  const auto tag = text.find("Name=\"" + name + "\"");
  if (tag == std::string::npos || text.find("compressor=") != std::string::npos) return;
  const auto open = text.rfind("<DataArray", tag);
  const auto body = text.find('>', tag);
  if (open == std::string::npos || body == std::string::npos || text[body - 1] == '/') return;
  const auto close = text.find("</DataArray>", body);
  if (close == std::string::npos) return;
  const std::string element = text.substr(open, body - open);
  const std::string data = text.substr(body + 1, close - body - 1);
  std::size_t values = 0;
  if (element.find("format=\"ascii\"") != std::string::npos) {
    std::istringstream in(data);
    std::string token;
    while (in >> token) ++values;
  } else if (element.find("format=\"binary\"") != std::string::npos) {
    std::size_t chars = 0, pad = 0;
    for (char c : data)
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/') ++chars;
      else if (c == '=') ++pad;
    const std::size_t head = text.find("header_type=\"UInt64\"") != std::string::npos ? 8 : 4;
    const std::size_t bytes = (chars + pad) / 4 * 3 - pad;
    const auto type = element.find("type=\"");
    const std::string t = type == std::string::npos ? "" : element.substr(type + 6, 7);
    const std::size_t size = t.rfind("Int8", 0) == 0 || t.rfind("UInt8", 0) == 0 ? 1
                             : t.find("16") != std::string::npos ? 2
                             : t.find("64") != std::string::npos ? 8 : 4;
    values = bytes > head ? (bytes - head) / size : 0;
  } else {
    return;
  }
  if (values < voxels)
    throw VoxelFileError("cell array '" + name + "' of " + std::to_string(voxels) +
                         " values (one a voxel); it holds " + std::to_string(values));
}

// VTK 9.1 reads an uncompressed raw appended array shorter than its own byte count without an
// error (the rest of the voxels are whatever memory held): each such array's count must fit in
// the file.
void check_appended_sizes(const std::string& text) {
  const auto data = text.find("<AppendedData");
  if (data == std::string::npos || text.find("encoding=\"raw\"", data) == std::string::npos ||
      text.find("compressor=") != std::string::npos)
    return;
  const auto start = text.find('_', data);
  const auto end = text.rfind("</AppendedData>");
  if (start == std::string::npos || end == std::string::npos || end < start) return;
  const bool wide = text.find("header_type=\"UInt64\"") < data;
  const std::size_t head = wide ? 8 : 4;
  for (auto at = text.find("offset=\"", 0); at != std::string::npos && at < data;
       at = text.find("offset=\"", at + 1)) {
    const std::size_t off = std::strtoull(text.c_str() + at + 8, nullptr, 10);
    const std::size_t pos = start + 1 + off;
    if (pos + head > end) throw VoxelFileError("an appended array that starts inside the file (cut short?)");
    unsigned long long bytes = 0;
    for (std::size_t b = 0; b < head; ++b)
      bytes |= static_cast<unsigned long long>(static_cast<unsigned char>(text[pos + b])) << (8 * b);
    if (pos + head + bytes > end)
      throw VoxelFileError("an appended array of " + std::to_string(bytes) + " bytes that the file "
                           "holds; it ends " + std::to_string(pos + head + bytes - end) +
                           " bytes short (cut short, and closed again?)");
  }
}

// nx x ny x nz in words, exact up to 1e18.
std::string total_text(const std::array<int, 3>& n) {
  const double total = static_cast<double>(n[0]) * n[1] * n[2];
  if (total < 1e18) return std::to_string(static_cast<unsigned long long>(n[0]) * n[1] * n[2]);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", total);
  return buf;
}

bool voxel_files_readable() { return true; }

VoxelGrid read_voxel_file(const std::string& path, std::size_t max_voxels) {
  check_readable(path);
  CapturedVtkMessages vtk;
  auto reader = vtkSmartPointer<vtkXMLImageDataReader>::New();
  if (!reader->CanReadFile(path.c_str()))
    throw VoxelFileError("VTK XML image data (.vti, <VTKFile type=\"ImageData\">); this file is not one");
  if (!vtk_xml_complete(path))
    throw VoxelFileError("a complete .vti file, ending in </VTKFile>; this one does not (cut short?)");
  reader->SetFileName(path.c_str());
  reader->UpdateInformation();
  if (!vtk.first_error().empty()) throw VoxelFileError("VTK: " + vtk_reason(vtk.first_error()));
  vtkInformation* info = reader->GetOutputInformation(0);
  int extent[6] = {0, -1, 0, -1, 0, -1};
  info->Get(vtkStreamingDemandDrivenPipeline::WHOLE_EXTENT(), extent);
  VoxelGrid g;
  double origin[3] = {0, 0, 0}, spacing[3] = {1, 1, 1};
  if (info->Has(vtkDataObject::ORIGIN())) info->Get(vtkDataObject::ORIGIN(), origin);
  if (info->Has(vtkDataObject::SPACING())) info->Get(vtkDataObject::SPACING(), spacing);
  if (info->Has(vtkDataObject::DIRECTION())) {
    double dir[9];
    info->Get(vtkDataObject::DIRECTION(), dir);
    for (int i = 0; i < 9; ++i)
      if (dir[i] != (i % 4 == 0 ? 1.0 : 0.0))
        throw VoxelFileError("an image along the x, y and z axes (Direction the identity); this one "
                             "is turned or mirrored");
  }
  std::size_t voxels = 1;
  for (int a = 0; a < 3; ++a) {
    const long long cells = static_cast<long long>(extent[2 * a + 1]) - extent[2 * a];
    if (cells < 1 || cells > static_cast<long long>(max_voxels))
      throw VoxelFileError("at least one and at most " + std::to_string(max_voxels) +
                           " voxels (cells) along each axis; its extent along " +
                           std::string(1, "xyz"[a]) + " is " + std::to_string(extent[2 * a]) +
                           " .. " + std::to_string(extent[2 * a + 1]));
    g.cells[a] = static_cast<int>(cells);
    if (!(spacing[a] > 0) || !std::isfinite(spacing[a]) || !std::isfinite(origin[a]))
      throw VoxelFileError("a finite origin and a positive spacing along each axis");
    g.spacing[a] = spacing[a];
    g.origin[a] = origin[a] + extent[2 * a] * spacing[a];  // the extent may start past 0
    // Checked before each product: the count cannot wrap.
    if (voxels > max_voxels / static_cast<std::size_t>(g.cells[a])) voxels = max_voxels + 1;
    else voxels *= static_cast<std::size_t>(g.cells[a]);
  }
  if (voxels > max_voxels)
    throw VoxelFileError("at most " + std::to_string(max_voxels) + " voxels; it has " +
                         std::to_string(g.cells[0]) + " x " + std::to_string(g.cells[1]) + " x " +
                         std::to_string(g.cells[2]) + " = " + total_text(g.cells));
  // The cell scalars where the file names them (CellData Scalars="..."), else the first array of
  // one component.
  std::string name, scalars;
  if (vtkInformationVector* arrays = info->Get(vtkDataObject::CELL_DATA_VECTOR()))
    for (int i = 0; i < arrays->GetNumberOfInformationObjects(); ++i) {
      vtkInformation* a = arrays->GetInformationObject(i);
      if (!a->Has(vtkDataObject::FIELD_NAME()) || a->Get(vtkDataObject::FIELD_NUMBER_OF_COMPONENTS()) != 1)
        continue;
      if (name.empty()) name = a->Get(vtkDataObject::FIELD_NAME());
      if (scalars.empty() && a->Has(vtkDataObject::FIELD_ATTRIBUTE_TYPE()) &&
          a->Get(vtkDataObject::FIELD_ATTRIBUTE_TYPE()) == vtkDataSetAttributes::SCALARS)
        scalars = a->Get(vtkDataObject::FIELD_NAME());
    }
  if (!scalars.empty()) name = scalars;
  if (name.empty())
    throw VoxelFileError("a cell array of one component (the voxels' labels); it has none (a point "
                         "array is not read: the labels belong to the cells)");
  {
    std::ifstream f(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    check_appended_sizes(text);
    check_inline_size(text, name, voxels);
  }
  reader->GetPointDataArraySelection()->DisableAllArrays();
  reader->GetCellDataArraySelection()->DisableAllArrays();
  reader->GetCellDataArraySelection()->EnableArray(name.c_str());
  reader->Update();
  vtkImageData* img = reader->GetOutput();
  vtkDataArray* data = img ? img->GetCellData()->GetArray(name.c_str()) : nullptr;
  if (!vtk.first_error().empty() || !data)
    throw VoxelFileError("a readable cell array '" + name + "'; VTK: " +
                         (vtk.first_error().empty() ? std::string("the array did not load")
                                                    : vtk_reason(vtk.first_error())));
  if (static_cast<std::size_t>(data->GetNumberOfTuples()) != voxels)
    throw VoxelFileError("cell array '" + name + "' of " + std::to_string(voxels) + " values, found " +
                         std::to_string(data->GetNumberOfTuples()));
  g.labels.resize(voxels);
  for (std::size_t v = 0; v < voxels; ++v) {
    const double x = data->GetTuple1(static_cast<vtkIdType>(v));
    if (!(x == std::round(x)) || x > std::numeric_limits<std::int32_t>::max() ||
        x < std::numeric_limits<std::int32_t>::min()) {
      const std::size_t i = v % g.cells[0], j = v / g.cells[0] % g.cells[1], k = v / g.cells[0] / g.cells[1];
      throw VoxelFileError("whole-number labels in cell array '" + name + "'; voxel (" +
                           std::to_string(i) + ", " + std::to_string(j) + ", " + std::to_string(k) +
                           ") holds " + std::to_string(x));
    }
    g.labels[v] = static_cast<std::int32_t>(x);
  }
  return g;
}

#else  // no VTK in this build

bool voxel_files_readable() { return false; }

VoxelGrid read_voxel_file(const std::string& path, std::size_t) {
  check_readable(path);
  throw VoxelFileError("voxel files need VTK to be read; this build has none (configured with -DCLFDTD_VTK=OFF)");
}

#endif

}  // namespace clfdtd
