// Mesh files: the triangle surfaces of object.*.shape = mesh (docs/MODEL_KEYS.md), read with VTK:
// STL (binary or ASCII) and Wavefront OBJ, told apart by the file's extension. (Not PLY: VTK
// 9.1's PLY reader crashes on a file cut short.) Polygons with
// more corners are split into triangles around their first corner; points, lines and anything
// else the file holds are ignored. STL repeats each corner in every triangle: the reader merges
// corners with equal coordinates, so that shared edges are found (open_edges()).
// A build without VTK (CLFDTD_VTK=OFF) cannot read them: mesh_files_readable() is false and
// read_mesh_file throws.
#pragma once
#include <stdexcept>
#include <string>

#include "geometry/triangle_solid.hpp"

namespace clfdtd {

// Why a mesh file could not be read, in words a user can act on (no file, not a mesh of that
// format, no triangles, a coordinate that is not finite).
class MeshFileError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

bool mesh_files_readable();

// The file's triangles in its own units (no scaling).
TriangleMesh read_mesh_file(const std::string& path);

}  // namespace clfdtd
