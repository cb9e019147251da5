// What the VTK XML writers of host/output share (VTK builds only): named float arrays, one-value
// field data, and writing a dataset to an XML file (appended raw binary, 64-bit headers) with a
// one-line OutputError naming the path and the reason when the write fails.
#pragma once
#ifdef CLFDTD_HAVE_VTK
#include <cstddef>
#include <string>

#include <vtkDataObject.h>
#include <vtkFieldData.h>
#include <vtkFloatArray.h>
#include <vtkSmartPointer.h>
#include <vtkXMLWriter.h>

namespace clfdtd::vtk_xml {

// A float array of `tuples` tuples of `comps` components, allocated, values unset.
vtkSmartPointer<vtkFloatArray> float_array(const char* name, int comps, std::size_t tuples);
void add_field_double(vtkFieldData* fd, const char* name, double value);
void add_field_string(vtkFieldData* fd, const char* name, const std::string& value);

// Writes `data` through `writer` (any vtkXMLWriter) to `path`. Throws OutputError when the folder
// is missing or the write fails (the reason from errno or VTK's error code).
void write(const std::string& path, vtkXMLWriter* writer, vtkDataObject* data);

}  // namespace clfdtd::vtk_xml
#endif
