// Mesh files (mesh_file.hpp): VTK's readers parse them; this file checks what they found and
// hands over points and triangles.
#include "geometry/mesh_file.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "geometry/input_file.hpp"

#ifdef CLFDTD_HAVE_VTK
#include <vtkCellArray.h>
#include <vtkIdList.h>
#include <vtkOBJReader.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataAlgorithm.h>
#include <vtkSTLReader.h>
#include <vtkSmartPointer.h>

#include "vtk_reading.hpp"
#endif

namespace clfdtd {

namespace {

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

void check_readable(const std::string& path) {
  const std::string why = unreadable_reason(path);
  if (!why.empty()) throw MeshFileError(why);
}

// VTK reads a binary STL cut short without a word (its last triangles are simply missing, and
// the surface shows holes). A binary STL is 84 + 50 N bytes for the N triangles its header
// counts; a file of another size is ASCII, which starts with "solid".
[[maybe_unused]] void check_stl_size(const std::string& path) {  // used with VTK only
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  const auto size = static_cast<unsigned long long>(f.tellg());
  f.seekg(0);
  char head[84] = {};
  f.read(head, sizeof head);
  if (size >= 84) {
    const unsigned char* c = reinterpret_cast<const unsigned char*>(head + 80);
    const unsigned long long count = c[0] | (c[1] << 8) | (c[2] << 16) | (static_cast<unsigned long long>(c[3]) << 24);
    if (size == 84 + 50 * count) return;
    if (std::string(head, 5) != "solid")
      throw MeshFileError("a binary STL of 84 + 50 x " + std::to_string(count) + " = " +
                          std::to_string(84 + 50 * count) + " bytes for the " +
                          std::to_string(count) + " triangles its header counts; it has " +
                          std::to_string(size) + " bytes (cut short?)");
  } else if (std::string(head, std::min<std::size_t>(5, static_cast<std::size_t>(size))) != "solid") {
    throw MeshFileError("an STL file; it is " + std::to_string(size) + " bytes, shorter than a binary STL's header");
  }
}

}  // namespace

#ifdef CLFDTD_HAVE_VTK

bool mesh_files_readable() { return true; }

TriangleMesh read_mesh_file(const std::string& path) {
  check_readable(path);
  const std::string ext = lower_extension(path);
  CapturedVtkMessages vtk;
  vtkSmartPointer<vtkPolyDataAlgorithm> reader;
  if (ext == ".stl") {
    check_stl_size(path);
    auto stl = vtkSmartPointer<vtkSTLReader>::New();
    stl->SetFileName(path.c_str());
    stl->MergingOn();
    reader = stl;
  } else if (ext == ".obj") {
    auto obj = vtkSmartPointer<vtkOBJReader>::New();
    obj->SetFileName(path.c_str());
    reader = obj;
  } else {
    throw MeshFileError("a mesh file named .stl or .obj (its extension says the format); got '" +
                        ext + "'");
  }
  reader->Update();
  vtkPolyData* data = reader->GetOutput();
  const vtkIdType polys = data ? data->GetNumberOfPolys() : 0;
  if (!vtk.first_error().empty() && polys == 0)
    throw MeshFileError("VTK could not read it as " + ext.substr(1) + ": " + vtk_reason(vtk.first_error()));
  if (polys == 0)
    throw MeshFileError("no triangles or polygons found in it (is it empty, or not " +
                        std::string(ext == ".stl" ? "an STL" : "a Wavefront OBJ") + " file?)");
  TriangleMesh mesh;
  vtkPoints* pts = data->GetPoints();
  mesh.points.resize(static_cast<std::size_t>(pts->GetNumberOfPoints()));
  for (vtkIdType i = 0; i < pts->GetNumberOfPoints(); ++i) {
    double p[3];
    pts->GetPoint(i, p);
    if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2]))
      throw MeshFileError("corners with finite coordinates; one reads (" + std::to_string(p[0]) +
                          ", " + std::to_string(p[1]) + ", " + std::to_string(p[2]) +
                          ") (a damaged file, or not " +
                          std::string(ext == ".stl" ? "an STL" : "an OBJ") + " file?)");
    mesh.points[static_cast<std::size_t>(i)] = {p[0], p[1], p[2]};
  }
  vtkCellArray* cells = data->GetPolys();
  auto ids = vtkSmartPointer<vtkIdList>::New();
  cells->InitTraversal();
  while (cells->GetNextCell(ids)) {
    const vtkIdType n = ids->GetNumberOfIds();
    for (vtkIdType k = 1; k + 1 < n; ++k)
      mesh.triangles.push_back({static_cast<int>(ids->GetId(0)), static_cast<int>(ids->GetId(k)),
                                static_cast<int>(ids->GetId(k + 1))});
  }
  if (mesh.triangles.empty()) throw MeshFileError("no triangles found in it (only degenerate polygons)");
  // Corners with equal coordinates are one corner: an OBJ face that indexes normals or texture
  // coordinates apart from its corners comes out of VTK with a copy of each corner per face.
  std::map<Point3, int> first;
  std::vector<int> merged(mesh.points.size());
  for (std::size_t i = 0; i < mesh.points.size(); ++i)
    merged[i] = first.emplace(mesh.points[i], static_cast<int>(i)).first->second;
  for (auto& t : mesh.triangles)
    for (int& c : t) c = merged[static_cast<std::size_t>(c)];
  return mesh;
}

#else  // no VTK in this build

bool mesh_files_readable() { return false; }

TriangleMesh read_mesh_file(const std::string& path) {
  check_readable(path);
  (void)lower_extension;
  throw MeshFileError("mesh files need VTK to be read; this build has none (configured with -DCLFDTD_VTK=OFF)");
}

#endif

}  // namespace clfdtd
