// Cylindrical snapshots: see cyl_snapshot.hpp. Mode fields are stored r-major (i*nz + k); VTK
// images and structured grids are x fastest, so every array is transposed on the way out.
#include "output/cyl_snapshot.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#ifdef CLFDTD_HAVE_VTK
#include <vtkCellData.h>
#include <vtkImageData.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkStructuredGrid.h>
#include <vtkXMLImageDataWriter.h>
#include <vtkXMLStructuredGridWriter.h>

#include "output/vtk_xml.hpp"
#endif

namespace clfdtd {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct Present {
  bool e = false, h = false;
};

void require_cylindrical(const SimulationModel& m, const std::string& what) {
  if (!m.cylindrical())
    throw std::invalid_argument(what + ": the model is not cylindrical");
  if (m.grid.n[0] <= 0 || m.grid.n[2] <= 0 || m.grid.n[1] != 1)
    throw std::invalid_argument(what + ": a cylindrical grid is nr x 1 x nz, got " +
                                std::to_string(m.grid.n[0]) + " x " + std::to_string(m.grid.n[1]) +
                                " x " + std::to_string(m.grid.n[2]));
}

// Which of E and H the slot holds: each all three components (nr*nz values) or none; anything
// else is a caller bug, reported rather than silently written as zeros.
Present present(const CylModeFields& f, std::size_t samples, const std::string& what) {
  Present p;
  for (int c0 : {0, 3}) {
    int given = 0;
    for (int c = c0; c < c0 + 3; ++c) {
      if (f[c].empty()) continue;
      if (f[c].size() != samples)
        throw std::invalid_argument(what + ": " + cyl_component_name(Component(c)) + " has " +
                                    std::to_string(f[c].size()) + " values, expected " +
                                    std::to_string(samples) + " (nr*nz)");
      ++given;
    }
    if (given != 0 && given != 3)
      throw std::invalid_argument(what + ": " + (c0 == 0 ? "E" : "H") +
                                  " needs all three components or none");
    (c0 == 0 ? p.e : p.h) = given == 3;
  }
  return p;
}

// Yee offsets in the (r, z) plane (docs/CYLINDRICAL.md): true where the sample sits on an
// integer position, i.e. half a cell below the centre along that axis.
bool integer_r(Component c) {
  return c == Component::Ey || c == Component::Ez || c == Component::Hx;  // Ephi, Ez, Hr
}
bool integer_z(Component c) {
  return c == Component::Ex || c == Component::Ey || c == Component::Hz;  // Er, Ephi, Hz
}

}  // namespace

std::vector<std::complex<float>> cyl_centre_average(Component c, int nr, int nz,
                                                    const std::vector<std::complex<float>>& v) {
  const std::size_t samples = static_cast<std::size_t>(nr) * nz;
  if (nr <= 0 || nz <= 0 || v.size() != samples)
    throw std::invalid_argument("cyl_centre_average: " + std::to_string(v.size()) + " values for " +
                                std::to_string(nr) + " x " + std::to_string(nz) + " samples");
  const int si = integer_r(c) ? 1 : 0, sk = integer_z(c) ? 1 : 0;
  const double weight = 1.0 / ((1 + si) * (1 + sk));
  const auto at = [&](int i, int k) -> std::complex<double> {
    if (i >= nr || k >= nz) return 0.0;  // past the high wall: PEC, zero
    return std::complex<double>(v[static_cast<std::size_t>(i) * nz + k]);
  };
  std::vector<std::complex<float>> out(samples);
  for (int i = 0; i < nr; ++i)
    for (int k = 0; k < nz; ++k) {
      std::complex<double> s = 0;
      for (int di = 0; di <= si; ++di)
        for (int dk = 0; dk <= sk; ++dk) s += at(i + di, k + dk);
      out[static_cast<std::size_t>(i) * nz + k] = std::complex<float>(s * weight);
    }
  return out;
}

