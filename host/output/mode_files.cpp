// clfdtd modes' files (mode_files.hpp).
#include "output/mode_files.hpp"

#include <array>
#include <cstdio>
#include <stdexcept>

#ifdef CLFDTD_HAVE_VTK
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkImageData.h>
#include <vtkSmartPointer.h>
#include <vtkXMLImageDataWriter.h>

#include "output/vtk_xml.hpp"
#endif

namespace clfdtd {

std::string modes_csv_text(const std::vector<GuidedMode>& modes, double f_hz) {
  std::string text = "mode,frequency_hz,n_eff,beta_rad_per_m,beta_grid_rad_per_m,u_fraction,degenerate,residual\n";
  char line[256];
  for (std::size_t k = 0; k < modes.size(); ++k) {
    const GuidedMode& m = modes[k];
    std::snprintf(line, sizeof line, "%zu,%.10g,%.10g,%.10g,%.10g,%.6f,%d,%.2e\n", k + 1, f_hz,
                  m.n_eff, m.beta, m.beta_grid, m.u_fraction, m.degenerate, m.residual);
    text += line;
  }
  return text;
}

#ifdef CLFDTD_HAVE_VTK

namespace {

// One mode's E (or H) moved to the cell centres (i + 1/2, j + 1/2) of the plane, as
// (u, v, axis) components.
std::vector<std::array<double, 3>> centred(const CrossSection& cs, const GuidedMode& m, bool h) {
  const int nu = cs.nu, nv = cs.nv;
  std::vector<std::array<double, 3>> out(cs.cells());
  auto at_u = [&](const std::vector<double>& a, int i, int j) { return a[i + static_cast<std::size_t>(nu) * j]; };
  auto at_v = [&](const std::vector<double>& a, int i, int j) { return a[i + static_cast<std::size_t>(nu + 1) * j]; };
  for (int j = 0; j < nv; ++j)
    for (int i = 0; i < nu; ++i) {
      std::array<double, 3>& c = out[i + static_cast<std::size_t>(nu) * j];
      if (!h) {
        c[0] = 0.5 * (at_u(m.eu, i, j) + at_u(m.eu, i, j + 1));
        c[1] = 0.5 * (at_v(m.ev, i, j) + at_v(m.ev, i + 1, j));
        c[2] = 0.25 * (at_v(m.ew, i, j) + at_v(m.ew, i + 1, j) + at_v(m.ew, i, j + 1) +
                       at_v(m.ew, i + 1, j + 1));
      } else {
        c[0] = 0.5 * (at_v(m.hu, i, j) + at_v(m.hu, i + 1, j));
        c[1] = 0.5 * (at_u(m.hv, i, j) + at_u(m.hv, i, j + 1));
        c[2] = at_u(m.hw, i, j);
      }
    }
  return out;
}

}  // namespace

void write_modes_vti(const std::string& path, const GridGeometry& g, const ModeWindow& w,
                     const CrossSection& cs, const std::vector<GuidedMode>& modes, double f_hz) {
  const int a = w.axis, u = w.u(), v = w.v();
  std::array<int, 3> n{};
  n[a] = 1;
  n[u] = cs.nu;
  n[v] = cs.nv;
  auto img = vtkSmartPointer<vtkImageData>::New();
  img->SetDimensions(n[0] + 1, n[1] + 1, n[2] + 1);
  img->SetSpacing(g.d[0], g.d[1], g.d[2]);
  std::array<double, 3> origin{};
  origin[a] = w.plane * g.d[a];
  origin[u] = w.lo[0] * g.d[u];
  origin[v] = w.lo[1] * g.d[v];
  img->SetOrigin(origin[0], origin[1], origin[2]);
  // VTK's cell order is x fastest; window cell (i, j) lies at u = i, v = j.
  auto vtk_index = [&](int i, int j) {
    std::array<int, 3> c{};
    c[u] = i;
    c[v] = j;
    return static_cast<std::size_t>(c[0]) +
           static_cast<std::size_t>(n[0]) * (static_cast<std::size_t>(c[1]) + static_cast<std::size_t>(n[1]) * c[2]);
  };
  const std::size_t cells = cs.cells();
  auto eps = vtk_xml::float_array("eps_r", 1, cells);
  for (int j = 0; j < cs.nv; ++j)
    for (int i = 0; i < cs.nu; ++i)
      eps->SetValue(static_cast<vtkIdType>(vtk_index(i, j)),
                    static_cast<float>(0.25 * (cs.eps_u[i + static_cast<std::size_t>(cs.nu) * j] +
                                               cs.eps_u[i + static_cast<std::size_t>(cs.nu) * (j + 1)] +
                                               cs.eps_v[i + static_cast<std::size_t>(cs.nu + 1) * j] +
                                               cs.eps_v[i + 1 + static_cast<std::size_t>(cs.nu + 1) * j])));
  img->GetCellData()->AddArray(eps);
  auto neff = vtkSmartPointer<vtkDoubleArray>::New();
  neff->SetName("n_eff");
  for (std::size_t k = 0; k < modes.size(); ++k) {
    neff->InsertNextValue(modes[k].n_eff);
    const std::string tag = std::to_string(k + 1);
    for (const bool h : {false, true}) {
      const auto c = centred(cs, modes[k], h);
      auto vec = vtk_xml::float_array(((h ? "H_" : "E_") + tag).c_str(), 3, cells);
      auto intensity = vtk_xml::float_array(("E_intensity_" + tag).c_str(), 1, cells);
      for (int j = 0; j < cs.nv; ++j)
        for (int i = 0; i < cs.nu; ++i) {
          const std::array<double, 3>& x = c[i + static_cast<std::size_t>(cs.nu) * j];
          std::array<float, 3> global{};
          global[u] = static_cast<float>(x[0]);
          global[v] = static_cast<float>(x[1]);
          global[a] = static_cast<float>(x[2]);
          const vtkIdType o = static_cast<vtkIdType>(vtk_index(i, j));
          vec->SetTypedTuple(o, global.data());
          if (!h) intensity->SetValue(o, static_cast<float>(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]));
        }
      img->GetCellData()->AddArray(vec);
      if (!h) img->GetCellData()->AddArray(intensity);
    }
    // The transverse samples themselves, each at its Yee position in its cell as a dft monitor's
    // .vti stores them: a run's transform projects on these exactly (docs/MODES.md).
    const char* names = "xyz";
    const GuidedMode& m = modes[k];
    auto raw = [&](const std::string& name, const std::vector<double>& a, int row) {
      auto arr = vtk_xml::float_array((name + "_" + tag).c_str(), 1, cells);
      for (int j = 0; j < cs.nv; ++j)
        for (int i = 0; i < cs.nu; ++i)
          arr->SetValue(static_cast<vtkIdType>(vtk_index(i, j)),
                        static_cast<float>(a[i + static_cast<std::size_t>(row) * j]));
      img->GetCellData()->AddArray(arr);
    };
    raw(std::string("E") + names[u], m.eu, cs.nu);
    raw(std::string("E") + names[v], m.ev, cs.nu + 1);
    raw(std::string("H") + names[u], m.hu, cs.nu + 1);
    raw(std::string("H") + names[v], m.hv, cs.nu);
  }
  vtkFieldData* fd = img->GetFieldData();
  fd->AddArray(neff);
  vtk_xml::add_field_double(fd, "frequency_hz", f_hz);
  vtk_xml::add_field_double(fd, "axis", a);
  vtk_xml::add_field_string(fd, "note",
                            "modes carrying 1 W along +axis; E in V/m, H in A/m at the cell centres "
                            "of the node plane; the axis component holds Im E_w (Im H_w): E_w = j x");
  auto writer = vtkSmartPointer<vtkXMLImageDataWriter>::New();
  vtk_xml::write(path, writer, img);
}

#else  // no VTK in this build

void write_modes_vti(const std::string& path, const GridGeometry&, const ModeWindow&,
                     const CrossSection&, const std::vector<GuidedMode>&, double) {
  throw std::runtime_error("this build has no VTK (configured with -DCLFDTD_VTK=OFF); cannot write '" +
                           path + "'");
}

#endif

}  // namespace clfdtd
