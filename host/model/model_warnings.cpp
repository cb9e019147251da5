#include "model/model_warnings.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>

#include "config/options.hpp"
#include "geometry/solid.hpp"
#include "model/dispersion.hpp"
#include "model/number_text.hpp"
#include "model/sources.hpp"
#include "model/waveforms.hpp"

namespace clfdtd {

namespace {

const MaterialConfig* find_material(const RunConfig& cfg, const std::string& name) {
  for (const auto& m : cfg.materials)
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace

double waveform_top_hz(const SourceConfig& s) {
  const double f = s.frequency_hz;
  const double sqrt_ln10 = std::sqrt(std::log(10.0));
  switch (s.waveform) {
    case WaveformKind::Gaussian: return f * sqrt_ln10;  // |W| ~ exp(-(f'/f)^2)
    case WaveformKind::GaussianPulse:                     // |W| ~ exp(-(2 (f' - f) / bandwidth)^2)
      return f + 0.5 * sqrt_ln10 * s.bandwidth_hz.value_or(f);
    case WaveformKind::Ricker: return 2.2122 * f;  // x^2 exp(1 - x^2) = 0.1, x = f'/f
    case WaveformKind::Sine: return f;
  }
  return f;
}

void add_object_warnings(const RunConfig& cfg, const std::vector<std::size_t>& object_samples,
                         std::vector<std::string>& warnings) {
  for (std::size_t o = 0; o < cfg.objects.size() && o < object_samples.size(); ++o) {
    if (object_samples[o] > 0) continue;
    warnings.push_back("object '" + cfg.objects[o].name +
                       "' holds no field sample, so it is not in the model: it falls between the "
                       "samples (make it at least a cell across, or the cells smaller)");
  }
  // A solid from a file placed by the file's own coordinates may sit mostly off the grid (a part
  // drawn about the origin lands in the corner): what lies outside is not meshed.
  for (const ObjectConfig& obj : cfg.objects) {
    if (!obj.solid) continue;
    const Point3& lo = obj.solid->lo();
    const Point3& hi = obj.solid->hi();
    double inside = 1, whole = 1;
    for (int a = 0; a < 3; ++a) {
      whole *= hi[a] - lo[a];
      inside *= std::max(0.0, std::min(hi[a], cfg.grid.size_m[a]) - std::max(lo[a], 0.0));
    }
    if (whole > 0 && inside < 0.5 * whole)
      warnings.push_back("object '" + obj.name + "': " +
                         number_text(100 * (1 - inside / whole), 3) +
                         "% of its bounding box lies outside the domain and is not meshed (it "
                         "spans x " + number_text(lo[0], 6) + " .. " + number_text(hi[0], 6) +
                         ", y " + number_text(lo[1], 6) + " .. " + number_text(hi[1], 6) + ", z " +
                         number_text(lo[2], 6) + " .. " + number_text(hi[2], 6) +
                         " m; `center` places its middle)");
  }
  std::vector<std::string> referenced;
  for (const auto& obj : cfg.objects) referenced.push_back(obj.material);
  for (const auto& m : cfg.materials)  // the materials an `axes` names are used through it
    for (const std::string& a : m.axis_materials)
      if (!a.empty()) referenced.push_back(a);
  for (const auto& m : cfg.materials) {
    if (std::find(referenced.begin(), referenced.end(), m.name) != referenced.end()) continue;
    const std::string near = closest_name(m.name, referenced);
    warnings.push_back("material '" + m.name + "' is used by no object" +
                       (near.empty() ? "" : " (did you mean '" + near + "'?)"));
  }
}

void add_extent_warnings(const RunConfig& cfg, const GridGeometry& g, std::vector<std::string>& warnings) {
  for (int a = 0; a < g.dims; ++a) {
    if (g.cylindrical && a == 1) continue;  // phi is no grid axis
    const double asked = cfg.grid.size_m[a];
    const double extent = g.n[a] * g.d[a];
    if (!(std::fabs(extent - asked) > kExtentTolerance * asked)) continue;
    warnings.push_back(std::string("grid.size along ") + axis_name(g, a) + " is " + number_text(asked) +
                       " m, " + number_text(asked / g.d[a], 4) + " cells of " + number_text(g.d[a]) +
                       " m: the grid has " + std::to_string(g.n[a]) + " cells, " +
                       number_text(extent) + " m, and " +
                       (g.periodic[static_cast<std::size_t>(a)]
                            ? "that is the period (boundary.periodic)"
                            : "its outer walls lie there"));
  }
}

void add_source_warnings(const RunConfig& cfg, const GridGeometry& g,
                         const std::vector<std::size_t>& object_samples,
                         std::vector<std::string>& warnings) {
  const auto on = [](const SourceConfig& s) { return s.amplitude != 0; };
  const bool driven = std::any_of(cfg.sources.begin(), cfg.sources.end(), on) ||
                      std::any_of(cfg.plane_waves.begin(), cfg.plane_waves.end(), on) ||
                      std::any_of(cfg.waveguide_ports.begin(), cfg.waveguide_ports.end(), on);
  if (!driven) {
    warnings.push_back(cfg.sources.empty() && cfg.plane_waves.empty() && cfg.waveguide_ports.empty()
                           ? "the model has no source: every field stays zero"
                           : "every source's amplitude is 0: every field stays zero");
    return;
  }
  const double run_end = g.dt * static_cast<double>(g.steps);
  const std::vector<SourceConfig> all = waveform_sources(cfg);
  for (const auto& s : all) {
    if (s.amplitude == 0) continue;
    // |w| (at most about 1, waveforms.hpp) every step of a run up to 4e6 steps; a longer one
    // every steps / 4e6 steps and every step within 2000 of the pulse's centre (or the end).
    const double delay = s.delay_s.value_or(default_delay_s(s));
    const long stride = std::max(1L, g.steps / 4000000);
    const long centre = std::min(g.steps, static_cast<long>(std::min(delay / g.dt, 1e18)));
    double largest = 0;
    auto look = [&](long n) { largest = std::max(largest, std::fabs(waveform_value(s, g.dt * n))); };
    for (long n = 0; n <= g.steps && largest < kSilentSourceLevel; n += stride) look(n);
    for (long n = std::max(0L, centre - 2000); stride > 1 && n <= std::min(g.steps, centre + 2000); ++n) look(n);
    if (largest >= kSilentSourceLevel) continue;
    warnings.push_back("source '" + s.name + "' stays below " + number_text(kSilentSourceLevel) +
                       " of its peak for the whole run (" + number_text(largest, 3) +
                       " at most): its " + waveform_name(s.waveform) + " at " +
                       number_text(s.frequency_hz, 4) + " Hz " +
                       (s.waveform == WaveformKind::Sine ? "switches on" : "peaks") + " at t = " +
                       number_text(delay, 4) + " s, and the run ends at " + number_text(run_end, 4) +
                       " s (is the frequency in Hz? if so, raise time.steps or lower the delay)");
  }

  // The materials that reached the grid, and the coarsest cell.
  std::vector<const MaterialConfig*> used;
  for (std::size_t o = 0; o < cfg.objects.size() && o < object_samples.size(); ++o) {
    if (object_samples[o] == 0) continue;
    const MaterialConfig* m = find_material(cfg, cfg.objects[o].material);
    if (m && !m->pec) used.push_back(m);
  }
  double coarsest = 0;
  for (int a = 0; a < g.dims; ++a)
    if (!(g.cylindrical && a == 1)) coarsest = std::max(coarsest, g.d[a]);
  for (const auto& s : all) {
    if (s.amplitude == 0) continue;
    const double top = waveform_top_hz(s);
    // The shortest wavelength in the band: the largest f Re(n(f)) up to `top` (at `top` for a
    // material without poles; a Debye or Lorentz material can be slowest lower in the band).
    // Frequencies where a material with poles has Re eps < 0 (a metal or plasma below its plasma
    // frequency) are skipped: there the field decays over a skin depth instead of travelling, and
    // no wavelength spans its cells.
    double index = 1, at = top;
    std::string slowest;
    for (const MaterialConfig* m : used) {
      const int scan = m->dispersive() ? 200 : 1;
      // An anisotropic material: a wave with E along axis a (its eps_r, sigma and poles) and H
      // along b != a.
      std::vector<MaterialEntry> media;
      auto medium = [&](std::size_t a, double mu_r) {
        MaterialEntry entry{m->name, m->eps_along(a), mu_r, m->sigma_along(a), false, {}, {}};
        for (const PoleConfig& pc : m->poles_along(a)) entry.poles.push_back(pole_of(pc));
        media.push_back(entry);
      };
      if (m->anisotropic()) {
        for (std::size_t a = 0; a < 3; ++a)
          for (std::size_t b = 0; b < 3; ++b)
            if (a != b) medium(a, m->mu_along(b));
      } else {
        medium(0, m->mu_r);
      }
      for (const MaterialEntry& entry : media) {
        const double mu_r = entry.mu_r;
        for (int k = scan; k >= 1; --k) {
          const double f = top * k / scan;
          const std::complex<double> eps = pole_permittivity(entry, f);
          if (!entry.poles.empty() && eps.real() < 0) continue;
          const double n = std::sqrt(eps * mu_r).real();
          if (f * n > at * index) {
            index = n;
            at = f;
            slowest = m->name;
          }
        }
      }
    }
    const double cells = kC0 / (at * index * coarsest);
    if (!(cells < kFewestCellsPerWavelength)) continue;
    warnings.push_back("source '" + s.name + "' carries frequencies up to " + number_text(top, 3) +
                       " Hz (a tenth of its spectrum's peak), " +
                       (at < top ? "and at " + number_text(at, 3) + " Hz" : std::string("where")) +
                       " a wavelength " +
                       (slowest.empty() ? std::string("in vacuum")
                                        : "in material '" + slowest + "' (n = " + number_text(index, 3) + ")") +
                       " spans " + number_text(std::floor(cells * 100) / 100, 3) + " cells of " + number_text(coarsest) +
                       " m: numerical dispersion distorts those frequencies (10 or more cells per "
                       "wavelength is usual; grid.max_frequency sizes the cells for vacuum)");
  }
}

void add_probe_warnings(const ProbeSet& probes, const UpmlProfile& upml, const GridGeometry& g,
                        std::vector<std::string>& warnings) {
  if (!upml.enabled()) return;
  std::vector<bool> warned(probes.probes.size(), false);
  for (std::size_t i = 0; i < probes.csv_samples(); ++i) {
    const ProbeSample& s = probes.samples[i];
    const auto p = static_cast<std::size_t>(s.probe);
    if (p >= warned.size() || warned[p] || !upml.in_pml(s.cell[0], s.cell[1], s.cell[2], g.n)) continue;
    warned[p] = true;
    warnings.push_back("probe '" + probes.probes[p].name +
                       "' samples inside the UPML layers, where the fields are absorbed and "
                       "are not free space's");
  }
}

void add_probe_pec_warnings(const ProbeSet& probes, const std::array<std::vector<std::uint8_t>, 6>& ids,
                            const FieldLayout& layout, const MaterialTable& materials,
                            std::vector<std::string>& warnings) {
  std::vector<bool> warned(probes.probes.size(), false);
  for (std::size_t i = 0; i < probes.csv_samples(); ++i) {
    const ProbeSample& s = probes.samples[i];
    const auto p = static_cast<std::size_t>(s.probe);
    const auto comp = static_cast<std::size_t>(s.component);
    if (p >= warned.size() || warned[p] || !is_electric(s.component) || ids[comp].empty()) continue;
    const std::size_t at = layout.index(s.cell[0], s.cell[1], s.cell[2]);
    if (at >= ids[comp].size() || !materials.entry(ids[comp][at]).pec) continue;
    warned[p] = true;
    char where[96];
    std::snprintf(where, sizeof where, "(%.6g %.6g %.6g) m", s.position_m.x, s.position_m.y, s.position_m.z);
    warnings.push_back("probe '" + probes.probes[p].name + "': its " + component_name(s.component) +
                       " sample at " + where + " lies in PEC (an object of material pec or the "
                       "grid's wall), where E stays zero: it records zeros");
  }
}

}  // namespace clfdtd
