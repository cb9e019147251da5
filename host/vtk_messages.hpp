// VTK's messages captured while a reader runs (modes files, mesh files): VTK would print them as
// multi-line dumps on stderr; the readers turn the first error into their own message instead.
// Only for builds with VTK (CLFDTD_HAVE_VTK).
#pragma once
#include <string>

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
  }
  ~CapturedVtkMessages() {
    vtkOutputWindow::SetInstance(previous_);
    vtkObject::SetGlobalWarningDisplay(display_);
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
  return m;
}

}  // namespace clfdtd
