// Patent step 1-1-4 / 4.1: point sources, applied right after the E update of step s -> s+1.
//
// Continuous: curl H = eps dE/dt + sigma E + J. Discrete (docs/EQUATIONS.md):
//   E_c[cell] -= cb(id) * J[s]
// with J[s] the source's current density at (s + 1/2) dt (a dipole's J is dp/dt / (dx dy dz),
// computed on the host), cb = dt/eps/(1+q) of the material at the driven E sample. The whole
// table J[src * steps + s] is uploaded once; only s changes between launches.
// One work-item per source. The host merges sources that drive the same sample (summing their
// tables), so no two work-items write one cell. Bytes: ~13 per source, negligible.
#include "fdtd_common.h"

KERNEL void add_sources(GLOBAL float* RESTRICT ex, GLOBAL float* RESTRICT ey,
                        GLOBAL float* RESTRICT ez, GLOBAL const uchar* RESTRICT id_ex,
                        GLOBAL const uchar* RESTRICT id_ey, GLOBAL const uchar* RESTRICT id_ez,
                        CONSTANT_PTR float4* RESTRICT ecoef,
                        GLOBAL const int* RESTRICT src_cells,  /* cell entries (fdtd_common.h) */
                        GLOBAL const float* RESTRICT j_table, int nsrc, int steps, int s) {
  const int n = GLOBAL_ID(0);
  if (n >= nsrc) return;
  const int comp = entry_component(src_cells[2 * n]);
  const long c = entry_cell(src_cells[2 * n], src_cells[2 * n + 1]);
  const float j = j_table[n * steps + s];
  if (comp == 0) {
    ex[c] = ex[c] - ecoef[id_ex[c]].y * j;
  } else if (comp == 1) {
    ey[c] = ey[c] - ecoef[id_ey[c]].y * j;
  } else {
    ez[c] = ez[c] - ecoef[id_ez[c]].y * j;
  }
}

// Plane waves (host/model/plane_wave.hpp): the TFSF corrections of step s, all applied after the
// step's E update. One work-item per corrected sample (the host merged every term of a sample,
// so no two work-items write one cell): field += sum_t weight[t] * table[s * row_width + row[t]],
// E_inc at s dt and H_inc at (s + 1/2) dt from the 1D line. Both the H correction and what it
// changes in the E update that read H (the weights carry cb) land here, so variants that update
// H and E in one pass need no stage between them.
KERNEL void add_plane_waves(GLOBAL float* RESTRICT ex, GLOBAL float* RESTRICT ey,
                            GLOBAL float* RESTRICT ez, GLOBAL float* RESTRICT hx,
                            GLOBAL float* RESTRICT hy, GLOBAL float* RESTRICT hz,
                            GLOBAL const int* RESTRICT cells, GLOBAL const int* RESTRICT start,
                            GLOBAL const int* RESTRICT rows, GLOBAL const float* RESTRICT weights,
                            GLOBAL const float* RESTRICT table, int count, int row_width, int s) {
  const int n = GLOBAL_ID(0);
  if (n >= count) return;
  const int comp = entry_component(cells[2 * n]);
  const long c = entry_cell(cells[2 * n], cells[2 * n + 1]);
  GLOBAL const float* at = table + (long)s * row_width;
  float sum = 0.0f;
  for (int t = start[n]; t < start[n + 1]; ++t) sum += weights[t] * at[rows[t]];
  GLOBAL float* f = comp == 0 ? ex : comp == 1 ? ey : comp == 2 ? ez : comp == 3 ? hx : comp == 4 ? hy : hz;
  f[c] += sum;
}
