// vtk_xml: see vtk_xml.hpp.
#include "output/vtk_xml.hpp"

#ifdef CLFDTD_HAVE_VTK
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <vtkDoubleArray.h>
#include <vtkErrorCode.h>
#include <vtkStringArray.h>

#include "errors.hpp"

namespace clfdtd::vtk_xml {
namespace {

// VTK's error codes below FirstVTKErrorCode are errno values (a failed open); above it, its own.
std::string vtk_error_reason(unsigned long code) {
  if (code > 0 && code < vtkErrorCode::FirstVTKErrorCode) return std::strerror(static_cast<int>(code));
  switch (code) {
    case vtkErrorCode::OutOfDiskSpaceError: return std::strerror(ENOSPC);
    case vtkErrorCode::CannotOpenFileError: return "the file cannot be opened";
    default: return "VTK error code " + std::to_string(code);
  }
}

}  // namespace

vtkSmartPointer<vtkFloatArray> float_array(const char* name, int comps, std::size_t tuples) {
  auto a = vtkSmartPointer<vtkFloatArray>::New();
  a->SetName(name);
  a->SetNumberOfComponents(comps);
  a->SetNumberOfTuples(static_cast<vtkIdType>(tuples));
  return a;
}

void add_field_double(vtkFieldData* fd, const char* name, double value) {
  auto a = vtkSmartPointer<vtkDoubleArray>::New();
  a->SetName(name);
  a->InsertNextValue(value);
  fd->AddArray(a);
}

void add_field_string(vtkFieldData* fd, const char* name, const std::string& value) {
  auto a = vtkSmartPointer<vtkStringArray>::New();
  a->SetName(name);
  a->InsertNextValue(value);
  fd->AddArray(a);
}

void write(const std::string& path, vtkXMLWriter* w, vtkDataObject* data) {
  // VTK prints each failure as a multi-line pipeline dump on stderr; the error code below says all
  // a user needs, in one line.
  vtkObject::GlobalWarningDisplayOff();
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent))
    throw OutputError("write", path, "folder '" + parent.string() + "' does not exist");
  w->SetFileName(path.c_str());
  w->SetInputData(data);
  w->SetDataModeToAppended();  // raw binary after the XML header: fast to write and to load
  w->EncodeAppendedDataOff();
  w->SetCompressorTypeToNone();
  w->SetHeaderTypeToUInt64();  // arrays over 4 GiB stay valid
  errno = 0;
  if (w->Write() != 1 || w->GetErrorCode() != 0) {
    const unsigned long code = w->GetErrorCode();
    // A failed write sets only OutOfDiskSpaceError; errno still tells which (EFBIG, EIO, ...).
    if (code == vtkErrorCode::OutOfDiskSpaceError && errno != 0 && errno != ENOSPC)
      throw OutputError::from_errno("write", path, errno);
    throw OutputError("write", path, vtk_error_reason(code));
  }
}

}  // namespace clfdtd::vtk_xml
#endif
