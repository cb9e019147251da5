// Patent step 4.4: probe samples (one per probe and field, in config order) and step windows.
#include "model/probes.hpp"

#include <algorithm>

#include "model/field_layout.hpp"

namespace clfdtd {

namespace {
constexpr double kPi = 3.14159265358979323846;
}  // namespace

ProbeSet build_probes(const std::vector<ProbeConfig>& cfg, const GridGeometry& g) {
  ProbeSet set;
  bool any = false;
  for (std::size_t p = 0; p < cfg.size(); ++p) {
    const ProbeConfig& c = cfg[p];
    ProbeModel m;
    m.name = c.name;
    m.n1 = c.steps ? (*c.steps)[0] : 0;
    // Nothing exists past the last step; a window reaching beyond it is cut there.
    m.n2 = std::min(c.steps ? (*c.steps)[1] : g.steps, g.steps);
    m.resonances_hz = c.resonances_hz;
    m.resonance_from = m.n1;
    set.probes.push_back(m);
    for (Component f : c.fields) {
      ProbeSample s;
      s.probe = static_cast<int>(p);
      s.component = f;
      if (g.cylindrical) {
        // position = r, phi (degrees), z: the sample is the nearest in (r, z); position_m is
        // (r, 0, z) of that sample, and the value is taken at the probe's own angle.
        s.cell = nearest_sample(f, Vec3{c.position.x, 0, c.position.z}, g.n, g.d);
        s.position_m = sample_position(f, s.cell, g.d);
        s.position_m.y = 0;
        s.phi_rad = c.position.y * kPi / 180;
      } else {
        s.cell = nearest_sample(f, c.position, g.n, g.d, g.periodic);
        s.position_m = sample_position(f, s.cell, g.d);
      }
      if (g.dims == 2) s.position_m.z = 0;  // in the plane (the z offset has no meaning there)
      set.samples.push_back(s);
    }
    if (c.fields.empty() || m.n2 < m.n1) continue;  // records nothing: not part of the union
    if (!any) {
      set.first_step = m.n1;
      set.last_step = m.n2;
      any = true;
    } else {
      set.first_step = std::min(set.first_step, m.n1);
      set.last_step = std::max(set.last_step, m.n2);
    }
  }
  return set;
}

}  // namespace clfdtd
