// Writes small .vti voxel files for the tests (ASCII data, as any VTK XML writer may).
#pragma once
#include <array>
#include <fstream>
#include <string>
#include <vector>

namespace clfdtd::test {

// labels[i + nx (j + ny k)] (x fastest); `type` a VTK type name (Int32, UInt8, Float64, ...);
// `extent0` the first index of the extent along each axis.
inline void write_voxel_vti(const std::string& path, const std::array<int, 3>& n,
                            const std::array<double, 3>& origin, const std::array<double, 3>& spacing,
                            const std::vector<double>& labels, const std::string& type = "Int32",
                            const std::array<int, 3>& extent0 = {0, 0, 0}, bool close = true) {
  std::ofstream f(path);
  f.precision(17);
  std::string extent;
  for (int a = 0; a < 3; ++a)
    extent += std::to_string(extent0[a]) + " " + std::to_string(extent0[a] + n[a]) + (a < 2 ? " " : "");
  f << "<?xml version=\"1.0\"?>\n<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
    << "<ImageData WholeExtent=\"" << extent << "\" Origin=\"" << origin[0] << " " << origin[1] << " "
    << origin[2] << "\" Spacing=\"" << spacing[0] << " " << spacing[1] << " " << spacing[2] << "\">\n"
    << "<Piece Extent=\"" << extent << "\">\n<CellData>\n<DataArray type=\"" << type
    << "\" Name=\"labels\" format=\"ascii\">\n";
  for (double v : labels) f << v << " ";
  f << "\n</DataArray>\n</CellData>\n</Piece>\n</ImageData>\n";
  if (close) f << "</VTKFile>\n";
}

}  // namespace clfdtd::test
