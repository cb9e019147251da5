// Voxel files: the labelled blocks of object.*.shape = voxels (docs/MODEL_KEYS.md), VTK XML image
// data (.vti) read with VTK: its extent, origin and spacing place the voxels, and the cell array
// it names as its Scalars, else its first one-component cell array, holds each voxel's label (any
// integer type, or floats holding whole numbers, within Int32; numpy + tools/voxels_to_vti.py
// write such a file). Point arrays are not read.
// A build without VTK (CLFDTD_VTK=OFF) cannot read them: voxel_files_readable() is false and
// read_voxel_file throws.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>

#include "geometry/voxel_solid.hpp"

namespace clfdtd {

class VoxelFileError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

bool voxel_files_readable();

// The file's voxels in its own units (origin and spacing unscaled). Refuses, before reading the
// array, a block of more than max_voxels voxels.
VoxelGrid read_voxel_file(const std::string& path, std::size_t max_voxels);

}  // namespace clfdtd
