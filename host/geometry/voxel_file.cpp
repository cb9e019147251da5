// Voxel files (voxel_file.hpp): VTK's XML image reader parses them; this file checks the header
// and the labels and copies them out.
#include "geometry/voxel_file.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "geometry/input_file.hpp"

#ifdef CLFDTD_HAVE_VTK
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkDataArraySelection.h>
#include <vtkDataObject.h>
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
  std::size_t voxels = 1;
  for (int a = 0; a < 3; ++a) {
    g.cells[a] = extent[2 * a + 1] - extent[2 * a];
    if (g.cells[a] < 1)
      throw VoxelFileError("at least one voxel (cell) along each axis; its extent along " +
                           std::string(1, "xyz"[a]) + " is " + std::to_string(extent[2 * a]) +
                           " .. " + std::to_string(extent[2 * a + 1]));
    if (!(spacing[a] > 0) || !std::isfinite(spacing[a]) || !std::isfinite(origin[a]))
      throw VoxelFileError("a finite origin and a positive spacing along each axis");
    g.spacing[a] = spacing[a];
    g.origin[a] = origin[a] + extent[2 * a] * spacing[a];  // the extent may start past 0
    voxels *= static_cast<std::size_t>(g.cells[a]);
  }
  if (voxels > max_voxels)
    throw VoxelFileError("at most " + std::to_string(max_voxels) + " voxels; it has " +
                         std::to_string(g.cells[0]) + " x " + std::to_string(g.cells[1]) + " x " +
                         std::to_string(g.cells[2]) + " = " + std::to_string(voxels));
  std::string name;
  if (vtkInformationVector* arrays = info->Get(vtkDataObject::CELL_DATA_VECTOR()))
    for (int i = 0; i < arrays->GetNumberOfInformationObjects() && name.empty(); ++i) {
      vtkInformation* a = arrays->GetInformationObject(i);
      if (a->Has(vtkDataObject::FIELD_NAME()) && a->Get(vtkDataObject::FIELD_NUMBER_OF_COMPONENTS()) == 1)
        name = a->Get(vtkDataObject::FIELD_NAME());
    }
  if (name.empty())
    throw VoxelFileError("a cell array of one component (the voxels' labels); it has none (a point "
                         "array is not read: the labels belong to the cells)");
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
    if (!(x == std::round(x)) || std::fabs(x) > std::numeric_limits<std::int32_t>::max()) {
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