CylReconstruction reconstruct_cyl(const SimulationModel& m, const std::vector<CylModeFields>& modes,
                                  int phi_samples) {
  const std::string what = "3D reconstruction";
  require_cylindrical(m, what);
  if (phi_samples < 1)
    throw std::invalid_argument(what + ": phi_samples must be >= 1, got " +
                                std::to_string(phi_samples));
  const std::size_t slots = m.grid.modes.size();
  if (modes.size() != slots)
    throw std::invalid_argument(what + ": " + std::to_string(modes.size()) + " mode slots for " +
                                std::to_string(slots) + " modes");
  const int nr = m.grid.n[0], nz = m.grid.n[2], nphi = phi_samples + 1;
  const std::size_t samples = static_cast<std::size_t>(nr) * nz;
  Present all{true, true};
  for (const CylModeFields& f : modes) {
    const Present p = present(f, samples, what);
    all.e = all.e && p.e;
    all.h = all.h && p.h;
  }
  if (slots == 0) all = Present{};

  CylReconstruction out;
  out.nr = nr;
  out.nphi = nphi;
  out.nz = nz;
  const std::size_t points = samples * static_cast<std::size_t>(nphi);
  std::vector<double> cos_phi(nphi), sin_phi(nphi);
  // cos(m phi_j), sin(m phi_j) per slot and angle: [q * nphi + j].
  std::vector<double> cos_m(slots * nphi), sin_m(slots * nphi);
  for (int j = 0; j < nphi; ++j) {
    // j = N is the angle 2 pi: the same values as j = 0 (written as 0 so they match exactly).
    const double phi = 2 * kPi * (j % phi_samples) / phi_samples;
    cos_phi[j] = std::cos(phi);
    sin_phi[j] = std::sin(phi);
    for (std::size_t q = 0; q < slots; ++q) {
      cos_m[q * nphi + j] = std::cos(m.grid.modes[q] * phi);
      sin_m[q * nphi + j] = std::sin(m.grid.modes[q] * phi);
    }
  }
  out.points.resize(3 * points);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < nphi; ++j)
      for (int i = 0; i < nr; ++i) {
        const std::size_t p = i + static_cast<std::size_t>(nr) * (j + static_cast<std::size_t>(nphi) * k);
        const double r = (i + 0.5) * m.grid.d[0];
        out.points[3 * p] = static_cast<float>(r * cos_phi[j]);
        out.points[3 * p + 1] = static_cast<float>(r * sin_phi[j]);
        out.points[3 * p + 2] = static_cast<float>((k + 0.5) * m.grid.d[2]);
      }

  const auto fill = [&](int c0, std::vector<float>& cart, std::vector<float>& cyl) {
    cart.assign(3 * points, 0.0f);
    cyl.assign(3 * points, 0.0f);
    std::vector<std::array<std::vector<std::complex<float>>, 3>> centred(slots);
    for (std::size_t q = 0; q < slots; ++q)
      for (int a = 0; a < 3; ++a)
        centred[q][a] = cyl_centre_average(Component(c0 + a), nr, nz, modes[q][c0 + a]);
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < nphi; ++j)
        for (int i = 0; i < nr; ++i) {
          const std::size_t s = static_cast<std::size_t>(i) * nz + k;
          double f[3] = {0, 0, 0};  // r, phi, z
          for (std::size_t q = 0; q < slots; ++q) {
            const double c = cos_m[q * nphi + j], sn = sin_m[q * nphi + j];
            for (int a = 0; a < 3; ++a) {
              const std::complex<float> v = centred[q][a][s];
              f[a] += v.real() * c - v.imag() * sn;  // Re(F e^{i m phi})
            }
          }
          const std::size_t p = i + static_cast<std::size_t>(nr) * (j + static_cast<std::size_t>(nphi) * k);
          cart[3 * p] = static_cast<float>(f[0] * cos_phi[j] - f[1] * sin_phi[j]);
          cart[3 * p + 1] = static_cast<float>(f[0] * sin_phi[j] + f[1] * cos_phi[j]);
          cart[3 * p + 2] = static_cast<float>(f[2]);
          for (int a = 0; a < 3; ++a) cyl[3 * p + a] = static_cast<float>(f[a]);
        }
  };
  if (all.e) fill(0, out.e, out.e_cyl);
  if (all.h) fill(3, out.h, out.h_cyl);
  return out;
}

#ifdef CLFDTD_HAVE_VTK

namespace {

const char* kNote =
    "E (V/m) at TimeValue = step*dt s; H (A/m) at step*dt - dt/2 s (leapfrog); cylindrical model, "
    "physical field = sum over modes of Re(F_m(r, z) exp(i m phi))";

void add_times(vtkFieldData* fd, long step, double dt) {
  const double t = static_cast<double>(step) * dt;
  vtk_xml::add_field_double(fd, "TimeValue", t);  // the name ParaView reads as the dataset's time
  vtk_xml::add_field_double(fd, "step", static_cast<double>(step));
  vtk_xml::add_field_double(fd, "H_time_s", t - dt / 2);
}

// 3-component point array from a point-major buffer, and its magnitude.
void add_point_vector(vtkPointData* pd, const std::string& name, const std::vector<float>& v,
                      bool magnitude) {
  const std::size_t points = v.size() / 3;
  auto a = vtk_xml::float_array(name.c_str(), 3, points);
  std::copy(v.begin(), v.end(), a->GetPointer(0));
  pd->AddArray(a);
  if (!magnitude) return;
  auto mag = vtk_xml::float_array((name + "_magnitude").c_str(), 1, points);
  float* pm = mag->GetPointer(0);
  for (std::size_t p = 0; p < points; ++p) {
    const double x = v[3 * p], y = v[3 * p + 1], z = v[3 * p + 2];
    pm[p] = static_cast<float>(std::sqrt(x * x + y * y + z * z));
  }
  pd->AddArray(mag);
}

}  // namespace

