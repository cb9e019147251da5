// UPML helpers shared by the kernel forms that update PML cells (upml.cl, update_fused.cl,
// update_rows.cl): the auxiliary index of a PML cell and the update of one component of one cell
// (docs/EQUATIONS.md; upml.cl writes the recursions out). Nothing here depends on MAGNETIC, so
// nvcc compiles it once, outside the per-setting namespaces.
#ifndef CLFDTD_UPML_LANES_H
#define CLFDTD_UPML_LANES_H
#include "fdtd_common.h"

/* Auxiliary index of PML cell (i, j, k): boxes are int[8] (i0 i1 j0 j1 k0 k1 offset -), disjoint,
   the auxiliaries of a box stored z fastest from its offset, as the reference engine stores them. */
DEVICE_FN int pml_aux_index(CONSTANT_PTR int* RESTRICT boxes, int nboxes, int i, int j, int k) {
  for (int b = 0; b < nboxes; ++b) {
    CONSTANT_PTR int* x = boxes + 8 * b;
    if (i >= x[0] && i < x[1] && j >= x[2] && j < x[3] && k >= x[4] && k < x[5])
      return x[6] + ((i - x[0]) * (x[3] - x[2]) + (j - x[2])) * (x[5] - x[4]) + (k - x[4]);
  }
  return -1; /* unreachable for a PML cell */
}

/* One component of one PML cell: the auxiliary recursion (aux[p] updated in place) and the new
   field value. scale = -dt/mu0 for H (B' = a B - b dt/mu0 C), +dt/eps0 for E; pv, pw, pu the
   profiles (a, b, cp, cm) along the component's next, next-but-one and own axis at its position;
   inv_r = 1/eps_r or 1/mu_r of the cell's material. */
DEVICE_FN float upml_update(GLOBAL float* RESTRICT aux, int p, float field, float curl, float4 pv,
                            float4 pw, float4 pu, float scale, float inv_r) {
  const float old_aux = aux[p];
  const float new_aux = pv.x * old_aux + pv.y * scale * curl;
  aux[p] = new_aux;
  return pw.x * field + inv_r * (pu.z * new_aux - pu.w * old_aux) * pw.y * 0.5f;
}

#endif /* CLFDTD_UPML_LANES_H */
