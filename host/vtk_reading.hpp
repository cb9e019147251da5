// What the readers that parse files with VTK (modes, mesh and voxel files) share: VTK's messages
// captured while a reader runs (VTK would print them as multi-line dumps on stderr; the readers
// turn the first error into their own message instead), and the check that an XML file is whole.
// Only for builds with VTK (CLFDTD_HAVE_VTK).
#pragma once
#include <algorithm>
#include <fstream>
#include <string>

#include <vtkLogger.h>
#include <vtkOutputWindow.h>
#include <vtkSmartPointer.h>

namespace clfdtd {

// While alive, VTK's messages (which it would print as multi-line dumps on stderr) go to
// `first_error` instead; the previous output window and warning switch come back afterwards.
class CapturedVtkMessages {
public:
  CapturedVtkMessages() : previous_(vtkOutputWindow::GetInstance()),
                          display_(vtkObject::GetGlobalWarningDisplay()) {
    window_ = vtkSmartPointer<Window>::New();
    vtkOutputWindow::SetInstance(window_);
    vtkObject::GlobalWarningDisplayOn();  // off, VTK would not report errors at all
    // Some readers also log through vtkLogger, straight to stderr.
    vtkLogger::SetStderrVerbosity(vtkLogger::VERBOSITY_OFF);
  }
  ~CapturedVtkMessages() {
    vtkOutputWindow::SetInstance(previous_);
    vtkObject::SetGlobalWarningDisplay(display_);
    vtkLogger::SetStderrVerbosity(vtkLogger::VERBOSITY_WARNING);
  }
  CapturedVtkMessages(const CapturedVtkMessages&) = delete;
  CapturedVtkMessages& operator=(const CapturedVtkMessages&) = delete;
  const std::string& first_error() const { return window_->first_error; }

private:
  class Window : public vtkOutputWindow {
  public:
    static Window* New() { return new Window; }
    void DisplayText(const char*) override {}
    void DisplayErrorText(const char* text) override {
      if (first_error.empty() && text) first_error = text;
    }
    void DisplayWarningText(const char*) override {}
    void DisplayGenericWarningText(const char*) override {}
    void DisplayDebugText(const char*) override {}
    std::string first_error;
  };
  vtkSmartPointer<vtkOutputWindow> previous_;
  int display_;
  vtkSmartPointer<Window> window_;
};

// VTK's messages name the source line and class first ("ERROR: In ...cxx, line 123\nvtkX (0x..):
// text"); the text after the class is the part a user can act on.
inline std::string vtk_reason(const std::string& message) {
  std::string m = message;
  const auto colon = m.find("): ");
  if (colon != std::string::npos) m = m.substr(colon + 3);
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  for (char& c : m)
    if (c == '\n') c = ' ';
  if (m.size() > 200) m = m.substr(0, 200) + "...";  // some quote the file's line, of any length
  return m;
}

// VTK fills a raw array cut short by the end of the file with whatever memory held, without an
// error; a VTK XML file that is whole ends with its closing tag.
inline bool vtk_xml_complete(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  const std::streamoff size = in ? static_cast<std::streamoff>(in.tellg()) : 0;
  const std::streamoff tail = std::min<std::streamoff>(size, 256);
  std::string end(static_cast<std::size_t>(tail), '\0');
  in.seekg(size - tail);
  in.read(&end[0], tail);
  const auto last = end.find_last_not_of(" \t\r\n");
  return in && last != std::string::npos && last >= 9 && end.compare(last - 9, 10, "</VTKFile>") == 0;
}

}  // namespace clfdtd
