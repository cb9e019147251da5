// Monitor files at the end of a run: see monitor_files.hpp.
#include "output/monitor_files.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "errors.hpp"
#include "model/mode_expansion.hpp"
#include "monitors/cyl_flux.hpp"
#include "monitors/near_to_far.hpp"
#include "monitors/near_to_far_2d.hpp"
#include "monitors/surface_sampling.hpp"
#include "output/text_file.hpp"
#include "output/waveguide_port_files.hpp"
#include "output/vti_writer.hpp"

namespace clfdtd {
namespace {

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// The transform's product is in J s; a 2D model's per metre of depth. With a cross section (a
// model lit by one plane wave): a third column (2D: the scattering width, m), empty where the
// incident spectrum is below 1e-6 of its largest value at the monitor's frequencies.
// One row per frequency and mode found there: the two waves' amplitudes (sqrt(J s), phase at the
// plane) and energies (J s, what a flux monitor on the plane measures of each); `count` rows of
// nan where the solve failed.
std::string mode_expansion_csv(const std::vector<double>& freqs, const std::vector<ExpansionAt>& rows, int count) {
  std::string text =
      "frequency_hz,mode,n_eff,beta_rad_per_m,forward_re,forward_im,backward_re,backward_im,"
      "forward_J_s,backward_J_s,u_fraction,degenerate\n";
  for (std::size_t f = 0; f < freqs.size(); ++f) {
    if (!rows[f].solved)
      for (int k = 1; k <= count; ++k)
        text += number(freqs[f]) + "," + std::to_string(k) + ",nan,nan,nan,nan,nan,nan,nan,nan,nan,nan\n";
    for (const ExpandedMode& e : rows[f].modes)
      text += number(freqs[f]) + "," + std::to_string(e.mode) + "," + number(e.n_eff) + "," + number(e.beta) + "," +
              number(e.forward.real()) + "," + number(e.forward.imag()) + "," + number(e.backward.real()) + "," +
              number(e.backward.imag()) + "," + number(std::norm(e.forward)) + "," + number(std::norm(e.backward)) +
              "," + number(e.u_fraction) + "," + std::to_string(e.degenerate) + "\n";
  }
  return text;
}

// "2 of its 21 frequencies (1.65e+14, 1.7e+14 Hz)" for those flagged, "" when none is.
std::string flagged_frequencies_text(const std::vector<double>& freqs, const std::vector<bool>& failed) {
  std::string list;
  std::size_t n = 0;
  for (std::size_t f = 0; f < freqs.size(); ++f) {
    if (!failed[f]) continue;
    if (n < 5) list += std::string(n ? ", " : "") + number(freqs[f]);
    ++n;
  }
  if (n == 0) return "";
  if (n > 5) list += ", ...";
  return std::to_string(n) + " of its " + std::to_string(freqs.size()) +
         " frequencies (" + list + " Hz)";
}

std::string flux_csv(const std::vector<double>& freqs, const std::vector<double>& flux, bool two_d,
                     const std::vector<double>& cross_section = {}) {
  std::string text = two_d ? "frequency_hz,flux_J_s_per_m" : "frequency_hz,flux_J_s";
  // 2D: the flux per metre of depth over the incident intensity, a length (the scattering width).
  text += cross_section.empty() ? "\n" : two_d ? ",scattering_width_m\n" : ",cross_section_m2\n";
  for (std::size_t f = 0; f < freqs.size(); ++f) {
    text += number(freqs[f]) + "," + number(flux[f]);
    if (!cross_section.empty())
      text += "," + (std::isfinite(cross_section[f]) ? number(cross_section[f]) : std::string());
    text += "\n";
  }
  return text;
}

// flux / the plane wave's incident intensity (model/plane_wave.hpp incident_intensity), NaN where
// that intensity is below 1e-6 of its largest; empty unless the model has exactly one plane wave,
// in a lossless background, and no other source that drives anything.
std::vector<double> cross_section(const SimulationModel& m, const MonitorModel& mon,
                                  const std::vector<double>& flux) {
  if (m.plane_waves.size() != 1 || m.plane_waves.front().guided_port) return {};
  // Another source's power would count as scattered: only a wave lighting alone has a cross section.
  if (std::any_of(m.sources.begin(), m.sources.end(), drives)) return {};
  if (m.plane_waves.front().impedance_ohm == 0) return {};  // lossy or dispersive: no intensity
  const std::vector<double> inc = incident_intensity(m.plane_waves.front(), mon.frequencies_hz, m.grid.dt);
  double top = 0;
  for (double v : inc) top = std::max(top, v);
  if (!(top > 0)) return std::vector<double>(inc.size(), std::nan(""));  // the wave never came
  std::vector<double> out;
  for (std::size_t f = 0; f < inc.size(); ++f)
    out.push_back(inc[f] >= 1e-6 * top ? flux[f] / inc[f] : std::nan(""));
  return out;
}

// The gain's columns (monitor_files.hpp): D + 10 log10(P / P_delivered) and D + 10 log10(P /
// P_available), empty where the port hardly drives the frequency or delivers nothing.
std::string gain_fields(double directivity_dbi, double radiated, const DrivingPortPower& port,
                        std::size_t f) {
  std::string text;
  for (double input : {port.delivered[f], port.available[f]}) {
    const double g = directivity_dbi + 10 * std::log10(radiated / input);
    text += "," + (port.drives(f) && input > 0 && std::isfinite(g) ? number(g) : std::string());
  }
  return text;
}

std::string farfield_csv(const std::vector<double>& freqs, const FarFieldPattern& p,
                         const std::optional<DrivingPortPower>& port) {
  const bool parts = !p.directivity_theta_dbi.empty();  // 3D: E_theta's and E_phi's shares too
  std::string text = std::string("frequency_hz,theta_deg,phi_deg,directivity_dbi") +
                     (parts ? ",directivity_theta_dbi,directivity_phi_dbi" : "") +
                     (port ? ",gain_dbi,realized_gain_dbi" : "") + "\n";
  const std::size_t nphi = p.phi_deg.size();
  for (std::size_t f = 0; f < freqs.size(); ++f)
    for (std::size_t t = 0; t < p.theta_deg.size(); ++t)
      for (std::size_t q = 0; q < nphi; ++q) {
        const std::size_t at = t * nphi + q;
        if (!p.included[at]) continue;
        text += number(freqs[f]) + "," + number(p.theta_deg[t]) + "," + number(p.phi_deg[q]) +
                "," + number(p.directivity_dbi[f][at]);
        if (parts)
          text += "," + number(p.directivity_theta_dbi[f][at]) + "," + number(p.directivity_phi_dbi[f][at]);
        if (port) text += gain_fields(p.directivity_dbi[f][at], p.radiated_power[f], *port, f);
        text += "\n";
      }
  return text;
}

}  // namespace

const char* monitor_kind_name(MonitorKind k) {
  switch (k) {
    case MonitorKind::Flux: return "flux";
    case MonitorKind::Dft: return "dft";
    case MonitorKind::FarField: return "farfield";
    case MonitorKind::Modes: return "modes";
    case MonitorKind::ModeExpansion: return "mode_expansion";
    case MonitorKind::WaveguidePort: return "waveguide_port";
  }
  return "?";
}

std::vector<MonitorReport> monitor_reports(const SimulationModel& m) {
  std::vector<MonitorReport> out;
  for (const MonitorModel& mon : m.monitors) {
    MonitorReport r;
    r.name = mon.name;
    r.type = monitor_kind_name(mon.kind);
    r.file = mon.kind == MonitorKind::WaveguidePort
                 ? "ports/" + mon.name + ".csv"
                 : "monitors/" + mon.name + (mon.kind == MonitorKind::Dft ? ".vti" : ".csv");
    r.frequencies_hz = mon.frequencies_hz;
    r.modes = mon.nmodes;
    r.decimation = mon.dft_every;
    r.per_metre = m.two_d();
    out.push_back(r);
  }
  return out;
}

bool reads_dft_at_end(const MonitorModel& mon) {
  return mon.kind != MonitorKind::Modes && !(mon.kind == MonitorKind::Dft && !vtk_available());
}

std::vector<PortWaves> write_dft_monitor_files(const std::string& dir, const SimulationModel& m,
                             const DftReader& read_dft, std::vector<MonitorReport>& reports,
                             const DrivingPower& driving_power) {
  std::vector<std::complex<double>> dft;
  std::vector<PortWaves> port_waves_of(m.waveguide_ports.size());
  for (std::size_t i = 0; i < m.monitors.size(); ++i) {
    const MonitorModel& mon = m.monitors[i];
    if (!reads_dft_at_end(mon)) continue;
    if (mon.kind == MonitorKind::WaveguidePort) {
      read_dft(static_cast<int>(i), dft);
      for (std::size_t k = 0; k < m.waveguide_ports.size(); ++k) {
        const WaveguidePortModel& p = m.waveguide_ports[k];
        if (p.monitor != static_cast<int>(i)) continue;
        port_waves_of[k] = port_waves(p, mon, m.grid, dft);
        if (p.solved == 0) continue;  // an analytic mode's nan rows are frequencies below its cutoff
        std::vector<bool> failed;
        for (const std::complex<double>& a : port_waves_of[k].a) failed.push_back(std::isnan(a.real()));
        if (const std::string text = flagged_frequencies_text(p.frequencies_hz, failed); !text.empty())
          reports[i].warnings.push_back("waveguide port '" + p.name + "': at " + text +
                                        " no mode like the launched one was found (cut off there, changed past "
                                        "recognition, or the solve failed); their rows in ports/" + p.name +
                                        ".csv are nan");
      }
      continue;
    }
    std::error_code ec;
    std::filesystem::create_directories(dir + "/monitors", ec);
    if (ec) throw OutputError("create", dir + "/monitors", ec.message());
    read_dft(static_cast<int>(i), dft);
    const std::string path = dir + "/" + reports.at(i).file;
    if (mon.kind == MonitorKind::Dft) {
      write_dft_vti(path, mon, m.grid, dft);
      continue;
    }
    if (mon.kind == MonitorKind::ModeExpansion) {
      const std::vector<ExpansionAt> rows = expand_on_modes(m, mon, dft);
      write_text_file(path, mode_expansion_csv(mon.frequencies_hz, rows, mon.mode_count));
      std::vector<bool> failed;
      for (const ExpansionAt& r : rows) failed.push_back(!r.solved);
      if (const std::string text = flagged_frequencies_text(mon.frequencies_hz, failed); !text.empty())
        reports[i].warnings.push_back("monitor '" + mon.name + "': the mode solve failed at " + text +
                                      "; their rows in " + reports[i].file + " are nan");
      continue;
    }
    if (m.cylindrical()) {  // flux only (config/cyl_checks)
      reports[i].flux = cyl_surface_flux(mon, m.grid, dft);
      write_text_file(path, flux_csv(mon.frequencies_hz, reports[i].flux, false));
      continue;
    }
    const SurfaceFields surface = sample_surface(mon, m.grid, dft);
    if (mon.kind == MonitorKind::Flux) {
      reports[i].flux = surface_flux(surface);
      reports[i].cross_section = cross_section(m, mon, reports[i].flux);
      write_text_file(path, flux_csv(mon.frequencies_hz, reports[i].flux, m.two_d(),
                                     reports[i].cross_section));
    } else {
      const FarFieldPattern p = surface.two_d
                                    ? near_to_far_2d(surface, mon.phi_step_deg)
                                    : near_to_far(surface, mon.theta_step_deg, mon.phi_step_deg);
      reports[i].radiated_power = p.radiated_power;
      // Gain needs the power fed in: a 3D model with one port that alone drives it (a 2D port's
      // power and pattern are per metre of depth, and what gain would mean there is not settled).
      std::optional<DrivingPortPower> port;
      if (!surface.two_d && driving_power) port = driving_power(mon.name, mon.frequencies_hz);
      if (port)
        for (std::size_t f = 0; f < mon.frequencies_hz.size(); ++f)
          reports[i].radiation_efficiency.push_back(port->drives(f) && port->delivered[f] > 0
                                                        ? p.radiated_power[f] / port->delivered[f]
                                                        : std::nan(""));
      write_text_file(path, farfield_csv(mon.frequencies_hz, p, port));
    }
  }
  write_waveguide_port_files(dir, m, port_waves_of);
  return port_waves_of;
}

}  // namespace clfdtd
