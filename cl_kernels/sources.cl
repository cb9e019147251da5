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
