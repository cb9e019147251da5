// .vti writers: see vti_writer.hpp. The simulation stores z fastest ((i*ny + j)*nz + k); VTK cell
// data is x fastest (i + nx*(j + ny*k)), so every array is transposed on the way out.
#include "output/vti_writer.hpp"

#include <cmath>
#include <complex>
#include <stdexcept>

#include "errors.hpp"

#ifdef CLFDTD_HAVE_VTK
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkImageData.h>
#include <vtkSmartPointer.h>
#include <vtkStringArray.h>
#include <vtkUnsignedCharArray.h>
#include <vtkXMLImageDataWriter.h>

#include "output/vtk_xml.hpp"
#endif

namespace clfdtd {
namespace {

std::size_t cell_count(const std::array<int, 3>& n) {
  return static_cast<std::size_t>(n[0]) * n[1] * n[2];
}

#ifdef CLFDTD_HAVE_VTK
// Which of E (c0 = 0) / H (c0 = 3) is present: all three components, or none; anything else is a
// caller bug, reported rather than silently writing zeros.
bool triple_present(const std::array<std::vector<float>, 6>& f, int c0, std::size_t cells) {
  int given = 0;
  for (int c = c0; c < c0 + 3; ++c) {
    if (f[c].empty()) continue;
    if (f[c].size() != cells)
      throw std::invalid_argument(std::string("fields .vti: ") + component_name(Component(c)) +
                                  " has " + std::to_string(f[c].size()) + " values, expected " +
                                  std::to_string(cells) + " (unpadded nx*ny*nz)");
    ++given;
  }
  if (given != 0 && given != 3)
    throw std::invalid_argument(std::string("fields .vti: ") + (c0 == 0 ? "E" : "H") +
                                " needs all three components or none");
  return given == 3;
}
#endif

}  // namespace

std::vector<float> cell_centre_average(Component c, const std::array<int, 3>& n,
                                       const std::vector<float>& v, bool plane) {
  if (v.size() != cell_count(n))
    throw std::invalid_argument("cell_centre_average: " + std::to_string(v.size()) +
                                " values for " + std::to_string(cell_count(n)) + " cells");
  // Axes along which the sample sits on an integer position: the centre lies half-way between
  // index i and i+1 there. E_u is integer along the two other axes, H_u along u itself.
  const int a = component_axis(c);
  std::array<int, 3> span{0, 0, 0};
  if (is_electric(c)) {
    span[(a + 1) % 3] = 1;
    span[(a + 2) % 3] = 1;
  } else {
    span[a] = 1;
  }
  if (plane) span[2] = 0;  // the plane's samples all sit at its own height
  const double weight = 1.0 / ((1 + span[0]) * (1 + span[1]) * (1 + span[2]));
  const auto at = [&](int i, int j, int k) -> double {
    if (i >= n[0] || j >= n[1] || k >= n[2]) return 0.0;  // past the high wall: PEC, zero
    return v[(static_cast<std::size_t>(i) * n[1] + j) * n[2] + k];
  };
  std::vector<float> out(v.size());
  std::size_t idx = 0;
  for (int i = 0; i < n[0]; ++i)
    for (int j = 0; j < n[1]; ++j)
      for (int k = 0; k < n[2]; ++k) {
        double s = 0;
        for (int di = 0; di <= span[0]; ++di)
          for (int dj = 0; dj <= span[1]; ++dj)
            for (int dk = 0; dk <= span[2]; ++dk) s += at(i + di, j + dj, k + dk);
        out[idx++] = static_cast<float>(s * weight);
      }
  return out;
}

#ifdef CLFDTD_HAVE_VTK

bool vtk_available() { return true; }

namespace {

vtkSmartPointer<vtkImageData> make_image(const SimulationModel& m) {
  const auto& n = m.grid.n;
  if (n[0] <= 0 || n[1] <= 0 || n[2] <= 0)
    throw std::invalid_argument(".vti: the model has an empty grid");
  auto img = vtkSmartPointer<vtkImageData>::New();
  // Points; cells are the Yee cells. A 2D model is one layer of points: its cells are pixels.
  // A cylindrical model is the (r, z) half-plane phi = 0 (x = r, z = z), one layer of points
  // along y, so that it lies inside its 3D reconstruction (cyl_snapshot.hpp).
  img->SetDimensions(n[0] + 1, m.cylindrical() ? 1 : n[1] + 1, m.two_d() ? 1 : n[2] + 1);
  img->SetSpacing(m.grid.d[0], m.grid.d[1], m.grid.d[2]);
  img->SetOrigin(0, 0, 0);
  return img;
}

// Calls put(vtk_index, sim_index) for every cell, in VTK order (x fastest).
template <class Put>
void for_each_cell(const std::array<int, 3>& n, Put put) {
  std::size_t out = 0;
  for (int k = 0; k < n[2]; ++k)
    for (int j = 0; j < n[1]; ++j)
      for (int i = 0; i < n[0]; ++i) put(out++, (static_cast<std::size_t>(i) * n[1] + j) * n[2] + k);
}

using vtk_xml::add_field_double;
using vtk_xml::add_field_string;
using vtk_xml::float_array;

void write_image(const std::string& path, vtkImageData* img) {
  auto w = vtkSmartPointer<vtkXMLImageDataWriter>::New();
  vtk_xml::write(path, w, img);
}

// Cell arrays "<name>" (3 components, cell-centred) and "<name>_magnitude" from f[c0..c0+2].
void add_vector(vtkImageData* img, const char* name, const std::string& mag_name,
                const std::array<std::vector<float>, 6>& f, int c0, const std::array<int, 3>& n) {
  const std::size_t cells = cell_count(n);
  auto vec = float_array(name, 3, cells);
  auto mag = float_array(mag_name.c_str(), 1, cells);
  float* pv = vec->GetPointer(0);
  for (int c = 0; c < 3; ++c) {  // one centred component at a time keeps peak memory low
    const std::vector<float> centred = cell_centre_average(Component(c0 + c), n, f[c0 + c]);
    for_each_cell(n, [&](std::size_t o, std::size_t s) { pv[3 * o + c] = centred[s]; });
  }
  float* pm = mag->GetPointer(0);
  for (std::size_t o = 0; o < cells; ++o) {
    const double x = pv[3 * o], y = pv[3 * o + 1], z = pv[3 * o + 2];
    pm[o] = static_cast<float>(std::sqrt(x * x + y * y + z * z));
  }
  img->GetCellData()->AddArray(vec);
  img->GetCellData()->AddArray(mag);
}

// 2D: one scalar cell array per component the model carries and the caller gave (named Ez, Hx,
// ...), each moved to the cell centres in the plane.
void add_plane_components(vtkImageData* img, const SimulationModel& m,
                          const std::array<std::vector<float>, 6>& f) {
  const auto& n = m.grid.n;
  const std::size_t cells = cell_count(n);
  const char* first = nullptr;
  for (Component c : m.active_components()) {
    const auto& v = f[static_cast<int>(c)];
    if (v.empty()) continue;
    if (v.size() != cells)
      throw std::invalid_argument(std::string("fields .vti: ") + component_name(c) + " has " +
                                  std::to_string(v.size()) + " values, expected " +
                                  std::to_string(cells) + " (unpadded nx*ny)");
    const std::vector<float> centred = cell_centre_average(c, n, v, true);
    auto a = float_array(component_name(c), 1, cells);
    float* pa = a->GetPointer(0);
    for_each_cell(n, [&](std::size_t o, std::size_t s) { pa[o] = centred[s]; });
    img->GetCellData()->AddArray(a);
    if (!first) first = component_name(c);
  }
  if (first) img->GetCellData()->SetActiveScalars(first);
}

}  // namespace

void write_model_vti(const std::string& path, const SimulationModel& m) {
  const auto& n = m.grid.n;
  const std::size_t cells = cell_count(n);
  if (m.cell_ids.size() != cells)
    throw std::invalid_argument("model .vti: cell_ids has " + std::to_string(m.cell_ids.size()) +
                                " entries, expected nx*ny*nz = " + std::to_string(cells));
  const std::size_t nmat = m.materials.size();
  for (std::uint8_t id : m.cell_ids)
    if (id >= nmat)
      throw std::invalid_argument("model .vti: material id " + std::to_string(id) + " not in the table");

  auto img = make_image(m);
  auto eps = float_array("eps_r", 1, cells), mu = float_array("mu_r", 1, cells);
  auto sigma = float_array("sigma", 1, cells);
  auto ids = vtkSmartPointer<vtkUnsignedCharArray>::New();
  ids->SetName("material");
  ids->SetNumberOfTuples(static_cast<vtkIdType>(cells));
  float *pe = eps->GetPointer(0), *pm = mu->GetPointer(0), *ps = sigma->GetPointer(0);
  unsigned char* pi = ids->GetPointer(0);
  for_each_cell(n, [&](std::size_t o, std::size_t s) {
    const std::uint8_t id = m.cell_ids[s];
    const MaterialEntry& e = m.materials.entry(id);
    pe[o] = static_cast<float>(e.eps_r);
    pm[o] = static_cast<float>(e.mu_r);
    ps[o] = static_cast<float>(e.sigma);
    pi[o] = id;
  });
  img->GetCellData()->AddArray(ids);
  img->GetCellData()->AddArray(eps);
  img->GetCellData()->AddArray(mu);
  img->GetCellData()->AddArray(sigma);
  if (m.materials.any_dispersive()) {  // where eps_r is the permittivity at infinite frequency
    auto poles = vtkSmartPointer<vtkUnsignedCharArray>::New();
    poles->SetName("poles");
    poles->SetNumberOfTuples(static_cast<vtkIdType>(cells));
    unsigned char* pp = poles->GetPointer(0);
    for_each_cell(n, [&](std::size_t o, std::size_t s) {
      // An anisotropic material's axes may differ (poles along x only): the most of the three.
      std::size_t most = 0;
      for (int axis = 0; axis < 3; ++axis) {
        const MaterialEntry& e = m.materials.entry(m.materials.along(m.cell_ids[s], axis));
        most = std::max(most, e.pec ? std::size_t{0} : e.poles.size());
      }
      pp[o] = static_cast<unsigned char>(most);
    });
    img->GetCellData()->AddArray(poles);
  }
  if (m.materials.any_anisotropic()) {  // the three values along x, y, z of every cell
    struct Prop { const char* name; double MaterialEntry::*value; };
    for (const Prop& p : {Prop{"eps_r_xyz", &MaterialEntry::eps_r}, Prop{"mu_r_xyz", &MaterialEntry::mu_r},
                          Prop{"sigma_xyz", &MaterialEntry::sigma}}) {
      auto a = float_array(p.name, 3, cells);
      float* pa = a->GetPointer(0);
      for_each_cell(n, [&](std::size_t o, std::size_t s) {
        for (int axis = 0; axis < 3; ++axis)
          pa[3 * o + static_cast<std::size_t>(axis)] =
              static_cast<float>(m.materials.entry(m.materials.along(m.cell_ids[s], axis)).*p.value);
      });
      img->GetCellData()->AddArray(a);
    }
  }
  img->GetCellData()->SetActiveScalars("material");

  // Id -> name table: entry i of material_names belongs to material id i.
  vtkFieldData* fd = img->GetFieldData();
  auto names = vtkSmartPointer<vtkStringArray>::New();
  names->SetName("material_names");
  auto pec = vtkSmartPointer<vtkUnsignedCharArray>::New();
  pec->SetName("material_pec");
  for (std::size_t id = 0; id < nmat; ++id) {
    const MaterialEntry& e = m.materials.entry(static_cast<std::uint8_t>(id));
    names->InsertNextValue(e.name);
    pec->InsertNextValue(e.pec ? 1 : 0);
  }
  fd->AddArray(names);
  fd->AddArray(pec);
  add_field_string(fd, "units", std::string("lengths m; sigma S/m; eps_r, mu_r relative; material = id, "
                                "named by material_names[id]; PEC cells: material_pec[id] = 1") +
                                    (m.materials.any_dispersive()
                                         ? "; dispersive cells (poles > 0): eps_r is the permittivity "
                                           "at infinite frequency, the poles in run.json"
                                         : "") +
                                    (m.materials.any_anisotropic()
                                         ? "; anisotropic materials: eps_r, mu_r and sigma hold their x "
                                           "values, eps_r_xyz, mu_r_xyz and sigma_xyz all three"
                                         : "") +
                                    (m.two_d() ? "; 2D model: the x-y plane, one cell per pixel" : "") +
                                    (m.cylindrical() ? "; cylindrical model (a body of revolution "
                                                       "about z): the (r, z) half-plane phi = 0, "
                                                       "x = r, z = z, one cell per pixel" : ""));
  write_image(path, img);
}

void write_fields_vti(const std::string& path, const SimulationModel& m,
                      const std::array<std::vector<float>, 6>& f, long step, double dt) {
  if (m.cylindrical())
    throw std::invalid_argument("fields .vti: a cylindrical model's snapshots are per mode "
                                "(write_cyl_mode_vti), not '" + path + "'");
  const auto& n = m.grid.n;
  const std::size_t cells = cell_count(n);
  auto img = make_image(m);
  if (m.two_d()) {
    add_plane_components(img, m, f);
  } else {
    const bool has_e = triple_present(f, 0, cells), has_h = triple_present(f, 3, cells);
    if (has_e) add_vector(img, "E", "E_magnitude", f, 0, n);
    if (has_h) add_vector(img, "H", "H_magnitude", f, 3, n);
    if (has_e) img->GetCellData()->SetActiveVectors("E");
    else if (has_h) img->GetCellData()->SetActiveVectors("H");
  }

  vtkFieldData* fd = img->GetFieldData();
  const double t = static_cast<double>(step) * dt;
  add_field_double(fd, "TimeValue", t);  // the name ParaView reads as the dataset's time
  add_field_double(fd, "step", static_cast<double>(step));
  add_field_double(fd, "H_time_s", t - dt / 2);
  add_field_string(fd, "note", "E (V/m) at TimeValue = step*dt s; H (A/m) at step*dt - dt/2 s "
                               "(leapfrog); values averaged from Yee positions to cell centres");
  write_image(path, img);
}

void write_dft_vti(const std::string& path, const MonitorModel& mon, const GridGeometry& g,
                   const std::vector<std::complex<double>>& dft) {
  const std::size_t nfreq = mon.frequencies_hz.size();
  if (mon.regions.empty() || dft.size() != mon.points() * nfreq)
    throw std::invalid_argument("dft .vti: " + std::to_string(dft.size()) + " values for " +
                                std::to_string(mon.points()) + " points x " +
                                std::to_string(nfreq) + " frequencies");
  const DftRegion& box = mon.regions.front();
  std::array<int, 3> n{};
  for (int a = 0; a < 3; ++a) n[a] = box.hi[a] - box.lo[a];
  const std::size_t cells = cell_count(n);
  auto img = vtkSmartPointer<vtkImageData>::New();
  img->SetDimensions(n[0] + 1, n[1] + 1, n[2] + 1);
  img->SetSpacing(g.d[0], g.d[1], g.d[2]);
  img->SetOrigin(box.lo[0] * g.d[0], box.lo[1] * g.d[1], box.lo[2] * g.d[2]);
  std::size_t first = 0;
  for (const DftRegion& r : mon.regions) {
    if (r.lo != box.lo || r.hi != box.hi)
      throw std::invalid_argument("dft .vti: the regions of monitor '" + mon.name +
                                  "' do not cover one box");
    for (std::size_t f = 0; f < nfreq; ++f) {
      const std::string stem = std::string(component_name(r.component)) + "_";
      auto re = float_array((stem + "re_" + std::to_string(f)).c_str(), 1, cells);
      auto im = float_array((stem + "im_" + std::to_string(f)).c_str(), 1, cells);
      float *pr = re->GetPointer(0), *pi = im->GetPointer(0);
      for_each_cell(n, [&](std::size_t o, std::size_t s) {
        const std::complex<double> v = dft[(first + s) * nfreq + f];
        pr[o] = static_cast<float>(v.real());
        pi[o] = static_cast<float>(v.imag());
      });
      img->GetCellData()->AddArray(re);
      img->GetCellData()->AddArray(im);
    }
    first += r.count();
  }
  vtkFieldData* fd = img->GetFieldData();
  auto freqs = vtkSmartPointer<vtkDoubleArray>::New();
  freqs->SetName("frequencies_hz");
  for (double f : mon.frequencies_hz) freqs->InsertNextValue(f);
  fd->AddArray(freqs);
  add_field_string(fd, "note", "X(f) = sum_n x(t_n) exp(-i 2 pi f t_n) dt, E (V/m s) at t_n = n dt, "
                               "H (A/m s) at (n - 1/2) dt; <Field>_re_<i>/_im_<i>: frequency "
                               "frequencies_hz[i]; each value at its component's Yee position");
  write_image(path, img);
}

#else  // no VTK in this build

bool vtk_available() { return false; }

void write_model_vti(const std::string& path, const SimulationModel&) {
  throw std::runtime_error("this build has no VTK (configured with -DCLFDTD_VTK=OFF); cannot write '" +
                           path + "'");
}

void write_fields_vti(const std::string& path, const SimulationModel&,
                      const std::array<std::vector<float>, 6>&, long, double) {
  throw std::runtime_error("this build has no VTK (configured with -DCLFDTD_VTK=OFF); cannot write '" +
                           path + "'");
}

void write_dft_vti(const std::string& path, const MonitorModel&, const GridGeometry&,
                   const std::vector<std::complex<double>>&) {
  throw std::runtime_error("this build has no VTK (configured with -DCLFDTD_VTK=OFF); cannot write '" +
                           path + "'");
}

#endif

}  // namespace clfdtd
