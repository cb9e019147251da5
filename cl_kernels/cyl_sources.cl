// The cylindrical solver's point sources and probes (docs/CYLINDRICAL.md).
// Sources, right after the E update of step s -> s+1: mode slot q's current density at the driven
// sample is j[s] * mode_factor[q] (complex; the host sums the sources that drive one sample into one
// table, J[((src * nq + q) * steps + s) * 2 + part]), and E_q(cell) -= cb * J_q. One work-item per
// (merged source, mode slot): no two write one value.
// Probes: the physical field at the probe's angle, sum_q Re(F_q e^{i m_q phi}) =
// sum_q (Re F_q cos(m_q phi) - Im F_q sin(m_q phi)), phase[(sample * nq + q) * 2] = (cos, sin),
// into batch[slot * nsamples + sample]. One work-item per sample. Bytes: negligible.
#include "cyl_common.h"

KERNEL void cyl_add_sources(GLOBAL float* RESTRICT er, GLOBAL float* RESTRICT ephi,
                            GLOBAL float* RESTRICT ez, GLOBAL const uchar* RESTRICT id_er,
                            GLOBAL const uchar* RESTRICT id_ephi,
                            GLOBAL const uchar* RESTRICT id_ez,
                            CONSTANT_PTR float4* RESTRICT ecoef,
                            GLOBAL const int* RESTRICT src_cells, /* (component 0..2, cell) */
                            GLOBAL const float* RESTRICT j_table, int nsrc, int nq, int cells,
                            int steps, int s) {
  const int n = GLOBAL_ID(0);
  if (n >= nsrc * nq) return;
  const int src = n / nq, q = n - src * nq;
  const int comp = src_cells[2 * src], c = src_cells[2 * src + 1];
  const int at = 2 * (n * steps + s);
  const float jr = j_table[at], ji = j_table[at + 1];
  const int pr = 2 * q * cells + c, pim = pr + cells;
  if (comp == 0) {
    const float cb = ecoef[id_er[c]].y;
    er[pr] -= cb * jr;
    er[pim] -= cb * ji;
  } else if (comp == 1) {
    const float cb = ecoef[id_ephi[c]].y;
    ephi[pr] -= cb * jr;
    ephi[pim] -= cb * ji;
  } else {
    const float cb = ecoef[id_ez[c]].y;
    ez[pr] -= cb * jr;
    ez[pim] -= cb * ji;
  }
}

KERNEL void cyl_sample_probes(GLOBAL const float* RESTRICT er, GLOBAL const float* RESTRICT ephi,
                              GLOBAL const float* RESTRICT ez, GLOBAL const float* RESTRICT hr,
                              GLOBAL const float* RESTRICT hphi, GLOBAL const float* RESTRICT hz,
                              GLOBAL const int* RESTRICT samples, /* cell entries (fdtd_common.h) */
                              GLOBAL const float* RESTRICT phase, GLOBAL float* RESTRICT batch,
                              int nsamples, int nq, int cells, int slot) {
  const int n = GLOBAL_ID(0);
  if (n >= nsamples) return;
  const int comp = entry_component(samples[2 * n]);
  const long c = entry_cell(samples[2 * n], samples[2 * n + 1]);
  float v = 0.0f;
  for (int q = 0; q < nq; ++q) {
    const long pr = 2L * q * cells + c;
    const float re = component_at(er, ephi, ez, hr, hphi, hz, comp, pr);
    const float im = component_at(er, ephi, ez, hr, hphi, hz, comp, pr + cells);
    v += re * phase[2 * (n * nq + q)] - im * phase[2 * (n * nq + q) + 1];
  }
  batch[slot * nsamples + n] = v;
}