void write_cyl_mode_vti(const std::string& path, const SimulationModel& m, int slot,
                        const CylModeFields& f, long step, double dt) {
  const std::string what = "mode .vti '" + path + "'";
  require_cylindrical(m, what);
  if (slot < 0 || static_cast<std::size_t>(slot) >= m.grid.modes.size())
    throw std::invalid_argument(what + ": mode slot " + std::to_string(slot) + " of " +
                                std::to_string(m.grid.modes.size()));
  const int nr = m.grid.n[0], nz = m.grid.n[2];
  const std::size_t samples = static_cast<std::size_t>(nr) * nz;
  present(f, samples, what);

  auto img = vtkSmartPointer<vtkImageData>::New();
  img->SetDimensions(nr + 1, 1, nz + 1);  // the x-z plane: x = r, z = z (phi = 0), as model.vti
  img->SetSpacing(m.grid.d[0], m.grid.d[1], m.grid.d[2]);
  img->SetOrigin(0, 0, 0);
  const char* first = nullptr;
  for (int c = 0; c < 6; ++c) {
    if (f[c].empty()) continue;
    const std::vector<std::complex<float>> centred = cyl_centre_average(Component(c), nr, nz, f[c]);
    const std::string name = cyl_component_name(Component(c));
    auto re = vtk_xml::float_array((name + "_re").c_str(), 1, samples);
    auto im = vtk_xml::float_array((name + "_im").c_str(), 1, samples);
    float *pr = re->GetPointer(0), *pi = im->GetPointer(0);
    for (int k = 0; k < nz; ++k)
      for (int i = 0; i < nr; ++i) {
        const std::complex<float> v = centred[static_cast<std::size_t>(i) * nz + k];
        pr[i + static_cast<std::size_t>(nr) * k] = v.real();
        pi[i + static_cast<std::size_t>(nr) * k] = v.imag();
      }
    img->GetCellData()->AddArray(re);
    img->GetCellData()->AddArray(im);
    if (!first) first = re->GetName();
  }
  if (first) img->GetCellData()->SetActiveScalars(first);
  vtkFieldData* fd = img->GetFieldData();
  add_times(fd, step, dt);
  vtk_xml::add_field_double(fd, "mode_m", m.grid.modes[static_cast<std::size_t>(slot)]);
  vtk_xml::add_field_string(fd, "note", std::string(kNote) +
                                            "; this file: the complex amplitudes F_m of mode m = "
                                            "mode_m (twice the Fourier coefficient for m > 0), "
                                            "averaged from Yee positions to cell centres; x = r, "
                                            "z = z");
  auto w = vtkSmartPointer<vtkXMLImageDataWriter>::New();
  vtk_xml::write(path, w, img);
}

void write_cyl_3d_vts(const std::string& path, const SimulationModel& m,
                      const std::vector<CylModeFields>& modes, int phi_samples, long step,
                      double dt) {
  const CylReconstruction rec = reconstruct_cyl(m, modes, phi_samples);
  auto grid = vtkSmartPointer<vtkStructuredGrid>::New();
  grid->SetDimensions(rec.nr, rec.nphi, rec.nz);
  auto pts = vtkSmartPointer<vtkPoints>::New();
  pts->SetDataTypeToFloat();
  const std::size_t points = rec.points.size() / 3;
  pts->SetNumberOfPoints(static_cast<vtkIdType>(points));
  for (std::size_t p = 0; p < points; ++p)
    pts->SetPoint(static_cast<vtkIdType>(p), rec.points[3 * p], rec.points[3 * p + 1],
                  rec.points[3 * p + 2]);
  grid->SetPoints(pts);
  vtkPointData* pd = grid->GetPointData();
  if (!rec.e.empty()) {
    add_point_vector(pd, "E", rec.e, true);
    add_point_vector(pd, "E_cyl", rec.e_cyl, false);
  }
  if (!rec.h.empty()) {
    add_point_vector(pd, "H", rec.h, true);
    add_point_vector(pd, "H_cyl", rec.h_cyl, false);
  }
  if (!rec.e.empty()) pd->SetActiveVectors("E");
  else if (!rec.h.empty()) pd->SetActiveVectors("H");
  vtkFieldData* fd = grid->GetFieldData();
  add_times(fd, step, dt);
  vtk_xml::add_field_double(fd, "phi_samples", phi_samples);
  vtk_xml::add_field_string(fd, "note", std::string(kNote) +
                                            "; this file: that sum at phi = 2 pi j / phi_samples "
                                            "(the last layer repeats phi = 0), at the cell "
                                            "centres' r and z; E, H Cartesian (x, y, z); E_cyl, "
                                            "H_cyl in (r, phi, z) components");
  auto w = vtkSmartPointer<vtkXMLStructuredGridWriter>::New();
  vtk_xml::write(path, w, grid);
}

#else  // no VTK in this build

void write_cyl_mode_vti(const std::string& path, const SimulationModel&, int, const CylModeFields&,
                        long, double) {
  throw std::runtime_error("this build has no VTK (configured with -DCLFDTD_VTK=OFF); cannot write '" +
                           path + "'");
}

void write_cyl_3d_vts(const std::string& path, const SimulationModel&,
                      const std::vector<CylModeFields>&, int, long, double) {
  throw std::runtime_error("this build has no VTK (configured with -DCLFDTD_VTK=OFF); cannot write '" +
                           path + "'");
}

#endif

}  // namespace clfdtd
